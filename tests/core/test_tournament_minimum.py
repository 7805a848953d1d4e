"""Modern American's tournament rule as a house rule (docs/rules.md §5a, issue 31): the
opening minimum by the hand's number, 125, 155, 180, then 180, whatever the sides' totals."""

from __future__ import annotations

import pytest

from scorer.core.errors import RuleError
from scorer.core.families import CLASSIC, MODERN_AMERICAN
from scorer.core.game import Side, add_hand, make_table, new_game, play
from scorer.core.hands import Hand, SideHand
from scorer.core.irregular import NeedsConfirmation
from scorer.core.rules import (
    RuleProfile,
    effective_rules,
    house_rule_fields,
    profile_of,
    with_house_rules,
)

PROFILE = profile_of(MODERN_AMERICAN, MODERN_AMERICAN.seatings[0])
BY_HAND = with_house_rules(PROFILE, {"minimum_by": "hand_number"})
SIDES = (Side("Ann & Bob", ("Ann", "Bob")), Side("Cy & Di", ("Cy", "Di")))


def side(**call: int) -> SideHand:
    return SideHand(**call, family=MODERN_AMERICAN)


# A side that melded 300 and holds nothing, with one natural canasta (300 + 500 = 800 a
# hand), and one that melded 130 and holds 30 (no canasta: -130 - 30 = -160).
STEADY = Hand(
    sides=(side(meld_points=300, natural_canastas=1), side(meld_points=130, hand_points=30))
)


def minimums_hand_by_hand(profile: RuleProfile, hands: int) -> list[tuple[int, ...]]:
    """Each hand's minimums as the game applied them, and those for the next hand."""
    state = play(make_table(profile, SIDES), [STEADY] * hands)
    return [result.minimums for result in state.results] + [state.minimums]


def test_the_minimum_follows_the_hands_number() -> None:
    # Totals after each hand: 800, 1 600... and -160, -320...: by the table both sides stay
    # at 125 (below 3 000) for the first four hands.
    assert minimums_hand_by_hand(BY_HAND, 4) == [
        (125, 125),
        (155, 155),
        (180, 180),
        (180, 180),  # past the book's three hands: its last row
        (180, 180),
    ]
    assert minimums_hand_by_hand(PROFILE, 4) == [(125, 125)] * 4 + [(155, 125)]


def test_a_new_game_opens_at_125_and_its_second_hand_asks_155() -> None:
    state = new_game(make_table(BY_HAND, SIDES))
    assert state.minimums == (125, 125)
    state = add_hand(state, STEADY, confirmed=set())
    assert state.minimums == (155, 155)
    # 130 was enough to open in hand 1; in hand 2 it is below 155: asked (§2b).
    with pytest.raises(NeedsConfirmation) as asked:
        add_hand(state, STEADY, confirmed=set())
    assert asked.value.field == "sides[1].meld_points"
    after = add_hand(state, STEADY, confirmed={"opening_minimum"})
    assert [item.field for item in after.results[-1].irregular] == ["sides[1].meld_points"]
    # Without the house rule the same hand is no question: 125 from a total of -160.
    plain = add_hand(new_game(make_table(PROFILE, SIDES)), STEADY, confirmed=set())
    assert add_hand(plain, STEADY, confirmed=set()).results[-1].irregular == ()


def test_it_is_a_house_rule_the_game_reports() -> None:
    assert BY_HAND.house_rules == ("minimum_by",)
    assert effective_rules(BY_HAND)["minimum_by"] == "hand_number"
    assert effective_rules(PROFILE)["minimum_by"] == "total"
    assert "minimum_by" in house_rule_fields(MODERN_AMERICAN)
    # Set back to the book's way, it is no house rule.
    assert with_house_rules(BY_HAND, {"minimum_by": "total"}).house_rules == ()


def test_a_bad_choice_is_refused_at_its_field() -> None:
    with pytest.raises(RuleError) as refused:
        with_house_rules(PROFILE, {"minimum_by": "hand"})
    assert refused.value.field == "rules.minimum_by"


def test_classic_has_no_such_rule_and_keeps_its_shape() -> None:
    classic = profile_of(CLASSIC, CLASSIC.seatings[0])
    with pytest.raises(RuleError) as refused:
        with_house_rules(classic, {"minimum_by": "hand_number"})
    assert refused.value.field == "rules.minimum_by"
    assert "minimum_by" not in effective_rules(classic)
    assert "minimum_by" not in house_rule_fields(CLASSIC)
