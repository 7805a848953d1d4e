"""The pages people touch at the table: games, the scoreboard, hand entry, corrections.

Every write is a POST form with a CSRF token, answered by a redirect (POST/redirect/GET).
A refused form comes back with what was typed and the message at the field: 400 when the
input cannot be read, 422 when it breaks a rule, 409 when the game moved on meanwhile.
"""

from __future__ import annotations

import contextlib
import re
from collections.abc import Iterator
from typing import Any

from flask import (
    Blueprint,
    abort,
    flash,
    redirect,
    render_template,
    request,
    session,
    url_for,
)
from flask_babel import get_locale
from flask_babel import gettext as _
from markupsafe import Markup
from werkzeug.wrappers import Response
from wtforms import Field, FieldList, FormField

from scorer import display, store
from scorer.cache import app_cache
from scorer.db import get_db
from scorer.errors import N_, RuleError
from scorer.failures import load_game, status_of
from scorer.forms import (
    NOBODY,
    RULE_NUMBERS,
    HandForm,
    NewGameForm,
    hand_data,
    hand_form,
    is_index,
    new_game_data,
    new_token,
    rules_defaults,
)
from scorer.game import Side
from scorer.i18n import (
    FIELD_LABELS,
    HOUSE_RULE_LABELS,
    PROFILE_LABELS,
    error_text,
    side_field,
)
from scorer.limits import MAX_HANDS_PER_GAME, check_target, default_side_name
from scorer.rules import PROFILES, VALUE_GROUPS

bp = Blueprint("pages", __name__)

# The games this browser created or opened, kept in its signed session cookie.
MY_GAMES = "games"
MY_GAMES_MAX = 40
Page = str | tuple[str, int] | Response


# --- this browser's games --------------------------------------------------------------------


def my_game_ids() -> list[str]:
    ids = session.get(MY_GAMES)
    return [i for i in ids if isinstance(i, str)] if isinstance(ids, list) else []


def remember(game_id: str) -> None:
    """Put a game first in this browser's list (it survives closing the browser)."""
    ids = [game_id] + [i for i in my_game_ids() if i != game_id]
    if ids != my_game_ids():
        session[MY_GAMES] = ids[:MY_GAMES_MAX]
    if not session.permanent:
        # Setting it again would re-sign and resend the cookie on every page.
        session.permanent = True


def forget(game_id: str) -> None:
    session[MY_GAMES] = [i for i in my_game_ids() if i != game_id]


def load(game_id: str) -> store.GameRecord:
    """The game, or a 404 page; a stored game the rules no longer accept is a 409 page."""
    return load_game(game_id)


def my_games() -> list[store.GameRecord]:
    games = []
    db = get_db()
    ids = my_game_ids()
    for game_id in ids:
        try:
            games.append(store.load_game(db, game_id, cache=app_cache("games")))
        except (store.NotFound, RuleError):
            continue  # deleted elsewhere, or no longer readable: leave it out
    # Latest change first; within the same second, the one this browser touched last.
    games.sort(key=lambda game: ids.index(game.id))
    games.sort(key=lambda game: game.updated_at, reverse=True)
    return games


# --- helpers shared by the forms --------------------------------------------------------------


def leaf_fields(form: Any) -> Iterator[Field]:
    """Every input field of a form, inside its lists and sub-forms."""
    for field in form:
        if isinstance(field, FieldList):
            for entry in field.entries:
                yield from leaf_fields([entry])
        elif isinstance(field, FormField):
            yield from leaf_fields(field.form)
        else:
            yield field


def label_errors(form: Any) -> None:
    """Prefix each field's own refusal with its label: "Meld points: enter a whole number"."""
    for field in leaf_fields(form):
        if field.errors:
            field.errors = [
                _("%(label)s: %(message)s", label=field.label.text, message=message)
                for message in field.errors
            ]


def field_errors_note(form: Any) -> str | None:
    """A line at the top of a refused form: the messages themselves sit at their boxes."""
    if any(field.errors for field in leaf_fields(form)):
        return _("Nothing was saved: see the message in red below.")
    return None


def sides_note(form: NewGameForm) -> str | None:
    if getattr(form, "sides_error", None) or getattr(form, "minimums_error", None):
        return _("Nothing was saved: see the message in red below.")
    return None


def game_title(record: store.GameRecord) -> str:
    return display.game_title(record.name, record.table.sides)


# --- home and new game -----------------------------------------------------------------------


@bp.get("/")
def home() -> Page:
    return render_template("games/home.html", games=my_games())


def form_sides(form: NewGameForm) -> list[Side]:
    """The sides typed in the form; empty inputs are ignored."""
    typed = []
    for entry in form.sides.entries:
        players = [p.data for p in entry.form.players.entries if p.data]
        if players:
            typed.append((entry.form.name.data or "", players))
    if form.solo.data:
        sides = [Side(player, (player,)) for _name, players in typed for player in players]
    else:
        sides = [
            Side(name or default_side_name(tuple(players), index), tuple(players))
            for index, (name, players) in enumerate(typed)
        ]
    if len(sides) < 2:
        raise RuleError("sides", N_("enter the players of at least two sides"))
    return sides


GAME_FIELDS = ("name", "profile", "target", "first_dealer")
_MINIMUM_ROW = re.compile(r"^rules\.minimums\[(\d+)\]")


def place_game_error(form: NewGameForm, error: RuleError) -> str | None:
    """Put a refusal at its field; returns the message for the banner when it has none."""
    field = error.field or ""
    message = error_text(error)
    if field.startswith("rules.minimums"):
        form.minimums_error = _(
            "%(label)s: %(message)s", label=HOUSE_RULE_LABELS["minimums"], message=message
        )
        form.rules_open = True
        return None
    if field.startswith("rules.") and field[6:] in RULE_NUMBERS:
        target = form[field[6:]]
        target.errors = [_("%(label)s: %(message)s", label=target.label.text, message=message)]
        form.rules_open = True
        return None
    if field in GAME_FIELDS:
        form[field].errors = [
            _("%(label)s: %(message)s", label=form[field].label.text, message=message)
        ]
        return None
    if field.startswith("sides"):
        form.sides_error = _("Players: %(reason)s", reason=message)
        return None
    return message


def rules_open(form: NewGameForm) -> bool:
    """Open the house rules when they hold an error or a change."""
    if getattr(form, "rules_open", False):
        return True
    return any(f.errors for key in RULE_NUMBERS for f in [form[key]]) or any(
        e.form.start.errors or e.form.minimum.errors for e in form.minimums.entries
    )


@bp.route("/games/new", methods=["GET", "POST"])
def new_game() -> Page:
    form = NewGameForm() if request.method == "POST" else NewGameForm(data=new_game_data())
    banner = None
    status = 200
    if form.validate_on_submit():
        target = form.target.data or None
        try:
            game_id = store.create_game(
                get_db(),
                name=form.name.data or None,
                profile_key=form.profile.data or None,
                target=int(target) if is_index(target) else _bad_target(target),
                sides=form_sides(form),
                first_dealer=form.first_dealer.data or None,
                house_rules=form.house_rules() or None,
            )
        except RuleError as error:
            banner = place_game_error(form, error)
            status = 422
        else:
            remember(game_id)
            flash(_("Game started. Good luck!"))
            return redirect(url_for("pages.scoreboard", game_id=game_id), code=303)
    elif request.method == "POST":
        label_errors(form)
        status = 400
    defaults = {key: rules_defaults(profile) for key, profile in PROFILES.items()}
    return (
        render_template(
            "games/new.html",
            form=form,
            banner=banner or field_errors_note(form) or sides_note(form),
            defaults=defaults,
            rules_open=rules_open(form),
        ),
        status,
    )


def _bad_target(target: str | None) -> int | None:
    return check_target(target) if target else None


# --- the scoreboard --------------------------------------------------------------------------


def progress(total: int, target: int) -> int:
    """Per cent of the way to the target, for the bars (0 to 100)."""
    return max(0, min(100, round(100 * total / target))) if target > 0 else 0


def sides_view(record: store.GameRecord) -> list[dict[str, Any]]:
    state = record.state
    target = record.table.profile.target
    return [
        {
            "index": i,
            "name": side.name,
            "players": side.players,
            "total": state.totals[i],
            "minimum": state.minimums[i],
            "progress": progress(state.totals[i], target),
            "winner": state.winner == i,
        }
        for i, side in enumerate(record.table.sides)
    ]


def chart(record: store.GameRecord) -> dict[str, Any] | None:
    """Running totals hand by hand as SVG polylines (a 100 x 50 box), the target on top."""
    results = record.state.results
    if not results:
        return None
    target = record.table.profile.target
    totals = [(0,) * len(record.table.sides)] + [r.totals for r in results]
    low = min(0, *(t for row in totals for t in row))
    high = max(target, *(t for row in totals for t in row))
    span = (high - low) or 1

    def y(value: int) -> float:
        return round(50 - 50 * (value - low) / span, 2)

    step = 100 / max(1, len(totals) - 1)
    lines = [
        " ".join(f"{round(k * step, 2)},{y(row[i])}" for k, row in enumerate(totals))
        for i in range(len(record.table.sides))
    ]
    return {"lines": lines, "target_y": y(target), "zero_y": y(0)}


@bp.get("/games/<game_id>")
def scoreboard(game_id: str) -> Page:
    record = load(game_id)
    remember(record.id)
    return render_template(
        "games/scoreboard.html", hands_html=hands_html(record), **board_context(record)
    )


def hands_html(record: store.GameRecord) -> Markup:
    """The scoreboard's list of hands, rendered once per game version and language.

    It is most of a long game's page. Every change to a game bumps its version, so a stored
    fragment never goes stale: a new version is a new key.
    """
    key = (record.id, record.version, str(get_locale()))
    return app_cache("hands_html").get_or_make(
        key,
        lambda: Markup(
            render_template(
                "games/_hands.html", game=record, hands=list(reversed(record.state.results))
            )
        ),
    )


def board_context(record: store.GameRecord) -> dict[str, Any]:
    state = record.state
    return {
        "game": record,
        "title": game_title(record),
        "sides": sides_view(record),
        "hands": list(reversed(state.results)),
        "profile": record.table.profile,
        "profile_label": PROFILE_LABELS.get(record.profile_key, record.profile_key),
        "house_rules": display.house_rule_lines(record.table.profile),
        "chart": chart(record),
    }


# --- a hand: record and correct --------------------------------------------------------------

_CARD_FIELD = re.compile(r"^sides\[\d+\]\.(meld|hand)_cards(?:\.(\w+))?")


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
        if name in column._fields:
            column[name].errors = [_("%(label)s: %(message)s", label=label, message=message)]
            return None
    if error.field in ("went_out", "concealed"):
        form[error.field].errors = [
            _("%(label)s: %(message)s", label=FIELD_LABELS[error.field], message=message)
        ]
        return None
    return message


def hand_page(
    record: store.GameRecord,
    form: HandForm,
    *,
    number: int | None,
    banner: str | None = None,
    stale: bool = False,
    status: int = 200,
    focus: bool = False,
) -> Page:
    state = record.state
    if number is None or number > len(state.results):  # (removed on another phone)
        minimums = state.minimums
        dealer = state.dealer_next
    else:
        result = state.results[number - 1]
        minimums, dealer = result.minimums, result.dealer
    profile = record.table.profile
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
            banner=banner or field_errors_note(form),
            stale=stale,
            sides=sides_view(record),
            profile=profile,
            red_options=[(str(n), str(n)) for n in range(profile.red_threes_in_packs + 1)],
            went_out_options=[(str(i), side.name) for i, side in enumerate(record.table.sides)]
            + [(NOBODY, _("Nobody: the stock ran out"))],
            autofocus=autofocus_column(form) if focus else None,
            card_values={g: profile.card_values.of(g) for g in VALUE_GROUPS},
            red_sets=dict(profile.red_three_sets),
        ),
        status,
    )


def autofocus_column(form: HandForm) -> int:
    """On a new hand, the cursor waits in the meld points of the side that went out."""
    value = form.went_out.data or ""
    return int(value) if is_index(value) and int(value) < form.side_count() else 0


def _prepare(form: HandForm) -> HandForm:
    form.open_counters = set()
    return form


@bp.route("/games/<game_id>/hands/new", methods=["GET", "POST"])
def new_hand(game_id: str) -> Page:
    record = load(game_id)
    sides = len(record.table.sides)
    if request.method == "GET":
        if record.state.finished:
            flash(_("This game is over: it takes no further hands."))
            return redirect(url_for("pages.scoreboard", game_id=record.id), code=303)
        out = request.args.get("out", "")
        went_out = out if out == NOBODY or (is_index(out) and int(out) < sides) else ""
        form = _prepare(
            hand_form(sides, data={"went_out": went_out, "version": str(record.version)})
        )
        form.token.data = new_token()
        return hand_page(record, form, number=None, focus=True)
    form = _prepare(hand_form(sides))
    return save_hand(record, form, number=None)


@bp.route("/games/<game_id>/hands/<int:number>/edit", methods=["GET", "POST"])
def edit_hand(game_id: str, number: int) -> Page:
    record = load(game_id)
    sides = len(record.table.sides)
    if not 1 <= number <= len(record.state.results):
        if request.method == "GET" or not 1 <= number <= MAX_HANDS_PER_GAME:
            abort(404)
        # Removed on another phone while this correction was typed: keep it, say so.
        form = _prepare(hand_form(sides))
        form.version.data = str(record.version)
        message = _("This hand was removed on another phone: nothing was saved.")
        return hand_page(record, form, number=number, banner=message, stale=True, status=409)
    if request.method == "GET":
        data = hand_data(record.state.results[number - 1].hand)
        data["version"] = str(record.version)
        form = _prepare(hand_form(sides, data=data))
        return hand_page(record, form, number=number)
    return save_hand(record, _prepare(hand_form(sides)), number=number)


def save_hand(record: store.GameRecord, form: HandForm, *, number: int | None) -> Page:
    """Validate, store, redirect; or show the form again with what was typed."""
    if not form.validate_on_submit():
        label_errors(form)
        return hand_page(record, form, number=number, status=400)
    try:
        hand = form.hand()
    except ValueError:
        reason = _("choose a side, or nobody")
        form.went_out.errors = [
            _("%(label)s: %(message)s", label=FIELD_LABELS["went_out"], message=reason)
        ]
        return hand_page(record, form, number=number, status=400)
    db = get_db()
    try:
        if number is None:
            saved = store.record_hand(
                db,
                record.id,
                hand,
                version=form.version_number(),
                idempotency_key=form.token_value(),
                cache=app_cache("games"),
            )
            flash(_("Hand %(number)s saved.", number=len(saved.state.results)))
        else:
            saved = store.replace_hand(db, record.id, number, hand, version=form.version_number())
            flash(_("Hand %(number)s corrected.", number=number))
    except store.NotFound:
        abort(404)
    except store.StaleGame:
        current = load(record.id)
        if number is not None and _already_saved(current, number, hand):
            return redirect(url_for("pages.scoreboard", game_id=record.id), code=303)
        # Keep what was typed; the next save is checked against what is there now.
        form.version.raw_data = [str(current.version)]
        form.version.data = str(current.version)
        message = _(
            "Someone changed this game on another phone. Check the totals below: "
            "nothing of yours was saved yet; save again to add it."
        )
        return hand_page(current, form, number=number, banner=message, stale=True, status=409)
    except store.KeyReused:
        message = _("This form was already saved. Check the scoreboard before saving again.")
        form.token.data = new_token()
        return hand_page(load(record.id), form, number=number, banner=message, status=409)
    except RuleError as error:
        banner = place_hand_error(form, error)
        return hand_page(record, form, number=number, banner=banner, status=status_of(error))
    remember(record.id)
    return redirect(url_for("pages.scoreboard", game_id=record.id), code=303)


def _already_saved(record: store.GameRecord, number: int, hand: Any) -> bool:
    """A correction sent twice: the stored hand is already this one."""
    results = record.state.results
    return number <= len(results) and results[number - 1].hand == hand


# --- destructive actions: a confirmation page, then a POST ------------------------------------


def confirm_page(record: store.GameRecord, action: str, **context: Any) -> Page:
    return render_template(
        "games/confirm.html",
        game=record,
        title=game_title(record),
        action=action,
        version=record.version,
        **context,
    )


def posted_version() -> int | None:
    value = request.form.get("version", "")
    return int(value) if is_index(value) else None


def back_to(record: store.GameRecord) -> Response:
    return redirect(url_for("pages.scoreboard", game_id=record.id), code=303)


@bp.route("/games/<game_id>/undo", methods=["GET", "POST"])
def undo(game_id: str) -> Page:
    record = load(game_id)
    results = record.state.results
    if not results:
        flash(_("There is no hand to undo."))
        return back_to(record)
    if request.method == "GET":
        return confirm_page(record, "undo", hand=results[-1], sides=sides_view(record))
    try:
        store.undo_last_hand(get_db(), record.id, version=posted_version())
    except store.StaleGame:
        flash(_("The game changed on another phone meanwhile: nothing was undone."))
    except (store.NotFound, RuleError):
        flash(_("Nothing was undone."))
    else:
        flash(_("Hand %(number)s undone.", number=len(results)))
    return back_to(record)


@bp.route("/games/<game_id>/hands/<int:number>/delete", methods=["GET", "POST"])
def delete_hand(game_id: str, number: int) -> Page:
    record = load(game_id)
    results = record.state.results
    if not 1 <= number <= len(results):
        abort(404)
    if request.method == "GET":
        return confirm_page(
            record, "delete_hand", hand=results[number - 1], sides=sides_view(record)
        )
    try:
        store.delete_hand(get_db(), record.id, number, version=posted_version())
    except store.StaleGame:
        flash(_("The game changed on another phone meanwhile: nothing was removed."))
    except store.NotFound:
        flash(_("That hand was already removed."))
    except RuleError as error:
        flash(_("The hand was not removed: %(reason)s", reason=error_text(error)))
    else:
        flash(_("Hand %(number)s removed; the hands after it were recomputed.", number=number))
    return back_to(record)


@bp.route("/games/<game_id>/delete", methods=["GET", "POST"])
def delete_game(game_id: str) -> Page:
    if request.method == "POST":
        try:
            record = store.load_game(get_db(), game_id)
        except (store.NotFound, RuleError):
            forget(game_id)  # deleted already (a second tap): nothing more to do
            return redirect(url_for("pages.home"), code=303)
    record = load(game_id)
    if request.method == "GET":
        return confirm_page(record, "delete_game", sides=sides_view(record))
    with contextlib.suppress(store.NotFound):  # a second tap: already gone
        store.delete_game(get_db(), record.id)
    forget(record.id)
    flash(_("Game “%(name)s” deleted.", name=game_title(record)))
    return redirect(url_for("pages.home"), code=303)
