"""What a club's page and night sheet show, cached per club version and games' versions.

Replaying 2 000 games of 30 hands takes seconds; the standings only change when the club or
one of its games does. So the page asks SQLite for the club's version and its games'
versions (one small query) and reuses the board worked out for exactly those versions.
When something changed, each game's digest (its line in the list and a few numbers per side,
stats.GameSummary) is taken from memory by (game id, version), else read as stored with the
game when it changed (scorer/store/club_digest.py), else replayed; the standings are added up
again from the summaries, which is quick. Both caches hold light summaries, never the
replayed games: their memory stays bounded by their sizes, whatever the length of the games.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

import sqlite_utils
from flask import current_app

from scorer.core import limits
from scorer.core.errors import RuleError
from scorer.core.game import Side, play
from scorer.core.limits import GAMES_PER_CLUB
from scorer.core.stats import ClubStats, GameSummary, club_stats
from scorer.store import club_digest, writes
from scorer.store.cache import LruCache
from scorer.store.club_digest import GameDigest, GameLine, digest_of
from scorer.store.clubs import ClubNotFound, StoredClub, read_club, snapshot
from scorer.store.games import hand_from_row

# Clubs whose boards are kept (each a few hundred KiB at most, light summaries only).
BOARD_CACHE_SIZE = 16
# Games whose summaries are kept (well under 1 KiB each): two of the largest clubs.
SUMMARY_CACHE_SIZE = 2 * GAMES_PER_CLUB
# Games read from SQLite at a time when replaying: bounds the rows held at once.
CHUNK = 100


@dataclass(frozen=True)
class ClubBoard:
    """The club, its games (oldest first) and its statistics."""

    club: StoredClub
    games: tuple[GameLine, ...]
    stats: ClubStats
    unreadable: tuple[str, ...]
    tag: str  # the club's and its games' versions: an ETag
    summaries: tuple[GameSummary, ...] = ()  # the readable games', oldest first

    def summaries_of(self, day: str) -> list[GameSummary]:
        """The summaries of the games played on `day` (YYYY-MM-DD)."""
        return [summary for summary in self.summaries if summary.date[:10] == day]

    def hand_parts(self, most: int | None = None) -> list[list[str]]:
        """The readable games' ids, oldest first, in parts of whole games of at most `most`
        hands (HANDS_PER_CSV_PART by default; a game of more alone); at least one part."""
        most = limits.HANDS_PER_CSV_PART if most is None else most
        parts: list[list[str]] = [[]]
        hands = 0
        for game in self.games:
            if parts[-1] and hands + game.hands > most:
                parts.append([])
                hands = 0
            parts[-1].append(game.id)
            hands += game.hands
        return parts

    def days(self) -> list[str]:
        """The dates (YYYY-MM-DD) with games, latest first."""
        return sorted({game.day for game in self.games}, reverse=True)


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


def board_tag(club_id: str, version: int, games_version: int) -> str:
    """The club's tag: its own version (roster, list of games) and the count of changes to
    its games (m011's games_version), read from one row."""
    return f"{club_id}.{version}.{games_version}"


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
        table = writes.build_table(
            row["profile"],
            row["target"],
            rules,
            sides,
            row["first_dealer"],
            row.get("fixed_hands"),
        )
        state = play(table, [hand_from_row(hand) for hand in hands])
    except RuleError:
        return GameDigest(None, None)  # its hands no longer fit the rules
    return digest_of(row, state)


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
) -> tuple[list[tuple[str, GameDigest]], dict[tuple[str, int], GameDigest]]:
    """Each game's digest, and those that had to be replayed: from `kept` when its version
    was seen, else as stored with the game (club_digest), else replayed. Inside the caller's
    snapshot."""
    found: dict[tuple[str, int], GameDigest] = {}
    missing: list[tuple[str, int]] = []
    for key in game_versions:
        hit = kept.get(key) if kept is not None else None
        if hit is None:
            missing.append(key)
        else:
            found[key] = hit
    from_store = club_digest.stored(db, missing)
    replayed = dict(replay_changed(db, [key for key in missing if key not in from_store]))
    for key, fresh in (from_store | replayed).items():
        found[key] = kept.put(key, fresh) if kept is not None else fresh
    # A game deleted between the two reads has no digest: it is no longer the club's.
    return [(key[0], found[key]) for key in game_versions if key in found], replayed


def assemble(
    club: StoredClub, year: str, tag: str, games: list[tuple[str, GameDigest]]
) -> ClubBoard:
    """The board from its games' digests (oldest first): sums, no replay."""
    lines = tuple(d.line for _id, d in games if d.line is not None)
    summaries = [d.summary for _id, d in games if d.summary is not None]
    unreadable = tuple(game_id for game_id, d in games if d.summary is None)
    stats = club_stats(summaries, year)
    return ClubBoard(club, lines, stats, unreadable, tag, tuple(summaries))


def stamp(db: sqlite_utils.Database, club_id: str) -> tuple[int, int]:
    """What changes whenever the club or one of its games does: its version and its games'
    count of changes (kept by triggers, m011), one row whatever the number of games.
    ClubNotFound for an unknown club."""
    row = db.execute("select version, games_version from clubs where id = ?", [club_id]).fetchone()
    if row is None:
        raise ClubNotFound(club_id)
    return int(row[0]), int(row[1])


def club_tag(db: sqlite_utils.Database, club_id: str) -> str:
    """The club's current tag (as its board's), without reading its games."""
    return board_tag(club_id, *stamp(db, club_id))


def club_board(
    db: sqlite_utils.Database, club_id: str, year: str, *, cache: BoardCache | None = None
) -> ClubBoard:
    """The club's board; ClubNotFound for an unknown club. Reused while nothing changed
    (asking costs two small queries, whatever the number of games), and after a change
    only the changed games' digests are read."""
    with snapshot(db):
        stamped = stamp(db, club_id)
        key = (club_id, stamped, year)
        board = cache.boards.get(key) if cache is not None else None
        if board is None:
            club = read_club(db, club_id)
            game_versions = versions(db, club_id)
            tag = board_tag(club_id, *stamped)
            games, replayed = digests(db, game_versions, cache.games if cache is not None else None)
    if board is not None:
        return board
    club_digest.store_back(db, replayed)
    board = assemble(club, year, tag, games)
    return cache.boards.put(key, board) if cache is not None else board


def board_cache() -> BoardCache:
    """This app's club boards and game summaries (its own, apart from the games' replays)."""
    return current_app.extensions.setdefault("scorer.cache.club_boards", BoardCache())


@dataclass(frozen=True)
class ClubView:
    """A club, its readable games' lines (id, version, result) and their statistics."""

    club: StoredClub
    games: tuple[GameLine, ...]
    stats: ClubStats
    unreadable: tuple[str, ...]  # games whose hands no longer fit the rules


def club_view(
    db: sqlite_utils.Database, club_id: str, year: str, *, cache: BoardCache | None = None
) -> ClubView:
    """The club and its statistics (`year`: the records' year, from the caller's clock).

    The same board as the club's page: with a cache, only games changed since the last
    view are replayed."""
    board = club_board(db, club_id, year, cache=cache)
    return ClubView(board.club, board.games, board.stats, board.unreadable)
