"""Each club game's digest (its line in the club's list and its summary), stored with it.

A club of 2 000 games cannot be replayed for each view (about 5 s), so each game's digest is
written beside its club row (club_games.summary, at club_games.summary_version) in the same
transaction as the change that made it: a hand recorded, corrected or removed, a game
started in the club, filed into it or imported with it, a player renamed. A view then reads
digests, never hands; a digest whose version is not the game's (a row written before digests
were kept) is replayed by the reader and stored back.
"""

from __future__ import annotations

import json
import sqlite3
from dataclasses import asdict, dataclass
from typing import Any

import sqlite_utils

from scorer.core.game import GameState, Side, game_title
from scorer.core.stats import GameSummary, SideSummary, summarize
from scorer.store.db import BUSY_TIMEOUT, transaction

# How long a reader waits for the write lock to store digests it replayed: it gives up
# rather than hold a page (the next view stores them).
STORE_BACK_WAIT_MS = 100


@dataclass(frozen=True)
class GameLine:
    """One game of the club as its list shows it."""

    id: str
    version: int
    title: str
    date: str  # ISO 8601, the game's creation
    sides: tuple[str, ...]
    totals: tuple[int, ...]
    winner: int | None
    tied: bool
    hands: int

    @property
    def day(self) -> str:
        return self.date[:10]


@dataclass(frozen=True, slots=True)
class GameDigest:
    """One game at one version: its line and its summary, or None when it no longer replays."""

    line: GameLine | None
    summary: GameSummary | None


def game_line(row: dict[str, Any], state: GameState) -> GameLine:
    """A game's line in the club's list, from its row (id, version, name, created_at) and
    its replay."""
    return GameLine(
        id=row["id"],
        version=row["version"],
        title=game_title(row["name"] or "", state.table.sides),
        date=row["created_at"],
        sides=tuple(side.name for side in state.table.sides),
        totals=tuple(state.totals),
        winner=state.winner,
        tied=bool(state.tied),
        hands=len(state.results),
    )


def digest_of(row: dict[str, Any], state: GameState) -> GameDigest:
    """The digest of a replayed game, from its row and its state."""
    return GameDigest(game_line(row, state), summarize(row["id"], row["created_at"], state))


# --- as JSON ---------------------------------------------------------------------------------


def to_json(digest: GameDigest) -> str:
    line = None if digest.line is None else asdict(digest.line)
    summary = None if digest.summary is None else asdict(digest.summary)
    return json.dumps({"line": line, "summary": summary}, separators=(",", ":"))


def from_json(text: str) -> GameDigest:
    data = json.loads(text)
    line, summary = data["line"], data["summary"]
    return GameDigest(
        None
        if line is None
        else GameLine(**{**line, "sides": tuple(line["sides"]), "totals": tuple(line["totals"])}),
        None
        if summary is None
        else GameSummary(
            **{
                **summary,
                "sides": tuple(
                    SideSummary(**{**side, "players": tuple(side["players"])})
                    for side in summary["sides"]
                ),
            }
        ),
    )


# --- stored beside the club row --------------------------------------------------------------


def store(db: sqlite_utils.Database, game_id: str, version: int, digest: GameDigest) -> None:
    """The game's digest at `version` (inside the caller's transaction); never an older one
    over a newer one."""
    db.execute(
        "update club_games set summary_version = ?, summary = ? "
        "where game_id = ? and coalesce(summary_version, 0) <= ?",
        [version, to_json(digest), game_id, version],
    )


def written(
    db: sqlite_utils.Database,
    game_id: str,
    version: int,
    name: str | None,
    created_at: str,
    state: GameState,
) -> None:
    """A change to a game was written (inside its transaction): its digest, if in a club."""
    if db.execute("select 1 from club_games where game_id = ?", [game_id]).fetchone() is None:
        return
    row = {"id": game_id, "version": version, "name": name, "created_at": created_at}
    store(db, game_id, version, digest_of(row, state))


def stored(
    db: sqlite_utils.Database, wanted: list[tuple[str, int]]
) -> dict[tuple[str, int], GameDigest]:
    """The stored digests of these (game, version) pairs, those stored at that version."""
    found: dict[tuple[str, int], GameDigest] = {}
    versions = dict(wanted)
    ids = list(versions)
    for start in range(0, len(ids), 500):  # SQLite caps the number of parameters
        chunk = ids[start : start + 500]
        marks = ",".join("?" * len(chunk))
        for game_id, version, text in db.execute(
            "select game_id, summary_version, summary from club_games "
            f"where game_id in ({marks}) and summary is not null",
            chunk,
        ).fetchall():
            if versions[game_id] == version:
                found[(game_id, version)] = from_json(text)
    return found


def store_back(db: sqlite_utils.Database, fresh: dict[tuple[str, int], GameDigest]) -> None:
    """Digests a reader had to replay, stored if the write lock is free at once."""
    if not fresh:
        return
    db.execute(f"PRAGMA busy_timeout = {STORE_BACK_WAIT_MS}")
    try:
        with transaction(db):
            for (game_id, version), digest in fresh.items():
                store(db, game_id, version, digest)
    except sqlite3.OperationalError:
        pass  # another writer holds the lock: the next view stores them
    finally:
        db.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT * 1000}")


def renamed(
    db: sqlite_utils.Database, game_id: str, version: int, sides: list[Side], names: dict[str, str]
) -> None:
    """A club game whose players were renamed (now at `version`, with these sides): its
    stored digest with the new names, without a replay."""
    row = db.execute(
        "select c.summary_version, c.summary, g.name from club_games c "
        "join games g on g.id = c.game_id where c.game_id = ?",
        [game_id],
    ).fetchone()
    if row is None or row[1] is None or row[0] != version - 1:
        return  # none, or not the version before the rename: the next view replays it
    digest = from_json(row[1])
    line, summary = digest.line, digest.summary
    if line is not None:
        line = GameLine(
            **{
                **asdict(line),
                "version": version,
                "title": game_title(row[2] or "", sides),
                "sides": tuple(side.name for side in sides),
                "totals": line.totals,
            }
        )
    if summary is not None:
        summary = GameSummary(
            **{
                **asdict(summary),
                "sides": tuple(
                    SideSummary(
                        **{
                            **asdict(side),
                            "players": tuple(names.get(p, p) for p in side.players),
                        }
                    )
                    for side in summary.sides
                ),
            }
        )
    store(db, game_id, version, GameDigest(line, summary))
