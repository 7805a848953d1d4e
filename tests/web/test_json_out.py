"""The app's JSON is written by orjson and reads exactly as Flask's own provider's would."""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import UTC, date, datetime

from flask import Flask
from flask.json.provider import DefaultJSONProvider


@dataclass
class Seat:
    player: str
    position: int


def test_what_the_app_writes_reads_as_flask_would_write_it(app: Flask) -> None:
    data = {
        "name": "Zoë & Ñandú <b>",
        "numbers": [0, -1250, 2.5, None, True],
        "nested": {"hands": [{"went_out": None}], 3: "a number as a key"},
        "played": date(2026, 11, 30),
        "stamp": datetime(2026, 11, 30, 20, 5, tzinfo=UTC),
        "seat": Seat("Ann", 1),
    }
    flask_own = DefaultJSONProvider(app)
    flask_own.sort_keys = False  # as the app has always written them
    assert json.loads(app.json.dumps(data)) == json.loads(flask_own.dumps(data))


def test_an_integer_past_64_bits_is_still_written(app: Flask) -> None:
    assert json.loads(app.json.dumps({"target": 2**70})) == {"target": 2**70}


def test_keys_keep_their_order(app: Flask) -> None:
    assert app.json.dumps({"b": 1, "a": 2}) == '{"b":1,"a":2}'


def test_a_game_answer_is_compact_json_in_utf_8(app: Flask, client) -> None:
    sides = [{"name": "Zoë", "players": ["Zoë", "Ñandú"]}, {"players": ["Cy", "Di"]}]
    answer = client.post("/api/games", json={"sides": sides})
    assert answer.status_code == 201
    assert "Zoë" in answer.get_data(as_text=True)
    assert answer.get_json()["sides"][0]["players"] == ["Zoë", "Ñandú"]
