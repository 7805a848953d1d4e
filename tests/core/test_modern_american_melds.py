"""Modern American's melds checked exactly (docs/rules.md §5a, "Refused"): cards counted by
value group against the canastas and unfinished melds declared by kind, melds given rank by
rank deciding the unfinished ones, and the kinds of their own rank within a side and the
packs. The dealt-pack runs are tests/core/test_dealt_american.py."""

from __future__ import annotations

import pytest

from scorer.core.errors import RuleError
from scorer.core.families import MODERN_AMERICAN
from scorer.core.hand_schema import decided_by_melds, side_hand, side_values
from scorer.core.hands import CardCounts, Hand, SideHand, validate_hand
from scorer.core.meld import PlannedMeld
from scorer.core.rules import profile_of

PROFILE = profile_of(MODERN_AMERICAN, MODERN_AMERICAN.seatings[0])
QUIET = SideHand(meld_points=40, hand_points=30)


def check(*sides: SideHand, went_out: int | None = None) -> None:
    validate_hand(PROFILE, Hand(sides if len(sides) == 2 else (*sides, QUIET), went_out), 2)


def test_the_melds_decide_the_unfinished_ones() -> None:
    side = SideHand(
        melds=(PlannedMeld("7", 4), PlannedMeld("A", 3), PlannedMeld("wild", 0, 4, 1)),
        unfinished={"sevens": 5},  # typed beside the melds: the melds decide
        family=MODERN_AMERICAN,
    )
    assert dict(side.unfinished) == {"sevens": 1, "aces": 1, "wild_four_jokers": 1}


def test_melds_read_back_as_written_without_their_unfinished_count() -> None:
    side = SideHand(
        melds=(PlannedMeld("7", 3), PlannedMeld("K", 7)),
        players_holding={"aces": 1},
        family=MODERN_AMERICAN,
    )
    values = side_values(side, MODERN_AMERICAN)
    assert "unfinished" not in values and values["players_holding"] == {"aces": 1}
    assert side_hand(values, MODERN_AMERICAN) == side
    assert dict(side_hand(values, MODERN_AMERICAN).unfinished) == {"sevens": 1}
    assert "unfinished" in decided_by_melds(MODERN_AMERICAN)


# Counted melds no table can lay down in Modern American (the search by kind), and ones it can.
COUNTED = [
    # (meld_cards, canastas, unfinished, lays down?)
    (dict(five=7), {"sevens": 1}, {}, True),
    (dict(five=7, twenty=1), {"sevens": 1}, {}, False),  # a two with sevens: nowhere to go
    (dict(five=6, twenty=1), {"mixed": 1}, {}, True),  # six fours and a two
    (dict(five=5, twenty=2), {"mixed": 1}, {}, True),  # five fours and two twos
    (dict(five=4, twenty=3), {"mixed": 1}, {}, False),  # 4 fives + 3 twos, or aces unmelded
    (dict(ten=4, jokers=3), {}, {"wild": 1}, True),  # four tens; three jokers on their own
    (dict(ten=4, jokers=3), {}, {}, True),  # or two melds of tens... no: tens and 2 jokers
    (dict(ten=1, twenty=2), {}, {}, False),  # one natural card and two wild cards
    (dict(twenty=7), {"deuces": 1}, {}, True),
    (dict(twenty=7), {"aces": 1}, {}, True),
    (dict(twenty=8, jokers=2), {}, {"aces": 1}, False),  # eight aces: a meld is seven at most
    (dict(jokers=4, twenty=3), {"wild_four_jokers": 1}, {}, True),
    (dict(jokers=3), {}, {"wild": 1}, True),
    (dict(jokers=3), {}, {}, False),  # three jokers are an unfinished wild meld: say so
    (dict(five=3), {}, {"sevens": 1}, True),
    (dict(ten=7, twenty=2), {"natural": 1}, {}, False),  # two twos need a meld of two naturals
]


@pytest.mark.parametrize(("cards", "canastas", "unfinished", "fits"), COUNTED)
def test_counted_melds_by_kind(cards: dict, canastas: dict, unfinished: dict, fits: bool) -> None:
    side = SideHand(meld_cards=CardCounts(**cards), canastas=canastas, unfinished=unfinished)
    if fits:
        check(side)
    else:
        with pytest.raises(RuleError) as error:
            check(side)
        assert error.value.field == "sides[0].meld_cards"


# (our side, theirs, the field refused): kinds of their own rank, beyond a side or the packs.
OWN_RANKS = [
    pytest.param(
        dict(meld_points=70, sevens_canastas=1, unfinished={"sevens": 1}),
        dict(meld_points=40),
        "sides[0].unfinished.sevens",
        id="a-canasta-and-an-unfinished-meld-of-sevens",
    ),
    pytest.param(
        dict(meld_points=35, sevens_canastas=1),
        dict(meld_points=35, sevens_canastas=1),
        "sides[1].canastas.sevens",
        id="two-canastas-of-sevens-at-one-table",
    ),
    pytest.param(
        dict(meld_points=170, wild_canastas=1),
        dict(meld_points=140, deuces_canastas=1),
        "sides[1].canastas.deuces",
        id="fourteen-wild-cards",
    ),
    pytest.param(
        dict(meld_points=100, aces_canastas=1),
        dict(meld_points=40),
        "sides[0].meld_points",
        id="aces-canasta-below-140",
    ),
    pytest.param(
        dict(meld_points=150, wild_four_jokers_canastas=1),
        dict(meld_points=40),
        "sides[0].meld_points",
        id="four-jokers-below-260",
    ),
    pytest.param(
        dict(melds=(PlannedMeld("K", 5, jokers=1, twos=2),)),
        dict(meld_points=40),
        "sides[0].melds[0].jokers",
        id="a-meld-of-eight-cards",
    ),
    pytest.param(
        dict(melds=(PlannedMeld("wild", 1, jokers=2),)),
        dict(meld_points=40),
        "sides[0].melds[0].naturals",
        id="a-natural-card-in-a-wild-meld",
    ),
    pytest.param(
        dict(melds=(PlannedMeld("3", 3),)),
        dict(meld_points=40),
        "sides[0].melds[0].rank",
        id="threes-melded",
    ),
]


@pytest.mark.parametrize(("us", "them", "field"), OWN_RANKS)
def test_own_ranks_refused_at_their_field(us: dict, them: dict, field: str) -> None:
    with pytest.raises(RuleError) as refused:
        check(SideHand(**us, family=MODERN_AMERICAN), SideHand(**them, family=MODERN_AMERICAN))
    assert refused.value.field == field


def test_the_cheapest_canastas_of_their_own_rank_are_accepted() -> None:
    check(
        SideHand(meld_points=35 + 140, sevens_canastas=1, deuces_canastas=1),
        SideHand(meld_points=140 + 260, aces_canastas=1, wild_four_jokers_canastas=0),
    )
    check(SideHand(meld_points=260, wild_four_jokers_canastas=1))
