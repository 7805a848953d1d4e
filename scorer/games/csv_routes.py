"""The CSV downloads: every hand of a game, every hand of a club."""

from __future__ import annotations

from flask import Blueprint, Response

from scorer.games.csv_export import to_csv
from scorer.store.cache import replayed_game
from scorer.store.club_games import replay_games
from scorer.store.clubs import load_club
from scorer.store.db import get_db
from scorer.web.failures import load_game

bp = Blueprint("csv", __name__)


def csv_response(text: str, filename: str) -> Response:
    response = Response(text, mimetype="text/csv")
    response.headers["Content-Type"] = "text/csv; charset=utf-8"
    response.headers["Content-Disposition"] = f'attachment; filename="{filename}"'
    response.headers["Cache-Control"] = "no-cache"
    return response


@bp.get("/games/<game_id>/hands.csv")
def game_hands(game_id: str) -> Response:
    # 404, or 409 for hands a later rules fix no longer accepts (the JSON export still works)
    game = load_game(game_id)
    return csv_response(to_csv([game]), f"game-{game_id}-hands.csv")


@bp.get("/clubs/<club_id>/hands.csv")
def club_hands(club_id: str) -> Response:
    club = load_club(get_db(), club_id)
    games, _unreadable = replay_games(get_db(), club, load=replayed_game)
    return csv_response(to_csv(games), f"club-{club_id}-hands.csv")
