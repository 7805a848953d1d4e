"""A hand: record, correct, undo and remove."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from flask import (
    abort,
    flash,
    redirect,
    render_template,
    request,
    url_for,
)
from flask_babel import gettext as _

from scorer import store
from scorer.core.errors import RuleError, ScorerError
from scorer.core.families import WILD_RANK
from scorer.core.hand_schema import count_boxes
from scorer.core.hands import Hand, SideScore, score_hand, validate_hand
from scorer.core.irregular import NeedsConfirmation
from scorer.core.limits import MAX_HANDS_PER_GAME
from scorer.core.meld import MAX_SIDE_MELDS
from scorer.core.rules import VALUE_GROUPS
from scorer.games.forms import (
    MAX_SEQUENCE_ROWS,
    NOBODY,
    HandForm,
    SideHandForm,
    hand_data,
    hand_form,
    new_token,
)
from scorer.games.pages.blueprint import (
    back_to,
    board_url,
    bp,
    confirm_page,
    game_title,
    posted_version,
)
from scorer.games.pages.board import full_note, sides_view
from scorer.games.pages.hand_grid import (
    canasta_box,
    confirmed_kinds,
    first_refused,
    hand_grid_rows,
    row_box,
)
from scorer.store import get_db
from scorer.web.display import rank_letters, suit_letters
from scorer.web.failures import Outcomes, load_game, page_outcome, refusals, status_of
from scorer.web.forms import is_index
from scorer.web.i18n import FIELD_LABELS, error_text, side_field
from scorer.web.pages import Page, label_errors, leaf_fields, remember
from scorer.web.routes import budget, costly_read

_CARD_FIELD = re.compile(r"^sides\[\d+\]\.(meld|hand)_cards(?:\.(\w+))?")
_ROWS_FIELD = re.compile(r"^sides\[\d+\]\.(?:melds|sequences)\b")


def place_hand_error(form: HandForm, error: RuleError) -> str | None:
    """Put a refusal at its field (its column); returns the banner text when it has none."""
    message = error_text(error)
    located = side_field(error.field)
    if located is not None and located[0] < form.side_count():
        index, name = located
        column = form.sides.entries[index].form
        label = FIELD_LABELS.get(name, name)
        cards = _CARD_FIELD.match(error.field or "")
        if cards:
            part, group = cards.group(1), cards.group(2)
            name = f"{part}_{group if group in VALUE_GROUPS else VALUE_GROUPS[0]}"
            form.open_counters.add((index, part))
        if _ROWS_FIELD.match(error.field or ""):
            form.open_counters.add((index, "melds"))
            return _place_row_error(column, error.field or "", message)
        if name.startswith("adjustment"):
            form.open_counters.add((index, "adjustment"))
        name = canasta_box(form.family, name, column)
        if name in column._fields:
            column[name].errors = [_("%(label)s: %(message)s", label=label, message=message)]
            return None
    if error.field in ("went_out", "concealed"):
        form[error.field].errors = [
            _("%(label)s: %(message)s", label=FIELD_LABELS[error.field], message=message)
        ]
        return None
    return message


def _place_row_error(column: SideHandForm, path: str, message: str) -> str | None:
    """A refused meld's or sequence's message under its row's box (meld j is the j-th row
    typed); about them all (cards beyond the packs, going out without an escalera): under
    the first row typed, named as the whole."""
    target, whole = row_box(column, path)
    label = FIELD_LABELS["sequences" if ".sequences" in path else "melds"] if whole else None
    target.errors = [_("%(label)s: %(message)s", label=label or target.label.text, message=message)]
    return None


def add_meld_row(form: HandForm) -> bool:
    """ "Add a meld" (without JavaScript): one more empty row in that side's melds."""
    value = request.form.get("add_meld", "")
    if not is_index(value) or int(value) >= form.side_count():
        return False
    index = int(value)
    melds = form.sides.entries[index].form.melds
    if len(melds.entries) < melds.max_entries:
        melds.append_entry()
    form.open_counters.add((index, "melds"))
    return True


def add_sequence_row(form: HandForm) -> bool:
    """ "Add a sequence" (without JavaScript): one more empty sequence row on that side."""
    value = request.form.get("add_sequence", "")
    if not is_index(value) or int(value) >= form.side_count():
        return False
    index = int(value)
    sequences = form.sides.entries[index].form.sequences
    if len(sequences.entries) < sequences.max_entries:
        sequences.append_entry()
    form.open_counters.add((index, "melds"))
    return True


def hand_page(
    record: store.ReplayedGame,
    form: HandForm,
    *,
    number: int | None,
    banner: str | None = None,
    stale: bool = False,
    status: int = 200,
    focus: bool = False,
    question: NeedsConfirmation | None = None,
    compare: dict[str, Any] | None = None,
) -> Page:
    state = record.state
    if number is None or number > len(state.results):  # (removed on another phone)
        minimums = state.minimums
        dealer = state.dealer_next
    else:
        result = state.results[number - 1]
        minimums, dealer = result.minimums, result.dealer
    profile = record.table.profile
    refused = first_refused(form)
    columns = [
        {"index": i, "name": side.name, "minimum": minimums[i], "form": entry.form}
        for i, (side, entry) in enumerate(zip(record.table.sides, form.sides.entries, strict=True))
    ]
    return (
        render_template(
            "games/hand.html",
            game=record,
            title=game_title(record),
            form=form,
            columns=columns,
            number=number,
            dealer=dealer,
            # Back to the scoreboard; a correction, to its hand's page of hands.
            back=board_url(record, number),
            banner=banner or (_("Nothing was saved:") if first_refused(form) else None),
            stale=stale,
            sides=sides_view(record),
            profile=profile,
            red_options=[(str(n), str(n)) for n in range(profile.red_threes_in_packs + 1)],
            went_out_options=[(str(i), side.name) for i, side in enumerate(record.table.sides)]
            + [(NOBODY, _("Nobody: the stock ran out"))],
            rows=hand_grid_rows(profile, form),
            refusals=refusal_list(form, record),
            # The cursor waits in the first refused box, else (a new hand) in the sheet's
            # first box: Enter then walks every side in reading order, and ends on Save.
            focus_id=refused.id if refused else ("sides-0-meld_points" if focus else None),
            others_open=bool(form.open_counters) or _others_typed(form),
            melds_max=MAX_SIDE_MELDS,
            rank_letters=", ".join(rank_letters()[rank] for rank in ("J", "Q", "K", "A")),
            # A family with melds of wild cards only (Modern American) names their letter.
            wild_letter=rank_letters()[WILD_RANK]
            if WILD_RANK in profile.family.meld_ranks
            else None,
            # Whether black threes are melded (by the player going out): not in Modern
            # American, where they are bonus cards.
            black_threes_melded=bool(profile.family.meld.black_threes_going_out),
            # Samba and Bolivia: a side's sequences, typed by suit, first and last card.
            sequences=profile.family.sequences is not None,
            suit_letters=", ".join(suit_letters().values()),
            ace_letter=rank_letters()["A"],
            sequences_max=MAX_SEQUENCE_ROWS,
            question=_question(question),
            compare=compare,
        ),
        status,
    )


def typed_scores(record: store.ReplayedGame, hand: Hand) -> tuple[SideScore, ...] | None:
    """What the typed hand scores, or None when the rules would refuse it as typed."""
    try:
        validate_hand(record.table.profile, hand, len(record.table.sides))
    except RuleError:
        return None
    return score_hand(record.table.profile, hand)


def stale_compare(current: store.ReplayedGame, hand: Hand) -> dict[str, Any] | None:
    """A new hand refused because another phone recorded one meanwhile: what it recorded
    beside what this phone typed, so the table can tell the same hand from the next one."""
    seen = request.form.get("hands", "")
    results = current.state.results
    if not is_index(seen) or int(seen) >= len(results):
        return None  # a correction or an undo elsewhere: no new hand to compare with
    return {
        "theirs": results[int(seen) :],
        "mine": hand,
        "mine_scores": typed_scores(current, hand),
    }


def _question(asked: NeedsConfirmation | None) -> dict[str, Any] | None:
    """What the form asks the table (§2b): the column it sits in and what to send back."""
    if asked is None:
        return None
    located = side_field(asked.field)
    return {"column": located[0] if located else 0, "confirm": asked.confirm}


def refusal_list(form: HandForm, record: store.ReplayedGame) -> list[dict[str, str]]:
    """Every refused box's message, with its side's name, for the top of the form: a refusal
    is read on the first screen, a link away from its box."""
    found = []
    for index, entry in enumerate(form.sides.entries):
        for field in leaf_fields(entry.form):
            for error in field.errors:
                found.append(
                    {"side": record.table.sides[index].name, "text": error, "id": field.id}
                )
    for field in (form.went_out, form.concealed):
        found += [{"side": "", "text": error, "id": field.id} for error in field.errors]
    return found


# Boxes of the sheet itself (or no box at all) in every family: never "another way".
_GRID_FIELDS = frozenset({"meld_points", "hand_points", "adjustment_sign", "rank"})


def _others_typed(form: HandForm) -> bool:
    """Something typed in one of the other ways to enter a side (counts, melds, a penalty)."""
    grid = _GRID_FIELDS | {box.name for box in count_boxes(form.family)}
    for entry in form.sides.entries:
        for field in leaf_fields(entry.form):
            if field.short_name in grid or field.type == "SelectField":
                continue
            if field._value() not in ("", None):
                return True
    return False


def _prepare(form: HandForm) -> HandForm:
    form.open_counters = set()
    return form


@bp.route("/games/<game_id>/hands/new", methods=["GET", "POST"])
@budget("record_hand")
@costly_read  # the whole hand sheet: 20-35 ms of a worker for six sides
def new_hand(game_id: str) -> Page:
    record = load_game(game_id)
    sides = len(record.table.sides)
    family, special = record.table.profile.family, record.table.profile.special_hands
    if request.method == "GET":
        if record.state.finished:
            flash(_("This game is over: it takes no further hands."))
            return redirect(url_for("games.scoreboard", game_id=record.id), code=303)
        if record.full:
            flash(full_note())
            return redirect(url_for("games.scoreboard", game_id=record.id), code=303)
        out = request.args.get("out", "")
        went_out = out if out == NOBODY or (is_index(out) and int(out) < sides) else ""
        form = _prepare(
            hand_form(
                sides, family, special, data={"went_out": went_out, "version": str(record.version)}
            )
        )
        form.token.data = new_token()
        return hand_page(record, form, number=None, focus=True)
    form = _prepare(hand_form(sides, family, special))
    return save_hand(record, form, number=None)


@bp.route("/games/<game_id>/hands/<int:number>/edit", methods=["GET", "POST"])
@budget("record_hand")
@costly_read
def edit_hand(game_id: str, number: int) -> Page:
    record = load_game(game_id)
    sides = len(record.table.sides)
    family, special = record.table.profile.family, record.table.profile.special_hands
    if not 1 <= number <= len(record.state.results):
        if request.method == "GET" or not 1 <= number <= MAX_HANDS_PER_GAME:
            abort(404)
        # Removed on another phone while this correction was typed: keep it, say so.
        form = _prepare(hand_form(sides, family, special))
        form.version.data = str(record.version)
        message = _("This hand was removed on another phone: nothing was saved.")
        return hand_page(record, form, number=number, banner=message, stale=True, status=409)
    if request.method == "GET":
        data = hand_data(record.state.results[number - 1].hand, family)
        data["version"] = str(record.version)
        form = _prepare(hand_form(sides, family, special, data=data))
        return hand_page(record, form, number=number)
    return save_hand(record, _prepare(hand_form(sides, family, special)), number=number)


def save_hand(record: store.ReplayedGame, form: HandForm, *, number: int | None) -> Page:
    """Validate, store, redirect; or show the form again with what was typed."""
    if not form.validate_on_submit():
        label_errors(form)
        return hand_page(record, form, number=number, status=400)
    if add_meld_row(form) or add_sequence_row(form):  # nothing saved: one row longer
        return hand_page(record, form, number=number)
    try:
        hand = form.hand()
    except RuleError as error:  # a meld row that cannot be read
        banner = place_hand_error(form, error)
        return hand_page(record, form, number=number, banner=banner, status=422)
    except ValueError:
        reason = _("choose a side, or nobody")
        form.went_out.errors = [
            _("%(label)s: %(message)s", label=FIELD_LABELS["went_out"], message=reason)
        ]
        return hand_page(record, form, number=number, status=400)
    try:
        saved = _store_hand(record, form, hand, number)
    except REFUSALS as error:
        return page_outcome(error, SAVE_OUTCOMES)(error, Refused(record, form, number, hand))
    remember(record.id)
    return back_to(saved, number)


def _store_hand(
    record: store.ReplayedGame, form: HandForm, hand: Hand, number: int | None
) -> store.ReplayedGame:
    """Record a new hand (number None) or correct hand `number`, and say so."""
    if number is None:
        saved = store.record_hand(
            get_db(),
            record.id,
            hand,
            version=form.version_number(),
            idempotency_key=form.token_value(),
            base=record,
            confirmed=confirmed_kinds(),
        )
        flash(_("Hand %(number)s saved.", number=len(saved.state.results)))
        return saved
    saved = store.replace_hand(
        get_db(),
        record.id,
        number,
        hand,
        version=form.version_number(),
        base=record,
        confirmed=confirmed_kinds(),
        screen="hand_form",
    )
    flash(_("Hand %(number)s corrected.", number=number))
    if saved.state.after_end:
        flash(
            _(
                "The game now ends at hand %(end)s: the hands after it count for nothing.",
                end=saved.state.ended_at,
            )
        )
    return saved


# --- what the hand page does when the store refuses a save -----------------------------------


@dataclass(frozen=True)
class Refused:
    """A save the store refused: the game as the form showed it, and what was typed."""

    record: store.ReplayedGame
    form: HandForm
    number: int | None  # None: a new hand
    hand: Hand


def _gone(error: ScorerError, refused: Refused) -> Page:
    abort(404)


def _full(error: ScorerError, refused: Refused) -> Page:
    flash(full_note())
    return redirect(url_for("games.scoreboard", game_id=refused.record.id), code=303)


def _stale(error: ScorerError, refused: Refused) -> Page:
    """Another phone saved first: keep what was typed, checked next against what is there."""
    current = load_game(refused.record.id)
    form, number, hand = refused.form, refused.number, refused.hand
    if number is not None and _already_saved(current, number, hand):
        return back_to(current, number)
    form.version.raw_data = [str(current.version)]
    form.version.data = str(current.version)
    compare = stale_compare(current, hand) if number is None else None
    if compare:
        message = _(
            "Another phone recorded a hand while you were typing: nothing of yours was "
            "saved. Is it the hand you typed?"
        )
    else:
        message = _(
            "Someone changed this game on another phone. Check the totals below: "
            "nothing of yours was saved yet; save again to add it."
        )
    return hand_page(
        current,
        form,
        number=number,
        banner=message,
        stale=True,
        status=status_of(error),
        compare=compare,
    )


def _saved_before(error: ScorerError, refused: Refused) -> Page:
    """The form's one-time token was used: a resubmitted form records nothing twice."""
    message = _("This form was already saved. Check the scoreboard before saving again.")
    refused.form.token.data = new_token()
    current = load_game(refused.record.id)
    return hand_page(
        current, refused.form, number=refused.number, banner=message, status=status_of(error)
    )


def _rule_refused(error: ScorerError, refused: Refused) -> Page:
    """The rules refused the hand (or ask about it): the message at its box."""
    assert isinstance(error, RuleError)
    banner = place_hand_error(refused.form, error)
    asked = error if isinstance(error, NeedsConfirmation) else None
    return hand_page(
        refused.record,
        refused.form,
        number=refused.number,
        banner=banner,
        status=status_of(error),
        question=asked,
    )


# The hand page's outcome per refusal of a save, beside the status table (failures.STATUS):
# the first class an error is an instance of decides; the statuses are status_of's.
SAVE_OUTCOMES: Outcomes[Refused] = (
    (store.NotFound, _gone),
    (store.GameFull, _full),
    (store.StaleGame, _stale),
    (store.KeyReused, _saved_before),
    (RuleError, _rule_refused),
)
REFUSALS = refusals(SAVE_OUTCOMES)


def _already_saved(record: store.ReplayedGame, number: int, hand: Any) -> bool:
    """A correction sent twice: the stored hand is already this one."""
    results = record.state.results
    return number <= len(results) and results[number - 1].hand == hand


@bp.route("/games/<game_id>/undo", methods=["GET", "POST"])
@budget("record_hand")
def undo(game_id: str) -> Page:
    record = load_game(game_id)
    results = record.state.results
    if not results:
        flash(_("There is no hand to undo."))
        return back_to(record)
    if request.method == "GET":
        return confirm_page(record, "undo", hand=results[-1], sides=sides_view(record))
    try:
        store.undo_last_hand(get_db(), record.id, version=posted_version(), base=record)
    except store.StaleGame:
        flash(_("The game changed on another phone meanwhile: nothing was undone."))
    except (store.NotFound, RuleError):
        flash(_("Nothing was undone."))
    else:
        flash(_("Hand %(number)s undone.", number=len(results)))
    return back_to(record)


@bp.route("/games/<game_id>/hands/<int:number>/delete", methods=["GET", "POST"])
@budget("record_hand")
def delete_hand(game_id: str, number: int) -> Page:
    record = load_game(game_id)
    results = record.state.results
    if not 1 <= number <= len(results):
        abort(404)
    if request.method == "GET":
        return confirm_page(
            record,
            "delete_hand",
            number=number,
            hand=results[number - 1],
            sides=sides_view(record),
        )
    try:
        store.delete_hand(
            get_db(), record.id, number, version=posted_version(), base=record, screen="remove"
        )
    except store.StaleGame:
        flash(_("The game changed on another phone meanwhile: nothing was removed."))
    except store.NotFound:
        flash(_("That hand was already removed."))
    except RuleError as error:
        flash(_("The hand was not removed: %(reason)s", reason=error_text(error)))
    else:
        flash(_("Hand %(number)s removed; the hands after it were recomputed.", number=number))
    return back_to(record)
