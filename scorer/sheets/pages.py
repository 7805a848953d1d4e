"""The blank score sheets' page ("pdf.sheets", on the sheets' blueprint): one link per
seating the variants allow, A4 or Letter."""

from __future__ import annotations

from flask import render_template

from scorer.core.seatings import blank_seatings
from scorer.sheets.render import bp
from scorer.web.display import seating_label
from scorer.web.i18n import PROFILE_LABELS
from scorer.web.pages import Page


@bp.get("/sheets")
def sheets() -> Page:
    rows = [
        (s, seating_label(s), PROFILE_LABELS.get(s.profile_key, s.profile_key))
        for s in blank_seatings()
    ]
    return render_template("games/sheets.html", rows=rows)
