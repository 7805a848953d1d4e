"""The CSV downloads: every hand of a game, every hand of a club."""

from __future__ import annotations

import hashlib
from datetime import date

from flask import Blueprint, Response

from scorer import store
from scorer.core.errors import RuleError
from scorer.games.csv_export import to_csv
from scorer.sheets.cache import cached_sheet
from scorer.store import board_cache, get_db, load_club_board
from scorer.web.failures import load_game
from scorer.web.forms import number_arg
from scorer.web.routes import heavy_read

bp = Blueprint("csv", __name__)


def csv_response(text: str | bytes, filename: str) -> Response:
    response = Response(text, mimetype="text/csv")
    response.headers["Content-Type"] = "text/csv; charset=utf-8"
    response.headers["Content-Disposition"] = f'attachment; filename="{filename}"'
    response.headers["Cache-Control"] = "no-cache"
    return response


@bp.get("/games/<game_id>/hands.csv")
@heavy_read
def game_hands(game_id: str) -> Response:
    # 404, or 409 for hands a later rules fix no longer accepts (the JSON export still works)
    game = load_game(game_id)
    return csv_response(to_csv([game]), f"game-{game_id}-hands.csv")


@bp.get("/clubs/<club_id>/hands.csv")
@heavy_read
def club_hands(club_id: str) -> Response:
    """One part of the club's hands (?part=, from 1): whole games, at most
    CSV_HANDS_PER_PART hands, so its cost is bounded whatever the club stored. A part is
    made in the server's one turn for costly renders and kept by its games' versions, like
    a sheet: downloading it again reads a file."""
    # The year only names the records, which a CSV does not hold; no club: 404.
    board = load_club_board(get_db(), club_id, str(date.today().year), cache=board_cache())
    parts = board.hand_parts()
    part = number_arg("part", len(parts))
    ids = parts[part - 1]
    versions = {line.id: line.version for line in board.games}
    stamp = ",".join(f"{game_id}.{versions[game_id]}" for game_id in ids)
    key = ("csv", club_id, hashlib.sha256(stamp.encode()).hexdigest()[:16])

    def make_csv() -> bytes:
        db = get_db()
        games = []
        for game_id in ids:
            try:
                games.append(store.load_game(db, game_id))  # not cached: read once
            except (store.NotFound, RuleError):
                continue  # deleted since, or no longer replays: the JSON export keeps it
        return to_csv(games).encode()

    data = cached_sheet(key, make_csv)
    name = f"club-{club_id}-hands" + (f"-{part}-of-{len(parts)}" if len(parts) > 1 else "")
    response = csv_response(data, f"{name}.csv")
    if part < len(parts):
        response.headers["Link"] = f'</clubs/{club_id}/hands.csv?part={part + 1}>; rel="next"'
    return response
