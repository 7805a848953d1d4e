"""Stored rows read and aged directly, for the tests that look under the API (pruning, tags),
and the database file checked whole."""

from __future__ import annotations

import sqlite3
from contextlib import closing
from pathlib import Path

from apidata import hand, side
from flask import Flask

from scorer.store.db import connect

# A hand any four-player game takes.
HAND = hand(side(130, natural=1), side(50, left=85), went_out=0)
# A time stamp older than any pruning age.
OLD = "2020-01-01T00:00:00+00:00"


def sql(app: Flask, statement: str, params: list[object] | tuple[object, ...] = ()) -> list[tuple]:
    """One statement on the app's database, in its own transaction; the rows it returns."""
    db = connect(app.config["DATABASE"])
    try:
        with db.conn:
            return db.execute(statement, params).fetchall()
    finally:
        db.close()


def age(app: Flask, game_id: str, stamp: str) -> None:
    """The game looks untouched since `stamp`."""
    sql(app, "update games set updated_at = ? where id = ?", [stamp, game_id])


def game_ids(app: Flask) -> set[str]:
    """The ids of every stored game."""
    return {row[0] for row in sql(app, "select id from games")}


def assert_whole(path: str | Path) -> None:
    """The database file passes SQLite's own checks: its pages, then its foreign keys."""
    with closing(sqlite3.connect(path)) as conn:
        assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        assert conn.execute("PRAGMA foreign_key_check").fetchall() == []
