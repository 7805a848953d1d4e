"""One hand of Canasta: what the table calls out, its validation and its score."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import cache
from typing import Any

from scorer.core.canastas import (
    cheapest_canastas,
    cheapest_kind,
    costs_of,
    counted_melds_problem,
    counted_melds_problem_by_kind,
    own_kind_cost,
    searches_by_kind,
)
from scorer.core.errors import N_, N_plural, RuleError
from scorer.core.families import (
    ALL_FAMILIES,
    CANASTAS_FIELD,
    DEFAULT_FAMILY,
    GROUP,
    SEQUENCE,
    SUITS,
    VALUE_GROUPS,
    WILD_MELD,
    CanastaKind,
    RuleFamily,
)
from scorer.core.limits import check_adjustment, check_adjustment_note
from scorer.core.meld import (
    MAX_SIDE_MELDS,
    PlannedMeld,
    PlannedSequence,
    canastas_of,
    meld_value,
    sequence_problems,
    sequence_value,
    side_meld_problems,
    unfinished_of,
)
from scorer.core.rules import RuleProfile

# A side's canastas by kind, as (kind, count) pairs sorted by kind, counts of 0 left out:
# (("mixed", 1), ("natural", 2)). A tuple, so that a hand stays hashable and comparable.
CanastaCounts = tuple[tuple[str, Any], ...]
_SUFFIX = CANASTAS_FIELD.format(kind="")  # "_canastas"


def canasta_counts(counts: Mapping[str, Any] | CanastaCounts) -> CanastaCounts:
    """Canastas by kind in their one stored shape (a count of 0 is no canasta)."""
    pairs = counts.items() if isinstance(counts, Mapping) else counts
    return tuple(sorted((kind, n) for kind, n in pairs if not (type(n) is int and n == 0)))


@dataclass(frozen=True)
class CardCounts:
    """Cards counted by value group instead of adding up their points."""

    jokers: int = 0
    twenty: int = 0
    ten: int = 0
    five: int = 0

    def points(self, profile: RuleProfile) -> int:
        # Spelled out, not summed over VALUE_GROUPS: a long game's replay calls it thousands
        # of times.
        values = profile.card_values
        return int(
            self.jokers * values.jokers
            + self.twenty * values.twenty
            + self.ten * values.ten
            + self.five * values.five
        )

    def of(self, group: str) -> int:
        return int(getattr(self, group))


@dataclass(frozen=True, init=False)
class SideHand:
    """What one side calls out at the end of a hand.

    Meld and hand points may be given as points or as card counts; when counts are given
    they decide the points (see :meth:`melded` and :meth:`left_in_hand`). Melds may also be
    given rank by rank (``melds``): they then decide the meld points and the canastas, by the
    kinds of canasta of ``family`` (the default family when not given).
    ``canastas`` counts the canastas by kind, ``{"natural": 2, "mixed": 1}``; each kind may
    also be given and read as ``<kind>_canastas`` (``natural_canastas=2``), the hand's field.
    ``adjustment`` is the table's own penalty or correction, added to the hand's score.
    """

    meld_points: int
    canastas: CanastaCounts
    red_threes: int
    hand_points: int
    meld_cards: CardCounts | None
    hand_cards: CardCounts | None
    adjustment: int
    adjustment_note: str
    melds: tuple[PlannedMeld, ...] | None
    # What only some families ask (Modern American), each nothing by default: black threes
    # laid down as bonus cards, unfinished melds by kind, players caught holding three or
    # more of a rank (by rank), and a special hand instead of everything else.
    black_threes: int
    unfinished: CanastaCounts
    players_holding: CanastaCounts
    special_hand: str | None
    # Samba and Bolivia: the sequences laid, given meld by meld beside ``melds`` (sequences
    # alone: no group melded), and Bolivia's black threes left in hand (counted apart from
    # ``hand_points``, which holds the other cards).
    sequences: tuple[PlannedSequence, ...]
    black_threes_in_hand: int

    def __init__(
        self,
        *,
        meld_points: int = 0,
        canastas: Mapping[str, Any] | CanastaCounts = (),
        red_threes: int = 0,
        hand_points: int = 0,
        meld_cards: CardCounts | None = None,
        hand_cards: CardCounts | None = None,
        adjustment: int = 0,
        adjustment_note: str = "",
        melds: tuple[PlannedMeld, ...] | None = None,
        black_threes: int = 0,
        unfinished: Mapping[str, Any] | CanastaCounts = (),
        players_holding: Mapping[str, Any] | CanastaCounts = (),
        special_hand: str | None = None,
        sequences: tuple[PlannedSequence, ...] = (),
        black_threes_in_hand: int = 0,
        family: RuleFamily | None = None,
        **by_kind: Any,
    ) -> None:
        kinds = dict(canastas)
        for name, count in by_kind.items():
            if not name.endswith(_SUFFIX) or name == _SUFFIX:
                raise TypeError(f"SideHand got an unexpected keyword argument {name!r}")
            kinds[name[: -len(_SUFFIX)]] = count
        if sequences and melds is None:
            melds = ()  # sequences are given meld by meld: the side's groups are none
        if melds is not None:
            # The melds say which canastas there are: nothing typed beside them counts.
            kinds = canastas_of(melds, family or DEFAULT_FAMILY, sequences)
            meld_points, meld_cards = 0, None
            if family is not None and family.unfinished_melds:
                # And which melds are short of their canasta (Modern American's penalties).
                unfinished = unfinished_of(melds, family)
        # Straight into the instance's dict: frozen, and built thousands of times a replay.
        self.__dict__.update(
            meld_points=meld_points,
            canastas=canasta_counts(kinds),
            red_threes=red_threes,
            hand_points=hand_points,
            meld_cards=meld_cards,
            hand_cards=hand_cards,
            adjustment=adjustment,
            adjustment_note=adjustment_note,
            melds=melds,
            black_threes=black_threes,
            unfinished=canasta_counts(unfinished),
            players_holding=canasta_counts(players_holding),
            special_hand=special_hand,
            sequences=sequences,
            black_threes_in_hand=black_threes_in_hand,
        )

    def canastas_of(self, kind: str) -> Any:
        for key, count in self.canastas:
            if key == kind:
                return count
        return 0

    def melded(self, profile: RuleProfile) -> int:
        if self.melds is not None:
            family = profile.family
            return sum(meld_value(meld, family) for meld in self.melds) + sum(
                sequence_value(sequence, family) for sequence in self.sequences
            )
        if self.meld_cards is not None:
            return self.meld_cards.points(profile)
        return self.meld_points

    def left_in_hand(self, profile: RuleProfile) -> int:
        if self.hand_cards is not None:
            return self.hand_cards.points(profile)
        return self.hand_points

    @property
    def canasta_total(self) -> int:
        """How many canastas of every kind the side made."""
        return sum(count for _kind, count in self.canastas)


def _count_of(kind: str) -> property:
    return property(lambda side: side.canastas_of(kind), doc=f"The side's {kind} canastas.")


# ``side.natural_canastas``: each kind of every family, read by its hand field's name. Made
# as properties, not a __getattr__, which would slow every attribute of a side in a replay.
for _kind in sorted({kind for family in ALL_FAMILIES for kind in family.kinds}):
    setattr(SideHand, CANASTAS_FIELD.format(kind=_kind), _count_of(_kind))


@dataclass(frozen=True)
class Hand:
    """A finished hand: each side's call, who went out (None: the stock ran out), concealed."""

    sides: tuple[SideHand, ...]
    went_out: int | None = None
    concealed: bool = False


@dataclass(frozen=True)
class SideScore:
    """A side's hand score, part by part; ``hand`` is negative (cards left are subtracted)."""

    cards: int
    canastas: int
    red_threes: int
    going_out: int
    hand: int
    adjustment: int = 0  # the table's penalty or correction
    # Parts only some families have (Modern American), 0 elsewhere: black threes laid down,
    # the family's own penalties (negative), and a special hand's value (the others then 0).
    black_threes: int = 0
    penalties: int = 0
    special: int = 0

    @property
    def total(self) -> int:
        return self.played + self.adjustment

    @property
    def played(self) -> int:
        """The score the cards made, without the table's adjustment (for records)."""
        return (
            self.cards
            + self.canastas
            + self.red_threes
            + self.going_out
            + self.hand
            + self.black_threes
            + self.penalties
            + self.special
        )


# A side's score part by part, in the rule book's order, each with whether a family has it:
# Classic's six, and the parts only some families have (Modern American's black threes, its
# penalties or Bolivia's black threes left in hand, a special hand) where they belong.
_PARTS: tuple[tuple[str, Callable[[RuleFamily], bool]], ...] = (
    ("cards", lambda family: True),
    ("canastas", lambda family: True),
    ("red_threes", lambda family: True),
    ("black_threes", lambda family: family.black_threes_bonus),
    ("going_out", lambda family: True),
    ("penalties", lambda family: bool(family.penalties or family.black_three_in_hand)),
    ("hand", lambda family: True),
    ("special", lambda family: bool(family.special_hands)),
    ("adjustment", lambda family: True),
)


@cache
def score_parts(family: RuleFamily) -> tuple[str, ...]:
    """The parts a side's score has in this family, in order: what the API, the board and the
    preview show."""
    return tuple(part for part, has in _PARTS if has(family))


def score_hand(profile: RuleProfile, hand: Hand) -> tuple[SideScore, ...]:
    """Score every side of a hand that has passed :func:`validate_hand`."""
    return tuple(_score_side(profile, hand, i) for i in range(len(hand.sides)))


def _score_side(profile: RuleProfile, hand: Hand, index: int) -> SideScore:
    side = hand.sides[index]
    if profile.family.swing:
        return _score_swinging_side(profile, hand, index)
    melded = side.melded(profile)
    red_threes = profile.red_threes_score(side.red_threes)
    # Red threes count against a side that melded nothing at all (not merely no canasta),
    # or, as a house rule, against a side without a canasta.
    # Samba's book: against a side without the canastas going out needs.
    if profile.red_threes_count_against == "no_canasta":
        against = side.canasta_total == 0
    elif profile.red_threes_count_against == "too_few_canastas":
        against = side.canasta_total < profile.canastas_to_go_out
    else:
        against = melded == 0
    if against:
        red_threes = -red_threes
    going_out = 0
    if hand.went_out == index:
        going_out = profile.concealed_going_out if hand.concealed else profile.going_out
    return SideScore(
        cards=melded,
        canastas=_canasta_bonuses(profile, side),
        red_threes=red_threes,
        going_out=going_out,
        hand=-side.left_in_hand(profile),
        adjustment=side.adjustment,
        # Bolivia's black threes left in hand, apart from the other cards.
        penalties=-profile.family.black_three_in_hand * side.black_threes_in_hand,
    )


def _score_swinging_side(profile: RuleProfile, hand: Hand, index: int) -> SideScore:
    """A side's score where its completed canastas decide the signs (Modern American):
    docs/rules.md, "the swing". A special hand's value replaces everything else."""
    side = hand.sides[index]
    family = profile.family
    special = None if side.special_hand is None else profile.special_hand(side.special_hand)
    if special is not None:
        return SideScore(0, 0, 0, 0, 0, adjustment=side.adjustment, special=special.value)
    signs = family.signs_for(side.canasta_total)
    assert signs is not None
    going_out = 0
    if hand.went_out == index:
        going_out = profile.concealed_going_out if hand.concealed else profile.going_out
    return SideScore(
        cards=signs.cards * side.melded(profile),
        canastas=signs.bonuses * _canasta_bonuses(profile, side),
        red_threes=signs.threes * _threes_score(profile, side.red_threes),
        going_out=signs.bonuses * going_out,
        hand=-side.left_in_hand(profile),
        adjustment=side.adjustment,
        black_threes=signs.threes * _threes_score(profile, side.black_threes),
        penalties=-family_penalties(family, side),
    )


def _threes_score(profile: RuleProfile, count: int) -> int:
    # Each colour by the same table (100, 300, 500, 1 000); none laid down scores nothing.
    return profile.red_threes_score(count) if count else 0


def family_penalties(family: RuleFamily, side: SideHand) -> int:
    """What the family itself takes from a side at the end of a hand (a positive number):
    its unfinished melds, and each player caught holding too many of a rank."""
    unfinished = dict(family.unfinished_melds)
    held = {rank: penalty for rank, _least, penalty in family.held_cards}
    return sum(count * unfinished[kind] for kind, count in side.unfinished) + sum(
        count * held[rank] for rank, count in side.players_holding
    )


# Counts above this are refused outright, whatever the packs (keeps arithmetic small).
MAX_COUNT = 1000


def validate_hand(profile: RuleProfile, hand: Hand, sides: int, *, stored: bool = False) -> None:
    """Raise RuleError naming the first field that breaks a consistency rule of §2.

    ``stored=True`` checks a hand recorded before rules 10 to 13 existed against the rules it
    was recorded under (1 to 9), so that replaying a stored game never refuses it.
    """
    if len(hand.sides) != sides:
        raise RuleError(
            "sides", N_("a hand needs one entry for each of the {count} sides"), count=sides
        )
    for i, side in enumerate(hand.sides):
        _check_side_numbers(profile, side, f"sides[{i}]")
    _check_melds(profile, hand)
    _check_going_out(profile, hand)
    for i, side in enumerate(hand.sides):
        _check_side_melds(profile, side, f"sides[{i}]", stored=stored, went_out=hand.went_out == i)
    if not stored:
        _check_empty_hand_of_who_went_out(profile, hand)
    _check_red_threes(profile, hand)
    if searches_by_kind(profile.family):
        _check_own_ranks(profile, hand)
    _check_card_counts(profile, hand)
    _check_total_points(profile, hand)


def _check_side_numbers(profile: RuleProfile, side: SideHand, path: str) -> None:
    # Most sides have no adjustment: 0 and no note need no check (a replay checks every hand).
    if (type(side.adjustment), side.adjustment, side.adjustment_note) != (int, 0, ""):
        check_adjustment(side.adjustment, f"{path}.adjustment")
        check_adjustment_note(side.adjustment_note, f"{path}.adjustment_note")
    family = profile.family
    made = dict(side.canastas)
    for kind in made:
        if kind not in family.kinds:
            raise RuleError(
                f"{path}.{family.canasta_field(kind)}"[:100], N_("is not a kind of canasta")
            )
    for kind, name in family.canasta_fields:
        _check_count(path, name, made.get(kind, 0))
    _check_count(path, "red_threes", side.red_threes)
    _check_family_asks(profile, side, path)
    for name, counts in (("meld_cards", side.meld_cards), ("hand_cards", side.hand_cards)):
        if counts is not None:
            for group in VALUE_GROUPS:
                # The raw value: counts.of() converts to int and would let 1.5 pass as 1.
                _check_count(f"{path}.{name}", group, getattr(counts, group))
    for name in ("meld_points", "hand_points"):
        value = getattr(side, name)
        if isinstance(value, bool) or not isinstance(value, int):
            raise RuleError(f"{path}.{name}", N_("must be a whole number of points"))
        if value < 0:
            raise RuleError(f"{path}.{name}", N_("cannot be negative"))
        if value % 5:
            raise RuleError(f"{path}.{name}", N_("must be a multiple of 5"))
        if value > profile.card_value_of_packs:
            raise RuleError(
                f"{path}.{name}",
                N_("at most {limit} points with {packs} packs"),
                limit=profile.card_value_of_packs,
                packs=profile.packs,
            )


def _check_family_asks(profile: RuleProfile, side: SideHand, path: str) -> None:
    """The fields only some families ask (black threes, unfinished melds, players holding,
    a special hand): each refused where the family does not ask it, counted where it does."""
    if (
        type(side.black_threes) is int
        and type(side.black_threes_in_hand) is int
        and (
            side.black_threes,
            side.unfinished,
            side.players_holding,
            side.special_hand,
            side.black_threes_in_hand,
            side.sequences,
        )
        == (0, (), (), None, 0, ())
    ):
        return  # nothing of it called (every Classic side): no work in a replay
    family = profile.family
    _check_count(path, "black_threes_in_hand", side.black_threes_in_hand)
    if side.black_threes_in_hand and not family.black_three_in_hand:
        raise RuleError(f"{path}.black_threes_in_hand", N_("is not asked in this game"))
    if side.sequences and family.sequences is None:
        raise RuleError(
            f"{path}.sequences", N_("this game has no sequences: meld cards of one rank")
        )
    _check_count(path, "black_threes", side.black_threes)
    if side.black_threes and not family.black_threes_bonus:
        raise RuleError(f"{path}.black_threes", N_("is not asked in this game"))
    for name, known, made in (
        ("unfinished", dict(family.unfinished_melds), side.unfinished),
        ("players_holding", {held[0]: 0 for held in family.held_cards}, side.players_holding),
    ):
        for kind, count in made:
            field = f"{path}.{name}.{kind}"[:100]
            if kind not in known:
                raise RuleError(field, N_("is not asked in this game"))
            _check_count(f"{path}.{name}", kind, count)
    largest_side = max(max(layout.team_sizes) for layout in profile.layouts)
    for rank, count in side.players_holding:
        if count > largest_side:
            raise RuleError(
                f"{path}.players_holding.{rank}",
                N_("a side has at most {count} players"),
                count=largest_side,
            )
    if side.special_hand is not None and profile.special_hand(side.special_hand) is None:
        raise RuleError(f"{path}.special_hand", N_("is not a special hand of this game"))


def _check_count(path: str, name: str, value: object) -> None:
    """A count of cards or canastas at `path`.`name` (the field is named only if it fails)."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise RuleError(f"{path}.{name}", N_("must be a whole number"))
    if value < 0:
        raise RuleError(f"{path}.{name}", N_("cannot be negative"))
    if value > MAX_COUNT:
        raise RuleError(f"{path}.{name}", N_("is far more than the packs hold"))


def _check_melds(profile: RuleProfile, hand: Hand) -> None:
    """Melds given rank by rank: each a legal meld, one per rank (scorer.core.meld's rules)."""
    for i, side in enumerate(hand.sides):
        if side.melds is None:
            continue
        if len(side.melds) > max_melds(profile):
            raise RuleError(
                f"sides[{i}].melds",
                N_("a side has at most {limit} melds: one per rank"),
                limit=max_melds(profile),
            )
        problems = side_meld_problems(side.melds, hand.went_out == i, profile.family)
        if len(side.sequences) > max_sequences(profile):
            raise RuleError(
                f"sides[{i}].sequences",
                N_("a side has at most {limit} sequences with these packs"),
                limit=max_sequences(profile),
            )
        for j, sequence in enumerate(side.sequences):
            problems.extend(sequence_problems(j, sequence, profile.family))
        if problems:
            first = problems[0]
            raise RuleError(f"sides[{i}].{first.field}", first.template)


def max_melds(profile: RuleProfile) -> int:
    """A side's melds at most: one per rank, and in Bolivia its melds of wild cards beside
    them (each of three at least: six with three packs)."""
    rules = profile.family.meld
    if not rules.wild_meld_cards:
        return MAX_SIDE_MELDS
    return MAX_SIDE_MELDS + wild_in_packs(profile) // rules.min_cards


def wild_in_packs(profile: RuleProfile) -> int:
    """Jokers and twos in the packs: 18 with three."""
    return profile.cards_in_packs("jokers") + profile.packs * profile.family.meld.cards_a_rank


def max_sequences(profile: RuleProfile) -> int:
    """A side's sequences at most: every natural card of the packs in sequences of the
    fewest cards (44 with three packs)."""
    rules = profile.family.sequences
    if rules is None:
        return 0
    return profile.packs * len(SUITS) * len(rules.ranks) // rules.min_cards


def _check_going_out(profile: RuleProfile, hand: Hand) -> None:
    went_out = hand.went_out
    if went_out is not None and (
        isinstance(went_out, bool)
        or not isinstance(went_out, int)
        or not 0 <= went_out < len(hand.sides)
    ):
        raise RuleError("went_out", N_("must name one of the sides, or nobody"))
    if hand.concealed and went_out is None:
        raise RuleError("concealed", N_("only the side that went out can go out concealed"))
    for i, other in enumerate(hand.sides):
        if other.special_hand is not None and went_out != i:
            raise RuleError(
                f"sides[{i}].special_hand",
                N_("a special hand goes out at once: this side is the one that went out"),
            )
    if went_out is None:
        return
    side = hand.sides[went_out]
    if side.special_hand is not None:
        return  # a special hand goes out with no meld and no canasta
    if side.melded(profile) == 0:
        raise RuleError(
            meld_field(side, f"sides[{went_out}]"), N_("a side that melded nothing cannot go out")
        )
    if side.canasta_total < profile.canastas_to_go_out:
        # A side that has a natural canasta but too few in all most likely left out a mixed
        # one: the message goes under the box to fill in (the first kind it made none of).
        kinds = profile.family.kinds
        missing = next((kind for kind in kinds if not side.canastas_of(kind)), kinds[-1])
        box = profile.family.canasta_field(missing)
        if side.melds is not None:
            box = "melds"  # the melds decide the canastas: they are what to change
        raise RuleError(
            f"sides[{went_out}].{box}",
            # A breach a player can make, not a typing slip: the rules have the table take
            # the cards back, so the hand cannot end this way.
            N_plural(
                "going out takes at least {count} canasta: the table takes the cards back "
                "and play goes on",
                "going out takes at least {count} canastas: the table takes the cards back "
                "and play goes on",
            ),
            count=profile.canastas_to_go_out,
        )
    needs = profile.family.going_out_needs
    if needs and not any(side.canastas_of(kind) for kind in needs):
        box = "sequences" if side.melds is not None else profile.family.canasta_field(needs[0])
        raise RuleError(
            f"sides[{went_out}].{box}",
            GOING_OUT_NEEDS.get(needs[0], GOING_OUT_NEEDS[""]),
            kind=needs[0],
        )


# Why a side cannot go out without a canasta of a kind its family asks for (Bolivia's
# escalera), by kind; "" for any other.
GOING_OUT_NEEDS: dict[str, str] = {
    "escalera": N_(
        "going out takes an escalera (seven cards of one suit in sequence): the table takes "
        "the cards back and play goes on"
    ),
    "": N_("going out takes a canasta of the kind {kind}: the table takes the cards back"),
}


def meld_field(side: SideHand, path: str) -> str:
    """The field that holds a side's melds: its melds or counted cards when given, else its
    points."""
    if side.melds is not None:
        return f"{path}.melds"
    return f"{path}.meld_cards" if side.meld_cards is not None else f"{path}.meld_points"


def _check_side_melds(
    profile: RuleProfile, side: SideHand, path: str, *, stored: bool, went_out: bool
) -> None:
    melded = side.melded(profile)
    field = meld_field(side, path)
    if side.special_hand is not None and (melded or side.canasta_total or side.unfinished):
        raise RuleError(
            f"{path}.special_hand",
            N_("a special hand is only for a side that melded nothing: clear its melds"),
        )
    if melded == 0 and side.canasta_total:
        raise RuleError(field, N_("a side with canastas has melded cards: enter their points"))
    family = profile.family
    if stored:
        # Rule 6, all that stored hands were checked against: the cheapest canastas of each
        # kind on any rank (35 and 50 in Classic).
        needed = sum(count * cheapest_kind(family, kind) for kind, count in side.canastas)
        if melded < needed:
            raise RuleError(
                field, N_("these canastas hold at least {needed} points of cards"), needed=needed
            )
        return
    least = smallest_meld(family)
    if 0 < melded < least:
        raise RuleError(
            field,
            N_("a meld is at least three cards worth 5 or more: {least} points at least"),
            least=least,
        )
    _check_canasta_ranks(family, side, path)
    _check_laid_apart(profile, side, path)
    costs = costs_of(family)
    natural, mixed = side.canastas_of(costs.natural), side.canastas_of(costs.mixed)
    needed = cheapest_canastas(family, natural, mixed) or 0
    # Sambas, escaleras and bolivias are no group: each costs its own cheapest cards.
    needed += sum(
        side.canastas_of(kind.key) * cheapest_kind(family, kind.key)
        for kind in family.canastas
        if kind.made_of != GROUP
    )
    # Kinds of their own rank (Modern American's sevens, aces, wild cards) on top.
    needed += sum(count * (own_kind_cost(family, kind) or 0) for kind, count in side.canastas)
    if melded < needed:
        raise RuleError(
            field,
            N_("these canastas hold at least {needed} points of cards"),
            needed=needed,
        )
    if side.meld_cards is None or side.melds is not None:
        return
    if searches_by_kind(family):
        _check_counted_melds_by_kind(profile, side, field)
        return
    # This search knows the natural and the mixed kinds, and sequences and melds of wild
    # cards (Samba, Bolivia).
    known = {costs.natural, costs.mixed}
    known.update(kind.key for kind in family.canastas if kind.made_of != GROUP)
    if dict(side.canastas).keys() <= known:
        _check_counted_melds(profile, side, field, went_out=went_out)


def smallest_meld(family: RuleFamily) -> int:
    """A meld is at least three cards of the cheapest value (rule 10): 15 in Classic."""
    cheapest = min(family.card_values.of(group) for group in family.rank_groups.values())
    return family.meld.min_cards * cheapest


def _check_canasta_ranks(family: RuleFamily, side: SideHand, path: str) -> None:
    """One canasta per rank at most, and only ranks 4 to ace make canastas (rule 11)."""
    limit = len(family.meld_ranks)  # 11 in Classic; 12 with a canasta of wild cards
    running = 0
    for kind in family.kinds_made_of(GROUP):
        running += side.canastas_of(kind)
        if running > limit:
            raise RuleError(
                f"{path}.{family.canasta_field(kind)}",
                N_("a side has at most {limit} canastas: one per rank from 4 to ace"),
                limit=limit,
            )


def most_laid_apart(profile: RuleProfile, kind: str) -> int:
    """The most canastas of a kind laid as no group a side can have: sambas (escaleras) by
    suit, each holding an 8, a 9 and a 10 of it, so as many a suit as the packs; bolivias
    by the packs' wild cards, seven each."""
    family = profile.family
    if family.canasta(kind).made_of == SEQUENCE:
        return profile.packs * len(SUITS)
    return wild_in_packs(profile) // family.meld.canasta_cards


def _check_laid_apart(profile: RuleProfile, side: SideHand, path: str) -> None:
    """No more sambas, escaleras or bolivias than the packs can make."""
    for kind in profile.family.canastas:
        if kind.made_of == GROUP or not side.canastas_of(kind.key):
            continue
        limit = most_laid_apart(profile, kind.key)
        if side.canastas_of(kind.key) > limit:
            raise RuleError(
                f"{path}.{profile.family.canasta_field(kind.key)}",
                N_("the packs make at most {limit} canastas of this kind"),
                limit=limit,
            )


def _canasta_bonuses(profile: RuleProfile, side: SideHand) -> int:
    bonus = 0
    for kind, count in side.canastas:  # most sides have none: no work at all
        bonus += count * profile.canasta_bonus(kind)
    return bonus


# Why counted melds cannot hold what a side declares (rule 12), in plain words.
COUNTED_MELD_PROBLEMS: dict[str, str] = {
    "meld": N_("a meld is at least three cards: count every melded card"),
    "cards": N_("each canasta is at least seven cards: these counts hold too few"),
    "wild": N_(
        "each mixed canasta holds a wild card (a joker or a two): these counts hold too few"
    ),
    "natural": N_(
        "a natural canasta is seven natural cards of one rank: these counts cannot make them"
    ),
    "melds": N_(
        "these cards cannot all be laid down: besides the canastas, each meld is three to six "
        "cards of one rank, with at least two natural cards and at most three jokers or twos "
        "(black threes only for the side that went out)"
    ),
}


def _check_counted_melds(
    profile: RuleProfile, side: SideHand, field: str, *, went_out: bool
) -> None:
    assert side.meld_cards is not None
    counts = side.meld_cards
    costs = costs_of(profile.family)
    family = profile.family
    problem = counted_melds_problem(
        family,
        side.meld_cards,
        side.canastas_of(costs.natural),
        side.canastas_of(costs.mixed),
        packs=profile.packs,
        went_out=went_out,
        sequences=sum(side.canastas_of(kind) for kind in family.kinds_made_of(SEQUENCE)),
        wild_melds=sum(side.canastas_of(kind) for kind in family.kinds_made_of(WILD_MELD)),
    )
    if problem == "melds" and any(
        counts.of(group) > profile.cards_in_packs(group) for group in VALUE_GROUPS
    ):
        return  # more cards than the packs hold: rule 7 says so, at the group's own box
    if problem is not None:
        raise RuleError(field, COUNTED_MELD_PROBLEMS[problem])


# Why counted melds cannot be laid down in a family whose melds close at a canasta.
CLOSED_MELD_PROBLEM = N_(
    "these cards cannot all be laid down as these canastas and unfinished melds: each meld "
    "is three to seven cards of one rank, with at least two natural cards and at most two "
    "jokers or twos (none with sevens), or three to seven wild cards"
)


def _check_counted_melds_by_kind(profile: RuleProfile, side: SideHand, field: str) -> None:
    assert side.meld_cards is not None
    counts = side.meld_cards
    if any(counts.of(group) > profile.cards_in_packs(group) for group in VALUE_GROUPS):
        return  # more cards than the packs hold: rule 7 says so, at the group's own box
    problem = counted_melds_problem_by_kind(
        profile.family,
        counts,
        dict(side.canastas),
        dict(side.unfinished),
        packs=profile.packs,
    )
    if problem is not None:
        raise RuleError(field, COUNTED_MELD_PROBLEMS.get(problem, CLOSED_MELD_PROBLEM))


def _check_empty_hand_of_who_went_out(profile: RuleProfile, hand: Hand) -> None:
    """A player who went out holds no cards: a side of one player then holds nothing (13)."""
    if hand.went_out is None or len(hand.sides) != profile.players:
        return  # sides of several players: the partners still hold cards
    side = hand.sides[hand.went_out]
    if side.left_in_hand(profile):
        name = "hand_cards" if side.hand_cards is not None else "hand_points"
        raise RuleError(
            f"sides[{hand.went_out}].{name}",
            N_("the player who went out holds no cards: 0 points left in hand"),
        )


def _own_rank_melds(family: RuleFamily) -> tuple[tuple[str, tuple[CanastaKind, ...]], ...]:
    """Each rank with kinds of its own (sevens, aces, wild cards), with those kinds."""
    found = []
    for rank in family.meld_ranks:
        kinds = tuple(kind for kind in family.canastas if rank in kind.ranks)
        if kinds:
            found.append((rank, kinds))
    return tuple(found)


def _check_own_ranks(profile: RuleProfile, hand: Hand) -> None:
    """Canastas and unfinished melds of a rank with kinds of its own: one meld of the rank a
    side, and all sides' together within the packs' cards of it (one canasta of sevens at a
    table of two packs). Wild cards: every meld's fewest, within the packs' jokers and twos."""
    family = profile.family
    rules = family.meld
    # Jokers, and twos (one rank of the 20 group: not its aces).
    wild_in_packs = (family.pack.jokers + rules.cards_a_rank) * profile.packs
    wild_seen = 0
    for i, side in enumerate(hand.sides):
        path = f"sides[{i}]"
        unfinished = dict(side.unfinished)
        for kind, count in side.canastas:
            wild_seen += count * family.canasta(kind).fewest_wild
            if wild_seen > wild_in_packs:
                raise RuleError(
                    f"{path}.{family.canasta_field(kind)}",
                    N_("the {packs} packs hold only {limit} of these cards"),
                    packs=profile.packs,
                    limit=wild_in_packs,
                )
        for _rank, kinds in _own_rank_melds(family):
            made = [(family.canasta_field(kind.key), side.canastas_of(kind.key)) for kind in kinds]
            keys = dict.fromkeys(kind.unfinished for kind in kinds if kind.unfinished)
            made += [(f"unfinished.{key}", unfinished.get(key, 0)) for key in keys]
            if sum(count for _field, count in made) > 1:
                last = [name for name, count in made if count][-1]
                raise RuleError(
                    f"{path}.{last}",
                    N_("a side has one meld of each rank: one canasta or unfinished meld here"),
                )
    for rank, kinds in _own_rank_melds(family):
        if rank not in family.rank_groups:
            continue  # wild cards: counted above
        limit = rules.cards_a_rank * profile.packs
        seen = 0
        for i, side in enumerate(hand.sides):
            unfinished = dict(side.unfinished)
            for kind in kinds:
                count = side.canastas_of(kind.key)
                seen += count * (rules.canasta_cards - kind.most_wild)
                seen += unfinished.get(kind.unfinished or "", 0) * rules.min_naturals
                if seen > limit:
                    name = f"unfinished.{kind.unfinished}"
                    if count:
                        name = family.canasta_field(kind.key)
                    raise RuleError(
                        f"sides[{i}].{name}",
                        N_("the {packs} packs hold only {limit} of these cards"),
                        packs=profile.packs,
                        limit=limit,
                    )


def _check_red_threes(profile: RuleProfile, hand: Hand) -> None:
    total = sum(side.red_threes for side in hand.sides)
    if total > profile.red_threes_in_packs:
        last = max(i for i, side in enumerate(hand.sides) if side.red_threes)
        raise RuleError(
            f"sides[{last}].red_threes",
            N_("at most {limit} red threes in all with {packs} packs"),
            limit=profile.red_threes_in_packs,
            packs=profile.packs,
        )
    black = sum(side.black_threes for side in hand.sides)
    limit = profile.family.meld.black_threes_a_pack * profile.packs
    _check_black_threes_in_hand(profile, hand, limit)
    if black > limit:
        last = max(i for i, side in enumerate(hand.sides) if side.black_threes)
        raise RuleError(
            f"sides[{last}].black_threes",
            N_("at most {limit} black threes in all with {packs} packs"),
            limit=limit,
            packs=profile.packs,
        )


def _check_black_threes_in_hand(profile: RuleProfile, hand: Hand, limit: int) -> None:
    """Black threes left in hand (Bolivia), with those melded meld by meld, fit the packs."""
    if not any(side.black_threes_in_hand for side in hand.sides):
        return
    black_three = profile.family.black_three[0]
    melded = sum(
        meld.naturals
        for side in hand.sides
        for meld in side.melds or ()
        if meld.rank == black_three
    )
    held = 0
    for i, side in enumerate(hand.sides):
        held += side.black_threes_in_hand
        if melded + held > limit:
            raise RuleError(
                f"sides[{i}].black_threes_in_hand",
                N_("at most {limit} black threes in all with {packs} packs"),
                limit=limit,
                packs=profile.packs,
            )


def melds_as_counts(
    melds: tuple[PlannedMeld, ...],
    family: RuleFamily = DEFAULT_FAMILY,
    sequences: tuple[PlannedSequence, ...] = (),
) -> CardCounts:
    """The cards of melds given rank by rank (and of sequences), counted by value group."""
    groups = dict.fromkeys(VALUE_GROUPS, 0)
    for sequence in sequences:
        for rank in sequence.ranks(family.sequences) if family.sequences else ():
            groups[family.rank_groups[rank]] += 1
    wild = dict(family.wild_cards)
    for meld in melds:
        groups[wild["jokers"]] += meld.jokers
        groups[wild["twos"]] += meld.twos
        group = family.rank_groups.get(meld.rank)
        if group in groups:  # red threes are refused before this
            groups[group] += meld.naturals
    return CardCounts(**groups)


def _check_meld_ranks(profile: RuleProfile, hand: Hand) -> None:
    """Natural cards of one rank, over every side's melds, fit in the packs."""
    rules = profile.family.meld
    black_three = profile.family.black_three[0]
    seen: dict[str, int] = {}
    _check_sequence_cards(profile, hand, seen)
    for i, side in enumerate(hand.sides):
        for j, meld in enumerate(side.melds or ()):
            seen[meld.rank] = seen.get(meld.rank, 0) + meld.naturals
            # Cards of one rank in a pack: four, but only two black threes.
            per_pack = rules.black_threes_a_pack if meld.rank == black_three else rules.cards_a_rank
            if seen[meld.rank] > per_pack * profile.packs:
                raise RuleError(
                    f"sides[{i}].melds[{j}].naturals",
                    N_("the {packs} packs hold only {limit} of these cards"),
                    packs=profile.packs,
                    limit=per_pack * profile.packs,
                )


def _check_sequence_cards(profile: RuleProfile, hand: Hand, seen: dict[str, int]) -> None:
    """Cards of one rank and suit in every side's sequences fit in the packs (one a pack);
    ``seen`` gathers each rank's cards, for the groups of that rank to be added to."""
    rules = profile.family.sequences
    if rules is None:
        return
    by_suit: dict[tuple[str, str], int] = {}
    for i, side in enumerate(hand.sides):
        for j, sequence in enumerate(side.sequences):
            for rank in sequence.ranks(rules):
                seen[rank] = seen.get(rank, 0) + 1
                key = (sequence.suit, rank)
                by_suit[key] = by_suit.get(key, 0) + 1
                if by_suit[key] > profile.packs:
                    raise RuleError(
                        f"sides[{i}].sequences[{j}].suit",
                        N_("the {packs} packs hold only {limit} of these cards"),
                        packs=profile.packs,
                        limit=profile.packs,
                    )


def _check_card_counts(profile: RuleProfile, hand: Hand) -> None:
    """Counted cards (melds and hands of every side together) fit in the packs."""
    _check_meld_ranks(profile, hand)
    counted = [
        (f"sides[{i}].{name}", counts)
        for i, side in enumerate(hand.sides)
        for name, counts in (
            ("meld_cards", side.meld_cards),
            (
                "melds",
                None
                if side.melds is None
                else melds_as_counts(side.melds, profile.family, side.sequences),
            ),
            ("hand_cards", side.hand_cards),
        )
        if counts is not None
    ]
    for group in VALUE_GROUPS:
        seen = 0
        for path, counts in counted:
            seen += counts.of(group)
            if seen > profile.cards_in_packs(group):
                raise RuleError(
                    # Melds rank by rank have no box per group: the side's melds are named.
                    path if path.endswith(".melds") else f"{path}.{group}",
                    N_("the {packs} packs hold only {limit} of these cards"),
                    packs=profile.packs,
                    limit=profile.cards_in_packs(group),
                )


def _check_total_points(profile: RuleProfile, hand: Hand) -> None:
    """Every side's meld and hand points together fit in the packs' card value."""
    running = 0
    for i, side in enumerate(hand.sides):
        for name, points in (
            ("meld_points", side.melded(profile)),
            ("hand_points", side.left_in_hand(profile)),
        ):
            running += points
            if running > profile.card_value_of_packs:
                raise RuleError(
                    f"sides[{i}].{name}",
                    N_("all sides together hold at most {limit} points of cards"),
                    limit=profile.card_value_of_packs,
                )
