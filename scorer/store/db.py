"""SQLite through sqlite-utils: one connection per request, migrations, transactions, and
time stamps as stored (RFC 3339 in UTC when written, read back whatever is there)."""

from __future__ import annotations

import contextlib
import os
import re
import sqlite3
import time
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
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
    # Each club game's line and summary at a version (scorer/store/club_digest.py), written with
    # every change to the game: a club's page reads them instead of replaying its games.
    db["club_games"].add_column("summary_version", int)
    db["club_games"].add_column("summary", str)


@migrations()
def m009_fixed_hands(db: sqlite_utils.Database) -> None:
    # A game of N hands (docs/rules.md §3): null for a game played to its target, as all were.
    db["games"].add_column("fixed_hands", int)


@migrations()
def m010_nights(db: sqlite_utils.Database) -> None:
    # Club nights (scorer/store/nights.py): a night, its players, rounds, tables and keys.
    db["nights"].create(
        {
            "id": str,  # the organiser's address: random, 128 bits
            "club_id": str,
            "watch_id": str,  # the leaderboard's address: random on its own
            "settings": str,  # JSON: rounds, round (fixed_hands or target), draw, ranking, odd
            "seed": int,  # the draw's seed, drawn once when the night is made
            "version": int,
            "created_at": str,
            "updated_at": str,
        },
        pk="id",
        foreign_keys=[("club_id", "clubs", "id")],
        not_null={"id", "club_id", "watch_id", "settings", "seed", "version", "created_at"},
    )
    db["nights"].create_index(["club_id"])
    db["nights"].create_index(["watch_id"], unique=True)
    db["night_players"].create(
        {"night_id": str, "name": str, "position": int, "joined_round": int},
        pk=("night_id", "name"),
        foreign_keys=[("night_id", "nights", "id")],
        not_null={"night_id", "name", "position", "joined_round"},
    )
    db["night_rounds"].create(
        {"night_id": str, "number": int, "bye": str, "attempt": int, "drawn_at": str},
        pk=("night_id", "number"),
        foreign_keys=[("night_id", "nights", "id")],
        not_null={"night_id", "number", "bye", "attempt", "drawn_at"},
    )
    # No foreign key to games: deleting a table's game must keep working (the night then
    # simply no longer sees that table).
    db["night_tables"].create(
        {"night_id": str, "round": int, "position": int, "game_id": str},
        pk=("night_id", "round", "position"),
        foreign_keys=[("night_id", "nights", "id")],
        not_null={"night_id", "round", "position", "game_id"},
    )
    db["night_tables"].create_index(["game_id"])
    # The Idempotency-Key of a request that made a night: a retry answers with that night.
    db["night_keys"].create(
        {"club_id": str, "key": str, "request_hash": str, "night_id": str, "created_at": str},
        pk=("club_id", "key"),
        not_null={"club_id", "key", "request_hash", "night_id", "created_at"},
    )


# What bumps a club's games_version (m011): every change the club's stored digests follow
# (a game's version moves with each hand recorded, corrected or removed, each player
# renamed), and every game that joins or leaves the club (started in it, filed, imported,
# deleted, pruned). In SQLite itself, so no path that writes can forget it.
CLUB_GAMES_VERSION_TRIGGERS = (
    """create trigger if not exists club_games_version_game_changed
    after update of version on games when new.version is not old.version begin
        update clubs set games_version = games_version + 1
        where id = (select club_id from club_games where game_id = new.id);
    end""",
    """create trigger if not exists club_games_version_game_deleted
    after delete on games begin
        update clubs set games_version = games_version + 1
        where id = (select club_id from club_games where game_id = old.id);
    end""",
    """create trigger if not exists club_games_version_game_joined
    after insert on club_games begin
        update clubs set games_version = games_version + 1 where id = new.club_id;
    end""",
    """create trigger if not exists club_games_version_game_left
    after delete on club_games begin
        update clubs set games_version = games_version + 1 where id = old.club_id;
    end""",
    """create trigger if not exists club_games_version_game_moved
    after update of club_id on club_games when new.club_id is not old.club_id begin
        update clubs set games_version = games_version + 1
        where id in (old.club_id, new.club_id);
    end""",
)


@migrations()
def m011_club_games_version(db: sqlite_utils.Database) -> None:
    # A counter per club of the changes to its games (CLUB_GAMES_VERSION_TRIGGERS): the
    # club's tag and its board's cache key read one row instead of every game's version.
    # Adds a column and triggers; drops nothing.
    db["clubs"].add_column("games_version", int, not_null_default=0)
    for trigger in CLUB_GAMES_VERSION_TRIGGERS:
        db.execute(trigger)


@migrations()
def m012_fleet_key(db: sqlite_utils.Database) -> None:
    # The secret key the shards of a fleet share (scorer.store.fleet), kept in each shard's
    # database so that its replica carries the key and a restore brings it back. Adds a table.
    db["fleet_key"].create({"id": int, "key": str}, pk="id", not_null={"key"})


def pending_migrations(db: sqlite_utils.Database) -> list[str]:
    """The migrations this code knows that the database has not had yet."""
    return [migration.name for migration in migrations.pending(db)]


def unknown_migrations(db: sqlite_utils.Database) -> list[str]:
    """Migrations the database had that this code does not know (a newer scorer wrote it)."""
    known = {migration.name for migration in migrations._migrations}
    return [found.name for found in migrations.applied(db) if found.name not in known]


@migrations()
def m013_seasons(db: sqlite_utils.Database) -> None:
    # A club's seasons (scorer/store/seasons.py): its nights between two dates, each player's
    # best N; the forfeits of a night's tables; the record of corrections of club games' hands.
    # Adds four tables; drops nothing.
    db["seasons"].create(
        {
            "id": str,
            "club_id": str,
            "name": str,
            "starts": str,  # the first day counted, YYYY-MM-DD
            "ends": str,  # the last day counted
            "best_of": int,
            "version": int,
            "created_at": str,
            "updated_at": str,
        },
        pk="id",
        foreign_keys=[("club_id", "clubs", "id")],
        not_null={"id", "club_id", "name", "starts", "ends", "best_of", "version", "created_at"},
    )
    db["seasons"].create_index(["club_id"])
    db["season_keys"].create(
        {"club_id": str, "key": str, "request_hash": str, "season_id": str, "created_at": str},
        pk=("club_id", "key"),
        not_null={"club_id", "key", "request_hash", "season_id", "created_at"},
    )
    # A table of a night won by forfeit (scorer/store/tournaments.py): which side was absent.
    db["night_forfeits"].create(
        {"night_id": str, "round": int, "position": int, "absent": int, "created_at": str},
        pk=("night_id", "round", "position"),
        foreign_keys=[("night_id", "nights", "id")],
        not_null={"night_id", "round", "position", "absent", "created_at"},
    )
    # The record of corrections of a club game's hands (scorer/store/corrections.py).
    db["hand_corrections"].create(
        {
            "game_id": str,
            "hand_number": int,
            "kind": str,  # corrected, removed
            "before": str,  # JSON: each side's hand score and the inputs
            "after": str,  # the same after a correction; null for a removal
            "screen": str,
            "at": str,
        },
        not_null={"game_id", "hand_number", "kind", "before", "screen", "at"},
    )
    db["hand_corrections"].create_index(["game_id"])


@migrations()
def m014_families(db: sqlite_utils.Database) -> None:
    # The game of the Canasta family a game plays (scorer.core.families): every game stored
    # before families existed is Classic. Adds a column; drops nothing.
    if "family" not in db["games"].columns_dict:
        db["games"].add_column("family", str, not_null_default="classic")


@migrations()
def m016_club_family(db: sqlite_utils.Database) -> None:
    # The game of the Canasta family a club plays (issue 31): its games' default. Every club
    # stored before is Classic. Adds a column; drops nothing.
    if "family" not in db["clubs"].columns_dict:
        db["clubs"].add_column("family", str, not_null_default="classic")


def connect(path: str | Path) -> sqlite_utils.Database:
    """A connection with WAL, foreign keys and a busy timeout."""
    conn = sqlite3.connect(str(path), timeout=BUSY_TIMEOUT, check_same_thread=False)
    db = sqlite_utils.Database(conn)
    db.execute("PRAGMA foreign_keys = ON")
    db.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT * 1000}")
    return db


# The database and its -wal and -shm: readable by the server's user only. A game's id is its
# write key, so a file others can read hands every game to anyone on the machine.
FILE_MODE = 0o600


def make_private(path: str | Path) -> None:
    """Create the database file owner-only before SQLite does, or tighten an existing one.

    SQLite gives its -wal, -shm and journal files the mode of the database file, so they
    follow; an existing one is tightened too (a database made before this rule).
    """
    path = Path(path)
    if str(path) == ":memory:" or str(path).startswith("file:"):
        return
    try:
        fd = os.open(path, os.O_CREAT | os.O_EXCL | os.O_WRONLY, FILE_MODE)
    except FileExistsError:
        pass
    else:
        os.close(fd)
    for file in (path, *(path.with_name(path.name + s) for s in ("-wal", "-shm", "-journal"))):
        with contextlib.suppress(FileNotFoundError):
            if file.stat().st_mode & 0o077:
                file.chmod(FILE_MODE)


def switch_to_wal(db: sqlite_utils.Database) -> None:
    """Put the file in WAL mode, waiting out another process switching it at the same time.

    The switch needs the file to itself, and when two connections each hold a read lock and
    want it, SQLite refuses one at once instead of calling the busy timeout (waiting could
    deadlock). gunicorn's workers all prepare the file as they boot, so a fresh file sees
    exactly that: the refused worker died and took its server down.
    """
    deadline = time.monotonic() + BUSY_TIMEOUT
    while True:
        try:
            db.enable_wal()
            return
        except sqlite3.OperationalError as error:
            if "locked" not in str(error) or time.monotonic() > deadline:
                raise
            time.sleep(0.01)


def prepare(path: str | Path) -> None:
    """Create the database file if needed and apply pending migrations (never drops data)."""
    Path(path).parent.mkdir(parents=True, exist_ok=True)
    make_private(path)
    db = connect(path)
    try:
        switch_to_wal(db)
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


# --- time stamps as stored ---------------------------------------------------------------

# RFC 3339 (section 5.6): a full date, a full time and an offset; nothing else, so no week
# dates (2024-W01), no ordinal dates and no missing offset, which ISO 8601 would allow.
_RFC3339 = re.compile(
    r"\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}:\d{2}(\.\d{1,9})?([Zz]|[+-]\d{2}:\d{2})", re.ASCII
)


def now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


def is_rfc3339(value: str) -> bool:
    """True for a real moment written as RFC 3339 (the month and day must exist too)."""
    if not _RFC3339.fullmatch(value):
        return False
    try:
        datetime.fromisoformat(value[:19] + _offset(value[19:]))
    except ValueError:
        return False
    return True


def _offset(tail: str) -> str:
    """The offset of a stamp's tail without its fraction ('Z' as +00:00)."""
    tail = tail.lstrip(".0123456789")
    return "+00:00" if tail in ("Z", "z") else tail


def readable(value: str | None, fallback: str) -> str:
    """A stored stamp as pages can format it: RFC 3339 kept, anything else made so.

    Rows written before imports were checked may hold any text; a page must not fail on it.
    """
    if value and is_rfc3339(value):
        return value
    try:
        moment = datetime.fromisoformat(value or "")
    except ValueError:
        return fallback
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    return moment.isoformat(timespec="seconds")
