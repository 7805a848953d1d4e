"""The secret key a fleet of shards shares, kept in each shard's database as well.

Every shard signs sessions and forms with the one key (scorer.deploy makes it), so a form
loaded from one shard can be posted to another. Each shard writes the key into its own
database at start (m012's `fleet_key` table): Litestream's replica then carries it, and a
restore onto a new box (scorer.cli restore) brings it back with the games.
"""

from __future__ import annotations

import sqlite_utils

from scorer.store.db import transaction

ROW = 1  # the table holds one row


def remembered_key(db: sqlite_utils.Database) -> str | None:
    """The key this database holds, if a shard of a fleet ever served it."""
    if "fleet_key" not in db.table_names():
        return None
    row = db.execute("select key from fleet_key where id = ?", [ROW]).fetchone()
    return row[0] if row else None


def remember_key(db: sqlite_utils.Database, key: str) -> None:
    """Keep `key` in the database; a write only when it is new (a start, not a request)."""
    if remembered_key(db) == key:
        return
    with transaction(db):
        db.execute("insert or replace into fleet_key (id, key) values (?, ?)", [ROW, key])
