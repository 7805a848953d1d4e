"""What canastas cost in cards (docs/rules.md, "Consistency rules" 11 and 12): plain
arithmetic on ranks, from the family's card values and meld rules.

A side melds at most one meld per rank, and only the family's natural ranks make melds (in
Classic: four ranks worth 5, six worth 10 and the aces worth 20). A canasta's cheapest cards
depend on its rank's value, so the cheapest set of canastas puts them on the cheapest
distinct ranks: seven natural cards for a natural canasta, the fewest wild cards (each worth
the cheapest wild card) beside the most natural cards for a mixed one.

Cards counted by value group are checked exactly (rule 12): a small search over the ranks of
each group tries every way to lay them down as the declared canastas plus ordinary melds, by
the family's meld rules. It knows canastas of two kinds, one without wild cards and one with
(Classic's natural and mixed): a family with other kinds brings its own search. Samba's and
Bolivia's sequences (and Bolivia's melds of wild cards) join that search: what sequences can
take of each value group is worked out once, then the groups lay the rest.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache, lru_cache
from itertools import product
from typing import Protocol

from scorer.core.families import GROUP, SEQUENCE, MeldRules, RuleFamily, SequenceRules


@dataclass(frozen=True)
class RankGroup:
    """Ranks that share a card value, with the cheapest canastas made on one of them."""

    group: str  # the value group of its natural cards (see families.VALUE_GROUPS)
    ranks: int
    natural: int  # seven natural cards
    mixed: int  # six natural cards and a two (four aces and three twos for aces)


# Compared and hashed by identity: one per family (costs_of), a key of every search's cache.
@dataclass(frozen=True, eq=False)
class CanastaCosts:
    """A family's ranks by value group, its natural and its mixed kind of canasta."""

    groups: tuple[RankGroup, ...]
    natural: str  # the kind without wild cards
    mixed: str  # the kind with wild cards
    meld: MeldRules

    @property
    def meldable_ranks(self) -> int:
        """One canasta per rank at most: 11 in Classic."""
        return sum(g.ranks for g in self.groups)


@cache
def costs_of(family: RuleFamily) -> CanastaCosts:
    """The cheapest canastas on each value group's ranks, from the family's card values."""
    rules = family.meld
    wild = min(family.card_values.of(group) for _name, group in family.wild_cards)
    groups = []
    for group in dict.fromkeys(group for _rank, group in family.natural_ranks):
        value = family.card_values.of(group)
        ranks = sum(g == group for _rank, g in family.natural_ranks)
        naturals = range(rules.canasta_cards - rules.max_wild, rules.canasta_cards)
        mixed = min(
            n * value + (rules.canasta_cards - n) * wild
            for n in naturals
            if n >= rules.min_naturals
        )
        groups.append(RankGroup(group, ranks, rules.canasta_cards * value, mixed))
    natural = next(kind.key for kind in family.canastas if kind.most_wild == 0)
    mixed_kind = next(kind.key for kind in family.canastas if kind.fewest_wild > 0)
    return CanastaCosts(tuple(groups), natural, mixed_kind, rules)


def cheapest_kind(family: RuleFamily, kind: str) -> int:
    """The fewest meld points one canasta of this kind needs, on any rank."""
    made_of = family.canasta(kind).made_of
    if made_of == SEQUENCE and family.sequences is not None:
        return cheapest_sequence_canasta(family)
    if made_of != GROUP:  # seven wild cards, of the cheapest
        wild = min(family.card_values.of(group) for _name, group in family.wild_cards)
        return family.meld.canasta_cards * wild
    own = own_kind_cost(family, kind)
    if own is not None:
        return own
    costs = costs_of(family)
    price = "natural" if kind == costs.natural else "mixed"
    return min(getattr(g, price) for g in costs.groups)


class Counts(Protocol):
    """Cards counted by value group (hands.CardCounts)."""

    jokers: int
    twenty: int
    ten: int
    five: int


# A way to put canastas on ranks: (naturals, mixed) on each rank group, in RANK_GROUPS order.
Placement = tuple[tuple[int, int], ...]


@cache
def placements(costs: CanastaCosts, natural: int, mixed: int) -> tuple[Placement, ...]:
    """Every way to put these canastas on distinct meldable ranks (none when too many)."""
    found = []
    splits = [
        [(n, m) for n in range(g.ranks + 1) for m in range(g.ranks + 1 - n)] for g in costs.groups
    ]
    for placement in product(*splits):
        if sum(n for n, _ in placement) == natural and sum(m for _, m in placement) == mixed:
            found.append(placement)
    return tuple(found)


def cheapest_sequence_canasta(family: RuleFamily) -> int:
    """The fewest meld points a samba (an escalera) holds: 4 to 10 of a suit, 50."""
    assert family.sequences is not None
    rules = family.sequences
    values = [family.card_values.of(family.rank_groups[rank]) for rank in rules.ranks]
    length = rules.max_cards
    return min(sum(values[i : i + length]) for i in range(len(values) - length + 1))


def cheapest_canastas(family: RuleFamily, natural: int, mixed: int) -> int | None:
    """The fewest meld points these canastas need; None when there are more than the
    ranks (11 in Classic)."""
    costs = costs_of(family)
    if natural + mixed > costs.meldable_ranks:
        return None
    return min(
        sum(n * g.natural + m * g.mixed for g, (n, m) in zip(costs.groups, p, strict=True))
        for p in placements(costs, natural, mixed)
    )


def counted_melds_problem(
    family: RuleFamily,
    counts: Counts,
    natural: int,
    mixed: int,
    *,
    packs: int = 2,
    went_out: bool = False,
    sequences: int = 0,
    wild_melds: int = 0,
) -> str | None:
    """Why counted melded cards cannot hold the declared canastas (rule 12); None if they can.
    ``sequences`` counts the sambas (escaleras) declared, ``wild_melds`` the bolivias.

    The answer is one of "meld" (fewer than three cards), "cards" (fewer than seven cards a
    canasta), "wild" (fewer wild cards than mixed canastas), "natural" (no way to make the
    natural canastas out of one value group's natural cards each) and "melds" (no way to lay
    every counted card down as the canastas plus legal melds: see :func:`counted_melds_fit`).
    The first four are quick to tell and name the likeliest slip; "melds" is the exact test.
    """
    costs = costs_of(family)
    rules = costs.meld
    cards = counts.jokers + counts.twenty + counts.ten + counts.five
    if 0 < cards < rules.min_cards:
        return "meld"
    if cards < rules.canasta_cards * (natural + mixed + sequences + wild_melds):
        return "cards"
    if counts.jokers + counts.twenty < mixed + rules.canasta_cards * wild_melds:
        return "wild"
    if natural and not any(_holds(costs, counts, p) for p in placements(costs, natural, 0)):
        return "natural"
    if family.sequences is not None or rules.wild_meld_cards:
        fits = laid_fit(
            family,
            counts,
            natural,
            mixed,
            sequences,
            wild_melds,
            packs=packs,
            went_out=went_out,
        )
    else:
        fits = counted_melds_fit(family, counts, natural, mixed, packs=packs, went_out=went_out)
    if not fits:
        return "melds"
    return None


def _holds(costs: CanastaCosts, counts: Counts, placement: Placement) -> bool:
    """Whether the counted cards hold seven natural cards of a group for each canasta."""
    return all(
        costs.meld.canasta_cards * n <= getattr(counts, g.group)
        for g, (n, _m) in zip(costs.groups, placement, strict=True)
    )


# --- rule 12 exactly: can the counted cards be laid down? ------------------------------------


def counted_melds_fit(
    family: RuleFamily,
    counts: Counts,
    natural: int,
    mixed: int,
    *,
    packs: int = 2,
    went_out: bool = False,
) -> bool:
    """Whether a side's melded cards, counted by value group, split into ``natural`` natural
    canastas, ``mixed`` mixed ones and ordinary melds, one meld per rank at most.

    The 20 group is aces (natural) and twos (wild) in some split; the 5 group may hold one
    meld of three or four black threes when the side went out (docs/rules.md, "Classic").
    """
    if min(counts.jokers, counts.twenty, counts.ten, counts.five, natural, mixed) < 0:
        return False
    costs = costs_of(family)
    rules = costs.meld
    cap = rules.cards_a_rank * packs
    threes = [0]
    if went_out:
        threes += [
            n for n in rules.black_threes_going_out if n <= rules.black_threes_a_pack * packs
        ]
    for twos in range(max(0, counts.twenty - cap), min(counts.twenty, cap) + 1):
        for black in threes:
            if black > counts.five:
                continue
            wild = counts.jokers + twos
            naturals = (counts.five - black, counts.ten, counts.twenty - twos)
            if _groups_fit(costs, naturals, natural, mixed, wild, cap):
                return True
    return False


# Bounded: counts come from the outside (rule 7 refuses those beyond the packs only later).
@lru_cache(maxsize=4096)
def _groups_fit(
    costs: CanastaCosts, naturals: tuple[int, ...], natural: int, mixed: int, wild: int, cap: int
) -> bool:
    """Whether the natural cards of each rank group (costs.groups order: 5, 10, 20) and the
    wild cards make exactly these canastas and legal melds."""
    five, ten, twenty = (
        _group_options(costs.meld, g.ranks, cap, n)
        for g, n in zip(costs.groups, naturals, strict=True)
    )
    for n20, m20, w20 in twenty:
        for n5, m5, w5 in five:
            if (natural - n20 - n5, mixed - m20 - m5, wild - w20 - w5) in ten:
                return True
    return False


@lru_cache(maxsize=4096)
def _group_options(
    rules: MeldRules, ranks: int, cap: int, naturals: int
) -> frozenset[tuple[int, int, int]]:
    """Every (natural canastas, mixed canastas, wild cards) that ``naturals`` natural cards
    spread over ``ranks`` ranks of one group make, every one of them melded: each rank holds
    one meld or none, with at most ``cap`` natural cards (what the packs hold of a rank)."""
    if ranks == 0 or naturals > cap * ranks:
        return frozenset({(0, 0, 0)} if naturals == 0 else ())
    found = set(_group_options(rules, ranks - 1, cap, naturals))  # this rank is not melded
    for k, wild, natural, mixed in _shapes(rules, cap):
        if k <= naturals:
            for n, m, w in _group_options(rules, ranks - 1, cap, naturals - k):
                found.add((n + natural, m + mixed, w + wild))
    return frozenset(found)


@cache
def _shapes(rules: MeldRules, cap: int) -> tuple[tuple[int, int, int, int], ...]:
    """Every meld one rank can hold: (natural cards, wild cards, natural canasta, mixed)."""
    found = []
    for naturals in range(rules.min_naturals, cap + 1):
        for wild in range(rules.max_wild + 1):
            cards = naturals + wild
            if cards < rules.min_cards:
                continue
            # Seven cards or more make a canasta: natural without wild cards, else mixed.
            canasta = cards >= rules.canasta_cards
            found.append((naturals, wild, int(canasta and not wild), int(canasta and wild > 0)))
    return tuple(found)


# --- with sequences and melds of wild cards (Samba, Bolivia) --------------------------------


@cache
def _windows(
    costs: CanastaCosts, rules: SequenceRules, family: RuleFamily
) -> tuple[tuple[tuple[int, ...], ...], tuple[tuple[int, ...], ...]]:
    """What one sequence takes of each value group (costs.groups order): (the shapes of
    sequences shorter than a canasta, the shapes of a samba/escalera)."""
    order = [g.group for g in costs.groups]
    index = [order.index(family.rank_groups[rank]) for rank in rules.ranks]
    short, full = set(), set()
    for length in range(rules.min_cards, rules.max_cards + 1):
        for start in range(len(index) - length + 1):
            shape = [0] * len(order)
            for i in index[start : start + length]:
                shape[i] += 1
            (full if length == rules.max_cards else short).add(tuple(shape))
    return tuple(sorted(short)), tuple(sorted(full))


@dataclass(frozen=True)
class SequenceTakes:
    """Every (five, ten, twenty) natural cards some sequences can take together, one byte
    a point of a box (what the packs hold of each value group): 1 where they can."""

    bound: tuple[int, ...]
    points: bytes

    def index(self, point: tuple[int, ...]) -> int:
        index = 0
        for value, most in zip(point, self.bound, strict=True):
            index = index * (most + 1) + value
        return index

    def holds(self, point: tuple[int, ...]) -> bool:
        return bool(self.points[self.index(point)])


def _room(bound: tuple[int, ...], shape: tuple[int, ...]) -> int:
    """The bits of the box's points that ``shape`` can be added to and stay in the box."""
    mask = 1
    size = 1
    for most, step in zip(reversed(bound), reversed(shape), strict=True):
        # Points of this coordinate 0 .. most - step, each a copy of the inner block.
        block = 0
        for value in range(most - step + 1):
            block |= mask << (value * size)
        mask, size = block, size * (most + 1)
    return mask


@cache
def _sequence_takes(family: RuleFamily, packs: int, canastas: int) -> SequenceTakes:
    """What ``canastas`` sambas (escaleras) and any number of shorter sequences can take of
    each value group's natural cards together, within what the packs hold of each group.
    Suits are not followed (each rank has four): a relaxed search, which never refuses a
    hand a table can lay. Sets of points are bits of a big integer: adding a sequence to
    every point at once is one shift."""
    costs = costs_of(family)
    assert family.sequences is not None
    short, full = _windows(costs, family.sequences, family)
    bound = tuple(g.ranks * family.meld.cards_a_rank * packs for g in costs.groups)
    empty = SequenceTakes(bound, b"")

    def moves(shapes: tuple[tuple[int, ...], ...]) -> list[tuple[int, int]]:
        return [(_room(bound, shape), empty.index(shape)) for shape in shapes]

    def grow(bits: int, steps: list[tuple[int, int]]) -> int:
        found = 0
        for room, offset in steps:
            found |= (bits & room) << offset
        return found

    reached = 1  # the empty box's corner: nothing taken
    for _ in range(canastas):
        reached = grow(reached, moves(full))
    steps = moves(short)
    frontier = reached
    while frontier:  # any number of shorter sequences
        frontier = grow(frontier, steps) & ~reached
        reached |= frontier
    size = 1
    for most in bound:
        size *= most + 1
    # Bit i of ``reached`` -> byte i: a point is then read without shifting a big integer.
    bits = format(reached, "b")[::-1].ljust(size, "0")
    return SequenceTakes(bound, bytes(int(bit) for bit in bits))


def _wild_meld_takes(rules: MeldRules, wild: int, canastas: int) -> range | tuple[int, ...]:
    """The wild cards melds of wild cards only may take: ``canastas`` of seven (bolivias),
    and shorter ones of three to six cards each, any number of them."""
    if not rules.wild_meld_cards:
        return (0,) if canastas == 0 else ()
    base = rules.canasta_cards * canastas
    extra = [0, *range(rules.min_cards, wild - base + 1)]
    return tuple(base + n for n in extra if base + n <= wild)


def laid_fit(
    family: RuleFamily,
    counts: Counts,
    natural: int,
    mixed: int,
    sequences: int,
    wild_melds: int,
    *,
    packs: int = 3,
    went_out: bool = False,
) -> bool:
    """Whether counted melded cards split into the declared group canastas, ``sequences``
    sambas (escaleras), ``wild_melds`` bolivias, and legal groups, shorter sequences and
    shorter melds of wild cards: :func:`counted_melds_fit` with sequences and wild melds."""
    if min(counts.jokers, counts.twenty, counts.ten, counts.five) < 0:
        return False
    costs = costs_of(family)
    rules = costs.meld
    cap = rules.cards_a_rank * packs
    if family.sequences is None and sequences:
        return False
    takes = None if family.sequences is None else _sequence_takes(family, packs, sequences)
    threes = [0]
    if went_out:
        threes += [
            n for n in rules.black_threes_going_out if n <= rules.black_threes_a_pack * packs
        ]
    for twos in range(max(0, counts.twenty - cap), min(counts.twenty, cap) + 1):
        wild = counts.jokers + twos
        for black in threes:
            if black > counts.five:
                continue
            naturals = (counts.five - black, counts.ten, counts.twenty - twos)
            melded_wild = _wild_meld_takes(rules, wild, wild_melds)
            for rest in _rests(takes, naturals):
                wilds = _group_wilds(costs, rest, natural, mixed, cap)
                if any(wild - taken in wilds for taken in melded_wild):
                    return True
    return False


def _rests(takes: SequenceTakes | None, naturals: tuple[int, ...]) -> Iterator[tuple[int, ...]]:
    """The natural cards left to the groups, for every way sequences can take some of
    ``naturals`` (the fewest taken first: most hands hold few sequences)."""
    if takes is None:
        yield naturals
        return
    five, ten, twenty = naturals
    if any(n > most for n, most in zip(naturals, takes.bound, strict=True)):
        return  # more than the packs hold: rule 7 says so at its own box
    points = takes.points
    rows, cols = (takes.bound[1] + 1) * (takes.bound[2] + 1), takes.bound[2] + 1
    for size in range(five + ten + twenty + 1):
        for a in range(min(twenty, size) + 1):
            for f in range(min(five, size - a) + 1):
                t = size - a - f
                # A group holds two natural cards at least: one left alone is no fit.
                rest = (five - f, ten - t, twenty - a)
                if t <= ten and 1 not in rest and points[f * rows + t * cols + a]:
                    yield rest


@lru_cache(maxsize=16384)
def _group_wilds(
    costs: CanastaCosts, naturals: tuple[int, ...], natural: int, mixed: int, cap: int
) -> frozenset[int]:
    """The numbers of wild cards groups can hold beside these natural cards (five, ten,
    twenty), making exactly these canastas: :func:`_groups_fit` for every wild count."""
    five, ten, twenty = (
        _option_index(costs.meld, g.ranks, cap, n)
        for g, n in zip(costs.groups, naturals, strict=True)
    )
    found: set[int] = set()
    # Only the ways that make no more canastas than declared: a handful of keys each.
    for (n20, m20), w20s in twenty.items():
        if n20 > natural or m20 > mixed:
            continue
        for (n5, m5), w5s in five.items():
            w10s = ten.get((natural - n20 - n5, mixed - m20 - m5))
            if w10s:
                found.update(a + b + c for a in w20s for b in w5s for c in w10s)
    return frozenset(found)


@lru_cache(maxsize=4096)
def _option_index(
    rules: MeldRules, ranks: int, cap: int, naturals: int
) -> dict[tuple[int, int], frozenset[int]]:
    """:func:`_group_options` by (natural canastas, mixed canastas): the wild cards each
    way can hold."""
    index: dict[tuple[int, int], set[int]] = {}
    for n, m, w in _group_options(rules, ranks, cap, naturals):
        index.setdefault((n, m), set()).add(w)
    return {key: frozenset(wild) for key, wild in index.items()}


# --- rule 12 for families with kinds of their own rank (Modern American) ---------------------


def searches_by_kind(family: RuleFamily) -> bool:
    """Whether counted melds need the search by kind below: the family has kinds of canasta
    of their own rank (sevens, aces, wild cards), melds closed at a canasta, or melds of
    wild cards; Classic's natural and mixed kinds keep the search above, and so do the
    families with sequences (Samba, Bolivia: :func:`laid_fit`)."""
    if family.sequences is not None:
        return False
    return (
        any(kind.ranks for kind in family.canastas)
        or family.meld.most_cards is not None
        or not family.meld.wild_never_counts_alone
    )


def own_kind_cost(family: RuleFamily, key: str) -> int | None:
    """The fewest meld points one canasta of a kind of its own rank needs (35 for sevens,
    140 for natural aces, 140 for seven twos); None for a kind of every rank."""
    kind = family.canasta(key)
    if not kind.ranks:
        return None
    values = family.card_values
    wild = dict(family.wild_cards)
    groups = family.rank_groups
    cards = family.meld.canasta_cards
    costs = []
    for rank in kind.ranks:
        if rank in groups:
            naturals = cards - kind.most_wild
            wild_cost = kind.most_wild * _cheapest_wild(family)
            costs.append(naturals * values.of(groups[rank]) + wild_cost)
        else:  # wild cards only: the fewest jokers it takes, twos for the rest
            jokers = kind.fewest_jokers
            costs.append(
                jokers * values.of(wild["jokers"]) + (cards - jokers) * values.of(wild["twos"])
            )
    return min(costs)


def _cheapest_wild(family: RuleFamily) -> int:
    return min(family.card_values.of(group) for _name, group in family.wild_cards)


# A tag a meld carries: ("canasta", kind) or ("unfinished", the penalty's key).
Tag = tuple[str, str]


@dataclass(frozen=True)
class RankSlot:
    """One rank a side may meld: its value group and every meld it can hold there, as
    (natural cards, wild cards, the tag it carries: its canasta or unfinished kind)."""

    group: str
    shapes: tuple[tuple[int, int, int | None], ...]


@dataclass(frozen=True, eq=False)  # hashed by identity: one per family and packs, cached
class KindSearch:
    """What the search by kind needs of a family, worked out once."""

    tags: tuple[Tag, ...]
    slots: tuple[RankSlot, ...]  # the natural ranks, by value group
    groups: tuple[str, ...]  # the value groups of natural cards, in slots' order
    wild_shapes: tuple[tuple[int, int, int | None], ...]  # (jokers, twos, tag) of a wild meld


def _tags(family: RuleFamily) -> tuple[Tag, ...]:
    return (
        *(("canasta", kind) for kind in family.kinds),
        *(("unfinished", key) for key, _points in family.unfinished_melds),
    )


@cache
def kind_search(family: RuleFamily, packs: int) -> KindSearch:
    """Every shape of meld each rank can hold in this family, tagged by its kind."""
    rules = family.meld
    tags = _tags(family)
    index = {tag: i for i, tag in enumerate(tags)}
    cap = rules.cards_a_rank * packs
    most = rules.most_cards or cap + rules.max_wild

    def tag_of(cards: int, wild: int, rank: str, jokers: int) -> int | None:
        kind = family.canasta_of(cards, wild, rank, jokers)
        if kind is not None:
            return index[("canasta", kind)]
        unfinished = family.unfinished_of(wild, rank, jokers)
        return None if unfinished is None else index.get(("unfinished", unfinished))

    slots = []
    for rank, group in sorted(family.natural_ranks, key=lambda pair: pair[1]):
        most_wild = 0 if rank in rules.natural_only_ranks else rules.max_wild
        shapes = tuple(
            (k, w, tag_of(k + w, w, rank, 0))
            for k in range(rules.min_naturals, cap + 1)
            for w in range(most_wild + 1)
            if rules.min_cards <= k + w <= most
        )
        slots.append(RankSlot(group, shapes))
    wild_shapes: tuple[tuple[int, int, int | None], ...] = ()
    if not rules.wild_never_counts_alone:
        jokers_in = family.pack.jokers * packs
        twos_in = rules.cards_a_rank * packs
        wild_shapes = tuple(
            (j, t, tag_of(j + t, j + t, "wild", j))
            for j in range(jokers_in + 1)
            for t in range(twos_in + 1)
            if rules.min_cards <= j + t <= (rules.most_cards or j + t)
        )
    groups = tuple(dict.fromkeys(slot.group for slot in slots))
    return KindSearch(tags, tuple(slots), groups, wild_shapes)


def counted_melds_problem_by_kind(
    family: RuleFamily,
    counts: Counts,
    canastas: dict[str, int],
    unfinished: dict[str, int],
    *,
    packs: int = 2,
) -> str | None:
    """Why counted melded cards cannot be laid down as the declared canastas of each kind
    and the declared unfinished melds (rule 12, in a family with kinds of their own rank);
    None when they can. "meld": fewer than three cards; "cards": fewer than seven a canasta;
    "closed": no way at all (every split of the 20 group into aces and twos tried)."""
    rules = family.meld
    cards = counts.jokers + counts.twenty + counts.ten + counts.five
    if 0 < cards < rules.min_cards:
        return "meld"
    if cards < rules.canasta_cards * sum(canastas.values()):
        return "cards"
    search = kind_search(family, packs)
    wanted = tuple(
        canastas.get(key, 0) if what == "canasta" else unfinished.get(key, 0)
        for what, key in search.tags
    )
    if min((counts.jokers, counts.twenty, counts.ten, counts.five, *wanted)) < 0:
        return "closed"
    twenty_ranks = sum(slot.group == "twenty" for slot in search.slots)
    cap = rules.cards_a_rank * packs
    for twos in range(0, min(counts.twenty, cap) + 1):
        aces = counts.twenty - twos
        if aces > cap * twenty_ranks:
            continue
        naturals = {"five": counts.five, "ten": counts.ten, "twenty": aces, "jokers": 0}
        if _fits_with_a_wild_meld(search, naturals, counts.jokers, twos, wanted):
            return None
    return "closed"


def _fits_with_a_wild_meld(
    search: KindSearch,
    naturals: dict[str, int],
    jokers: int,
    twos: int,
    wanted: tuple[int, ...],
) -> bool:
    """Whether some meld of wild cards (or none) leaves cards the natural ranks can hold."""
    left = tuple(naturals.get(group, 0) for group in search.groups)
    if _ranks_fit(search, 0, left, jokers + twos, wanted):
        return True
    for j, t, tag in search.wild_shapes:
        if j > jokers or t > twos:
            continue
        rest = _minus(wanted, tag)
        if rest is not None and _ranks_fit(search, 0, left, jokers + twos - j - t, rest):
            return True
    return False


def _minus(wanted: tuple[int, ...], tag: int | None) -> tuple[int, ...] | None:
    """What is still wanted once a meld with this tag is laid (None: it was not wanted)."""
    if tag is None:
        return wanted
    if wanted[tag] == 0:
        return None
    return (*wanted[:tag], wanted[tag] - 1, *wanted[tag + 1 :])


# Bounded: counts come from the outside.
@lru_cache(maxsize=65536)
def _ranks_fit(
    search: KindSearch, at: int, left: tuple[int, ...], wild: int, wanted: tuple[int, ...]
) -> bool:
    """Whether the natural ranks from slot ``at`` on hold exactly the natural cards left of
    each group, every wild card left, and the melds still wanted (each rank one meld or
    none)."""
    if at == len(search.slots):
        return wild == 0 and not any(left) and not any(wanted)
    slot = search.slots[at]
    g = search.groups.index(slot.group)
    last_of_group = at + 1 == len(search.slots) or search.slots[at + 1].group != slot.group
    options = [(0, 0, None)] + [s for s in slot.shapes if s[0] <= left[g] and s[1] <= wild]
    for k, w, tag in options:
        if last_of_group and k != left[g]:
            continue
        rest = _minus(wanted, tag)
        if rest is None:
            continue
        after = (*left[:g], left[g] - k, *left[g + 1 :])
        if _ranks_fit(search, at + 1, after, wild - w, rest):
            return True
    return False
