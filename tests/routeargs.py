"""One of each thing a route can name (a club, a game, a night), and every route's path with
them: tests that must cover every route of a kind (every PDF, every heavy read, every write)
list the app's URL map rather than the routes someone remembered."""

from __future__ import annotations

import re
from typing import Any

from apidata import EIGHT
from flask import Flask
from flask.testing import FlaskClient

CLUB = {"name": "Thursday", "players": ["Ann", "Bob", "Cy", "Di"]}
SIDES = [{"players": ["Ann", "Bob"]}, {"players": ["Cy", "Di"]}]
# A season that holds every night made today, whatever the year the tests run in.
SEASON = {"name": "Winter", "from": "2000-01-01", "to": "2999-12-31", "best_of": 4}
# What a route needs besides its arguments to answer 200.
QUERIES = {"pdf.blank_sheet": "?sides=2"}
# The arguments that name no stored thing: a hand, a round or a table by number, a player,
# a language, a static file.
NAMED = {"number": "1", "table": "1", "name": "Ann", "code": "fr", "filename": "app.css"}
_ARGUMENT = re.compile(r"<(?:[^:<>]+:)?([^:<>]+)>")


def last_part(url: str) -> str:
    return url.rsplit("/", 1)[-1]


def one_of_each(client: FlaskClient) -> dict[str, str]:
    """A club with a game of one hand and a night with a round drawn, by route argument."""
    club = client.post("/api/clubs", json=CLUB).get_json()["id"]
    made = client.post(f"/api/clubs/{club}/games", json={"sides": SIDES}).get_json()
    game = made["id"]
    hand = {"sides": [{"meld_points": 120}, {"meld_points": 50}]}
    assert client.post(f"/api/games/{game}/hands", json=hand).status_code == 201
    body = {"players": EIGHT, "rounds": 2, "round": {"fixed_hands": 1}}
    night = client.post(f"/api/clubs/{club}/nights", json=body)
    assert night.status_code == 201
    tag = night.headers["ETag"]
    drawn = client.post(f"/api/nights/{night.get_json()['id']}/rounds", headers={"If-Match": tag})
    assert drawn.status_code == 201, drawn.get_json()
    season = client.post(f"/api/clubs/{club}/seasons", json=SEASON)
    assert season.status_code == 201, season.get_json()
    return {
        **NAMED,
        "club_id": club,
        "game_id": game,
        "watch_id": last_part(made["watch_url"]),
        "night_id": night.get_json()["id"],
        "wall_id": last_part(drawn.get_json()["watch_url"]),
        "season_id": season.get_json()["id"],
    }


def path_of(rule: Any, ids: dict[str, str]) -> str:
    """A path that reaches `rule` with `ids` (fails on an argument `ids` does not give)."""
    missing = set(rule.arguments) - set(ids)
    assert not missing, f"{rule.rule}: give tests/routeargs.py a {missing}"
    return _ARGUMENT.sub(lambda found: ids[found.group(1)], rule.rule)


def paths_of(app: Flask, rules: list[Any], ids: dict[str, str]) -> dict[str, str]:
    """Each rule's endpoint and a path that reaches it with `ids`, with what it needs besides."""
    return {rule.endpoint: path_of(rule, ids) + QUERIES.get(rule.endpoint, "") for rule in rules}
