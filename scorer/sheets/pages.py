"""The blank score sheets' page ("pdf.sheets", on the sheets' blueprint): one link per
seating the variants of every game a table may choose allow, A4 or Letter."""

from __future__ import annotations

from flask import render_template

from scorer.core.families import DEFAULT_FAMILY, FAMILIES
from scorer.core.seatings import blank_seatings
from scorer.sheets.render import bp
from scorer.web.display import seating_label
from scorer.web.i18n import FAMILY_LABELS, PROFILE_LABELS
from scorer.web.pages import Page


@bp.get("/sheets")
def sheets() -> Page:
    games = [
        (
            FAMILY_LABELS.get(family.key, family.key),
            # The default game's sheets need no `family` (their links are older than families).
            "" if family is DEFAULT_FAMILY else f"&family={family.key}",
            [
                (s, seating_label(s), PROFILE_LABELS.get(s.profile_key, s.profile_key))
                for s in blank_seatings(family)
            ],
        )
        for family in FAMILIES.values()
    ]
    return render_template("games/sheets.html", games=games)
