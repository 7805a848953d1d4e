"""What canastas cost in cards (RULES.md §2, rules 11 and 12): plain arithmetic on ranks.

A side melds at most one meld per rank, and only ranks 4 to ace make melds: four ranks worth
5 (4 to 7), six worth 10 (8 to K) and the aces worth 20. A canasta's cheapest cards depend on
its rank, so the cheapest set of canastas puts them on the cheapest distinct ranks.

Cards counted by value group are checked exactly (rule 12): a small search over the ranks of
each group tries every way to lay them down as the declared canastas plus ordinary melds, by
the meld rules of :mod:`scorer.core.meld`.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache, lru_cache
from itertools import product
from typing import Protocol

from scorer.core.meld import (
    BLACK_THREES_GOING_OUT,
    CANASTA_CARDS,
    MAX_WILD,
    MIN_CARDS,
    MIN_NATURALS,
)


@dataclass(frozen=True)
class RankGroup:
    """Ranks that share a card value, with the cheapest canastas made on one of them."""

    group: str  # the value group of its natural cards (see rules.VALUE_GROUPS)
    ranks: int
    natural: int  # seven natural cards
    mixed: int  # six natural cards and a two (four aces and three twos for aces)


RANK_GROUPS: tuple[RankGroup, ...] = (
    RankGroup("five", 4, natural=35, mixed=50),
    RankGroup("ten", 6, natural=70, mixed=80),
    RankGroup("twenty", 1, natural=140, mixed=140),
)
MELDABLE_RANKS = sum(g.ranks for g in RANK_GROUPS)  # 11: one canasta per rank at most
MELD_CARDS = MIN_CARDS
# Of each rank (aces and twos included), a pack holds four cards; of black threes, two.
CARDS_A_RANK = 4
BLACK_THREES_A_PACK = 2


class Counts(Protocol):
    """Cards counted by value group (hands.CardCounts)."""

    jokers: int
    twenty: int
    ten: int
    five: int


# A way to put canastas on ranks: (naturals, mixed) on each rank group, in RANK_GROUPS order.
Placement = tuple[tuple[int, int], ...]


@cache
def placements(natural: int, mixed: int) -> tuple[Placement, ...]:
    """Every way to put these canastas on distinct meldable ranks (none when too many)."""
    found = []
    splits = [
        [(n, m) for n in range(g.ranks + 1) for m in range(g.ranks + 1 - n)] for g in RANK_GROUPS
    ]
    for placement in product(*splits):
        if sum(n for n, _ in placement) == natural and sum(m for _, m in placement) == mixed:
            found.append(placement)
    return tuple(found)


def cheapest_canastas(natural: int, mixed: int) -> int | None:
    """The fewest meld points these canastas need; None when there are more than 11."""
    if natural + mixed > MELDABLE_RANKS:
        return None
    return min(
        sum(n * g.natural + m * g.mixed for g, (n, m) in zip(RANK_GROUPS, p, strict=True))
        for p in placements(natural, mixed)
    )


def counted_melds_problem(
    counts: Counts, natural: int, mixed: int, *, packs: int = 2, went_out: bool = False
) -> str | None:
    """Why counted melded cards cannot hold the declared canastas (rule 12); None if they can.

    The answer is one of "meld" (fewer than three cards), "cards" (fewer than seven cards a
    canasta), "wild" (fewer wild cards than mixed canastas), "natural" (no way to make the
    natural canastas out of one value group's natural cards each) and "melds" (no way to lay
    every counted card down as the canastas plus legal melds: see :func:`counted_melds_fit`).
    The first four are quick to tell and name the likeliest slip; "melds" is the exact test.
    """
    cards = counts.jokers + counts.twenty + counts.ten + counts.five
    if 0 < cards < MELD_CARDS:
        return "meld"
    if cards < CANASTA_CARDS * (natural + mixed):
        return "cards"
    if counts.jokers + counts.twenty < mixed:
        return "wild"
    if natural and not any(_holds(counts, p) for p in placements(natural, 0)):
        return "natural"
    if not counted_melds_fit(counts, natural, mixed, packs=packs, went_out=went_out):
        return "melds"
    return None


def _holds(counts: Counts, placement: Placement) -> bool:
    """Whether the counted cards hold seven natural cards of a group for each canasta."""
    return all(
        CANASTA_CARDS * n <= getattr(counts, g.group)
        for g, (n, _m) in zip(RANK_GROUPS, placement, strict=True)
    )


# --- rule 12 exactly: can the counted cards be laid down? ------------------------------------


def counted_melds_fit(
    counts: Counts, natural: int, mixed: int, *, packs: int = 2, went_out: bool = False
) -> bool:
    """Whether a side's melded cards, counted by value group, split into ``natural`` natural
    canastas, ``mixed`` mixed ones and ordinary melds, one meld per rank at most.

    The 20 group is aces (natural) and twos (wild) in some split; the 5 group may hold one
    meld of three or four black threes when the side went out (RULES.md §1).
    """
    if min(counts.jokers, counts.twenty, counts.ten, counts.five, natural, mixed) < 0:
        return False
    cap = CARDS_A_RANK * packs
    threes = [0]
    if went_out:
        threes += [n for n in BLACK_THREES_GOING_OUT if n <= BLACK_THREES_A_PACK * packs]
    for twos in range(max(0, counts.twenty - cap), min(counts.twenty, cap) + 1):
        for black in threes:
            if black > counts.five:
                continue
            wild = counts.jokers + twos
            naturals = (counts.five - black, counts.ten, counts.twenty - twos)
            if _groups_fit(naturals, natural, mixed, wild, cap):
                return True
    return False


# Bounded: counts come from the outside (rule 7 refuses those beyond the packs only later).
@lru_cache(maxsize=4096)
def _groups_fit(naturals: tuple[int, ...], natural: int, mixed: int, wild: int, cap: int) -> bool:
    """Whether the natural cards of each rank group (RANK_GROUPS order) and the wild cards
    make exactly these canastas and legal melds."""
    five, ten, twenty = (
        _group_options(g.ranks, cap, n) for g, n in zip(RANK_GROUPS, naturals, strict=True)
    )
    for n20, m20, w20 in twenty:
        for n5, m5, w5 in five:
            if (natural - n20 - n5, mixed - m20 - m5, wild - w20 - w5) in ten:
                return True
    return False


@lru_cache(maxsize=4096)
def _group_options(ranks: int, cap: int, naturals: int) -> frozenset[tuple[int, int, int]]:
    """Every (natural canastas, mixed canastas, wild cards) that ``naturals`` natural cards
    spread over ``ranks`` ranks of one group make, every one of them melded: each rank holds
    one meld or none, with at most ``cap`` natural cards (what the packs hold of a rank)."""
    if ranks == 0 or naturals > cap * ranks:
        return frozenset({(0, 0, 0)} if naturals == 0 else ())
    found = set(_group_options(ranks - 1, cap, naturals))  # this rank is not melded
    for k, wild, natural, mixed in _shapes(cap):
        if k <= naturals:
            for n, m, w in _group_options(ranks - 1, cap, naturals - k):
                found.add((n + natural, m + mixed, w + wild))
    return frozenset(found)


@cache
def _shapes(cap: int) -> tuple[tuple[int, int, int, int], ...]:
    """Every meld one rank can hold: (natural cards, wild cards, natural canasta, mixed)."""
    found = []
    for naturals in range(MIN_NATURALS, cap + 1):
        for wild in range(MAX_WILD + 1):
            cards = naturals + wild
            if cards < MIN_CARDS:
                continue
            # Seven cards or more make a canasta: natural without wild cards, else mixed.
            canasta = cards >= CANASTA_CARDS
            found.append((naturals, wild, int(canasta and not wild), int(canasta and wild > 0)))
    return tuple(found)
