"""Club nights' pages: start a night from the club, draw its rounds, see its tables with their
QR codes, and the wall's leaderboard (the night's watch address, read only and live).

Every write is a POST form (CSRF) answered by a redirect; a refusal comes back with what was
typed and the message beside its box. Each form sends the night's version it showed, so a
second organiser's tap on "Draw" finds the round already drawn and draws nothing.
"""

from __future__ import annotations

import re
from datetime import date
from typing import Any

from flask import Blueprint, abort, flash, jsonify, redirect, render_template, request, url_for
from flask_babel import format_date
from flask_babel import gettext as _
from markupsafe import Markup
from werkzeug.wrappers import Response

from scorer import store
from scorer.core.draw import shapes_for
from scorer.core.errors import RuleError
from scorer.core.limits import check_club_name
from scorer.core.round_clock import ClockReading
from scorer.nights.api import table_name, tables_to_draw, tables_to_redraw
from scorer.nights.tournament import parse_tournament_night, phase_tag, tournament_page
from scorer.nights.view import NightView, TableView, load_night_view, night_json
from scorer.qr import qr_svg
from scorer.sheets import render
from scorer.sheets.cache import cached_sheet
from scorer.store import get_db
from scorer.web.addresses import absolute_url
from scorer.web.api_contract import PayloadError
from scorer.web.display import points
from scorer.web.failures import status_of
from scorer.web.forms import is_index, list_page
from scorer.web.game_setup import target_choices
from scorer.web.i18n import current_language, error_text
from scorer.web.pages import Page
from scorer.web.routes import budget, heavy_read

bp = Blueprint("nights_pages", __name__)

# Boxes for players who are not yet in the roster, on the new-night form.
NEW_PLAYER_BOXES = 6
# Nights listed on one page of the club's nights (as the club's page lists its games).
NIGHTS_PER_PAGE = 50


def load_club(club_id: str) -> store.StoredClub:
    try:
        return store.load_club(get_db(), club_id)
    except store.ClubNotFound:
        abort(404)


@bp.get("/clubs/<club_id>/nights")
def club_nights(club_id: str) -> Page:
    """The club's nights, newest first, in pages as the club's games are, and the button to
    start one."""
    club = load_club(club_id)
    count, _today = store.night_counts(get_db(), club_id, "")
    shown = list_page(count, NIGHTS_PER_PAGE)
    nights = store.nights_of_club(get_db(), club_id, NIGHTS_PER_PAGE, shown.first)
    return render_template(
        "nights/list.html",
        club=club,
        nights=nights,
        count=count,
        page=shown.page,
        pages=shown.pages,
        first=shown.first,
    )


# --- a new night -----------------------------------------------------------------------------


def typed_night() -> dict[str, Any]:
    """The new-night form as typed (what a refusal shows again)."""
    form = request.form
    new = form.getlist("new_players")[:NEW_PLAYER_BOXES]
    return {
        "present": form.getlist("present"),
        "new_players": new + [""] * (NEW_PLAYER_BOXES - len(new)),
        "rounds": form.get("rounds", ""),
        "ends": form.get("ends", "hands"),
        "fixed_hands": form.get("fixed_hands", ""),
        "target": form.get("target", ""),
        "draw": form.get("draw", "random"),
        "ranking": form.get("ranking", "wins_then_points"),
        "odd": form.get("odd", "variants"),
        "minutes": form.get("minutes", ""),
        "warning_minutes": form.get("warning_minutes", ""),
        "movement": form.get("movement", "draw"),
        "pairs": form.get("pairs", ""),
    }


def night_body(typed: dict[str, Any], roster: tuple[str, ...]) -> dict[str, Any]:
    """The API's body from the form: the same checks, the same refusals."""
    present = [name for name in roster if name in typed["present"]]
    body: dict[str, Any] = {
        "players": present + [name for name in typed["new_players"] if name.strip()],
        "rounds": _number(typed["rounds"]),
        "draw": typed["draw"],
        "ranking": typed["ranking"],
        "odd": typed["odd"],
    }
    if typed["ends"] == "target":
        body["round"] = {"target": _number(typed["target"])} if typed["target"] else {}
    else:
        body["round"] = {"fixed_hands": _number(typed["fixed_hands"])}
    # A timed round: the minutes box empty means no clock; a warning alone is refused.
    for field in ("minutes", "warning_minutes"):
        if typed[field].strip():
            body["round"][field] = _number(typed[field])
    if typed["movement"] == "mitchell":
        body["movement"] = "mitchell"
        body["pairs"] = typed_pairs(typed["pairs"])
        del body["players"]  # a Mitchell night's players are its pairs'
        if body["rounds"] is None:
            del body["rounds"]  # one round per table
    return body


def typed_pairs(text: str) -> list[list[str]]:
    """The pairs box: one pair a line, "Ann & Bob" (blank lines skipped); a line that is not
    two names is sent as it is, for the API's refusal at that pair."""
    lines = [line for line in text.splitlines() if line.strip()]
    return [[name.strip() for name in line.split("&")] for line in lines]


def _number(text: str) -> int | str | None:
    text = text.strip()
    if not text:
        return None
    return int(text) if is_index(text) else text


def new_night_page(
    club: store.StoredClub, typed: dict[str, Any], status: int = 200, error: Any = None
) -> Page:
    field = (error.field or "") if error is not None else ""
    message = error_text(error) if error is not None else None
    pair = re.fullmatch(r"pairs\[(\d+)\]", field)
    if message and pair:  # which line of the pairs' box (blank lines are not counted)
        message = _("Pair %(n)s: %(error)s", n=int(pair.group(1)) + 1, error=message)
    return (
        render_template(
            "nights/new.html",
            club=club,
            typed=typed,
            targets=target_choices(),
            error=message,
            error_field=field.split("[")[0].split(".")[-1] if field else "",
            error_box=field,
        ),
        status,
    )


@bp.route("/clubs/<club_id>/nights/new", methods=["GET", "POST"])
@budget("club_roster")
def new_night(club_id: str) -> Page:
    club = load_club(club_id)
    if request.method == "GET":
        typed = {
            "present": list(club.players),
            "new_players": [""] * NEW_PLAYER_BOXES,
            "rounds": "4",
            "ends": "hands",
            "fixed_hands": "4",
            "target": "",
            "draw": "random",
            "ranking": "wins_then_points",
            "odd": "variants",
            "minutes": "",
            "warning_minutes": "",
            "movement": "draw",
            "pairs": "",
        }
        return new_night_page(club, typed)
    typed = typed_night()
    try:
        players, settings = parse_tournament_night(night_body(typed, club.players))
        night_id = store.create_night(get_db(), club_id, players, settings)
    except (RuleError, PayloadError) as error:  # a pair typed as one name is the pairs' shape
        return new_night_page(club, typed, status_of(error), error)
    flash(_("Night created. Draw the first round when everyone is here."))
    return redirect(url_for("nights_pages.night", night_id=night_id), code=303)


# --- the organiser's page --------------------------------------------------------------------


def load_view(night_id: str) -> NightView:
    """The night's view as it stands (kept per state of the night: scorer.nights.view)."""
    try:
        return load_night_view(get_db(), night_id)
    except store.NightNotFound:
        abort(404)


def posted_version() -> int | None:
    value = request.form.get("version", "")
    return int(value) if is_index(value) else None


def earlier_rounds(view: NightView) -> Markup:
    """The rounds before the last, newest first, rendered once per state of the night (the
    view's), language and root of the addresses. On the largest night (19 such rounds of 15
    tables) rendering them cost a worker some 200 000 Python calls at every request, and
    nothing in them is the request's own: no form, no CSRF token, no clock, no message."""
    key = ("earlier_rounds", current_language(), request.script_root)
    return view.kept(key, lambda: Markup("".join(_round_html(view, n) for n in _earlier(view))))


def _earlier(view: NightView) -> range:
    """The indexes of the rounds before the last, newest first."""
    return range(len(view.rounds) - 2, -1, -1)


def _round_html(view: NightView, index: int) -> str:
    past, tables = view.night.rounds[index], view.rounds[index]
    return render_template(
        "nights/_round.html", view=view, night=view.night, past=past, tables=tables
    )


def night_page(view: NightView, status: int = 200, error: Any = None) -> Page:
    night = view.night
    try:
        shapes, resting = shapes_for(len(night.players), night.settings.odd)  # type: ignore[arg-type]
    except RuleError:
        shapes, resting = [], 0
    return (
        render_template(
            "nights/night.html",
            view=view,
            night=night,
            rounds=list(zip(night.rounds, view.rounds, strict=True)),
            can_draw=len(night.rounds) < night.settings.rounds and bool(shapes),
            can_redraw=bool(night.rounds) and not view.current_round_started,
            playing=playing_tables(view),
            earlier_rounds=earlier_rounds(view),
            next_tables=len(shapes),
            next_resting=resting,
            error=error_text(error) if error is not None else None,
            name=request.form.get("name", "") if error is not None else "",
        ),
        status,
    )


@bp.get("/nights/<night_id>")
def night(night_id: str) -> Page:
    return night_page(load_view(night_id))


def _act(night_id: str, action: Any, message: str, *args: Any) -> Page:
    """Run a write with the version the page showed; a refusal shows the page again."""
    load_view(night_id)  # 404 first
    try:
        action(get_db(), night_id, *args, version=posted_version())
    except store.StaleNight:
        flash(_("Someone else changed this night meanwhile: here it is as it stands now."))
        return redirect(url_for("nights_pages.night", night_id=night_id), code=303)
    except RuleError as error:
        return night_page(load_view(night_id), status_of(error), error)
    flash(message)
    return redirect(url_for("nights_pages.night", night_id=night_id), code=303)


def _draw(db: Any, night_id: str, *, version: int | None) -> None:
    ratings = load_view(night_id).ratings
    # Through the tournaments' store: a Mitchell night seats its movement's next round.
    store.draw_next_round(db, night_id, version=version, table_name=table_name, ratings=ratings)


def _redraw(db: Any, night_id: str, *, version: int | None) -> None:
    ratings = load_view(night_id).ratings
    store.redraw_round(db, night_id, version=version, table_name=table_name, ratings=ratings)


def playing_tables(view: NightView) -> list[TableView]:
    """The tables of the last round drawn whose game is not over yet."""
    return [table for table in view.rounds[-1] if not table.finished] if view.rounds else []


@bp.route("/nights/<night_id>/draw", methods=["GET", "POST"])
@budget("create_game", cost=tables_to_draw)
def draw(night_id: str) -> Page:
    """Draw the next round. While a table of the current round still plays, the page asks
    first (GET, or a POST without ``confirm``): a tap by mistake draws nothing."""
    view = load_view(night_id)
    playing = playing_tables(view)
    # A tap on a page that is out of date is told so first (the round may be drawn already).
    stale = request.method == "POST" and posted_version() not in (None, view.night.version)
    asks = playing and request.form.get("confirm") != "1" and not stale
    if request.method == "GET" or asks:
        return render_template(
            "nights/confirm_draw.html", view=view, night=view.night, playing=playing
        )
    return _act(night_id, _draw, _("Round drawn: each table scans its QR code."))


@bp.post("/nights/<night_id>/undo")
@budget("create_game")
def undo_draw(night_id: str) -> Page:
    """Take back the last draw, until one of its tables records a hand."""
    number = len(load_view(night_id).night.rounds)
    return _act(
        night_id,
        store.undo_round,
        _("The draw of round %(n)s is taken back: its tables are gone.", n=number),
    )


@bp.post("/nights/<night_id>/redraw")
@budget("create_game", cost=tables_to_redraw)
def redraw(night_id: str) -> Page:
    return _act(night_id, _redraw, _("Round drawn again."))


@bp.post("/nights/<night_id>/players")
@budget("club_roster")
def add_player(night_id: str) -> Page:
    name = request.form.get("name", "")
    try:
        clean = check_club_name(name, "name")
    except RuleError as error:
        return night_page(load_view(night_id), 422, error)
    return _act(
        night_id,
        store.add_night_player,
        _("%(name)s joins the night from the next round.", name=clean),
        clean,
    )


# --- prints ----------------------------------------------------------------------------------


@bp.get("/nights/<night_id>/seating.pdf")
@heavy_read
def seating_pdf(night_id: str) -> Response:
    """The last round's seating: a slip per table with its game's QR code and address.

    Rendered in the server's one turn and kept per night version and address (the slips'
    links), as every sheet is (scorer.sheets.cache)."""
    view = load_view(night_id)
    if not view.rounds:
        abort(render.refused("round", _("no round is drawn yet")))
    past = view.night.rounds[-1]
    size = render.paper_size()

    def make_pdf() -> bytes:
        slips = []
        for table in view.rounds[-1]:
            url = absolute_url(f"/games/{table.game_id}")
            slips.append({"table": table, "url": url, "qr": qr_svg(url)})
        html = render_template(
            "pdf/night_seating.html",
            number=past.number,
            bye=past.bye,
            slips=slips,
            page_size=size,
            page_counter=render.page_counter_css(),
        )
        return render.render_pdf(html)

    key = ("night", "seating", night_id, view.night.version, absolute_url("/"))
    data = cached_sheet(key, make_pdf)
    return render.pdf_response(data, f"night-round-{past.number}.pdf")


@bp.get("/nights/<night_id>/standings.pdf")
@heavy_read
def standings_pdf(night_id: str) -> Response:
    """The night's standings, with each player's rating; kept per state of the night and of
    its tables' games (the wall's tag) and the players' ratings, rendered in the server's
    one turn."""
    view = load_view(night_id)
    day = date.fromisoformat(view.night.created_at[:10])
    size = render.paper_size()

    def make_pdf() -> bytes:
        html = render_template(
            "pdf/night_standings.html",
            view=view,
            night=view.night,
            day=format_date(day, format="long"),
            points=points,
            page_size=size,
            page_counter=render.page_counter_css(),
        )
        return render.render_pdf(html)

    ratings = repr(sorted((name, repr(view.ratings.get(name))) for name in view.night.players))
    key = ("night", "standings", night_id, view.watch_etag, ratings)
    data = cached_sheet(key, make_pdf)
    return render.pdf_response(data, f"night-{view.night.created_at[:10]}.pdf")


# --- the wall --------------------------------------------------------------------------------


# Without JavaScript the wall reloads itself: every half minute, more often while a round's
# clock runs (its seconds stay near right), and a second after the clock's next phase begins.
WALL_RELOAD = 30
CLOCK_RELOAD = 10


def reload_seconds(clock: ClockReading | None) -> int:
    """How soon the wall drawn now reloads itself (JavaScript off)."""
    if clock is None or clock.next_phase_in is None:
        return WALL_RELOAD
    return min(CLOCK_RELOAD, clock.next_phase_in + 1)


@bp.get("/nights/watch/<wall_id>")
def watch(wall_id: str) -> Response | str:
    """The leaderboard and each table's progress, large; as JSON for the live updates."""
    try:
        night_id = store.night_of_watch(get_db(), wall_id)
    except store.NightNotFound:
        abort(404)
    view = load_view(night_id)
    tour = tournament_page(view)  # one reading of the clock for the page and its tag
    # The clock's phase is in the tag: a wall that asks at the warning or the call gets the
    # page anew, though no hand was recorded.
    tag = view.watch_etag + phase_tag(tour.clock)
    wants_json = request.accept_mimetypes.best == "application/json"
    if wants_json and tag in request.if_none_match:
        response = Response(status=304)
    elif wants_json:
        # "version" is what live.js compares: any table's change moves it.
        response = jsonify({**night_json(view, public=True), "version": tag})
    else:
        page = render_template(
            "nights/watch.html",
            view=view,
            night=view.night,
            watch_id=wall_id,
            tour=tour,
            tag=tag,
            reload_seconds=reload_seconds(tour.clock),
        )
        response = Response(page, mimetype="text/html")
    response.set_etag(tag)
    response.headers["Cache-Control"] = "no-cache"
    response.vary.add("Accept")
    return response
