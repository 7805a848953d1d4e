"""The JSON API of club nights, in the style of the games API: ETag, If-Match, 304,
Idempotency-Key, and the same errors (scorer.web.failures).

A night's ETag is `night-<id>.<version>.<digest of its tables' game versions>`: a hand
recorded at a table changes the standings, so the tag changes too. Drawing, redrawing or
taking back a round (DELETE .../rounds/last) requires If-Match (428 without): two organisers
drawing at once draw it once, the second is told the night changed (412).
"""

from __future__ import annotations

from flask import Blueprint, Response, jsonify, request
from flask_babel import gettext as _

from scorer import store
from scorer.core.draw import shapes_for
from scorer.core.errors import N_, RuleError
from scorer.nights.payloads import parse_name
from scorer.nights.tournament import (
    clock_tag,
    night_ranking,
    parse_final,
    parse_forfeit,
    parse_tournament_night,
    tournament_extras,
)
from scorer.nights.view import NightView, load_night_view, night_json, night_view
from scorer.store import NotFound, get_db
from scorer.web.api_contract import PreconditionRequired
from scorer.web.http import creation_key, json_body
from scorer.web.routes import budget

bp = Blueprint("nights_api", __name__, url_prefix="/api")


def table_name(round_number: int, table: int) -> str:
    """A table's game name, in the organiser's language (as if they had typed it)."""
    return _("Table %(table)s, round %(round)s", table=table, round=round_number)


def load_view(night_id: str) -> NightView:
    """The night's view as it stands (kept per state of the night: scorer.nights.view)."""
    return load_night_view(get_db(), night_id)


def night_response(view: NightView, status: int = 200) -> Response:
    extras = tournament_extras(view)
    tag = view.etag + clock_tag(extras)
    if status == 200 and request.method == "GET" and tag in request.if_none_match:
        response = Response(status=304)
    else:
        response = jsonify({**night_json(view), **extras})
        response.status_code = status
    response.set_etag(tag)
    response.headers["Cache-Control"] = "no-cache"
    return response


def expected_version(view: NightView) -> int | None:
    """The night version an If-Match header expects (0, no night's, for a foreign tag)."""
    if "If-Match" not in request.headers:
        return None
    if request.if_match.star_tag:
        return view.night.version
    prefix = f"night-{view.night.id}.{view.night.version}."
    tags = request.if_match.as_set()
    return view.night.version if any(tag.startswith(prefix) for tag in tags) else 0


def required_version(view: NightView) -> int:
    version = expected_version(view)
    if version is None:
        raise PreconditionRequired(
            "If-Match",
            N_("send If-Match with the night's ETag: without it a retry could draw twice"),
        )
    return version


def tables_to_draw() -> int:
    """The games the request's draw makes (a table each): what it spends of create_game."""
    try:
        night = store.load_night(get_db(), str((request.view_args or {})["night_id"]))
        return max(1, len(shapes_for(len(night.players), night.settings.odd)[0]))  # type: ignore[arg-type]
    except (KeyError, store.NightNotFound, RuleError):
        return 1  # refused anyway: it costs what any request does


def tables_to_redraw() -> int:
    """The games a redraw makes again: as many as its round's tables."""
    try:
        night = store.load_night(get_db(), str((request.view_args or {})["night_id"]))
    except (KeyError, store.NightNotFound):
        return 1
    return max(1, len(night.rounds[-1].tables)) if night.rounds else 1


@bp.post("/clubs/<club_id>/nights")
@budget("club_roster")
def create_night(club_id: str) -> Response:
    key = creation_key()
    players, settings = parse_tournament_night(json_body())
    try:
        night_id = store.create_night(get_db(), club_id, players, settings, idempotency_key=key)
    except store.ClubNotFound:
        raise NotFound(club_id, N_("no club at this address")) from None
    response = night_response(load_view(night_id), 201)
    response.headers["Location"] = f"/api/nights/{night_id}"
    return response


@bp.get("/nights/<night_id>")
def get_night(night_id: str) -> Response:
    return night_response(load_view(night_id))


@bp.post("/nights/<night_id>/rounds")
@budget("create_game", cost=tables_to_draw)
def draw_round(night_id: str) -> Response:
    view = load_view(night_id)
    night = store.draw_next_round(
        get_db(),
        night_id,
        version=required_version(view),
        table_name=table_name,
        ratings=view.ratings,
    )
    response = night_response(night_view(get_db(), night), 201)
    response.headers["Location"] = f"/api/nights/{night_id}"
    return response


@bp.post("/nights/<night_id>/rounds/last/redraw")
@budget("create_game", cost=tables_to_redraw)
def redraw_round(night_id: str) -> Response:
    view = load_view(night_id)
    night = store.redraw_round(
        get_db(),
        night_id,
        version=required_version(view),
        table_name=table_name,
        ratings=view.ratings,
    )
    return night_response(night_view(get_db(), night))


@bp.delete("/nights/<night_id>/rounds/last")
@budget("create_game")
def undo_round(night_id: str) -> Response:
    """Take back the last draw (a round drawn by mistake), until a hand of it is recorded."""
    view = load_view(night_id)
    night = store.undo_round(get_db(), night_id, version=required_version(view))
    return night_response(night_view(get_db(), night))


@bp.post("/nights/<night_id>/players")
@budget("club_roster")
def add_player(night_id: str) -> Response:
    view = load_view(night_id)
    name = parse_name(json_body())
    store.add_night_player(get_db(), night_id, name, version=expected_version(view))
    return night_response(load_view(night_id), 201)


@bp.route(
    "/nights/<night_id>/rounds/<int:number>/tables/<int:table>/forfeit", methods=["PUT", "DELETE"]
)
@budget("club_roster")
def forfeit(night_id: str, number: int, table: int) -> Response:
    """PUT {"absent": <side>}: the table is won by forfeit; DELETE: withdrawn (If-Match)."""
    view = load_view(night_id)
    absent = parse_forfeit(json_body()) if request.method == "PUT" else None
    night = store.set_forfeit(
        get_db(), night_id, number, table, absent, version=required_version(view)
    )
    return night_response(night_view(get_db(), night))


@bp.post("/nights/<night_id>/final")
@budget("create_game")
def final_table(night_id: str) -> Response:
    """Seat the final table {"per_table": N}: the N best of each table of the last round, by
    the night's ranking, as one more round (If-Match)."""
    view = load_view(night_id)
    per_table = parse_final(json_body())
    night = store.seat_final_table(
        get_db(),
        night_id,
        night_ranking(view),
        per_table=per_table,
        version=required_version(view),
        table_name=final_table_name,
    )
    response = night_response(night_view(get_db(), night), 201)
    response.headers["Location"] = f"/api/nights/{night_id}"
    return response


def final_table_name(round_number: int, table: int) -> str:
    """The final table's game name, in the organiser's language."""
    return _("Final table, round %(round)s", round=round_number)
