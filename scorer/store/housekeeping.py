"""Housekeeping on the store: removing games that were started and never played."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import sqlite_utils

from scorer.store.db import transaction

ABANDONED_AFTER_DAYS = 7


def cutoff(days: int, now: datetime | None = None) -> str:
    """The `updated_at` stamp before which an empty game counts as abandoned."""
    moment = (now or datetime.now(UTC)) - timedelta(days=days)
    return moment.isoformat(timespec="seconds")


def abandoned_games(db: sqlite_utils.Database, before: str) -> list[str]:
    """Ids of games with no hand, untouched since `before`."""
    rows = db.query(
        "select id from games where updated_at < ?"
        " and not exists (select 1 from hands where hands.game_id = games.id)"
        " order by updated_at",
        [before],
    )
    return [row["id"] for row in rows]


def dependent_tables(db: sqlite_utils.Database) -> list[str]:
    """Every table whose rows point at a game (found from the schema, so new ones count)."""
    return [
        table.name
        for table in db.tables
        if table.name != "games" and any(key.other_table == "games" for key in table.foreign_keys)
    ]


def prune_abandoned(db: sqlite_utils.Database, days: int, now: datetime | None = None) -> list[str]:
    """Delete the abandoned games and every row that points at them, in one transaction.

    The query runs again inside the write lock, so a hand recorded meanwhile saves its game.
    """
    before = cutoff(days, now)
    with transaction(db):
        doomed = abandoned_games(db, before)
        for start in range(0, len(doomed), 500):  # SQLite caps the number of parameters
            chunk = doomed[start : start + 500]
            marks = ", ".join("?" * len(chunk))
            for table in dependent_tables(db):
                db.execute(f"delete from [{table}] where game_id in ({marks})", chunk)
            db.execute(f"delete from games where id in ({marks})", chunk)
    return doomed
