"""Housekeeping on the store: reclaiming what abandoned games and clubs leave behind.

`prune` removes, in one transaction:
- games with no hand untouched for ABANDONED_AFTER_DAYS (started and never played);
- games with hands untouched for PLAYED_KEPT_DAYS, whatever their hands; a game of a club
  stays while the club, or any of its games, was touched within that time (an active club
  keeps its history);
- clubs left with no game, untouched for ABANDONED_AFTER_DAYS, their nights and seasons too,
  with everything of theirs (roster, nights' players, rounds, tables, forfeits, seasons);
- idempotency keys older than KEYS_KEPT_DAYS (a retry comes within seconds, not days), the
  creation keys of nights and of seasons with the others.
A removed game takes every row that points at it, its place in a club and its record of
corrections too, so the club's count of games stays right and a full club takes new games
again. What points at a club or a night is found from the schema, deepest first, so a new
table with a foreign key to them goes too, and the foreign keys hold at every step.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

import sqlite_utils

from scorer.store.db import transaction

ABANDONED_AFTER_DAYS = 7
PLAYED_KEPT_DAYS = 180
KEYS_KEPT_DAYS = 1
# SQLite caps the number of parameters of one statement.
CHUNK = 500
# Tables holding a key a retry sent, each with its stamp.
KEY_TABLES = ("idempotency_keys", "creation_keys", "night_keys", "season_keys")


@dataclass(frozen=True)
class Cutoffs:
    """The stamps before which each kind of thing counts as abandoned."""

    empty: str  # games with no hand, clubs with no game
    played: str  # games with hands
    keys: str  # idempotency keys


def cutoff(days: int, now: datetime | None = None) -> str:
    """The `updated_at` stamp `days` days before now."""
    moment = (now or datetime.now(UTC)) - timedelta(days=days)
    return moment.isoformat(timespec="seconds")


def cutoffs(
    days: int = ABANDONED_AFTER_DAYS,
    played_days: int = PLAYED_KEPT_DAYS,
    now: datetime | None = None,
) -> Cutoffs:
    return Cutoffs(cutoff(days, now), cutoff(played_days, now), cutoff(KEYS_KEPT_DAYS, now))


@dataclass(frozen=True)
class Pruned:
    """What a prune removed (or, in a dry run, would remove)."""

    games: list[str]
    clubs: list[str]
    keys: int


def abandoned_games(db: sqlite_utils.Database, before: str, played_before: str = "") -> list[str]:
    """Ids of games with no hand untouched since `before`, and of games with hands
    untouched since `played_before` outside any club active since then."""
    rows = db.query(
        "with active(club_id) as ("
        "  select id from clubs where updated_at >= :played"
        "  union select c.club_id from club_games c join games g on g.id = c.game_id"
        "  where g.updated_at >= :played"
        ") "
        "select g.id from games g left join club_games c on c.game_id = g.id "
        "where (g.updated_at < :empty"
        "       and not exists (select 1 from hands h where h.game_id = g.id))"
        "   or (g.updated_at < :played"
        "       and exists (select 1 from hands h where h.game_id = g.id)"
        "       and (c.club_id is null or c.club_id not in (select club_id from active))) "
        "order by g.updated_at",
        {"empty": before, "played": played_before},
    )
    return [row["id"] for row in rows]


def empty_clubs(db: sqlite_utils.Database, before: str, leaving: Sequence[str] = ()) -> list[str]:
    """Ids of clubs untouched since `before`, their nights and seasons too (a night's changes
    need not touch its club), whose games are all gone or `leaving`."""
    going = set(leaving)
    found = []
    for row in db.query(
        "select id from clubs c where updated_at < :before"
        " and not exists (select 1 from nights n where n.club_id = c.id"
        "   and coalesce(n.updated_at, n.created_at) >= :before)"
        " and not exists (select 1 from seasons s where s.club_id = c.id"
        "   and coalesce(s.updated_at, s.created_at) >= :before) "
        "order by updated_at",
        {"before": before},
    ):
        games = db.execute(
            "select c.game_id from club_games c join games g on g.id = c.game_id "
            "where c.club_id = ?",
            [row["id"]],
        ).fetchall()
        if all(game_id in going for (game_id,) in games):
            found.append(row["id"])
    return found


def expired_keys(db: sqlite_utils.Database, before: str) -> int:
    return sum(
        db.execute(f"select count(*) from [{table}] where created_at < ?", [before]).fetchone()[0]
        for table in KEY_TABLES
    )


def dependent_tables(db: sqlite_utils.Database) -> list[str]:
    """Every table whose rows point at a game (found from the schema, so new ones count),
    and club_games and hand_corrections, which have no foreign key to games (deleting a game
    must keep working; a game's record of corrections goes with it)."""
    found = [
        table.name
        for table in db.tables
        if table.name != "games" and any(key.other_table == "games" for key in table.foreign_keys)
    ]
    return [*found, "club_games", "hand_corrections"]


def delete_with_dependents(
    db: sqlite_utils.Database, table: str, where: str, params: Sequence[object]
) -> None:
    """Delete `table`'s rows matching `where`, after every row pointing at them through a
    foreign key (found from the schema, followed down), so no step breaks a foreign key."""
    for child in db.tables:
        if child.name == table:
            continue
        for key in child.foreign_keys:
            if key.other_table == table:
                delete_with_dependents(
                    db,
                    child.name,
                    f"[{key.column}] in (select [{key.other_column}] from [{table}] "  # noqa: S608
                    f"where {where})",
                    params,
                )
    db.execute(f"delete from [{table}] where {where}", params)  # noqa: S608


def planned(db: sqlite_utils.Database, limits: Cutoffs) -> Pruned:
    """What a prune with these cutoffs would remove now."""
    games = abandoned_games(db, limits.empty, limits.played)
    clubs = empty_clubs(db, limits.empty, games)
    return Pruned(games, clubs, expired_keys(db, limits.keys))


def prune_abandoned(
    db: sqlite_utils.Database,
    days: int = ABANDONED_AFTER_DAYS,
    now: datetime | None = None,
    *,
    played_days: int = PLAYED_KEPT_DAYS,
) -> Pruned:
    """Delete the abandoned games, clubs and keys, and every row that points at them, in
    one transaction.

    The queries run again inside the write lock, so a hand recorded meanwhile saves its game.
    """
    limits = cutoffs(days, played_days, now)
    with transaction(db):
        doomed = planned(db, limits)
        for start in range(0, len(doomed.games), CHUNK):
            chunk = doomed.games[start : start + CHUNK]
            marks = ", ".join("?" * len(chunk))
            for table in dependent_tables(db):
                db.execute(f"delete from [{table}] where game_id in ({marks})", chunk)
            db.execute(f"delete from games where id in ({marks})", chunk)
        for club_id in doomed.clubs:
            # Its roster, nights (their players, rounds, tables, forfeits), seasons, and the
            # rows left by games deleted before prune kept club_games right.
            delete_with_dependents(db, "clubs", "id = ?", [club_id])
            # Keys of the club's nights and seasons (no foreign key: a retry's record).
            for table in ("night_keys", "season_keys"):
                db.execute(f"delete from [{table}] where club_id = ?", [club_id])  # noqa: S608
        for table in KEY_TABLES:
            db.execute(f"delete from [{table}] where created_at < ?", [limits.keys])  # noqa: S608
        # A club's row of a game deleted some other way (before this was kept right).
        db.execute("delete from club_games where game_id not in (select id from games)")
    return doomed
