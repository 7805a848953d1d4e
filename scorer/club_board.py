"""What a club's page and night sheet show, cached per club version and games' versions.

Replaying 500 games of 30 hands takes a while; the standings only change when the club or
one of its games does. So the page asks SQLite for the club's version and its games'
versions (one small query) and reuses the standings worked out for exactly those versions.
The cache keeps light summaries, never the replayed games: its memory stays bounded by its
size, whatever the length of the games.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass

import sqlite_utils
from flask import current_app

from scorer import store
from scorer.cache import LruCache
from scorer.clubs import ClubRecord, _read_club, snapshot
from scorer.display import game_title
from scorer.errors import RuleError
from scorer.stats import ClubGame, ClubStats, club_stats

# Clubs whose standings are kept (each a few hundred KiB at most, light summaries only).
BOARD_CACHE_SIZE = 16


@dataclass(frozen=True)
class GameLine:
    """One game of the club as its list shows it."""

    id: str
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


def game_line(record: store.GameRecord) -> GameLine:
    state = record.state
    return GameLine(
        id=record.id,
        title=game_title(record.name, state.table.sides),
        date=record.created_at,
        sides=tuple(side.name for side in state.table.sides),
        totals=tuple(state.totals),
        winner=state.winner,
        tied=bool(state.tied),
        hands=len(state.results),
    )


def build_board(
    db: sqlite_utils.Database, club: ClubRecord, year: str, tag: str, ids: list[str]
) -> ClubBoard:
    """Replay every game once (no shared cache: 500 games would push out the others)."""
    lines: list[GameLine] = []
    replays: list[ClubGame] = []
    unreadable: list[str] = []
    for game_id in ids:
        try:
            record = store.load_game(db, game_id)
        except store.NotFound:
            continue
        except RuleError:
            unreadable.append(game_id)
            continue
        lines.append(game_line(record))
        replays.append(ClubGame(record.id, record.created_at, record.state))
    return ClubBoard(club, tuple(lines), club_stats(replays, year), tuple(unreadable), tag)


def club_board(
    db: sqlite_utils.Database, club_id: str, year: str, *, cache: LruCache | None = None
) -> ClubBoard:
    """The club's board; ClubNotFound for an unknown club. Reused while nothing changed."""
    with snapshot(db):
        club = _read_club(db, club_id)
        game_versions = versions(db, club_id)
    tag = board_tag(club, game_versions)
    ids = [game_id for game_id, _version in game_versions]
    if cache is None:
        return build_board(db, club, year, tag, ids)
    return cache.get_or_make((tag, year), lambda: build_board(db, club, year, tag, ids))


def board_cache() -> LruCache:
    """This app's cache of club boards (its own, smaller than the games' replays)."""
    return current_app.extensions.setdefault("scorer.cache.club_boards", LruCache(BOARD_CACHE_SIZE))
