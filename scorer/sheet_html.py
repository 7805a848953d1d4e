"""WeasyPrint's HTML with a lighter user-agent style sheet, for score sheets.

WeasyPrint's own user-agent sheet has rules for six pseudo-elements of *every* element
(`::marker`, `::footnote-call`, `::footnote-marker`, `::note-call`, `::note-marker`,
`::note-callback`). Their styles are computed element by element, never shared, so on a score
sheet (17 cells a row) they were about a third of the layout's time. Our sheets have no lists,
footnotes nor notes: `::marker` is kept for list items only and the others are left out.
Everything else of the user-agent sheet is WeasyPrint's, unchanged.
"""

from __future__ import annotations

import functools
import re

import weasyprint
from weasyprint import html as weasy_html

# The user-agent rules kept out: one per line in WeasyPrint's html5_ua.css.
UNUSED_PSEUDO = re.compile(
    r"^::(footnote-call|footnote-marker|note-call|note-marker|note-callback)\b.*$", re.MULTILINE
)
EVERY_MARKER = re.compile(r"^::marker\b", re.MULTILINE)


@functools.cache
def light_ua_sheet() -> weasyprint.CSS:
    """The user-agent sheet without the pseudo-element rules score sheets never use."""
    text = UNUSED_PSEUDO.sub("", weasy_html.UA)
    text = EVERY_MARKER.sub("li::marker", text)
    return weasyprint.CSS(string=text, counter_style=weasy_html.UA_COUNTER_STYLE)


class SheetHTML(weasyprint.HTML):
    """`weasyprint.HTML` styled with `light_ua_sheet` (forms keep WeasyPrint's own sheets)."""

    def _ua_stylesheets(self, forms: bool = False) -> list[weasyprint.CSS]:
        if forms:
            return super()._ua_stylesheets(forms)
        return [light_ua_sheet()]
