"""What the Samba and Bolivia tests share (tests/core/test_samba.py, test_bolivia.py): melds
written short, and a hand of two sides validated and scored in one family."""

from __future__ import annotations

from typing import Any

import pytest

from scorer.core.errors import RuleError
from scorer.core.families import RuleFamily
from scorer.core.hands import Hand, SideHand, SideScore, score_hand, validate_hand
from scorer.core.meld import PlannedMeld, PlannedSequence
from scorer.core.rules import RuleProfile, profile_of

# The other side of most hands: one meld of kings and one of queens (70), holds 30.
QUIET: dict[str, Any] = {"meld_points": 70, "hand_points": 30}


def book_profile(family: RuleFamily) -> RuleProfile:
    """The family's four-player table as the rule book has it."""
    return profile_of(family, family.seatings[0])


def meld(rank: str, naturals: int, jokers: int = 0, twos: int = 0) -> PlannedMeld:
    return PlannedMeld(rank=rank, naturals=naturals, jokers=jokers, twos=twos)


def run(suit: str, first: str, last: str, **wild: int) -> PlannedSequence:
    return PlannedSequence(suit=suit, first=first, last=last, **wild)


def two_sides(
    profile: RuleProfile, us: dict[str, Any], them: dict[str, Any] = QUIET, **hand: Any
) -> tuple[SideScore, ...]:
    """Validate and score a hand of two sides in the profile's family."""
    family = profile.family
    sides = (SideHand(**us, family=family), SideHand(**them, family=family))
    played = Hand(sides=sides, **hand)
    validate_hand(profile, played, 2)
    return score_hand(profile, played)


def assert_refused(
    profile: RuleProfile, us: dict, them: dict, went_out: int | None, field: str, reason: str
) -> None:
    """The hand is refused at ``field``, its reason holding the words ``reason``."""
    with pytest.raises(RuleError) as refused:
        two_sides(profile, us, them, went_out=went_out)
    assert refused.value.field == field
    assert reason in str(refused.value)
