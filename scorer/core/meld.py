"""The opening-meld checker: do the melds a side plans to lay down reach its minimum?

Pure core: no Flask, no SQL. Only card values count toward the minimum (no canasta or red
three bonus). When the discard pile is taken to open, only its top card counts, together
with cards from the hand: the checker models that top card as one of the natural cards of
the meld of its rank (the buried cards of the pile never count, so they are not asked for).
A meld the rules refuse counts for nothing: its points are left out of the total.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from scorer.core.errors import N_, RuleError
from scorer.core.families import (
    DEFAULT_FAMILY,
    SUITS,
    WILD_RANK,
    MeldRules,
    RuleFamily,
    SequenceRules,
)

# The checker's family (the opening-meld checker and the rule book's page play the default
# family); a game's hands are checked by their own family's rules.
FAMILY = DEFAULT_FAMILY
# Ranks a meld can be made of; "3" is black threes, "red-3" red threes (never a meld).
BLACK_THREE = FAMILY.black_three[0]
RED_THREE = FAMILY.red_three
RANKS: tuple[str, ...] = FAMILY.ranks
ALL_RANKS: tuple[str, ...] = (*RANKS, BLACK_THREE, RED_THREE)

# The value group of each natural rank (see scorer.core.families.VALUE_GROUPS).
RANK_GROUPS: dict[str, str] = {
    **FAMILY.rank_groups,
    RED_THREE: "none",  # a bonus, not a card value
}

MELD_RULES = FAMILY.meld  # the reasons below spell its numbers out
# Counts past these cannot be held even with three packs: malformed input, not a bad meld.
MAX_NATURALS = 12
MAX_JOKERS = 6
MAX_TWOS = 12
MAX_MINIMUM = 10000
# A side's melds, one per rank: ranks 4 to ace and the black threes.
MAX_SIDE_MELDS = len(RANKS) + 1
# Of a sequence, the names a reader may be sent (wild cards only to be refused where typed).
SEQUENCE_INPUTS: tuple[str, ...] = ("suit", "first", "last", "jokers", "twos")


@dataclass(frozen=True)
class PlannedMeld:
    """One meld a player plans to lay down: a rank, its natural cards and its wild cards."""

    rank: str
    naturals: int
    jokers: int = 0
    twos: int = 0

    @property
    def wild(self) -> int:
        return self.jokers + self.twos

    @property
    def cards(self) -> int:
        return self.naturals + self.wild

    def canasta(self, family: RuleFamily = FAMILY) -> str | None:
        """The kind of canasta this meld is in the family ("natural", "mixed"), else None."""
        return family.canasta_of(self.cards, self.wild, self.rank, self.jokers)

    def unfinished(self, family: RuleFamily = FAMILY) -> str | None:
        """The family's penalty this meld takes if the hand ends with it short of a canasta
        (Modern American's unfinished sevens, aces, wild cards), else None."""
        if self.canasta(family) is not None:
            return None
        return family.unfinished_of(self.wild, self.rank, self.jokers)


@dataclass(frozen=True)
class PlannedSequence:
    """A sequence a side laid (Samba, Bolivia): natural cards of one suit, from ``first`` up
    to ``last`` (4 low, ace high), one card of each rank between. Wild cards never go in a
    sequence: ``jokers`` and ``twos`` are asked only to refuse them where they are typed."""

    suit: str
    first: str
    last: str
    jokers: int = 0
    twos: int = 0

    def ranks(self, rules: SequenceRules) -> tuple[str, ...]:
        """Its ranks in order (empty when first or last is not a rank of a sequence, or
        last comes before first)."""
        if self.first not in rules.ranks or self.last not in rules.ranks:
            return ()
        return rules.ranks[rules.ranks.index(self.first) : rules.ranks.index(self.last) + 1]

    def canasta(self, family: RuleFamily) -> str | None:
        """The kind of canasta it is (a samba, an escalera at seven cards), else None."""
        rules = family.sequences
        if rules is None or len(self.ranks(rules)) != rules.max_cards:
            return None
        return rules.canasta


@dataclass(frozen=True)
class MeldOptions:
    """The table's habits and the moment of play the check is made for."""

    wild_never_outnumber_naturals: bool = False  # a house rule some tables play
    going_out: bool = False  # black threes may go down only by the player going out
    discard_top: str | None = None  # the rank of the discard pile's top card, if taken
    rules: MeldRules = MELD_RULES  # the game's family's


# Every reason a meld can be refused, by a stable code (the browser's script uses the codes).
REASONS: dict[str, str] = {
    "red-three": N_("red threes are never melded: each one is laid down alone, as a bonus"),
    "black-three-not-going-out": N_("black threes are melded only by the player going out"),
    "black-three-count": N_("black threes go down three or four at a time"),
    "black-three-wild": N_("no wild card goes with black threes"),
    "threes-never-melded": N_(
        "threes are never melded in this game: each one is laid down alone, as a bonus"
    ),
    "wild-meld-natural": N_("a meld of wild cards holds no natural card: only jokers and twos"),
    "wild-meld-refused": N_("this game has no meld of wild cards only"),
    "too-many-cards": N_("a meld is at most seven cards: a canasta is closed"),
    "too-few-cards": N_("a meld needs at least three cards"),
    "too-few-naturals": N_("a meld needs at least two natural cards"),
    "too-many-wild": N_("a meld holds at most three wild cards"),
    "too-many-wild-of-two": N_("a meld holds at most two wild cards"),
    "natural-only-rank": N_("a meld of this rank holds no wild card"),
    "wild-outnumber": N_("house rule: wild cards may not outnumber natural cards"),
    "pile-three-on-top": N_("the pile cannot be taken with a three on top"),
    "pile-needs-pair": N_(
        "to open with the pile, its top card needs two natural cards of its rank from the "
        "hand: this meld needs at least three natural cards"
    ),
    "pile-no-meld": N_("no planned meld has the rank of the pile's top card"),
    "same-rank": N_("a side has one meld of each rank: add these cards to the first one"),
    "no-sequences": N_("this game has no sequences: meld cards of one rank"),
    "sequence-suit": N_("a sequence is of one suit: clubs, diamonds, hearts or spades"),
    "sequence-rank": N_(
        "a sequence runs from 4 up to the ace: no joker, two or three is part of one"
    ),
    "sequence-wild": N_("a sequence holds no wild card"),
    "sequence-order": N_("a sequence goes up: its last card is above its first"),
    "sequence-short": N_("a sequence is at least three cards"),
    "sequence-long": N_("a sequence is at most seven cards: at seven it is closed"),
    "needs-natural-triple": N_(
        "an opening needs a meld of at least three natural cards of one rank (no wild card "
        "among them)"
    ),
}


# The reason for too many wild cards in a meld, by the family's limit.
TOO_MANY_WILD: dict[int, str] = {3: "too-many-wild", 2: "too-many-wild-of-two"}


@dataclass(frozen=True)
class MeldProblem:
    """Why a meld (or the discard pile's top card) breaks a rule, by its reason's code."""

    meld: int | None  # None: the problem is the pile's top card or a sequence, not one meld
    field: str
    code: str
    sequence: int | None = None  # the sequence at fault (Samba, Bolivia), if one is

    @property
    def template(self) -> str:
        return REASONS[self.code]

    @property
    def reason(self) -> str:
        return self.template

    def as_error(self) -> RuleError:
        return RuleError(self.field, self.template)


@dataclass(frozen=True)
class MeldCheck:
    """The verdict: points of the legal melds against the minimum, and what is wrong."""

    points: int
    minimum: int
    meld_points: tuple[int, ...]  # each meld's card value, counted or not
    counted: tuple[bool, ...]  # False for a meld the rules refuse: its points are left out
    problems: tuple[MeldProblem, ...] = ()
    # The same of each sequence (Samba, Bolivia), after the melds of one rank.
    sequence_points: tuple[int, ...] = ()
    sequences_counted: tuple[bool, ...] = ()

    @property
    def enough(self) -> bool:
        return self.points >= self.minimum

    @property
    def short(self) -> int:
        return max(0, self.minimum - self.points)


def meld_value(meld: PlannedMeld, family: RuleFamily = FAMILY) -> int:
    """The card value of a meld: its natural cards by rank, jokers and twos by their own."""
    values = family.card_values
    group = family.rank_groups.get(meld.rank)
    natural = 0 if group is None else values.of(group)
    wild = dict(family.wild_cards)
    return (
        meld.naturals * natural
        + meld.jokers * values.of(wild["jokers"])
        + meld.twos * values.of(wild["twos"])
    )


def meld_problems(index: int, meld: PlannedMeld, options: MeldOptions) -> list[MeldProblem]:
    """Every rule this meld breaks (empty when it is a legal meld)."""

    def problem(name: str, code: str) -> MeldProblem:
        return MeldProblem(index, f"melds[{index}].{name}", code)

    rules = options.rules
    wild_field = "jokers" if meld.jokers else "twos"
    if meld.rank == RED_THREE:
        return [problem("rank", "red-three")]
    if meld.rank == BLACK_THREE:
        if not rules.black_threes_going_out:
            return [problem("rank", "threes-never-melded")]
        if not options.going_out:
            return [problem("rank", "black-three-not-going-out")]
        found = []
        if meld.naturals not in rules.black_threes_going_out:
            found.append(problem("naturals", "black-three-count"))
        if meld.wild:
            found.append(problem(wild_field, "black-three-wild"))
        return found
    if meld.rank == WILD_RANK:
        return _wild_meld_problems(meld, rules, problem)
    found = []
    if meld.cards < rules.min_cards:
        found.append(problem("naturals", "too-few-cards"))
    if rules.most_cards is not None and meld.cards > rules.most_cards:
        found.append(problem(wild_field if meld.wild else "naturals", "too-many-cards"))
    if meld.naturals < rules.min_naturals:
        found.append(problem("naturals", "too-few-naturals"))
    if meld.rank in rules.natural_only_ranks and meld.wild:
        found.append(problem(wild_field, "natural-only-rank"))
    elif meld.wild > rules.max_wild:
        # The reason names the family's limit: three in Classic, two in Modern American.
        found.append(problem(wild_field, TOO_MANY_WILD.get(rules.max_wild, "too-many-wild")))
    elif options.wild_never_outnumber_naturals and meld.wild > meld.naturals:
        found.append(problem(wild_field, "wild-outnumber"))
    return found


def _wild_meld_problems(
    meld: PlannedMeld, rules: MeldRules, problem: Callable[[str, str], MeldProblem]
) -> list[MeldProblem]:
    """A meld of wild cards only, where the family has them: three to a canasta's cards."""
    if rules.wild_never_counts_alone:
        return [problem("rank", "wild-meld-refused")]
    if meld.naturals:
        return [problem("naturals", "wild-meld-natural")]
    wild_field = "jokers" if meld.jokers else "twos"
    if meld.cards < rules.min_cards:
        return [problem(wild_field, "too-few-cards")]
    # Closed at seven: a bolivia (Bolivia), a wild canasta (Modern American).
    most = rules.wild_meld_cards or rules.most_cards
    if most is not None and meld.cards > most:
        return [problem(wild_field, "too-many-cards")]
    return []


def side_meld_problems(
    melds: tuple[PlannedMeld, ...], going_out: bool, family: RuleFamily = FAMILY
) -> list[MeldProblem]:
    """Every rule a side's melds at the end of a hand break: each meld, and one per rank
    (melds of wild cards only may be several: each closes at seven)."""
    options = MeldOptions(going_out=going_out, rules=family.meld)
    found: list[MeldProblem] = []
    seen: set[str] = set()
    for index, meld in enumerate(melds):
        found.extend(meld_problems(index, meld, options))
        if meld.rank in seen and meld.rank != WILD_RANK:
            found.append(MeldProblem(index, f"melds[{index}].rank", "same-rank"))
        seen.add(meld.rank)
    return found


def sequence_problems(
    index: int, sequence: PlannedSequence, family: RuleFamily
) -> list[MeldProblem]:
    """Every rule a sequence breaks (empty when it is a legal one), each at its field."""

    def problem(name: str, code: str) -> MeldProblem:
        return MeldProblem(None, f"sequences[{index}].{name}", code, sequence=index)

    rules = family.sequences
    if rules is None:
        return [problem("suit", "no-sequences")]
    found = []
    if sequence.suit not in SUITS:
        found.append(problem("suit", "sequence-suit"))
    for name in ("jokers", "twos"):
        if getattr(sequence, name):
            found.append(problem(name, "sequence-wild"))
    bad = [name for name in ("first", "last") if getattr(sequence, name) not in rules.ranks]
    found.extend(problem(name, "sequence-rank") for name in bad)
    if bad:
        return found
    low, high = rules.ranks.index(sequence.first), rules.ranks.index(sequence.last)
    if high < low:
        found.append(problem("last", "sequence-order"))
    elif high - low + 1 < rules.min_cards:
        found.append(problem("last", "sequence-short"))
    elif high - low + 1 > rules.max_cards:
        found.append(problem("last", "sequence-long"))
    return found


def sequence_value(sequence: PlannedSequence, family: RuleFamily) -> int:
    """The card value of a sequence: each of its natural cards by its rank."""
    if family.sequences is None:
        return 0
    values = family.card_values
    return sum(values.of(family.rank_groups[rank]) for rank in sequence.ranks(family.sequences))


def canastas_of(
    melds: tuple[PlannedMeld, ...],
    family: RuleFamily = FAMILY,
    sequences: tuple[PlannedSequence, ...] = (),
) -> dict[str, int]:
    """How many canastas of each of the family's kinds these melds (and sequences) hold."""
    kinds = [meld.canasta(family) for meld in melds]
    kinds += [sequence.canasta(family) for sequence in sequences]
    return {kind: kinds.count(kind) for kind in family.kinds}


def unfinished_of(melds: tuple[PlannedMeld, ...], family: RuleFamily = FAMILY) -> dict[str, int]:
    """How many melds short of a canasta take each of the family's unfinished-meld
    penalties (none in Classic)."""
    found: dict[str, int] = {}
    for meld in melds:
        kind = meld.unfinished(family)
        if kind is not None:
            found[kind] = found.get(kind, 0) + 1
    return found


def discard_top_problems(melds: tuple[PlannedMeld, ...], top: str) -> list[MeldProblem]:
    """Taking the pile to open: the pile is frozen for a side that has not opened, so its
    top card must join two natural cards of its rank from the hand."""
    if top in (BLACK_THREE, RED_THREE):
        return [MeldProblem(None, "discard_top", "pile-three-on-top")]
    for index, meld in enumerate(melds):
        if meld.rank == top:
            if meld.naturals < 1 + MELD_RULES.min_naturals:
                return [MeldProblem(index, f"melds[{index}].naturals", "pile-needs-pair")]
            return []
    return [MeldProblem(None, "discard_top", "pile-no-meld")]


def check_opening(
    minimum: int,
    melds: tuple[PlannedMeld, ...] | list[PlannedMeld],
    options: MeldOptions | None = None,
    family: RuleFamily = FAMILY,
    sequences: tuple[PlannedSequence, ...] | list[PlannedSequence] = (),
) -> MeldCheck:
    """Add up the legal melds' card values (and sequences', where the family has them) and
    compare them with the minimum."""
    options = options or MeldOptions(rules=family.meld)
    melds = tuple(melds)
    problems: list[MeldProblem] = []
    counted = []
    for index, meld in enumerate(melds):
        found = meld_problems(index, meld, options)
        problems.extend(found)
        counted.append(not found)
    if options.discard_top is not None:
        problems.extend(discard_top_problems(melds, options.discard_top))
    rules = options.rules
    if (
        melds
        and rules.opening_naturals
        and not any(
            meld.naturals >= rules.opening_naturals and ok
            for meld, ok in zip(melds, counted, strict=True)
        )
    ):
        problems.append(MeldProblem(None, "melds", "needs-natural-triple"))
    meld_points = tuple(meld_value(meld, family) for meld in melds)
    points = sum(p for p, ok in zip(meld_points, counted, strict=True) if ok)
    points -= _uncounted_top(melds, counted, options, family)
    sequence_points, sequences_counted = [], []
    for index, sequence in enumerate(sequences):
        found = sequence_problems(index, sequence, family)
        problems.extend(found)
        sequence_points.append(sequence_value(sequence, family))
        sequences_counted.append(not found)
        points += 0 if found else sequence_points[-1]
    return MeldCheck(
        points,
        minimum,
        meld_points,
        tuple(counted),
        tuple(problems),
        tuple(sequence_points),
        tuple(sequences_counted),
    )


def _uncounted_top(
    melds: tuple[PlannedMeld, ...], counted: list[bool], options: MeldOptions, family: RuleFamily
) -> int:
    """The pile's top card's value where the family never counts it toward the minimum (it
    is one of the natural cards of the meld of its rank); 0 where it counts."""
    top = options.discard_top
    if top is None or options.rules.pile_top_counts:
        return 0
    for meld, ok in zip(melds, counted, strict=True):
        if meld.rank == top and ok and meld.naturals:
            return meld_value(PlannedMeld(top, 1), family)
    return 0


# --- reading input (shared by the JSON endpoint and the form) --------------------------------


def ranks_of(family: RuleFamily) -> tuple[str, ...]:
    """Every rank a planned meld may name in a family (its refusals come later, by rule):
    the ranks 4 to ace, wild cards where they meld alone, black and red threes."""
    return (*family.meld_ranks, family.black_three[0], family.red_three)


def parse_rank(name: str, value: Any, family: RuleFamily = FAMILY) -> str:
    text = value.strip().upper() if isinstance(value, str) else None
    known = ranks_of(family)
    for rank in known:
        if text == rank.upper():
            return rank
    raise RuleError(name, N_("must be a rank: {ranks}"), ranks=", ".join(known))


def parse_count(name: str, value: Any, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= high:
        raise RuleError(name, N_("must be a whole number from 0 to {high}"), high=high)
    return value


def parse_minimum(value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= MAX_MINIMUM:
        raise RuleError(
            "minimum", N_("must be a whole number of points from 0 to {high}"), high=MAX_MINIMUM
        )
    return value


def side_melds_at_most(family: RuleFamily) -> int:
    """A side's melds at most in any game of the family, before its packs are known: one per
    rank, and where wild cards meld alone in several melds (Bolivia) as many of three as the
    most jokers and twos a reader takes make. A game's own limit is the engine's."""
    if not family.meld.wild_meld_cards:
        return MAX_SIDE_MELDS
    return MAX_SIDE_MELDS + (MAX_JOKERS + MAX_TWOS) // family.meld.min_cards


def side_sequences_at_most(family: RuleFamily) -> int:
    """A side's sequences at most in any game of the family (none without sequences): every
    natural card a reader takes of each rank, in sequences of the fewest cards."""
    rules = family.sequences
    if rules is None:
        return 0
    return MAX_NATURALS * len(rules.ranks) // rules.min_cards


def planned_meld(
    index: int,
    rank: Any,
    naturals: Any,
    jokers: Any = 0,
    twos: Any = 0,
    family: RuleFamily = FAMILY,
) -> PlannedMeld:
    """A PlannedMeld from raw values; RuleError names the field at fault."""
    where = f"melds[{index}]"
    return PlannedMeld(
        rank=parse_rank(f"{where}.rank", rank, family),
        naturals=parse_count(f"{where}.naturals", naturals, MAX_NATURALS),
        jokers=parse_count(f"{where}.jokers", jokers, MAX_JOKERS),
        twos=parse_count(f"{where}.twos", twos, MAX_TWOS),
    )


def planned_sequence(
    index: int, suit: Any, first: Any, last: Any, jokers: Any = 0, twos: Any = 0
) -> PlannedSequence:
    """A PlannedSequence from raw values, each as typed: a suit in any case, a rank as text or
    a number (4 to 10). What is no suit or rank of a sequence is left for
    :func:`sequence_problems` to refuse at its field, in the game's words; counts that no pack
    holds are refused here."""
    where = f"sequences[{index}]"
    return PlannedSequence(
        suit=_typed(suit).lower(),
        first=_typed(first).upper(),
        last=_typed(last).upper(),
        jokers=parse_count(f"{where}.jokers", jokers, MAX_JOKERS),
        twos=parse_count(f"{where}.twos", twos, MAX_TWOS),
    )


def _typed(value: Any) -> str:
    """A suit's or rank's text as typed, trimmed (a number is its digits; anything else is
    no text: "", which no rule takes)."""
    if isinstance(value, int) and not isinstance(value, bool):
        return str(value)
    return value.strip()[:20] if isinstance(value, str) else ""
