"""Hands dealt from real shuffled packs (tests/deal.py) against the engine.

Every hand a real table can play is accepted and scored as its cards say, typed as points and
counted by value group (zero false refusals); every change that breaks one rule of docs/rules.md §2
is refused, naming the field it broke. ``SCORER_DEALS=3000 make test-deals`` deals thousands.
"""

from __future__ import annotations

import math
import os
import random
from collections.abc import Callable
from dataclasses import dataclass, replace
from functools import cache
from itertools import product

import pytest
from deal import (
    BOOKS,
    Book,
    EndOfHand,
    counted_hand,
    expected_scores,
    opening_minimum,
    play_hand,
    typed_hand,
)
from hypothesis import HealthCheck, assume, event, given, settings
from hypothesis import strategies as st

from scorer.core.errors import RuleError
from scorer.core.game import GameState, Side, add_hand, check_hand, make_table, new_game
from scorer.core.hands import CardCounts, Hand
from scorer.core.irregular import NeedsConfirmation
from scorer.core.rules import get_profile, with_target

# Hundreds of shuffled packs a test: `make test` runs them, `make test-fast` not.
pytestmark = pytest.mark.slow

DEALS = int(os.environ.get("SCORER_DEALS", "0"))
DEALT = settings(
    max_examples=DEALS or 60,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)
MUTATED = settings(DEALT, max_examples=max(DEALS // 4, 25))

# Every seating the scorer offers (docs/rules.md §3): teams, and every player for themselves.
LAYOUTS: tuple[tuple[str, tuple[int, ...], int], ...] = (
    ("classic", (2, 2), 5000),
    ("classic", (1, 1, 1, 1), 5000),
    ("two-player", (1, 1), 5000),
    ("three-player", (1, 1, 1), 7500),
    ("five-player", (3, 2), 5000),
    ("five-player", (1, 1, 1, 1, 1), 5000),
    ("six-player", (2, 2, 2), 7500),
    ("six-player", (3, 3), 10000),
    ("six-player", (1, 1, 1, 1, 1, 1), 7500),
)
TOTALS_BEFORE = (-150, 0, 1495, 1500, 3000, 7500)
CONFIRMED = frozenset({"opening_minimum"})


@dataclass(frozen=True)
class Deal:
    """A game at some totals, and the next hand dealt and played out at its table."""

    book: Book
    state: GameState
    end: EndOfHand

    @property
    def solo(self) -> bool:
        return len(self.end.sides) == self.book.players


def game_at(key: str, team_sizes: tuple[int, ...], target: int, totals: tuple[int, ...]):
    sides = tuple(
        Side(f"side {i}", tuple(f"p{i}.{j}" for j in range(size)))
        for i, size in enumerate(team_sizes)
    )
    table = make_table(with_target(get_profile(key), target), sides)
    return replace(new_game(table), totals=totals)


@st.composite
def deals(draw: st.DrawFn) -> Deal:
    key, team_sizes, target = draw(st.sampled_from(LAYOUTS))
    reachable = [t for t in TOTALS_BEFORE if t < target]
    totals = tuple(draw(st.sampled_from(reachable)) for _ in team_sizes)
    book = BOOKS[key]
    minimums = tuple(opening_minimum(total, target) for total in totals)
    seed = draw(st.integers(0, 2**64 - 1))
    end = play_hand(book, team_sizes, minimums, random.Random(seed))
    state = game_at(key, team_sizes, target, totals)
    assert state.minimums == minimums  # the minimum table, as docs/rules.md §1 has it
    event(f"{key} {'+'.join(map(str, team_sizes))}")
    event("stock ran out" if end.went_out is None else "concealed" if end.concealed else "out")
    event("irregular" if end.irregular else "regular")
    return Deal(book, state, end)


FORMS = {"typed": typed_hand, "counted": counted_hand}


def meld_field(form: str) -> str:
    return "meld_cards" if form == "counted" else "meld_points"


def hand_field(form: str) -> str:
    return "hand_cards" if form == "counted" else "hand_points"


@DEALT
@given(deals())
def test_every_real_hand_is_accepted_and_scored_from_its_cards(deal: Deal) -> None:
    expected = expected_scores(deal.book, deal.end)
    for form, make in FORMS.items():
        hand = make(deal.end)
        if deal.end.irregular:  # §2b: asked first, recorded once confirmed
            with pytest.raises(NeedsConfirmation) as asked:
                check_hand(deal.state, hand)
            first = deal.end.irregular[0]
            assert asked.value.field == f"sides[{first}].{meld_field(form)}"
        found = check_hand(deal.state, hand, CONFIRMED)
        assert [item.field for item in found] == [
            f"sides[{i}].{meld_field(form)}" for i in deal.end.irregular
        ]
        after = add_hand(deal.state, hand, confirmed=CONFIRMED)
        scores = tuple(score.total for score in after.results[-1].scores)
        assert scores == expected, form
        before = deal.state.totals
        assert after.totals == tuple(a + b for a, b in zip(before, expected, strict=True))


# --- one broken rule at a time ---------------------------------------------------------------

Mutation = Callable[[Deal, str, random.Random], tuple[Hand, str] | None]


def _side(hand: Hand, index: int, **changes: object) -> Hand:
    sides = list(hand.sides)
    sides[index] = replace(sides[index], **changes)
    return replace(hand, sides=tuple(sides))


def red_threes_beyond_packs(deal: Deal, form: str, rng: random.Random):
    """Rule 2: the packs hold two red threes each."""
    hand = FORMS[form](deal.end)
    last = len(hand.sides) - 1
    extra = 2 * deal.book.packs - sum(s.red_threes for s in hand.sides) + 1
    extra += rng.randrange(3)
    return _side(hand, last, red_threes=hand.sides[last].red_threes + extra), (
        f"sides[{last}].red_threes"
    )


def going_out_names_no_side(deal: Deal, form: str, rng: random.Random):
    """Rule 3: one side at most went out (a Hand names one side, so name none of them)."""
    hand = FORMS[form](deal.end)
    return replace(hand, went_out=len(hand.sides) + rng.randrange(2)), "went_out"


def concealed_without_going_out(deal: Deal, form: str, rng: random.Random):
    """Rule 3: only the side that went out can go out concealed."""
    if deal.end.went_out is not None:
        return None
    return replace(FORMS[form](deal.end), concealed=True), "concealed"


def too_few_canastas_to_go_out(deal: Deal, form: str, rng: random.Random):
    """Rule 4: going out takes the profile's canastas."""
    out = deal.end.went_out
    if out is None:
        return None
    fewer = rng.randrange(deal.book.to_go_out)
    hand = _side(FORMS[form](deal.end), out, natural_canastas=fewer, mixed_canastas=0)
    # With some natural canastas, the missing one is most likely a mixed one left out.
    box = "mixed_canastas" if fewer else "natural_canastas"
    return hand, f"sides[{out}].{box}"


def canastas_without_melds(deal: Deal, form: str, rng: random.Random):
    """Rule 5: a side with no melds has no canastas (and one with canastas melded cards)."""
    hand = FORMS[form](deal.end)
    bare = [i for i, s in enumerate(deal.end.sides) if not s.melds]
    if bare:
        i = rng.choice(bare)
        return _side(hand, i, natural_canastas=1), f"sides[{i}].{meld_field(form)}"
    i = rng.randrange(len(hand.sides))
    if not hand.sides[i].natural_canastas + hand.sides[i].mixed_canastas:
        return None
    empty = {"meld_cards": CardCounts()} if form == "counted" else {"meld_points": 0}
    return _side(hand, i, **empty), f"sides[{i}].{meld_field(form)}"


@cache
def cheapest_canastas(natural: int, mixed: int) -> int:
    """docs/rules.md rule 11: canastas on distinct ranks (four worth 5, six worth 10, the aces),
    each seven naturals (35, 70, 140) or six naturals and a two (50, 80, 140)."""
    best = math.inf
    for n5, n10, m5, m10 in product(range(5), range(7), range(5), range(7)):
        n20, m20 = natural - n5 - n10, mixed - m5 - m10
        if n5 + m5 <= 4 and n10 + m10 <= 6 and min(n20, m20) >= 0 and n20 + m20 <= 1:
            cost = 35 * n5 + 70 * n10 + 140 * n20 + 50 * m5 + 80 * m10 + 140 * m20
            best = min(best, cost)
    return int(best)


def meld_points_below_the_cheapest_canastas(deal: Deal, form: str, rng: random.Random):
    """Rules 6 and 11: canastas cost at least their cheapest cards, rank by rank."""
    hand = FORMS[form](deal.end)
    i = rng.randrange(len(hand.sides))
    side = hand.sides[i]
    if form != "typed" or not side.natural_canastas + side.mixed_canastas:
        return None
    least = cheapest_canastas(side.natural_canastas, side.mixed_canastas)
    below = least - 5 * (1 + rng.randrange(least // 5 - 3))  # still a meld of 15 or more
    return _side(hand, i, meld_points=below), f"sides[{i}].meld_points"


def counts_beyond_packs(deal: Deal, form: str, rng: random.Random):
    """Rule 7: counted cards of every side together fit in the packs."""
    if form != "counted":
        return None
    hand = FORMS[form](deal.end)
    group = rng.choice(("jokers", "twenty", "ten", "five"))
    per_pack = {"jokers": 2, "twenty": 8, "ten": 24, "five": 18}[group]
    seen = sum(getattr(s.meld_cards, group) + getattr(s.hand_cards, group) for s in hand.sides)
    extra = per_pack * deal.book.packs - seen + 1 + rng.randrange(3)
    last = len(hand.sides) - 1
    # The player who went out alone holds nothing (rule 13): the extra cards join the melds.
    name = "meld_cards" if deal.solo and deal.end.went_out == last else "hand_cards"
    counts = getattr(hand.sides[last], name)
    more = replace(counts, **{group: getattr(counts, group) + extra})
    return _side(hand, last, **{name: more}), f"sides[{last}].{name}.{group}"


def points_beyond_packs(deal: Deal, form: str, rng: random.Random):
    """Rule 8: all the points of a hand fit in the packs' card value (590 a pack)."""
    if form != "typed":
        return None
    hand = FORMS[form](deal.end)
    last = len(hand.sides) - 1
    name = "meld_points" if deal.solo and deal.end.went_out == last else "hand_points"
    before = sum(s.meld_points + s.hand_points for s in hand.sides[:last])
    before += hand.sides[last].meld_points if name == "hand_points" else 0
    value = 590 * deal.book.packs - before + 5 * (1 + rng.randrange(3))
    return _side(hand, last, **{name: value}), f"sides[{last}].{name}"


def meld_of_5_or_10(deal: Deal, form: str, rng: random.Random):
    """Rule 10: a meld is at least three cards worth 5 or more."""
    hand = FORMS[form](deal.end)
    i = rng.randrange(len(hand.sides))
    fives = 1 + rng.randrange(2)
    small = {"meld_cards": CardCounts(five=fives)} if form == "counted" else {}
    small = small or {"meld_points": 5 * fives}
    return _side(hand, i, **small), f"sides[{i}].{meld_field(form)}"


def twelve_canastas(deal: Deal, form: str, rng: random.Random):
    """Rule 11: one canasta per rank from 4 to ace, 11 at most, with three packs too."""
    hand = FORMS[form](deal.end)
    melded = [i for i, s in enumerate(deal.end.sides) if s.melds]
    if not melded:
        return None
    i = rng.choice(melded)
    natural = rng.randrange(13)
    if natural == 12:
        return _side(hand, i, natural_canastas=12), f"sides[{i}].natural_canastas"
    changed = _side(hand, i, natural_canastas=natural, mixed_canastas=12 - natural)
    return changed, f"sides[{i}].mixed_canastas"


def counted_melds_too_small(deal: Deal, form: str, rng: random.Random):
    """Rule 12: counted melds hold seven cards a canasta and a wild card a mixed one."""
    hand = FORMS[form](deal.end)
    i = rng.randrange(len(hand.sides))
    side = hand.sides[i]
    if form != "counted" or not side.natural_canastas + side.mixed_canastas:
        return None
    cards = side.meld_cards
    if side.mixed_canastas and rng.random() < 0.5:  # the wild cards counted as tens instead
        tame = CardCounts(ten=cards.ten + cards.jokers + cards.twenty, five=cards.five)
        return _side(hand, i, meld_cards=tame), f"sides[{i}].meld_cards"
    short = CardCounts(**_fewer(cards, 7 * (side.natural_canastas + side.mixed_canastas) - 1))
    return _side(hand, i, meld_cards=short), f"sides[{i}].meld_cards"


def _fewer(cards: CardCounts, keep: int) -> dict[str, int]:
    """The counted cards with some left out (the cheapest first), ``keep`` of them in all."""
    counts = {group: getattr(cards, group) for group in ("jokers", "twenty", "ten", "five")}
    for group in ("five", "ten", "twenty", "jokers"):
        extra = sum(counts.values()) - keep
        counts[group] -= min(max(extra, 0), counts[group])
    return counts


PER_PACK = {"jokers": 2, "twenty": 8, "ten": 24, "five": 18}


def _melds_no_table_lays(
    deal: Deal, form: str, rng: random.Random, melds: CardCounts, natural: int
):
    """Rule 12 (issue 22): a side that did not go out counts these melded cards, which no
    table can lay down; None when the packs could not even hold them (rule 7 speaks first)."""
    if form != "counted":
        return None
    hand = FORMS[form](deal.end)
    others = [i for i in range(len(hand.sides)) if i != deal.end.went_out]
    i = rng.choice(others)
    for group, per_pack in PER_PACK.items():
        seen = sum(getattr(s.meld_cards, group) + getattr(s.hand_cards, group) for s in hand.sides)
        seen += getattr(melds, group) - getattr(hand.sides[i].meld_cards, group)
        if seen > per_pack * deal.book.packs:
            return None
    changed = _side(hand, i, meld_cards=melds, natural_canastas=natural, mixed_canastas=0)
    return changed, f"sides[{i}].meld_cards"


def three_jokers_alone(deal: Deal, form: str, rng: random.Random):
    """Rule 12: wild cards alone are no meld."""
    return _melds_no_table_lays(deal, form, rng, CardCounts(jokers=3), 0)


def two_jokers_and_a_five(deal: Deal, form: str, rng: random.Random):
    """Rule 12: a meld needs two natural cards."""
    return _melds_no_table_lays(deal, form, rng, CardCounts(jokers=2, five=1), 0)


def natural_canasta_and_a_lone_twenty(deal: Deal, form: str, rng: random.Random):
    """Rule 12: a twenty-point card beside a natural canasta of fives has no meld to join."""
    return _melds_no_table_lays(deal, form, rng, CardCounts(five=7, twenty=1), 1)


def seven_tens_and_a_twenty_as_natural(deal: Deal, form: str, rng: random.Random):
    """Rule 12: the twenty is a two inside the canasta (which is then mixed), or a lone ace."""
    return _melds_no_table_lays(deal, form, rng, CardCounts(ten=7, twenty=1), 1)


def player_out_holds_cards(deal: Deal, form: str, rng: random.Random):
    """Rule 13: the player who went out holds no cards (a side of one: nothing in hand)."""
    out = deal.end.went_out
    if out is None or not deal.solo:
        return None
    fives = 1 + rng.randrange(3)
    held = {"hand_cards": CardCounts(five=fives)} if form == "counted" else {}
    held = held or {"hand_points": 5 * fives}
    return _side(FORMS[form](deal.end), out, **held), f"sides[{out}].{hand_field(form)}"


def not_a_multiple_of_5(deal: Deal, form: str, rng: random.Random):
    """Rule 1: points are multiples of 5."""
    if form != "typed":
        return None
    hand = FORMS[form](deal.end)
    name = rng.choice(("meld_points", "hand_points"))
    odd = getattr(hand.sides[0], name) + 1 + rng.randrange(4)
    return _side(hand, 0, **{name: odd}), f"sides[0].{name}"


MUTATIONS: tuple[Mutation, ...] = (
    not_a_multiple_of_5,
    red_threes_beyond_packs,
    going_out_names_no_side,
    concealed_without_going_out,
    too_few_canastas_to_go_out,
    canastas_without_melds,
    meld_points_below_the_cheapest_canastas,
    counts_beyond_packs,
    points_beyond_packs,
    meld_of_5_or_10,
    twelve_canastas,
    counted_melds_too_small,
    three_jokers_alone,
    two_jokers_and_a_five,
    natural_canasta_and_a_lone_twenty,
    seven_tens_and_a_twenty_as_natural,
    player_out_holds_cards,
)


@pytest.mark.parametrize("mutation", MUTATIONS, ids=lambda m: m.__name__)
@MUTATED
@given(deals(), st.sampled_from(sorted(FORMS)), st.randoms(use_true_random=False))
def test_a_hand_breaking_one_rule_is_refused_naming_the_field(
    mutation: Mutation, deal: Deal, form: str, rng: random.Random
) -> None:
    broken = mutation(deal, form, rng)
    assume(broken is not None)
    assert broken is not None
    hand, field = broken
    with pytest.raises(RuleError) as refused:
        check_hand(deal.state, hand, CONFIRMED)
    assert not isinstance(refused.value, NeedsConfirmation)  # §2 is never confirmable
    assert refused.value.field == field
    with pytest.raises(RuleError):
        add_hand(deal.state, hand, confirmed=CONFIRMED)
