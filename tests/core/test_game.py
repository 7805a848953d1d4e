"""A game's progression: running totals, minimums, the deal, the winner (docs/rules.md §1,
rule 9 of §2, §4)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scorer.core.errors import GameFinished, RuleError
from scorer.core.game import (
    Side,
    add_hand,
    correct,
    dealer,
    make_table,
    new_game,
    play,
    remove,
    seating,
    sitting_out,
    winner,
    without_after_end,
)
from scorer.core.hands import Hand, SideHand
from scorer.core.rules import get_profile, with_target

CLASSIC = get_profile("classic")
ANN_BOB = Side("Us", ("Ann", "Bob"))
CY_DI = Side("Them", ("Cy", "Di"))


def classic_table(first_dealer: str | None = None):
    return make_table(CLASSIC, (ANN_BOB, CY_DI), first_dealer)


def scoring(total: int) -> SideHand:
    """A side whose hand scores exactly ``total``: natural canastas (500) plus meld points,
    or, below zero, points left in hand."""
    if total < 0:
        return SideHand(hand_points=-total)
    canastas, melded = divmod(total, 500)
    if melded < 35 * canastas:  # a natural canasta holds at least 35 points of cards
        canastas, melded = canastas - 1, melded + 500
    if 0 < melded < 15:  # a meld is three cards at least: meld 15 more, hold 15
        return SideHand(meld_points=melded + 15, natural_canastas=canastas, hand_points=15)
    return SideHand(meld_points=melded, natural_canastas=canastas)


def exact(*totals: int) -> Hand:
    """A hand where the stock ran out and each side scores the given total."""
    return Hand(sides=tuple(scoring(total) for total in totals), went_out=None)


def test_the_scoring_helper_scores_what_it_says():
    # 2 natural canastas (1 000) + 300 in cards; 300 left in hand.
    assert exact(1300, -300).sides == (
        SideHand(meld_points=300, natural_canastas=2),
        SideHand(hand_points=300),
    )
    assert exact(1000, 0).sides[0] == SideHand(meld_points=500, natural_canastas=1)


# --- running totals and minimums ----------------------------------------------------------


def test_running_totals_add_each_hand_total():
    hands = [
        # 130 + 500 + 200 + 100 - 5 = 925 for us; 75 - 40 = 35 for them.
        Hand(
            (
                SideHand(meld_points=130, natural_canastas=1, red_threes=2, hand_points=5),
                SideHand(meld_points=75, hand_points=40),
            ),
            went_out=0,
        ),
        # Stock ran out: 60 - 100 = -40 for us; 200 + 300 + 100 - 15 = 585 for them.
        Hand(
            (
                SideHand(meld_points=60, hand_points=100),
                SideHand(meld_points=200, mixed_canastas=1, red_threes=1, hand_points=15),
            ),
        ),
    ]
    state = play(classic_table(), hands)
    assert [result.totals for result in state.results] == [(925, 35), (885, 620)]
    assert state.totals == (885, 620)
    assert [result.number for result in state.results] == [1, 2]
    assert state.winner is None and not state.finished and not state.tied


def test_a_running_total_can_go_negative():
    state = play(classic_table(), [Hand((SideHand(red_threes=2, hand_points=100), SideHand()))])
    # Two red threes against a side that melded nothing, and 100 left in hand.
    assert state.totals == (-300, 0)


def test_a_new_game_starts_at_zero_with_the_50_minimum():
    state = new_game(classic_table())
    assert state.totals == (0, 0)
    assert state.minimums == (50, 50)
    assert state.results == ()


def test_each_hand_uses_the_minimums_from_the_totals_before_it():
    hands = [exact(1500, -5), exact(1500, 5), exact(5, 1495)]
    state = play(classic_table(), hands)
    # Totals before each hand: (0, 0), (1500, -5), (3000, 0); after the last: (3005, 1495).
    assert [result.minimums for result in state.results] == [(50, 50), (90, 15), (120, 50)]
    assert state.totals == (3005, 1495)
    assert state.minimums == (120, 50)


def test_a_10000_target_game_asks_150_from_7500():
    table = make_table(with_target(CLASSIC, 10000), (ANN_BOB, CY_DI))
    state = play(table, [exact(2500, 0), exact(2500, 0), exact(2495, 2995)])
    assert state.totals == (7495, 2995)
    assert state.minimums == (120, 90)
    state = add_hand(state, exact(5, 5))
    assert state.totals == (7500, 3000)
    assert state.minimums == (150, 120)


# --- end of game --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("totals", "expected"),
    [
        pytest.param((4995, 1000), None, id="leading-below-target-no-winner"),
        pytest.param((5000, 4995), 0, id="reaching-5000-exactly-wins"),
        pytest.param((2000, 5005), 1, id="second-side-reaches-target"),
        pytest.param((5200, 5600), 1, id="both-past-target-highest-wins"),
        pytest.param((7000, 5000), 0, id="both-past-target-first-highest"),
        pytest.param((5000, 5000), None, id="tie-at-target-no-winner"),
        pytest.param((6000, 6000), None, id="tie-above-target-no-winner"),
        pytest.param((4995, 4995), None, id="tie-below-target-no-winner"),
        pytest.param((-100, -50), None, id="negative-no-winner"),
        pytest.param((5000, 6000, 6000), None, id="three-sides-tie-at-the-top"),
        pytest.param((6000, 6000, 6500), 2, id="three-sides-tie-below-the-top"),
    ],
)
def test_the_winner_is_the_highest_once_someone_reaches_the_target(totals, expected):
    assert winner(CLASSIC, totals) == expected


def test_a_side_that_reaches_the_target_wins_after_that_hand():
    state = play(classic_table(), [exact(2500, 100), exact(2495, 100)])
    assert state.totals == (4995, 200)
    assert not state.finished
    state = add_hand(state, exact(5, 0))
    assert state.totals == (5000, 200)
    assert state.winner == 0 and state.finished and not state.tied


def test_when_both_pass_the_target_the_highest_total_wins():
    state = play(classic_table(), [exact(2400, 2400), exact(2400, 2400), exact(400, 800)])
    assert state.totals == (5200, 5600)
    assert state.winner == 1


def test_a_tie_at_the_top_calls_for_one_more_hand_then_a_winner():
    state = play(classic_table(), [exact(2500, 2500), exact(2500, 2500)])
    assert state.totals == (5000, 5000)
    assert state.winner is None and not state.finished
    assert state.tied  # "one more hand"
    state = add_hand(state, exact(100, 105))
    assert state.totals == (5100, 5105)
    assert state.winner == 1 and not state.tied


def test_after_a_tie_both_may_fall_below_the_target_and_play_on():
    state = play(classic_table(), [exact(2500, 2500), exact(2500, 2500), exact(-300, -400)])
    assert state.totals == (4700, 4600)
    assert state.winner is None and not state.tied
    state = add_hand(state, exact(300, 0))
    assert state.winner == 0


def test_a_tie_can_last_several_hands():
    state = play(classic_table(), [exact(2500, 2500), exact(2500, 2500), exact(50, 50)])
    assert state.totals == (5050, 5050) and state.tied
    assert add_hand(state, exact(0, 5)).winner == 1


def test_a_won_game_takes_no_more_hands():
    state = play(classic_table(), [exact(2500, 0), exact(2500, 0)])
    assert state.winner == 0
    with pytest.raises(GameFinished) as caught:
        add_hand(state, exact(5, 5))
    assert isinstance(caught.value, RuleError)
    assert "no further hands" in caught.value.reason
    assert state.totals == (5000, 0) and len(state.results) == 2


def test_a_replay_ends_the_game_at_the_winning_hand_and_keeps_the_later_ones():
    # docs/rules.md §2c: a correction can make a side win before the last recorded hand.
    hands = [exact(2500, 0), exact(2500, 0), exact(100, 300), exact(20, 20)]
    state = play(classic_table(), hands)
    assert state.winner == 0 and state.ended_at == 2 and state.finished
    assert state.totals == (5000, 0)  # hands 3 and 4 count for nothing
    assert state.after_end == (3, 4)
    assert [r.after_end for r in state.results] == [False, False, True, True]
    assert [r.totals for r in state.results] == [(2500, 0), (5000, 0), (5000, 0), (5000, 0)]
    assert [r.minimums for r in state.results][2:] == [(120, 50), (120, 50)]
    assert state.results[2].scores[1].total == 300  # still scored, for the record
    with pytest.raises(GameFinished):
        add_hand(state, exact(20, 20))
    assert without_after_end(state) == tuple(hands[:2])


def test_correcting_an_early_hand_ends_the_game_there():
    hands = [exact(2500, 0), exact(2000, 0), exact(500, 0)]
    assert play(classic_table(), hands).ended_at == 3
    state = correct(play(classic_table(), hands), 2, exact(2500, 0))
    assert state.ended_at == 2 and state.winner == 0 and state.after_end == (3,)
    assert state.totals == (5000, 0)
    back = correct(state, 2, exact(2000, 0))
    assert back.ended_at == 3 and back.after_end == () and back.totals == (5000, 0)


def test_removing_a_hand_can_end_the_game_earlier_or_later():
    hands = [exact(2500, 0), exact(-100, 0), exact(2500, 0), exact(100, 0)]
    state = play(classic_table(), hands)
    assert state.ended_at == 4 and state.totals == (5000, 0)
    removed = remove(state, 2)
    assert removed.ended_at == 2 and removed.after_end == (3,)
    assert [r.number for r in removed.results] == [1, 2, 3]


def test_correcting_an_earlier_hand_recomputes_the_winner():
    hands = [exact(2500, 0), exact(2500, 0)]
    assert play(classic_table(), hands).winner == 0
    corrected = [exact(2495, 0), hands[1]]
    state = play(classic_table(), corrected)
    assert state.totals == (4995, 0)
    assert state.winner is None
    removed = play(classic_table(), hands[1:])
    assert removed.totals == (2500, 0) and removed.winner is None


def test_a_refused_hand_in_a_replay_says_which_hand():
    bad = Hand((SideHand(meld_points=62), SideHand()))
    with pytest.raises(RuleError) as caught:
        play(classic_table(), [exact(100, 100), bad])
    assert caught.value.field == "sides[0].meld_points"
    assert caught.value.hand_number == 2


def test_adding_a_bad_hand_leaves_the_game_as_it_was():
    state = play(classic_table(), [exact(100, 100)])
    with pytest.raises(RuleError):
        add_hand(state, Hand((SideHand(meld_points=60, red_threes=5), SideHand())))
    assert state.totals == (100, 100) and len(state.results) == 1


# --- seating and the deal -----------------------------------------------------------------


def test_seating_interleaves_partners():
    assert classic_table().seating == ("Ann", "Cy", "Bob", "Di")
    three_pairs = (Side("A", ("a1", "a2")), Side("B", ("b1", "b2")), Side("C", ("c1", "c2")))
    assert seating(three_pairs) == ("a1", "b1", "c1", "a2", "b2", "c2")


@pytest.mark.parametrize(
    ("first_dealer", "deals"),
    [
        pytest.param(None, ["Ann", "Cy", "Bob", "Di", "Ann", "Cy"], id="first-seat-by-default"),
        pytest.param("Ann", ["Ann", "Cy", "Bob", "Di", "Ann", "Cy"], id="from-ann"),
        pytest.param("Bob", ["Bob", "Di", "Ann", "Cy", "Bob", "Di"], id="from-bob"),
        pytest.param("Di", ["Di", "Ann", "Cy", "Bob", "Di", "Ann"], id="from-di"),
    ],
)
def test_the_deal_passes_to_the_left_each_hand(first_dealer, deals):
    table = classic_table(first_dealer)
    assert [dealer(table, k) for k in range(len(deals))] == deals
    state = new_game(table)
    seen = []
    for _ in deals:
        seen.append(state.dealer_next)
        state = add_hand(state, exact(5, 5))
    assert seen == deals
    assert [result.dealer for result in state.results] == deals


def test_nobody_sits_out_at_four_players():
    table = classic_table()
    assert all(sitting_out(table, k) == () for k in range(8))
    assert new_game(table).sitting_out_next == ()


@pytest.mark.parametrize(
    ("sides", "first_dealer", "field"),
    [
        pytest.param((ANN_BOB, Side("X", ("Ann", "Di"))), None, "sides", id="same-name-twice"),
        pytest.param((ANN_BOB, CY_DI), "Eve", "first_dealer", id="dealer-not-at-the-table"),
        pytest.param((ANN_BOB,), None, "sides", id="one-side"),
        pytest.param((ANN_BOB, Side("X", ("Cy",))), None, "sides", id="2-and-1"),
        pytest.param((ANN_BOB, CY_DI, Side("X", ("Eve", "Fay"))), None, "sides", id="three-teams"),
    ],
)
def test_a_table_that_does_not_fit_classic_is_refused(sides, first_dealer, field):
    with pytest.raises(RuleError) as caught:
        make_table(CLASSIC, sides, first_dealer)
    assert caught.value.field == field
    assert len(caught.value.reason.split()) >= 3


SCORES = st.sampled_from([-400, 0, 300, 1200, 2500, 4000])
GAMES = st.lists(st.tuples(SCORES, SCORES), min_size=1, max_size=10)


@settings(max_examples=300, deadline=None)
@given(GAMES, st.data())
def test_correcting_or_removing_a_hand_is_replaying_the_changed_game(totals, data):
    hands = [exact(a, b) for a, b in totals]
    number = data.draw(st.integers(min_value=1, max_value=len(hands)))
    changed = exact(*data.draw(st.tuples(SCORES, SCORES)))
    state = play(classic_table(), hands)
    replaced = hands[: number - 1] + [changed] + hands[number:]
    assert correct(state, number, changed) == play(classic_table(), replaced)
    assert remove(state, number) == play(classic_table(), hands[: number - 1] + hands[number:])
