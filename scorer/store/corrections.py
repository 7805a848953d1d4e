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

from scorer.core.errors import ScorerError
from scorer.core.families import DEFAULT_FAMILY, RuleFamily
from scorer.core.game import HandResult
from scorer.core.limits import check_correction_count
from scorer.store.db import now
from scorer.store.games import side_from_dict, side_to_dict, sides_json

# Where a correction came from: what the record prints (the web layer names them).
SCREENS: tuple[str, ...] = ("api", "hand_form", "undo", "remove", "after_end", "unknown")
# Each kind as stored, and as the API and the exports name it.
KINDS: dict[str, str] = {"corrected": "correction", "removed": "removal"}


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


def _inputs(result: HandResult, family: RuleFamily) -> dict[str, Any]:
    hand = result.hand
    return {
        "went_out": hand.went_out,
        "concealed": hand.concealed,
        # In the game's family's fields: a Modern American hand keeps its canastas by kind.
        "sides": json.loads(sides_json(hand, family)),
    }


def record(
    db: sqlite_utils.Database,
    game_id: str,
    before: HandResult,
    after: HandResult | None,
    screen: str | None,
    family: RuleFamily = DEFAULT_FAMILY,
) -> None:
    """Keep a correction (``after``) or a removal (None) of a club game's hand."""
    if not _is_club_game(db, game_id):
        return
    # A full record refuses the change (the transaction stores nothing): never a silent gap.
    check_correction_count(_count(db, game_id) + 1)
    db["hand_corrections"].insert(
        {
            "game_id": game_id,
            "hand_number": before.number,
            "kind": "removed" if after is None else "corrected",
            "before": json.dumps({"scores": _scores(before), **_inputs(before, family)}),
            "after": None
            if after is None
            else json.dumps({"scores": _scores(after), **_inputs(after, family)}),
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


def _count(db: sqlite_utils.Database, game_id: str) -> int:
    row = db.execute("select count(*) from hand_corrections where game_id = ?", [game_id])
    return int(row.fetchone()[0])


def _hand_json(stored: dict[str, Any], family: RuleFamily) -> dict[str, Any]:
    """A recorded hand as the API shows a hand: its inputs, each side's score's total."""
    sides = []
    for raw, total in zip(stored["sides"], stored["scores"], strict=False):
        try:
            values = side_to_dict(side_from_dict(raw, family), family)
        except (ScorerError, ValueError, TypeError, KeyError):
            values = dict(raw)  # as recorded, should the schema read it no longer
        sides.append({**values, "score": {"total": total}})
    return {"went_out": stored["went_out"], "concealed": stored["concealed"], "sides": sides}


def record_json(
    db: sqlite_utils.Database, game_id: str, family: RuleFamily
) -> list[dict[str, Any]]:
    """The game's record as the API answers it and the exports carry it, oldest first:
    which hand, correction or removal, the hand before and after, when (UTC), which screen."""
    entries = []
    for row in db.query(
        "select * from hand_corrections where game_id = ? order by rowid", [game_id]
    ):
        after = json.loads(row["after"]) if row["after"] else None
        entries.append(
            {
                "hand": row["hand_number"],
                "kind": KINDS.get(row["kind"], row["kind"]),
                "before": _hand_json(json.loads(row["before"]), family),
                "after": None if after is None else _hand_json(after, family),
                "at": row["at"],
                "screen": row["screen"],
            }
        )
    return entries


def restore(db: sqlite_utils.Database, game_id: str, rows: list[dict[str, Any]]) -> None:
    """An imported game's record (rows checked by the import, scorer.web.api_contract), in
    the import's transaction: kept as it was, whether or not the game is a club's now."""
    db["hand_corrections"].insert_all({"game_id": game_id, **row} for row in rows)
