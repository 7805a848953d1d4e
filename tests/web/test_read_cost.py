"""No read costs more than the front's rate for its weight lets a client loop on (issue 35).

`make run`'s front and the router hold each client to a rate for each weight of read
(scorer.front.rate_of): its own for the ordinary ones, another for the costly ones
(@costly_read) and another for the heavy ones (@heavy_read, which also spend a budget and
wait for a slot of their own). A client looping on one read at its rate may take at most a
quarter of a core; so an ordinary read may cost a worker 10 ms, a costly one 50 ms, counted
in Python calls (tests/workcount.py's `ceiling`). Every GET rule of the app's URL map not
marked heavy is asked, as a page and as JSON, of the largest things the limits
allow (a six-sided game of the largest hands, with a record of corrections) and of one of
each other thing a route names (the largest night's reads are held to the same ceiling by
tests/nights/test_night_reads_bounded.py); the work of one warmed request is counted as its
Python calls and held to its weight's ceiling. A read past the ordinary one must be made
cheaper or marked costly, where the front gives it a rate of its own.
"""

from __future__ import annotations

import pytest
from flask import Flask
from routeargs import QUERIES, last_part, one_of_each, path_of
from workcount import calls, ceiling, counting_app

from bench.largest import largest_game
from scorer.web.routes import COSTLY, HEAVY, ORDINARY, weight_of

HANDS = 30
JSON = {"Accept": "application/json"}
# A club's list of special hands is Modern American's: its page is asked of such a club.
AMERICAN = {"name": "Friday", "players": ["Ann", "Bob", "Cy", "Di"], "family": "modern-american"}


def largest_ids(app: Flask) -> dict[str, str]:
    """One of each thing a route names, its game the largest: hand `number` its newest."""
    client = app.test_client()
    ids = one_of_each(client)
    made = client.post("/api/games/import", json=largest_game(HANDS, corrections=HANDS))
    assert made.status_code == 201, made.get_json()
    game = made.get_json()
    american = client.post("/api/clubs", json=AMERICAN).get_json()["id"]
    return {
        **ids,
        "game_id": game["id"],
        "watch_id": last_part(game["watch_url"]),
        "number": str(HANDS),
        "american_club_id": american,
    }


# (endpoint, how it was asked) -> (weight, status, calls)
Measured = dict[tuple[str, str], tuple[str, int, int]]


@pytest.fixture(scope="module")
def measured(tmp_path_factory: pytest.TempPathFactory) -> Measured:
    app = counting_app(tmp_path_factory.mktemp("cost"))
    ids = largest_ids(app)
    found: Measured = {}
    for rule in app.url_map.iter_rules():
        weight = weight_of(app.view_functions[rule.endpoint])
        if "GET" not in (rule.methods or ()) or weight == HEAVY:
            continue
        named = {**ids, "club_id": ids["american_club_id"]} if "special" in rule.endpoint else ids
        path = path_of(rule, named) + QUERIES.get(rule.endpoint, "")
        for how, headers in (("page", {}), ("JSON", JSON)):
            status, count, _tag, _size = calls(app, path, headers)
            found[rule.endpoint, how] = (weight, status, count)
    return found


def test_every_read_is_asked_and_answered(measured: Measured) -> None:
    """What is counted is each read's ordinary answer, never a refusal; the forms of the
    largest game among them."""
    refused = {key: status for key, (_w, status, _c) in measured.items() if status >= 400}
    assert refused == {}
    weights = {weight for weight, _s, _c in measured.values()}
    assert {ORDINARY, COSTLY} <= weights
    assert ("games.edit_hand", "page") in measured and ("nights_pages.night", "JSON") in measured


def test_no_read_costs_more_than_its_weight_allows(measured: Measured) -> None:
    costly = {
        f"{endpoint} ({how}, {weight or 'ordinary'})": f"{count} calls > {ceiling(weight)}"
        for (endpoint, how), (weight, _status, count) in sorted(measured.items())
        if count > ceiling(weight)
    }
    assert costly == {}, (
        "these reads cost more than the front's rate for them lets a client loop on; make "
        "them cheaper, or mark them @costly_read (a fixed cost) or @heavy_read (a growing "
        "one):\n" + "\n".join(f"  {name}: {counts}" for name, counts in costly.items())
    )


def test_the_costly_reads_are_costly(measured: Measured) -> None:
    """A read marked costly that costs what an ordinary one does only loses its rate."""
    cheap = {
        endpoint: count
        for (endpoint, _how), (weight, _s, count) in measured.items()
        if weight == COSTLY and count <= ceiling(ORDINARY)
    }
    assert cheap == {}
