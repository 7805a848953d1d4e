"""Modern American's tournament rule through the API (docs/rules.md §5a, issue 31): a game
created with ``"rules": {"minimum_by": "hand_number"}`` asks 125, 155, 180 by hand number on
its board, in its hands, in the question of §2b and in the checker opened from it."""

from __future__ import annotations

from typing import Any

from flask.testing import FlaskClient

FOUR = [{"players": ["Ann", "Bob"]}, {"players": ["Cy", "Di"]}]
BY_HAND = {"minimum_by": "hand_number"}
# One natural canasta and 300 in cards (300 + 500), and 130 melded, 30 held (-130 - 30):
# by the minimum table both sides stay at 125 for hands on end.
HAND = {
    "went_out": None,
    "sides": [
        {"meld_points": 300, "canastas": {"natural": 1}},
        {"meld_points": 130, "hand_points": 30},
    ],
}


def create(client: FlaskClient, **body: Any) -> dict[str, Any]:
    response = client.post("/api/games", json={"sides": FOUR, "family": "modern-american", **body})
    assert response.status_code == 201, response.get_json()
    return response.get_json()


def record(client: FlaskClient, game_id: str, **extra: Any) -> Any:
    return client.post(f"/api/games/{game_id}/hands", json={**HAND, **extra})


def minimums(game: dict[str, Any]) -> list[int]:
    return [side["opening_minimum"] for side in game["sides"]]


def test_the_minimum_for_the_next_hand_follows_the_hand_number(client: FlaskClient) -> None:
    game = create(client, rules=BY_HAND)
    assert game["rules"]["minimum_by"] == "hand_number"
    assert game["house_rules"] == ["minimum_by"]
    assert minimums(game) == [125, 125]
    game = record(client, game["id"]).get_json()
    assert minimums(game) == [155, 155]
    # 130 opened hand 1 but is short of 155 in hand 2: asked, nothing stored.
    asked = record(client, game["id"])
    assert asked.status_code == 422
    assert asked.get_json()["confirm"] == "opening_minimum"
    assert asked.get_json()["field"] == "sides[1].meld_points"
    game = record(client, game["id"], confirm=["opening_minimum"]).get_json()
    assert [hand["sides"][1]["opening_minimum"] for hand in game["hands"]] == [125, 155]
    assert game["hands"][1]["irregular"] == ["opening_minimum"]
    assert minimums(game) == [180, 180]
    game = record(client, game["id"], confirm=["opening_minimum"]).get_json()
    assert minimums(game) == [180, 180]  # past hand 3: the last row
    assert client.get(f"/api/games/{game['id']}").get_json()["sides"] == game["sides"]


def test_without_the_rule_the_same_game_goes_by_its_totals(client: FlaskClient) -> None:
    game = create(client)
    assert game["rules"]["minimum_by"] == "total"
    assert game["house_rules"] == []
    for _ in range(2):
        response = record(client, game["id"])
        assert response.status_code == 201, response.get_json()
    assert minimums(response.get_json()) == [125, 125]


def test_the_checker_and_the_board_follow_the_game(client: FlaskClient) -> None:
    game = create(client, rules=BY_HAND)
    record(client, game["id"])
    check = client.post(
        "/api/opening-meld",
        json={"game": game["id"], "side": 1, "melds": [{"rank": "K", "naturals": 3}]},
    )
    assert check.status_code == 200, check.get_json()
    assert (check.get_json()["minimum"], check.get_json()["short"]) == (155, 125)
    board = client.get(f"/games/{game['id']}").get_data(as_text=True)
    assert board.count('data-minimum="155"') == 2


def test_a_bad_choice_and_a_classic_game_are_refused_at_the_rule(client: FlaskClient) -> None:
    response = client.post(
        "/api/games", json={"sides": FOUR, "family": "modern-american", "rules": {"minimum_by": 1}}
    )
    assert (response.status_code, response.get_json()["field"]) == (422, "rules.minimum_by")
    response = client.post("/api/games", json={"sides": FOUR, "rules": BY_HAND})
    assert (response.status_code, response.get_json()["field"]) == (422, "rules.minimum_by")
