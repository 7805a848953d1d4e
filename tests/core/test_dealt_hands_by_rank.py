"""Hands dealt from real shuffled packs (tests/deal.py), entered meld by meld, rank by rank.

Every hand a real table can play is accepted and scored as its cards say when each side's
melds are given rank by rank (issue 22 §3): zero false refusals, and the canastas the melds
hold are the ones the table laid.
"""

from __future__ import annotations

import pytest
from deal import BLACK_THREE, WILD, EndOfHand, Meld, expected_scores, points
from hypothesis import given
from test_dealt_hands import CONFIRMED, DEALT, Deal, deals

from scorer.core.game import add_hand, check_hand
from scorer.core.hands import Hand, SideHand
from scorer.core.meld import PlannedMeld

# Hundreds of shuffled packs a test: `make test` runs them, `make test-fast` not.
pytestmark = pytest.mark.slow


def planned(meld: Meld) -> PlannedMeld:
    """One of deal.py's melds as a table enters it: rank, naturals, jokers, twos."""
    return PlannedMeld(
        rank="3" if meld.rank == BLACK_THREE else meld.rank,
        naturals=sum(card not in WILD for card in meld.cards),
        jokers=meld.cards.count("joker"),
        twos=meld.cards.count("2"),
    )


def ranked_hand(end: EndOfHand) -> Hand:
    """The hand with every side's melds rank by rank, and the points left in hand."""
    sides = tuple(
        SideHand(
            melds=tuple(planned(meld) for meld in side.melds),
            red_threes=side.red_threes,
            hand_points=points(side.held),
        )
        for side in end.sides
    )
    return Hand(sides, end.went_out, end.concealed)


@DEALT
@given(deals())
def test_every_real_hand_entered_rank_by_rank_is_accepted_and_scored(deal: Deal) -> None:
    hand = ranked_hand(deal.end)
    for side, end in zip(hand.sides, deal.end.sides, strict=True):
        assert side.natural_canastas == sum(meld.is_natural_canasta for meld in end.melds)
        assert side.mixed_canastas == sum(meld.is_mixed_canasta for meld in end.melds)
    found = check_hand(deal.state, hand, CONFIRMED)
    assert [item.field for item in found] == [f"sides[{i}].melds" for i in deal.end.irregular]
    after = add_hand(deal.state, hand, confirmed=CONFIRMED)
    scores = tuple(score.total for score in after.results[-1].scores)
    assert scores == expected_scores(deal.book, deal.end)
