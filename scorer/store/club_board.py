"""What a club's page and night sheet show, cached per club version and games' versions.

Replaying 500 games of 30 hands takes seconds; the standings only change when the club or
one of its games does. So the page asks SQLite for the club's version and its games'
versions (one small query) and reuses the board worked out for exactly those versions.
When something changed, only the games whose version is new are replayed: each game's
light summary (its line in the list and a few numbers per side, stats.GameSummary) is kept
by (game id, version), and the standings are added up again from the summaries, which is
quick. Both caches hold light summaries, never the replayed games: their memory stays
bounded by their sizes, whatever the length of the games.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

import sqlite_utils
from flask import current_app

from scorer import store
from scorer.core.errors import RuleError
from scorer.core.game import GameState, Side, game_title, play
from scorer.core.limits import GAMES_PER_CLUB
from scorer.core.stats import ClubStats, GameSummary, club_stats, summarize
from scorer.store.cache import LruCache
from scorer.store.clubs import ClubRecord, _read_club, snapshot
from scorer.store.rows import hand_from_row

# Clubs whose boards are kept (each a few hundred KiB at most, light summaries only).
BOARD_CACHE_SIZE = 16
# Games whose summaries are kept (well under 1 KiB each): two of the largest clubs.
SUMMARY_CACHE_SIZE = 2 * GAMES_PER_CLUB
# Games read from SQLite at a time when replaying: bounds the rows held at once.
CHUNK = 100


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


@dataclass(frozen=True)
class ClubBoard:
    """The club, its games (oldest first) and its statistics."""

    club: ClubRecord
    games: tuple[GameLine, ...]
    stats: ClubStats
    unreadable: tuple[str, ...]
    tag: str  # the club's and its games' versions: an ETag

    def days(self) -> list[str]:
        """The dates (YYYY-MM-DD) with games, latest first."""
        return sorted({game.day for game in self.games}, reverse=True)


@dataclass(frozen=True, slots=True)
class GameDigest:
    """One game at one version: its line and its summary, or None when it no longer replays."""

    line: GameLine | None
    summary: GameSummary | None


@dataclass
class BoardCache:
    """The boards of recently viewed clubs, and the summaries of their games by version."""

    boards: LruCache = field(default_factory=lambda: LruCache(BOARD_CACHE_SIZE))
    games: LruCache = field(default_factory=lambda: LruCache(SUMMARY_CACHE_SIZE))


def versions(db: sqlite_utils.Database, club_id: str) -> list[tuple[str, int]]:
    return [
        (row[0], row[1])
        for row in db.execute(
            "select g.id, g.version from club_games c join games g on g.id = c.game_id "
            "where c.club_id = ? order by g.created_at, c.filed_at, g.rowid",
            [club_id],
        ).fetchall()
    ]


def board_tag(club: ClubRecord, game_versions: list[tuple[str, int]]) -> str:
    text = ",".join(f"{game_id}.{version}" for game_id, version in game_versions)
    return f"{club.id}.{club.version}.{hashlib.sha256(text.encode()).hexdigest()[:16]}"


def game_line(row: dict[str, Any], state: GameState) -> GameLine:
    """A game's line in the club's list, from its row and its replay."""
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


# --- reading and replaying the games that changed --------------------------------------------


def _placeholders(ids: Sequence[str]) -> str:
    return ",".join("?" * len(ids))


def _rows_of(
    db: sqlite_utils.Database, ids: Sequence[str]
) -> tuple[list[dict[str, Any]], dict[str, list[Side]], dict[str, list[dict[str, Any]]]]:
    """These games' rows, sides and hands in three queries (not three per game)."""
    marks = _placeholders(ids)
    games = list(db.query(f"select * from games where id in ({marks})", list(ids)))
    sides: dict[str, list[Side]] = {}
    for row in db.query(
        f"select game_id, name, players from sides where game_id in ({marks}) "
        "order by game_id, position",
        list(ids),
    ):
        sides.setdefault(row["game_id"], []).append(
            Side(row["name"], tuple(json.loads(row["players"])))
        )
    hands: dict[str, list[dict[str, Any]]] = {}
    for row in db.query(
        f"select * from hands where game_id in ({marks}) order by game_id, number", list(ids)
    ):
        hands.setdefault(row["game_id"], []).append(row)
    return games, sides, hands


def digest(row: dict[str, Any], sides: list[Side], hands: list[dict[str, Any]]) -> GameDigest:
    """Replay one game from its rows and keep only its line and its summary."""
    try:
        rules = json.loads(row["rules"] or "{}")
        table = store.build_table(row["profile"], row["target"], rules, sides, row["first_dealer"])
        state = play(table, [hand_from_row(hand) for hand in hands])
    except RuleError:
        return GameDigest(None, None)  # its hands no longer fit the rules
    return GameDigest(
        game_line(row, state),
        summarize(row["id"], row["created_at"], state),
    )


def replay_changed(
    db: sqlite_utils.Database, wanted: Sequence[tuple[str, int]]
) -> Iterator[tuple[tuple[str, int], GameDigest]]:
    """Each wanted (id, version) replayed, CHUNK games read at a time (inside the caller's
    snapshot, so the versions and the hands are of the same moment)."""
    for start in range(0, len(wanted), CHUNK):
        chunk = wanted[start : start + CHUNK]
        games, sides, hands = _rows_of(db, [game_id for game_id, _version in chunk])
        for row in games:
            yield (
                (row["id"], row["version"]),
                digest(row, sides.get(row["id"], []), hands.get(row["id"], [])),
            )


def digests(
    db: sqlite_utils.Database, game_versions: list[tuple[str, int]], kept: LruCache | None
) -> list[tuple[str, GameDigest]]:
    """Each game's digest, from `kept` when its version was seen, else replayed (and kept)."""
    found: dict[tuple[str, int], GameDigest] = {}
    missing: list[tuple[str, int]] = []
    for key in game_versions:
        hit = kept.get(key) if kept is not None else None
        if hit is None:
            missing.append(key)
        else:
            found[key] = hit
    for key, fresh in replay_changed(db, missing):
        found[key] = kept.put(key, fresh) if kept is not None else fresh
    # A game deleted between the two reads has no digest: it is no longer the club's.
    return [(key[0], found[key]) for key in game_versions if key in found]


def assemble(
    club: ClubRecord, year: str, tag: str, games: list[tuple[str, GameDigest]]
) -> ClubBoard:
    """The board from its games' digests (oldest first): sums, no replay."""
    lines = tuple(d.line for _id, d in games if d.line is not None)
    summaries = [d.summary for _id, d in games if d.summary is not None]
    unreadable = tuple(game_id for game_id, d in games if d.summary is None)
    return ClubBoard(club, lines, club_stats(summaries, year), unreadable, tag)


def club_board(
    db: sqlite_utils.Database, club_id: str, year: str, *, cache: BoardCache | None = None
) -> ClubBoard:
    """The club's board; ClubNotFound for an unknown club. Reused while nothing changed,
    and after a change only the changed games are replayed."""
    with snapshot(db):
        club = _read_club(db, club_id)
        game_versions = versions(db, club_id)
        tag = board_tag(club, game_versions)
        board = cache.boards.get((tag, year)) if cache is not None else None
        if board is None:
            games = digests(db, game_versions, cache.games if cache is not None else None)
    if board is not None:
        return board
    board = assemble(club, year, tag, games)
    return cache.boards.put((tag, year), board) if cache is not None else board


def board_cache() -> BoardCache:
    """This app's club boards and game summaries (its own, apart from the games' replays)."""
    return current_app.extensions.setdefault("scorer.cache.club_boards", BoardCache())
