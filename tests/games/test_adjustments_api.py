"""The API's contract for adjustments and melds rank by rank (issue 22 §2 and §3)."""

from __future__ import annotations

import json
import sqlite3
from typing import Any

import pytest
from apidata import dump, hand, put_hand, side
from flask.testing import FlaskClient

FOUR = [{"name": "We", "players": ["Ann", "Bob"]}, {"name": "They", "players": ["Cy", "Di"]}]
# Natural kings (70 + 500), mixed sevens (5 × 5 + 50 + 20 + 300), three aces (60).
MELDS = [
    {"rank": "K", "naturals": 7, "jokers": 0, "twos": 0},
    {"rank": "7", "naturals": 5, "jokers": 1, "twos": 1},
    {"rank": "A", "naturals": 3, "jokers": 0, "twos": 0},
]


def new_game(client: FlaskClient) -> str:
    response = client.post("/api/games", json={"sides": FOUR})
    assert response.status_code == 201
    return response.json["id"]


def post(client: FlaskClient, game_id: str, body: Any):
    return client.post(f"/api/games/{game_id}/hands", json=body)


def by_rank(melds=MELDS, reds=0, left=0) -> dict[str, Any]:
    return {"melds": melds, "red_threes": reds, "hand_points": left}


# --- adjustments -----------------------------------------------------------------------------


def test_an_adjustment_counts_in_the_hand_and_the_totals(client):
    game_id = new_game(client)
    fined = {**side(60, left=20), "adjustment": -100, "adjustment_note": " pile taken "}
    response = post(client, game_id, hand(fined, side(60)))
    assert response.status_code == 201, response.json
    a, b = response.json["hands"][0]["sides"]
    assert a["score"]["adjustment"] == -100 and a["score"]["total"] == 60 - 20 - 100
    assert (a["adjustment"], a["adjustment_note"]) == (-100, "pile taken")
    assert b["score"]["adjustment"] == 0 and "adjustment" not in b
    assert [s["total"] for s in response.json["sides"]] == [-60, 60]
    # What the API wrote can be sent back as a correction, unchanged.
    echoed = response.json["hands"][0]
    again = put_hand(client, f"/api/games/{game_id}/hands/1", json=echoed)
    assert again.status_code == 200 and again.json["sides"][0]["total"] == -60


BAD_ADJUSTMENTS = [
    ({"adjustment": "10"}, 400, "sides[1].adjustment"),
    ({"adjustment": 2.5}, 400, "sides[1].adjustment"),
    ({"adjustment": 7}, 422, "sides[1].adjustment"),
    ({"adjustment": 5005}, 422, "sides[1].adjustment"),
    ({"adjustment": -5005}, 422, "sides[1].adjustment"),
    ({"adjustment": 5, "adjustment_note": 12}, 400, "sides[1].adjustment_note"),
    ({"adjustment": 5, "adjustment_note": "x" * 61}, 422, "sides[1].adjustment_note"),
    ({"adjustment": 5, "adjustment_note": "a\u202eb"}, 422, "sides[1].adjustment_note"),
]


@pytest.mark.parametrize(("changes", "status", "field"), BAD_ADJUSTMENTS)
def test_bad_adjustments_are_refused_at_their_field_and_nothing_stored(
    app, client, changes, status, field
):
    game_id = new_game(client)
    before = dump(app)
    response = post(client, game_id, hand(side(60), {**side(60), **changes}))
    assert response.status_code == status, response.json
    assert response.json["field"] == field
    assert dump(app) == before


# --- melds rank by rank ----------------------------------------------------------------------


def test_melds_rank_by_rank_decide_the_points_and_canastas(client):
    game_id = new_game(client)
    response = post(client, game_id, hand(by_rank(reds=1), side(60, left=30), went_out=0))
    assert response.status_code == 201, response.json
    a = response.json["hands"][0]["sides"][0]
    assert a["score"]["cards"] == 70 + 95 + 60
    assert a["score"]["canastas"] == 800
    assert a["score"]["total"] == 225 + 800 + 100 + 100
    assert a["melds"] == MELDS and "meld_points" not in a
    echoed = response.json["hands"][0]
    assert put_hand(client, f"/api/games/{game_id}/hands/1", json=echoed).status_code == 200


BAD_MELDS = [
    ({**by_rank(), "meld_points": 225}, 400, "sides[0].meld_points"),
    ({**by_rank(), "natural_canastas": 1}, 400, "sides[0].natural_canastas"),
    ({**by_rank(), "meld_cards": {"ten": 7}}, 400, "sides[0].meld_cards"),
    (by_rank({"rank": "K"}), 400, "sides[0].melds"),
    (by_rank([5]), 400, "sides[0].melds[0]"),
    (by_rank([{"rank": "K", "naturals": 3, "colour": "red"}]), 400, "sides[0].melds[0].colour"),
    (by_rank([{"rank": "Z", "naturals": 3}]), 422, "sides[0].melds[0].rank"),
    (by_rank([{"rank": "K", "naturals": "3"}]), 422, "sides[0].melds[0].naturals"),
    (by_rank([{"rank": "K", "naturals": 3, "jokers": ""}]), 422, "sides[0].melds[0].jokers"),
    (by_rank([{"rank": "K", "naturals": 1, "jokers": 2}]), 422, "sides[0].melds[0].naturals"),
    (by_rank([*MELDS, {"rank": "Q", "naturals": 2, "twos": 4}]), 422, "sides[0].melds[3].twos"),
    (by_rank([*MELDS, {"rank": "K", "naturals": 1}]), 422, "sides[0].melds[3].naturals"),
    (by_rank([*MELDS, {"rank": "3", "naturals": 3}]), 422, "sides[0].melds[3].rank"),
    (by_rank([{"rank": "K", "naturals": 3}] * 13), 422, "sides[0].melds"),
]


@pytest.mark.parametrize(("body", "status", "field"), BAD_MELDS)
def test_bad_melds_are_refused_at_their_field_and_nothing_stored(app, client, body, status, field):
    game_id = new_game(client)
    before = dump(app)
    # Sent by the side that did not go out: black threes are then refused too.
    response = post(client, game_id, hand(body, side(100, natural=1), went_out=1))
    assert response.status_code == status, response.json
    assert response.json["field"] == field
    assert dump(app) == before


# --- export, import, and games stored before ----------------------------------------------------


def test_export_and_import_keep_adjustments_and_melds(client):
    game_id = new_game(client)
    fined = {**by_rank(), "adjustment": -50, "adjustment_note": "red three kept"}
    assert post(client, game_id, hand(fined, side(60), went_out=0)).status_code == 201
    exported = client.get(f"/api/games/{game_id}/export").json
    assert exported["hands"][0]["sides"][0]["melds"] == MELDS
    assert exported["hands"][0]["sides"][0]["adjustment_note"] == "red three kept"
    copy = client.post("/api/games/import", json=exported)
    assert copy.status_code == 201, copy.json
    again = client.get(f"/api/games/{copy.json['id']}/export").json
    assert {**again, "id": None} == {**exported, "id": None}
    original = client.get(f"/api/games/{game_id}").json
    assert copy.json["sides"] == original["sides"]
    assert copy.json["hands"] == original["hands"]


def test_a_hand_stored_before_adjustments_reads_as_no_adjustment(app, client):
    game_id = new_game(client)
    assert post(client, game_id, hand(side(60), side(60))).status_code == 201
    # The row as it was written before this change: no adjustment, no melds.
    old = json.dumps([side(60, left=5), side(60)])
    conn = sqlite3.connect(app.config["DATABASE"])
    with conn:
        conn.execute("update hands set sides = ? where game_id = ?", [old, game_id])
        # (A new version, as any write makes: a read is cached by version.)
        conn.execute("update games set version = version + 1 where id = ?", [game_id])
    conn.close()
    game = client.get(f"/api/games/{game_id}").json
    a, b = game["hands"][0]["sides"]
    assert a["score"]["adjustment"] == 0 and a["score"]["total"] == 55
    assert "adjustment" not in a and "melds" not in a
