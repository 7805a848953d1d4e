"""Ids carry their shard (issue 24): a proxy routes by the address alone.

A single box (no SCORER_SHARD) hands out today's bare ids; a shard's ids start `s<N>-`, and
a shard still serves the bare ids it held before it became one.
"""

from __future__ import annotations

import re

import pytest
from apidata import EIGHT
from flask import Flask
from test_games_pages import start

from scorer import create_app
from scorer.store import ids

BARE = re.compile(r"[A-Za-z0-9_-]{22}")
FOUR = [{"players": ["Ann", "Bob"]}, {"players": ["Cy", "Di"]}]


def make_app(tmp_path, shard=None) -> Flask:
    config = {
        "TESTING": True,
        "DATABASE": str(tmp_path / "scorer.sqlite3"),
        "SECRET_KEY": "test-secret",
        "WTF_CSRF_ENABLED": False,
    }
    if shard is not None:
        config["SHARD"] = shard
    return create_app(config)


def every_new_id(app: Flask) -> dict[str, str]:
    """A game, a club, a club's game and their watch links, made through the API and pages."""
    client = app.test_client()
    game = client.post("/api/games", json={"sides": FOUR})
    assert game.status_code == 201
    club = client.post("/api/clubs", json={"name": "Sunday", "players": ["Ann", "Bob", "Cy", "Di"]})
    assert club.status_code == 201
    club_id = club.json["id"]
    club_game = client.post(f"/api/clubs/{club_id}/games", json={"sides": FOUR})
    assert club_game.status_code == 201
    page_id = start(client)
    night = client.post(
        f"/api/clubs/{club_id}/nights",
        json={"players": EIGHT, "rounds": 2, "round": {"fixed_hands": 1}},
    )
    assert night.status_code == 201, night.json
    drawn = client.post(
        f"/api/nights/{night.json['id']}/rounds", headers={"If-Match": night.headers["ETag"]}
    )
    assert drawn.status_code == 201, drawn.json
    table = drawn.json["rounds"][0]["tables"][0]
    return {
        "game": game.json["id"],
        "game location": game.headers["Location"].rsplit("/", 1)[-1],
        "watch": game.json["watch_url"].rsplit("/", 1)[-1],
        "club": club_id,
        "club location": club.headers["Location"].rsplit("/", 1)[-1],
        "club game": club_game.json["id"],
        "club game location": club_game.headers["Location"].rsplit("/", 1)[-1],
        "club game watch": client.get(f"/api/games/{club_game.json['id']}")
        .json["watch_url"]
        .rsplit("/", 1)[-1],
        "game from the page": page_id,
        "night": night.json["id"],
        "night's wall": night.json["watch_url"].rsplit("/", 1)[-1],
        "night's game": table["game"],
        "night's game watch": table["watch_url"].rsplit("/", 1)[-1],
    }


def test_a_single_box_hands_out_todays_bare_ids(tmp_path, monkeypatch):
    monkeypatch.delenv(ids.ENV_SHARD, raising=False)
    made = every_new_id(make_app(tmp_path))
    assert all(BARE.fullmatch(value) for value in made.values()), made
    assert all(ids.shard_of(value) is None for value in made.values())


def test_every_id_a_shard_hands_out_names_it(tmp_path):
    made = every_new_id(make_app(tmp_path, shard=7))
    for what, value in made.items():
        assert re.fullmatch(r"s7-[A-Za-z0-9_-]{22}", value), (what, value)
        assert ids.shard_of(value) == 7
    # The watch link is random on its own, never the game's id.
    assert made["watch"] != made["game"]


def test_the_shard_comes_from_the_environment(tmp_path, monkeypatch):
    monkeypatch.setenv(ids.ENV_SHARD, "12")
    app = make_app(tmp_path)
    assert app.config["SHARD"] == 12
    assert ids.shard_of(every_new_id(app)["game"]) == 12


@pytest.mark.parametrize("text", ["0", "02", "1000", "two", "-1", "s2"])
def test_a_shard_that_is_not_a_number_stops_the_server(tmp_path, monkeypatch, text):
    monkeypatch.setenv(ids.ENV_SHARD, text)
    with pytest.raises(ValueError, match="SCORER_SHARD must be a shard number from 1 to 999"):
        make_app(tmp_path)


def test_a_box_that_becomes_a_shard_still_serves_its_bare_ids(tmp_path, monkeypatch):
    monkeypatch.delenv(ids.ENV_SHARD, raising=False)
    old = make_app(tmp_path).test_client().post("/api/games", json={"sides": FOUR}).json
    client = make_app(tmp_path, shard=1).test_client()
    assert client.get(f"/api/games/{old['id']}").status_code == 200
    assert client.get(old["watch_url"], headers={"Accept": "application/json"}).status_code == 200
    assert client.get(f"/games/{old['id']}").status_code == 200


def test_shard_of_reads_only_the_sharded_form():
    token = "A" * 22
    assert ids.shard_of(f"s3-{token}") == 3
    assert ids.shard_of(f"s999-{token}") == 999
    assert ids.shard_of(token) is None
    # A bare id that happens to begin like a sharded one is 22 characters: still bare.
    assert ids.shard_of("s2-" + "x" * 19) is None
    assert ids.shard_of(f"s0-{token}") is None
    assert ids.shard_of(f"s3-{token}x") is None


def test_new_ids_are_unguessable_and_url_safe():
    made = {ids.new_id(4) for _ in range(1000)}
    assert len(made) == 1000
    assert all(re.fullmatch(r"s4-[A-Za-z0-9_-]{22}", value) for value in made)
    assert all(BARE.fullmatch(ids.new_id(None)) for _ in range(100))
