"""The hand form as the paper sheet: a grid whose columns are the sides and whose rows are the
questions, and the dry run that tells the preview what the server would say before Save."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from flask import jsonify, request
from flask_babel import gettext as _
from wtforms import Field

from scorer import store
from scorer.core.errors import RuleError
from scorer.core.families import RuleFamily
from scorer.core.game import add_hand, correct
from scorer.core.hands import Hand, SideScore, score_hand, score_parts
from scorer.core.irregular import CONFIRMABLE, NeedsConfirmation
from scorer.core.rules import RuleProfile
from scorer.web.failures import load_game
from scorer.web.forms import HandForm, SideHandForm, hand_form
from scorer.web.i18n import FIELD_LABELS, SCORE_PART_LABELS, error_text, side_field
from scorer.web.pages import bp, leaf_fields
from scorer.web.routes import budget

CANASTAS = "_canastas"
# The "?" beside a question: the section of the rules of play that answers it.
_HELP = {
    "meld_points": ("scoring", lambda: _("How a hand scores")),
    "red_threes": ("red-threes", lambda: _("How red threes count")),
    "hand_points": ("end-of-hand", lambda: _("How a hand ends")),
}


@dataclass(frozen=True)
class GridRow:
    """One question of the sheet, asked of every side: its field's name, label, its cells."""

    name: str
    label: str
    cells: tuple[Field, ...]
    help: tuple[str, str] | None = None

    @property
    def kind(self) -> str:
        return "points" if self.name.endswith("_points") else "count"


def canasta_kinds(profile: RuleProfile, column: SideHandForm) -> tuple[str, ...]:
    """The kinds of canasta the game's family scores (scorer.core.families), in the side's
    field order: a field ``<kind>_canastas`` for each kind the profile gives a bonus."""
    scored = {kind for kind, _bonus in profile.canasta_bonuses}
    return tuple(
        field.short_name.removesuffix(CANASTAS)
        for field in column
        if field.short_name.endswith(CANASTAS) and field.short_name.removesuffix(CANASTAS) in scored
    )


def hand_grid_rows(profile: RuleProfile, form: HandForm) -> list[GridRow]:
    """The sheet's rows, built from the hand's fields and the game's rules: the melds, a row
    for each kind of canasta, red threes, what was left in hand."""
    columns = [entry.form for entry in form.sides.entries]
    kinds = canasta_kinds(profile, columns[0]) if columns else ()
    names = ["meld_points", *(kind + CANASTAS for kind in kinds), "red_threes", "hand_points"]
    rows = []
    for name in names:
        help_ = _HELP.get(name)
        label = FIELD_LABELS.get(name) or columns[0][name].label.text
        rows.append(
            GridRow(
                name=name,
                label=str(label),
                cells=tuple(column[name] for column in columns),
                help=(help_[0], help_[1]()) if help_ else _canasta_help(name, kinds),
            )
        )
    return rows


def _canasta_help(name: str, kinds: tuple[str, ...]) -> tuple[str, str] | None:
    if kinds and name == kinds[0] + CANASTAS:
        return ("canastas", _("How canastas score"))
    return None


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


def _dom_id(field_path: str | None, sides: int) -> str | None:
    """The box a refusal names (sides[1].meld_points -> sides-1-meld_points)."""
    if field_path in ("went_out", "concealed"):
        return field_path
    located = side_field(field_path)
    if located is None or located[0] >= sides:
        return None
    index, name = located
    return f"sides-{index}-{name}" if name in SideHandForm.__dict__ else None


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
        for name in SideHandForm.__dict__:
            if name.endswith(CANASTAS):
                boxes[name] = getattr(side, name, 0) if melds else None
        shown.append(boxes)
    return shown


def dry_run(record: store.ReplayedGame, form: HandForm, number: int | None) -> dict[str, Any]:
    """What the save would answer, checked exactly as the save does, nothing stored."""
    sides = form.side_count()
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
        return _refusal(error, sides)
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
        answer.update(_refusal(error, sides), verdict="ask")
        scores = score_hand(profile, hand)
    except RuleError as error:
        answer.update(_refusal(error, sides))
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


def _refusal(error: RuleError, sides: int) -> dict[str, Any]:
    located = side_field(error.field)
    label = FIELD_LABELS.get(located[1], "") if located else FIELD_LABELS.get(error.field or "")
    message = error_text(error)
    return {
        "verdict": "refused",
        "message": _("%(label)s: %(message)s", label=label, message=message) if label else message,
        "field": _dom_id(error.field, sides),
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
    form = hand_form(len(record.table.sides))
    form.open_counters = set()
    return jsonify(dry_run(record, form, number))
