"""Backups (private, atomic, leftovers cleaned) and pruning abandoned games (issue #11)."""

from __future__ import annotations

import sqlite3
import stat
from pathlib import Path

import pytest
from flask import Flask
from flask.testing import FlaskClient
from stored import HAND, OLD, age, game_ids, sql

from scorer.store import clubs
from scorer.store.db import connect
from scorer.store.housekeeping import cutoff

FOUR = [{"players": ["Ann", "Bob"]}, {"players": ["Cy", "Di"]}]


def new_game(client: FlaskClient) -> str:
    response = client.post("/api/games", json={"sides": FOUR})
    assert response.status_code == 201
    return response.get_json()["id"]


def test_backup_is_private_and_leftovers_are_removed(app: Flask, tmp_path: Path) -> None:
    new_game(app.test_client())
    folder = tmp_path / "backups"
    folder.mkdir()
    target = folder / "scorer-backup.sqlite3"
    leftover = folder / ".scorer-backup.sqlite3.partial.x1y2z3"
    leftover.write_bytes(b"half a database")
    other = folder / "notes.txt"
    other.write_text("keep me")
    result = app.test_cli_runner().invoke(args=["backup", str(target)])
    assert result.exit_code == 0, result.output
    assert stat.S_IMODE(target.stat().st_mode) == 0o600
    assert not leftover.exists()
    assert sorted(p.name for p in folder.iterdir()) == ["notes.txt", "scorer-backup.sqlite3"]
    with sqlite3.connect(target) as copy:
        assert copy.execute("select count(*) from games").fetchone() == (1,)


def test_prune_is_a_dry_run_unless_told_yes(app: Flask) -> None:
    client = app.test_client()
    old_empty = new_game(client)
    old_played = new_game(client)
    assert client.post(f"/api/games/{old_played}/hands", json=HAND).status_code == 201
    new_empty = new_game(client)
    age(app, old_empty, "2020-01-01T00:00:00+00:00")
    # Untouched for a month: an empty game goes, a played one stays (PLAYED_KEPT_DAYS).
    age(app, old_played, cutoff(30))
    # Idempotency keys point at games too: they must go with the game.
    db = connect(app.config["DATABASE"])
    with db.conn:
        db["idempotency_keys"].insert(
            {"game_id": old_empty, "key": "k1", "request_hash": "h", "created_at": "2020"}
        )
    db.close()
    runner = app.test_cli_runner()

    dry = runner.invoke(args=["prune"])
    assert dry.exit_code == 0, dry.output
    assert old_empty in dry.output and old_played not in dry.output
    assert new_empty not in dry.output
    assert game_ids(app) == {old_empty, old_played, new_empty}

    done = runner.invoke(args=["prune", "--yes"])
    assert done.exit_code == 0, done.output
    assert "removed 1 abandoned game(s)" in done.output
    assert game_ids(app) == {old_played, new_empty}
    db = connect(app.config["DATABASE"])
    try:
        for table in ("sides", "hands", "idempotency_keys"):
            count = db.execute(f"select count(*) from {table} where game_id = ?", [old_empty])
            assert count.fetchone() == (0,), table
        assert db.execute("PRAGMA foreign_key_check").fetchall() == []
    finally:
        db.close()


def test_prune_days_is_configurable(app: Flask) -> None:
    client = app.test_client()
    game = new_game(client)
    age(app, game, "2000-01-01T00:00:00+00:00")
    runner = app.test_cli_runner()
    assert game not in runner.invoke(args=["prune", "--days", "100000"]).output
    assert game in runner.invoke(args=["prune", "--days", "2"]).output
    assert runner.invoke(args=["prune", "--days", "0"]).exit_code != 0


def new_club(client: FlaskClient, name: str = "Sunday") -> str:
    response = client.post("/api/clubs", json={"name": name, "players": ["Ann", "Bob", "Cy", "Di"]})
    assert response.status_code == 201
    return response.get_json()["id"]


def club_game(client: FlaskClient, club_id: str) -> str:
    response = client.post(f"/api/clubs/{club_id}/games", json={"sides": FOUR})
    assert response.status_code == 201
    return response.get_json()["id"]


def test_prune_removes_played_games_untouched_for_played_days(app: Flask) -> None:
    client = app.test_client()
    old_played, recent_played = new_game(client), new_game(client)
    for game_id in (old_played, recent_played):
        assert client.post(f"/api/games/{game_id}/hands", json=HAND).status_code == 201
    age(app, old_played, OLD)
    age(app, recent_played, cutoff(30))
    runner = app.test_cli_runner()
    done = runner.invoke(args=["prune", "--yes"])
    assert done.exit_code == 0, done.output
    assert game_ids(app) == {recent_played}
    assert sql(app, "select count(*) from hands where game_id = ?", [old_played]) == [(0,)]
    done = runner.invoke(args=["prune", "--yes", "--played-days", "10"])
    assert game_ids(app) == set()


def test_prune_keeps_an_active_clubs_history_and_removes_an_abandoned_club(app: Flask) -> None:
    client = app.test_client()
    active, abandoned = new_club(client, "Active"), new_club(client, "Gone")
    history = club_game(client, active)
    assert client.post(f"/api/games/{history}/hands", json=HAND).status_code == 201
    tonight = club_game(client, active)
    assert client.post(f"/api/games/{tonight}/hands", json=HAND).status_code == 201
    left = club_game(client, abandoned)
    assert client.post(f"/api/games/{left}/hands", json=HAND).status_code == 201
    for game_id in (history, left):
        age(app, game_id, OLD)
    sql(app, "update clubs set updated_at = ?", [OLD])
    done = app.test_cli_runner().invoke(args=["prune", "--yes"])
    assert done.exit_code == 0, done.output
    assert "1 empty club(s)" in done.output
    # The active club (a game played this week) keeps its old game; the other club goes
    # with its game, its roster and its rows.
    assert game_ids(app) == {history, tonight}
    assert sql(app, "select id from clubs") == [(active,)]
    assert sql(app, "select count(*) from club_players where club_id = ?", [abandoned]) == [(0,)]
    assert sql(app, "select count(*) from club_games where club_id = ?", [abandoned]) == [(0,)]
    assert client.get(f"/api/clubs/{abandoned}").status_code == 404
    assert client.get(f"/api/clubs/{active}").get_json()["games"] == [history, tonight]


def test_a_pruned_games_club_row_goes_and_a_full_club_takes_games_again(
    app: Flask, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(clubs, "GAMES_PER_CLUB", 1)
    client = app.test_client()
    club_id = new_club(client)
    empty = club_game(client, club_id)
    assert client.post(f"/api/clubs/{club_id}/games", json={"sides": FOUR}).status_code == 422
    age(app, empty, OLD)
    done = app.test_cli_runner().invoke(args=["prune", "--yes"])
    assert "removed 1 abandoned game(s)" in done.output, done.output
    assert sql(app, "select count(*) from club_games where game_id = ?", [empty]) == [(0,)]
    assert client.get(f"/api/clubs/{club_id}").get_json()["games"] == []
    club_game(client, club_id)  # room again


def test_a_club_counts_only_games_that_still_exist(
    app: Flask, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A club row left by a game deleted another way does not fill the club."""
    monkeypatch.setattr(clubs, "GAMES_PER_CLUB", 1)
    client = app.test_client()
    club_id = new_club(client)
    gone = club_game(client, club_id)
    db = connect(app.config["DATABASE"])
    try:
        db.execute("PRAGMA foreign_keys = OFF")
        with db.conn:
            for table in ("sides", "watch_ids", "hands"):
                db.execute(f"delete from {table} where game_id = ?", [gone])
            db.execute("delete from games where id = ?", [gone])
    finally:
        db.close()
    club_game(client, club_id)


def test_prune_removes_expired_idempotency_keys(app: Flask) -> None:
    client = app.test_client()
    created = client.post("/api/games", json={"sides": FOUR}, headers={"Idempotency-Key": "c1"})
    game = created.get_json()["id"]
    for key in ("h-old", "h-new"):
        answer = client.post(
            f"/api/games/{game}/hands", json=HAND, headers={"Idempotency-Key": key}
        )
        assert answer.status_code == 201
    # (Keys are stored scoped to their client, as digests: h-old is the first row.)
    newest = sql(app, "select key from idempotency_keys order by rowid")[-1]
    sql(
        app,
        "update idempotency_keys set created_at = ? "
        "where rowid = (select min(rowid) from idempotency_keys)",
        [OLD],
    )
    sql(app, "update creation_keys set created_at = ?", [OLD])
    runner = app.test_cli_runner()
    dry = runner.invoke(args=["prune"])
    assert "2 expired key(s) would be removed" in dry.output, dry.output
    done = runner.invoke(args=["prune", "--yes"])
    assert "and 2 expired key(s)" in done.output, done.output
    assert sql(app, "select key from idempotency_keys") == [newest]
    assert sql(app, "select count(*) from creation_keys") == [(0,)]
    assert game_ids(app) == {game}
