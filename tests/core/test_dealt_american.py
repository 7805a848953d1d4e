"""Modern American hands dealt from real shuffled packs (tests/deal_american.py) against the
engine: every hand a real table can play is accepted and scored as §5a adds its cards, typed
as points, counted by value group and given meld by meld (zero false refusals); each change
that makes a hand impossible is refused at its field. ``SCORER_DEALS=3000`` deals thousands.
"""

from __future__ import annotations

import os
import random
from dataclasses import dataclass, replace

import pytest
from deal_american import (
    EndOfHand,
    counted_hand,
    expected_scores,
    opening_minimum,
    play_hand,
    ranked_hand,
    typed_hand,
)
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from scorer.core.errors import RuleError
from scorer.core.families import MODERN_AMERICAN
from scorer.core.game import GameState, Side, add_hand, check_hand, make_table, new_game
from scorer.core.hands import Hand, SideHand
from scorer.core.irregular import NeedsConfirmation
from scorer.core.rules import profile_of

# Hundreds of shuffled packs a test: `make test` runs them, `make test-fast` not.
pytestmark = pytest.mark.slow

DEALS = int(os.environ.get("SCORER_DEALS", "0"))
DEALT = settings(
    max_examples=DEALS or 80,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)
PROFILE = profile_of(MODERN_AMERICAN, MODERN_AMERICAN.seatings[0])
TOTALS_BEFORE = (-900, 0, 2995, 3000, 4995, 5000, 8000)
CONFIRMED = frozenset({"opening_minimum"})
FORMS = {
    "typed": typed_hand,
    "counted": counted_hand,
    "melds": lambda end: ranked_hand(end, MODERN_AMERICAN),
}
MELD_FIELD = {"typed": "meld_points", "counted": "meld_cards", "melds": "melds"}


@dataclass(frozen=True)
class Deal:
    state: GameState
    end: EndOfHand


def game_at(totals: tuple[int, int]) -> GameState:
    sides = (Side("us", ("a", "b")), Side("them", ("c", "d")))
    return replace(new_game(make_table(PROFILE, sides)), totals=totals)


@st.composite
def deals(draw: st.DrawFn) -> Deal:
    totals = (draw(st.sampled_from(TOTALS_BEFORE)), draw(st.sampled_from(TOTALS_BEFORE)))
    minimums = (opening_minimum(totals[0]), opening_minimum(totals[1]))
    end = play_hand(minimums, random.Random(draw(st.integers(0, 2**64 - 1))))
    state = game_at(totals)
    assert state.minimums == minimums  # §5a's minimum table
    event("special hand" if any(s.special for s in end.sides) else "played")
    event("stock ran out" if end.went_out is None else "out")
    for kind in sorted({kind for side in end.sides for kind in side.canastas}):
        event(f"canasta: {kind}")
    for kind in sorted({kind for side in end.sides for kind in side.unfinished}):
        event(f"unfinished meld: {kind}")
    if any(side.players_holding for side in end.sides):
        event("a player holding three sevens or aces")
    return Deal(state, end)


@DEALT
@given(deals())
def test_every_real_hand_is_accepted_and_scored_in_every_entry_mode(deal: Deal) -> None:
    expected = expected_scores(deal.end)
    for form, make in FORMS.items():
        hand = make(deal.end)
        if deal.end.irregular:  # §2b: asked first, recorded once confirmed
            with pytest.raises(NeedsConfirmation):
                check_hand(deal.state, hand)
        found = check_hand(deal.state, hand, CONFIRMED)
        assert [item.field for item in found] == [
            f"sides[{i}].{MELD_FIELD[form]}" for i in deal.end.irregular
        ], form
        after = add_hand(deal.state, hand, confirmed=CONFIRMED)
        assert tuple(s.total for s in after.results[-1].scores) == expected, form


# --- one impossible thing at a time ---------------------------------------------------------


def _side(hand: Hand, index: int, **changes: object) -> Hand:
    sides = list(hand.sides)
    # The family again: melds given rank by rank are read by it.
    sides[index] = replace(sides[index], **changes, family=MODERN_AMERICAN)
    return replace(hand, sides=tuple(sides))


def refused(deal: Deal, hand: Hand) -> RuleError:
    with pytest.raises(RuleError) as error:
        check_hand(deal.state, hand, CONFIRMED)
    return error.value


@DEALT
@given(deals(), st.sampled_from(sorted(FORMS)), st.sampled_from(("red_threes", "black_threes")))
def test_more_threes_of_a_colour_than_the_packs_hold(deal: Deal, form: str, colour: str) -> None:
    hand = FORMS[form](deal.end)
    extra = 5 - sum(getattr(side, colour) for side in hand.sides)
    hand = _side(hand, 1, **{colour: getattr(hand.sides[1], colour) + extra})
    assert refused(deal, hand).field == f"sides[1].{colour}"


@DEALT
@given(deals(), st.sampled_from(sorted(FORMS)))
def test_going_out_with_fewer_than_two_canastas(deal: Deal, form: str) -> None:
    hand = FORMS[form](deal.end)
    short = [
        i
        for i, side in enumerate(hand.sides)
        if side.canasta_total < 2 and side.melded(PROFILE) and side.special_hand is None
    ]
    if not short:
        return
    error = refused(deal, replace(hand, went_out=short[0]))
    assert error.field.startswith(f"sides[{short[0]}].")
    assert "2 canastas" in str(error)


@DEALT
@given(deals(), st.sampled_from(sorted(FORMS)))
def test_a_special_hand_from_a_side_that_melded(deal: Deal, form: str) -> None:
    hand = FORMS[form](deal.end)
    melded = [i for i, side in enumerate(hand.sides) if side.melded(PROFILE)]
    if not melded:
        return
    i = melded[0]
    error = refused(deal, replace(_side(hand, i, special_hand="straight"), went_out=i))
    assert error.field == f"sides[{i}].special_hand"


@DEALT
@given(deals(), st.data())
def test_a_wild_card_with_sevens_or_a_third_wild_card(deal: Deal, data: st.DataObject) -> None:
    hand = FORMS["melds"](deal.end)
    spots = [
        (i, j, meld)
        for i, side in enumerate(hand.sides)
        for j, meld in enumerate(side.melds or ())
        if meld.rank != "wild" and (meld.rank == "7" or meld.wild == 2)
    ]
    if not spots:
        return
    i, j, meld = data.draw(st.sampled_from(spots))
    melds = list(hand.sides[i].melds or ())
    if meld.rank == "7":  # a two for one of the sevens
        melds[j] = replace(meld, naturals=meld.naturals - 1, twos=meld.twos + 1)
    else:  # a third wild card
        melds[j] = replace(meld, jokers=meld.jokers + 1)
    changed = SideHand(
        melds=tuple(melds),
        hand_points=hand.sides[i].hand_points,
        red_threes=hand.sides[i].red_threes,
        black_threes=hand.sides[i].black_threes,
        family=MODERN_AMERICAN,
    )
    sides = list(hand.sides)
    sides[i] = changed
    error = refused(deal, replace(hand, sides=tuple(sides)))
    assert error.field == f"sides[{i}].melds[{j}].{'twos' if meld.rank == '7' else 'jokers'}"


@DEALT
@given(deals())
def test_counted_cards_that_cannot_hold_one_more_canasta_of_sevens(deal: Deal) -> None:
    # A canasta of sevens is seven natural cards worth 5: where the counted 5 group holds
    # fewer than seven beside what the side already laid, no table can lay it down.
    hand = FORMS["counted"](deal.end)
    for i, side in enumerate(hand.sides):
        cards = side.meld_cards
        if cards is None or side.sevens_canastas or side.special_hand or cards.five >= 7:
            continue
        more = dict(side.canastas) | {"sevens": 1}
        error = refused(deal, _side(hand, i, canastas=tuple(sorted(more.items()))))
        assert error.field == f"sides[{i}].meld_cards"
        return
