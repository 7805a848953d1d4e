"""The record of corrections of a club game's hands (issue 33): which hand, what it was, what it
became (nothing, for a removal), when, and from which screen. A tournament needs to see who
changed what.

Written in the same transaction as the correction itself (scorer.store.replace_hand,
delete_hand), only for a club's game; never changed afterwards. The record keeps each side's
hand score and the inputs as the table called them, before and after.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

import sqlite_utils

from scorer.core.game import HandResult
from scorer.store.db import now
from scorer.store.games import sides_json

# Where a correction came from: what the record prints (the web layer names them).
SCREENS: tuple[str, ...] = ("api", "hand_form", "undo", "remove", "after_end", "unknown")


@dataclass(frozen=True)
class Correction:
    """One correction or removal of a hand, as recorded."""

    hand: int
    kind: str  # "corrected" or "removed"
    before: tuple[int, ...]  # each side's hand score
    after: tuple[int, ...] | None  # None: the hand was removed
    at: str
    screen: str


def _is_club_game(db: sqlite_utils.Database, game_id: str) -> bool:
    row = db.execute("select 1 from club_games where game_id = ?", [game_id]).fetchone()
    return row is not None


def _scores(result: HandResult) -> list[int]:
    return [score.total for score in result.scores]


def _inputs(result: HandResult) -> dict[str, Any]:
    hand = result.hand
    return {
        "went_out": hand.went_out,
        "concealed": hand.concealed,
        "sides": json.loads(sides_json(hand)),
    }


def record(
    db: sqlite_utils.Database,
    game_id: str,
    before: HandResult,
    after: HandResult | None,
    screen: str | None,
) -> None:
    """Keep a correction (``after``) or a removal (None) of a club game's hand."""
    if not _is_club_game(db, game_id):
        return
    db["hand_corrections"].insert(
        {
            "game_id": game_id,
            "hand_number": before.number,
            "kind": "removed" if after is None else "corrected",
            "before": json.dumps({"scores": _scores(before), **_inputs(before)}),
            "after": None
            if after is None
            else json.dumps({"scores": _scores(after), **_inputs(after)}),
            "screen": screen if screen in SCREENS else "unknown",
            "at": now(),
        }
    )


def corrections_of(db: sqlite_utils.Database, game_id: str) -> list[Correction]:
    """The game's record, oldest first (empty for a game not of a club, or never corrected)."""
    lines = []
    for row in db.query(
        "select * from hand_corrections where game_id = ? order by rowid", [game_id]
    ):
        after = json.loads(row["after"]) if row["after"] else None
        lines.append(
            Correction(
                hand=row["hand_number"],
                kind=row["kind"],
                before=tuple(json.loads(row["before"])["scores"]),
                after=tuple(after["scores"]) if after else None,
                at=row["at"],
                screen=row["screen"],
            )
        )
    return lines
