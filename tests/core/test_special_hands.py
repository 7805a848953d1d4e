"""A game's own list of special hands (docs/rules.md §5a, issue 31): the League's preset, a
club's edits as frozen data in the game's rules, each bound refused at its field, and the
dream hands that win outright."""

from __future__ import annotations

from typing import Any

import pytest

from scorer.core import limits
from scorer.core.errors import RuleError
from scorer.core.families import CLASSIC, MODERN_AMERICAN, SpecialHand
from scorer.core.game import Side, add_hand, make_table, new_game
from scorer.core.hands import Hand, SideHand, score_hand, validate_hand
from scorer.core.rules import (
    effective_rules,
    profile_of,
    special_hand_json,
    special_hand_key,
    with_house_rules,
)

PROFILE = profile_of(MODERN_AMERICAN, MODERN_AMERICAN.seatings[0])
LEAGUE = MODERN_AMERICAN.special_hand_preset("league")
SIDES = (Side("Ann & Bob", ("Ann", "Bob")), Side("Cy & Di", ("Cy", "Di")))
OTHERS = SideHand(meld_points=40, hand_points=30, family=MODERN_AMERICAN)


def with_list(hands: Any) -> Any:
    return with_house_rules(PROFILE, {"special_hands": hands})


def special(key: str) -> Hand:
    """Our side went out at once with a special hand; the others melded kings, hold 30."""
    ours = SideHand(special_hand=key, family=MODERN_AMERICAN)
    return Hand(sides=(ours, OTHERS), went_out=0)


def test_the_leagues_list_has_eleven_hands_and_two_dream_hands() -> None:
    assert len(LEAGUE) == 11
    assert LEAGUE[:4] == MODERN_AMERICAN.special_hands  # pagat's four, as they are
    assert sum(hand.value == 3500 for hand in LEAGUE) == 4
    dreams = [hand for hand in LEAGUE if hand.wins_game]
    assert [hand.value for hand in dreams] == [8500, 8500]
    assert MODERN_AMERICAN.special_hand_preset("pagat") == MODERN_AMERICAN.special_hands


def test_a_clubs_list_scores_its_own_keys_and_values() -> None:
    hands = [special_hand_json(hand) for hand in LEAGUE]
    hands[0]["value"] = 3200  # the club's straight
    hands.append({"key": "royal", "name": "Royal canasta", "value": 4000})
    profile = with_list(hands)
    assert profile.house_rules == ("special_hands",)
    assert profile.special_hand("royal") == SpecialHand("royal", 4000, "Royal canasta")
    for key, value in (("straight", 3200), ("natural_straight", 3500), ("royal", 4000)):
        validate_hand(profile, special(key), 2)
        ours, theirs = score_hand(profile, special(key))
        assert (ours.special, ours.total) == (value, value)
        assert theirs.total == -40 - 30  # the other side scores as usual (no canasta)
    assert effective_rules(profile)["special_hands"][-1] == {
        "key": "royal",
        "name": "Royal canasta",
        "value": 4000,
    }


def test_a_key_not_in_the_games_list_is_refused_at_the_side() -> None:
    profile = with_list([{"key": "royal", "value": 4000}])
    with pytest.raises(RuleError) as refused:
        validate_hand(profile, special("straight"), 2)  # the club took pagat's straight out
    assert refused.value.field == "sides[0].special_hand"
    with pytest.raises(RuleError) as refused:
        validate_hand(PROFILE, special("royal"), 2)  # the book's list has no royal
    assert refused.value.field == "sides[0].special_hand"


def test_the_list_is_frozen_data_of_the_game() -> None:
    hands = [{"key": "royal", "value": 4000}]
    profile = with_list(hands)
    hands[0]["value"] = 5  # the club edits its list after the game began
    assert profile.special_hand("royal").value == 4000
    assert isinstance(profile.special_hands, tuple)
    with pytest.raises(AttributeError):
        profile.special_hands[0].value = 5  # type: ignore[misc]


def test_set_back_to_the_book_it_is_no_house_rule() -> None:
    book = [special_hand_json(hand) for hand in MODERN_AMERICAN.special_hands]
    assert with_list(book).house_rules == ()


def test_a_dream_hand_wins_outright_whatever_the_totals() -> None:
    profile = with_list([special_hand_json(hand) for hand in LEAGUE])
    # Our side first loses 500 (300 melded without a canasta, 200 held): a dream hand of
    # 8 500 then leaves it at 8 000, short of the target, yet the game is won.
    behind = Hand(
        sides=(SideHand(meld_points=300, hand_points=200, family=MODERN_AMERICAN), OTHERS)
    )
    state = add_hand(new_game(make_table(profile, SIDES)), behind)
    assert state.totals == (-500, -70)
    state = add_hand(state, special("dream_pairs"))
    assert state.totals == (8000, -140)
    assert (state.winner, state.ended_at) == (0, 2)
    # An ordinary special hand ends nothing; nor does the book's list, which has no dream.
    plain = add_hand(new_game(make_table(profile, SIDES)), special("natural_straight"))
    assert (plain.winner, plain.totals[0]) == (None, 3500)


@pytest.mark.parametrize(
    ("hands", "field"),
    [
        ("league", "rules.special_hands"),
        ([{"key": "a", "value": 100}] * (limits.SPECIAL_HANDS_MAX + 1), "rules.special_hands"),
        ([{"key": "Royal", "value": 100}], "rules.special_hands[0].key"),
        ([{"key": "r" * 31, "value": 100}], "rules.special_hands[0].key"),
        ([{"value": 100}], "rules.special_hands[0].key"),
        ([{"key": "royal", "value": 0}], "rules.special_hands[0].value"),
        ([{"key": "royal", "value": 10005}], "rules.special_hands[0].value"),
        ([{"key": "royal", "value": 1001}], "rules.special_hands[0].value"),
        ([{"key": "royal", "value": "4000"}], "rules.special_hands[0].value"),
        ([{"key": "royal", "value": 100, "name": "x" * 41}], "rules.special_hands[0].name"),
        ([{"key": "royal", "value": 100, "name": "\u202eRoyal"}], "rules.special_hands[0].name"),
        ([{"key": "royal", "value": 100, "wins_game": 1}], "rules.special_hands[0].wins_game"),
        ([{"key": "royal", "value": 100, "colour": "red"}], "rules.special_hands[0].colour"),
        ([{"key": "a", "value": 100}, {"key": "a", "value": 200}], "rules.special_hands[1].key"),
        (
            [
                {"key": "a", "value": 100, "name": "Royal"},
                {"key": "b", "value": 5, "name": "ROYAL"},
            ],
            "rules.special_hands[1].name",
        ),
        (["royal"], "rules.special_hands[0]"),
    ],
)
def test_each_bound_is_refused_at_its_field(hands: Any, field: str) -> None:
    with pytest.raises(RuleError) as refused:
        with_list(hands)
    assert refused.value.field == field


def test_the_bounds_at_their_edges_are_taken() -> None:
    longest = limits.SPECIAL_HAND_NAME_MAX - 2
    most = [
        {"key": f"h{i}", "value": limits.SPECIAL_HAND_VALUE_MAX, "name": f"{i:02d}" + "n" * longest}
        for i in range(limits.SPECIAL_HANDS_MAX)
    ]
    assert len(with_list(most).special_hands) == limits.SPECIAL_HANDS_MAX
    assert with_list([{"key": "z", "value": limits.SPECIAL_HAND_VALUE_MIN}]).special_hands
    assert with_list([]).special_hands == ()


def test_classic_has_no_special_hands_to_choose() -> None:
    classic = profile_of(CLASSIC, CLASSIC.seatings[0])
    with pytest.raises(RuleError) as refused:
        with_house_rules(classic, {"special_hands": []})
    assert refused.value.field == "rules.special_hands"
    assert "special_hands" not in effective_rules(classic)


@pytest.mark.parametrize(
    ("name", "taken", "key"),
    [
        ("Royal canasta", set(), "royal_canasta"),
        ("Escalera ÉLÉGANTE", set(), "escalera_elegante"),
        ("Royal canasta", {"royal_canasta", "royal_canasta_2"}, "royal_canasta_3"),
        ("カナスタ", set(), "hand"),
        ("x" * 60, set(), "x" * 27),
    ],
)
def test_a_hand_a_club_adds_gets_a_key_from_its_name(name: str, taken: set[str], key: str) -> None:
    assert special_hand_key(name, taken) == key
