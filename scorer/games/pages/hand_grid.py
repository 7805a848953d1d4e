"""The hand form as the paper sheet: a grid whose columns are the sides and whose rows are the
questions, and the dry run that tells the preview what the server would say before Save."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from flask import jsonify, request
from flask_babel import gettext as _
from wtforms import Field

from scorer import store
from scorer.core.errors import RuleError
from scorer.core.families import CANASTAS_FIELD, RuleFamily
from scorer.core.game import add_hand, correct
from scorer.core.hand_schema import box_name, choice_fields, count_boxes
from scorer.core.hands import Hand, SideScore, score_hand, score_parts
from scorer.core.irregular import CONFIRMABLE, NeedsConfirmation
from scorer.core.rules import RuleProfile
from scorer.games.forms import HandForm, MeldRowForm, SequenceRowForm, SideHandForm, hand_form
from scorer.games.pages.blueprint import bp
from scorer.web.failures import load_game
from scorer.web.i18n import FIELD_LABELS, SCORE_PART_LABELS, error_text, side_field
from scorer.web.pages import leaf_fields
from scorer.web.routes import budget

# The "?" beside a question: the section of the rules of play that answers it.
_HELP = {
    "meld_points": ("scoring", lambda: _("How a hand scores")),
    "red_threes": ("red-threes", lambda: _("How red threes count")),
    "hand_points": ("end-of-hand", lambda: _("How a hand ends")),
}
_CANASTA_HELP = ("canastas", lambda: _("How canastas score"))


@dataclass(frozen=True)
class GridRow:
    """One question of the sheet, asked of every side: its field's name, label, its cells."""

    name: str
    label: str
    cells: tuple[Field, ...]
    help: tuple[str, str] | None = None
    choice: bool = False  # one of the family's choices (a special hand), not a number

    @property
    def kind(self) -> str:
        if self.choice:
            return "choice"
        return "points" if self.name.endswith("_points") else "count"


def grid_questions(profile: RuleProfile) -> list[tuple[str, bool]]:
    """The sheet's questions in a game of this family, (box name, is a choice), from the hand
    schema: the melds, a count per kind of canasta the game scores, the threes and whatever
    else the family asks by count (unfinished melds, players holding), its choices (a
    special hand), what was left in hand."""
    family = profile.family
    scored = {kind for kind, _bonus in profile.canasta_bonuses}
    counts = [
        box.name
        for box in count_boxes(family)
        if box.field.canasta is None or box.field.canasta in scored
    ]
    choices = [field.name for field in choice_fields(family)]
    return [
        ("meld_points", False),
        *((name, False) for name in counts),
        *((name, True) for name in choices),
        ("hand_points", False),
    ]


def hand_grid_rows(profile: RuleProfile, form: HandForm) -> list[GridRow]:
    """The sheet's rows, built from the hand schema and the game's rules (grid_questions)."""
    columns = [entry.form for entry in form.sides.entries]
    if not columns:
        return []
    first_canasta = next(
        (box.name for box in count_boxes(profile.family) if box.field.canasta is not None), None
    )
    rows = []
    for name, choice in grid_questions(profile):
        help_ = _HELP.get(name)
        if help_ is None and name == first_canasta:
            help_ = _CANASTA_HELP
        label = FIELD_LABELS.get(name) or columns[0][name].label.text
        rows.append(
            GridRow(
                name=name,
                label=str(label),
                cells=tuple(column[name] for column in columns),
                help=(help_[0], help_[1]()) if help_ else None,
                choice=choice,
            )
        )
    return rows


_ROW_FIELD = re.compile(r"^sides\[\d+\]\.(melds|sequences)(?:\[(\d+)\]\.(\w+))?")
# The box of a sequence row a refusal of its wild cards names (one box takes them all).
_SEQUENCE_BOXES = {"twos": "jokers"}


def row_box(column: SideHandForm, path: str) -> tuple[Field, bool]:
    """The box of a meld row or a sequence row a refusal at ``path`` names (sides[0].
    sequences[1].last: the second sequence typed, its last card), and whether the refusal
    is about the side's melds or sequences as a whole (then: the first row typed)."""
    match = _ROW_FIELD.match(path)
    kind, index, name = match.groups() if match else ("melds", None, None)
    rows = getattr(column, "meld_rows" if kind == "melds" else "sequence_rows", [])
    entries = column[kind].entries
    fields = MeldRowForm.FIELDS if kind == "melds" else SequenceRowForm.FIELDS
    name = _SEQUENCE_BOXES.get(name or "", name) if kind == "sequences" else name
    if index is None or int(index) >= len(rows) or name not in fields:
        first = entries[rows[0] if rows else 0].form
        return first[fields[1] if kind == "melds" else fields[0]], True
    return entries[rows[int(index)]].form[name], False


def first_refused(form: HandForm) -> Field | None:
    """The first box holding a refusal, in the form's order: it takes the focus."""
    for field in leaf_fields(form):
        if field.errors and field.type not in ("HiddenField", "CSRFTokenField"):
            return field
    return None


def confirmed_kinds() -> frozenset[str]:
    """What the table confirmed with its "Record it anyway" button (only what can be)."""
    return frozenset(request.form.getlist("confirm")) & CONFIRMABLE


# --- the dry run ------------------------------------------------------------------------------


def _dom_id(field_path: str | None, form: HandForm) -> str | None:
    """The box a refusal names (sides[1].meld_points -> sides-1-meld_points; a meld's or a
    sequence's: its row's box)."""
    if field_path in ("went_out", "concealed"):
        return field_path
    located = side_field(field_path)
    if located is None or located[0] >= form.side_count():
        return None
    index, name = located
    column = form.sides.entries[index].form
    if name in ("melds", "sequences"):
        return row_box(column, field_path or "")[0].id
    name = canasta_box(form.family, name, column)
    return f"sides-{index}-{name}" if name in SideHandForm.__dict__ else None


def canasta_box(family: RuleFamily, name: str, column: SideHandForm) -> str:
    """The box of a count of canastas a refusal names in the core's older way
    ("escalera_canastas" for Bolivia's going out) where the family's box is named otherwise
    ("canastas_escalera"); any other name as it is."""
    suffix = CANASTAS_FIELD.format(kind="")
    if name in column._fields or not name.endswith(suffix):
        return name
    kind = name.removesuffix(suffix)
    return box_name(family.canasta_field(kind)) if kind in family.kinds else name


def _parts(score: SideScore, family: RuleFamily) -> list[list[Any]]:
    """A side's score part by part, in the rule book's order, its family's parts included
    (the cards always)."""
    return [
        [key, str(SCORE_PART_LABELS[key]), getattr(score, key)]
        for key in score_parts(family)
        if getattr(score, key) or key == "cards"
    ]


def _decided(profile: RuleProfile, hand: Hand) -> list[dict[str, int | None]]:
    """The boxes the cards decide, side by side (None: what was typed counts)."""
    shown = []
    for side in hand.sides:
        melds = side.melds is not None
        boxes: dict[str, Any] = {
            "by": "melds" if melds else "cards",
            "meld_points": side.melded(profile) if melds or side.meld_cards else None,
            "hand_points": side.left_in_hand(profile) if side.hand_cards else None,
        }
        for box in count_boxes(profile.family):
            if box.field.canasta is not None:
                boxes[box.name] = side.canastas_of(box.field.canasta) if melds else None
        shown.append(boxes)
    return shown


def dry_run(record: store.ReplayedGame, form: HandForm, number: int | None) -> dict[str, Any]:
    """What the save would answer, checked exactly as the save does, nothing stored."""
    if not form.validate_on_submit():
        field = first_refused(form)
        message = field.errors[0] if field else _("Nothing was saved:")
        label = getattr(getattr(field, "label", None), "text", "")
        return {
            "verdict": "refused",
            "message": _("%(label)s: %(message)s", label=label, message=message),
            "field": field.id if field else None,
        }
    try:
        hand = form.hand()
    except RuleError as error:
        return _refusal(error, form)
    except ValueError:
        return {
            "verdict": "refused",
            "message": _(
                "%(label)s: %(message)s",
                label=FIELD_LABELS["went_out"],
                message=_("choose a side, or nobody"),
            ),
            "field": "went_out",
        }
    profile = record.table.profile
    answer: dict[str, Any] = {"verdict": "ok", "decided": _decided(profile, hand)}
    try:
        if number is None or number > len(record.state.results):
            state = add_hand(record.state, hand, confirmed=confirmed_kinds())
            scores = state.results[-1].scores
        else:
            state = correct(record.state, number, hand, confirmed=confirmed_kinds())
            scores = state.results[number - 1].scores
    except NeedsConfirmation as error:
        answer.update(_refusal(error, form), verdict="ask")
        scores = score_hand(profile, hand)
    except RuleError as error:
        answer.update(_refusal(error, form))
        return answer
    answer["sides"] = [
        {
            "total": score.total,
            "parts": _parts(score, profile.family),
            "empty_hand": _holds_cards(hand, i, profile),
        }
        for i, score in enumerate(scores)
    ]
    return answer


def _holds_cards(hand: Hand, index: int, profile: RuleProfile) -> bool:
    """The rule book's hint (never a refusal): a side that did not go out still holds cards,
    so nothing left in hand is worth a second look."""
    return (
        hand.went_out is not None
        and hand.went_out != index
        and not (hand.sides[index].left_in_hand(profile))
    )


def _refusal(error: RuleError, form: HandForm) -> dict[str, Any]:
    located = side_field(error.field)
    label = FIELD_LABELS.get(located[1], "") if located else FIELD_LABELS.get(error.field or "")
    message = error_text(error)
    return {
        "verdict": "refused",
        "message": _("%(label)s: %(message)s", label=label, message=message) if label else message,
        "field": _dom_id(error.field, form),
    }


@bp.route("/games/<game_id>/hands/check", methods=["POST"])
@budget("preview_hand")  # the hand form's dry run: a read with a budget of its own
def check_hand(game_id: str) -> Any:
    """The preview's dry run: the hand form's fields as Save posts them; answers the verdict
    (ok, refused or ask, the message and its box), each side's figures, and the boxes the
    cards decide (even of a hand refused as it stands); stores nothing."""
    record = load_game(game_id)
    value = request.args.get("number", "")
    number = int(value) if value.isdigit() and 0 < int(value) <= 10_000 else None
    profile = record.table.profile
    form = hand_form(len(record.table.sides), profile.family, profile.special_hands)
    form.open_counters = set()
    return jsonify(dry_run(record, form, number))
