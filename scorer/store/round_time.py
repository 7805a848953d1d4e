"""The clock of a timed round, where a hand is recorded (docs/rules.md §6).

A game that is a table of a night's timed round takes its hands until time is called, then the
one under way (scorer.core.round_clock); the next is refused, inside the hand's transaction, so
two phones racing past the end cannot both record one. The store reads the clock (one reading
per hand) and hands it to the core. Reads only nights' rows: it imports nothing of the nights'
store, so the games' store can ask it without a cycle.
"""

from __future__ import annotations

import json
from datetime import UTC, datetime

import sqlite_utils

from scorer.core.round_clock import RoundClock, check_new_hand, over_by_time


def clock_of_game(db: sqlite_utils.Database, game_id: str) -> RoundClock | None:
    """The clock of the timed round whose table this game is (None: not a timed table)."""
    row = db.execute(
        "select n.settings, r.drawn_at from night_tables t "
        "join nights n on n.id = t.night_id "
        "join night_rounds r on r.night_id = t.night_id and r.number = t.round "
        "where t.game_id = ?",
        [game_id],
    ).fetchone()
    if row is None:
        return None
    end = json.loads(row[0]).get("round") or {}
    if end.get("minutes") is None:
        return None
    return RoundClock(datetime.fromisoformat(row[1]), end["minutes"], end.get("warning_minutes", 0))


def hands_at(db: sqlite_utils.Database, game_id: str) -> list[datetime]:
    return [
        datetime.fromisoformat(row[0])
        for row in db.execute("select created_at from hands where game_id = ?", [game_id])
    ]


def check_hand_time(db: sqlite_utils.Database, game_id: str, now: datetime | None = None) -> None:
    """TimeCalled (409) if this game's round is out of time and its last hand is recorded."""
    clock = clock_of_game(db, game_id)
    if clock is not None:
        check_new_hand(clock, now or datetime.now(UTC), hands_at(db, game_id))


def ended_by_time(
    db: sqlite_utils.Database, game_ids: list[str], now: datetime | None = None
) -> set[str]:
    """The games among these that time has ended (their last hand after time recorded)."""
    moment = now or datetime.now(UTC)
    ended = set()
    for game_id in game_ids:
        clock = clock_of_game(db, game_id)
        if clock is not None and over_by_time(clock, moment, hands_at(db, game_id)):
            ended.add(game_id)
    return ended
