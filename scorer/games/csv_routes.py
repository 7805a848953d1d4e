"""The CSV downloads: every hand of a game, every hand of a club."""

from __future__ import annotations

from flask import Blueprint, Response, abort

from scorer import store
from scorer.core.errors import RuleError
from scorer.games.csv_export import to_csv
from scorer.store.cache import replayed_game
from scorer.store.club_games import replay_games
from scorer.store.clubs import ClubNotFound, load_club
from scorer.store.db import get_db

bp = Blueprint("csv", __name__)


def csv_response(text: str, filename: str) -> Response:
    response = Response(text, mimetype="text/csv")
    response.headers["Content-Type"] = "text/csv; charset=utf-8"
    response.headers["Content-Disposition"] = f'attachment; filename="{filename}"'
    response.headers["Cache-Control"] = "no-cache"
    return response


@bp.get("/games/<game_id>/hands.csv")
def game_hands(game_id: str) -> Response:
    try:
        game = replayed_game(get_db(), game_id)
    except store.NotFound:
        abort(404)
    except RuleError:
        abort(409)  # hands a later rules fix no longer accepts: the JSON export still works
    return csv_response(to_csv([game]), f"game-{game_id}-hands.csv")


@bp.get("/clubs/<club_id>/hands.csv")
def club_hands(club_id: str) -> Response:
    try:
        club = load_club(get_db(), club_id)
    except ClubNotFound:
        abort(404)
    games, _unreadable = replay_games(get_db(), club, load=replayed_game)
    return csv_response(to_csv(games), f"club-{club_id}-hands.csv")
