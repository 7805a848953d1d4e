"""A Modern American game's own list of special hands through the API (docs/rules.md §5a,
issue 31): ``"rules": {"special_hands": [...]}``, its keys taken by ``"special_hand"``, each
bound refused at its field with nothing stored, and the list back in the game's rules."""

from __future__ import annotations

from typing import Any

import pytest
from flask.testing import FlaskClient

FOUR = [{"players": ["Ann", "Bob"]}, {"players": ["Cy", "Di"]}]
ROYAL = {"key": "royal", "name": "Royal canasta", "value": 4000}


def create(client: FlaskClient, hands: Any) -> Any:
    body = {"sides": FOUR, "family": "modern-american", "rules": {"special_hands": hands}}
    return client.post("/api/games", json=body)


def special_hand(client: FlaskClient, game_id: str, key: str) -> Any:
    body = {
        "went_out": 0,
        "sides": [{"special_hand": key}, {"meld_points": 130, "hand_points": 30}],
    }
    return client.post(f"/api/games/{game_id}/hands", json=body)


def test_a_game_with_its_own_list_takes_its_keys(client: FlaskClient) -> None:
    response = create(client, [{"key": "straight", "value": 3000}, ROYAL])
    assert response.status_code == 201, response.json
    game = response.json
    assert game["rules"]["special_hands"] == [{"key": "straight", "value": 3000}, ROYAL]
    assert game["house_rules"] == ["special_hands"]
    scored = special_hand(client, game["id"], "royal")
    assert scored.status_code == 201, scored.json
    assert scored.json["sides"][0]["total"] == 4000
    # pagat's pairs are not in this game's list.
    refused = special_hand(client, game["id"], "pairs")
    assert (refused.status_code, refused.json["field"]) == (422, "sides[0].special_hand")
    exported = client.get(f"/api/games/{game['id']}/export").json
    imported = client.post("/api/games/import", json=exported)
    assert imported.status_code == 201, imported.json
    assert imported.json["rules"]["special_hands"] == game["rules"]["special_hands"]


@pytest.mark.parametrize(
    ("hands", "field"),
    [
        ([{**ROYAL, "value": 3}], "rules.special_hands[0].value"),
        ([{**ROYAL, "name": "R" * 41}], "rules.special_hands[0].name"),
        ([ROYAL, {**ROYAL, "name": "Other"}], "rules.special_hands[1].key"),
        ([{"key": f"h{i}", "value": 100} for i in range(21)], "rules.special_hands"),
    ],
)
def test_a_bad_list_is_refused_at_its_field(client: FlaskClient, hands: Any, field: str) -> None:
    response = create(client, hands)
    assert (response.status_code, response.json["field"]) == (422, field)
