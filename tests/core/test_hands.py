"""Scoring and validating one hand of classic Canasta (docs/rules.md sections 1 and 2).

Every expected number below is worked out by hand from the rule book, never read from the
engine: card values 50/20/10/5, canastas 500/300, red threes 100 each or 800 for four,
going out 100 (concealed 200 in total), cards left in hand subtracted.
"""

from __future__ import annotations

import re

import pytest

from scorer.core.errors import RuleError
from scorer.core.hands import CardCounts, Hand, SideHand, SideScore, score_hand, validate_hand
from scorer.core.rules import get_profile

CLASSIC = get_profile("classic")
NOTHING = SideHand()
# A side that melded a little and holds nothing: the opponents in most cases below.
SMALL_MELD = SideHand(meld_points=60)


def scored(*sides: SideHand, went_out: int | None = None, concealed: bool = False):
    """Validate a classic hand, then score it (a hand is only scored once it is valid)."""
    hand = Hand(sides=sides, went_out=went_out, concealed=concealed)
    validate_hand(CLASSIC, hand, len(sides))
    return score_hand(CLASSIC, hand)


def refusal(*sides: SideHand, went_out=None, concealed=False, expected_sides=None) -> RuleError:
    """The RuleError a classic hand is refused with."""
    hand = Hand(sides=sides, went_out=went_out, concealed=concealed)
    with pytest.raises(RuleError) as caught:
        validate_hand(CLASSIC, hand, expected_sides or len(sides))
    return caught.value


def assert_plain_words(reason: str) -> None:
    """A reason a player can read: a few words, no code, no unfilled placeholder."""
    assert len(reason.split()) >= 3, reason
    assert re.fullmatch(r"[A-Za-z0-9 ,;:()'\-]+", reason), reason
    assert "_" not in reason and "{" not in reason


# --- card values --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("cards", "points"),
    [
        # A meld is three cards at least: two naturals of a group and a joker.
        pytest.param(CardCounts(jokers=1, five=2), 50 + 10, id="joker-50"),
        pytest.param(CardCounts(twenty=3), 60, id="ace-or-two-20"),
        pytest.param(CardCounts(ten=3), 30, id="king-to-eight-10"),
        pytest.param(CardCounts(five=3), 15, id="seven-to-four-and-black-three-5"),
        pytest.param(CardCounts(jokers=2, twenty=3, ten=4, five=5), 100 + 60 + 40 + 25, id="mix"),
        pytest.param(CardCounts(), 0, id="no-card-0"),
    ],
)
def test_each_card_counts_its_value_when_melded(cards, points):
    ours, _ = scored(SideHand(meld_cards=cards), SMALL_MELD)
    assert ours.cards == points


@pytest.mark.parametrize(
    ("cards", "points"),
    [
        pytest.param(CardCounts(jokers=1), 50, id="joker-50"),
        pytest.param(CardCounts(twenty=1), 20, id="ace-or-two-20"),
        pytest.param(CardCounts(ten=1), 10, id="king-to-eight-10"),
        pytest.param(CardCounts(five=1), 5, id="seven-to-four-and-black-three-5"),
        pytest.param(CardCounts(jokers=1, twenty=1, ten=1, five=1), 85, id="one-of-each-85"),
    ],
)
def test_each_card_left_in_hand_is_subtracted_at_its_value(cards, points):
    ours, _ = scored(SideHand(meld_points=60, hand_cards=cards), SMALL_MELD)
    assert ours.hand == -points
    assert ours.total == 60 - points


def test_counted_cards_decide_the_points_over_typed_points():
    # The README's choice: when counts are given, they decide.
    ours, _ = scored(
        SideHand(meld_points=0, meld_cards=CardCounts(ten=3), hand_cards=CardCounts(five=2)),
        SMALL_MELD,
    )
    assert (ours.cards, ours.hand) == (30, -10)


# --- bonuses ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("natural", "mixed", "bonus"),
    [
        pytest.param(1, 0, 500, id="natural-canasta-500"),
        pytest.param(0, 1, 300, id="mixed-canasta-300"),
        pytest.param(2, 0, 1000, id="two-natural-1000"),
        pytest.param(1, 1, 800, id="natural-and-mixed-800"),
        pytest.param(0, 3, 900, id="three-mixed-900"),
        pytest.param(0, 0, 0, id="no-canasta-0"),
    ],
)
def test_canasta_bonuses_add_to_the_card_values(natural, mixed, bonus):
    ours, _ = scored(
        SideHand(meld_points=400, natural_canastas=natural, mixed_canastas=mixed), SMALL_MELD
    )
    assert ours.canastas == bonus
    assert ours.cards == 400  # the cards inside a canasta still count their values
    assert ours.total == 400 + bonus


@pytest.mark.parametrize(
    ("red_threes", "points"),
    [
        pytest.param(0, 0, id="none-0"),
        pytest.param(1, 100, id="one-100"),
        pytest.param(2, 200, id="two-200"),
        pytest.param(3, 300, id="three-300"),
        pytest.param(4, 800, id="all-four-800"),
    ],
)
def test_red_threes_score_100_each_for_a_side_that_melded(red_threes, points):
    ours, _ = scored(SideHand(meld_points=60, red_threes=red_threes), SMALL_MELD)
    assert ours.red_threes == points


def test_four_red_threes_score_800():
    ours, _ = scored(SideHand(meld_points=90, red_threes=4), SMALL_MELD)
    assert ours.red_threes == 800
    assert ours.total == 90 + 800


@pytest.mark.parametrize(
    ("ours_count", "theirs_count", "ours_points", "theirs_points"),
    [
        pytest.param(2, 2, 200, 200, id="two-and-two-not-800"),
        pytest.param(3, 1, 300, 100, id="three-and-one"),
        pytest.param(1, 3, 100, 300, id="one-and-three"),
        pytest.param(0, 4, 0, 800, id="all-four-on-one-side"),
    ],
)
def test_red_threes_split_between_sides_score_per_side(
    ours_count, theirs_count, ours_points, theirs_points
):
    ours, theirs = scored(
        SideHand(meld_points=60, red_threes=ours_count),
        SideHand(meld_points=60, red_threes=theirs_count),
    )
    assert (ours.red_threes, theirs.red_threes) == (ours_points, theirs_points)


@pytest.mark.parametrize(
    ("red_threes", "points"),
    [
        pytest.param(1, -100, id="one-minus-100"),
        pytest.param(2, -200, id="two-minus-200"),
        pytest.param(3, -300, id="three-minus-300"),
        pytest.param(4, -800, id="all-four-minus-800"),
    ],
)
def test_red_threes_count_against_a_side_that_melded_nothing(red_threes, points):
    ours, _ = scored(SideHand(red_threes=red_threes, hand_points=40), SMALL_MELD)
    assert ours.red_threes == points
    assert ours.total == points - 40


def test_red_threes_count_against_a_side_whose_counted_melds_are_empty():
    ours, _ = scored(SideHand(red_threes=2, meld_cards=CardCounts()), SMALL_MELD)
    assert ours.red_threes == -200


def test_red_threes_stay_positive_for_melds_without_a_canasta():
    ours, _ = scored(SideHand(meld_points=50, red_threes=3, hand_points=20), SMALL_MELD)
    assert ours.canastas == 0
    assert ours.red_threes == 300
    assert ours.total == 50 + 300 - 20


@pytest.mark.parametrize(
    ("concealed", "bonus"),
    [pytest.param(False, 100, id="going-out-100"), pytest.param(True, 200, id="concealed-200")],
)
def test_going_out_bonus_goes_to_the_side_that_went_out_only(concealed, bonus):
    ours, theirs = scored(
        SideHand(meld_points=120, natural_canastas=1),
        SideHand(meld_points=60, hand_points=35),
        went_out=0,
        concealed=concealed,
    )
    assert ours.going_out == bonus
    assert theirs.going_out == 0


def test_concealed_going_out_scores_200_in_total():
    ours, _ = scored(
        SideHand(meld_points=150, mixed_canastas=1), SMALL_MELD, went_out=0, concealed=True
    )
    assert ours == SideScore(cards=150, canastas=300, red_threes=0, going_out=200, hand=0)
    assert ours.total == 150 + 300 + 200  # 200 in total, not 100 + 200


def test_the_second_side_can_be_the_one_that_went_out():
    ours, theirs = scored(SMALL_MELD, SideHand(meld_points=100, natural_canastas=1), went_out=1)
    assert (ours.going_out, theirs.going_out) == (0, 100)
    assert theirs.total == 100 + 500 + 100


# --- whole hands --------------------------------------------------------------------------


def test_worked_example_scores_925():
    # Seven kings (70) in a natural canasta (500), three aces (60), two red threes (200),
    # went out (100), partner holds one 7 (-5): 70 + 500 + 60 + 200 + 100 - 5 = 925.
    ours, theirs = scored(
        SideHand(
            meld_cards=CardCounts(ten=7, twenty=3),
            natural_canastas=1,
            red_threes=2,
            hand_cards=CardCounts(five=1),
        ),
        SideHand(meld_points=75, hand_points=40),
        went_out=0,
    )
    assert ours == SideScore(cards=130, canastas=500, red_threes=200, going_out=100, hand=-5)
    assert ours.total == 925
    assert theirs.total == 75 - 40


def test_worked_example_scores_925_from_points_too():
    ours, _ = scored(
        SideHand(meld_points=130, natural_canastas=1, red_threes=2, hand_points=5),
        SMALL_MELD,
        went_out=0,
    )
    assert ours.total == 925


def test_stock_exhausted_gives_no_going_out_bonus_and_both_sides_subtract_their_hands():
    ours, theirs = scored(
        SideHand(meld_points=200, natural_canastas=1, hand_points=45),
        SideHand(meld_points=150, mixed_canastas=1, red_threes=1, hand_points=80),
        went_out=None,
    )
    assert ours == SideScore(cards=200, canastas=500, red_threes=0, going_out=0, hand=-45)
    assert theirs == SideScore(cards=150, canastas=300, red_threes=100, going_out=0, hand=-80)
    assert (ours.total, theirs.total) == (655, 470)


def test_a_hand_score_can_be_negative():
    _, theirs = scored(
        SideHand(meld_points=100, natural_canastas=1),
        SideHand(red_threes=1, hand_points=185),
        went_out=0,
    )
    assert theirs.total == -100 - 185


@pytest.mark.parametrize(
    ("side", "total"),
    [
        pytest.param(SideHand(), 0, id="empty-side-0"),
        pytest.param(SideHand(meld_points=55, hand_points=55), 0, id="meld-equals-hand-0"),
        pytest.param(SideHand(meld_points=80, red_threes=1, hand_points=15), 165, id="165"),
        pytest.param(
            SideHand(meld_points=300, natural_canastas=2, mixed_canastas=1), 1600, id="1600"
        ),
    ],
)
def test_side_total_is_cards_plus_bonuses_minus_hand(side, total):
    ours, _ = scored(side, SMALL_MELD)
    assert ours.total == total


# --- refusals (docs/rules.md section 2) --------------------------------------------------------


@pytest.mark.parametrize(
    ("sides", "went_out", "concealed", "field"),
    [
        # Rule 1: points are whole, >= 0, multiples of 5; counts whole and >= 0.
        pytest.param((SideHand(meld_points=-5), NOTHING), None, False, "sides[0].meld_points",
                     id="r1-negative-meld-points"),
        pytest.param((NOTHING, SideHand(meld_points=62)), None, False, "sides[1].meld_points",
                     id="r1-meld-points-not-multiple-of-5"),
        pytest.param((SideHand(meld_points=60.0), NOTHING), None, False, "sides[0].meld_points",
                     id="r1-meld-points-not-whole"),
        pytest.param((SideHand(meld_points=True), NOTHING), None, False, "sides[0].meld_points",
                     id="r1-meld-points-boolean"),
        pytest.param((SideHand(hand_points=-10), NOTHING), None, False, "sides[0].hand_points",
                     id="r1-negative-hand-points"),
        pytest.param((NOTHING, SideHand(hand_points=7)), None, False, "sides[1].hand_points",
                     id="r1-hand-points-not-multiple-of-5"),
        pytest.param((SideHand(meld_points=60, natural_canastas=-1), NOTHING), None, False,
                     "sides[0].natural_canastas", id="r1-negative-natural-canastas"),
        pytest.param((NOTHING, SideHand(meld_points=60, mixed_canastas=1.5)), None, False,
                     "sides[1].mixed_canastas", id="r1-mixed-canastas-not-whole"),
        pytest.param((SideHand(red_threes=-1), NOTHING), None, False, "sides[0].red_threes",
                     id="r1-negative-red-threes"),
        pytest.param((SideHand(meld_cards=CardCounts(jokers=-1)), NOTHING), None, False,
                     "sides[0].meld_cards.jokers", id="r1-negative-count"),
        pytest.param((NOTHING, SideHand(hand_cards=CardCounts(five=1.0))), None, False,
                     "sides[1].hand_cards.five", id="r1-count-not-whole"),
        pytest.param((NOTHING, SideHand(meld_cards=CardCounts(ten=1.5))), None, False,
                     "sides[1].meld_cards.ten", id="r1-count-a-fraction"),
        # Rule 2: red threes over all sides <= 2 x packs (4 with two packs).
        pytest.param((SideHand(meld_points=60, red_threes=3), SideHand(red_threes=2)), None, False,
                     "sides[1].red_threes", id="r2-five-red-threes-over-two-sides"),
        pytest.param((SideHand(meld_points=60, red_threes=5), NOTHING), None, False,
                     "sides[0].red_threes", id="r2-five-red-threes-on-one-side"),
        # Rule 3: one side at most went out; concealed only for the side that went out.
        pytest.param((SMALL_MELD, SMALL_MELD), None, True, "concealed",
                     id="r3-concealed-without-anyone-out"),
        pytest.param((SMALL_MELD, SMALL_MELD), 2, False, "went_out", id="r3-no-such-side"),
        pytest.param((SMALL_MELD, SMALL_MELD), -1, False, "went_out", id="r3-negative-side"),
        pytest.param((SMALL_MELD, SMALL_MELD), [0, 1], False, "went_out",
                     id="r3-two-sides-went-out"),
        pytest.param((SMALL_MELD, SMALL_MELD), True, False, "went_out", id="r3-boolean-side"),
        # Rule 4: the side that went out has the canastas needed (1 in classic).
        pytest.param((SideHand(meld_points=200), SMALL_MELD), 0, False,
                     "sides[0].natural_canastas", id="r4-out-without-canasta"),
        pytest.param((SMALL_MELD, SideHand(meld_points=200)), 1, True,
                     "sides[1].natural_canastas", id="r4-concealed-without-canasta"),
        # Rule 5: a side with no melds has no canastas and cannot have gone out.
        pytest.param((SideHand(natural_canastas=1), SMALL_MELD), None, False,
                     "sides[0].meld_points", id="r5-canasta-without-melds"),
        pytest.param((SMALL_MELD, SideHand(mixed_canastas=1, meld_cards=CardCounts())), None,
                     False, "sides[1].meld_cards", id="r5-canasta-without-counted-melds"),
        pytest.param((NOTHING, SMALL_MELD), 0, False, "sides[0].meld_points",
                     id="r5-out-without-melds"),
        pytest.param((SMALL_MELD, SideHand(meld_cards=CardCounts())), 1, False,
                     "sides[1].meld_cards", id="r5-out-without-counted-melds"),
        # Rule 6: canastas need their cards (35 a natural one, 50 a mixed one).
        pytest.param((SideHand(meld_points=30, natural_canastas=1), NOTHING), None, False,
                     "sides[0].meld_points", id="r6-natural-canasta-under-35"),
        pytest.param((NOTHING, SideHand(meld_points=45, mixed_canastas=1)), None, False,
                     "sides[1].meld_points", id="r6-mixed-canasta-under-50"),
        pytest.param((SideHand(meld_points=80, natural_canastas=1, mixed_canastas=1), NOTHING),
                     None, False, "sides[0].meld_points", id="r6-both-under-85"),
        pytest.param((SideHand(meld_cards=CardCounts(ten=3), natural_canastas=1), NOTHING),
                     None, False, "sides[0].meld_cards", id="r6-counted-cards-too-few"),
        # Rule 7: counted cards fit in the packs (2 packs: 4 jokers, 16, 48, 36).
        pytest.param((SideHand(meld_cards=CardCounts(jokers=5)), NOTHING), None, False,
                     "sides[0].meld_cards.jokers", id="r7-five-jokers"),
        pytest.param((SideHand(meld_cards=CardCounts(jokers=3, ten=6)),
                      SideHand(hand_cards=CardCounts(jokers=2))), None, False,
                     "sides[1].hand_cards.jokers", id="r7-jokers-over-both-sides"),
        pytest.param((SideHand(meld_cards=CardCounts(twenty=6), hand_cards=CardCounts(twenty=11)),
                      NOTHING), None, False, "sides[0].hand_cards.twenty",
                     id="r7-seventeen-aces-and-twos-in-melds-and-hand"),
        pytest.param((SideHand(hand_cards=CardCounts(ten=40)),
                      SideHand(meld_cards=CardCounts(ten=9))), None, False,
                     "sides[1].meld_cards.ten", id="r7-forty-nine-tens"),
        pytest.param((SideHand(hand_cards=CardCounts(five=37)), NOTHING), None, False,
                     "sides[0].hand_cards.five", id="r7-thirty-seven-fives"),
        # Rule 8: all points of the hand fit in the packs' card value (1 180 with two packs).
        pytest.param((SideHand(meld_points=700), SideHand(meld_points=485)), None, False,
                     "sides[1].meld_points", id="r8-melds-over-1180"),
        pytest.param((SideHand(meld_points=600, hand_points=300), SideHand(hand_points=285)),
                     None, False, "sides[1].hand_points", id="r8-hands-over-1180"),
        pytest.param((SideHand(meld_points=1185), NOTHING), None, False, "sides[0].meld_points",
                     id="r8-one-side-over-1180"),
    ],
)  # fmt: skip
def test_a_hand_that_breaks_a_rule_is_refused_naming_the_field(sides, went_out, concealed, field):
    error = refusal(*sides, went_out=went_out, concealed=concealed)
    assert error.field == field
    assert_plain_words(error.reason)


def test_a_hand_needs_one_entry_per_side():
    error = refusal(SMALL_MELD, SMALL_MELD, SMALL_MELD, expected_sides=2)
    assert error.field == "sides"
    assert "2" in error.reason
    assert_plain_words(error.reason)


@pytest.mark.parametrize(
    ("sides", "went_out", "concealed"),
    [
        pytest.param((SideHand(meld_points=60, red_threes=2), SideHand(red_threes=2)), None,
                     False, id="r2-exactly-four-red-threes"),
        pytest.param((SideHand(meld_points=35, natural_canastas=1), NOTHING), 0, False,
                     id="r4-r6-cheapest-natural-canasta-35-and-out"),
        pytest.param((SideHand(meld_points=50, mixed_canastas=1), NOTHING), 0, True,
                     id="r6-cheapest-mixed-canasta-50-concealed"),
        pytest.param((SideHand(meld_points=85, natural_canastas=1, mixed_canastas=1), NOTHING),
                     None, False, id="r6-both-at-85"),
        pytest.param((SideHand(meld_cards=CardCounts(jokers=2, twenty=8, ten=24, five=18)),
                      SideHand(hand_cards=CardCounts(jokers=2, twenty=8, ten=24, five=18))),
                     None, False, id="r7-r8-every-card-of-both-packs"),
        pytest.param((SideHand(meld_points=700), SideHand(meld_points=400, hand_points=80)), None,
                     False, id="r8-exactly-1180"),
        pytest.param((SideHand(meld_points=0, hand_points=0), SideHand(hand_points=0)), None,
                     False, id="empty-hand"),
    ],
)  # fmt: skip
def test_a_hand_at_the_limits_of_the_rules_is_accepted(sides, went_out, concealed):
    validate_hand(CLASSIC, Hand(sides=sides, went_out=went_out, concealed=concealed), 2)


def test_a_refusal_keeps_its_template_and_params_for_translation():
    error = refusal(SideHand(meld_points=60, red_threes=5), NOTHING)
    assert error.params == {"limit": 4, "packs": 2}
    assert error.template.format(**error.params) == error.reason
    assert "4" in error.reason
