"""The JSON API of clubs, in the style of the games API: same errors, ETag and If-Match.

A club's ETag is `<id>.<version>.<games_version>`, both read from the club's row: a hand
recorded in one of its games changes the standings, and bumps games_version (m011's
triggers), so the tag changes too. A write sent with If-Match only
cares about the club itself (roster, list of games): it is refused with 412 when the club's
version in the tag is not the current one.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime
from typing import Any

from flask import Blueprint, Response, current_app, jsonify, request, stream_with_context

from scorer import store
from scorer.clubs import export_cache
from scorer.clubs.exchange import club_json
from scorer.core.errors import N_
from scorer.core.limits import CLUB_IMPORT_MAX_BYTES, CLUB_PART_BYTES
from scorer.store import board_cache, club_tag, get_db
from scorer.web.api_contract import (
    PayloadError,
    fields_of,
    parse_export,
    parse_game,
    parse_game_id,
)
from scorer.web.failures import load_game
from scorer.web.http import (
    game_response,
    is_current,
    json_body,
    not_modified,
    tagged,
    version_expected,
)
from scorer.web.routes import body_cap, budget, heavy_read

bp = Blueprint("api_clubs", __name__, url_prefix="/api/clubs")


def json_object(allowed: frozenset[str]) -> dict[str, Any]:
    """The request's JSON object; 400 unless it is application/json with known fields."""
    return fields_of(json_body(), allowed)


def text_field(data: dict[str, Any], key: str) -> str:
    value = data.get(key)
    if not isinstance(value, str):
        raise PayloadError(key, N_("must be text"))
    return value


# --- ETags -----------------------------------------------------------------------------------


def expected_version(club: store.StoredClub) -> int | None:
    """The club version an If-Match header expects (0, no club's, for a foreign tag).

    Only the club's own part of the tag counts: a write changes the roster or the list of
    games, which a hand recorded meanwhile in one of its games leaves as it was.
    """
    prefix = f"{club.id}.{club.version}."
    return version_expected(prefix, club.version, lambda sent: sent.startswith(prefix))


def this_year() -> str:
    return str(datetime.now(UTC).year)


def club_response(club_id: str, status: int = 200) -> Response:
    if status == 200 and request.method == "GET":
        tag = club_tag(get_db(), club_id)  # one row: a 304 reads no game
        if is_current(tag):
            return not_modified(tag)
    board = store.load_club_board(get_db(), club_id, this_year(), cache=board_cache())
    view = store.ClubView(board.club, board.games, board.stats, board.unreadable)
    response = jsonify(club_json(view))
    response.status_code = status
    return tagged(response, board.tag)


# --- routes ----------------------------------------------------------------------------------


@bp.post("")
@budget("create_club")
def create_club() -> Response:
    data = json_object(frozenset({"name", "players", "settings", "family"}))
    text_field(data, "name")
    club_id = store.create_club(
        get_db(),
        name=data["name"],
        players=data.get("players", []),
        settings=data.get("settings"),
        family=data.get("family"),
    )
    response = club_response(club_id, 201)
    response.headers["Location"] = f"/api/clubs/{club_id}"
    return response


@bp.get("/<club_id>")
@heavy_read
def get_club(club_id: str) -> Response:
    return club_response(club_id)


@bp.post("/<club_id>/players")
@budget("club_roster")
def add_player(club_id: str) -> Response:
    club = store.load_club(get_db(), club_id)
    data = json_object(frozenset({"name"}))
    store.add_club_player(
        get_db(), club_id, text_field(data, "name"), version=expected_version(club)
    )
    return club_response(club_id, 201)


@bp.patch("/<club_id>/players/<path:name>")
@budget("club_roster")
def rename_player(club_id: str, name: str) -> Response:
    club = store.load_club(get_db(), club_id)
    data = json_object(frozenset({"name"}))
    new = text_field(data, "name")
    store.rename_player(get_db(), club_id, name, new, version=expected_version(club))
    return club_response(club_id)


@bp.delete("/<club_id>/players/<path:name>")
@budget("club_roster")
def remove_player(club_id: str, name: str) -> Response:
    club = store.load_club(get_db(), club_id)
    store.remove_player(get_db(), club_id, name, version=expected_version(club))
    return club_response(club_id)


@bp.post("/<club_id>/games")
@budget("create_game")
def create_game(club_id: str) -> Response:
    club = store.load_club(get_db(), club_id)
    arguments = parse_game(json_object(frozenset(_GAME_FIELDS)))
    game_id = store.create_club_game(get_db(), club_id, arguments, version=expected_version(club))
    # The same answer as a GET of its Location, watch_url included.
    return game_response(load_game(game_id), 201, created=True)


_GAME_FIELDS = (
    "name",
    "family",
    "profile",
    "target",
    "fixed_hands",
    "first_dealer",
    "sides",
    "rules",
)


@bp.post("/<club_id>/games/file")
@budget("club_roster")
def file_game(club_id: str) -> Response:
    club = store.load_club(get_db(), club_id)
    data = json_object(frozenset({"game", "players"}))
    game_id = parse_game_id(data.get("game"), "game")
    store.file_game(
        get_db(),
        club_id,
        game_id,
        data.get("players"),
        version=expected_version(club),
    )
    return club_response(club_id)


@bp.get("/<club_id>/export")
@heavy_read
def export_club(club_id: str) -> Response:
    """The club as JSON, what `POST /api/clubs/import` takes back, in parts: its head and
    whole games, at most CLUB_PART_BYTES of them (scorer.core.limits: a full club of night
    games is one part). A part that is not the last ends with "next", the address of the
    next part (`?from=` its first game), which `POST /api/clubs/<id>/import` adds to the
    club the first part made. Sent as it is read, a few games at a time, so a part never
    sits in memory whole."""
    # The tag first: a part kept under it holds at least what the tag says (export_cache).
    tag = club_tag(get_db(), club_id)
    head, game_ids = store.export_head(get_db(), club_id)  # 404 before any byte
    start = request.args.get("from")
    if start is not None and start not in game_ids:
        raise store.NotFound(club_id, N_("this part's first game has left the club"), field="from")
    rest = game_ids[game_ids.index(start) :] if start is not None else game_ids
    dumps = current_app.json.dumps

    def document() -> Iterator[bytes]:
        yield (dumps(head)[:-1] + ',"games":[').encode()  # the head's object, left open
        size = 0
        for number, game in enumerate(store.export_games(get_db(), rest)):
            text = dumps(game).encode()  # UTF-8: the bytes are what a part's cap counts
            size += len(text) + 1
            if number and size > CLUB_PART_BYTES:  # one game alone always fits
                address = f"/api/clubs/{club_id}/export?from={game['id']}"
                yield ('],"next":' + dumps(address) + "}").encode()
                return
            if number:
                yield b","
            yield text
        yield b"]}"

    found = export_cache.kept(current_app, tag, start)
    if found is not None:
        body: Any = export_cache.sent(found)
    else:
        body = stream_with_context(export_cache.keeping(current_app, tag, start, document()))
    # Not direct_passthrough: that marks a static file, which scorer.web.assets reads whole.
    response = Response(body, mimetype="application/json")
    name = f"club-{club_id}" + (f"-from-{start}" if start is not None else "")
    response.headers["Content-Disposition"] = f'attachment; filename="{name}.json"'
    return response


@bp.post("/import")
@budget("import_kib", "create_club")
@body_cap(CLUB_IMPORT_MAX_BYTES)
def import_club() -> Response:
    """A new club from its export, or from its export's first part (the others then join
    it, below)."""
    data = json_object(store.EXPORT_FIELDS)
    club_id = store.import_club(get_db(), data, parse_export)
    response = club_response(club_id, 201)
    response.headers["Location"] = f"/api/clubs/{club_id}"
    return response


@bp.post("/<club_id>/import")
@budget("import_kib")
@body_cap(CLUB_IMPORT_MAX_BYTES)
def import_into_club(club_id: str) -> Response:
    """A part of a club's export (or a whole export) added to this club. With If-Match (the
    tag the last part's answer gave), a retried part that was stored is 412, never twice."""
    club = store.load_club(get_db(), club_id)
    data = json_object(store.EXPORT_FIELDS)
    store.import_into_club(get_db(), club_id, data, parse_export, version=expected_version(club))
    return club_response(club_id)
