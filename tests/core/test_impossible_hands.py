"""Hands no real table can produce (docs/rules.md §2 rules 10-13, issue #12), and §2b/§2c."""

from __future__ import annotations

from itertools import product

import pytest

from scorer.core import meld
from scorer.core.canastas import cheapest_canastas, counted_melds_fit
from scorer.core.errors import RuleError
from scorer.core.game import Side, add_hand, check_hand, make_table, new_game, play
from scorer.core.hands import COUNTED_MELD_PROBLEMS, CardCounts, Hand, SideHand, validate_hand
from scorer.core.irregular import NeedsConfirmation, hints, irregularities
from scorer.core.meld import MeldOptions, PlannedMeld
from scorer.core.rules import get_profile

CLASSIC = get_profile("classic")
TWO = get_profile("two-player")
OTHER = SideHand(meld_points=60, hand_points=20)


@pytest.mark.parametrize(
    ("profile", "hand", "field"),
    [
        pytest.param(
            CLASSIC,
            Hand((SideHand(meld_points=5), OTHER)),
            "sides[0].meld_points",
            id="rule10-meld-5",
        ),
        pytest.param(
            CLASSIC,
            Hand((OTHER, SideHand(meld_points=10))),
            "sides[1].meld_points",
            id="rule10-meld-10",
        ),
        pytest.param(
            CLASSIC,
            Hand((SideHand(meld_points=1180 - 60, natural_canastas=12), OTHER)),
            "sides[0].natural_canastas",
            id="rule11-twelve-naturals",
        ),
        pytest.param(
            CLASSIC,
            Hand((SideHand(meld_points=175, natural_canastas=5), OTHER)),
            "sides[0].meld_points",
            id="rule11-five-naturals-in-175",
        ),
        pytest.param(
            CLASSIC,
            Hand((SideHand(meld_cards=CardCounts(jokers=1), mixed_canastas=1), OTHER)),
            "sides[0].meld_cards",
            id="rule12-one-joker-mixed",
        ),
        pytest.param(
            CLASSIC,
            Hand((SideHand(meld_cards=CardCounts(jokers=1), natural_canastas=1), OTHER)),
            "sides[0].meld_cards",
            id="rule12-one-joker-natural",
        ),
        pytest.param(
            CLASSIC,
            Hand((SideHand(meld_cards=CardCounts(ten=3, five=4), natural_canastas=1), OTHER)),
            "sides[0].meld_cards",
            id="rule12-three-tens-four-fives-natural",
        ),
        pytest.param(
            CLASSIC,
            Hand((SideHand(meld_cards=CardCounts(ten=7), mixed_canastas=1), OTHER)),
            "sides[0].meld_cards",
            id="rule12-mixed-no-wild",
        ),
        pytest.param(
            CLASSIC,
            Hand((SideHand(meld_cards=CardCounts(jokers=1)), OTHER)),
            "sides[0].meld_cards",
            id="rule12-single-card-meld",
        ),
        # Issue 22: every counted card must sit in a canasta or a legal meld.
        pytest.param(
            CLASSIC,
            Hand((SideHand(meld_cards=CardCounts(jokers=3)), OTHER)),
            "sides[0].meld_cards",
            id="rule12-three-jokers-alone",
        ),
        pytest.param(
            CLASSIC,
            Hand((SideHand(meld_cards=CardCounts(jokers=2, five=1)), OTHER)),
            "sides[0].meld_cards",
            id="rule12-two-jokers-and-a-five",
        ),
        pytest.param(
            CLASSIC,
            Hand((SideHand(meld_cards=CardCounts(five=7, twenty=1), natural_canastas=1), OTHER)),
            "sides[0].meld_cards",
            id="rule12-natural-canasta-of-fives-and-a-lone-twenty",
        ),
        pytest.param(
            CLASSIC,
            Hand((SideHand(meld_cards=CardCounts(ten=7, twenty=1), natural_canastas=1), OTHER)),
            "sides[0].meld_cards",
            id="rule12-seven-tens-and-a-twenty-as-a-natural-canasta",
        ),
        pytest.param(
            CLASSIC,
            Hand((SideHand(meld_cards=CardCounts(twenty=7)), OTHER)),
            "sides[0].meld_cards",
            id="rule12-seven-aces-and-twos-are-a-canasta-not-declared",
        ),
        pytest.param(
            TWO,
            Hand(
                (SideHand(meld_points=200, natural_canastas=2, hand_points=40), OTHER), went_out=0
            ),
            "sides[0].hand_points",
            id="rule13-alone-went-out-holding-40",
        ),
        pytest.param(
            TWO,
            Hand(
                (
                    SideHand(meld_points=200, natural_canastas=2, hand_cards=CardCounts(five=1)),
                    OTHER,
                ),
                went_out=0,
            ),
            "sides[0].hand_cards",
            id="rule13-counted",
        ),
    ],
)
def test_issue_12_impossible_hands_are_refused_naming_the_field(profile, hand, field):
    with pytest.raises(RuleError) as caught:
        validate_hand(profile, hand, 2)
    assert caught.value.field == field
    assert not isinstance(caught.value, NeedsConfirmation)


@pytest.mark.parametrize(
    ("natural", "mixed", "least"),
    [
        (0, 0, 0),
        (1, 0, 35),
        (4, 0, 140),
        (5, 0, 210),
        (0, 5, 280),
        (10, 0, 560),
        (11, 0, 700),
        (10, 1, 700),
        (12, 0, None),
        (6, 6, None),
    ],
)
def test_the_cheapest_canastas_sit_on_the_cheapest_distinct_ranks(natural, mixed, least):
    assert cheapest_canastas(CLASSIC.family, natural, mixed) == least


def test_the_issue_22_cases_say_why_in_words_a_table_understands():
    with pytest.raises(RuleError) as caught:
        validate_hand(CLASSIC, Hand((SideHand(meld_cards=CardCounts(jokers=3)), OTHER)), 2)
    assert caught.value.template == COUNTED_MELD_PROBLEMS["melds"]
    assert "at least two natural cards" in caught.value.template


def _reachable_counts(went_out: bool, most: int) -> set[tuple[int, ...]]:
    """Every (jokers, 20 group, 10 group, 5 group, natural, mixed) a side can meld with at
    most ``most`` cards in two packs, built meld by meld: the oracle for rule 12."""
    ranks = [*meld.RANKS, meld.BLACK_THREE]
    options = MeldOptions(going_out=went_out)
    # (jokers, twos, aces, tens, fives, natural canastas, mixed canastas)
    states = {(0, 0, 0, 0, 0, 0, 0)}
    for rank in ranks:
        grown = set(states)
        for jokers, twos, aces, tens, fives, natural, mixed in states:
            for k, j, t in product(range(9), range(5), range(4)):
                laid = PlannedMeld(rank, k, j, t)
                cards = k + j + t
                if jokers + j > 4 or twos + t > 8 or cards == 0:
                    continue
                if jokers + twos + aces + tens + fives + cards > most:
                    continue
                if meld.meld_problems(0, laid, options):
                    continue
                group = meld.RANK_GROUPS[rank]
                grown.add(
                    (
                        jokers + j,
                        twos + t,
                        aces + k * (group == "twenty"),
                        tens + k * (group == "ten"),
                        fives + k * (group == "five"),
                        natural + (cards >= 7 and not laid.wild),
                        mixed + (cards >= 7 and laid.wild > 0),
                    )
                )
        states = grown
    return {(j, t + a, x, f, n, m) for j, t, a, x, f, n, m in states}


@pytest.mark.slow  # builds every count of melds the packs allow
@pytest.mark.parametrize("went_out", [False, True])
def test_counted_melds_fit_exactly_when_real_melds_make_those_counts(went_out):
    most = 10
    real = _reachable_counts(went_out, most)
    for jokers, twenty, ten, five, natural, mixed in product(
        range(5), range(most + 1), range(most + 1), range(most + 1), range(2), range(2)
    ):
        if jokers + twenty + ten + five > most:
            continue
        counts = CardCounts(jokers=jokers, twenty=twenty, ten=ten, five=five)
        fits = counted_melds_fit(CLASSIC.family, counts, natural, mixed, packs=2, went_out=went_out)
        assert fits == ((jokers, twenty, ten, five, natural, mixed) in real), counts


def test_cards_left_in_hand_are_any_cards():
    # Rule 12 is about melds: a partner may hold three jokers, or a lone ace.
    held = SideHand(meld_points=60, hand_cards=CardCounts(jokers=3, twenty=1))
    validate_hand(CLASSIC, Hand((held, OTHER)), 2)


def test_real_counted_canastas_are_accepted():
    # Seven kings (natural) and six fives with a two (mixed), three aces: 70 + 50 + 60.
    side = SideHand(
        meld_cards=CardCounts(twenty=4, ten=7, five=6),
        natural_canastas=1,
        mixed_canastas=1,
        hand_points=20,
    )
    validate_hand(CLASSIC, Hand((side, OTHER), went_out=0), 2)


TABLE = make_table(CLASSIC, (Side("A", ("a1", "a2")), Side("B", ("b1", "b2"))))
LOW = Hand((SideHand(meld_points=60, hand_points=30), SideHand(meld_points=50, hand_points=10)))


def test_melds_below_the_opening_minimum_are_asked_then_recorded():
    state = play(TABLE, [Hand((SideHand(meld_points=1000, natural_canastas=1), OTHER))])
    assert state.minimums == (90, 50)
    with pytest.raises(NeedsConfirmation) as caught:
        check_hand(state, LOW)
    assert caught.value.field == "sides[0].meld_points"
    assert caught.value.confirm == "opening_minimum"
    assert caught.value.params == {"melded": 60, "minimum": 90}
    with pytest.raises(NeedsConfirmation):
        add_hand(state, LOW, confirmed=frozenset())
    after = add_hand(state, LOW, confirmed={"opening_minimum", "unneeded"})
    assert [i.kind for i in after.results[-1].irregular] == ["opening_minimum"]
    assert add_hand(state, LOW).results[-1].irregular  # no asking without confirmed
    assert play(TABLE, [r.hand for r in after.results]).results[-1].irregular


def test_no_melds_or_going_out_concealed_is_not_irregular():
    minimums = (90, 120)
    nothing = Hand((SideHand(hand_points=30), SideHand(meld_points=0, hand_points=10)))
    assert irregularities(CLASSIC, minimums, nothing) == ()
    concealed = Hand((SideHand(meld_points=60, natural_canastas=0), OTHER))
    assert len(irregularities(CLASSIC, minimums, concealed)) == 2
    out = Hand(
        (SideHand(meld_points=60, natural_canastas=1, hand_points=0), OTHER),
        went_out=0,
        concealed=True,
    )
    assert [i.field for i in irregularities(CLASSIC, minimums, out)] == ["sides[1].meld_points"]


def test_a_rule_of_section_2_is_never_confirmable():
    with pytest.raises(RuleError) as caught:
        check_hand(new_game(TABLE), Hand((SideHand(meld_points=10), OTHER)), {"opening_minimum"})
    assert not isinstance(caught.value, NeedsConfirmation)


def test_the_hint_names_a_side_that_did_not_go_out_with_nothing_in_hand():
    hand = Hand(
        (SideHand(meld_points=100, natural_canastas=1), SideHand(meld_points=60)), went_out=0
    )
    assert [h.field for h in hints(CLASSIC, hand)] == ["sides[1].hand_points"]
    validate_hand(CLASSIC, hand, 2)  # never blocking
