"""The JSON API's exact contract (issue 3), through the Flask test client.

Expected scores are worked out by hand from the rule book (docs/rules.md), never taken
from the code under test.
"""

from __future__ import annotations

import json
import sqlite3
from typing import Any

import pytest
from apidata import delete_hand, dump, hand, put_hand, side
from flask.testing import FlaskClient

from scorer import create_app

FOUR = [{"players": ["Ann", "Bob"]}, {"players": ["Cy", "Di"]}]

# The typical hand. Side A: 130 melded + one natural canasta 500 + two red threes
# 200 + went out 100 = 930. Side B: 50 melded - 85 left in hand = -35.
TYPICAL = {
    "went_out": 0,
    "concealed": False,
    "sides": [
        {
            "meld_points": 130,
            "natural_canastas": 1,
            "mixed_canastas": 0,
            "red_threes": 2,
            "hand_points": 0,
        },
        {
            "meld_points": 50,
            "natural_canastas": 0,
            "mixed_canastas": 0,
            "red_threes": 0,
            "hand_points": 85,
        },
    ],
}


def new_game(client: FlaskClient, **fields: Any) -> dict[str, Any]:
    response = client.post("/api/games", json={"sides": FOUR, **fields})
    assert response.status_code == 201, response.json
    return response.json


def add(client: FlaskClient, game_id: str, body: dict, status: int = 201) -> dict[str, Any]:
    response = client.post(f"/api/games/{game_id}/hands", json=body)
    assert response.status_code == status, response.json
    return response.json


def assert_refusal(response, status: int, field: str | None = "unchecked") -> None:
    assert response.status_code == status, (response.status_code, response.data)
    assert response.is_json
    body = response.json
    assert set(body) == {"error", "field"}
    assert isinstance(body["error"], str) and body["error"].strip()
    if field != "unchecked":
        assert body["field"] == field


# --- creating a game -------------------------------------------------------------------


def test_create_game_defaults(client):
    response = client.post("/api/games", json={"sides": FOUR})
    assert response.status_code == 201
    game = response.json
    assert response.headers["Location"] == f"/api/games/{game['id']}"
    assert response.mimetype == "application/json"
    for key in ("id", "name", "profile", "target", "sides", "hands", "dealer_next", "winner"):
        assert key in game
    assert game["profile"] == "classic"
    assert game["target"] == 5000
    assert game["name"] == ""
    assert game["hands"] == []
    assert game["winner"] is None
    assert game["finished"] is False
    # No hand yet: the first player of the first side deals; every total 0, minimum 50.
    assert game["dealer_next"] == "Ann"
    assert [s["players"] for s in game["sides"]] == [["Ann", "Bob"], ["Cy", "Di"]]
    assert [(s["total"], s["opening_minimum"]) for s in game["sides"]] == [(0, 50), (0, 50)]
    for s in game["sides"]:
        assert isinstance(s["name"], str) and s["name"]


def test_create_game_with_every_field(client):
    game = new_game(
        client,
        name="Friday at Jo's",
        profile="classic",
        target=10000,
        first_dealer="Bob",
        sides=[{"name": "North", "players": ["Ann", "Bob"]}, {"players": ["Cy", "Di"]}],
    )
    assert game["name"] == "Friday at Jo's"
    assert game["target"] == 10000
    assert game["sides"][0]["name"] == "North"
    assert game["dealer_next"] == "Bob"
    assert client.get(f"/api/games/{game['id']}").json == game


def test_get_game(client):
    game = new_game(client)
    response = client.get(f"/api/games/{game['id']}")
    assert response.status_code == 200
    assert response.json == game


def test_get_unknown_game_is_404(client):
    assert_refusal(client.get("/api/games/no-such-game"), 404, None)


def _long(n: int) -> str:
    return "é" * n


CREATE_REFUSALS = [
    # wrong types and shapes: 400
    ({"sides": "Ann and Bob"}, 400, "sides"),
    ({}, 400, "sides"),
    ({"sides": [{"players": "Ann"}, {"players": ["Cy", "Di"]}]}, 400, "sides[0].players"),
    ({"sides": [{"players": ["Ann", 7]}, {"players": ["Cy", "Di"]}]}, 400, "sides[0].players[1]"),
    ({"sides": ["Ann", {"players": ["Cy", "Di"]}]}, 400, "sides[0]"),
    ({"sides": FOUR, "target": "5000"}, 400, "target"),
    ({"sides": FOUR, "target": 5000.0}, 400, "target"),
    ({"sides": FOUR, "target": True}, 400, "target"),
    ({"sides": FOUR, "profile": 4}, 400, "profile"),
    ({"sides": FOUR, "name": ["a"]}, 400, "name"),
    ({"sides": FOUR, "first_dealer": 0}, 400, "first_dealer"),
    ({"sides": FOUR, "targett": 1000}, 400, "targett"),
    ({"sides": [{"players": ["A", "B"], "nmae": "x"}, FOUR[1]]}, 400, "sides[0].nmae"),
    # rule breaks: 422. Names, targets and sides have their table in
    # test_limits_every_way_in.py and core/test_rules.py: here one row per field shows how the
    # API names it.
    ({"sides": FOUR, "name": _long(41)}, 422, "name"),
    ({"sides": [{"players": ["", "Bob"]}, FOUR[1]]}, 422, "sides[0].players[0]"),
    ({"sides": [{"players": ["   ", "Bob"]}, FOUR[1]]}, 422, "sides[0].players[0]"),
    ({"sides": [{"name": _long(41), "players": ["A", "B"]}, FOUR[1]]}, 422, "sides[0].name"),
    ({"sides": FOUR, "target": 4999}, 422, "target"),
    ({"sides": FOUR, "target": 10**30}, 422, "target"),
    ({"sides": FOUR, "profile": "bridge"}, 422, "profile"),
    ({"sides": FOUR, "first_dealer": "Zoe"}, 422, "first_dealer"),
    ({"sides": [{"players": list("ABCDEFG")}, FOUR[1]]}, 422, "sides[0].players"),
    ({"sides": [{"players": []}, FOUR[1]]}, 422, "sides[0].players"),
    ({"sides": FOUR + [{"players": ["E", "F"]}]}, 422, "sides"),
    ({"sides": [{"players": ["Ann", "Bob"]}, {"players": ["Ann", "Di"]}]}, 422, "sides"),
]


@pytest.mark.parametrize(("body", "status", "field"), CREATE_REFUSALS)
def test_create_game_refusals(app, client, body, status, field):
    before = dump(app)
    assert_refusal(client.post("/api/games", json=body), status, field)
    assert dump(app) == before


@pytest.mark.parametrize(
    ("data", "content_type"),
    [
        ('{"sides": ', "application/json"),  # malformed
        ("sides=Ann", "application/x-www-form-urlencoded"),
        (json.dumps({"sides": FOUR}), "text/plain"),  # right JSON, wrong type
        ("", "application/json"),
        (b"\xff\xfe{", "application/json"),
        ("[" * 30_000 + "]" * 30_000, "application/json"),  # absurdly deep
        ("[" * 50_000 + "]" * 50_000, "application/json"),  # deep and too large
        ('{"sides": NaN}', "application/json"),
    ],
)
def test_create_game_unreadable_bodies_are_400(app, client, data, content_type):
    before = dump(app)
    response = client.post("/api/games", data=data, content_type=content_type)
    assert_refusal(response, 400 if len(data) < 64 * 1024 else 413)
    assert dump(app) == before


def test_lone_surrogate_in_a_name_is_refused_not_crashing(app, client):
    before = dump(app)
    body = '{"sides": [{"players": ["\\ud800", "Bob"]}, {"players": ["Cy", "Di"]}]}'
    response = client.post("/api/games", data=body, content_type="application/json")
    assert_refusal(response, 422, "sides[0].players[0]")
    assert dump(app) == before


def test_game_ids_are_not_sequential(client):
    ids = [new_game(client)["id"] for _ in range(3)]
    assert len(set(ids)) == 3
    assert not any(i.isdigit() for i in ids)


# --- recording hands ---------------------------------------------------------------------


def test_record_the_typical_hand(client):
    game = new_game(client)
    response = client.post(f"/api/games/{game['id']}/hands", json=TYPICAL)
    assert response.status_code == 201
    after = response.json
    assert [s["total"] for s in after["sides"]] == [930, -35]
    # 930 is within 0..1 495 -> 50; -35 is below 0 -> 15.
    assert [s["opening_minimum"] for s in after["sides"]] == [50, 15]
    (first,) = after["hands"]
    assert first["number"] == 1
    assert first["went_out"] == 0 and first["concealed"] is False
    a, b = first["sides"]
    assert a["score"] == {
        "cards": 130,
        "canastas": 500,
        "red_threes": 200,
        "going_out": 100,
        "hand": 0,
        "adjustment": 0,
        "total": 930,
    }
    assert b["score"] == {
        "cards": 50,
        "canastas": 0,
        "red_threes": 0,
        "going_out": 0,
        "hand": -85,
        "adjustment": 0,
        "total": -35,
    }
    assert (a["running_total"], b["running_total"]) == (930, -35)
    assert a["meld_points"] == 130 and b["hand_points"] == 85
    # Seating Ann, Cy, Bob, Di: Ann dealt the first hand, Cy deals the next.
    assert after["dealer_next"] == "Cy"
    assert after["winner"] is None and after["finished"] is False
    assert client.get(f"/api/games/{game['id']}").json == after


def test_card_counts_instead_of_points_missing_counts_are_zero(client):
    game = new_game(client)
    body = hand(
        {
            "meld_cards": {"jokers": 1, "twenty": 2, "ten": 3},  # 50 + 40 + 30 = 120
            "natural_canastas": 0,
            "red_threes": 1,
        },
        {"meld_points": 55, "hand_cards": {"five": 3}},  # 15 left in hand
    )
    after = add(client, game["id"], body)
    a, b = after["hands"][0]["sides"]
    assert a["score"]["cards"] == 120 and a["score"]["red_threes"] == 100
    assert a["meld_cards"] == {"jokers": 1, "twenty": 2, "ten": 3, "five": 0}
    assert b["score"]["hand"] == -15
    assert [s["total"] for s in after["sides"]] == [220, 40]


def test_stock_exhausted_and_concealed(client):
    game = new_game(client)
    # Nobody went out: no bonus, both subtract their hands. A: 100 - 30 = 70; B: 60 - 40 = 20.
    after = add(client, game["id"], hand(side(100, left=30), side(60, left=40)))
    assert [s["total"] for s in after["sides"]] == [70, 20]
    # B goes out concealed with a mixed canasta: 200 in all (not 300).
    # B: 80 + 300 + 200 = 580 -> 600. A: 0 melded, 1 red three against it, 25 in hand: -125.
    after = add(client, game["id"], hand(side(0, reds=1, left=25), side(80, mixed=1), 1, True))
    assert [h["sides"][1]["score"]["going_out"] for h in after["hands"]] == [0, 200]
    assert [s["total"] for s in after["sides"]] == [70 - 125, 600]


def test_hand_read_from_the_game_can_be_sent_back_as_a_correction(client):
    game = new_game(client)
    after = add(client, game["id"], TYPICAL)
    echoed = after["hands"][0]  # with its scores, number, dealer: fields the API wrote
    response = put_hand(client, f"/api/games/{game['id']}/hands/1", json=echoed)
    assert response.status_code == 200
    assert [s["total"] for s in response.json["sides"]] == [930, -35]


def bad_side(**changes: Any) -> dict:
    body = json.loads(json.dumps(TYPICAL))
    body["sides"][1].update(changes)
    return body


HAND_REFUSALS = [
    # wrong types and shapes: 400
    (bad_side(meld_points="50"), 400, "sides[1].meld_points"),
    (bad_side(meld_points=50.0), 400, "sides[1].meld_points"),
    (bad_side(meld_points=True), 400, "sides[1].meld_points"),
    (bad_side(hand_points=None, red_threes=[1]), 400, "sides[1].red_threes"),
    (bad_side(meld_cards=[1, 2]), 400, "sides[1].meld_cards"),
    (bad_side(meld_cards={"aces": 2}), 400, "sides[1].meld_cards.aces"),
    (bad_side(hand_cards={"ten": "2"}), 400, "sides[1].hand_cards.ten"),
    (bad_side(meld_point=50), 400, "sides[1].meld_point"),
    ({**TYPICAL, "went_out": "0"}, 400, "went_out"),
    ({**TYPICAL, "went_out": False}, 400, "went_out"),
    ({**TYPICAL, "concealed": "no"}, 400, "concealed"),
    ({**TYPICAL, "sides": {"0": {}}}, 400, "sides"),
    ({**TYPICAL, "sides": [TYPICAL["sides"][0], 5]}, 400, "sides[1]"),
    ({**TYPICAL, "extra": 1}, 400, "extra"),
    ([TYPICAL], 400, None),
    # rule breaks: 422. The rules have their table in test_hands.py: here one row per kind
    # of field shows the API passes the refusal and its field through.
    (bad_side(meld_points=-5), 422, "sides[1].meld_points"),
    (bad_side(meld_points=10**40), 422, "sides[1].meld_points"),
    (bad_side(meld_cards={"jokers": 5}), 422, "sides[1].meld_cards.jokers"),  # 4 in 2 packs
    ({**TYPICAL, "went_out": 2}, 422, "went_out"),
    ({**TYPICAL, "sides": TYPICAL["sides"][:1]}, 422, "sides"),
]


@pytest.mark.parametrize(("body", "status", "field"), HAND_REFUSALS)
def test_hand_refusals_on_add_and_on_correct(app, client, body, status, field):
    game = new_game(client)
    add(client, game["id"], hand(side(50), side(50)))
    before = dump(app)
    assert_refusal(client.post(f"/api/games/{game['id']}/hands", json=body), status, field)
    assert_refusal(put_hand(client, f"/api/games/{game['id']}/hands/1", json=body), status, field)
    assert dump(app) == before


@pytest.mark.parametrize(
    ("data", "content_type"),
    [
        ("{", "application/json"),
        (json.dumps(TYPICAL), "text/plain"),
        (json.dumps(TYPICAL), "application/x-www-form-urlencoded"),
        ("", "application/json"),
        ("null", "application/json"),
    ],
)
def test_unreadable_hand_bodies_are_400(app, client, data, content_type):
    game = new_game(client)
    add(client, game["id"], hand(side(50), side(50)))
    before = dump(app)
    url = f"/api/games/{game['id']}/hands"
    assert_refusal(client.post(url, data=data, content_type=content_type), 400)
    response = put_hand(client, f"{url}/1", data=data, content_type=content_type)
    assert_refusal(response, 400)
    assert dump(app) == before


def test_unknown_game_or_hand_is_404(app, client):
    game = new_game(client)
    add(client, game["id"], TYPICAL)
    before = dump(app)
    assert_refusal(client.post("/api/games/nope/hands", json=TYPICAL), 404, None)
    assert_refusal(put_hand(client, "/api/games/nope/hands/1", json=TYPICAL), 404, None)
    assert_refusal(delete_hand(client, "/api/games/nope/hands/1"), 404, None)
    for number in (0, 2, 99, 10**30):
        url = f"/api/games/{game['id']}/hands/{number}"
        assert_refusal(put_hand(client, url, json=TYPICAL), 404)
        assert_refusal(delete_hand(client, f"/api/games/{game['id']}/hands/{number}"), 404)
    assert_refusal(delete_hand(client, f"/api/games/{game['id']}/hands/-1"), 404)
    assert_refusal(delete_hand(client, f"/api/games/{game['id']}/hands/one"), 404)
    # An unknown game is 404 even when the body is also wrong.
    assert_refusal(client.post("/api/games/nope/hands", data="{", content_type="text/plain"), 404)
    assert dump(app) == before


# --- correcting ----------------------------------------------------------------------------


def test_correct_a_hand_recomputes_everything_after_it(client):
    game = new_game(client)
    gid = game["id"]
    add(client, gid, hand(side(100), side(50)))  # 100, 50
    add(client, gid, TYPICAL)  # +930, -35 -> 1030, 15
    add(client, gid, hand(side(500, left=5), side(50)))  # +495, +50 -> 1525, 65
    # Hand 1 was really A: 300 melded + a mixed canasta 300 = 600; B: nothing melded, 20 in
    # hand = -20.
    corrected = hand(side(300, mixed=1), side(left=20))
    response = put_hand(client, f"/api/games/{gid}/hands/1", json=corrected)
    assert response.status_code == 200
    after = response.json
    running = [[s["running_total"] for s in h["sides"]] for h in after["hands"]]
    assert running == [[600, -20], [1530, -55], [2025, -5]]
    # Minimums in force at each hand come from the totals before it.
    minimums = [[s["opening_minimum"] for s in h["sides"]] for h in after["hands"]]
    assert minimums == [[50, 50], [50, 15], [90, 15]]
    assert [s["opening_minimum"] for s in after["sides"]] == [90, 15]


def test_delete_a_hand_renumbers_and_recomputes(client):
    game = new_game(client)
    gid = game["id"]
    add(client, gid, hand(side(100), side(50)))
    add(client, gid, TYPICAL)
    add(client, gid, hand(side(60), side(70)))
    response = delete_hand(client, f"/api/games/{gid}/hands/2")
    assert response.status_code == 200
    after = response.json
    assert [h["number"] for h in after["hands"]] == [1, 2]
    assert [h["sides"][0]["meld_points"] for h in after["hands"]] == [100, 60]
    assert [s["total"] for s in after["sides"]] == [160, 120]
    assert client.get(f"/api/games/{gid}").json == after


# A hand that wins a game to 1 000 at once: A 300 + 500 + 200 + 100 = 1 100; B 50 - 20 = 30.
WINNING = hand(side(300, natural=1, reds=2), side(50, left=20), went_out=0)


def won_game(client: FlaskClient) -> dict:
    game = new_game(client, target=1000)
    after = add(client, game["id"], WINNING)
    assert after["winner"] == 0 and after["finished"] is True
    return after


@pytest.mark.parametrize(
    ("data", "content_type"),
    [
        (json.dumps(hand(side(50), side(50))), "application/json"),  # a fine hand
        (json.dumps(bad_side(meld_points=-5)), "application/json"),  # breaks a rule
        (json.dumps(bad_side(meld_points="x")), "application/json"),  # wrong type
        ("{", "application/json"),  # malformed
        ("hello", "text/plain"),  # not JSON at all
    ],
)
def test_a_won_game_refuses_any_hand_with_409(app, client, data, content_type):
    game = won_game(client)
    before = dump(app)
    response = client.post(f"/api/games/{game['id']}/hands", data=data, content_type=content_type)
    assert_refusal(response, 409, None)
    assert dump(app) == before


def test_a_won_game_can_still_be_corrected(client):
    game = won_game(client)
    # The winning hand was really smaller: the game goes on and takes hands again.
    response = put_hand(client, f"/api/games/{game['id']}/hands/1", json=hand(side(50), side(50)))
    assert response.status_code == 200
    assert response.json["winner"] is None and response.json["finished"] is False
    add(client, game["id"], hand(side(50), side(50)))


def test_a_correction_that_ends_the_game_early_ends_it_there(app, client):
    game = new_game(client, target=1000)
    gid = game["id"]
    add(client, gid, hand(side(100, natural=1), side(50)))  # A 600
    add(client, gid, hand(side(300), side(50)))  # A 900: nobody at 1 000 yet
    # Hand 1 made 1 100 (300 + 500 + 200 + 100 for A) ends the game at hand 1 (§2c).
    response = put_hand(client, f"/api/games/{gid}/hands/1", json=WINNING)
    assert response.status_code == 200, response.json
    game = response.json
    assert (game["winner"], game["ended_at"], game["finished"]) == (0, 1, True)
    assert [h["after_end"] for h in game["hands"]] == [False, True]
    # Hand 2 is kept but counts for nothing: A stays at 1 100, B at 50 - 20 = 30.
    assert [s["total"] for s in game["sides"]] == [1100, 30]
    # The game takes no further hands.
    assert_refusal(client.post(f"/api/games/{gid}/hands", json=hand(side(50), side(50))), 409)


def test_a_deletion_that_ends_the_game_early_ends_it_there(app, client):
    game = new_game(client, target=1000)
    gid = game["id"]
    add(client, gid, hand(side(100, natural=1), side(50)))  # A 600
    add(client, gid, hand(side(0, reds=2), side(50)))  # A -200 -> 400
    add(client, gid, hand(side(100, natural=1), side(50)))  # A +600 -> 1 000: A wins
    # Un-win it by correcting hand 3 down, and play one more.
    put_hand(client, f"/api/games/{gid}/hands/3", json=hand(side(500), side(50)))  # A 900
    add(client, gid, hand(side(50), side(50)))  # A 950
    # Without hand 2, A has 600 + 500 = 1 100 at hand 2 of 3: the game ends there.
    response = delete_hand(client, f"/api/games/{gid}/hands/2")
    assert response.status_code == 200, response.json
    game = response.json
    assert (game["winner"], game["ended_at"]) == (0, 2)
    assert [h["after_end"] for h in game["hands"]] == [False, False, True]
    assert [s["total"] for s in game["sides"]] == [1100, 100]


# --- errors outside the contract's routes ---------------------------------------------------


def test_unknown_api_address_and_method_are_json(client):
    assert_refusal(client.get("/api/nothing-here"), 404, None)
    response = client.get("/api/games")  # games are never listed: nobody sees others' games
    assert_refusal(response, 405, None)
    assert "POST" in response.headers["Allow"]
    assert_refusal(client.patch(f"/api/games/{new_game(client)['id']}"), 405, None)


def test_oversized_body_is_413_json(app, client):
    before = dump(app)
    body = json.dumps({"sides": FOUR, "name": "x" * (70 * 1024)})
    assert_refusal(client.post("/api/games", data=body, content_type="application/json"), 413)
    assert dump(app) == before


def test_a_stored_game_the_rules_no_longer_accept_is_409_not_500(app, client):
    game = new_game(client)
    add(client, game["id"], TYPICAL)
    conn = sqlite3.connect(app.config["DATABASE"])
    with conn:
        conn.execute("update hands set sides = '[{\"meld_points\": -5}, {}]'")
    conn.close()
    # A stricter rules fix arrives with new code, so with a restarted server (whose caches
    # start empty) over the same database.
    config = {"TESTING": True, "SECRET_KEY": "test", "DATABASE": app.config["DATABASE"]}
    restarted = create_app(config).test_client()
    assert_refusal(restarted.get(f"/api/games/{game['id']}"), 409, None)
    assert_refusal(restarted.post(f"/api/games/{game['id']}/hands", json=TYPICAL), 409, None)


def test_a_won_game_answers_409_even_to_a_bad_idempotency_key(app, client):
    game = won_game(client)
    before = dump(app)
    response = client.post(
        f"/api/games/{game['id']}/hands", json=TYPICAL, headers={"Idempotency-Key": "x" * 500}
    )
    assert_refusal(response, 409, None)
    assert dump(app) == before


def test_a_game_the_rules_no_longer_accept_can_still_be_exported(app, client):
    game = new_game(client)
    add(client, game["id"], TYPICAL)
    conn = sqlite3.connect(app.config["DATABASE"])
    with conn:
        conn.execute("update hands set sides = '[{\"meld_points\": -5}, {}]'")
    conn.close()
    exported = client.get(f"/api/games/{game['id']}/export")
    assert exported.status_code == 200
    data = exported.json
    (stored,) = data["hands"]
    assert stored["sides"][0]["meld_points"] == -5
    # Fixed by hand, it imports back as a playable game.
    stored["sides"] = TYPICAL["sides"]
    copy = client.post("/api/games/import", json=data)
    assert copy.status_code == 201
    assert [s["total"] for s in copy.json["sides"]] == [930, -35]
