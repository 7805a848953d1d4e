"""One hand schema: the fields a side's hand has in a family, read and written in one place.

The API's body, the hand form, the stored rows, the export and the CSV all name a side's call
by these fields: its meld points, one count per kind of canasta the family has
(``natural_canastas``, ``mixed_canastas`` in Classic; ``canastas.natural``... inside one
object ``"canastas"`` in a family that names them so: RuleFamily.canasta_field), its red
threes, its points left in hand, its cards counted by value group, its adjustment and note,
and its melds rank by rank; and, where the family has them, more (Modern American's threes
and penalties, the sequences of Samba and Bolivia, Bolivia's black threes left in hand).
Each reader checks the types its medium brings (JSON, a form's boxes), then hands the values
to :func:`side_hand`; each writer takes :func:`side_values`. Pure: no Flask, no SQL.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any

from scorer.core.families import DEFAULT_FAMILY, VALUE_GROUPS, RuleFamily
from scorer.core.hands import CardCounts, Hand, SideHand
from scorer.core.limits import check_hand_bytes
from scorer.core.meld import PlannedMeld, PlannedSequence

# What a field holds: points (a multiple of 5), a count, cards counted by value group, a
# signed adjustment, a short note, or melds rank by rank.
POINTS = "points"
COUNT = "count"
CARDS = "cards"
ADJUSTMENT = "adjustment"
NOTE = "note"
MELDS = "melds"
# Counts by a kind the family names ({"sevens": 1}), and one of the family's named choices.
COUNTS_BY_KIND = "counts_by_kind"
CHOICE = "choice"
# Sequences of one suit, each by its suit, first and last rank (Samba, Bolivia).
SEQUENCES = "sequences"
# Of a meld given rank by rank.
PLANNED_MELD_FIELDS: tuple[str, ...] = ("rank", "naturals", "jokers", "twos")
# Of a sequence: its suit, first and last rank (wild cards are asked only to refuse them).
PLANNED_SEQUENCE_FIELDS: tuple[str, ...] = ("suit", "first", "last")


@dataclass(frozen=True)
class SideField:
    """One field of a side's hand."""

    name: str
    kind: str
    canasta: str | None = None  # the kind of canasta it counts, for a canasta field
    decided_by_melds: bool = False  # melds given rank by rank decide it: both are refused
    # The kinds it counts by (COUNTS_BY_KIND: "sevens", "aces"...), or its choices (CHOICE).
    kinds: tuple[str, ...] = ()


@cache
def side_fields(family: RuleFamily = DEFAULT_FAMILY) -> tuple[SideField, ...]:
    """Every field of a side's hand in this family, in the order a hand lists them."""
    return (
        SideField("meld_points", POINTS, decided_by_melds=True),
        *(
            SideField(
                family.canasta_field(kind.key), COUNT, canasta=kind.key, decided_by_melds=True
            )
            for kind in family.canastas
        ),
        SideField("red_threes", COUNT),
        *_family_fields(family),
        SideField("hand_points", POINTS),
        SideField("meld_cards", CARDS, decided_by_melds=True),
        SideField("hand_cards", CARDS),
        SideField("adjustment", ADJUSTMENT),
        SideField("adjustment_note", NOTE),
        SideField("melds", MELDS),
        *_sequence_fields(family),
    )


def _sequence_fields(family: RuleFamily) -> tuple[SideField, ...]:
    """Sequences, given meld by meld beside the groups, where the family has them."""
    return () if family.sequences is None else (SideField("sequences", SEQUENCES),)


def _family_fields(family: RuleFamily) -> tuple[SideField, ...]:
    """The fields only some families ask (none in Classic): black threes laid down,
    unfinished melds by kind, players holding by rank, a special hand."""
    fields = []
    if family.black_threes_bonus:
        fields.append(SideField("black_threes", COUNT))
    if family.unfinished_melds:
        # Melds given rank by rank say which are unfinished, as they say the canastas.
        kinds = tuple(kind for kind, _points in family.unfinished_melds)
        fields.append(SideField("unfinished", COUNTS_BY_KIND, kinds=kinds, decided_by_melds=True))
    if family.held_cards:
        ranks = tuple(rank for rank, _least, _points in family.held_cards)
        fields.append(SideField("players_holding", COUNTS_BY_KIND, kinds=ranks))
    if family.special_hands:
        # The book's; a game's own list (a club's) is its rules': the engine checks the key.
        choices = tuple(hand.key for hand in family.special_hands)
        fields.append(SideField("special_hand", CHOICE, kinds=choices))
    if family.black_three_in_hand:
        fields.append(SideField("black_threes_in_hand", COUNT))
    return tuple(fields)


@cache
def field_names(family: RuleFamily = DEFAULT_FAMILY) -> frozenset[str]:
    """The names a side's hand has at its top level ("canastas" holds "canastas.sevens")."""
    return frozenset(top_name(field.name) for field in side_fields(family))


def top_name(name: str) -> str:
    """The top-level name of a field ("canastas" of "canastas.sevens")."""
    return name.split(".", 1)[0]


def value_of(values: Mapping[str, Any], name: str) -> Any:
    """The value of a field, a dotted name read inside its object ("canastas.sevens") unless a
    reader hands it flat; None when not given (or when what holds it is no object: its
    reader refuses that)."""
    if name in values:
        return values[name]
    found: Any = values
    for part in name.split("."):
        if not isinstance(found, Mapping):
            return None
        found = found.get(part)
    return found


def _put(data: dict[str, Any], name: str, value: Any) -> None:
    outer, dot, inner = name.partition(".")
    if dot:
        data.setdefault(outer, {})[inner] = value
    else:
        data[name] = value


@cache
def decided_by_melds(family: RuleFamily = DEFAULT_FAMILY) -> tuple[str, ...]:
    """The fields melds given rank by rank decide (meld points, canastas, counted melds)."""
    return tuple(field.name for field in side_fields(family) if field.decided_by_melds)


@cache
def canasta_fields(family: RuleFamily = DEFAULT_FAMILY) -> tuple[SideField, ...]:
    return tuple(field for field in side_fields(family) if field.canasta is not None)


# --- a side's boxes in a form: one per count, named after its field -------------------------


@dataclass(frozen=True)
class CountBox:
    """One count a hand form asks of a side: a count field ("red_threes", a canasta kind's
    "canastas.sevens") or one kind of a field counted by kind ("unfinished.aces")."""

    path: str
    field: SideField
    kind: str | None = None  # its kind of canasta, or its kind within the field

    @property
    def name(self) -> str:
        """The box's name in a form ("canastas_sevens"): a form's names hold no dot."""
        return box_name(self.path)


def box_name(path: str) -> str:
    return path.replace(".", "_")


@cache
def count_boxes(family: RuleFamily = DEFAULT_FAMILY) -> tuple[CountBox, ...]:
    """The counts a side's column asks in this family, in the order a hand lists them."""
    boxes: list[CountBox] = []
    for field in side_fields(family):
        if field.kind == COUNT:
            boxes.append(CountBox(field.name, field, field.canasta))
        elif field.kind == COUNTS_BY_KIND:
            boxes.extend(CountBox(f"{field.name}.{kind}", field, kind) for kind in field.kinds)
    return tuple(boxes)


def choice_fields(family: RuleFamily = DEFAULT_FAMILY) -> tuple[SideField, ...]:
    """The fields a side answers by one of the family's choices (a special hand)."""
    return tuple(field for field in side_fields(family) if field.kind == CHOICE)


def values_from_boxes(family: RuleFamily, box: Callable[[str], Any]) -> dict[str, Any]:
    """The counts and choices of a side's column as the schema's values, each box read by
    its name (``box("canastas_sevens")``; None or "" as nothing)."""
    values: dict[str, Any] = {}
    for counted in count_boxes(family):
        count = box(counted.name) or 0
        if counted.field.kind == COUNTS_BY_KIND:
            values.setdefault(counted.field.name, {})[counted.kind] = count
        else:
            values[counted.path] = count
    for field in choice_fields(family):
        values[field.name] = box(field.name) or None
    return values


def boxes_of(side: SideHand, family: RuleFamily = DEFAULT_FAMILY) -> dict[str, Any]:
    """A stored side's counts and choices by box name: what a form shows to correct it."""
    shown: dict[str, Any] = {}
    for counted in count_boxes(family):
        if counted.field.canasta is not None:
            shown[counted.name] = side.canastas_of(counted.field.canasta)
        elif counted.field.kind == COUNTS_BY_KIND:
            shown[counted.name] = dict(getattr(side, counted.field.name)).get(counted.kind, 0)
        else:
            shown[counted.name] = getattr(side, counted.field.name)
    for field in choice_fields(family):
        shown[field.name] = getattr(side, field.name) or ""
    return shown


def _counts(value: Any) -> CardCounts | None:
    if value is None or isinstance(value, CardCounts):
        return value
    return CardCounts(**{group: value.get(group) or 0 for group in VALUE_GROUPS})


def _melds(value: Any) -> tuple[PlannedMeld, ...] | None:
    if value is None:
        return None
    return tuple(meld if isinstance(meld, PlannedMeld) else PlannedMeld(**meld) for meld in value)


def _sequences(value: Any) -> tuple[PlannedSequence, ...]:
    if value is None:
        return ()
    return tuple(
        sequence if isinstance(sequence, PlannedSequence) else PlannedSequence(**sequence)
        for sequence in value
    )


def side_hand(values: Mapping[str, Any], family: RuleFamily = DEFAULT_FAMILY) -> SideHand:
    """A side's hand from its fields' values, already of their medium's checked types (a
    missing or None field: nothing called; counts as dicts or CardCounts, melds as dicts or
    PlannedMelds). The rules engine judges the rest."""

    def value(name: str, empty: Any = 0) -> Any:
        found = value_of(values, name)
        return empty if found is None else found

    return SideHand(
        meld_points=value("meld_points"),
        canastas={field.canasta: value(field.name) for field in canasta_fields(family)},
        red_threes=value("red_threes"),
        hand_points=value("hand_points"),
        meld_cards=_counts(values.get("meld_cards")),
        hand_cards=_counts(values.get("hand_cards")),
        adjustment=value("adjustment"),
        adjustment_note=value("adjustment_note", ""),
        melds=_melds(values.get("melds")),
        black_threes=value("black_threes"),
        unfinished=value("unfinished", ()),
        players_holding=value("players_holding", ()),
        special_hand=values.get("special_hand"),
        sequences=_sequences(values.get("sequences")),
        black_threes_in_hand=value("black_threes_in_hand"),
        family=family,
    )


def side_values(side: SideHand, family: RuleFamily = DEFAULT_FAMILY) -> dict[str, Any]:
    """A side's inputs as stored, exported and shown by the API.

    Melds given rank by rank replace the meld points and canasta counts (they decide them),
    so a hand read back can be sent back as it is. Each kind of canasta of the family is one
    field, 0 included. An adjustment is written only when made; counted cards only when
    counted.
    """
    data: dict[str, Any]
    if side.melds is not None:
        data = {"melds": [dict(vars(meld)) for meld in side.melds]}
        if side.sequences:
            data["sequences"] = [_sequence_values(sequence) for sequence in side.sequences]
    else:
        data = {"meld_points": side.meld_points}
        for field in canasta_fields(family):
            _put(data, field.name, side.canastas_of(field.canasta))
    data["red_threes"] = side.red_threes
    data["hand_points"] = side.hand_points
    # What only some families ask, written only when called: Classic's shape never changes.
    if side.black_threes:
        data["black_threes"] = side.black_threes
    # Melds given rank by rank decide the unfinished ones: written only without them.
    if side.unfinished and side.melds is None:
        data["unfinished"] = dict(side.unfinished)
    if side.players_holding:
        data["players_holding"] = dict(side.players_holding)
    if side.special_hand is not None:
        data["special_hand"] = side.special_hand
    if side.black_threes_in_hand:
        data["black_threes_in_hand"] = side.black_threes_in_hand
    if side.adjustment or side.adjustment_note:
        data["adjustment"] = side.adjustment
        data["adjustment_note"] = side.adjustment_note
    # vars(), not dataclasses.asdict: the counts are flat, and a long game has thousands.
    if side.meld_cards is not None:
        data["meld_cards"] = dict(vars(side.meld_cards))
    if side.hand_cards is not None:
        data["hand_cards"] = dict(vars(side.hand_cards))
    return data


def sides_json(sides: Sequence[SideHand], family: RuleFamily = DEFAULT_FAMILY) -> str:
    """A hand's sides as the store keeps them: each side's values, as JSON (non-ASCII
    written \\uXXXX: never shorter than the exports' compact UTF-8)."""
    return json.dumps([side_values(side, family) for side in sides])


def check_hand_size(hand: Hand, family: RuleFamily = DEFAULT_FAMILY, field: str = "sides") -> None:
    """A new hand's inputs within HAND_BYTES_MAX (scorer.core.limits), as the store keeps
    them: what bounds a game's export, and so its import."""
    check_hand_bytes(len(sides_json(hand.sides, family)), field)


def _sequence_values(sequence: PlannedSequence) -> dict[str, Any]:
    """A sequence as stored: its suit, first and last rank (wild cards only if typed)."""
    data = {name: getattr(sequence, name) for name in PLANNED_SEQUENCE_FIELDS}
    data.update(
        {name: getattr(sequence, name) for name in ("jokers", "twos") if getattr(sequence, name)}
    )
    return data
