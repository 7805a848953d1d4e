"""A hand's inputs as stored in SQLite (and as the API shows them): only the inputs."""

from __future__ import annotations

import json
from typing import Any

from scorer.core.hands import CardCounts, Hand, SideHand
from scorer.store.stamps import now


def hand_from_row(row: dict[str, Any]) -> Hand:
    return Hand(
        sides=tuple(side_from_dict(side) for side in json.loads(row["sides"])),
        went_out=row["went_out"],
        concealed=bool(row["concealed"]),
    )


def side_from_dict(data: dict[str, Any]) -> SideHand:
    """A side's stored inputs back as a SideHand (counts stay counts)."""
    meld_cards = data.get("meld_cards")
    hand_cards = data.get("hand_cards")
    return SideHand(
        meld_points=data.get("meld_points", 0),
        natural_canastas=data.get("natural_canastas", 0),
        mixed_canastas=data.get("mixed_canastas", 0),
        red_threes=data.get("red_threes", 0),
        hand_points=data.get("hand_points", 0),
        meld_cards=CardCounts(**meld_cards) if meld_cards is not None else None,
        hand_cards=CardCounts(**hand_cards) if hand_cards is not None else None,
    )


def side_to_dict(side: SideHand) -> dict[str, Any]:
    """A side's inputs as stored and as the API shows them."""
    data: dict[str, Any] = {
        "meld_points": side.meld_points,
        "natural_canastas": side.natural_canastas,
        "mixed_canastas": side.mixed_canastas,
        "red_threes": side.red_threes,
        "hand_points": side.hand_points,
    }
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
