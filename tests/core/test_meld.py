"""The opening-meld checker's pure core: points, boundaries and every illegal meld."""

from __future__ import annotations

import pytest

from scorer.core.errors import RuleError
from scorer.core.meld import (
    REASONS,
    MeldOptions,
    PlannedMeld,
    check_opening,
    parse_minimum,
    planned_meld,
)
from scorer.core.rules import get_profile

M = PlannedMeld
GOING_OUT = MeldOptions(going_out=True)
HOUSE = MeldOptions(wild_never_outnumber_naturals=True)


@pytest.mark.parametrize(
    ("melds", "points"),
    [
        ([M("K", 3, 0, 1)], 50),  # 3 x 10 + a two
        ([M("A", 3)], 60),
        ([M("4", 2, 1)], 60),  # 2 x 5 + a joker
        ([M("7", 3), M("8", 3)], 45),
        ([M("Q", 2, 1, 2)], 110),  # 20 + 50 + 40: three wild cards, the most allowed
        ([M("10", 7)], 70),  # a canasta: its cards only, never its bonus
        ([M("3", 4)], 0),  # black threes without going out are refused: nothing counts
        ([], 0),
    ],
)
def test_points_are_card_values_only(melds: list[PlannedMeld], points: int) -> None:
    assert check_opening(50, melds).points == points


def test_the_familys_card_values_are_used() -> None:
    family = get_profile(None).family
    values = family.card_values
    check = check_opening(0, [M("A", 2, 1, 1), M("5", 3)], family=family)
    assert check.points == 2 * values.twenty + values.jokers + values.twenty + 3 * values.five


@pytest.mark.parametrize(
    ("minimum", "melds", "points", "enough", "short"),
    [
        (90, [M("K", 3, 0, 1), M("9", 3, 0, 0), M("5", 3)], 95, True, 0),
        (90, [M("K", 3, 0, 1), M("8", 2, 0, 1)], 90, True, 0),  # exactly the minimum
        (90, [M("K", 3, 0, 1), M("5", 3)], 65, False, 25),
        (90, [M("K", 4, 0, 1), M("4", 3)], 75, False, 15),
        (90, [M("K", 3, 0, 1), M("9", 2, 0, 0), M("8", 3)], 80, False, 10),
        (90, [M("K", 3, 0, 1), M("J", 3, 0, 0), M("4", 1)], 80, False, 10),  # 4 refused
        (50, [M("A", 3, 0, 0)], 60, True, 0),
        (120, [M("A", 3, 1, 0)], 110, False, 10),
        (0, [], 0, True, 0),
    ],
)
def test_points_against_the_minimum(
    minimum: int, melds: list[PlannedMeld], points: int, enough: bool, short: int
) -> None:
    check = check_opening(minimum, melds)
    assert (check.points, check.minimum, check.enough, check.short) == (
        points,
        minimum,
        enough,
        short,
    )


def test_85_against_90_is_5_short_and_90_is_enough() -> None:
    eighty_five = check_opening(90, [M("K", 3, 0, 1), M("7", 3), M("4", 4)])  # 50 + 15 + 20
    assert eighty_five.points == 85
    assert not eighty_five.enough and eighty_five.short == 5
    ninety = check_opening(90, [M("K", 3, 0, 1), M("8", 4)])  # 50 + 40
    assert ninety.points == 90 and ninety.enough and ninety.short == 0


def test_a_negative_totals_minimum_is_15_and_three_fives_reach_it() -> None:
    minimum = get_profile(None).opening_minimum(-35)
    assert minimum == 15
    assert check_opening(minimum, [M("4", 3)]).enough
    assert check_opening(minimum, [M("4", 2)]).short == 15  # two cards: no meld at all


@pytest.mark.parametrize(
    ("meld", "options", "codes", "fields"),
    [
        (M("K", 2), None, ["too-few-cards"], ["naturals"]),
        (M("K", 0, 2, 1), None, ["too-few-naturals"], ["naturals"]),  # all wild
        (M("K", 1, 1, 0), None, ["too-few-cards", "too-few-naturals"], ["naturals", "naturals"]),
        (M("K", 1, 1, 1), None, ["too-few-naturals"], ["naturals"]),
        (M("K", 3, 2, 2), None, ["too-many-wild"], ["jokers"]),
        (M("K", 5, 0, 4), None, ["too-many-wild"], ["twos"]),
        (M("K", 0, 0, 0), None, ["too-few-cards", "too-few-naturals"], ["naturals", "naturals"]),
        (M("K", 2, 1, 2), HOUSE, ["wild-outnumber"], ["jokers"]),
        (M("K", 2, 0, 3), HOUSE, ["wild-outnumber"], ["twos"]),
        (M("red-3", 3), None, ["red-three"], ["rank"]),
        (M("red-3", 3), GOING_OUT, ["red-three"], ["rank"]),
        (M("3", 3), None, ["black-three-not-going-out"], ["rank"]),
        (M("3", 2), GOING_OUT, ["black-three-count"], ["naturals"]),
        (M("3", 5), GOING_OUT, ["black-three-count"], ["naturals"]),
        (M("3", 3, 0, 1), GOING_OUT, ["black-three-wild"], ["twos"]),
        (
            M("3", 2, 1),
            GOING_OUT,
            ["black-three-count", "black-three-wild"],
            ["naturals", "jokers"],
        ),
    ],
)
def test_every_illegal_meld_is_refused_with_its_reason(
    meld: PlannedMeld, options: MeldOptions | None, codes: list[str], fields: list[str]
) -> None:
    check = check_opening(50, [M("A", 3), meld], options)
    assert [p.code for p in check.problems] == codes
    assert [p.field for p in check.problems] == [f"melds[1].{f}" for f in fields]
    assert all(p.meld == 1 for p in check.problems)
    assert all(p.reason == REASONS[p.code] for p in check.problems)
    # The refused meld counts for nothing; the legal one still does.
    assert check.counted == (True, False)
    assert check.points == 60


@pytest.mark.parametrize(
    "meld",
    [M("K", 2, 1, 0), M("4", 2, 0, 1), M("A", 4, 1, 2), M("9", 3, 0, 3), M("Q", 7, 0, 0)],
)
def test_legal_melds_have_no_problem(meld: PlannedMeld) -> None:
    assert check_opening(50, [meld]).problems == ()


def test_the_house_rule_lets_wild_cards_equal_naturals_but_not_outnumber_them() -> None:
    assert check_opening(50, [M("K", 2, 1, 1)], HOUSE).problems == ()  # two and two
    assert check_opening(50, [M("K", 3, 2, 1)], HOUSE).problems == ()
    refused = check_opening(50, [M("K", 2, 2, 1)], HOUSE)
    assert [p.code for p in refused.problems] == ["wild-outnumber"]
    # Without the house rule, the classic rules take two naturals and three wild cards.
    assert check_opening(50, [M("K", 2, 2, 1)]).problems == ()
    assert check_opening(50, [M("K", 2, 2, 1)]).points == 140


@pytest.mark.parametrize("naturals", [3, 4])
def test_black_threes_count_when_going_out(naturals: int) -> None:
    check = check_opening(50, [M("A", 3), M("3", naturals)], GOING_OUT)
    assert check.problems == ()
    assert check.points == 60 + 5 * naturals


def test_the_discard_piles_top_card_counts_as_one_of_the_naturals() -> None:
    # The top king with two kings from the hand, plus a joker: 30 + 50.
    check = check_opening(50, [M("K", 3, 1)], MeldOptions(discard_top="K"))
    assert check.problems == ()
    assert check.points == 80 and check.enough


def test_the_top_card_needs_two_naturals_from_the_hand() -> None:
    check = check_opening(50, [M("A", 3), M("K", 2, 1)], MeldOptions(discard_top="K"))
    assert [(p.meld, p.field, p.code) for p in check.problems] == [
        (1, "melds[1].naturals", "pile-needs-pair")
    ]
    # The meld itself is legal: it is the way of taking the pile that is not.
    assert check.counted == (True, True)


@pytest.mark.parametrize(
    ("top", "code"),
    [("Q", "pile-no-meld"), ("3", "pile-three-on-top"), ("red-3", "pile-three-on-top")],
)
def test_a_top_card_that_cannot_open(top: str, code: str) -> None:
    check = check_opening(50, [M("K", 3)], MeldOptions(discard_top=top))
    assert [(p.meld, p.field, p.code) for p in check.problems] == [(None, "discard_top", code)]


def test_reading_input_names_the_field() -> None:
    assert planned_meld(2, " k ", 3, 0, 1) == M("K", 3, 0, 1)
    assert planned_meld(0, "Red-3", 3) == M("red-3", 3)
    cases = [
        ((1, "2", 3), "melds[1].rank"),  # twos are wild cards, not a rank
        ((1, "Z", 3), "melds[1].rank"),
        ((1, None, 3), "melds[1].rank"),
        ((0, "K", -1), "melds[0].naturals"),
        ((0, "K", 13), "melds[0].naturals"),
        ((0, "K", "3"), "melds[0].naturals"),
        ((0, "K", True), "melds[0].naturals"),
        ((0, "K", 3, 7), "melds[0].jokers"),
        ((0, "K", 3, 0, 1.5), "melds[0].twos"),
    ]
    for args, field in cases:
        with pytest.raises(RuleError) as refused:
            planned_meld(*args)
        assert refused.value.field == field, args
    for bad in (-5, 10005, "90", None, 1.0, False):
        with pytest.raises(RuleError) as refused:
            parse_minimum(bad)
        assert refused.value.field == "minimum"
    assert parse_minimum(90) == 90
