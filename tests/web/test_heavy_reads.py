"""Heavy reads: a budget per client and a bound on how many are made at once (issue 35).

Every route marked @heavy_read in the app's URL map is tried, not only those an issue named.
"""

from __future__ import annotations

import time
from pathlib import Path

import pytest
from flask import Flask
from flask.testing import FlaskClient
from routeargs import one_of_each, paths_of

from scorer import create_app
from scorer.web import priority
from scorer.web.routes import is_heavy


def make_app(tmp_path: Path, **config: object) -> Flask:
    return create_app(
        {
            "TESTING": True,
            "DATABASE": str(tmp_path / "scorer.sqlite3"),
            "SECRET_KEY": "test-secret",
            "WTF_CSRF_ENABLED": False,
            **config,
        }
    )


def heavy_paths(app: Flask) -> dict[str, str]:
    ids = one_of_each(app.test_client())
    rules = [
        rule
        for rule in app.url_map.iter_rules()
        if is_heavy(app.view_functions[rule.endpoint]) and "GET" in (rule.methods or ())
    ]
    paths = paths_of(app, rules, ids)
    assert len(paths) >= 11
    return paths


def test_every_heavy_route_spends_the_heavy_read_budget(tmp_path: Path) -> None:
    app = make_app(tmp_path, RATELIMIT_HEAVY_READ="2/hour")
    client = app.test_client()
    for number, (endpoint, path) in enumerate(heavy_paths(app).items()):
        address = {"REMOTE_ADDR": f"192.0.2.{number + 1}"}  # a client per route
        first = [client.get(path, environ_base=address).status_code for _ in range(2)]
        assert first == [200, 200], endpoint
        refused = client.get(path, environ_base=address)
        assert refused.status_code == 429, endpoint
        assert int(refused.headers["Retry-After"]) > 0, endpoint
        if path.startswith("/api/"):
            assert refused.get_json()["error"].startswith("too many requests"), endpoint
        assert client.head(path, environ_base=address).status_code == 429, endpoint


def test_every_heavy_route_answers_503_when_every_slot_is_taken(tmp_path: Path) -> None:
    app = make_app(tmp_path, HEAVY_READS_AT_ONCE=2, RATELIMIT_HEAVY_READ="3/hour")
    client = app.test_client()
    paths = heavy_paths(app)
    slots = app.extensions["scorer.heavy_slots"]
    held = [slots.take(), slots.take()]
    assert None not in held and slots.take() is None
    game = paths["api.export_game"].split("/")[3]
    for number, (endpoint, path) in enumerate(paths.items()):
        address = {"REMOTE_ADDR": f"198.51.100.{number + 1}"}
        for _ in range(4):  # refused for being busy: no budget spent
            busy = client.get(path, environ_base=address)
            assert busy.status_code == 503, endpoint
            assert busy.headers["Retry-After"] == "2", endpoint
        if path.startswith("/api/"):
            assert busy.get_json()["error"] == "the server is busy; try again in a few seconds"
        else:
            assert 'http-equiv="refresh"' in busy.get_data(as_text=True), endpoint
    # The tables' writes and their light reads never wait for a heavy slot.
    hand = {"sides": [{"meld_points": 90}, {"meld_points": 50}]}
    assert client.post(f"/api/games/{game}/hands", json=hand).status_code == 201
    assert client.get(f"/games/{game}").status_code == 200
    for slot in held:
        slot.release()
    time.sleep(priority.CONTENDED_SECONDS)  # once nobody is refused, no slot rests either
    for number, (endpoint, path) in enumerate(paths.items()):
        address = {"REMOTE_ADDR": f"198.51.100.{number + 1}"}
        served = client.get(path, environ_base=address)
        assert served.status_code == 200 and served.data, endpoint  # read to the end


def test_a_slot_is_freed_once_its_answer_is_made(tmp_path: Path) -> None:
    app = make_app(tmp_path, HEAVY_READS_AT_ONCE=1)
    client = app.test_client()
    paths = heavy_paths(app)
    club = paths["api_clubs.export_club"]
    # Read to the end, as a server sends it: the slot is free before the end is handed over.
    answers = [(answer.status_code, answer.data[:1]) for answer in map(client.get, [club] * 6)]
    assert answers == [(200, b"{")] * 6
    refused = client.get("/api/clubs/nobody")  # a refusal frees it too
    assert (refused.status_code, refused.get_json()["field"]) == (404, None)
    assert client.get(club).data
    slot = app.extensions["scorer.heavy_slots"].take()
    assert slot is not None
    slot.release()


def read_whole(client: FlaskClient, path: str) -> int:
    """A GET read to its end, as a server sends it (the slot is freed by then)."""
    answer = client.get(path)
    assert answer.data
    return answer.status_code


def wait_for_a_slot(slots: priority.HeavySlots) -> None:
    deadline = time.monotonic() + 30
    while (slot := slots.take()) is None and time.monotonic() < deadline:
        time.sleep(0.05)
    assert slot is not None
    slot.release()


def test_while_reads_queue_each_slot_rests_from_the_start_of_a_quick_read(
    tmp_path: Path,
) -> None:
    """Clients asking at once share a bounded rate of heavy answers; one asking one at a
    time is never held, and no answer waits for the hold."""
    app = make_app(tmp_path, HEAVY_READS_AT_ONCE=1, HEAVY_SLOT_HOLD_MS=2000)
    client = app.test_client()
    club = heavy_paths(app)["api_clubs.get_club"]
    slots = app.extensions["scorer.heavy_slots"]
    for _ in range(3):  # one at a time, nobody refused: the slot is free after each
        assert read_whole(client, club) == 200
        slot = slots.take()
        assert slot is not None
        slot.release()
    held = slots.take()
    assert held is not None
    assert read_whole(client, club) == 503  # a read found every slot taken...
    held.release()
    assert read_whole(client, club) == 200  # ...so the next answer, given whole,
    assert slots.take() is None  # leaves its slot resting
    busy = client.get(club)
    assert busy.status_code == 503 and busy.headers["Retry-After"] == "2"
    wait_for_a_slot(slots)  # free once the hold is out
    # A refusal holds no slot: a client looping on 404s or 429s keeps none from the others.
    assert read_whole(client, "/api/clubs/nobody") == 404
    slot = slots.take()
    assert slot is not None
    slot.release()
    time.sleep(priority.CONTENDED_SECONDS)  # nobody refused since: no rest again
    assert read_whole(client, club) == 200
    slot = slots.take()
    assert slot is not None
    slot.release()


def test_the_slot_hold_is_20_ms_unless_set(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.delenv(priority.ENV_HEAVY_SLOT_HOLD_MS, raising=False)
    assert priority.heavy_slot_hold(make_app(tmp_path)) == 0.02
    monkeypatch.setenv(priority.ENV_HEAVY_SLOT_HOLD_MS, "50")
    assert priority.heavy_slot_hold(make_app(tmp_path)) == 0.05
    assert priority.heavy_slot_hold(make_app(tmp_path, HEAVY_SLOT_HOLD_MS=0)) == 0.0


@pytest.mark.parametrize("setting", ["soon", "-1", "2.5"])
def test_a_wrong_slot_hold_stops_the_server_at_start(tmp_path: Path, setting: str) -> None:
    with pytest.raises(RuntimeError, match="HEAVY_SLOT_HOLD_MS"):
        make_app(tmp_path, HEAVY_SLOT_HOLD_MS=setting)


@pytest.mark.parametrize("setting", ["0", "two", "-1"])
def test_a_wrong_number_of_slots_stops_the_server_at_start(tmp_path: Path, setting: str) -> None:
    with pytest.raises(RuntimeError, match="HEAVY_READS_AT_ONCE"):
        make_app(tmp_path, HEAVY_READS_AT_ONCE=setting)
