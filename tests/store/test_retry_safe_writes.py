"""Writes safe to retry, one cap on hands, short write locks and reads from one snapshot.

Each test here is an attack of issue 11 that the store used to lose: a retried DELETE that
removed a second hand, a game growing past what its export could carry, a week date that
later broke the sheet, a GET that returned version N with N+1 hands.
"""

from __future__ import annotations

import sqlite3
import threading
from contextlib import closing

import pytest
from apidata import CYCLE, dump, hand, long_export, side

from scorer.core.limits import MAX_HANDS_PER_GAME
from scorer.store import db as dbmod
from scorer.store.db import get_db
from scorer.store.idempotency import remember_hand
from scorer.web.api_contract import parse_hand

FOUR = [{"players": ["Ann", "Bob"]}, {"players": ["Cy", "Di"]}]


def new_game(client) -> dict:
    response = client.post("/api/games", json={"sides": FOUR, "target": 20000})
    assert response.status_code == 201
    return response.json


def hands_url(game: dict) -> str:
    return f"/api/games/{game['id']}/hands"


def played(client, count: int = 3) -> tuple[dict, str]:
    """A game of `count` hands and its current ETag."""
    game = new_game(client)
    for i in range(count):
        response = client.post(hands_url(game), json=hand(side(50 + 5 * i), side(60)))
        assert response.status_code == 201
    return response.json, response.headers["ETag"]


# --- If-Match required ----------------------------------------------------------------------


def test_a_retried_delete_gets_412_and_removes_nothing_more(app, client):
    game, tag = played(client)
    first = client.delete(f"{hands_url(game)}/2", headers={"If-Match": tag})
    assert first.status_code == 200 and len(first.json["hands"]) == 2
    before = dump(app)
    again = client.delete(f"{hands_url(game)}/2", headers={"If-Match": tag})
    assert again.status_code == 412
    # Also when the hand it names is gone by now (the last one was removed).
    last = client.delete(f"{hands_url(game)}/2", headers={"If-Match": first.headers["ETag"]})
    assert last.status_code == 200
    assert client.delete(f"{hands_url(game)}/2", headers={"If-Match": tag}).status_code == 412
    assert len(client.get(f"/api/games/{game['id']}").json["hands"]) == 1
    assert dump(app) != before  # (only the deliberate second removal changed it)


@pytest.mark.parametrize("method", ["put", "delete"])
def test_a_correction_or_removal_without_if_match_is_428(app, client, method):
    game, _tag = played(client)
    before = dump(app)
    send = getattr(client, method)
    response = send(f"{hands_url(game)}/1", json=hand(side(70), side(60)))
    assert response.status_code == 428
    assert response.json["field"] == "If-Match" and "If-Match" in response.json["error"]
    assert dump(app) == before


def test_ten_concurrent_deletes_with_one_tag_remove_exactly_one_hand(app):
    client = app.test_client()
    game, tag = played(client, count=10)
    statuses: list[int] = []

    def delete() -> None:
        answer = app.test_client().delete(f"{hands_url(game)}/1", headers={"If-Match": tag})
        statuses.append(answer.status_code)

    threads = [threading.Thread(target=delete) for _ in range(10)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    assert sorted(statuses) == [200] + [412] * 9
    assert len(client.get(f"/api/games/{game['id']}").json["hands"]) == 9


# --- Idempotency-Key on creation and import ------------------------------------------------


@pytest.mark.parametrize(
    ("url", "body"),
    [
        ("/api/games", {"sides": FOUR, "name": "Friday"}),
        ("/api/games/import", {**long_export(5), "name": "Friday"}),
    ],
)
def test_a_retried_creation_with_its_key_returns_the_same_game(app, client, url, body):
    key = {"Idempotency-Key": "3f1c9a7e-create"}
    first = client.post(url, json=body, headers=key)
    assert first.status_code == 201
    before = dump(app)
    again = client.post(url, json=body, headers=key)
    assert again.status_code == 201
    assert again.json["id"] == first.json["id"]
    assert again.headers["Location"] == first.headers["Location"]
    assert dump(app) == before  # no second game
    other = client.post(url, json={**body, "name": "Saturday"}, headers=key)
    assert other.status_code == 422 and other.json["field"] == "Idempotency-Key"
    assert dump(app) == before
    # Without a key, each request is a new game, as before.
    assert client.post(url, json=body).json["id"] != first.json["id"]


@pytest.mark.parametrize(
    ("url", "body"),
    [("/api/games", {"sides": FOUR}), ("/api/games/import", long_export(2))],
)
def test_a_creation_key_replayed_from_another_client_fetches_nothing(app, url, body):
    """A key seen elsewhere (a log, a shared script) is not a way into someone's game."""
    key = {"Idempotency-Key": "3f1c9a7e-seen-elsewhere"}
    table = app.test_client()
    stranger = app.test_client()
    stranger.environ_base["REMOTE_ADDR"] = "203.0.113.9"
    first = table.post(url, json=body, headers=key)
    replayed = stranger.post(url, json=body, headers=key)
    assert first.status_code == replayed.status_code == 201
    assert replayed.json["id"] != first.json["id"]
    assert first.json["id"] not in replayed.get_data(as_text=True)
    # The table's own retry still gets its game.
    assert table.post(url, json=body, headers=key).json["id"] == first.json["id"]


def test_a_hand_key_belongs_to_the_client_that_sent_it(app):
    """Two clients send the same key on one game: each key is its own. The second client's
    hand is recorded, not taken for a retry of the first one's; each client's retry is
    still recorded once, and a key reused by its own client for another hand is 422."""
    key = {"Idempotency-Key": "hand-1"}
    table = app.test_client()
    other = app.test_client()
    other.environ_base["REMOTE_ADDR"] = "203.0.113.9"
    game = new_game(table)
    body = hand(side(50), side(60))
    first = table.post(hands_url(game), json=body, headers=key)
    assert first.status_code == 201 and len(first.json["hands"]) == 1
    second = other.post(hands_url(game), json=body, headers=key)
    assert second.status_code == 201 and len(second.json["hands"]) == 2
    before = dump(app)
    for client in (table, other):
        retry = client.post(hands_url(game), json=body, headers=key)
        assert retry.status_code == 201 and len(retry.json["hands"]) == 2
        reused = client.post(hands_url(game), json=hand(side(70), side(60)), headers=key)
        assert reused.status_code == 422 and reused.json["field"] == "Idempotency-Key"
    assert dump(app) == before
    # Stored as a digest with the client's address, never as sent.
    with closing(sqlite3.connect(app.config["DATABASE"])) as conn:
        stored = conn.execute("select key from idempotency_keys").fetchall()
    assert len(stored) == 2 and ("hand-1",) not in stored


def test_a_hand_key_stored_before_keys_were_scoped_is_still_honoured(app, client):
    """A row written by the earlier version (the key as sent): its retry records nothing."""
    game = new_game(client)
    body = hand(side(50), side(60))
    recorded = client.post(hands_url(game), json=body)  # no key: stored as before, by hand
    assert recorded.status_code == 201
    with app.app_context():
        remember_hand(get_db(), game["id"], "old-key", parse_hand(body))
    before = dump(app)
    retry = client.post(hands_url(game), json=body, headers={"Idempotency-Key": "old-key"})
    assert retry.status_code == 201 and len(retry.json["hands"]) == 1
    assert dump(app) == before
    # And the same old key with another hand is a reused key, as it always was.
    other = client.post(
        hands_url(game), json=hand(side(70), side(60)), headers={"Idempotency-Key": "old-key"}
    )
    assert other.status_code == 422 and dump(app) == before


def test_a_deleted_game_frees_its_creation_key(app, client):
    key = {"Idempotency-Key": "k-deleted"}
    first = client.post("/api/games", json={"sides": FOUR}, headers=key).json
    with app.app_context():
        from scorer import store
        from scorer.store.db import get_db

        store.delete_game(get_db(), first["id"])
    again = client.post("/api/games", json={"sides": FOUR}, headers=key)
    assert again.status_code == 201 and again.json["id"] != first["id"]


# --- one cap on hands ------------------------------------------------------------------------


@pytest.fixture
def full_game(client) -> dict:
    """A game at the cap, made by one import."""
    response = client.post("/api/games/import", json=long_export(MAX_HANDS_PER_GAME))
    assert response.status_code == 201, response.json
    return response.json


@pytest.mark.slow  # fills a game to the cap
def test_a_game_at_the_cap_takes_no_further_hand_anywhere(app, client, full_game):
    game_id = full_game["id"]
    before = dump(app)
    # The API: 409, naming the hands.
    response = client.post(f"/api/games/{game_id}/hands", json=CYCLE[0])
    assert response.status_code == 409 and response.json["field"] == "hands"
    assert "the most a game holds" in response.json["error"]
    # The pages: the scoreboard says so instead of offering to record a hand.
    board = client.get(f"/games/{game_id}").get_data(as_text=True)
    assert "the most a game can hold" in board and 'class="record-bar"' not in board
    page = client.get(f"/games/{game_id}/hands/new?out=0")
    assert page.status_code == 303
    form = {
        "went_out": "0",
        "version": str(full_game["version"]),
        "token": "t1",
        "sides-0-meld_points": "200",
        "sides-0-natural_canastas": "1",
        "sides-1-meld_points": "50",
    }
    posted = client.post(f"/games/{game_id}/hands/new", data=form)
    assert posted.status_code == 303
    assert dump(app) == before
    # Corrections still work at the cap.
    tag = {"If-Match": f'"{game_id}.{full_game["version"]}"'}
    fixed = client.put(f"/api/games/{game_id}/hands/1", json=CYCLE[0], headers=tag)
    assert fixed.status_code == 200


def test_a_game_at_the_cap_exports_and_imports_back(client, full_game):
    exported = client.get(f"/api/games/{full_game['id']}/export").json
    assert len(exported["hands"]) == MAX_HANDS_PER_GAME
    back = client.post("/api/games/import", json=exported)
    assert back.status_code == 201 and len(back.json["hands"]) == MAX_HANDS_PER_GAME


def test_an_import_past_the_cap_is_refused(app, client):
    before = dump(app)
    response = client.post("/api/games/import", json=long_export(MAX_HANDS_PER_GAME + 1))
    assert response.status_code == 422 and response.json["field"] == "hands"
    assert dump(app) == before


# --- timestamps ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "stamp", ["2024-W01T00:00:00", "2024-001T00:00:00", "2024-01-01", "2024-01-01T00:00:00"]
)
def test_an_import_takes_only_rfc_3339_time_stamps(app, client, stamp):
    before = dump(app)
    response = client.post("/api/games/import", json={**long_export(1), "created_at": stamp})
    assert response.status_code == 400 and response.json["field"] == "created_at"
    assert dump(app) == before
    fine = client.post(
        "/api/games/import", json={**long_export(1), "created_at": "2024-01-01T20:30:00Z"}
    )
    assert fine.status_code == 201 and fine.json["created_at"] == "2024-01-01T20:30:00Z"


@pytest.mark.parametrize("stamp", ["2024-W01T00:00:00", "yesterday", "", "2024-02-30"])
def test_an_odd_stored_time_stamp_breaks_no_page(app, client, stamp):
    game, _tag = played(client, count=1)
    sqlite3.connect(app.config["DATABASE"]).execute(
        "update games set created_at = ?, updated_at = ? where id = ?", [stamp, stamp, game["id"]]
    ).connection.commit()
    client.get(f"/games/{game['id']}")  # in this browser's list of games
    for url in (f"/games/{game['id']}", "/", f"/api/games/{game['id']}/export"):
        assert client.get(url).status_code == 200, url
    exported = client.get(f"/api/games/{game['id']}/export").json
    assert client.post("/api/games/import", json=exported).status_code == 201
    sheet = client.get(f"/games/{game['id']}/sheet.pdf")
    assert sheet.status_code == 200 and sheet.data.startswith(b"%PDF")


# --- a busy database -------------------------------------------------------------------------


def test_a_database_locked_too_long_is_503_with_retry_after(app, client, monkeypatch):
    game, _tag = played(client, count=1)
    monkeypatch.setattr(dbmod, "BUSY_TIMEOUT", 0.05)
    other = sqlite3.connect(app.config["DATABASE"], isolation_level=None)
    other.execute("BEGIN IMMEDIATE")  # another writer that holds the lock
    try:
        response = client.post(hands_url(game), json=hand(side(50), side(60)))
        assert response.status_code == 503
        assert response.headers["Retry-After"].isdigit() and response.json["error"]
    finally:
        other.execute("ROLLBACK")
        other.close()
    assert client.post(hands_url(game), json=hand(side(50), side(60))).status_code == 201


# --- reads from one snapshot -----------------------------------------------------------------


@pytest.mark.slow  # threads writing and reading for seconds
def test_every_read_during_writes_shows_a_version_matching_its_hands(app):
    """Readers and a writer on a real SQLite file: a game at version v always has v - 1
    hands (each write adds one), whatever the reader caught in between."""
    game = new_game(app.test_client())
    stop = threading.Event()
    mismatches: list[tuple[int, int]] = []
    reads = [0]

    def read() -> None:
        client = app.test_client()
        while not stop.is_set():
            body = client.get(f"/api/games/{game['id']}").json
            reads[0] += 1
            if body["version"] != len(body["hands"]) + 1:
                mismatches.append((body["version"], len(body["hands"])))

    readers = [threading.Thread(target=read) for _ in range(4)]
    for reader in readers:
        reader.start()
    writer = app.test_client()
    try:
        for i in range(60):
            body = hand(side(150 + 5 * (i % 10)), side(150))  # above every minimum
            assert writer.post(hands_url(game), json=body).status_code == 201
    finally:
        stop.set()
        for reader in readers:
            reader.join(60)
    assert reads[0] > 0 and mismatches == []
