"""A club's special hands (Modern American, docs/rules.md §5a): the list its new games offer,
chosen among the family's presets (pagat's four, the League's list) and edited hand by hand.

A game keeps the list it started with: the club's list is copied into each new game's rules.
Every write is a POST form (CSRF) answered by a redirect; a refusal comes back with what was
typed and the message under its box.
"""

from __future__ import annotations

from typing import Any

from flask import abort, flash, redirect, render_template, request, url_for
from flask_babel import gettext as _
from werkzeug.wrappers import Response

from scorer import store
from scorer.clubs.forms import SpecialHandsForm, special_hands_data
from scorer.clubs.pages.blueprint import bp
from scorer.core.errors import N_, RuleError
from scorer.core.families import RuleFamily, SpecialHand, get_family
from scorer.core.limits import same_name
from scorer.core.rules import parse_special_hands, special_hand_json, special_hand_key
from scorer.store import get_db
from scorer.web.display import special_hand_label, special_hands_text
from scorer.web.failures import status_of
from scorer.web.i18n import SPECIAL_HAND_PRESET_LABELS, error_text
from scorer.web.pages import Page, field_errors_note, label_errors
from scorer.web.routes import budget

RULE = "special_hands"
# Where the store names a hand of the list: settings.rules.special_hands[2].value.
FIELD_PREFIX = f"settings.rules.{RULE}"


def club_family(club: store.StoredClub) -> RuleFamily:
    """The club's game, when it has special hands (404 otherwise: nothing to edit)."""
    family = get_family(club.family)
    if not family.special_hands:
        abort(404)
    return family


def club_special_hands(club: store.StoredClub, family: RuleFamily) -> tuple[SpecialHand, ...]:
    """The list the club's new games offer: its own, or the family's."""
    hands = (club.settings.get("rules") or {}).get(RULE)
    return family.special_hands if hands is None else parse_special_hands(hands)


def special_hands_line(club: store.StoredClub) -> str | None:
    """The club's special hands in a line, for its page (None: its game has none)."""
    family = get_family(club.family)
    if not family.special_hands:
        return None
    return special_hands_text(club_special_hands(club, family))


def special_hands_page(
    club: store.StoredClub, form: SpecialHandsForm, status: int = 200, error: str | None = None
) -> Page:
    family = club_family(club)
    return (
        render_template(
            "clubs/special_hands.html",
            club=club,
            form=form,
            presets=[
                (key, SPECIAL_HAND_PRESET_LABELS.get(key, key), special_hands_text(hands))
                for key, hands in family.special_hand_presets
            ],
            error=error,
        ),
        status,
    )


@bp.get("/clubs/<club_id>/special-hands")
def special_hands(club_id: str) -> Page:
    club = store.load_club(get_db(), club_id)
    hands = club_special_hands(club, club_family(club))
    return special_hands_page(club, SpecialHandsForm(data=special_hands_data(hands)))


@bp.post("/clubs/<club_id>/special-hands/preset")
@budget("club_roster")
def choose_special_hands(club_id: str) -> Page:
    """One of the family's lists, as it is: the club then edits it."""
    club = store.load_club(get_db(), club_id)
    family = club_family(club)
    name = request.form.get("preset", "")
    if name not in dict(family.special_hand_presets):
        abort(400)
    hands = [special_hand_json(hand) for hand in family.special_hand_preset(name)]
    store.set_club_house_rule(get_db(), club_id, RULE, hands)
    flash(
        _(
            "The club's new games offer %(list)s.",
            list=SPECIAL_HAND_PRESET_LABELS.get(name, name),
        )
    )
    return back_to_list(club_id)


@bp.post("/clubs/<club_id>/special-hands")
@budget("club_roster")
def save_special_hands(club_id: str) -> Page:
    club = store.load_club(get_db(), club_id)
    club_family(club)
    form = SpecialHandsForm(request.form)
    if not form.validate():  # points that are not a whole number: at their box
        label_errors(form)
        return special_hands_page(club, form, 400, field_errors_note(form))
    hands, boxes = typed_list(form)
    try:
        check_names(form, hands, boxes)
        store.set_club_house_rule(get_db(), club_id, RULE, hands)
    except RuleError as error:
        place_error(form, boxes, error)
        return special_hands_page(club, form, status_of(error), field_errors_note(form))
    flash(_("Special hands saved: the club's new games offer them."))
    return back_to_list(club_id)


def back_to_list(club_id: str) -> Response:
    return redirect(url_for("clubs.special_hands", club_id=club_id), code=303)


def typed_list(form: SpecialHandsForm) -> tuple[list[dict[str, Any]], list[Any]]:
    """The list as typed, as the house rule writes it, and each hand's form (a row, or the
    new hand's boxes), in order, for a refusal to find its box. A name left as the scorer's
    words for its key stays the scorer's (read in each reader's language)."""
    hands: list[dict[str, Any]] = []
    boxes: list[Any] = []
    for entry in form.hands.entries:
        row = entry.form
        if row.remove.data:
            continue
        key = row.key.data or ""
        book = special_hand_label(SpecialHand(key, 0))
        name = "" if row.name.data == book and book != key else row.name.data or ""
        hands.append(_hand(key, name, row.value.data, row.wins_game.data))
        boxes.append(row)
    name = form.new_name.data or ""
    if name or form.new_value.data is not None:
        key = special_hand_key(name, {hand["key"] for hand in hands})
        hands.append(_hand(key, name, form.new_value.data, form.new_wins_game.data))
        boxes.append(form)
    return hands, boxes


def check_names(form: SpecialHandsForm, hands: list[dict[str, Any]], boxes: list[Any]) -> None:
    """The new hand named, and no name twice as the reader reads them (a name left as the
    scorer's words is stored as none, which the engine cannot compare)."""
    seen: list[str] = []
    for index, (hand, box) in enumerate(zip(hands, boxes, strict=True)):
        if box is form and not form.new_name.data:
            raise RuleError(f"{FIELD_PREFIX}[{index}].name", N_("enter the hand's name"))
        shown = hand["name"] or special_hand_label(SpecialHand(hand["key"], 0))
        if any(same_name(shown, other) for other in seen):
            raise RuleError(f"{FIELD_PREFIX}[{index}].name", N_("this name is already in the list"))
        seen.append(shown)


def _hand(key: str, name: str, value: int | None, wins: bool) -> dict[str, Any]:
    hand: dict[str, Any] = {"key": key, "value": value, "name": name}
    if wins:
        hand["wins_game"] = True
    return hand


def place_error(form: SpecialHandsForm, boxes: list[Any], error: RuleError) -> None:
    """Put a refusal under the box it names: a hand's name or points (a row's, or the new
    hand's); the list's own (too many hands) under the new hand's name."""
    field = error.field or ""
    message = error_text(error)
    target = form.new_name
    if field.startswith(f"{FIELD_PREFIX}["):
        index, _bracket, part = field.removeprefix(f"{FIELD_PREFIX}[").partition("]")
        if index.isdigit() and int(index) < len(boxes):
            where = boxes[int(index)]
            part = part.removeprefix(".")
            if where is form:
                target = form.new_value if part == "value" else form.new_name
            else:
                target = where.value if part == "value" else where.name
    target.errors = [_("%(label)s: %(message)s", label=target.label.text, message=message)]
