"""What canastas cost in cards (RULES.md §2, rules 11 and 12): plain arithmetic on ranks.

A side melds at most one meld per rank, and only ranks 4 to ace make melds: four ranks worth
5 (4 to 7), six worth 10 (8 to K) and the aces worth 20. A canasta's cheapest cards depend on
its rank, so the cheapest set of canastas puts them on the cheapest distinct ranks.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from itertools import product
from typing import Protocol


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
CANASTA_CARDS = 7
MELD_CARDS = 3


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


def counted_melds_problem(counts: Counts, natural: int, mixed: int) -> str | None:
    """Why counted melded cards cannot hold the declared canastas (rule 12); None if they can.

    The answer is one of "meld" (fewer than three cards), "cards" (fewer than seven cards a
    canasta), "wild" (fewer wild cards than mixed canastas) and "natural" (no way to make the
    natural canastas out of one value group's natural cards each).
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
    return None


def _holds(counts: Counts, placement: Placement) -> bool:
    """Whether the counted cards hold seven natural cards of a group for each canasta."""
    return all(
        CANASTA_CARDS * n <= getattr(counts, g.group)
        for g, (n, _m) in zip(RANK_GROUPS, placement, strict=True)
    )
