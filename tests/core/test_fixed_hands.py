"""Games of N hands (docs/rules.md §3, issue 23 point 1): the game ends after hand N, the higher
total wins, a tie at the top plays one more hand (the book's tie)."""

from __future__ import annotations

import pytest
from test_game import ANN_BOB, CY_DI, exact

from scorer.core.errors import RuleError
from scorer.core.game import add_hand, correct, make_table, play, remove, winner
from scorer.core.rules import get_profile, with_fixed_hands


def four_hands_table():
    return make_table(with_fixed_hands(get_profile("classic"), 4), (ANN_BOB, CY_DI))


# --- the core ---------------------------------------------------------------------------------


def test_the_game_goes_on_until_hand_n_whatever_the_totals():
    # 6 000 after two hands would win a game to 5 000; a game of four hands goes on.
    state = play(four_hands_table(), [exact(3000, 100), exact(3000, 100), exact(100, 200)])
    assert state.totals == (6100, 400)
    assert state.winner is None and not state.finished and not state.tied


def test_after_hand_n_the_higher_total_wins_even_below_the_target():
    hands = [exact(300, 100), exact(200, 100), exact(100, 600), exact(0, 0)]
    state = play(four_hands_table(), hands)
    assert state.totals == (600, 800)
    assert state.winner == 1 and state.ended_at == 4


def test_a_tie_after_hand_n_plays_one_more_hand():
    hands = [exact(300, 100), exact(100, 300), exact(0, 0), exact(50, 50)]
    state = play(four_hands_table(), hands)
    assert state.totals == (450, 450)
    assert state.winner is None and state.tied
    state = add_hand(state, exact(-50, 10))
    assert state.totals == (400, 460)
    assert state.winner == 1 and state.ended_at == 5 and not state.tied


def test_corrections_move_the_end_of_a_game_of_n_hands():
    hands = [exact(300, 100), exact(100, 300), exact(0, 0), exact(50, 50), exact(0, 20)]
    state = play(four_hands_table(), hands)
    assert state.winner == 1 and state.ended_at == 5
    # Hand 4 corrected: no more tie after hand 4, so hand 5 comes after the end (§2c).
    state = correct(state, 4, exact(60, 50))
    assert state.winner == 0 and state.ended_at == 4 and state.after_end == (5,)
    # Removing hand 1 leaves four hands: the game ends at the (new) hand 4.
    state = remove(play(four_hands_table(), hands), 1)
    assert state.totals == (150, 370) and state.winner == 1 and state.ended_at == 4


@pytest.mark.parametrize(
    ("totals", "hands", "expected"),
    [
        ((100, 50), 3, None),
        ((100, 50), 4, 0),
        ((-100, -50), 4, 1),
        ((100, 100), 4, None),
        ((100, 100, 90), 5, None),
        ((100, 90, 100, 110), 4, 3),
    ],
)
def test_winner_of_a_game_of_four_hands(totals, hands, expected):
    assert winner(with_fixed_hands(get_profile("classic"), 4), totals, hands) == expected


@pytest.mark.parametrize("hands", [0, -1, 51, True, "4", 2.5])
def test_a_number_of_hands_outside_the_limits_is_refused(hands):
    with pytest.raises(RuleError) as error:
        with_fixed_hands(get_profile("classic"), hands)
    assert error.value.field == "fixed_hands"
