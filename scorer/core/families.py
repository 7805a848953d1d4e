"""Families of Canasta: everything a game of one family fixes, as frozen data.

A family (Classic today; Modern American, Samba, Bolivia as they arrive: docs/rules.md, "Other
games of the family") fixes the packs, the card values, the kinds of meld and of canasta with
their bonuses, the threes, going out, the minimum table and the target; each of its seatings
fixes how many sit at the table, in which sides, and the numbers that change with them (packs,
cards dealt, canastas to go out, target). A game's rules are a family x a seating, plus the
table's house rules (scorer.core.rules).

The engine never asks which family it plays: it reads these fields. Adding a family is one
more :class:`RuleFamily` value in :data:`FAMILIES` (and its words and tests), never a branch.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import cached_property
from typing import Any

from scorer.core.errors import N_, RuleError

# Card value groups a player can count at the table (red threes are bonuses, not cards).
VALUE_GROUPS: tuple[str, ...] = ("jokers", "twenty", "ten", "five")
# The field a side's count of one kind of canasta has in a hand ("natural" -> "natural_canastas").
CANASTAS_FIELD = "{kind}_canastas"
# The same count in a family that names its canastas in one object ("canastas": {"sevens": 1}):
# the API's names for every family after Classic (issue 31).
CANASTAS_BY_KIND_FIELD = "canastas.{kind}"
# The house rule that changes one kind of canasta's bonus ("natural" -> "natural_canasta").
CANASTA_BONUS_RULE = "{kind}_canasta"
# The rank a meld of wild cards only is given as, meld by meld (Modern American, Bolivia).
WILD_RANK = "wild"


@dataclass(frozen=True)
class CardValues:
    """Points of each value group: jokers, aces and twos, K to 8, 7 to 4 and black threes."""

    jokers: int
    twenty: int
    ten: int
    five: int

    def of(self, group: str) -> int:
        return int(getattr(self, group))


@dataclass(frozen=True)
class PackContents:
    """How many cards of each value group one pack (52 cards + 2 jokers) holds."""

    jokers: int
    twenty: int
    ten: int
    five: int
    red_threes: int

    def of(self, group: str) -> int:
        return int(getattr(self, group))


@dataclass(frozen=True)
class Layout:
    """One way to seat a table: the size of each side, and the target it plays to."""

    team_sizes: tuple[int, ...]
    target: int

    @property
    def players(self) -> int:
        return sum(self.team_sizes)


@dataclass(frozen=True)
class MeldRules:
    """What makes a meld of one rank (a "group"), and when it becomes a canasta."""

    min_cards: int  # a meld is at least this many cards
    min_naturals: int  # of which at least this many natural cards
    max_wild: int  # and at most this many wild cards
    canasta_cards: int  # a meld of this many cards or more is a canasta
    # Black threes go down only with the player going out, this many at a time, no wild card.
    black_threes_going_out: tuple[int, ...]
    cards_a_rank: int  # cards of one natural rank in a pack
    black_threes_a_pack: int
    wild_never_counts_alone: bool = True  # no meld of wild cards only
    # Ranks whose melds never hold a wild card (Modern American's sevens).
    natural_only_ranks: tuple[str, ...] = ()
    # A meld of wild cards only (rank WILD_RANK) holds from min_cards up to this many (Bolivia:
    # seven, a bolivia, closed); 0: the family has no such meld.
    wild_meld_cards: int = 0
    # A meld is never more than this many cards (Modern American: a canasta is closed at
    # seven); None: melds grow past a canasta (Classic).
    most_cards: int | None = None
    # An opening needs a meld of at least this many natural cards (Modern American's
    # natural triple); 0: none.
    opening_naturals: int = 0
    # Whether the pile's top card, taken to open, counts toward the minimum (Classic: it does;
    # Modern American: never).
    pile_top_counts: bool = True


# The suits a sequence is of.
SUITS: tuple[str, ...] = ("clubs", "diamonds", "hearts", "spades")
# Made of: the ways a canasta is laid (CanastaKind.made_of).
GROUP, SEQUENCE, WILD_MELD = "group", "sequence", "wild"


@dataclass(frozen=True)
class SequenceRules:
    """Sequences (Samba, Bolivia): natural cards of one suit in order, no wild card."""

    ranks: tuple[str, ...]  # in order, lowest first (4 to ace)
    min_cards: int  # a sequence is at least this many cards
    max_cards: int  # and at most this many: a sequence this long is a canasta, closed
    canasta: str  # the kind of canasta a sequence of max_cards cards is


@dataclass(frozen=True)
class CanastaKind:
    """One kind of canasta: its name, its bonus, and how many wild cards it holds."""

    key: str
    bonus: int
    fewest_wild: int
    most_wild: int
    # Only melds of these ranks make it, before any kind of every rank (Modern American's
    # sevens and aces; WILD_RANK for a canasta of wild cards); empty: any rank.
    ranks: tuple[str, ...] = ()
    # What it is laid as: a group of one rank (every kind of Classic and Modern American), a
    # sequence of one suit (Samba's samba, Bolivia's escalera) or a meld of wild cards only
    # (Bolivia's bolivia).
    made_of: str = "group"
    # How many of its wild cards are jokers (Modern American's three wild canastas).
    fewest_jokers: int = 0
    most_jokers: int = 99
    # The family's penalty (unfinished_melds) a meld on its way to this kind takes when the
    # hand ends before it is one; None: an unfinished meld of this kind costs nothing extra.
    unfinished: str | None = None

    @property
    def field(self) -> str:
        """The hand's field that counts this kind ("natural_canastas")."""
        return CANASTAS_FIELD.format(kind=self.key)

    @property
    def bonus_rule(self) -> str:
        """The house rule that changes its bonus ("natural_canasta")."""
        return CANASTA_BONUS_RULE.format(kind=self.key)


@dataclass(frozen=True)
class SeatingRules:
    """One seating of a family: who plays, and the numbers that change with the table."""

    key: str  # the game's "profile" in the API ("classic", "two-player"...)
    players: int
    layouts: tuple[Layout, ...]
    packs: int
    cards_dealt: int
    canastas_to_go_out: int
    target: int
    # Sitting out in turn happens in a side larger than this (the team of 3 at five players).
    playing_side_size: int = 2


@dataclass(frozen=True)
class Signs:
    """How a side's hand counts with so many completed canastas (Modern American's swing):
    +1 added, -1 subtracted, 0 not counted. Penalties and cards left in hand are always
    subtracted."""

    bonuses: int  # canasta bonuses and going out
    cards: int  # the value of the melded cards
    threes: int  # the threes laid down as bonus cards


# A minimum table row: (from_total, minimum). The first row's from_total is None: it covers
# every total below the second row ("below 0").
MinimumRow = tuple[int | None, int]


@dataclass(frozen=True)
class RuleFamily:
    """A game of the Canasta family: every number and kind it fixes."""

    key: str
    card_values: CardValues
    pack: PackContents
    # The ranks a meld can be made of, each with its value group; black threes apart.
    natural_ranks: tuple[tuple[str, str], ...]
    black_three: tuple[str, str]  # (rank, value group)
    red_three: str  # the rank name of a red three (a bonus card, never melded)
    # The wild cards, each with the value group it is counted in ("twos" count as "twenty").
    wild_cards: tuple[tuple[str, str], ...]
    meld: MeldRules
    canastas: tuple[CanastaKind, ...]
    red_three_value: int
    # By number of packs: counts of red threes that score a set value, not count x value.
    red_three_sets: tuple[tuple[int, tuple[tuple[int, int], ...]], ...]
    going_out: int
    concealed_going_out: int
    minimums: tuple[MinimumRow, ...]
    # With a target at or above high_target, the minimum table gains high_minimum_row.
    high_target: int
    high_minimum_row: MinimumRow
    seatings: tuple[SeatingRules, ...]
    # Points the family itself takes at the end of a hand, by name (Modern American's
    # unfinished meld of sevens...); Classic has none: a table's own penalties are
    # adjustments (docs/rules.md §3).
    penalties: tuple[tuple[str, int], ...] = ()
    # Hands that replace a side's whole score (Modern American's straight...); none in Classic.
    special_hands: tuple[tuple[str, int], ...] = ()
    # Threes of both colours are bonus cards laid down and scored by colour, each colour by
    # the red threes' values (Modern American); False: black threes are cards (Classic).
    black_threes_bonus: bool = False
    # By the side's completed canastas (0, 1, 2 or more: the last row covers every count
    # above), the signs of its parts; empty: Classic's own rules (red threes against a side
    # that melded nothing, everything else added).
    swing: tuple[Signs, ...] = ()
    # Unfinished melds the family takes points for, by kind ("sevens": 2 500).
    unfinished_melds: tuple[tuple[str, int], ...] = ()
    # Each player of a side caught holding this many cards of a rank or more pays (rank, at
    # least, penalty): ("sevens", 3, 1 500).
    held_cards: tuple[tuple[str, int, int], ...] = ()
    # The tournament rule: the opening minimum by the hand's number in a game of so many
    # hands (hand 1, 2, 3...); empty: the family has none.
    minimums_by_hand: tuple[int, ...] = ()
    # House rules the family's books name, as a preset of house rules (name, rules).
    house_presets: tuple[tuple[str, tuple[tuple[str, Any], ...]], ...] = ()
    # Sequences of one suit (Samba, Bolivia); None: the family melds groups only.
    sequences: SequenceRules | None = None
    # Going out needs at least one canasta of one of these kinds (Bolivia's escalera).
    going_out_needs: tuple[str, ...] = ()
    # Whom red threes count against, the book's first, then the house rules' (docs/rules.md):
    # a side that melded nothing, a side without a canasta, a side without the canastas
    # going out needs (Samba).
    red_threes_against: tuple[str, ...] = ("no_meld", "no_canasta")
    # Each black three left in a hand at the end takes this many points, apart from the
    # hand's other cards (Bolivia: 100); 0: black threes in hand count as cards.
    black_three_in_hand: int = 0
    # Cards a player draws a turn (Samba: two, then discards one).
    draws: int = 1
    # Whether a seating of three players or more may also be played each on their own
    # (Classic's books allow it, docs/rules.md §3); Modern American, Samba and Bolivia are
    # books of partnerships only.
    players_alone: bool = True
    # A field per kind of canasta ("natural_canastas"), as Classic hands have always been
    # written; False: one object of counts by kind ("canastas": {"natural": 1}).
    canasta_field_per_kind: bool = False

    def __hash__(self) -> int:
        # By its name only: a family is a cache key on every hand of a replay, and hashing
        # all its fields each time would cost more than the lookups save.
        return hash(self.key)

    @cached_property
    def rank_groups(self) -> dict[str, str]:
        """The value group of each rank a side can meld, black threes included."""
        return dict((*self.natural_ranks, self.black_three))

    @property
    def ranks(self) -> tuple[str, ...]:
        return tuple(rank for rank, _group in self.natural_ranks)

    @cached_property
    def kinds(self) -> tuple[str, ...]:
        """The kinds of canasta, in the order a hand lists them."""
        return tuple(kind.key for kind in self.canastas)

    @cached_property
    def canasta_fields(self) -> tuple[tuple[str, str], ...]:
        """(kind, the hand's field that counts it), in order: worked out once, a replay
        checks every side of every hand."""
        return tuple((kind.key, self.canasta_field(kind.key)) for kind in self.canastas)

    def canasta_field(self, kind: str) -> str:
        """The hand's field that counts canastas of this kind ("natural_canastas" in
        Classic, "canastas.natural" elsewhere): where a refusal about them is named."""
        style = CANASTAS_FIELD if self.canasta_field_per_kind else CANASTAS_BY_KIND_FIELD
        return style.format(kind=kind)

    def canasta(self, key: str) -> CanastaKind:
        for kind in self.canastas:
            if kind.key == key:
                return kind
        raise RuleError(self.canasta_field(key), N_("is not a kind of canasta"))

    def canasta_of(
        self, cards: int, wild: int, rank: str | None = None, jokers: int = 0
    ) -> str | None:
        """The kind of canasta a meld of ``cards`` cards of ``rank``, ``wild`` of them wild
        (``jokers`` of those jokers), is (None: not a canasta). A kind of the meld's own rank
        comes first."""
        if cards < self.meld.canasta_cards:
            return None
        kind = self._kind_for(wild, rank, jokers)
        return None if kind is None else kind.key

    def _kind_for(self, wild: int, rank: str | None, jokers: int) -> CanastaKind | None:
        kinds = self._kinds_by_rank.get(rank, self._kinds_by_rank[None])
        for kind in kinds:
            if kind.fewest_wild <= wild <= kind.most_wild and (
                kind.fewest_jokers <= jokers <= kind.most_jokers
            ):
                return kind
        return None

    def unfinished_of(self, wild: int, rank: str | None, jokers: int = 0) -> str | None:
        """The penalty (a key of unfinished_melds) a meld short of a canasta takes at the end
        of a hand: the one of the kind of its own rank it is on its way to (a meld of sevens,
        of natural aces, of wild cards); None: it costs only its cards."""
        for kind in self._kinds_by_rank.get(rank, ()):
            if not kind.ranks:
                break  # past the rank's own kinds: an ordinary meld
            fits = wild <= kind.most_wild and kind.fewest_jokers <= jokers <= kind.most_jokers
            if kind.unfinished and fits:
                return kind.unfinished
        return None

    @cached_property
    def meld_ranks(self) -> tuple[str, ...]:
        """Every "rank" a side may meld: the natural ranks, and wild cards where they make a
        meld of their own."""
        wild = () if self.meld.wild_never_counts_alone else (WILD_RANK,)
        return (*self.ranks, *wild)

    @cached_property
    def _kinds_by_rank(self) -> dict[str | None, tuple[CanastaKind, ...]]:
        # Worked out once: a replay of melds given rank by rank asks for every meld.
        laid = tuple(kind for kind in self.canastas if kind.made_of == GROUP)
        every_rank = tuple(kind for kind in laid if not kind.ranks)
        by_rank: dict[str | None, tuple[CanastaKind, ...]] = {None: every_rank}
        for rank in self.meld_ranks:
            own = tuple(kind for kind in laid if rank in kind.ranks)
            by_rank[rank] = own + every_rank
        # A meld of wild cards only is its own kind (Bolivia's bolivia), never a group's.
        wild = tuple(kind for kind in self.canastas if kind.made_of == WILD_MELD)
        if wild:
            by_rank[WILD_RANK] = wild
        return by_rank

    def kinds_made_of(self, made_of: str) -> tuple[str, ...]:
        """The kinds of canasta laid as groups, sequences or wild melds (GROUP...)."""
        return tuple(kind.key for kind in self.canastas if kind.made_of == made_of)

    def signs_for(self, canastas: int) -> Signs | None:
        """The signs of a side's parts with this many completed canastas (None: no swing)."""
        if not self.swing:
            return None
        return self.swing[min(canastas, len(self.swing) - 1)]

    def minimum_for_hand(self, number: int) -> int | None:
        """The tournament rule's opening minimum for hand ``number`` (from 1); None when the
        family has no such rule. Hands past the table's last row keep its last value."""
        if not self.minimums_by_hand:
            return None
        if number < 1:
            raise RuleError("hand", N_("hands are numbered from 1"))
        return self.minimums_by_hand[min(number, len(self.minimums_by_hand)) - 1]

    def house_preset(self, name: str) -> dict[str, Any]:
        """The house rules of one of the family's presets, as ``with_house_rules`` takes them."""
        for key, rules in self.house_presets:
            if key == name:
                return dict(rules)
        raise RuleError("rules", N_("is not a house rule this scorer knows"))

    def red_three_sets_for(self, packs: int) -> tuple[tuple[int, int], ...]:
        return dict(self.red_three_sets).get(packs, ())

    def seating_for(self, team_sizes: tuple[int, ...]) -> str | None:
        """The seating a table of sides this size plays in the family (a club night's
        tables: (2, 2) is Classic's "classic", Modern American's "four-player"); None when
        the family seats no such table."""
        for seating in self.seatings:
            if any(layout.team_sizes == team_sizes for layout in seating.layouts):
                return seating.key
        return None

    def seating(self, key: str) -> SeatingRules:
        for seating in self.seatings:
            if seating.key == key:
                return seating
        names = ", ".join(seating.key for seating in self.seatings)
        raise RuleError(
            "profile", N_("unknown variant {key}; choose one of {names}"), key=key, names=names
        )


CLASSIC = RuleFamily(
    key="classic",
    card_values=CardValues(jokers=50, twenty=20, ten=10, five=5),
    pack=PackContents(jokers=2, twenty=8, ten=24, five=18, red_threes=2),
    natural_ranks=(
        *((rank, "five") for rank in ("4", "5", "6", "7")),
        *((rank, "ten") for rank in ("8", "9", "10", "J", "Q", "K")),
        ("A", "twenty"),
    ),
    black_three=("3", "five"),
    red_three="red-3",
    wild_cards=(("jokers", "jokers"), ("twos", "twenty")),
    meld=MeldRules(
        min_cards=3,
        min_naturals=2,
        max_wild=3,
        canasta_cards=7,
        black_threes_going_out=(3, 4),
        cards_a_rank=4,
        black_threes_a_pack=2,
    ),
    canastas=(
        CanastaKind("natural", bonus=500, fewest_wild=0, most_wild=0),
        CanastaKind("mixed", bonus=300, fewest_wild=1, most_wild=3),
    ),
    red_three_value=100,
    red_three_sets=((2, ((4, 800),)), (3, ((5, 1000), (6, 1200)))),
    going_out=100,
    concealed_going_out=200,
    minimums=((None, 15), (0, 50), (1500, 90), (3000, 120)),
    high_target=10000,
    high_minimum_row=(7500, 150),
    seatings=(
        SeatingRules(
            "classic",
            players=4,
            layouts=(Layout((2, 2), 5000),),
            packs=2,
            cards_dealt=11,
            canastas_to_go_out=1,
            target=5000,
        ),
        SeatingRules(
            "two-player",
            players=2,
            layouts=(Layout((1, 1), 5000),),
            packs=2,
            cards_dealt=15,
            canastas_to_go_out=2,
            target=5000,
        ),
        SeatingRules(
            "three-player",
            players=3,
            layouts=(Layout((1, 1, 1), 7500),),
            packs=2,
            cards_dealt=13,
            canastas_to_go_out=1,
            target=7500,
        ),
        SeatingRules(
            "five-player",
            players=5,
            layouts=(Layout((3, 2), 5000),),
            packs=2,
            cards_dealt=11,
            canastas_to_go_out=1,
            target=5000,
        ),
        SeatingRules(
            "six-player",
            players=6,
            layouts=(Layout((2, 2, 2), 7500), Layout((3, 3), 10000)),
            packs=3,
            cards_dealt=13,
            canastas_to_go_out=2,
            target=7500,
            playing_side_size=3,
        ),
    ),
    canasta_field_per_kind=True,
)

# Modern American Canasta (docs/rules.md, "Modern American Canasta"): the pagat values, the
# League's where pagat is silent. Packs as Classic's: two of them, four jokers in all.
MODERN_AMERICAN = RuleFamily(
    key="modern-american",
    players_alone=False,
    card_values=CLASSIC.card_values,
    pack=CLASSIC.pack,
    natural_ranks=CLASSIC.natural_ranks,
    black_three=CLASSIC.black_three,
    red_three=CLASSIC.red_three,
    wild_cards=CLASSIC.wild_cards,
    meld=MeldRules(
        min_cards=3,
        min_naturals=2,
        max_wild=2,
        canasta_cards=7,
        black_threes_going_out=(),  # threes are bonus cards, never melded
        cards_a_rank=4,
        black_threes_a_pack=2,
        wild_never_counts_alone=False,  # seven wild cards make a canasta of their own
        natural_only_ranks=("7",),
        most_cards=7,
        opening_naturals=3,
        pile_top_counts=False,
    ),
    canastas=(
        CanastaKind("natural", bonus=500, fewest_wild=0, most_wild=0),
        CanastaKind("mixed", bonus=300, fewest_wild=1, most_wild=2),
        CanastaKind(
            "sevens", bonus=2500, fewest_wild=0, most_wild=0, ranks=("7",), unfinished="sevens"
        ),
        # Mixed aces are an ordinary mixed canasta: only natural aces make this kind.
        CanastaKind(
            "aces", bonus=2500, fewest_wild=0, most_wild=0, ranks=("A",), unfinished="aces"
        ),
        # Seven wild cards: one to three jokers; all four jokers and three twos; seven twos.
        # Unfinished, a meld of wild cards costs 2 000, 2 500 when it holds all four jokers.
        CanastaKind(
            "wild",
            bonus=2000,
            fewest_wild=7,
            most_wild=7,
            ranks=(WILD_RANK,),
            fewest_jokers=1,
            most_jokers=3,
            unfinished="wild",
        ),
        CanastaKind(
            "wild_four_jokers",
            bonus=2500,
            fewest_wild=7,
            most_wild=7,
            ranks=(WILD_RANK,),
            fewest_jokers=4,
            most_jokers=4,
            unfinished="wild_four_jokers",
        ),
        CanastaKind(
            "deuces",
            bonus=3000,
            fewest_wild=7,
            most_wild=7,
            ranks=(WILD_RANK,),
            most_jokers=0,
            unfinished="wild",
        ),
    ),
    # Threes of a colour: 1 -> 100, 2 -> 300, 3 -> 500, 4 -> 1 000.
    red_three_value=100,
    red_three_sets=((2, ((2, 300), (3, 500), (4, 1000))),),
    going_out=100,
    concealed_going_out=100,  # no concealed bonus
    minimums=((None, 125), (3000, 155), (5000, 180)),
    # No higher row: a threshold above every target a game may have (rules.TARGET_MAX).
    high_target=1_000_000,
    high_minimum_row=(5000, 180),
    seatings=(
        SeatingRules(
            "four-player",
            players=4,
            layouts=(Layout((2, 2), 8500),),
            packs=2,
            cards_dealt=13,
            canastas_to_go_out=2,
            target=8500,
        ),
    ),
    penalties=(
        ("unfinished_sevens", 2500),
        ("unfinished_aces", 2500),
        ("unfinished_wild", 2000),
        ("unfinished_wild_four_jokers", 2500),
        ("holding_sevens", 1500),
        ("holding_aces", 1500),
    ),
    # pagat's four; the League's list is a preset a club may choose (not modelled yet).
    special_hands=(("straight", 3000), ("pairs", 2500), ("wild_pairs", 2000), ("garbage", 2000)),
    black_threes_bonus=True,
    swing=(
        Signs(bonuses=0, cards=-1, threes=-1),
        Signs(bonuses=1, cards=1, threes=0),
        Signs(bonuses=1, cards=1, threes=1),
    ),
    unfinished_melds=(
        ("sevens", 2500),
        ("aces", 2500),
        ("wild", 2000),
        ("wild_four_jokers", 2500),
    ),
    held_cards=(("sevens", 3, 1500), ("aces", 3, 1500)),
    minimums_by_hand=(125, 155, 180),
    house_presets=(
        ("every_wild_canasta_2000", (("wild_four_jokers_canasta", 2000), ("deuces_canasta", 2000))),
    ),
)

# Samba's opening minimums (docs/rules.md, "Samba"): Classic's four rows and 150 from 7 000.
SAMBA_MINIMUMS: tuple[MinimumRow, ...] = (*CLASSIC.minimums, (7000, 150))
# The house rule Bicycle prints: 160 from 7 000.
SAMBA_BICYCLE_MINIMUMS: tuple[MinimumRow, ...] = (*CLASSIC.minimums, (7000, 160))
# Three packs, 162 cards: a pack's contents are Classic's, three times over.
THREE_PACKS = 3

# Sequences of three to seven cards of a suit, 4 to ace; seven make a samba.
SAMBA_SEQUENCES = SequenceRules(
    ranks=tuple(rank for rank, _group in CLASSIC.natural_ranks),
    min_cards=3,
    max_cards=7,
    canasta="samba",
)

# Samba (docs/rules.md, "Samba"): three packs, fifteen cards, groups of at most two wild
# cards and sequences of one suit; a sequence of seven is a samba.
# Classic's cards, values and packs; everything else its own.
SAMBA = replace(
    CLASSIC,
    key="samba",
    players_alone=False,
    meld=MeldRules(
        min_cards=3,
        min_naturals=2,
        max_wild=2,
        canasta_cards=7,
        # The book is silent on their number with three packs: any meld of them the packs
        # allow, never a false refusal (docs/rules.md, "Samba").
        black_threes_going_out=(3, 4, 5, 6),
        cards_a_rank=4,
        black_threes_a_pack=2,
    ),
    canastas=(
        CanastaKind("natural", bonus=500, fewest_wild=0, most_wild=0),
        CanastaKind("mixed", bonus=300, fewest_wild=1, most_wild=2),
        CanastaKind("samba", bonus=1500, fewest_wild=0, most_wild=0, made_of=SEQUENCE),
    ),
    red_three_value=100,
    red_three_sets=((THREE_PACKS, ((6, 1000),)),),
    going_out=200,
    concealed_going_out=200,  # no concealed bonus
    minimums=SAMBA_MINIMUMS,
    # The 7 000 row is in the table itself: no row is added at a higher target.
    high_target=1_000_000,
    high_minimum_row=SAMBA_MINIMUMS[-1],
    seatings=(
        # Its own key, not Modern American's "four-player": a game's variant names its
        # family too (no two families share a seating's key).
        SeatingRules(
            "samba",
            players=4,
            layouts=(Layout((2, 2), 10000),),
            packs=THREE_PACKS,
            cards_dealt=15,
            canastas_to_go_out=2,
            target=10000,
        ),
    ),
    house_presets=(("bicycle_minimums", (("minimums", SAMBA_BICYCLE_MINIMUMS),)),),
    sequences=SAMBA_SEQUENCES,
    red_threes_against=("too_few_canastas", "no_meld"),
    draws=2,
)

# Bolivia (docs/rules.md, "Bolivia"): Samba with melds of wild cards (seven: a bolivia),
# the samba called an escalera, an escalera to go out and black threes costly in hand.
BOLIVIA = replace(
    SAMBA,
    key="bolivia",
    meld=replace(SAMBA.meld, wild_never_counts_alone=False, wild_meld_cards=7),
    canastas=(
        *SAMBA.canastas[:2],  # natural and mixed groups, as Samba's
        CanastaKind("escalera", bonus=1500, fewest_wild=0, most_wild=0, made_of=SEQUENCE),
        CanastaKind("bolivia", bonus=2500, fewest_wild=7, most_wild=7, made_of=WILD_MELD),
    ),
    seatings=(
        replace(SAMBA.seatings[0], key="bolivia", layouts=(Layout((2, 2), 15000),), target=15000),
    ),
    house_presets=(),  # 160 from 7 000 is Bicycle's Samba, not its Bolivia
    sequences=replace(SAMBA_SEQUENCES, canasta="escalera"),
    going_out_needs=("escalera",),
    black_three_in_hand=100,
)

# Every family the core knows, the ones a game may not choose yet included.
ALL_FAMILIES: tuple[RuleFamily, ...] = (CLASSIC, MODERN_AMERICAN, SAMBA, BOLIVIA)
# The families a game may be created in (what get_family, and so the API and the store,
# accept), in the order the new-game form offers them.
FAMILIES: dict[str, RuleFamily] = {family.key: family for family in ALL_FAMILIES}
# The family of every game stored before families existed, and of a game that names none.
DEFAULT_FAMILY = CLASSIC


def family_of_seating(key: str) -> RuleFamily | None:
    """The family a game may be created in that has a seating of this key (each seating's
    key names one family's: "classic" Classic's, "four-player" Modern American's); None
    when none has."""
    for family in FAMILIES.values():
        if any(seating.key == key for seating in family.seatings):
            return family
    return None


def get_family(key: str | None) -> RuleFamily:
    """The family named key (the default when None); RuleError for an unknown name."""
    if key is None:
        return DEFAULT_FAMILY
    try:
        return FAMILIES[key]
    except KeyError:
        names = ", ".join(FAMILIES)
        raise RuleError(
            "family", N_("unknown game {key}; choose one of {names}"), key=key, names=names
        ) from None
