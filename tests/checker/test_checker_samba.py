"""The opening-meld checker in Samba and Bolivia (issue 32): sequences beside the groups, each
refused at its field, and the families' minimum tables (the 7 000 row: 150, the house rule
160 for Samba), by a side's total or by a game's side."""

from __future__ import annotations

from typing import Any

import pytest
from flask.testing import FlaskClient

API = "/api/opening-meld"
FOUR = [{"players": ["Ann", "Bob"]}, {"players": ["Cy", "Di"]}]
KINGS = {"rank": "K", "naturals": 3}
HEARTS = {"suit": "hearts", "first": "4", "last": "6"}  # 15


def check(client: FlaskClient, **body: Any) -> dict[str, Any]:
    answer = client.post(API, json=body)
    assert answer.status_code == 200, answer.get_json()
    return answer.get_json()


@pytest.mark.parametrize("family", ["samba", "bolivia"])
def test_an_opening_counts_its_sequences(client: FlaskClient, family: str) -> None:
    answer = check(client, family=family, minimum=50, melds=[KINGS], sequences=[HEARTS])
    assert (answer["points"], answer["short"], answer["problems"]) == (45, 5, [])
    assert answer["sequences"] == [{"points": 15, "counted": True}]
    spades = {"suit": "Spades", "first": "10", "last": "k"}  # 40
    answer = check(client, family=family, minimum=50, melds=[KINGS], sequences=[HEARTS, spades])
    assert (answer["points"], answer["enough"]) == (85, True)


def test_a_sequence_the_rules_refuse_is_not_counted(client: FlaskClient) -> None:
    wild = {**HEARTS, "jokers": 1}
    long = {"suit": "clubs", "first": "4", "last": "J"}
    answer = check(client, family="samba", minimum=50, melds=[KINGS], sequences=[wild, long])
    assert answer["points"] == 30
    assert answer["sequences"] == [
        {"points": 15, "counted": False},
        {"points": 60, "counted": False},
    ]
    codes = [(p["field"], p["code"]) for p in answer["problems"]]
    assert codes == [
        ("sequences[0].jokers", "sequence-wild"),
        ("sequences[1].last", "sequence-long"),
    ]
    assert answer["problems"][0]["error"] == "a sequence holds no wild card"


def test_classic_has_no_sequences(client: FlaskClient) -> None:
    answer = check(client, minimum=50, melds=[KINGS], sequences=[HEARTS])
    assert [p["code"] for p in answer["problems"]] == ["no-sequences"]
    assert answer["points"] == 30
    assert check(client, minimum=50, melds=[KINGS])["sequences"] == []


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"minimum": 50, "sequences": HEARTS}, "sequences"),
        ({"minimum": 50, "sequences": [HEARTS] * 21}, "sequences"),
        ({"minimum": 50, "sequences": ["hearts"]}, "sequences[0]"),
        ({"minimum": 50, "sequences": [{**HEARTS, "rank": "4"}]}, "sequences[0].rank"),
        ({"minimum": 50, "sequences": [{**HEARTS, "twos": -1}]}, "sequences[0].twos"),
        ({"total": "7000"}, "total"),
        ({"total": 2_000_000}, "total"),
    ],
)
def test_a_question_it_cannot_read_is_refused_at_its_field(
    client: FlaskClient, body: dict[str, Any], field: str
) -> None:
    answer = client.post(API, json={"family": "samba", "melds": [], **body})
    assert answer.status_code == 400
    assert answer.get_json()["field"] == field


@pytest.mark.parametrize(
    ("family", "total", "minimum"),
    [
        ("samba", -5, 15),
        ("samba", 0, 50),
        ("samba", 6995, 120),
        ("samba", 7000, 150),
        ("bolivia", 7000, 150),
        ("bolivia", 14995, 150),
        ("classic", 7000, 120),
    ],
)
def test_the_minimum_by_a_sides_total(
    client: FlaskClient, family: str, total: int, minimum: int
) -> None:
    answer = check(client, family=family, total=total, melds=[KINGS])
    assert answer["minimum"] == minimum


# Two sambas (55 + 65 + 3 000), seven kings (70 + 500), all six red threes (1 000) and going
# out (200): 4 890 a hand. Two of them pass 7 000.
BIG = {
    "went_out": 0,
    "sides": [
        {
            "melds": [{"rank": "K", "naturals": 7}],
            "sequences": [
                {"suit": "hearts", "first": "5", "last": "J"},
                {"suit": "spades", "first": "7", "last": "K"},
            ],
            "red_threes": 6,
        },
        {"hand_points": 30},
    ],
    "confirm": ["opening_minimum"],
}
BICYCLE = [[None, 15], [0, 50], [1500, 90], [3000, 120], [7000, 160]]


@pytest.mark.parametrize(("rules", "minimum"), [({}, 150), ({"minimums": BICYCLE}, 160)])
def test_a_games_side_past_7000_needs_its_tables_minimum(
    client: FlaskClient, rules: dict[str, Any], minimum: int
) -> None:
    game = client.post("/api/games", json={"sides": FOUR, "family": "samba", "rules": rules})
    assert game.status_code == 201, game.get_json()
    game_id = game.get_json()["id"]
    for _ in range(2):
        answer = client.post(f"/api/games/{game_id}/hands", json=BIG)
        assert answer.status_code == 201, answer.get_json()
    assert [side["total"] for side in answer.get_json()["sides"]] == [9780, -60]
    verdict = check(client, game=game_id, side=0, melds=[KINGS], sequences=[HEARTS])
    assert (verdict["minimum"], verdict["points"]) == (minimum, 45)
    # The game's family decides: sequences are counted without naming it.
    mismatch = client.post(API, json={"game": game_id, "side": 0, "family": "bolivia", "melds": []})
    assert mismatch.status_code == 400
    assert mismatch.get_json()["field"] == "family"
