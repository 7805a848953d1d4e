"""The API contract lives in the web layer and reads a hand by the core's hand schema; a
hand's body is parsed once."""

from __future__ import annotations

from typing import Any

import pytest
from apidata import hand, side

from scorer.core import hand_schema
from scorer.games import api
from scorer.store import game_json
from scorer.web import api_contract

SIDES = [{"players": ["Ann", "Bob"]}, {"players": ["Cy", "Di"]}]


def test_the_store_keeps_storage_and_the_web_the_contract() -> None:
    assert not [name for name in vars(game_json) if name.startswith("parse_")]
    assert not hasattr(game_json, "PayloadError")
    assert hand_schema.field_names() == api_contract.SIDE_HAND_FIELDS


def test_a_hands_body_is_parsed_once(client: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    game = client.post("/api/games", json={"sides": SIDES}).get_json()
    calls = []
    parse = api.json_body

    def counted(*args: Any) -> Any:
        calls.append(args)
        return parse(*args)

    monkeypatch.setattr(api, "json_body", counted)
    body = {**hand(side(150, natural=1), side(60, left=10), went_out=0), "confirm": []}
    answer = client.post(f"/api/games/{game['id']}/hands", json=body)
    assert answer.status_code == 201
    assert len(calls) == 1


def test_a_misspelt_field_is_still_refused_by_name(client: Any) -> None:
    game = client.post("/api/games", json={"sides": SIDES}).get_json()
    wrong = hand({**side(150, natural=1), "natural_canasta": 1}, side(60), went_out=0)
    answer = client.post(f"/api/games/{game['id']}/hands", json=wrong)
    assert answer.status_code == 400
    assert answer.get_json()["field"] == "sides[0].natural_canasta"


def test_the_pages_show_each_kind_of_canastas_bonus(client: Any) -> None:
    """The hand form's dry run (the preview) and the rules page read each bonus by its house
    rule's name (``natural_canasta``): a house rule shows as set."""
    rules = {"natural_canasta": 600, "mixed_canasta": 250}
    game = client.post("/api/games", json={"sides": SIDES, "rules": rules}).get_json()
    typed = {"went_out": "0", "sides-0-meld_points": "200", "sides-0-natural_canastas": "1",
             "sides-0-mixed_canastas": "1", "sides-1-meld_points": "60"}  # fmt: skip
    verdict = client.post(f"/games/{game['id']}/hands/check", data=typed).get_json()
    assert verdict["sides"][0]["total"] == 200 + 600 + 250 + 100, verdict
    book = client.get("/rules").get_data(as_text=True)
    natural = book.split("Natural canasta (seven cards or more", 1)[1].split("</tr>", 1)[0]
    assert '<td class="num">500</td>' in natural
