"""Backups (private, atomic, leftovers cleaned) and pruning abandoned games (issue #11)."""

from __future__ import annotations

import sqlite3
import stat
from pathlib import Path

from apidata import hand, side
from flask import Flask
from flask.testing import FlaskClient

from scorer.store.db import connect

FOUR = [{"players": ["Ann", "Bob"]}, {"players": ["Cy", "Di"]}]
HAND = hand(side(130, natural=1), side(50, left=85), went_out=0)


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


def age(app: Flask, game_id: str, stamp: str) -> None:
    db = connect(app.config["DATABASE"])
    try:
        with db.conn:
            db.execute("update games set updated_at = ? where id = ?", [stamp, game_id])
    finally:
        db.close()


def game_ids(app: Flask) -> set[str]:
    db = connect(app.config["DATABASE"])
    try:
        return {row["id"] for row in db.query("select id from games")}
    finally:
        db.close()


def test_prune_is_a_dry_run_unless_told_yes(app: Flask) -> None:
    client = app.test_client()
    old_empty = new_game(client)
    old_played = new_game(client)
    assert client.post(f"/api/games/{old_played}/hands", json=HAND).status_code == 201
    new_empty = new_game(client)
    for game_id in (old_empty, old_played):
        age(app, game_id, "2020-01-01T00:00:00+00:00")
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
    assert "removed 1 " in done.output
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
