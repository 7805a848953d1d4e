"""The house rules of issue 22 in the engine: a tie at the top and red threes counted against.

Pure core: profiles, hands and games, no Flask. The contract (API, pages, sheet, clubs) is
tested in test_house_rules_contract.py.
"""

from __future__ import annotations

from dataclasses import FrozenInstanceError, replace

import pytest

from scorer.core.errors import GameFinished, RuleError
from scorer.core.game import Side, add_hand, make_table, new_game, play
from scorer.core.hands import Hand, SideHand, score_hand
from scorer.core.rules import effective_rules, get_profile, with_house_rules

CLASSIC = get_profile("classic")
THREE = get_profile("three-player")
US, THEM = Side("Us", ("Ann", "Bob")), Side("Them", ("Cy", "Di"))


# --- the profile --------------------------------------------------------------------------


def test_the_rule_book_is_the_default_of_both_rules():
    assert (CLASSIC.tie, CLASSIC.red_threes_count_against) == ("play_on", "no_meld")
    rules = effective_rules(CLASSIC)
    assert (rules["tie"], rules["red_threes_count_against"]) == ("play_on", "no_meld")


def test_a_house_rule_is_a_new_frozen_profile_that_names_what_changed():
    house = with_house_rules(CLASSIC, {"tie": "shared", "red_threes_count_against": "no_canasta"})
    assert (house.tie, house.red_threes_count_against) == ("shared", "no_canasta")
    assert set(house.house_rules) == {"tie", "red_threes_count_against"}
    assert CLASSIC.tie == "play_on"  # the variant itself is untouched
    with pytest.raises(FrozenInstanceError):
        house.tie = "play_on"  # type: ignore[misc]
    # Set back to the book's value: no longer a house rule.
    assert with_house_rules(house, {"tie": "play_on"}).house_rules == ("red_threes_count_against",)


@pytest.mark.parametrize(
    ("rules", "field"),
    [
        ({"tie": "coin_toss"}, "rules.tie"),
        ({"tie": 1}, "rules.tie"),
        ({"tie": None}, "rules.tie"),
        ({"red_threes_count_against": "always"}, "rules.red_threes_count_against"),
        ({"red_threes_count_against": ["no_meld"]}, "rules.red_threes_count_against"),
    ],
)
def test_a_bad_value_is_refused_naming_the_rule(rules, field):
    with pytest.raises(RuleError) as refused:
        with_house_rules(CLASSIC, rules)
    assert refused.value.field == field
    assert "play_on" in refused.value.reason or "no_meld" in refused.value.reason


# --- red threes ---------------------------------------------------------------------------

NO_CANASTA = with_house_rules(CLASSIC, {"red_threes_count_against": "no_canasta"})
MELDS_NO_CANASTA = SideHand(meld_points=90, red_threes=2, hand_points=20)
NOTHING_MELDED = SideHand(red_threes=1, hand_points=45)
WITH_CANASTA = SideHand(meld_points=150, natural_canastas=1, red_threes=1)


def test_by_the_book_red_threes_count_against_a_side_that_melded_nothing_only():
    melds, nothing = score_hand(CLASSIC, Hand((MELDS_NO_CANASTA, NOTHING_MELDED)))
    assert melds.red_threes == 200 and melds.total == 90 + 200 - 20
    assert nothing.red_threes == -100 and nothing.total == -100 - 45


def test_the_house_rule_counts_them_against_a_side_without_a_canasta():
    melds, nothing = score_hand(NO_CANASTA, Hand((MELDS_NO_CANASTA, NOTHING_MELDED)))
    assert melds.red_threes == -200 and melds.total == 90 - 200 - 20
    assert nothing.red_threes == -100
    canasta, _ = score_hand(NO_CANASTA, Hand((WITH_CANASTA, NOTHING_MELDED), went_out=0))
    assert canasta.red_threes == 100 and canasta.total == 150 + 500 + 100 + 100


def test_all_four_red_threes_against_a_side_without_a_canasta_are_minus_800():
    side = SideHand(meld_points=60, red_threes=4)
    ours, _ = score_hand(NO_CANASTA, Hand((side, SideHand(meld_points=50))))
    assert ours.red_threes == -800


# --- a tie at the top ---------------------------------------------------------------------


def _table(tie: str, profile=CLASSIC, sides=(US, THEM)):
    return make_table(with_house_rules(profile, {"tie": tie}), sides)


def _tied_hand(went_out: int | None) -> Hand:
    """A hand that scores the same for both sides, ``went_out`` having gone out."""
    sides = [SideHand(meld_points=550), SideHand(meld_points=550)]
    if went_out is not None:
        # The side going out: a natural canasta of sevens (35 + 500) and 100 for going out;
        # the other side as much without going out: 135 + 500 = 635.
        sides[went_out] = SideHand(meld_points=35, natural_canastas=1)
        sides[1 - went_out] = SideHand(meld_points=135, natural_canastas=1)
    return Hand(tuple(sides), went_out=went_out)


def _tied_game(tie: str, went_out: int | None):
    """A game at 4 500 apiece, then a hand that brings both sides to the same total >= 5 000."""
    start = Hand((SideHand(meld_points=500, natural_canastas=8),) * 2)  # 500 + 4 000 each
    return play(_table(tie), [start, _tied_hand(went_out)], strict=True)


@pytest.mark.parametrize("went_out", [None, 0, 1])
def test_by_the_book_a_tie_at_the_top_plays_one_more_hand(went_out):
    state = _tied_game("play_on", went_out)
    assert state.totals[0] == state.totals[1] >= 5000
    assert (state.winner, state.shared_by, state.finished, state.tied) == (None, (), False, True)


@pytest.mark.parametrize("went_out", [0, 1])
def test_went_out_wins_gives_the_tie_to_the_side_that_went_out(went_out):
    state = _tied_game("went_out_wins", went_out)
    assert state.totals[0] == state.totals[1] >= 5000
    assert (state.winner, state.ended_at, state.finished, state.tied) == (went_out, 2, True, False)


def test_went_out_wins_plays_on_when_nobody_went_out():
    state = _tied_game("went_out_wins", None)
    assert (state.winner, state.finished, state.tied) == (None, False, True)


def test_went_out_wins_plays_on_when_the_side_that_went_out_is_not_on_top():
    # Three players alone: B and C tie on top at 7 580, A went out and stays below.
    table = _table(
        "went_out_wins", THREE, (Side("A", ("A",)), Side("B", ("B",)), Side("C", ("C",)))
    )
    big = SideHand(meld_points=580, natural_canastas=10)  # 580 + 5 000 = 5 580
    start = Hand((SideHand(meld_points=15), big, big))
    tie = Hand(
        (
            SideHand(meld_points=35, natural_canastas=1),
            SideHand(meld_points=500, natural_canastas=3),  # 500 + 1 500 = 2 000
            SideHand(meld_points=500, natural_canastas=3),
        ),
        went_out=0,
    )
    state = play(table, [start, tie], strict=True)
    assert state.totals[1] == state.totals[2] == 7580 > state.totals[0]
    assert (state.winner, state.finished, state.tied) == (None, False, True)


@pytest.mark.parametrize("went_out", [None, 0])
def test_shared_ends_the_game_with_a_shared_win(went_out):
    state = _tied_game("shared", went_out)
    assert (state.winner, state.shared_by, state.ended_at) == (None, (0, 1), 2)
    assert state.finished and not state.tied
    with pytest.raises(GameFinished):
        add_hand(state, Hand((SideHand(meld_points=50), SideHand(meld_points=50))))


def test_a_lone_leader_wins_whatever_the_tie_rule():
    for tie in ("play_on", "went_out_wins", "shared"):
        state = play(_table(tie), [Hand((SideHand(meld_points=1000, natural_canastas=9),
                                        SideHand(meld_points=50)))], strict=True)  # fmt: skip
        assert (state.winner, state.shared_by) == (0, ())


def test_a_correction_that_breaks_the_tie_takes_the_shared_win_back():
    state = _tied_game("shared", None)
    hands = [result.hand for result in state.results]
    sides = hands[1].sides
    hands[1] = replace(hands[1], sides=(replace(sides[0], meld_points=555), sides[1]))
    again = play(state.table, hands, strict=True)
    assert (again.winner, again.shared_by) == (0, ())
    assert new_game(state.table).shared_by == ()
