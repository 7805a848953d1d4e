"""Property tests: the engine against an independent statement of docs/rules.md.

Everything the engine is compared with is written again here, from the rule book, with the
numbers typed in by hand: card values, bonuses, red-three values, pack contents, the
consistency rules of section 2, the minimum table and the end-of-game rule.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from itertools import product
from typing import Any

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from scorer.core.errors import RuleError
from scorer.core.game import Side, add_hand, make_table, new_game, winner
from scorer.core.hands import CardCounts, Hand, SideHand, score_hand, validate_hand
from scorer.core.rules import get_profile, with_target

# Hypothesis draws hundreds of hands a test: `make test` runs them, `make test-fast` not.
pytestmark = pytest.mark.slow

MODEST = settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])

# --- the rule book, typed in again --------------------------------------------------------

CARD_VALUE = {"jokers": 50, "twenty": 20, "ten": 10, "five": 5}
PER_PACK = {"jokers": 2, "twenty": 8, "ten": 24, "five": 18}


@dataclass(frozen=True)
class Book:
    """The numbers of one profile as docs/rules.md states them."""

    key: str
    packs: int
    to_go_out: int
    side_counts: tuple[int, ...]  # its layouts, "every player for themselves" included
    players: int

    def red_threes(self, count: int) -> int:
        if self.packs == 3:  # six-player: 100 each, 5 of them 1 000, all 6 1 200
            return {5: 1000, 6: 1200}.get(count, 100 * count)
        return 800 if count == 4 else 100 * count


BOOKS = (
    Book("classic", 2, 1, (2, 4), 4),
    Book("two-player", 2, 2, (2,), 2),
    Book("three-player", 2, 1, (3,), 3),
    Book("five-player", 2, 1, (2, 5), 5),
    Book("six-player", 3, 2, (3, 2, 6), 6),
)


def is_whole(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def counted(counts: CardCounts) -> int:
    return sum(getattr(counts, group) * value for group, value in CARD_VALUE.items())


def melded(side: SideHand) -> int:
    """Card points melded: counts decide when given (the README's rule)."""
    return side.meld_points if side.meld_cards is None else counted(side.meld_cards)


def held(side: SideHand) -> int:
    return side.hand_points if side.hand_cards is None else counted(side.hand_cards)


# Ranks 4 to ace by card value, and the cheapest natural and mixed canasta on each (rule 11).
RANK_COSTS = [(35, 50)] * 4 + [(70, 80)] * 6 + [(140, 140)]


def cheapest(natural: int, mixed: int) -> int | None:
    """Fewest card points for these canastas, one per rank at most (None: more than 11)."""
    best = {(0, 0): 0}
    for cost_n, cost_m in RANK_COSTS:
        step = dict(best)
        for (n, m), cost in best.items():
            for key, extra in (((n + 1, m), cost_n), ((n, m + 1), cost_m)):
                if key[0] <= natural and key[1] <= mixed:
                    step[key] = min(step.get(key, 10**9), cost + extra)
        best = step
    return best.get((natural, mixed))


def counted_ok(
    counts: CardCounts, natural: int, mixed: int, *, went_out: bool = False, packs: int = 2
) -> bool:
    """Rule 12, as docs/rules.md states it, on counted melded cards: every card in a declared
    canasta or a meld of 3 to 6 cards of one rank (2+ natural, at most 3 wild), one meld a
    rank; the 20 group is aces and twos in some split; black threes (3 or 4) only when out."""
    if min(counts.jokers, counts.twenty, counts.ten, counts.five) < 0:
        return False
    cap = 4 * packs  # natural cards of one rank in the packs
    for twos, black in product(range(min(counts.twenty, cap) + 1), (0, 3, 4) if went_out else (0,)):
        aces, wild, fives = counts.twenty - twos, counts.jokers + twos, counts.five - black
        if aces > cap or fives < 0:
            continue
        for n5, m5, w5 in product(range(natural + 1), range(mixed + 1), range(wild + 1)):
            if not _group_ok(4, cap, fives, n5, m5, w5):
                continue
            for na, ma, wa in product(
                range(natural - n5 + 1), range(mixed - m5 + 1), range(wild - w5 + 1)
            ):
                rest = (natural - n5 - na, mixed - m5 - ma, wild - w5 - wa)
                if _group_ok(1, cap, aces, na, ma, wa) and _group_ok(6, cap, counts.ten, *rest):
                    return True
    return False


def _group_ok(ranks: int, cap: int, naturals: int, natural: int, mixed: int, wild: int) -> bool:
    """Whether one value group's ranks (a meld each at most) hold these natural cards as
    ``natural`` natural canastas (7 to cap naturals), ``mixed`` mixed ones (1 to 3 wild, 7+
    cards) and some plain melds (2+ naturals, 0 to 3 wild, 3 to 6 cards), with ``wild`` wild
    cards. Bounds: wild cards in mixed canastas lower their naturals and raise nothing, so
    they go there first; each plain meld's first wild card saves one natural card."""
    for plain in range(ranks - natural - mixed + 1):
        if not mixed <= wild <= 3 * (mixed + plain):
            continue
        in_mixed = min(3 * mixed, wild)
        in_plain = wild - in_mixed
        least = 7 * (natural + mixed) - in_mixed + 3 * plain - min(plain, in_plain)
        most = cap * (natural + mixed) + 6 * plain - in_plain
        if least <= naturals <= most:
            return True
    return False


def broken_rules(book: Book, hand: Hand) -> list[int]:
    """Numbers of the docs/rules.md section 2 rules this hand breaks (empty: a valid hand)."""
    sides = hand.sides
    # Rule 1: typed points are whole, >= 0, multiples of 5; counts are whole and >= 0.
    # A typed points field is itself a number of points of the hand, so it fits in the packs.
    for side in sides:
        for points in (side.meld_points, side.hand_points):
            if not is_whole(points) or points < 0 or points % 5 or points > 590 * book.packs:
                return [1]
        numbers = [side.natural_canastas, side.mixed_canastas, side.red_threes]
        for counts in (side.meld_cards, side.hand_cards):
            if counts is not None:
                numbers += [getattr(counts, group) for group in CARD_VALUE]
        if not all(is_whole(n) and n >= 0 for n in numbers):
            return [1]
    # Rule 3 (its first half is structural: went_out names one side, or nobody).
    if hand.went_out is not None and (
        not is_whole(hand.went_out) or not 0 <= hand.went_out < len(sides)
    ):
        return [3]
    broken = []
    if sum(side.red_threes for side in sides) > 2 * book.packs:
        broken.append(2)
    if hand.concealed and hand.went_out is None:
        broken.append(3)
    if hand.went_out is not None:
        out = sides[hand.went_out]
        if out.natural_canastas + out.mixed_canastas < book.to_go_out:
            broken.append(4)
        if melded(out) == 0:
            broken.append(5)
    for index, side in enumerate(sides):
        if melded(side) == 0 and side.natural_canastas + side.mixed_canastas > 0:
            broken.append(5)
        if melded(side) < 35 * side.natural_canastas + 50 * side.mixed_canastas:
            broken.append(6)
        if 0 < melded(side) < 15:
            broken.append(10)
        least = cheapest(side.natural_canastas, side.mixed_canastas)
        if least is None or melded(side) < least:
            broken.append(11)
        if side.meld_cards is not None and not counted_ok(
            side.meld_cards,
            side.natural_canastas,
            side.mixed_canastas,
            went_out=hand.went_out == index,
            packs=book.packs,
        ):
            broken.append(12)
    if hand.went_out is not None and len(sides) == book.players and held(sides[hand.went_out]):
        broken.append(13)
    for group in CARD_VALUE:
        cards = sum(
            getattr(counts, group)
            for side in sides
            for counts in (side.meld_cards, side.hand_cards)
            if counts is not None
        )
        if cards > PER_PACK[group] * book.packs:
            broken.append(7)
    if sum(melded(side) + held(side) for side in sides) > 590 * book.packs:
        broken.append(8)
    return broken


def side_total(book: Book, hand: Hand, index: int) -> int:
    """docs/rules.md: cards + canasta bonuses +/- red threes + going out - cards left in hand."""
    side = hand.sides[index]
    red = book.red_threes(side.red_threes)
    if melded(side) == 0:
        red = -red
    going_out = 0
    if hand.went_out == index:
        going_out = 200 if hand.concealed else 100
    bonus = 500 * side.natural_canastas + 300 * side.mixed_canastas
    return melded(side) + bonus + red + going_out - held(side)


def opening_minimum(total: int, target: int) -> int:
    if total < 0:
        return 15
    if total < 1500:
        return 50
    if total < 3000:
        return 90
    if total >= 7500 and target >= 10000:
        return 150
    return 120


def expected_winner(totals: tuple[int, ...], target: int) -> int | None:
    top = max(totals)
    if top < target or totals.count(top) > 1:
        return None
    return totals.index(top)


# --- strategies ---------------------------------------------------------------------------


def mostly(good: st.SearchStrategy, bad: st.SearchStrategy, odds: int = 80) -> st.SearchStrategy:
    """A bad value once in ``odds`` draws: a hand has many fields, and valid hands must stay
    common too."""
    return st.integers(1, odds).flatmap(lambda k: bad if k == 1 else good)


ODD_NUMBERS = st.sampled_from([-5, -1, 2.5, 10.0, True, 3, 1001])
points = mostly(
    st.integers(0, 80).map(lambda n: n * 5), st.one_of(ODD_NUMBERS, st.integers(-20, 1300))
)
small = mostly(st.integers(0, 2), st.one_of(ODD_NUMBERS, st.integers(0, 40)))
red_threes = mostly(
    st.sampled_from([0, 0, 0, 1, 1, 2, 3]), st.one_of(ODD_NUMBERS, st.integers(0, 8))
)
counts = st.builds(
    CardCounts,
    jokers=mostly(st.integers(0, 2), st.integers(-1, 7)),
    twenty=mostly(st.integers(0, 5), st.integers(-1, 25)),
    ten=mostly(st.integers(0, 12), st.integers(-1, 75)),
    five=mostly(st.integers(0, 10), st.integers(-1, 55)),
)
maybe_counts = st.one_of(st.none(), st.none(), counts)
any_side = st.builds(
    SideHand,
    meld_points=points,
    natural_canastas=small,
    mixed_canastas=small,
    red_threes=red_threes,
    hand_points=points,
    meld_cards=maybe_counts,
    hand_cards=maybe_counts,
)


@st.composite
def any_hand(draw: st.DrawFn) -> tuple[Book, int, Hand]:
    """A hand of any profile, valid or not."""
    book = draw(st.sampled_from(BOOKS))
    size = draw(st.sampled_from(book.side_counts))
    sides = tuple(draw(any_side) for _ in range(size))
    went_out = draw(
        mostly(st.none() | st.integers(0, size - 1), st.sampled_from([-1, size, True]), odds=10)
    )
    return book, size, Hand(sides, went_out, draw(st.sampled_from([False, False, False, True])))


def valid_counts(cap: dict[str, int]) -> st.SearchStrategy[CardCounts]:
    return st.builds(CardCounts, **{group: st.integers(0, cap[group]) for group in CARD_VALUE})


def topped_up(cards: CardCounts, least: int, cap: dict[str, int]) -> CardCounts:
    """Add cards (within the caps) until they are worth at least ``least``."""
    for group in ("ten", "twenty", "five", "jokers"):
        while counted(cards) < least and getattr(cards, group) < cap[group]:
            cards = replace(cards, **{group: getattr(cards, group) + 1})
    return cards


@st.composite
def valid_side(draw: st.DrawFn, book: Book, size: int, red_threes: int) -> SideHand:
    """A side that keeps every rule on its own, within its share of the packs.

    Each side's melds and hand each get a 1 / (2 x sides) share of every card group and of
    the packs' value, so that all sides together always fit (rules 7 and 8)."""
    cap = {group: PER_PACK[group] * book.packs // (2 * size) for group in CARD_VALUE}
    cap_points = 590 * book.packs // (2 * size) // 5 * 5
    natural, mixed = draw(
        st.tuples(st.integers(0, 2), st.integers(0, 2)).filter(
            lambda c: (cheapest(*c) or 0) <= min(cap_points, counted(CardCounts(**cap)))
        )
    )
    least = cheapest(natural, mixed) or 0
    fields: dict[str, Any] = {}
    meld_cards = topped_up(draw(valid_counts(cap)), least, cap)
    if draw(st.booleans()) or not counted_ok(meld_cards, natural, mixed, packs=book.packs):
        points = draw(
            st.just(least) | st.integers(least // 5, cap_points // 5).map(lambda n: n * 5)
        )
        fields["meld_points"] = 15 if 0 < points < 15 else points
    else:
        fields["meld_cards"] = meld_cards
    if draw(st.booleans()):
        fields["hand_points"] = draw(st.integers(0, cap_points // 5).map(lambda n: n * 5))
    else:
        fields["hand_cards"] = draw(valid_counts(cap))
    return SideHand(natural_canastas=natural, mixed_canastas=mixed, red_threes=red_threes, **fields)


def filled_to_the_limit(draw: st.DrawFn, book: Book, sides: tuple[SideHand, ...]):
    """Give one field all that is left of the packs (one card group, or points), so that
    rules 7 and 8 are met exactly; kept only when the hand still keeps every rule."""
    index = draw(st.integers(0, len(sides) - 1))
    side = sides[index]
    name = draw(st.sampled_from(["meld", "hand"]))
    cards = getattr(side, f"{name}_cards")
    if cards is not None:
        group = draw(st.sampled_from(list(CARD_VALUE)))
        in_use = sum(
            getattr(counts, group)
            for other in sides
            for counts in (other.meld_cards, other.hand_cards)
            if counts is not None
        )
        left = PER_PACK[group] * book.packs - in_use
        side = replace(
            side, **{f"{name}_cards": replace(cards, **{group: getattr(cards, group) + left})}
        )
    else:
        left = 590 * book.packs - sum(melded(other) + held(other) for other in sides)
        side = replace(side, **{f"{name}_points": getattr(side, f"{name}_points") + left})
    filled = sides[:index] + (side,) + sides[index + 1 :]
    if broken_rules(book, Hand(filled)):
        return sides
    return filled


@st.composite
def valid_hand(draw: st.DrawFn, book: Book | None = None, size: int | None = None) -> Hand:
    """A hand that keeps every rule of section 2 (checked by the independent statement)."""
    book = book or draw(st.sampled_from(BOOKS))
    size = size or draw(st.sampled_from(book.side_counts))
    holder = st.integers(0, size - 1)
    holders = draw(
        st.lists(holder, max_size=2 * book.packs)
        | st.lists(holder, min_size=2 * book.packs, max_size=2 * book.packs)
    )
    sides = tuple(draw(valid_side(book, size, holders.count(i))) for i in range(size))
    if draw(st.booleans()):
        sides = filled_to_the_limit(draw, book, sides)
    can_go_out = [
        i
        for i, side in enumerate(sides)
        if melded(side) > 0 and side.natural_canastas + side.mixed_canastas >= book.to_go_out
    ]
    went_out = draw(st.none() | st.sampled_from(can_go_out)) if can_go_out else None
    concealed = went_out is not None and draw(st.booleans())
    if went_out is not None and size == book.players:  # rule 13: who went out holds nothing
        alone = replace(sides[went_out], hand_points=0, hand_cards=None)
        sides = sides[:went_out] + (alone,) + sides[went_out + 1 :]
    hand = Hand(sides, went_out, concealed)
    assert not broken_rules(book, hand)  # the generator itself keeps the rules
    return hand


# --- properties ---------------------------------------------------------------------------


@MODEST
@given(any_hand())
def test_validation_accepts_a_hand_exactly_when_it_keeps_every_rule(case):
    book, size, hand = case
    broken = broken_rules(book, hand)
    event("valid" if not broken else "invalid")
    for rule in sorted(set(broken)):
        event(f"breaks rule {rule}")
    try:
        validate_hand(get_profile(book.key), hand, size)
    except RuleError as error:
        assert broken, f"refused a hand that keeps every rule: {error}"
        assert error.field and error.field.split("[")[0].split(".")[0] in {
            "sides",
            "went_out",
            "concealed",
        }
    else:
        assert not broken, f"accepted a hand that breaks rules {broken}"


@MODEST
@given(st.data())
def test_a_valid_hand_passes_and_scores_the_sum_of_its_parts_as_the_rule_book_says(data):
    book = data.draw(st.sampled_from(BOOKS))
    size = data.draw(st.sampled_from(book.side_counts))
    hand = data.draw(valid_hand(book, size))
    validate_hand(get_profile(book.key), hand, size)  # a valid hand is accepted
    scores = score_hand(get_profile(book.key), hand)
    assert len(scores) == size
    for index, score in enumerate(scores):
        parts = score.cards + score.canastas + score.red_threes + score.going_out + score.hand
        assert score.total == parts
        assert score.total == side_total(book, hand, index)
        assert score.cards == melded(hand.sides[index])
        assert score.hand == -held(hand.sides[index])
    assert sum(score.going_out > 0 for score in scores) == (hand.went_out is not None)


CLASSIC_BOOK = BOOKS[0]
TABLE = make_table(get_profile("classic"), (Side("A", ("a1", "a2")), Side("B", ("b1", "b2"))))


@MODEST
@given(st.lists(valid_hand(CLASSIC_BOOK, 2), min_size=1, max_size=12))
def test_running_totals_are_the_sums_of_the_hand_totals(hands):
    state = new_game(TABLE)
    totals = (0, 0)
    for hand in hands:
        if expected_winner(totals, 5000) is not None:
            break
        before = totals
        state = add_hand(state, hand)
        totals = tuple(t + side_total(CLASSIC_BOOK, hand, i) for i, t in enumerate(totals))
        result = state.results[-1]
        assert result.minimums == tuple(opening_minimum(t, 5000) for t in before)
        assert result.totals == totals == state.totals
        assert state.winner == expected_winner(totals, 5000)
    assert state.totals == tuple(
        sum(result.scores[i].total for result in state.results) for i in range(2)
    )
    assert state.minimums == tuple(opening_minimum(t, 5000) for t in state.totals)


@st.composite
def nudged_hand(draw: st.DrawFn) -> tuple[Book, int, Hand]:
    """A valid hand with one field nudged a little: lands on both sides of each boundary."""
    book = draw(st.sampled_from(BOOKS))
    size = draw(st.sampled_from(book.side_counts))
    hand = draw(valid_hand(book, size))
    index = draw(st.integers(0, size - 1))
    side = hand.sides[index]
    names = ["natural_canastas", "mixed_canastas", "red_threes", "meld_points", "hand_points"]
    name = draw(st.sampled_from([*names, "meld_cards", "hand_cards", "went_out", "concealed"]))
    if name == "went_out":
        return book, size, replace(hand, went_out=draw(st.none() | st.integers(0, size - 1)))
    if name == "concealed":
        return book, size, replace(hand, concealed=not hand.concealed)
    if name in ("meld_cards", "hand_cards"):
        cards = getattr(side, name) or CardCounts()
        group = draw(st.sampled_from(list(CARD_VALUE)))
        cards = replace(cards, **{group: getattr(cards, group) + draw(st.sampled_from([-1, 1, 9]))})
        side = replace(side, **{name: cards})
    else:
        step = draw(st.sampled_from([-5, -1, 1, 5, 100]))
        side = replace(side, **{name: getattr(side, name) + step})
    sides = hand.sides[:index] + (side,) + hand.sides[index + 1 :]
    return book, size, replace(hand, sides=sides)


@MODEST
@given(nudged_hand())
def test_validation_draws_each_boundary_where_the_rule_book_does(case):
    book, size, hand = case
    broken = broken_rules(book, hand)
    event("valid" if not broken else "invalid")
    try:
        validate_hand(get_profile(book.key), hand, size)
    except RuleError as error:
        assert broken, f"refused a hand that keeps every rule: {error}"
    else:
        assert not broken, f"accepted a hand that breaks rules {broken}"


totals_of_a_game = st.integers(-400, 4400).map(lambda n: n * 5)
targets = st.integers(2, 40).map(lambda n: n * 500)


@MODEST
@given(targets, st.data())
def test_the_winner_leads_alone_with_at_least_the_target(target, data):
    near_the_target = st.integers(-2, 2).map(lambda k: target + 5 * k)
    totals = tuple(data.draw(st.lists(totals_of_a_game | near_the_target, min_size=2, max_size=6)))
    profile = with_target(get_profile("classic"), target)
    event("tied at the top" if totals.count(max(totals)) > 1 else "one leader")
    assert winner(profile, totals) == expected_winner(totals, target)


@MODEST
@given(totals_of_a_game, targets)
def test_the_opening_minimum_follows_the_rule_book_table(total, target):
    profile = with_target(get_profile("classic"), target)
    assert profile.opening_minimum(total) == opening_minimum(total, target)
