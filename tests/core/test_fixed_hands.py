"""Games of N hands (RULES.md §3, issue 23 point 1): the game ends after hand N, the higher
total wins, a tie at the top plays one more hand (the book's tie)."""

from __future__ import annotations

from typing import Any

import pdfplumber
import pytest
from flask.testing import FlaskClient
from test_game import ANN_BOB, CY_DI, exact

from scorer.core.errors import RuleError
from scorer.core.game import add_hand, correct, make_table, play, remove, winner
from scorer.core.rules import get_profile, with_fixed_hands

FOUR = [{"players": ["Ann", "Bob"]}, {"players": ["Cy", "Di"]}]


def four_hands_table():
    return make_table(with_fixed_hands(get_profile("classic"), 4), (ANN_BOB, CY_DI))


# --- the core ---------------------------------------------------------------------------------


def test_the_game_goes_on_until_hand_n_whatever_the_totals():
    # 6 000 after two hands would win a game to 5 000; a game of four hands goes on.
    state = play(four_hands_table(), [exact(3000, 100), exact(3000, 100), exact(100, 200)])
    assert state.totals == (6100, 400)
    assert state.winner is None and not state.finished and not state.tied


def test_after_hand_n_the_higher_total_wins_even_below_the_target():
    hands = [exact(300, 100), exact(200, 100), exact(100, 600), exact(0, 0)]
    state = play(four_hands_table(), hands)
    assert state.totals == (600, 800)
    assert state.winner == 1 and state.ended_at == 4


def test_a_tie_after_hand_n_plays_one_more_hand():
    hands = [exact(300, 100), exact(100, 300), exact(0, 0), exact(50, 50)]
    state = play(four_hands_table(), hands)
    assert state.totals == (450, 450)
    assert state.winner is None and state.tied
    state = add_hand(state, exact(-50, 10))
    assert state.totals == (400, 460)
    assert state.winner == 1 and state.ended_at == 5 and not state.tied


def test_corrections_move_the_end_of_a_game_of_n_hands():
    hands = [exact(300, 100), exact(100, 300), exact(0, 0), exact(50, 50), exact(0, 20)]
    state = play(four_hands_table(), hands)
    assert state.winner == 1 and state.ended_at == 5
    # Hand 4 corrected: no more tie after hand 4, so hand 5 comes after the end (§2c).
    state = correct(state, 4, exact(60, 50))
    assert state.winner == 0 and state.ended_at == 4 and state.after_end == (5,)
    # Removing hand 1 leaves four hands: the game ends at the (new) hand 4.
    state = remove(play(four_hands_table(), hands), 1)
    assert state.totals == (150, 370) and state.winner == 1 and state.ended_at == 4


@pytest.mark.parametrize(
    ("totals", "hands", "expected"),
    [
        ((100, 50), 3, None),
        ((100, 50), 4, 0),
        ((-100, -50), 4, 1),
        ((100, 100), 4, None),
        ((100, 100, 90), 5, None),
        ((100, 90, 100, 110), 4, 3),
    ],
)
def test_winner_of_a_game_of_four_hands(totals, hands, expected):
    assert winner(with_fixed_hands(get_profile("classic"), 4), totals, hands) == expected


@pytest.mark.parametrize("hands", [0, -1, 51, True, "4", 2.5])
def test_a_number_of_hands_outside_the_limits_is_refused(hands):
    with pytest.raises(RuleError) as error:
        with_fixed_hands(get_profile("classic"), hands)
    assert error.value.field == "fixed_hands"


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
