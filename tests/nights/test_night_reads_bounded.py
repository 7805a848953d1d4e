"""Every read of a night costs a bounded amount, on the largest night the limits allow, and
what it keeps between requests is never stale (issue 35).

A night's reads are ordinary reads (not @heavy_read), asked by every phone and wall watching
the night after each change, and by a client 50 times a second if it likes. Each one names
the night (its id or its wall's id); on the largest night (60 players, 20 rounds of 15 tables,
scorer.core.limits) one warmed request must stay under an ordinary read's ceiling (some 10 ms),
counted as tests/workcount.py counts them. The heavy reads (the PDFs) have their own budget.

What makes them cheap is kept per state of the night (scorer.nights.view): so after each kind
of change, made through another app on the same database (another worker, whose writes this
app never sees), every read answers what a fresh app answers, in each language.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from apidata import EIGHT
from flask import Flask
from flask.testing import FlaskClient
from routeargs import NAMED, last_part, path_of
from workcount import calls, ceiling, counting_app

from scorer.core import limits
from scorer.nights import tournament
from scorer.store.db import connect
from scorer.web.routes import ORDINARY, is_heavy

# Python calls of one warmed request: an ordinary read's (before: 240 000 to 510 000).
BOUND = ceiling(ORDINARY)
JSON = {"Accept": "application/json"}
HAND = {"sides": [{"meld_points": 150}, {"meld_points": 130}]}
LANGUAGES = ("en", "fr", "es")
# What differs between two answers of the same state: a form's CSRF token (signed per request).
PER_REQUEST = re.compile(r'name="csrf_token" value="[^"]*"')


def night_rules(app: Flask) -> list[Any]:
    """Every GET rule that names a night (its id or its wall's), but the heavy reads."""
    return [
        rule
        for rule in app.url_map.iter_rules()
        if "GET" in (rule.methods or ())
        and {"night_id", "wall_id"} & set(rule.arguments)
        and not is_heavy(app.view_functions[rule.endpoint])
    ]


def night_reads(app: Flask, ids: dict[str, str]) -> list[tuple[str, str, dict[str, str]]]:
    """Each such rule asked as a browser does and as live.js does (JSON): label, path, headers."""
    reads = []
    for rule in night_rules(app):
        path = path_of(rule, {**NAMED, **ids})
        reads.append((rule.endpoint, path, {}))
        reads.append((f"{rule.endpoint} (JSON)", path, JSON))
    return reads


def ok(response: Any, status: int = 201) -> Any:
    assert response.status_code == status, response.get_data(as_text=True)[:300]
    return response.get_json()


def tag_of(client: FlaskClient, night: str) -> str:
    return client.get(f"/api/nights/{night}").headers["ETag"]


def draw(client: FlaskClient, night: str) -> dict[str, Any]:
    headers = {"If-Match": tag_of(client, night)}
    return ok(client.post(f"/api/nights/{night}/rounds", headers=headers))


def new_night(client: FlaskClient, club: str, players: list[str], **body: Any) -> str:
    body = {"players": players, "round": {"fixed_hands": 1}, **body}
    return ok(client.post(f"/api/clubs/{club}/nights", json=body))["id"]


def largest_night(client: FlaskClient, club: str, players: list[str], **body: Any) -> dict:
    """A night of every round the limits allow, each table's game played to its end."""
    night = new_night(client, club, players, rounds=limits.NIGHT_ROUNDS_MAX, **body)
    for _ in range(limits.NIGHT_ROUNDS_MAX):
        drawn = draw(client, night)
        for table in drawn["rounds"][-1]["tables"]:
            ok(client.post(f"/api/games/{table['game']}/hands", json=HAND))
    return {"night_id": night, "wall_id": last_part(drawn["watch_url"])}


@pytest.fixture(scope="module")
def largest(tmp_path_factory: pytest.TempPathFactory) -> tuple[Flask, dict[str, dict]]:
    """One app with the largest night twice: plainly ranked, and timed by match points."""
    app = counting_app(tmp_path_factory.mktemp("largest"))
    client = app.test_client()
    players = [f"Player {k:02d} of the largest night"[:30] for k in range(limits.NIGHT_PLAYERS_MAX)]
    club = ok(client.post("/api/clubs", json={"name": "Largest", "players": players}))["id"]
    timed = {"fixed_hands": 1, "minutes": 120, "warning_minutes": 10}
    return app, {
        "plain": largest_night(client, club, players),
        "timed": largest_night(client, club, players, ranking="match_points", round=timed),
    }


def test_the_largest_night_is_the_largest_the_limits_allow(largest) -> None:
    app, nights = largest
    for ids in nights.values():
        night = app.test_client().get(f"/api/nights/{ids['night_id']}").get_json()
        assert len(night["players"]) == limits.NIGHT_PLAYERS_MAX
        assert len(night["rounds"]) == limits.NIGHT_ROUNDS_MAX
        assert all(len(r["tables"]) == limits.NIGHT_PLAYERS_MAX // 4 for r in night["rounds"])


@pytest.mark.parametrize("kind", ["plain", "timed"])
def test_every_read_of_the_largest_night_is_bounded(largest, kind: str) -> None:
    app, nights = largest
    reads = night_reads(app, nights[kind])
    assert {label for label, _, _ in reads} >= {
        "nights_api.get_night",
        "nights_pages.night",
        "nights_pages.draw",
        "nights_pages.watch (JSON)",
    }
    costs = {}
    for label, path, headers in reads:
        status, count, tag, _size = calls(app, path, headers)
        assert status == 200, label
        costs[label] = count
        if tag:  # asked again with its tag: a 304 is bounded too
            status, count, _tag, _size = calls(app, path, {**headers, "If-None-Match": tag})
            costs[f"{label} (304)"] = count
    over = {label: count for label, count in costs.items() if count > BOUND}
    assert not over, f"more than {BOUND} calls a request: {over}"


# --- what is kept is never stale ---------------------------------------------------------------


class Clock:
    """The tournament's clock, held still (and moved by the test): two apps asked at the same
    moment answer the same seconds."""

    def __init__(self) -> None:
        self.now = datetime.now(UTC)

    def datetime(self) -> type[datetime]:
        clock = self

        class Frozen(datetime):
            @classmethod
            def now(cls, tz: Any = None) -> datetime:  # type: ignore[override]
                return clock.now

        return Frozen


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> Clock:
    held = Clock()
    monkeypatch.setattr(tournament, "datetime", held.datetime())
    return held


def app_on(database: Path) -> Flask:
    """Another app (another worker) on the same database, with caches of its own."""
    return counting_app(database)


@pytest.fixture
def apps(tmp_path: Path, clock: Clock) -> Iterator[tuple[Flask, FlaskClient]]:
    """The app whose reads are checked, and a client of another app that makes the changes."""
    yield app_on(tmp_path), app_on(tmp_path).test_client()


def answers(
    apps: Callable[[], Flask], reads: list[tuple[str, str, dict[str, str]]]
) -> dict[str, Any]:
    """Every read in every language, each language asked of ``apps()``: status, tag and body
    (its CSRF tokens left out)."""
    found = {}
    for language in LANGUAGES:
        client = apps().test_client()
        for label, path, headers in reads:
            response = client.get(path, headers={**headers, "Accept-Language": language})
            body = PER_REQUEST.sub("csrf", response.get_data(as_text=True))
            found[f"{label} [{language}]"] = (
                response.status_code,
                response.headers.get("ETag"),
                body,
            )
    return found


def assert_fresh(app: Flask, ids: dict[str, str], change: str) -> None:
    """The app answers every read of the night, in each language, as an app that kept
    nothing answers it (a new one for each language, so that none is kept from another)."""
    reads = night_reads(app, ids)
    kept = answers(lambda: app, reads)
    fresh = answers(lambda: app_on(Path(app.config["DATABASE"]).parent), reads)
    stale = [label for label in kept if kept[label] != fresh[label]]
    assert not stale, f"after {change}: stale {stale}"


def a_night(client: FlaskClient, **body: Any) -> tuple[str, dict[str, str]]:
    """A club, and a night of 8 players, 3 rounds of two hands, its first two rounds drawn
    (so the page has rounds before the last), a hand at each table of the first."""
    club = ok(client.post("/api/clubs", json={"name": "Thursday", "players": EIGHT}))["id"]
    night = new_night(client, club, EIGHT, **{"rounds": 3, "round": {"fixed_hands": 2}, **body})
    first = draw(client, night)
    for table in first["rounds"][0]["tables"]:
        ok(client.post(f"/api/games/{table['game']}/hands", json=HAND))
    second = draw(client, night)
    return club, {"night_id": night, "wall_id": last_part(second["watch_url"])}


def tables(client: FlaskClient, night: str, number: int) -> list[str]:
    rounds = client.get(f"/api/nights/{night}").get_json()["rounds"]
    return [table["game"] for table in rounds[number - 1]["tables"]]


def game_tag(client: FlaskClient, game: str) -> dict[str, str]:
    return {"If-Match": client.get(f"/api/games/{game}").headers["ETag"]}


def test_each_change_to_a_night_is_read_at_once(apps) -> None:
    app, other = apps
    club, ids = a_night(other)
    night = ids["night_id"]
    assert_fresh(app, ids, "the night drawn")
    first, second = tables(other, night, 1)[0], tables(other, night, 2)[0]

    def undo_draw() -> None:
        headers = {"If-Match": tag_of(other, night)}
        ok(other.delete(f"/api/nights/{night}/rounds/last", headers=headers), 200)

    def redraw() -> None:
        headers = {"If-Match": tag_of(other, night)}
        ok(other.post(f"/api/nights/{night}/rounds/last/redraw", headers=headers), 200)

    changes = {
        "a hand at a table of the last round": lambda: ok(
            other.post(f"/api/games/{second}/hands", json=HAND)
        ),
        "a hand of an earlier round corrected": lambda: ok(
            other.put(
                f"/api/games/{first}/hands/1",
                json={"sides": [{"meld_points": 50}, {"meld_points": 300}]},
                headers=game_tag(other, first),
            ),
            200,
        ),
        "a game ended (its last hand)": lambda: ok(
            other.post(f"/api/games/{first}/hands", json=HAND)
        ),
        "the last hand removed": lambda: ok(
            other.delete(f"/api/games/{first}/hands/2", headers=game_tag(other, first)), 200
        ),
        "the last round's hand removed": lambda: ok(
            other.delete(f"/api/games/{second}/hands/1", headers=game_tag(other, second)), 200
        ),
        "a late arrival": lambda: ok(
            other.post(f"/api/nights/{night}/players", json={"name": "Ivy"})
        ),
        "a draw": lambda: draw(other, night),
        "a draw taken back": undo_draw,
        "a draw again": lambda: draw(other, night),
        "a redraw": redraw,
        "a player renamed in the club": lambda: ok(
            other.patch(f"/api/clubs/{club}/players/Ann", json={"name": "Anne"}), 200
        ),
    }
    for change, make in changes.items():
        answers(lambda: app, night_reads(app, ids))  # the app keeps what it answered
        make()
        assert_fresh(app, ids, change)


def test_a_rating_changed_by_another_game_of_the_club_is_read_at_once(apps) -> None:
    app, other = apps
    club, ids = a_night(other)
    assert_fresh(app, ids, "the night drawn")
    sides = [{"players": EIGHT[:2]}, {"players": EIGHT[2:4]}]
    game = ok(other.post(f"/api/clubs/{club}/games", json={"sides": sides, "fixed_hands": 1}))
    asked = {
        path: app.test_client().get(path, headers=JSON) for _, path, _ in night_reads(app, ids)
    }
    before = {path: answer for path, answer in asked.items() if answer.is_json}
    assert len(before) == 2  # the night's JSON and its wall's
    ok(other.post(f"/api/games/{game['id']}/hands", json=HAND))  # over: the ratings move
    assert_fresh(app, ids, "a game of the club outside the night")
    for path, answer in before.items():  # the ratings are in the JSON: its tag moves too
        tag = {"If-None-Match": answer.headers["ETag"], **JSON}
        again = app.test_client().get(path, headers=tag)
        assert again.status_code == 200, path
        assert again.get_json()["standings"] != answer.get_json()["standings"], path


def stamp_hands(app: Flask, game: str, moment: datetime) -> None:
    """Move a game's hands to `moment` (the store's clock is real; the tournament's is held)."""
    db = connect(app.config["DATABASE"])
    with db.conn:
        db.execute(
            "update hands set created_at = ? where game_id = ?",
            [moment.isoformat(timespec="seconds"), game],
        )


def test_the_clocks_phase_and_a_forfeit_are_read_at_once(apps, clock: Clock) -> None:
    app, other = apps
    timed = {"fixed_hands": 2, "minutes": 50, "warning_minutes": 10}
    _club, ids = a_night(other, ranking="match_points", round=timed)
    night, start = ids["night_id"], clock.now
    reads = night_reads(app, ids)
    clock.now = start + timedelta(minutes=45)
    assert_fresh(app, ids, "the clock's warning")
    # The hand under way when time is called, recorded after it: once time is called (and
    # only then) its table is over by time, the higher total winning its match points.
    game = tables(other, night, 2)[0]
    ok(other.post(f"/api/games/{game}/hands", json=HAND))
    stamp_hands(app, game, start + timedelta(minutes=52))
    answers(lambda: app, reads)  # kept: the night before time is called
    clock.now = start + timedelta(minutes=53)
    assert_fresh(app, ids, "time called")
    answer = app.test_client().get(f"/api/nights/{night}").get_json()
    assert answer["clocks"]["2"]["phase"] == "time"
    # (the first round's tables play on: their hands were recorded before time)
    assert sorted(line["match_points"] for line in answer["standings"]) == [0] * 6 + [2] * 2
    headers = {"If-Match": tag_of(other, night)}
    forfeit = f"/api/nights/{night}/rounds/2/tables/2/forfeit"
    ok(other.put(forfeit, json={"absent": 0}, headers=headers), 200)
    assert_fresh(app, ids, "a forfeit")
