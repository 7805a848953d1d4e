"""Every read of a game not marked heavy costs the same on a game ten times as long (issue 35).

A game may hold 1 000 hands (scorer.core.limits). A page that shows them all, or works them
all out again on every request, lets one client reading it in a loop take the server's cores
from every other table: a game of 1 000 six-sided hands made a 5.4 MB scoreboard of 56 ms.
Every GET rule of the app's URL map that names a game (its id or its watch id) and is not
marked @heavy_read is asked of a game of SHORT hands, two pages of them
(display.HANDS_PER_PAGE), and of one of LONG, about the most a game holds, as the club's
guard asks its reads (tests/web/test_read_growth.py): the work of one warmed request,
counted as the Python calls it makes (tests/workcount.py), must not grow past GROWTH, nor a
page's size (HTML: the API's and the watch link's JSON carry every hand by contract, made
once per version).

Besides each rule's plain address: the scoreboard's second page of hands, the forms and the
confirmation of the game's newest hand (its last: hand 1 is the first one), the watch link's
JSON, and every tagged answer asked again with its tag.
"""

from __future__ import annotations

import pytest
from apidata import steady_export
from flask import Flask
from routeargs import NAMED, last_part, path_of
from workcount import calls, counting_app

from scorer.core.limits import CORRECTIONS_PER_GAME, MAX_HANDS_PER_GAME
from scorer.web import display
from scorer.web.routes import is_heavy

SHORT = 100  # hands: two full pages of them, the second asked as well
LONG = MAX_HANDS_PER_GAME - 1  # the most a game holds that still takes a hand (its form)
GROWTH = 1.3  # more work or bytes than this on the longest game: the read grows with it
JSON = {"Accept": "application/json"}


def game_of(app: Flask, hands: int, corrections: int = 0) -> dict[str, str]:
    """A classic game of `hands` hands and `corrections` entries of its record of
    corrections, imported: the ids its routes take."""
    made = app.test_client().post("/api/games/import", json=steady_export(hands, corrections))
    assert made.status_code == 201, made.get_json()
    game = made.get_json()
    return {**NAMED, "game_id": game["id"], "watch_id": last_part(game["watch_url"])}


def asks(app: Flask, ids: dict[str, str], hands: int) -> dict[str, tuple[str, dict[str, str]]]:
    """Every read of this game by name: its address and headers."""
    found = {}
    for rule in app.url_map.iter_rules():
        named = {"game_id", "watch_id"} & set(rule.arguments)
        if "GET" not in (rule.methods or ()) or not named:
            continue
        if is_heavy(app.view_functions[rule.endpoint]):
            continue
        found[rule.endpoint] = (path_of(rule, ids), {})
        if "number" in rule.arguments:
            newest = path_of(rule, {**ids, "number": str(hands)})
            found[f"{rule.endpoint} (the newest hand)"] = (newest, {})
    found["games.scoreboard (?hands=2)"] = (f"{found['games.scoreboard'][0]}?hands=2", {})
    found["watch.watch (JSON)"] = (found["watch.watch"][0], JSON)
    return found


# What was asked -> (status, calls, bytes or None) on the short game, then on the long one.
Measured = dict[str, tuple[tuple[int, int, int | None], tuple[int, int, int | None]]]


def measure(app: Flask) -> Measured:
    games = {hands: game_of(app, hands) for hands in (SHORT, LONG)}
    answers: dict[str, list[tuple[int, int, int | None]]] = {}
    for hands, ids in games.items():
        for name, (path, headers) in asks(app, ids, hands).items():
            status, count, tag, size = calls(app, path, headers)
            page = "json" not in headers.get("Accept", "") and not path.startswith("/api/")
            answers.setdefault(name, []).append((status, count, size if page else None))
            if tag is not None:
                tagged = {**headers, "If-None-Match": f'"{tag}"'}
                status, count, _tag, _size = calls(app, path, tagged)
                answers.setdefault(f"{name} (If-None-Match)", []).append((status, count, None))
    return {name: (short, long) for name, (short, long) in answers.items()}


@pytest.fixture(scope="module")
def measured(tmp_path_factory: pytest.TempPathFactory) -> Measured:
    assert 2 * display.HANDS_PER_PAGE <= SHORT
    app = counting_app(tmp_path_factory.mktemp("length"))
    return measure(app)


def listed(found: dict[str, str]) -> str:
    return "\n".join(f"  {name}: {counts}" for name, counts in found.items())


def test_every_read_of_a_game_answers_both_games(measured: Measured) -> None:
    """What is counted is each read's ordinary answer (a page, a redirect of a form the game
    does not need, a 304), never a refusal; and the same answer for both games."""
    odd = {name: (a[0], b[0]) for name, (a, b) in measured.items() if a[0] >= 400 or a[0] != b[0]}
    assert odd == {}
    assert {"games.scoreboard", "watch.watch", "games.new_hand", "games.edit_hand"} <= set(measured)


def test_no_read_of_a_game_works_more_on_a_longer_game(measured: Measured) -> None:
    growing = {
        name: f"{short[1]} -> {long[1]} calls"
        for name, (short, long) in sorted(measured.items())
        if long[1] > GROWTH * short[1]
    }
    assert growing == {}, (
        f"these reads work more on a game of {LONG} hands than of {SHORT}:\n{listed(growing)}"
    )


def test_no_page_of_a_game_weighs_more_on_a_longer_game(measured: Measured) -> None:
    growing = {
        name: f"{short[2]} -> {long[2]} bytes"
        for name, (short, long) in sorted(measured.items())
        if short[2] is not None and long[2] is not None and long[2] > GROWTH * short[2]
    }
    assert growing == {}, (
        f"these pages are larger for a game of {LONG} hands than of {SHORT}:\n{listed(growing)}"
    )


def test_a_full_record_of_corrections_costs_the_scoreboard_no_more(
    tmp_path_factory: pytest.TempPathFactory,
) -> None:
    """A game's record of corrections (up to CORRECTIONS_PER_GAME entries, each a hand before
    and after) is under its scoreboard's hands: read and written out once per version."""
    app = counting_app(tmp_path_factory.mktemp("record"))
    plain, corrected = (game_of(app, SHORT, k) for k in (0, CORRECTIONS_PER_GAME))
    (status, before, *_), (again, after, *_) = (
        calls(app, f"/games/{ids['game_id']}", {}) for ids in (plain, corrected)
    )
    assert (status, again) == (200, 200)
    assert after <= GROWTH * before, f"{before} -> {after} calls with a full record"
