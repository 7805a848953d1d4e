"""The games' forms: a hand (a column per side, meld by meld) and a new game.

The toolkit (NumberField, PageForm) is scorer.web.forms'; the house-rules editor and the
seats the new-game form shares with a club's are scorer.web.game_setup's.
"""

from __future__ import annotations

import secrets
from typing import Any

from flask_babel import lazy_gettext as _l
from wtforms import BooleanField, FieldList, Form, FormField, HiddenField, SelectField, StringField

from scorer.core.errors import RuleError
from scorer.core.families import DEFAULT_FAMILY, FAMILIES, WILD_RANK, RuleFamily, SpecialHand
from scorer.core.hand_schema import boxes_of, count_boxes, side_hand, values_from_boxes
from scorer.core.hands import CardCounts, Hand, SideHand
from scorer.core.meld import (
    BLACK_THREE,
    MAX_SIDE_MELDS,
    RANKS,
    PlannedMeld,
    PlannedSequence,
    planned_meld,
)
from scorer.core.rules import DEFAULT_PROFILE, VALUE_GROUPS, VARIANTS
from scorer.web.display import (
    CARD_GROUP_LABELS,
    rank_letter,
    special_hand_label,
    suit_letter,
    typed_rank,
    typed_suit,
)
from scorer.web.forms import NumberField, PageForm, is_index, name_field, stripped
from scorer.web.game_setup import (
    FORM_PLAYERS,
    FORM_SIDES,
    HouseRulesFields,
    house_rules_data,
    profile_choices,
    target_choices,
)
from scorer.web.i18n import FIELD_LABELS, number

NOBODY = "none"
# Empty meld rows a side's "meld by meld" entry shows at first ("Add a meld" adds more):
# three, a usual side's melds, so no tap goes to adding rows.
MELD_ROWS = 3
# The ranks a meld row reads: 4 to ace, black threes (red threes are never melded) and wild
# cards only; the game's family then refuses a rank it has not (Classic: a meld of wild cards).
MELD_RANKS = (*RANKS, BLACK_THREE, WILD_RANK)
# Empty sequence rows a side's meld by meld shows at first in Samba and Bolivia ("Add a
# sequence" adds more), and the most a form takes: as many as a side's melds.
SEQUENCE_ROWS = 2
MAX_SEQUENCE_ROWS = MAX_SIDE_MELDS
# Which way an adjustment goes, when its box holds no sign.
TAKE_AWAY, ADD = "-", "+"


# --- a hand ----------------------------------------------------------------------------------


class RankField(StringField):
    """A meld's rank typed in one key: the reader's letter (K, or R in French), a digit, or the
    rank's name; ``data`` is the core's rank ("K", "10", "3"), None when nothing was typed.
    What cannot be read is kept as typed, for the core to refuse by the row's name."""

    def process_formdata(self, valuelist: list[Any]) -> None:
        text = str(valuelist[0]).strip() if valuelist else ""
        self.data = (typed_rank(text, MELD_RANKS) or text) if text else None

    def _value(self) -> str:
        if self.raw_data:
            return str(self.raw_data[0])
        return rank_letter(self.data) if self.data else ""


class MeldRowForm(Form):
    """One meld of a side, rank by rank: as the opening-meld checker asks it."""

    rank = RankField(_l("Rank"))
    naturals = NumberField(_l("Natural cards"))
    jokers = NumberField(CARD_GROUP_LABELS["jokers"])
    twos = NumberField(_l("Twos"))
    FIELDS = ("rank", "naturals", "jokers", "twos")

    @property
    def empty(self) -> bool:
        """Nothing typed in the row: a rank typed alone is a meld to check, not nothing."""
        return not any((self[name].data or 0) for name in self.FIELDS)


class SuitField(StringField):
    """A sequence's suit typed in one key: the reader's letter (H, or C in French), its sign
    or its name; ``data`` is the core's suit ("hearts"), None when nothing was typed. What
    cannot be read is kept as typed, for the core to refuse by the row's name."""

    def process_formdata(self, valuelist: list[Any]) -> None:
        text = str(valuelist[0]).strip() if valuelist else ""
        self.data = (typed_suit(text) or text) if text else None

    def _value(self) -> str:
        if self.raw_data:
            return str(self.raw_data[0])
        return suit_letter(self.data) if self.data else ""


class SequenceRowForm(Form):
    """One sequence of a side (Samba, Bolivia): its suit, its first and last card; the
    scorer derives its cards. A sequence holds no wild card: the box is there so that one
    typed is refused where it was typed."""

    suit = SuitField(_l("Suit"))
    first = RankField(_l("From"))
    last = RankField(_l("To"))
    jokers = NumberField(_l("Wild cards"))
    FIELDS = ("suit", "first", "last", "jokers")

    @property
    def empty(self) -> bool:
        return not any((self[name].data or 0) for name in self.FIELDS)


class SideHandForm(Form):
    """One side's call at the end of a hand (a column of the hand form)."""

    meld_points = NumberField(FIELD_LABELS["meld_points"])
    natural_canastas = NumberField(FIELD_LABELS["natural_canastas"])
    mixed_canastas = NumberField(FIELD_LABELS["mixed_canastas"])
    red_threes = NumberField(FIELD_LABELS["red_threes"])
    hand_points = NumberField(FIELD_LABELS["hand_points"])
    meld_jokers = NumberField(CARD_GROUP_LABELS["jokers"])
    meld_twenty = NumberField(CARD_GROUP_LABELS["twenty"])
    meld_ten = NumberField(CARD_GROUP_LABELS["ten"])
    meld_five = NumberField(CARD_GROUP_LABELS["five"])
    hand_jokers = NumberField(CARD_GROUP_LABELS["jokers"])
    hand_twenty = NumberField(CARD_GROUP_LABELS["twenty"])
    hand_ten = NumberField(CARD_GROUP_LABELS["ten"])
    hand_five = NumberField(CARD_GROUP_LABELS["five"])
    melds = FieldList(FormField(MeldRowForm), min_entries=MELD_ROWS, max_entries=MAX_SIDE_MELDS)
    # Shown only in a family with sequences (Samba, Bolivia); read in every one, so that a
    # sequence sent to a game of another family is refused by its rules, not dropped.
    sequences = FieldList(
        FormField(SequenceRowForm), min_entries=SEQUENCE_ROWS, max_entries=MAX_SEQUENCE_ROWS
    )
    # A penalty is the usual case, and a phone's number pad has no minus sign: the chips say
    # which way the points go, unless the box itself holds a sign ("-100", "+50").
    adjustment_sign = StringField(_l("Points"), default=TAKE_AWAY)
    adjustment = NumberField(_l("Points added or taken away"))
    adjustment_note = StringField(_l("Why"), filters=[stripped])
    # A special hand instead of everything else (Modern American): the engine checks the
    # choice, so that a refusal names the box as the API's does.
    special_hand = SelectField(FIELD_LABELS["special_hand"], validate_choice=False, default="")

    def adjustment_points(self) -> int:
        """The adjustment as signed points (0 when nothing was typed)."""
        amount = self.adjustment.data
        if not amount:
            return 0
        typed = str(self.adjustment.raw_data[0] if self.adjustment.raw_data else "").strip()
        if typed[:1] in ("-", "+", "\u2212"):
            return amount
        return -abs(amount) if self.adjustment_sign.data != ADD else abs(amount)

    def planned_melds(self, family: RuleFamily) -> tuple[PlannedMeld, ...] | None:
        """The melds typed rank by rank in the game's family, empty rows left out; None when
        none was typed.

        ``meld_rows`` keeps each meld's row, so a refusal of meld j finds its row.
        """
        self.meld_rows = [i for i, entry in enumerate(self.melds.entries) if not entry.form.empty]
        if not self.meld_rows:
            return None
        return tuple(
            planned_meld(
                j,
                self.melds.entries[row].form.rank.data,
                self.melds.entries[row].form.naturals.data or 0,
                self.melds.entries[row].form.jokers.data or 0,
                self.melds.entries[row].form.twos.data or 0,
                family,
            )
            for j, row in enumerate(self.meld_rows)
        )

    def planned_sequences(self) -> tuple[PlannedSequence, ...]:
        """The sequences typed, empty rows left out; ``sequence_rows`` keeps each one's row,
        so a refusal of sequence j finds its row."""
        self.sequence_rows = [
            i for i, entry in enumerate(self.sequences.entries) if not entry.form.empty
        ]
        rows = [self.sequences.entries[row].form for row in self.sequence_rows]
        return tuple(
            PlannedSequence(
                suit=row.suit.data or "",
                first=row.first.data or "",
                last=row.last.data or "",
                jokers=row.jokers.data or 0,
            )
            for row in rows
        )

    def counts(self, part: str) -> CardCounts | None:
        """The card counter of `part` ("meld" or "hand"); None when nothing was counted."""
        values = {group: self[f"{part}_{group}"].data for group in VALUE_GROUPS}
        if all(value is None for value in values.values()):
            return None
        return CardCounts(**{group: value or 0 for group, value in values.items()})

    def side_hand(self, family: RuleFamily = DEFAULT_FAMILY) -> SideHand:
        """The side's call, by the hand schema (a box per count of the family: each kind of
        canasta, the threes, unfinished melds...; its choices); RuleError (naming
        ``melds[j]``) for a meld row that cannot be read."""
        meld_cards = self.counts("meld")
        hand_cards = self.counts("hand")
        values = {
            # Counted cards decide the points (the API does the same with meld_cards).
            "meld_points": 0 if meld_cards else self.meld_points.data or 0,
            **values_from_boxes(family, lambda name: self[name].data),
            "hand_points": 0 if hand_cards else self.hand_points.data or 0,
            "meld_cards": meld_cards,
            "hand_cards": hand_cards,
            "adjustment": self.adjustment_points(),
            "adjustment_note": self.adjustment_note.data or "",
            # Melds typed rank by rank decide the meld points and canastas (as in the API).
            "melds": self.planned_melds(family),
            # And so do its sequences (alone, they are its melds: no group).
            "sequences": self.planned_sequences(),
        }
        return side_hand(values, family)


# A box for each count the hand schema of every family a game may be of asks
# ("canastas_sevens", "black_threes", "unfinished_aces"...) beside Classic's own: a form of
# a family shows and reads its own.
for _family in FAMILIES.values():
    for _box in count_boxes(_family):
        if not hasattr(SideHandForm, _box.name):
            setattr(SideHandForm, _box.name, NumberField(FIELD_LABELS[_box.name]))


class HandForm(PageForm):
    """A whole hand: a column per side, who went out, concealed, and the two guards."""

    family: RuleFamily = DEFAULT_FAMILY  # the game's (hand_form sets it)

    sides = FieldList(FormField(SideHandForm), min_entries=0, max_entries=6)
    went_out = StringField(_l("Who went out"))
    concealed = BooleanField(_l("Went out concealed"))
    # A fresh one-time token per rendering: a double tap or a resubmit records the hand once.
    token = HiddenField()
    # The game's version when the form was shown: a stale save is refused, never merged.
    version = HiddenField()

    def side_count(self) -> int:
        return len(self.sides.entries)

    def went_out_index(self) -> int | None:
        """The side that went out; None for nobody. ValueError when not chosen."""
        value = (self.went_out.data or "").strip()
        if value == NOBODY:
            return None
        if is_index(value) and int(value) < self.side_count():
            return int(value)
        raise ValueError(value)

    def hand(self) -> Hand:
        """The hand typed; ValueError when nobody was chosen as going out, RuleError (a
        ValueError too) naming ``sides[i].melds[j]...`` for a meld row that cannot be read."""
        family = self.family
        return Hand(
            sides=tuple(
                _side_hand(i, entry.form, family) for i, entry in enumerate(self.sides.entries)
            ),
            went_out=self.went_out_index(),
            concealed=bool(self.concealed.data),
        )

    def version_number(self) -> int | None:
        value = (self.version.data or "").strip()
        return int(value) if is_index(value) else None

    def token_value(self) -> str | None:
        value = (self.token.data or "").strip()
        return value if value and len(value) <= 64 and value.isascii() else None


def _side_hand(index: int, form: SideHandForm, family: RuleFamily) -> SideHand:
    try:
        return form.side_hand(family)
    except RuleError as error:
        raise RuleError(f"sides[{index}].{error.field}", error.template, **error.params) from error


def hand_form(
    sides: int,
    family: RuleFamily = DEFAULT_FAMILY,
    special_hands: tuple[SpecialHand, ...] | None = None,
    **kwargs: Any,
) -> HandForm:
    """A hand form with exactly one column per side of the game, asking what its family asks
    (the boxes of the family's hand schema, its special hands to choose from)."""

    class GameHandForm(HandForm):
        pass

    GameHandForm.family = family
    GameHandForm.sides = FieldList(FormField(SideHandForm), min_entries=sides, max_entries=sides)
    form = GameHandForm(**kwargs)
    choices = special_hand_choices(family.special_hands if special_hands is None else special_hands)
    for entry in form.sides.entries:
        entry.form.special_hand.choices = choices
    return form


def special_hand_choices(hands: tuple[SpecialHand, ...]) -> list[tuple[str, Any]]:
    """A side's special hand, or none (the usual hand): the game's (its club's list, or the
    family's), each by its name and value."""
    return [
        ("", _l("None")),
        *((hand.key, f"{special_hand_label(hand)} ({number(hand.value)})") for hand in hands),
    ]


def new_token() -> str:
    return secrets.token_urlsafe(16)


def hand_data(hand: Hand, family: RuleFamily = DEFAULT_FAMILY) -> dict[str, Any]:
    """The inputs of a stored hand, as the form shows them for a correction."""
    sides = []
    for side in hand.sides:
        data: dict[str, Any] = boxes_of(side, family)
        if side.melds is not None:
            data["melds"] = [dict(vars(meld)) for meld in side.melds]
            data["melds"] += [{}] * max(0, MELD_ROWS - len(side.melds))
        if side.sequences:
            data["sequences"] = [
                {"suit": seq.suit, "first": seq.first, "last": seq.last} for seq in side.sequences
            ]
            data["sequences"] += [{}] * max(0, SEQUENCE_ROWS - len(side.sequences))
        if side.adjustment or side.adjustment_note:
            data["adjustment"] = abs(side.adjustment) or None
            data["adjustment_sign"] = ADD if side.adjustment > 0 else TAKE_AWAY
            data["adjustment_note"] = side.adjustment_note
        for part, points, counts in (
            ("meld", side.meld_points, side.meld_cards),
            ("hand", side.hand_points, side.hand_cards),
        ):
            if counts is None:
                data[f"{part}_points"] = points or None
            else:
                data.update({f"{part}_{group}": counts.of(group) for group in VALUE_GROUPS})
        sides.append(data)
    return {
        "sides": sides,
        "went_out": NOBODY if hand.went_out is None else str(hand.went_out),
        "concealed": hand.concealed,
    }


# --- a new game ------------------------------------------------------------------------------


class SideNamesForm(Form):
    name = name_field(_l("Team name"))
    players = FieldList(
        name_field(_l("Player")), min_entries=FORM_PLAYERS, max_entries=FORM_PLAYERS
    )


class NewGameForm(HouseRulesFields, PageForm):
    name = name_field(_l("Name of the game"))
    profile = SelectField(_l("Variant"), validate_choice=False, default=DEFAULT_PROFILE)
    target = SelectField(_l("Play to"), validate_choice=False, default="")
    # A game of N hands instead of a target (a tournament round): empty plays to the target.
    fixed_hands = NumberField(_l("Or play a set number of hands"))
    solo = BooleanField(_l("Every player for themselves"))
    # How the table sits (a key of scorer.core.seatings: "2-2", "3-2", "alone"...); the boxes
    # shown follow it, and only those are read.
    seating = SelectField(_l("Seating"), validate_choice=False, default="")
    sides = FieldList(FormField(SideNamesForm), min_entries=FORM_SIDES, max_entries=FORM_SIDES)
    first_dealer = name_field(_l("Deals first"))

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.profile.choices = profile_choices(VARIANTS)  # every family's seatings
        self.target.choices = target_choices()
        self.set_rule_choices()


def new_game_data(profile_key: str = DEFAULT_PROFILE) -> dict[str, Any]:
    """The new-game form's starting values: two teams of two, the variant's own rules."""
    data = house_rules_data(profile_key)
    data["profile"] = data["rules_for"]
    data["target"] = ""
    return data
