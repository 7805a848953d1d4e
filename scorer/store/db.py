"""SQLite through sqlite-utils: one connection per request, migrations, transactions."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import sqlite_utils
from flask import Flask, current_app, g

from scorer.store import ids

migrations = sqlite_utils.Migrations("scorer")

# Seconds a writer waits for another writer's transaction before giving up.
BUSY_TIMEOUT = 10


@migrations()
def m001_games_sides_hands(db: sqlite_utils.Database) -> None:
    db["games"].create(
        {
            "id": str,
            "name": str,
            "profile": str,
            "target": int,
            "rules": str,  # JSON object of house-rule overrides
            "first_dealer": str,
            "version": int,  # bumped by every change, for stale-write checks
            "created_at": str,
            "updated_at": str,
        },
        pk="id",
        not_null={"id", "profile", "target", "version", "created_at", "updated_at"},
        defaults={"rules": "{}", "version": 1},
    )
    db["sides"].create(
        {"game_id": str, "position": int, "name": str, "players": str},  # players: JSON list
        pk=("game_id", "position"),
        foreign_keys=[("game_id", "games", "id")],
        not_null={"game_id", "position", "name", "players"},
    )
    db["hands"].create(
        {
            "game_id": str,
            "number": int,
            "went_out": int,
            "concealed": int,
            "sides": str,  # JSON list of each side's inputs, as the table called them
            "created_at": str,
        },
        pk=("game_id", "number"),
        foreign_keys=[("game_id", "games", "id")],
        not_null={"game_id", "number", "concealed", "sides", "created_at"},
        defaults={"concealed": 0},
    )
    db["games"].create_index(["updated_at"])


@migrations()
def m002_idempotency_keys(db: sqlite_utils.Database) -> None:
    # A key a client (or a form's one-time token) sent with a write, so a retry or a
    # double tap is answered with the first result instead of recording the hand twice.
    db["idempotency_keys"].create(
        {"game_id": str, "key": str, "request_hash": str, "created_at": str},
        pk=("game_id", "key"),
        foreign_keys=[("game_id", "games", "id")],
        not_null={"game_id", "key", "request_hash", "created_at"},
    )


@migrations()
def m005_clubs(db: sqlite_utils.Database) -> None:
    # A club: a table that plays again and again. Its games keep their players as names in
    # sides.players; a filed game's names are the roster's names (filing rewrites them), and
    # renaming a roster player rewrites them in every game of the club, so names are the link.
    db["clubs"].create(
        {
            "id": str,
            "name": str,
            "settings": str,  # JSON: the usual profile, target and house rules
            "version": int,
            "created_at": str,
            "updated_at": str,
        },
        pk="id",
        not_null={"id", "name", "settings", "version", "created_at", "updated_at"},
        defaults={"settings": "{}", "version": 1},
    )
    db["club_players"].create(
        {"club_id": str, "name": str, "position": int},
        pk=("club_id", "name"),
        foreign_keys=[("club_id", "clubs", "id")],
        not_null={"club_id", "name", "position"},
    )
    db["club_games"].create(
        {"game_id": str, "club_id": str, "filed_at": str},
        pk="game_id",  # a game belongs to at most one club
        # No foreign key to games: deleting a game (store.delete_game) must keep working;
        # the club's reads join on games, so a deleted game's row is simply not seen.
        foreign_keys=[("club_id", "clubs", "id")],
        not_null={"game_id", "club_id", "filed_at"},
    )
    db["club_games"].create_index(["club_id"])


@migrations()
def m006_watch_ids(db: sqlite_utils.Database) -> None:
    # A game's second address, for a screen or someone following from home: random on its
    # own (never derived from the game's id), so it cannot be turned into the writing one.
    db["watch_ids"].create(
        {"watch_id": str, "game_id": str},
        pk="watch_id",
        not_null={"watch_id", "game_id"},
    )
    db["watch_ids"].create_index(["game_id"], unique=True)
    db["watch_ids"].insert_all(
        {"watch_id": ids.new_id(None), "game_id": row["id"]}  # a bare id, as the game's
        for row in db.query("select id from games")
    )
    # A deleted game's watch address goes with it (store.delete_game knows nothing of it).
    db.execute(
        "create trigger watch_ids_follow_games after delete on games "
        "begin delete from watch_ids where game_id = old.id; end"
    )


@migrations()
def m007_store(db: sqlite_utils.Database) -> None:
    # The Idempotency-Key of a request that created a game (POST /api/games or an import):
    # a retry answers with that game instead of creating a second one.
    db["creation_keys"].create(
        {"key": str, "game_id": str, "request_hash": str, "created_at": str},
        pk="key",
        foreign_keys=[("game_id", "games", "id")],
        not_null={"key", "game_id", "request_hash", "created_at"},
    )
    db["creation_keys"].create_index(["game_id"])


@migrations()
def m008_club_game_digests(db: sqlite_utils.Database) -> None:
    # Each club game's line and summary at a version (scorer/club_digest.py), written with
    # every change to the game: a club's page reads them instead of replaying its games.
    db["club_games"].add_column("summary_version", int)
    db["club_games"].add_column("summary", str)


@migrations()
def m009_fixed_hands(db: sqlite_utils.Database) -> None:
    # A game of N hands (RULES.md §3): null for a game played to its target, as all were.
    db["games"].add_column("fixed_hands", int)


def connect(path: str | Path) -> sqlite_utils.Database:
    """A connection with WAL, foreign keys and a busy timeout."""
    conn = sqlite3.connect(str(path), timeout=BUSY_TIMEOUT, check_same_thread=False)
    db = sqlite_utils.Database(conn)
    db.execute("PRAGMA foreign_keys = ON")
    db.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT * 1000}")
    return db


def prepare(path: str | Path) -> None:
    """Create the database file if needed and apply pending migrations (never drops data)."""
    Path(path).parent.mkdir(parents=True, exist_ok=True)
    db = connect(path)
    try:
        db.enable_wal()
        if migrations.pending(db):
            # Under the write lock: gunicorn workers start together, and only the first one
            # may apply a migration; the others wait, then find nothing left to do.
            with transaction(db):
                migrations.apply(db)
    finally:
        db.close()


def get_db() -> sqlite_utils.Database:
    """This request's connection, opened on first use and closed on teardown."""
    if "db" not in g:
        g.db = connect(current_app.config["DATABASE"])
    return g.db


def close_db(_error: BaseException | None = None) -> None:
    db = g.pop("db", None)
    if db is not None:
        db.close()


@contextmanager
def transaction(db: sqlite_utils.Database) -> Iterator[sqlite_utils.Database]:
    """One user action, all or nothing.

    BEGIN IMMEDIATE takes the write lock up front, so two phones saving at once queue up
    instead of failing when a read turns into a write.
    """
    db.execute("BEGIN IMMEDIATE")
    try:
        yield db
    except BaseException:
        db.conn.rollback()
        raise
    else:
        db.conn.commit()


@contextmanager
def snapshot(db: sqlite_utils.Database) -> Iterator[sqlite_utils.Database]:
    """Reads that see one state of the database, whatever writers commit meanwhile.

    Under WAL a read transaction sees the database as of its first read and takes no lock
    that a writer waits for. Inside another transaction, it is simply that transaction.
    """
    if db.conn.in_transaction:
        yield db
        return
    db.execute("BEGIN")
    try:
        yield db
    finally:
        db.conn.rollback()  # nothing was written: ending the read is all there is to do


def init_app(app: Flask) -> None:
    prepare(app.config["DATABASE"])
    app.teardown_appcontext(close_db)
