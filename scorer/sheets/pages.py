"""The blank score sheets' page: one link per seating the variants allow, A4 or Letter."""

from __future__ import annotations

from flask import render_template
from werkzeug.wrappers import Response

from scorer.core.seatings import blank_seatings
from scorer.web.display import seating_label
from scorer.web.folders import STATIC_FOLDER
from scorer.web.i18n import PROFILE_LABELS
from scorer.web.pages import Page, bp


@bp.get("/sheets")
def sheets() -> Page:
    rows = [
        (s, seating_label(s), PROFILE_LABELS.get(s.profile_key, s.profile_key))
        for s in blank_seatings()
    ]
    return render_template("games/sheets.html", rows=rows)


@bp.get("/favicon.ico")
def favicon() -> Response:
    """Browsers ask for it on every page: the app's icon, small."""
    icon = (STATIC_FOLDER / "favicon.ico").read_bytes()
    response = Response(icon, mimetype="image/vnd.microsoft.icon")
    response.cache_control.max_age = 86400
    return response
