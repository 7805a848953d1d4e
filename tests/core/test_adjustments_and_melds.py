"""Adjustments and melds rank by rank in the engine (issue 22 §2 and §3).

Expected numbers worked out by hand from the rule book: K and 8 to K are 10, 4 to 7 are 5,
aces and twos 20, jokers 50; canastas 500 natural and 300 mixed; going out 100.
"""

from __future__ import annotations

import pytest

from scorer.core.errors import RuleError
from scorer.core.game import Side, make_table, play
from scorer.core.hands import Hand, SideHand, score_hand, validate_hand
from scorer.core.meld import PlannedMeld
from scorer.core.rules import get_profile
from scorer.core.stats import records, summarize

CLASSIC = get_profile("classic")
SMALL = SideHand(meld_points=60, hand_points=20)


def validated(*sides: SideHand, went_out: int | None = None) -> Hand:
    hand = Hand(sides=sides, went_out=went_out)
    validate_hand(CLASSIC, hand, len(sides))
    return hand


def refused_at(*sides: SideHand, went_out: int | None = None) -> str | None:
    with pytest.raises(RuleError) as caught:
        validated(*sides, went_out=went_out)
    return caught.value.field


# --- adjustments ---------------------------------------------------------------------------


def test_an_adjustment_is_part_of_the_hand_score_and_shown_apart():
    fined = SideHand(meld_points=60, hand_points=20, adjustment=-100, adjustment_note="pile")
    scores = score_hand(CLASSIC, validated(fined, SMALL))
    # 60 melded − 20 in hand − 100 adjustment; the other side untouched.
    assert scores[0].adjustment == -100
    assert scores[0].total == -60
    assert scores[0].played == 40
    assert (scores[1].total, scores[1].adjustment) == (40, 0)


def test_an_adjustment_may_be_given_to_a_side_that_melded_nothing():
    scores = score_hand(CLASSIC, validated(SideHand(hand_points=30, adjustment=50), SMALL))
    assert scores[0].total == 20


@pytest.mark.parametrize("value", [-5000, -5, 0, 5, 5000])
def test_adjustments_within_bounds_are_accepted(value):
    validated(SideHand(meld_points=60, adjustment=value), SMALL)


@pytest.mark.parametrize("value", [-5005, 5005, 7, -3, 1.5, True, "10", None])
def test_bad_adjustments_are_refused_at_their_field(value):
    side = SideHand(meld_points=60, adjustment=value)  # type: ignore[arg-type]
    assert refused_at(SMALL, side) == "sides[1].adjustment"


@pytest.mark.parametrize("note", ["x" * 61, "a\x00b", "\u202eevil", 12])
def test_bad_adjustment_notes_are_refused_at_their_field(note):
    side = SideHand(meld_points=60, adjustment=5, adjustment_note=note)  # type: ignore[arg-type]
    assert refused_at(side, SMALL) == "sides[0].adjustment_note"


def test_a_note_of_sixty_characters_is_accepted():
    validated(SideHand(meld_points=60, adjustment=5, adjustment_note="é" * 60), SMALL)


# --- melds rank by rank ----------------------------------------------------------------------


def test_melds_decide_meld_points_and_canastas():
    side = SideHand(
        melds=(
            PlannedMeld("K", 7),  # natural canasta: 70
            PlannedMeld("7", 5, jokers=1, twos=1),  # mixed canasta: 25 + 50 + 20
            PlannedMeld("A", 3),  # 60
        ),
        red_threes=1,
    )
    assert (side.natural_canastas, side.mixed_canastas) == (1, 1)
    scores = score_hand(CLASSIC, validated(side, SMALL, went_out=0))
    assert scores[0].cards == 70 + 95 + 60
    assert scores[0].canastas == 800
    assert scores[0].total == 225 + 800 + 100 + 100


def test_the_worked_example_rank_by_rank_scores_925():
    side = SideHand(melds=(PlannedMeld("K", 7), PlannedMeld("A", 3)), red_threes=2, hand_points=5)
    assert score_hand(CLASSIC, validated(side, SMALL, went_out=0))[0].total == 925


def test_melds_override_what_was_typed_beside_them():
    side = SideHand(meld_points=500, natural_canastas=3, melds=(PlannedMeld("Q", 3),))
    assert (side.meld_points, side.natural_canastas, side.melded(CLASSIC)) == (0, 0, 30)


@pytest.mark.parametrize(
    ("melds", "went_out", "field"),
    [
        ((PlannedMeld("K", 1, jokers=2),), None, "sides[0].melds[0].naturals"),
        ((PlannedMeld("K", 2),), None, "sides[0].melds[0].naturals"),
        ((PlannedMeld("Q", 3), PlannedMeld("K", 4, twos=4)), None, "sides[0].melds[1].twos"),
        ((PlannedMeld("3", 3),), None, "sides[0].melds[0].rank"),
        ((PlannedMeld("red-3", 3),), None, "sides[0].melds[0].rank"),
        ((PlannedMeld("K", 3), PlannedMeld("K", 4)), None, "sides[0].melds[1].rank"),
        ((PlannedMeld("K", 9),), None, "sides[0].melds[0].naturals"),  # 8 kings in 2 packs
        ((PlannedMeld("5", 3, jokers=1),), 0, "sides[0].melds"),  # out, no canasta
    ],
)
def test_each_bad_meld_is_refused_at_its_own_field(melds, went_out, field):
    assert refused_at(SideHand(melds=melds), SMALL, went_out=went_out) == field


def test_black_threes_go_down_with_the_side_going_out():
    melds = (PlannedMeld("K", 7), PlannedMeld("3", 3))
    scores = score_hand(CLASSIC, validated(SideHand(melds=melds), SMALL, went_out=0))
    assert scores[0].cards == 85


def test_jokers_over_both_sides_fit_in_the_packs():
    three = (PlannedMeld("K", 4, jokers=3),)
    assert refused_at(SideHand(melds=three), SideHand(melds=(PlannedMeld("Q", 4, jokers=2),)))
    assert (
        refused_at(SideHand(melds=three), SideHand(melds=(PlannedMeld("Q", 4, jokers=2),)))
        == "sides[1].melds"
    )


def test_kings_over_both_sides_fit_in_the_packs():
    kings = SideHand(melds=(PlannedMeld("K", 5),))
    assert refused_at(kings, kings) == "sides[1].melds[0].naturals"


def test_a_side_with_no_melds_cannot_go_out():
    assert refused_at(SideHand(melds=()), SMALL, went_out=0) == "sides[0].melds"


# --- the club's statistics -------------------------------------------------------------------


def test_club_statistics_count_adjustments_in_totals_but_not_in_best_hand_records():
    table = make_table(CLASSIC, (Side("We", ("Ann", "Bob")), Side("They", ("Cy", "Di"))))
    bonus = SideHand(meld_points=60, adjustment=500, adjustment_note="a correction")
    state = play(
        table,
        [
            Hand(sides=(SideHand(meld_points=100), SMALL)),  # 100 played
            Hand(sides=(bonus, SMALL)),  # 60 played, 560 with the adjustment
        ],
    )
    summary = summarize("g", "2026-12-01", state)
    we = summary.sides[0]
    assert we.points == 660 and we.total == 660
    # The best hand is the one the cards made: hand 1's 100, not hand 2's 560.
    assert (we.best_score, we.best_number) == (100, 1)
    assert records([summary], "2026").best_hand.score == 100
