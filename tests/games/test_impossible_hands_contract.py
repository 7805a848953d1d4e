"""Issue 12 through the API, the pages and the sheet: refuse the impossible naming the field,
ask about the irregular then record it, and end a game early on a correction (§2, §2b, §2c).

Expected scores are worked out by hand from the rule book (docs/rules.md).
"""

from __future__ import annotations

import re
from io import BytesIO
from typing import Any

import pdfplumber
import pytest
from apidata import dump, hand, put_hand, side
from flask.testing import FlaskClient
from test_games_pages import TYPICAL, field_error, hidden, input_value, loaded, record, start, text

FOUR = [{"players": ["Ann", "Bob"]}, {"players": ["Cy", "Di"]}]
# A wins a game to 1 000 at once: 300 + 500 + 200 + 100 = 1 100; B 50 - 20 = 30.
WINNING = hand(side(300, natural=1, reds=2), side(50, left=20), went_out=0)


def new_game(client: FlaskClient, **fields: Any) -> dict[str, Any]:
    response = client.post("/api/games", json={"sides": FOUR, **fields})
    assert response.status_code == 201, response.json
    return response.json


def post(client: FlaskClient, game_id: str, body: dict, status: int = 201) -> dict[str, Any]:
    response = client.post(f"/api/games/{game_id}/hands", json=body)
    assert response.status_code == status, response.json
    return response.json


def counted(**cards: int) -> dict[str, Any]:
    return {"meld_cards": cards}


# Each hand no real cards can make, with the field the refusal must name (§2 rules 10-13).
IMPOSSIBLE = [
    ("meld of 5", [side(5), side(50)], None, "sides[0].meld_points"),
    ("meld of 10", [side(10), side(50)], None, "sides[0].meld_points"),
    ("twelve naturals", [side(1000, natural=12), side(50)], 0, "sides[0].natural_canastas"),
    ("five naturals in 175", [side(175, natural=5), side(50)], 0, "sides[0].meld_points"),
    ("one joker, mixed", [{**counted(jokers=1), "mixed_canastas": 1}, side(50)], 0, "cards"),
    ("one joker, natural", [{**counted(jokers=1), "natural_canastas": 1}, side(50)], 0, "cards"),
    (
        "three tens and four fives, natural",
        [{**counted(ten=3, five=4), "natural_canastas": 1}, side(50)],
        0,
        "cards",
    ),
    ("seven tens, mixed", [{**counted(ten=7), "mixed_canastas": 1}, side(50)], 0, "cards"),
    ("a single card", [counted(twenty=1), side(50)], None, "cards"),
    # Issue 22: every counted card sits in a canasta or a legal meld.
    ("three jokers alone", [side(50), counted(jokers=3)], None, "sides[1].meld_cards"),
    ("two jokers and a five", [side(50), counted(jokers=2, five=1)], None, "sides[1].meld_cards"),
    (
        "a natural canasta of fives and a lone twenty",
        [side(50), {**counted(five=7, twenty=1), "natural_canastas": 1}],
        None,
        "sides[1].meld_cards",
    ),
    (
        "seven tens and a twenty, natural",
        [{**counted(ten=7, twenty=1), "natural_canastas": 1}, side(50)],
        0,
        "cards",
    ),
]


@pytest.mark.parametrize(("sides", "went_out", "field"), [c[1:] for c in IMPOSSIBLE])
def test_impossible_hands_are_refused_naming_the_field(app, client, sides, went_out, field):
    game = new_game(client)
    before = dump(app)
    body = {"went_out": went_out, "sides": sides, "confirm": ["opening_minimum"]}
    refused = post(client, game["id"], body, 422)
    want = "sides[0].meld_cards" if field == "cards" else field
    assert refused["field"] == want and refused["error"]
    assert "confirm" not in refused  # the rules of §2 are never confirmable
    assert dump(app) == before


def test_a_player_alone_who_went_out_holds_nothing(client):
    game = new_game(client, profile="two-player", sides=[{"players": ["Ann"]}, {"players": ["Cy"]}])
    body = hand(side(300, natural=2, left=40), side(50), went_out=0)
    assert post(client, game["id"], body, 422)["field"] == "sides[0].hand_points"


# --- §2b: ask, then record ---------------------------------------------------------------------

LOW = hand(side(40), side(50))  # A melded 40 against a minimum of 50


def test_an_irregular_hand_is_asked_then_recorded(app, client):
    game = new_game(client)
    before = dump(app)
    asked = post(client, game["id"], LOW, 422)
    assert asked["field"] == "sides[0].meld_points"
    assert asked["confirm"] == "opening_minimum"
    assert "40" in asked["error"] and "50" in asked["error"]
    assert dump(app) == before
    saved = post(client, game["id"], {**LOW, "confirm": ["opening_minimum"]})
    assert saved["hands"][0]["irregular"] == ["opening_minimum"]
    assert [s["total"] for s in saved["sides"]] == [40, 50]


def test_a_confirmation_not_needed_is_ignored_and_a_bad_one_refused(client):
    game = new_game(client)
    saved = post(client, game["id"], {**hand(side(50), side(60)), "confirm": ["opening_minimum"]})
    assert saved["hands"][0]["irregular"] == []
    assert saved["hands"][0]["after_end"] is False
    bad = post(client, game["id"], {**LOW, "confirm": ["meld_minimum"]}, 400)
    assert bad["field"] == "confirm[0]"
    assert (
        post(client, game["id"], {**LOW, "confirm": "opening_minimum"}, 400)["field"] == "confirm"
    )


def test_a_correction_is_asked_too(client):
    game = new_game(client)
    post(client, game["id"], hand(side(50), side(60)))
    url = f"/api/games/{game['id']}/hands/1"
    assert put_hand(client, url, json=LOW).json["confirm"] == "opening_minimum"
    fixed = put_hand(client, url, json={**LOW, "confirm": ["opening_minimum"]})
    assert fixed.status_code == 200 and fixed.json["hands"][0]["irregular"] == ["opening_minimum"]


def test_stored_hands_are_never_asked_again(client):
    # Hand 2 is regular against A's minimum of 50; correcting hand 1 up to 1 600 raises A's
    # minimum for hand 2 to 90: hand 2 is now below it, marked, and nothing is asked.
    game = new_game(client)
    post(client, game["id"], hand(side(50), side(60)))
    post(client, game["id"], hand(side(60), side(60)))
    big = hand(side(600, natural=1, mixed=1, reds=2), side(60), went_out=0)
    fixed = put_hand(client, f"/api/games/{game['id']}/hands/1", json=big)
    assert fixed.status_code == 200, fixed.json
    assert [h["irregular"] for h in fixed.json["hands"]] == [[], ["opening_minimum"]]


def test_the_page_asks_at_the_field_then_records_with_the_button(app, client):
    game_id = start(client)
    low = {
        **TYPICAL,
        "sides-0-meld_points": "40",
        "sides-0-natural_canastas": "0",
        "went_out": "none",
    }
    page = text(record(client, game_id, low))
    assert "melds of 40 are below" in (field_error(page, "sides-0-meld_points") or "")
    assert re.search(r'<button[^>]*name="confirm" value="opening_minimum"', page)
    assert "Record it anyway" in page
    # Everything typed is kept, and Enter still means the plain save.
    assert input_value(page, "sides-1-hand_points") == "85"
    assert page.index('class="visually-hidden default-submit"') < page.index('name="confirm"')
    assert loaded(app, game_id).state.results == ()
    response = record(client, game_id, {**low, "confirm": "opening_minimum"})
    assert response.status_code == 303
    state = loaded(app, game_id).state
    assert [r.irregular[0].kind for r in state.results] == ["opening_minimum"]
    board = text(client.get(f"/games/{game_id}"))
    assert "Irregular: confirmed by the table" in board


@pytest.mark.parametrize(
    ("typed", "field_id"),
    [
        ({"sides-0-meld_points": "10"}, "sides-0-meld_points"),
        (
            {"sides-0-natural_canastas": "12", "sides-0-meld_points": "1000"},
            "sides-0-natural_canastas",
        ),
        ({"sides-0-meld_points": "", "sides-0-meld_jokers": "1"}, "sides-0-meld_jokers"),
    ],
)
def test_the_page_refuses_impossible_hands_at_their_field(app, client, typed, field_id):
    game_id = start(client)
    response = record(client, game_id, {**TYPICAL, **typed, "confirm": "opening_minimum"})
    assert response.status_code == 422
    assert field_error(text(response), field_id)
    assert 'name="confirm"' not in text(response)
    assert loaded(app, game_id).state.results == ()


@pytest.mark.parametrize(
    ("language", "words"),
    [
        ("en", "Melded cards: these cards cannot all be laid down: besides the canastas"),
        ("fr", "ces cartes ne peuvent pas toutes être posées"),
        ("es", "estas cartas no pueden bajarse todas"),
    ],
)
def test_the_page_says_why_counted_melds_cannot_be_laid_down(app, client, language, words):
    # Issue 22: two jokers and one five-point card are no meld (two natural cards needed).
    game_id = start(client)
    counts = {"sides-1-meld_points": "", "sides-1-meld_jokers": "2", "sides-1-meld_five": "1"}
    data = {**TYPICAL, **counts, "confirm": "opening_minimum"}
    response = client.post(
        f"/games/{game_id}/hands/new", data=data, headers={"Accept-Language": language}
    )
    assert response.status_code == 422
    message = field_error(text(response), "sides-1-meld_jokers")
    assert message and words in message
    assert input_value(text(response), "sides-1-meld_jokers") == "2"  # kept as typed
    assert loaded(app, game_id).state.results == ()


def test_the_hint_of_nothing_in_hand_is_in_the_page(client):
    game_id = start(client)
    page = text(client.get(f"/games/{game_id}/hands/new"))
    assert "data-hint-empty=" in page


# --- §2c: a correction that ends the game earlier ----------------------------------------------


def ended_early(client: FlaskClient) -> str:
    game = new_game(client, target=1000)
    gid = game["id"]
    post(client, gid, hand(side(100, natural=1), side(50)))  # A 600
    post(client, gid, hand(side(300), side(50)))  # A 900
    assert put_hand(client, f"/api/games/{gid}/hands/1", json=WINNING).status_code == 200
    return gid


def test_the_hands_after_the_end_go_in_one_request(app, client):
    gid = ended_early(client)
    game = client.get(f"/api/games/{gid}")
    assert [h["after_end"] for h in game.json["hands"]] == [False, True]
    stale = client.delete(f"/api/games/{gid}/hands/after-end", headers={"If-Match": '"x.1"'})
    assert stale.status_code == 412
    response = client.delete(
        f"/api/games/{gid}/hands/after-end", headers={"If-Match": game.headers["ETag"]}
    )
    assert response.status_code == 200
    assert [h["number"] for h in response.json["hands"]] == [1]
    assert [s["total"] for s in response.json["sides"]] == [1100, 30]
    assert response.json["winner"] == 0 and response.json["ended_at"] == 1
    # Again: nothing left to remove, nothing changes.
    again = client.delete(f"/api/games/{gid}/hands/after-end")
    assert again.status_code == 200 and again.json["version"] == response.json["version"]


def test_the_page_removes_the_hands_after_the_end(app, client):
    gid = ended_early(client)
    board = text(client.get(f"/games/{gid}"))
    assert "Played after the end: counts for nothing" in board
    url = f"/games/{gid}/hands/after-end/delete"
    assert f'href="{url}"' in board
    confirm = text(client.get(url))
    assert "Remove the hand played after the end?" in confirm
    response = client.post(url, data={"version": hidden(confirm, "version")})
    assert response.status_code == 303
    state = loaded(app, gid).state
    assert len(state.results) == 1 and state.after_end == ()
    assert "Played after the end" not in text(client.get(f"/games/{gid}"))


def test_import_keeps_hands_after_the_end_and_refuses_impossible_ones(client):
    game = new_game(client, target=1000)
    data = client.get(f"/api/games/{game['id']}/export").json
    imported = client.post("/api/games/import", json={**data, "hands": [WINNING, WINNING]})
    assert imported.status_code == 201
    assert [h["after_end"] for h in imported.json["hands"]] == [False, True]
    refused = client.post("/api/games/import", json={**data, "hands": [hand(side(10), side(50))]})
    assert refused.status_code == 422
    assert refused.json["field"] == "hands[0].sides[0].meld_points"


# --- five players --------------------------------------------------------------------------


def test_five_players_deal_and_sit_out_in_turn(client):
    sides = [{"players": ["A1", "A2", "A3"]}, {"players": ["B1", "B2"]}]
    game = new_game(client, profile="five-player", sides=sides, first_dealer="A1")
    dealers, out = [], [game["sitting_out_next"]]
    for _ in range(6):
        game = post(client, game["id"], hand(side(120, left=10), side(90, left=20)))
        dealers.append(game["hands"][-1]["dealer"])
        out.append(game["sitting_out_next"])
    # A1 deals first; A3 (before A1 in the team) sits out, then A2, A1, A3...
    assert out[:4] == [["A3"], ["A2"], ["A1"], ["A3"]]
    # The deal passes left (A1 B1 A2 B2 A3) skipping whoever sits out.
    assert dealers == ["A1", "B1", "A2", "B2", "A3", "B1"]
    assert all(a != b for a, b in zip(dealers, dealers[1:], strict=False))
    for number, (dealer, resting) in enumerate(zip(dealers, out, strict=False), start=1):
        assert dealer not in resting, number


# --- the sheet ---------------------------------------------------------------------------------


def sheet_text(client: FlaskClient, game_id: str) -> str:
    response = client.get(f"/games/{game_id}/sheet.pdf")
    assert response.status_code == 200
    with pdfplumber.open(BytesIO(response.data)) as pdf:
        return "\n".join(page.extract_text() or "" for page in pdf.pages)


def test_the_sheet_marks_irregular_hands_and_hands_after_the_end(client):
    gid = ended_early(client)
    sheet = sheet_text(client, gid)
    assert "Played after the end: counts for nothing" in sheet
    assert re.search(r"^2\s*†", sheet, re.M)
    assert "Irregular" not in sheet
    game = new_game(client)
    post(client, game["id"], {**LOW, "confirm": ["opening_minimum"]})
    sheet = sheet_text(client, game["id"])
    assert re.search(r"^1\s*\*", sheet, re.M)
    assert "* Irregular: melds below the opening minimum" in sheet
