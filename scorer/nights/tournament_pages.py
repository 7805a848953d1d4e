"""The organiser's tournament forms on a night's page (JavaScript off): a table won by
forfeit (or withdrawn), and the final table. Each posts the night's version it showed and is
answered by a redirect; a refusal shows the night's page again with its message."""

from __future__ import annotations

from flask import Blueprint, flash, redirect, request, url_for
from flask_babel import gettext as _

from scorer import store
from scorer.core.errors import N_, RuleError
from scorer.nights.api import final_table_name
from scorer.nights.pages import load_view, night_page, posted_version
from scorer.nights.tournament import night_ranking
from scorer.store import get_db
from scorer.web.failures import status_of
from scorer.web.forms import is_index
from scorer.web.pages import Page
from scorer.web.routes import budget

bp = Blueprint("tournament_pages", __name__)


def _done(night_id: str, message: str) -> Page:
    flash(message)
    return redirect(url_for("nights_pages.night", night_id=night_id), code=303)


def _stale(night_id: str) -> Page:
    flash(_("Someone else changed this night meanwhile: here it is as it stands now."))
    return redirect(url_for("nights_pages.night", night_id=night_id), code=303)


@bp.post("/nights/<night_id>/forfeit")
@budget("club_roster")
def forfeit(night_id: str) -> Page:
    """The form's "round:table:side" (the absent side), or "round:table:" to withdraw."""
    view = load_view(night_id)
    parts = request.form.get("forfeit", "").split(":")
    try:
        if len(parts) != 3 or not all(is_index(p) for p in parts[:2]):
            raise RuleError("absent", N_("choose the table and the side that did not come"))
        number, table = int(parts[0]), int(parts[1])
        absent = int(parts[2]) if is_index(parts[2]) else None
        store.set_forfeit(get_db(), night_id, number, table, absent, version=posted_version())
    except store.StaleNight:
        return _stale(night_id)
    except store.NightNotFound:
        return night_page(view, 404, RuleError("absent", N_("no such table in this night")))
    except RuleError as error:
        return night_page(load_view(night_id), status_of(error), error)
    if absent is None:
        return _done(night_id, _("Forfeit withdrawn: the table plays its game."))
    return _done(night_id, _("Forfeit recorded: the present side wins the table."))


@bp.post("/nights/<night_id>/final")
@budget("create_game")
def final(night_id: str) -> Page:
    view = load_view(night_id)
    typed = request.form.get("per_table", "").strip()
    try:
        store.seat_final_table(
            get_db(),
            night_id,
            night_ranking(view),
            per_table=int(typed) if is_index(typed) else typed,  # type: ignore[arg-type]
            version=posted_version(),
            table_name=final_table_name,
        )
    except store.StaleNight:
        return _stale(night_id)
    except RuleError as error:
        return night_page(load_view(night_id), status_of(error), error)
    return _done(night_id, _("Final table seated: its table's phone scans its QR code."))
