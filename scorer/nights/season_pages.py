"""A club's seasons as pages: the list and a new season's form, the season's table, its PDF.

The form posts what the API takes (scorer.nights.seasons.parse_season), so a refusal is the
same, shown beside its box with what was typed; success redirects to the season's page.
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, abort, flash, redirect, render_template, request, url_for
from flask_babel import gettext as _
from werkzeug.wrappers import Response

from scorer import store
from scorer.core.errors import RuleError
from scorer.nights.seasons import SeasonView, parse_season, season_view
from scorer.sheets import render
from scorer.sheets.cache import cached_sheet
from scorer.store import get_db
from scorer.web.failures import status_of
from scorer.web.forms import is_index
from scorer.web.i18n import error_text
from scorer.web.pages import Page
from scorer.web.routes import budget, heavy_read

bp = Blueprint("seasons_pages", __name__)


def load_season(season_id: str) -> SeasonView:
    try:
        return season_view(season_id)
    except store.SeasonNotFound:
        abort(404)


def typed_season() -> dict[str, str]:
    form = request.form
    return {key: form.get(key, "").strip() for key in ("name", "from", "to", "best_of")}


def season_body(typed: dict[str, str]) -> dict[str, Any]:
    best_of = typed["best_of"]
    return {
        "name": typed["name"],
        "from": typed["from"],
        "to": typed["to"],
        "best_of": int(best_of) if is_index(best_of) else best_of or None,
    }


@bp.route("/clubs/<club_id>/seasons", methods=["GET", "POST"])
@budget("club_roster")
def club_seasons(club_id: str) -> Page:
    """The club's seasons, and the form that makes one."""
    try:
        club = store.load_club(get_db(), club_id)
    except store.ClubNotFound:
        abort(404)
    typed = {"name": "", "from": "", "to": "", "best_of": "4"}
    error: RuleError | None = None
    if request.method == "POST":
        typed = typed_season()
        try:
            settings = parse_season(season_body(typed))
            season_id = store.create_season(get_db(), club_id, settings)
        except RuleError as refused:
            error = refused
        else:
            flash(_("Season created: its table adds up the club's nights between its dates."))
            return redirect(url_for("seasons_pages.season", season_id=season_id), code=303)
    return (
        render_template(
            "nights/seasons.html",
            club=club,
            seasons=store.seasons_of_club(get_db(), club_id),
            typed=typed,
            error=error_text(error) if error is not None else None,
            error_field=error.field if error is not None else "",
        ),
        status_of(error) if error is not None else 200,
    )


@bp.get("/seasons/<season_id>")
@heavy_read  # every night of the season worked out, each table's game replayed
def season(season_id: str) -> Page:
    view = load_season(season_id)
    return render_template("nights/season.html", view=view, settings=view.season.settings)


@bp.get("/seasons/<season_id>.pdf")
@heavy_read
def season_pdf(season_id: str) -> Response:
    """The season's table, rendered in the server's one turn and kept per season tag (its
    nights as they stand), as every sheet is (scorer.sheets.cache)."""
    view = load_season(season_id)
    size = render.paper_size()

    def make_pdf() -> bytes:
        html = render_template(
            "pdf/season.html",
            view=view,
            settings=view.season.settings,
            page_size=size,
            page_counter=render.page_counter_css(),
        )
        return render.render_pdf(html)

    pdf = cached_sheet(("night", "season", view.etag), make_pdf)
    return render.pdf_response(pdf, f"season-{view.season.id}.pdf")
