"""Games of N hands through the contract: the API, the new-game form, the board and the sheet.

The arithmetic (the end after hand N, the tie's extra hand, corrections): core/test_fixed_hands.py.
"""

from __future__ import annotations

from typing import Any

import pdfplumber
import pytest
from flask.testing import FlaskClient

FOUR = [{"players": ["Ann", "Bob"]}, {"players": ["Cy", "Di"]}]


# --- the API ----------------------------------------------------------------------------------


def new_game(client: FlaskClient, **fields: Any) -> dict[str, Any]:
    response = client.post("/api/games", json={"sides": FOUR, **fields})
    assert response.status_code == 201, response.json
    return response.json


def record(client: FlaskClient, game_id: str, a: int, b: int) -> dict[str, Any]:
    sides = [
        {"meld_points": a, "natural_canastas": 0} if a >= 0 else {"hand_points": -a},
        {"meld_points": b, "natural_canastas": 0} if b >= 0 else {"hand_points": -b},
    ]
    response = client.post(f"/api/games/{game_id}/hands", json={"sides": sides})
    assert response.status_code == 201, response.json
    return response.json


def test_the_api_plays_a_game_of_two_hands(client):
    game = new_game(client, fixed_hands=2)
    assert game["fixed_hands"] == 2 and game["target"] == 5000
    game = record(client, game["id"], 100, 50)
    assert game["finished"] is False
    game = record(client, game["id"], 50, 60)
    assert game["winner"] == 0 and game["ended_at"] == 2 and game["finished"] is True
    assert client.get(f"/api/games/{game['id']}").json["fixed_hands"] == 2
    assert new_game(client)["fixed_hands"] is None


def test_the_api_refuses_a_target_with_a_number_of_hands(client):
    response = client.post("/api/games", json={"sides": FOUR, "fixed_hands": 4, "target": 5000})
    assert response.status_code == 422
    assert response.json["field"] == "fixed_hands"


@pytest.mark.parametrize(("value", "status"), [(0, 422), (51, 422), ("4", 400), (True, 400)])
def test_the_api_refuses_a_bad_number_of_hands(client, value, status):
    response = client.post("/api/games", json={"sides": FOUR, "fixed_hands": value})
    assert response.status_code == status, response.json
    assert response.json["field"] == "fixed_hands"


def test_export_import_and_play_again_keep_the_number_of_hands(client):
    game = new_game(client, fixed_hands=1)
    record(client, game["id"], 100, 50)
    exported = client.get(f"/api/games/{game['id']}/export").json
    assert exported["fixed_hands"] == 1
    imported = client.post("/api/games/import", json=exported)
    assert imported.status_code == 201, imported.json
    assert imported.json["fixed_hands"] == 1 and imported.json["winner"] == 0


# --- the pages and the sheet ------------------------------------------------------------------


def test_the_board_says_hand_n_of_n(client):
    game = new_game(client, fixed_hands=4)
    record(client, game["id"], 100, 50)
    page = client.get(f"/games/{game['id']}").get_data(as_text=True)
    assert "a game of 4 hands" in page and "hand 1 of 4" in page


def new_game_form(client: FlaskClient, **fields: str) -> Any:
    data = {
        "profile": "classic",
        "seating": "2-2",
        "rules_for": "classic",
        "sides-0-players-0": "Ann",
        "sides-0-players-1": "Bob",
        "sides-1-players-0": "Cy",
        "sides-1-players-1": "Di",
        **fields,
    }
    return client.post("/games/new", data=data)


def test_the_new_game_form_starts_a_game_of_n_hands(client):
    response = new_game_form(client, fixed_hands="4")
    assert response.status_code == 303, response.get_data(as_text=True)
    game_id = response.headers["Location"].rsplit("/", 1)[-1]
    assert client.get(f"/api/games/{game_id}").json["fixed_hands"] == 4


def test_the_new_game_form_refuses_a_target_and_a_number_of_hands_and_keeps_them(client):
    response = new_game_form(client, fixed_hands="4", target="5000")
    page = response.get_data(as_text=True)
    assert response.status_code == 422
    assert "a target or a number of hands" in page
    assert 'value="4"' in page and 'value="Ann"' in page


def test_the_sheet_says_a_game_of_n_hands(client, tmp_path):
    game = new_game(client, fixed_hands=3)
    record(client, game["id"], 100, 50)
    response = client.get(f"/games/{game['id']}/sheet.pdf")
    assert response.status_code == 200
    path = tmp_path / "sheet.pdf"
    path.write_bytes(response.data)
    with pdfplumber.open(path) as pdf:
        text = pdf.pages[0].extract_text()
    assert "a game of 3 hands" in text and "target" not in text
