"""A full club's export imports back (issue 35: 2 000 games exported 19.7 MiB against a
16 MiB cap): the import cap follows GAMES_PER_CLUB and a club game's export."""

from __future__ import annotations

from flask import Flask
from flask.testing import FlaskClient

from bench import fixtures
from scorer.core.limits import CLUB_GAME_EXPORT_BYTES, CLUB_IMPORT_MAX_BYTES, GAMES_PER_CLUB

HANDS = 30  # a night's long game, as the bench's club at its limit has
ROSTER = ["Ann", "Bob", "Cleo", "Dan"]


def export_size(client: FlaskClient, club: str) -> int:
    answer = client.get(f"/api/clubs/{club}/export")
    assert answer.status_code == 200
    return len(answer.get_data())


def test_a_full_club_of_long_games_fits_the_import_cap(app: Flask, client: FlaskClient) -> None:
    assert CLUB_IMPORT_MAX_BYTES == GAMES_PER_CLUB * CLUB_GAME_EXPORT_BYTES
    club = client.post("/api/clubs", json={"name": "Sun", "players": ROSTER}).get_json()["id"]
    empty = export_size(client, club)
    sides = [{"players": ["Ann", "Bob"]}, {"players": ["Cleo", "Dan"]}]
    for _ in range(2):
        game = client.post(f"/api/clubs/{club}/games", json={"sides": sides, "target": 20000})
        game_id = game.get_json()["id"]
        for number in range(HANDS):
            hand = client.post(f"/api/games/{game_id}/hands", json=fixtures.hand_body(number))
            assert hand.status_code == 201, hand.get_json()
    per_game = (export_size(client, club) - empty) / 2
    assert empty + GAMES_PER_CLUB * per_game <= CLUB_IMPORT_MAX_BYTES
    # And with room: a club's games may be a little longer on average.
    assert per_game <= 0.8 * CLUB_GAME_EXPORT_BYTES, per_game
