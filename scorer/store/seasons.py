"""A club's seasons in SQLite: a name, the first and last day counted, how many nights count.

A season stores no results: its nights are the club's nights made between its two days
(inclusive, by the night's date in UTC), and its table is worked out from them
(scorer.core.seasons), so a hand corrected on any night moves the season too. Making a season is
one transaction; a retry with the same Idempotency-Key answers with the season it made.

A season's tag (`season_tag`) is read from its rows, no game replayed: its own version, each
of its nights' version and each of their tables' games' version. Every change that moves
its table moves one of them (a hand recorded, corrected or removed moves its game's; a round
drawn, a forfeit, a rename moves the night's; a night made in its dates joins the list).
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from datetime import date
from typing import Any

import sqlite_utils

from scorer.core.errors import N_, RuleError
from scorer.core.limits import SEASONS_PER_CLUB
from scorer.store import ids, writes
from scorer.store.clubs import ClubNotFound, touch_club
from scorer.store.db import snapshot, transaction
from scorer.store.idempotency import KeyReused, digest


class SeasonNotFound(writes.NotFound):
    """No season at that address."""

    def __init__(self, address: str) -> None:
        super().__init__(address, N_("no season at this address"))


@dataclass(frozen=True)
class SeasonSettings:
    """What the club chose: the season's name, its first and last day, the nights counted."""

    name: str
    starts: date
    ends: date
    best_of: int

    def to_json(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "from": self.starts.isoformat(),
            "to": self.ends.isoformat(),
            "best_of": self.best_of,
        }


@dataclass(frozen=True)
class StoredSeason:
    id: str
    club_id: str
    settings: SeasonSettings
    version: int
    created_at: str
    night_ids: tuple[str, ...]  # the club's nights in the season, oldest first


def create_season(
    db: sqlite_utils.Database,
    club_id: str,
    settings: SeasonSettings,
    *,
    idempotency_key: str | None = None,
) -> str:
    """A new season of the club (settings already checked: scorer.nights.season_payloads)."""
    request = digest(settings.to_json())
    season_id = ids.mint()
    stamp = writes.now()
    with transaction(db):
        if db.execute("select 1 from clubs where id = ?", [club_id]).fetchone() is None:
            raise ClubNotFound(club_id)
        if idempotency_key is not None:
            first = db.execute(
                "select season_id, request_hash from season_keys where club_id = ? and key = ?",
                [club_id, idempotency_key],
            ).fetchone()
            if first is not None:
                if first[1] != request:
                    raise KeyReused(
                        "Idempotency-Key", N_("this key was already used for a different season")
                    )
                return str(first[0])
        count = db.execute("select count(*) from seasons where club_id = ?", [club_id]).fetchone()
        if count[0] >= SEASONS_PER_CLUB:
            raise RuleError("name", N_("a club keeps {max} seasons at most"), max=SEASONS_PER_CLUB)
        db["seasons"].insert(
            {
                "id": season_id,
                "club_id": club_id,
                "name": settings.name,
                "starts": settings.starts.isoformat(),
                "ends": settings.ends.isoformat(),
                "best_of": settings.best_of,
                "version": 1,
                "created_at": stamp,
                "updated_at": stamp,
            }
        )
        if idempotency_key is not None:
            db["season_keys"].insert(
                {
                    "club_id": club_id,
                    "key": idempotency_key,
                    "request_hash": request,
                    "season_id": season_id,
                    "created_at": stamp,
                }
            )
        touch_club(db, club_id)
    return season_id


# Which of a club's nights are a season's (parameters: the club, the first and the last day):
# created_at is RFC 3339 in UTC, its first ten characters are the night's date.
IN_SEASON = "n.club_id = ? and substr(n.created_at, 1, 10) between ? and ?"


def load_season(db: sqlite_utils.Database, season_id: str) -> StoredSeason:
    """The season and its nights in one snapshot; SeasonNotFound for an unknown id."""
    with snapshot(db):
        rows = list(db.query("select * from seasons where id = ?", [season_id]))
        if not rows:
            raise SeasonNotFound(season_id)
        row = rows[0]
        night_ids = tuple(
            r["id"]
            for r in db.query(
                f"select n.id from nights n where {IN_SEASON} order by n.created_at, n.rowid",
                [row["club_id"], row["starts"], row["ends"]],
            )
        )
    return StoredSeason(
        id=row["id"],
        club_id=row["club_id"],
        settings=SeasonSettings(
            row["name"],
            date.fromisoformat(row["starts"]),
            date.fromisoformat(row["ends"]),
            row["best_of"],
        ),
        version=row["version"],
        created_at=row["created_at"],
        night_ids=night_ids,
    )


def season_tag(db: sqlite_utils.Database, season_id: str) -> str:
    """The season's tag from its rows (see the module); SeasonNotFound for an unknown id."""
    with snapshot(db):
        row = db.execute(
            "select club_id, starts, ends, version from seasons where id = ?", [season_id]
        ).fetchone()
        if row is None:
            raise SeasonNotFound(season_id)
        club_id, starts, ends, version = row
        # One row a table (a night without one: a row of nulls), fetched whole: no game is
        # replayed and no Python runs per night.
        rows = db.execute(
            "select n.id, n.version, t.game_id, g.version from nights n "
            "left join night_tables t on t.night_id = n.id left join games g on g.id = t.game_id "
            f"where {IN_SEASON} order by n.created_at, n.rowid, t.round, t.position",
            [club_id, starts, ends],
        ).fetchall()
    digest = hashlib.sha256(repr(rows).encode()).hexdigest()[:16]
    return f"season-{season_id}.{version}.{digest}"


def seasons_of_club(db: sqlite_utils.Database, club_id: str) -> list[dict[str, Any]]:
    """The club's seasons, newest first."""
    return [
        {"id": row["id"], "name": row["name"], "from": row["starts"], "to": row["ends"]}
        for row in db.query(
            "select id, name, starts, ends from seasons where club_id = ? "
            "order by starts desc, rowid desc",
            [club_id],
        )
    ]
