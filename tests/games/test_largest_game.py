"""The largest game the limits allow imports back (issue 35: a legal six-player game of
1 000 hands exported 1.9 MiB against a 1 MiB import cap). Its import cap follows the limits
(scorer.core.limits.GAME_IMPORT_MAX_BYTES), which a hand's bound (HAND_BYTES_MAX) makes
finite; a hand past that bound is refused at every way in, nothing stored."""

from __future__ import annotations

import json
from typing import Any

import pytest
from apidata import dump, put_hand
from flask import Flask
from flask.testing import FlaskClient

from bench.largest import NOTE, largest_game, largest_hand
from scorer import store
from scorer.core import limits
from scorer.core.hand_schema import sides_json
from scorer.core.hands import validate_hand
from scorer.core.rules import get_profile
from scorer.web.api_contract import parse_export, parse_hand


def test_the_largest_hand_a_table_writes_is_within_the_bound() -> None:
    profile = get_profile("six-player")
    hand = parse_hand(largest_hand(), profile.family)
    validate_hand(profile, hand, len(hand.sides))  # a legal hand
    size = len(sides_json(hand.sides, profile.family))
    assert size <= 0.8 * limits.HAND_BYTES_MAX, size


def stored_game(app: Flask, export: dict[str, Any]) -> str:
    """The game stored by the store's own import (one replay of its hands), its id."""
    with app.app_context():
        return store.import_game(store.get_db(), **parse_export(export))


@pytest.mark.parametrize("corrections", [0, limits.CORRECTIONS_PER_GAME], ids=["hands", "record"])
def test_a_six_player_game_of_1000_of_the_largest_hands_imports_back(
    app: Flask, client: FlaskClient, corrections: int
) -> None:
    game_id = stored_game(app, largest_game(limits.MAX_HANDS_PER_GAME, corrections))
    exported = client.get(f"/api/games/{game_id}/export")
    assert exported.status_code == 200
    body = exported.get_data()
    assert len(body) <= limits.GAME_IMPORT_MAX_BYTES, len(body)
    back = client.post("/api/games/import", data=body, content_type="application/json")
    assert back.status_code == 201, back.get_data()[:300]
    again = client.get(f"/api/games/{back.get_json()['id']}/export").get_json()
    first = json.loads(body)
    assert len(again["hands"]) == limits.MAX_HANDS_PER_GAME
    assert again["hands"] == first["hands"]
    assert again.get("corrections", []) == first.get("corrections", [])


# --- a hand past the bound, every way in ------------------------------------------------------

SMALLER = 4 * 1024  # the largest hand takes more than this


@pytest.fixture
def smaller_bound(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(limits, "HAND_BYTES_MAX", SMALLER)


def six_player_game(client: FlaskClient) -> str:
    head = {k: v for k, v in largest_game(0).items() if k in ("name", "profile", "target")}
    sides = largest_game(0)["sides"]
    response = client.post("/api/games", json={**head, "sides": sides})
    assert response.status_code == 201, response.get_json()
    return response.get_json()["id"]


def refused(response: Any, field: str) -> None:
    assert response.status_code == 422, response.get_data()[:300]
    assert response.get_json()["field"] == field


def test_the_bound_refuses_a_new_hand_and_a_correction(
    app: Flask, client: FlaskClient, smaller_bound: None
) -> None:
    game_id = six_player_game(client)
    small = largest_hand()
    for side in small["sides"]:
        side["adjustment_note"] = "short"
    assert client.post(f"/api/games/{game_id}/hands", json=small).status_code == 201
    before = dump(app)
    refused(client.post(f"/api/games/{game_id}/hands", json=largest_hand()), "sides")
    refused(put_hand(client, f"/api/games/{game_id}/hands/1", json=largest_hand()), "sides")
    assert dump(app) == before


def test_the_bound_refuses_an_import_of_a_game_or_a_club(
    app: Flask, client: FlaskClient, smaller_bound: None
) -> None:
    before = dump(app)
    game = largest_game(2)
    refused(client.post("/api/games/import", json=game), "hands[0].sides")
    club = {
        "format": "scorer-club",
        "format_version": 1,
        "name": "Long table",
        "players": [side["players"][0] for side in game["sides"]],
        "games": [game],
    }
    refused(client.post("/api/clubs/import", json=club), "games[0].hands[0].sides")
    assert dump(app) == before


def test_the_bound_refuses_a_record_of_corrections_past_it(
    app: Flask, client: FlaskClient, smaller_bound: None
) -> None:
    game = largest_game(0, 1)
    small = largest_hand()
    del small["confirm"]
    for side in small["sides"]:
        side["adjustment_note"] = NOTE[:2]
    game["hands"] = [small]
    before = dump(app)
    refused(client.post("/api/games/import", json=game), "corrections[0].before.sides")
    assert dump(app) == before


def test_the_longest_head_a_game_has_fits_its_room(client: FlaskClient) -> None:
    """Six players alone, each name and the game's in 40 emoji: even written \\uXXXX (12
    bytes an emoji, as a client's re-encoding may send it)."""
    names = [chr(0x1F600 + i) * limits.NAME_MAX for i in range(limits.SIDES_MAX)]
    game = client.post(
        "/api/games",
        json={
            "name": "\U0001f3b4" * limits.NAME_MAX,
            "profile": "six-player",
            "sides": [{"players": [name]} for name in names],
            "first_dealer": names[-1],
        },
    )
    assert game.status_code == 201, game.get_json()
    exported = client.get(f"/api/games/{game.get_json()['id']}/export").get_json()
    assert len(json.dumps(exported)) <= limits.GAME_HEAD_BYTES
