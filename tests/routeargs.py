"""One of each thing a route can name (a club, a game, a night), and every route's path with
them: tests that must cover every route of a kind (every PDF, every heavy read) list the
app's URL map rather than the routes someone remembered."""

from __future__ import annotations

from typing import Any

from apidata import EIGHT
from flask import Flask
from flask.testing import FlaskClient

CLUB = {"name": "Thursday", "players": ["Ann", "Bob", "Cy", "Di"]}
SIDES = [{"players": ["Ann", "Bob"]}, {"players": ["Cy", "Di"]}]
# What a route needs besides its arguments to answer 200.
QUERIES = {"pdf.blank_sheet": "?sides=2"}


def one_of_each(client: FlaskClient) -> dict[str, str]:
    """A club with a game of one hand and a night with a round drawn, by route argument."""
    club = client.post("/api/clubs", json=CLUB).get_json()["id"]
    game = client.post(f"/api/clubs/{club}/games", json={"sides": SIDES}).get_json()["id"]
    hand = {"sides": [{"meld_points": 120}, {"meld_points": 50}]}
    assert client.post(f"/api/games/{game}/hands", json=hand).status_code == 201
    body = {"players": EIGHT, "rounds": 2, "round": {"fixed_hands": 1}}
    night = client.post(f"/api/clubs/{club}/nights", json=body)
    assert night.status_code == 201
    tag = night.headers["ETag"]
    drawn = client.post(f"/api/nights/{night.get_json()['id']}/rounds", headers={"If-Match": tag})
    assert drawn.status_code == 201, drawn.get_json()
    season = {"name": "Winter", "from": "2026-01-01", "to": "2026-12-31", "best_of": 4}
    made = client.post(f"/api/clubs/{club}/seasons", json=season)
    assert made.status_code == 201, made.get_json()
    return {
        "club_id": club,
        "game_id": game,
        "night_id": night.get_json()["id"],
        "season_id": made.get_json()["id"],
    }


def paths_of(app: Flask, rules: list[Any], ids: dict[str, str]) -> dict[str, str]:
    """Each rule's endpoint and a path that reaches it with `ids` (fails on an unknown one)."""
    found = {}
    for rule in rules:
        missing = set(rule.arguments) - set(ids)
        assert not missing, f"{rule.rule}: give tests/routeargs.py a {missing}"
        path = rule.rule
        for name in rule.arguments:
            path = path.replace(f"<{name}>", ids[name])
        found[rule.endpoint] = path + QUERIES.get(rule.endpoint, "")
    return found
