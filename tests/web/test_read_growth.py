"""Every read not marked heavy costs the same on a club twice the size (issue 35).

A read whose work grows with what a club has stored (its nights, its games, a season made
of them) must be marked @heavy_read where it is defined (scorer.web.routes): it then spends
the heavy-read budget and waits for a heavy slot. This finds the reads that grow and are
not marked, whichever feature adds them: every GET rule of the app's URL map not marked
heavy is asked of a small club and of one with twice its nights and games, and the work of
one warmed request is counted as the Python calls it makes (tests/workcount.py: the same
for the same request on the same data, where a time is not).

The night, the game and the hand each route names have the same shape in both clubs (a
game's pages follow that game's length, a night's pages its tables): only the club grows.
A list in pages costs a page: every page is made smaller than the small club, so both fill
theirs. A read that answers with a tag is asked again with it (If-None-Match), heavy or not:
a 304 must cost the same on both clubs.
"""

from __future__ import annotations

import sys

import pytest
from flask import Flask
from routeargs import NAMED, last_part, path_of
from workcount import calls, counting_app

from scorer.core import limits
from scorer.web.routes import is_heavy

NIGHTS = 8  # the small club's nights, and as many games of its own; the large one has twice
GROWTH = 1.3  # more work than this when the club doubles: the read grows with the club
PAGE = 2  # the length of every list in pages while the clubs are measured
PLAYERS = ["Ann", "Bob", "Cy", "Di"]
SIDES = [{"players": PLAYERS[:2]}, {"players": PLAYERS[2:]}]
HAND = {"sides": [{"meld_points": 150}, {"meld_points": 130}]}
# American: the club then has a list of special hands, and its page answers 200.
CLUB = {"players": PLAYERS, "family": "modern-american"}
NIGHT = {"players": PLAYERS, "rounds": 1, "round": {"fixed_hands": 3}}
SEASON = {"name": "All", "from": "2000-01-01", "to": "2999-12-31", "best_of": 4}


def made(response, status: int = 201) -> dict:  # noqa: ANN001
    assert response.status_code == status, response.get_data(as_text=True)[:300]
    return response.get_json()


def club_of(app: Flask, nights: int) -> dict[str, str]:
    """A club of `nights` nights of one table and as many games of its own, each with a
    hand, and a season of them all; the ids its first night and game give each route."""
    client = app.test_client()
    club = made(client.post("/api/clubs", json={"name": f"Club of {nights}", **CLUB}))["id"]
    ids: dict[str, str] = {}
    for _ in range(nights):
        game = made(client.post(f"/api/clubs/{club}/games", json={"sides": SIDES}))
        made(client.post(f"/api/games/{game['id']}/hands", json=HAND))
        night = client.post(f"/api/clubs/{club}/nights", json=NIGHT)
        tag, night_id = night.headers["ETag"], made(night)["id"]
        drawn = made(client.post(f"/api/nights/{night_id}/rounds", headers={"If-Match": tag}))
        for table in drawn["rounds"][0]["tables"]:
            made(client.post(f"/api/games/{table['game']}/hands", json=HAND))
        ids = ids or {
            "game_id": game["id"],
            "watch_id": last_part(game["watch_url"]),
            "night_id": night_id,
            "wall_id": last_part(drawn["watch_url"]),
        }
    season = made(client.post(f"/api/clubs/{club}/seasons", json=SEASON))["id"]
    return {**NAMED, **ids, "club_id": club, "season_id": season}


# (endpoint, how it was asked) -> (status, calls) on the small club, then on the large one.
Measured = dict[tuple[str, str], tuple[tuple[int, int], tuple[int, int]]]


def measure(app: Flask, small: dict[str, str], large: dict[str, str]) -> Measured:
    """Every GET rule but the sheets' (a PDF has no tag, and is made once per version) asked
    of both clubs, plainly and with the tag it answered."""
    found: Measured = {}
    for rule in app.url_map.iter_rules():
        if "GET" not in (rule.methods or ()) or rule.rule.endswith(".pdf"):
            continue
        answers = []
        for ids in (small, large):
            status, count, tag, _size = calls(app, path_of(rule, ids), {})
            asked = {"GET": (status, count)}
            if tag is not None:
                tagged = {"If-None-Match": f'"{tag}"'}
                status, count, _tag, _size = calls(app, path_of(rule, ids), tagged)
                asked["If-None-Match"] = (status, count)
            answers.append(asked)
        for how, before in answers[0].items():
            found[rule.endpoint, how] = (before, answers[1].get(how, (0, 0)))
    return found


@pytest.fixture(scope="module")
def measured(tmp_path_factory: pytest.TempPathFactory) -> tuple[Flask, Measured]:
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(limits, "NIGHTS_PER_CLUB_PER_DAY", 3 * NIGHTS)
        for module in [m for name, m in sys.modules.items() if name.startswith("scorer.")]:
            for name, value in vars(module).items():
                if name.endswith("_PER_PAGE") and isinstance(value, int):
                    patch.setattr(module, name, PAGE)
        app = counting_app(tmp_path_factory.mktemp("growth"))
        return app, measure(app, club_of(app, NIGHTS), club_of(app, 2 * NIGHTS))


def grown(found: Measured) -> dict[str, str]:
    """What grew past GROWTH, each as "<calls on the small club> -> <on the large one>"."""
    return {
        f"{endpoint} ({how})": f"{before[1]} -> {after[1]} calls"
        for (endpoint, how), (before, after) in sorted(found.items())
        if after[1] > GROWTH * before[1]
    }


def listed(found: dict[str, str]) -> str:
    return "\n".join(f"  {endpoint}: {counts}" for endpoint, counts in found.items())


def test_every_read_answers_both_clubs(measured: tuple[Flask, Measured]) -> None:
    """What is counted is each read's ordinary answer, not a refusal."""
    _app, found = measured
    odd = {key: (a[0], b[0]) for key, (a, b) in found.items() if a[0] >= 400 or a[0] != b[0]}
    assert odd == {}


def test_no_read_but_the_heavy_ones_grows_with_the_club(measured: tuple[Flask, Measured]) -> None:
    app, found = measured
    light = {
        key: counts for key, counts in found.items() if not is_heavy(app.view_functions[key[0]])
    }
    growing = grown(light)
    assert growing == {}, (
        f"these reads grow with the club, mark them @heavy_read:\n{listed(growing)}"
    )


def test_a_304_costs_the_same_on_a_club_twice_the_size(measured: tuple[Flask, Measured]) -> None:
    """A client holding the current version is told so from the tag alone, heavy read or
    not: the tag is read from a few rows, the answer is never built to compare it."""
    _app, found = measured
    checks = {key: counts for key, counts in found.items() if counts[0][0] == 304}
    assert {endpoint for endpoint, _how in checks} >= {
        "api_clubs.get_club",
        "nights_seasons.get_season",
        "nights_seasons.season_csv_download",
    }
    growing = grown(checks)
    assert growing == {}, f"these 304s grow with the club:\n{listed(growing)}"
