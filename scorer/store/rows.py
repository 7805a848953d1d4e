"""A hand's inputs as stored in SQLite (and as the API shows them): only the inputs."""

from __future__ import annotations

import json
from typing import Any

from scorer.core.hands import CardCounts, Hand, SideHand
from scorer.core.meld import PlannedMeld
from scorer.store.stamps import now


def hand_from_row(row: dict[str, Any]) -> Hand:
    return Hand(
        sides=tuple(side_from_dict(side) for side in json.loads(row["sides"])),
        went_out=row["went_out"],
        concealed=bool(row["concealed"]),
    )


def side_from_dict(data: dict[str, Any]) -> SideHand:
    """A side's stored inputs back as a SideHand (counts stay counts).

    A side stored before adjustments and melds rank by rank existed has neither: 0 and none.
    """
    meld_cards = data.get("meld_cards")
    hand_cards = data.get("hand_cards")
    melds = data.get("melds")
    return SideHand(
        meld_points=data.get("meld_points", 0),
        natural_canastas=data.get("natural_canastas", 0),
        mixed_canastas=data.get("mixed_canastas", 0),
        red_threes=data.get("red_threes", 0),
        hand_points=data.get("hand_points", 0),
        meld_cards=CardCounts(**meld_cards) if meld_cards is not None else None,
        hand_cards=CardCounts(**hand_cards) if hand_cards is not None else None,
        adjustment=data.get("adjustment", 0),
        adjustment_note=data.get("adjustment_note", ""),
        melds=None if melds is None else tuple(PlannedMeld(**meld) for meld in melds),
    )


def side_to_dict(side: SideHand) -> dict[str, Any]:
    """A side's inputs as stored and as the API shows them.

    Melds given rank by rank replace the meld points and canasta counts (they decide them),
    so a hand read back can be sent back as it is. An adjustment is written only when made.
    """
    data: dict[str, Any]
    if side.melds is not None:
        data = {"melds": [dict(vars(meld)) for meld in side.melds]}
    else:
        data = {
            "meld_points": side.meld_points,
            "natural_canastas": side.natural_canastas,
            "mixed_canastas": side.mixed_canastas,
        }
    data["red_threes"] = side.red_threes
    data["hand_points"] = side.hand_points
    if side.adjustment or side.adjustment_note:
        data["adjustment"] = side.adjustment
        data["adjustment_note"] = side.adjustment_note
    # vars(), not dataclasses.asdict: the counts are flat, and a long game has thousands.
    if side.meld_cards is not None:
        data["meld_cards"] = dict(vars(side.meld_cards))
    if side.hand_cards is not None:
        data["hand_cards"] = dict(vars(side.hand_cards))
    return data


def sides_json(hand: Hand) -> str:
    return json.dumps([side_to_dict(side) for side in hand.sides])


def hand_row(game_id: str, number: int, hand: Hand) -> dict[str, Any]:
    """The row of hand `number` (from 1) of a game."""
    return {
        "game_id": game_id,
        "number": number,
        "went_out": hand.went_out,
        "concealed": int(hand.concealed),
        "sides": sides_json(hand),
        "created_at": now(),
    }
