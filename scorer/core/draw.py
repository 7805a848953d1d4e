"""The draw of a club night's round: who sits at which table, with whom, against whom.

Pure core: the randomness is a seed passed in (``random.Random(seed)``), so a draw is
reproducible and testable. Tables are of four in two partnerships; when the count of players
present is not a multiple of four, either one table of three, five or six plays the matching
variant ("variants"), or the players left over sit the round out in turn ("bye").

Over the night partners repeat as little as possible, then opponents; a "balanced" draw also
makes each table's sides as even as the players' ratings allow. Cost, from most to least
important: a repeated partnership, another turn at the odd table, sides uneven by a rating
point (balanced only), a repeated opponent. A round-robin schedule of the players (the circle
method) is among the candidates, so with the same players every round nobody partners anyone
twice before all have partnered all.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from itertools import combinations
from typing import Literal

from scorer.core.errors import N_, RuleError
from scorer.core.families import DEFAULT_FAMILY

Mode = Literal["random", "balanced"]
Odd = Literal["variants", "bye"]
MODES: tuple[str, ...] = ("random", "balanced")
ODD_CHOICES: tuple[str, ...] = ("variants", "bye")

# A table's shape (each side's size) -> the seating of the default family it plays
# (scorer.core.families): (2, 2) plays "classic", (3, 2) "five-player"...
SHAPES: dict[tuple[int, ...], str] = {
    layout.team_sizes: seating.key
    for seating in DEFAULT_FAMILY.seatings
    for layout in seating.layouts
}
# The seating of a table of four in teams: any other is the odd table.
USUAL_SEATING = SHAPES[(2, 2)]
# The odd table for the players left over by the tables of four (count % 4).
ODD_TABLE: dict[int, tuple[int, ...]] = {1: (3, 2), 2: (2, 2, 2), 3: (1, 1, 1)}

PARTNER_COST = 10_000
BALANCE_COST = 40  # per rating point between the strongest and the weakest side of a table
OPPONENT_COST = 100
ODD_TABLE_COST = 2_000
# The search: restarts from a random seating, and round-robin matchings tried.
RESTARTS = 1
MATCHINGS_TRIED = 2
# Passes over every swap at most: the first few find nearly all the gain.
MAX_PASSES = 4


@dataclass(frozen=True)
class DrawnTable:
    """One table of a round: its variant and its sides, each a tuple of players."""

    profile: str
    sides: tuple[tuple[str, ...], ...]

    @property
    def players(self) -> tuple[str, ...]:
        return tuple(player for side in self.sides for player in side)


@dataclass(frozen=True)
class Round:
    """A round: its tables, and who sits it out (a bye)."""

    tables: tuple[DrawnTable, ...]
    bye: tuple[str, ...] = ()

    @property
    def seated(self) -> tuple[str, ...]:
        return tuple(player for table in self.tables for player in table.players)


@dataclass
class _Counts:
    """What the earlier rounds of the night did: pairs partnered and opposed, byes, odd tables."""

    partners: dict[frozenset[str], int]
    opponents: dict[frozenset[str], int]
    byes: dict[str, int]
    odd: dict[str, int]
    seated: dict[str, int]


def _counts(history: Sequence[Round]) -> _Counts:
    counts = _Counts({}, {}, {}, {}, {})
    for past in history:
        for player in past.bye:
            counts.byes[player] = counts.byes.get(player, 0) + 1
        for player in past.seated:
            counts.seated[player] = counts.seated.get(player, 0) + 1
        for table in past.tables:
            if table.profile != USUAL_SEATING:
                for player in table.players:
                    counts.odd[player] = counts.odd.get(player, 0) + 1
            for side in table.sides:
                for pair in combinations(side, 2):
                    key = frozenset(pair)
                    counts.partners[key] = counts.partners.get(key, 0) + 1
            for one, other in combinations(table.sides, 2):
                for a in one:
                    for b in other:
                        key = frozenset((a, b))
                        counts.opponents[key] = counts.opponents.get(key, 0) + 1
    return counts


def shapes_for(count: int, odd: Odd) -> tuple[list[tuple[int, ...]], int]:
    """The tables' shapes for ``count`` players, and how many sit out; RuleError if too few."""
    if odd not in ODD_CHOICES:
        raise RuleError("odd", N_("must be one of {choices}"), choices=", ".join(ODD_CHOICES))
    fours, left = divmod(count, 4)
    if odd == "bye" or left == 0:
        if fours == 0:
            raise RuleError("players", N_("a round needs at least 4 players"))
        return [(2, 2)] * fours, left
    if count < 3:
        raise RuleError("players", N_("a round needs at least 3 players"))
    # Five and six take a table of four's place (its one or two more players); three is extra.
    return [(2, 2)] * (fours - (left < 3)) + [ODD_TABLE[left]], 0


def draw_round(
    players: Sequence[str],
    history: Sequence[Round] = (),
    *,
    seed: int | str,
    mode: Mode = "random",
    odd: Odd = "variants",
    ratings: Mapping[str, float] | None = None,
    attempt: int = 0,
) -> Round:
    """The next round for the players present, after the night's earlier rounds.

    ``seed`` is the night's: the same seed, players and history draw the same round.
    ``ratings`` (balanced only): each player's rating; a player without one counts as the
    average of those who have one. ``attempt`` counts redraws of the same round: another
    attempt, another draw.
    """
    if mode not in MODES:
        raise RuleError("draw", N_("must be one of {choices}"), choices=", ".join(MODES))
    names = sorted(set(players))
    if len(names) != len(players):
        raise RuleError("players", N_("each player needs a different name"))
    shapes, resting = shapes_for(len(names), odd)
    counts = _counts(history)
    rng = random.Random(f"{seed}/round/{len(history)}/{attempt}")
    bye = _byes(names, resting, counts, len(history), rng)
    playing = [name for name in names if name not in bye]
    scale = _rating_scale(playing, ratings) if mode == "balanced" else {}
    search = _Search(shapes, counts, scale, playing)
    starts = [_shuffled(playing, rng) for _ in range(RESTARTS)]
    starts += _round_robin(playing, shapes, counts, seed, rng)
    seatings = [search.improve(search.numbered(start), rng) for start in starts]
    best = min(seatings, key=search.cost)
    return Round(search.tables(best), tuple(sorted(bye)))


def _byes(
    names: list[str], resting: int, counts: _Counts, rounds: int, rng: random.Random
) -> set[str]:
    """Who sits out: those who sat out least so far (a rotating bye), drawn among equals.

    A round a late arrival missed counts as sitting out: they are not the first to rest."""
    order = _shuffled(names, rng)
    order.sort(key=lambda name: rounds - counts.seated.get(name, 0))
    return set(order[:resting])


def _shuffled(names: Sequence[str], rng: random.Random) -> list[str]:
    order = list(names)
    rng.shuffle(order)
    return order


def _rating_scale(playing: list[str], ratings: Mapping[str, float] | None) -> dict[str, float]:
    known = [ratings[name] for name in playing if ratings and name in ratings]
    average = sum(known) / len(known) if known else 0.0
    return {name: (ratings or {}).get(name, average) for name in playing}


def _round_robin(
    playing: list[str],
    shapes: list[tuple[int, ...]],
    counts: _Counts,
    seed: int | str,
    rng: random.Random,
) -> list[list[str]]:
    """Seatings whose partnerships are rounds of a round-robin of the players (pairs only).

    The schedule is the night's (its order comes from the night's seed, not the round's), so
    round after round a fresh matching is there as long as the players stay the same.
    """
    if any(size != 2 for shape in shapes for size in shape):
        return []
    order = sorted(playing)
    random.Random(f"{seed}/schedule").shuffle(order)
    count = len(order)
    fixed, ring = order[0], order[1:]
    matchings = []
    for turn in range(count - 1):
        circle = ring[turn:] + ring[:turn]
        pairs = [(fixed, circle[0])]
        pairs += [(circle[k], circle[count - 1 - k]) for k in range(1, count // 2)]
        matchings.append(pairs)

    def repeats(pairs: list[tuple[str, str]]) -> int:
        return sum(counts.partners.get(frozenset(pair), 0) for pair in pairs)

    rng.shuffle(matchings)
    matchings.sort(key=repeats)
    seatings = []
    for pairs in matchings[:MATCHINGS_TRIED]:
        rng.shuffle(pairs)
        seatings.append([player for pair in pairs for player in pair])
    return seatings


class _Search:
    """A seating is a list of players filling the tables' seats in order; its cost and a
    local search that swaps two players of different sides while that lowers it.

    Players are numbered, their earlier pairings held in square tables of counts: a round of
    40 players tries thousands of swaps, each re-costing two tables.
    """

    def __init__(
        self,
        shapes: list[tuple[int, ...]],
        counts: _Counts,
        ratings: dict[str, float],
        playing: list[str],
    ) -> None:
        self.shapes = shapes
        self.names = playing
        number = {name: k for k, name in enumerate(playing)}
        size = len(playing)
        self.partners = [[0] * size for _ in range(size)]
        self.opponents = [[0] * size for _ in range(size)]
        for source, target in (
            (counts.partners, self.partners),
            (counts.opponents, self.opponents),
        ):
            for pair, times in source.items():
                a, b = (number.get(name) for name in pair)
                if a is not None and b is not None:
                    target[a][b] = target[b][a] = times
        self.odd = [counts.odd.get(name, 0) for name in playing]
        self.ratings = [ratings[name] for name in playing] if ratings else None
        # Seat ranges: per table, per side, the indices into a seating.
        self.layout: list[list[range]] = []
        start = 0
        for shape in shapes:
            sides = []
            for width in shape:
                sides.append(range(start, start + width))
                start += width
            self.layout.append(sides)
        self.table_of = [t for t, sides in enumerate(self.layout) for r in sides for _ in r]
        self.side_of = [
            (t, s) for t, sides in enumerate(self.layout) for s, r in enumerate(sides) for _ in r
        ]

    def numbered(self, seating: list[str]) -> list[int]:
        number = {name: k for k, name in enumerate(self.names)}
        return [number[name] for name in seating]

    def table_cost(self, seating: list[int], index: int) -> float:
        if self.shapes[index] == (2, 2):
            # Most tables: written out, as the search costs thousands of them.
            start = self.layout[index][0].start
            a, b, c, d = seating[start : start + 4]
            opponents = self.opponents
            cost = PARTNER_COST * (self.partners[a][b] + self.partners[c][d]) + OPPONENT_COST * (
                opponents[a][c] + opponents[a][d] + opponents[b][c] + opponents[b][d]
            )
            if self.ratings is not None:
                r = self.ratings
                cost += BALANCE_COST * abs(r[a] + r[b] - r[c] - r[d]) / 2
            return cost
        sides = [[seating[k] for k in side] for side in self.layout[index]]
        partners, opponents = self.partners, self.opponents
        repeats = 0
        for side in sides:
            for a, b in combinations(side, 2):
                repeats += partners[a][b]
        met = 0
        for one, other in combinations(sides, 2):
            for a in one:
                row = opponents[a]
                for b in other:
                    met += row[b]
        cost = PARTNER_COST * repeats + OPPONENT_COST * met
        if self.ratings is not None and len(sides) > 1:
            ratings = self.ratings
            strengths = [sum(ratings[p] for p in side) / len(side) for side in sides]
            cost += BALANCE_COST * (max(strengths) - min(strengths))
        if self.shapes[index] != (2, 2):
            cost += ODD_TABLE_COST * sum(self.odd[p] for side in sides for p in side)
        return cost

    def cost(self, seating: list[int]) -> float:
        return sum(self.table_cost(seating, t) for t in range(len(self.layout)))

    def improve(self, start: list[int], rng: random.Random) -> list[int]:
        """Swap players between sides while a swap lowers the cost (first improvement)."""
        seating = list(start)
        costs = [self.table_cost(seating, t) for t in range(len(self.layout))]
        swaps = [
            (a, b)
            for a, b in combinations(range(len(seating)), 2)
            if self.side_of[a] != self.side_of[b]
        ]
        table_of, table_cost = self.table_of, self.table_cost
        improved, passes = True, 0
        while improved and passes < MAX_PASSES:
            improved, passes = False, passes + 1
            rng.shuffle(swaps)
            for a, b in swaps:
                ta, tb = table_of[a], table_of[b]
                seating[a], seating[b] = seating[b], seating[a]
                if ta == tb:
                    after = table_cost(seating, ta)
                    if after < costs[ta] - 1e-9:
                        costs[ta], improved = after, True
                        continue
                else:
                    after_a, after_b = table_cost(seating, ta), table_cost(seating, tb)
                    if after_a + after_b < costs[ta] + costs[tb] - 1e-9:
                        costs[ta], costs[tb], improved = after_a, after_b, True
                        continue
                seating[a], seating[b] = seating[b], seating[a]
        return seating

    def tables(self, seating: list[int]) -> tuple[DrawnTable, ...]:
        return tuple(
            DrawnTable(
                SHAPES[self.shapes[t]],
                tuple(tuple(self.names[seating[k]] for k in side) for side in sides),
            )
            for t, sides in enumerate(self.layout)
        )
