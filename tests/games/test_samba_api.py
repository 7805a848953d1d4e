"""Samba and Bolivia through the JSON API (issue 32): games of the families, their hands in
the API's names (canastas by kind in one object, red threes, Bolivia's black threes in hand,
sequences by suit, first and last rank), dealt hands posted every way and none refused,
impossible ones refused at their field, and export, import and CSV round trips.

The arithmetic is the engine's (tests/core/test_samba.py, test_bolivia.py); the sums here are
the rule book's worked examples, written out in the comments.
"""

from __future__ import annotations

import csv
import io
import random
from typing import Any

import pytest
from deal_samba import BOLIVIA_BOOK, JSON_FORMS, SAMBA_BOOK, expected_scores, json_hand, play_hand
from flask.testing import FlaskClient

FOUR = [{"players": ["Ann", "Bob"]}, {"players": ["Cy", "Di"]}]
BOOKS = {"samba": SAMBA_BOOK, "bolivia": BOLIVIA_BOOK}
QUIET = {"meld_points": 70, "hand_points": 30}
# The rule book's worked example: a samba of hearts 4 to 10 (50 + 1 500), seven kings
# (70 + 500), two red threes (200), going out (200), the partner left with 15: 2 505.
SAMBA_WORKED = {
    "went_out": 0,
    "sides": [
        {
            "melds": [{"rank": "K", "naturals": 7, "jokers": 0, "twos": 0}],
            "sequences": [{"suit": "hearts", "first": "4", "last": "10"}],
            "red_threes": 2,
            "hand_points": 15,
        },
        QUIET,
    ],
}
# Bolivia's: an escalera of spades 8 to ace (80 + 1 500), a bolivia of three jokers and four
# twos (230 + 2 500), all six red threes (1 000), going out (200), two black threes (-200)
# and 25 left in hand: 5 285.
BOLIVIA_WORKED = {
    "went_out": 0,
    "sides": [
        {
            "meld_points": 310,
            "canastas": {"natural": 0, "mixed": 0, "escalera": 1, "bolivia": 1},
            "red_threes": 6,
            "black_threes_in_hand": 2,
            "hand_points": 25,
        },
        QUIET,
    ],
}


def create(client: FlaskClient, **body: Any) -> dict[str, Any]:
    response = client.post("/api/games", json={"sides": FOUR, **body})
    assert response.status_code == 201, response.get_json()
    return response.get_json()


def post(client: FlaskClient, game_id: str, body: dict[str, Any], status: int = 201) -> Any:
    response = client.post(f"/api/games/{game_id}/hands", json=body)
    assert response.status_code == status, response.get_json()
    return response.get_json()


@pytest.mark.parametrize(("family", "target"), [("samba", 10000), ("bolivia", 15000)])
def test_a_game_of_the_family(client: FlaskClient, family: str, target: int) -> None:
    game = create(client, family=family)
    assert (game["family"], game["profile"], game["target"]) == (family, family, target)
    assert [side["opening_minimum"] for side in game["sides"]] == [50, 50]  # 0 to 1 495
    again = client.get(f"/api/games/{game['id']}").get_json()
    assert (again["family"], again["profile"]) == (family, family)
    # Its canastas' bonuses are house rules of their own names.
    kind = "samba" if family == "samba" else "escalera"
    assert game["rules"][f"{kind}_canasta"] == 1500


def test_a_seating_of_another_family_is_refused_at_the_profile(client: FlaskClient) -> None:
    response = client.post(
        "/api/games", json={"sides": FOUR, "family": "samba", "profile": "classic"}
    )
    assert response.status_code == 422
    assert response.get_json()["field"] == "profile"


def test_samba_s_worked_example_reads_back_in_the_apis_names(client: FlaskClient) -> None:
    game = create(client, family="samba")
    game = post(client, game["id"], {**SAMBA_WORKED, "confirm": ["opening_minimum"]})
    us, them = game["hands"][0]["sides"]
    assert us["score"]["total"] == 2505
    assert us["score"]["canastas"] == 2000
    assert us["sequences"] == [{"suit": "hearts", "first": "4", "last": "10"}]
    assert "samba_canastas" not in us and "meld_points" not in us
    assert them["score"]["total"] == 70 - 30
    # Sent back as it is read.
    url = f"/api/games/{game['id']}/hands/1"
    etag = client.get(f"/api/games/{game['id']}").headers["ETag"]
    back = {**game["hands"][0], "confirm": ["opening_minimum"]}
    response = client.put(url, json=back, headers={"If-Match": etag})
    assert response.status_code == 200, response.get_json()
    assert response.get_json()["hands"][0]["sides"] == game["hands"][0]["sides"]


def test_bolivia_s_worked_example_counts_black_threes_apart(client: FlaskClient) -> None:
    game = create(client, family="bolivia")
    game = post(client, game["id"], {**BOLIVIA_WORKED, "confirm": ["opening_minimum"]})
    us = game["hands"][0]["sides"][0]
    assert us["score"]["total"] == 5285
    assert us["score"]["penalties"] == -200
    assert us["canastas"] == BOLIVIA_WORKED["sides"][0]["canastas"]
    assert us["black_threes_in_hand"] == 2


@pytest.mark.parametrize("family", sorted(BOOKS))
def test_dealt_hands_posted_every_way_are_never_refused(client: FlaskClient, family: str) -> None:
    """Hands dealt from three shuffled packs (tests/deal_samba.py), posted typed, counted and
    meld by meld: every one is taken, and scored as the rule book adds its cards."""
    game = create(client, family=family)
    posted = 0
    for seed in range(12):
        end = play_hand(BOOKS[family], random.Random(seed))
        for form in JSON_FORMS:
            if game["finished"]:
                game = create(client, family=family)
            game = post(client, game["id"], json_hand(end, form))
            scores = [side["score"]["total"] for side in game["hands"][-1]["sides"]]
            assert tuple(scores) == expected_scores(end), (seed, form)
            posted += 1
    assert posted == 36


def _refused(client: FlaskClient, family: str, body: dict[str, Any]) -> tuple[int, str]:
    game = create(client, family=family)
    response = client.post(f"/api/games/{game['id']}/hands", json=body)
    # Nothing stored.
    assert client.get(f"/api/games/{game['id']}").get_json()["hands"] == []
    return response.status_code, response.get_json()["field"]


def _changed(body: dict[str, Any], **us: Any) -> dict[str, Any]:
    return {**body, "sides": [{**body["sides"][0], **us}, body["sides"][1]]}


def test_impossible_hands_are_refused_where_typed(client: FlaskClient) -> None:
    samba = SAMBA_WORKED["sides"][0]["sequences"][0]
    wild = _changed(SAMBA_WORKED, sequences=[{**samba, "twos": 1}])
    assert _refused(client, "samba", wild) == (422, "sides[0].sequences[0].twos")
    eighth = _changed(SAMBA_WORKED, sequences=[{**samba, "last": "J"}])
    assert _refused(client, "samba", eighth) == (422, "sides[0].sequences[0].last")
    seven = _changed(SAMBA_WORKED, red_threes=7)
    assert _refused(client, "samba", seven) == (422, "sides[0].red_threes")
    without = _changed(
        BOLIVIA_WORKED, meld_points=140, canastas={"natural": 2, "escalera": 0, "bolivia": 0}
    )
    assert _refused(client, "bolivia", without) == (422, "sides[0].canastas.escalera")
    kind = _changed(BOLIVIA_WORKED, canastas={"samba": 1})
    assert _refused(client, "bolivia", kind) == (422, "sides[0].canastas.samba")
    asked = _changed(SAMBA_WORKED, black_threes_in_hand=1)
    assert _refused(client, "samba", asked) == (400, "sides[0].black_threes_in_hand")


@pytest.mark.parametrize("family", sorted(BOOKS))
def test_an_export_imports_back_to_the_same_game(client: FlaskClient, family: str) -> None:
    game = create(client, family=family, name="Thursday")
    for seed in range(3):
        end = play_hand(BOOKS[family], random.Random(seed))
        post(client, game["id"], json_hand(end, JSON_FORMS[seed]))
    # A samba (in Bolivia an escalera) of hearts and seven kings, meld by meld: 2 505 in both.
    post(client, game["id"], {**SAMBA_WORKED, "confirm": ["opening_minimum"]})
    exported = client.get(f"/api/games/{game['id']}/export").get_json()
    assert exported["family"] == family
    assert any(side.get("sequences") for hand in exported["hands"] for side in hand["sides"])
    imported = client.post("/api/games/import", json=exported)
    assert imported.status_code == 201, imported.get_json()
    copy = imported.get_json()
    original = client.get(f"/api/games/{game['id']}").get_json()
    assert (copy["family"], copy["profile"]) == (family, family)
    assert copy["hands"] == original["hands"]
    assert [side["total"] for side in copy["sides"]] == [
        side["total"] for side in original["sides"]
    ]
    again = client.get(f"/api/games/{copy['id']}/export").get_json()
    assert again["hands"] == exported["hands"]


def test_the_csv_has_the_families_columns(client: FlaskClient) -> None:
    samba = create(client, family="samba")
    post(client, samba["id"], {**SAMBA_WORKED, "confirm": ["opening_minimum"]})
    rows = _csv(client, samba["id"])
    assert rows[0]["samba canastas"] == "1" and rows[0]["natural canastas"] == "1"
    assert rows[0]["meld points"] == "120" and rows[0]["hand score"] == "2505"
    assert "escalera canastas" not in rows[0] and "black threes in hand" not in rows[0]
    bolivia = create(client, family="bolivia")
    post(client, bolivia["id"], {**BOLIVIA_WORKED, "confirm": ["opening_minimum"]})
    rows = _csv(client, bolivia["id"])
    assert (rows[0]["escalera canastas"], rows[0]["bolivia canastas"]) == ("1", "1")
    assert (rows[0]["black threes in hand"], rows[0]["penalties"]) == ("2", "-200")
    assert rows[0]["hand score"] == "5285"


def _csv(client: FlaskClient, game_id: str) -> list[dict[str, str]]:
    response = client.get(f"/games/{game_id}/hands.csv")
    assert response.status_code == 200
    return list(csv.DictReader(io.StringIO(response.get_data(as_text=True))))
