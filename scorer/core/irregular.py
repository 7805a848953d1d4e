"""Hands that are irregular but possible (docs/rules.md §2b): ask the table, then record.

The rules of §2 refuse what real cards cannot produce. What follows is different: a real
table can play it by mistake, so the scorer only asks, and records the hand once the table
confirms. Hints go further still: they are said, never asked.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from scorer.core.errors import N_, RuleError
from scorer.core.hands import Hand, meld_field
from scorer.core.rules import RuleProfile

OPENING_MINIMUM = "opening_minimum"
# Every kind of irregularity a table may confirm (the rules of §2 are never confirmable).
CONFIRMABLE: frozenset[str] = frozenset({OPENING_MINIMUM})
NOTHING_IN_HAND = "nothing_in_hand"


@dataclass(frozen=True)
class Irregularity:
    """One thing in a hand the table must confirm: its kind, the field and a plain message."""

    kind: str
    field: str
    template: str
    params: dict[str, Any] = field(default_factory=dict, hash=False, compare=True)

    @property
    def reason(self) -> str:
        return self.template.format(**self.params)


# A hint has the same parts; it is shown, never asked.
Hint = Irregularity


class NeedsConfirmation(RuleError):
    """A hand the table must confirm before it is recorded; ``confirm`` names the item."""

    def __init__(self, item: Irregularity) -> None:
        super().__init__(item.field, item.template, **item.params)
        self.confirm = item.kind
        self.item = item


def irregularities(
    profile: RuleProfile, minimums: Sequence[int], hand: Hand
) -> tuple[Irregularity, ...]:
    """What looks irregular in a valid hand, given each side's opening minimum for it.

    A side melded below its minimum unless it went out concealed (which waives the minimum).
    A side with no melds did not open: nothing irregular about it.
    """
    found = []
    for i, (side, minimum) in enumerate(zip(hand.sides, minimums, strict=True)):
        melded = side.melded(profile)
        concealed = hand.concealed and hand.went_out == i
        if 0 < melded < minimum and not concealed:
            found.append(
                Irregularity(
                    OPENING_MINIMUM,
                    meld_field(side, f"sides[{i}]"),
                    N_("melds of {melded} are below this side's opening minimum of {minimum}"),
                    {"melded": melded, "minimum": minimum},
                )
            )
    return tuple(found)


def hints(profile: RuleProfile, hand: Hand) -> tuple[Hint, ...]:
    """Plain hints, never blocking: a side that did not go out with nothing left in hand."""
    found = []
    for i, side in enumerate(hand.sides):
        if hand.went_out != i and side.left_in_hand(profile) == 0:
            name = "hand_cards" if side.hand_cards is not None else "hand_points"
            found.append(
                Hint(
                    NOTHING_IN_HAND,
                    f"sides[{i}].{name}",
                    N_(
                        "nobody on this side went out, so each of its players still holds a"
                        " card worth 5 or more"
                    ),
                )
            )
    return tuple(found)


def ask(found: Sequence[Irregularity], confirmed: frozenset[str] | set[str]) -> None:
    """NeedsConfirmation for the first item the table has not confirmed yet."""
    for item in found:
        if item.kind not in confirmed:
            raise NeedsConfirmation(item)
