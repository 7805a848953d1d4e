"""Games: the home page, starting a game, deleting one."""

from __future__ import annotations

import contextlib

from flask import (
    flash,
    redirect,
    render_template,
    request,
    url_for,
)
from flask_babel import gettext as _

from scorer import store
from scorer.core.errors import N_, RuleError
from scorer.core.game import Side
from scorer.core.limits import check_target, default_side_name
from scorer.core.rules import VARIANTS, family_of_variant, get_profile
from scorer.core.seatings import Seating, seatings_of
from scorer.games.forms import NewGameForm, new_game_data
from scorer.games.pages.blueprint import bp, confirm_page, game_title
from scorer.games.pages.board import sides_view
from scorer.store import get_db
from scorer.web.failures import load_game
from scorer.web.forms import is_index
from scorer.web.game_setup import (
    RULE_CHOICES,
    RULE_NUMBERS,
    seat_boxes,
    seating_choices,
    usual_target,
    variant_rule_defaults,
)
from scorer.web.i18n import HOUSE_RULE_LABELS, error_text
from scorer.web.pages import (
    Page,
    field_errors_note,
    forget,
    label_errors,
    my_clubs,
    my_games,
    remember,
)
from scorer.web.routes import budget


@bp.get("/")
def home() -> Page:
    return render_template("games/home.html", games=my_games(), clubs=my_clubs())


def match_dealer(typed: str | None, sides: list[Side]) -> str | None:
    """The player typed as "deals first", whatever the case and spaces ("alice" is Alice);
    an unknown name goes on as typed, for the rules to refuse at its field."""
    wanted = (typed or "").strip().casefold()
    if not wanted:
        return None
    players = [player for side in sides for player in side.players]
    return next((p for p in players if p.strip().casefold() == wanted), typed)


def chosen_seating(form: NewGameForm) -> Seating:
    """The seating asked for, among the chosen variant's (its first when unknown)."""
    key = form.profile.data or None
    choices = seatings_of(get_profile(key if key in VARIANTS else None, family_of_variant(key)))
    return next((s for s in choices if s.key == form.seating.data), choices[0])


def seated_sides(form: NewGameForm, seating: Seating) -> list[Side]:
    """The sides of a seating, from the boxes it shows; empty boxes are left out (the rules
    then say how many players the variant seats)."""
    sides = []
    for index, size in enumerate(seating.team_sizes):
        entry = form.sides.entries[index].form
        players = [p.data for p in entry.players.entries[:size] if p.data]
        if seating.alone:
            sides.extend(Side(player, (player,)) for player in players)
        elif players:
            name = entry.name.data or default_side_name(tuple(players), index)
            sides.append(Side(name, tuple(players)))
    if len(sides) < 2:
        raise RuleError("sides", N_("enter the players of at least two sides"))
    return sides


def form_sides(form: NewGameForm) -> list[Side]:
    """The sides typed in the form; empty inputs are ignored."""
    if form.seating.data:
        return seated_sides(form, chosen_seating(form))
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


GAME_FIELDS = ("name", "profile", "target", "fixed_hands", "first_dealer")


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
    if field.startswith("rules.") and field[6:] in RULE_NUMBERS + RULE_CHOICES:
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
    return any(f.errors for key in RULE_NUMBERS + RULE_CHOICES for f in [form[key]]) or any(
        e.form.start.errors or e.form.minimum.errors for e in form.minimums.entries
    )


def sides_note(form: NewGameForm) -> str | None:
    if getattr(form, "sides_error", None) or getattr(form, "minimums_error", None):
        return _("Nothing was saved: see the message in red below.")
    return None


@bp.route("/games/new", methods=["GET", "POST"])
@budget("create_game")
def new_game() -> Page:
    form = NewGameForm() if request.method == "POST" else NewGameForm(data=new_game_data())
    banner = None
    status = 200
    if request.method == "GET" and request.args.get("profile") in VARIANTS:
        # Without JavaScript, the variant and the seating are chosen first (a GET form).
        form = NewGameForm(data=new_game_data(request.args["profile"]))
        form.seating.data = request.args.get("seating", "")
    if request.method == "POST" and request.form.get("show"):
        # "Show these seats" without JavaScript: the same form for the new seating, nothing saved.
        form.validate()
        for field in form:
            field.errors = []
        form = _rules_of_variant(form)
    elif form.validate_on_submit():
        target = form.target.data or None
        try:
            sides = form_sides(form)
            game_id = store.create_game(
                get_db(),
                name=form.name.data or None,
                profile_key=form.profile.data or None,
                family_key=family_of_variant(form.profile.data),
                target=int(target) if is_index(target) else _bad_target(target),
                sides=sides,
                first_dealer=match_dealer(form.first_dealer.data, sides),
                house_rules=form.house_rules() or None,
                fixed_hands=_fixed_hands(form),
            )
        except RuleError as error:
            banner = place_game_error(form, error)
            status = 422
        else:
            remember(game_id)
            flash(_("Game started. Good luck!"))
            return redirect(url_for("games.scoreboard", game_id=game_id), code=303)
    elif request.method == "POST":
        label_errors(form)
        status = 400
    defaults = variant_rule_defaults()
    seating = chosen_seating(form)
    form.target.choices[0] = ("", usual_target(seating))
    return (
        render_template(
            "games/new.html",
            form=form,
            seating=seating,
            seatings=seating_choices(VARIANTS),
            boxes=seat_boxes(),
            banner=banner or field_errors_note(form) or sides_note(form),
            defaults=defaults,
            rules_open=rules_open(form),
        ),
        status,
    )


def _rules_of_variant(form: NewGameForm) -> NewGameForm:
    """The form for another variant than its house-rule values were shown for (a family's
    own minimums, canastas to go out...): what was typed, with that variant's rules, as the
    JavaScript swaps them."""
    key = form.profile.data or ""
    if key not in VARIANTS or key == form.rules_for.data:
        return form
    data = {**form.data, **new_game_data(key)}
    data.update(name=form.name.data, target=form.target.data, profile=key)
    shown = NewGameForm(formdata=None, data=data)
    shown.seating.data = form.seating.data
    return shown


def _fixed_hands(form: NewGameForm) -> int | None:
    """The number of hands typed, if any; never with a target chosen as well (as the API)."""
    hands = form.fixed_hands.data
    if hands is not None and form.target.data:
        raise RuleError(
            "fixed_hands", N_("a game plays to a target or a number of hands: send one of them")
        )
    return hands


def _bad_target(target: str | None) -> int | None:
    return check_target(target) if target else None


@bp.route("/games/<game_id>/delete", methods=["GET", "POST"])
# Deleting a game frees what a budget paid for, yet it is a write: a loop of them is one.
@budget("record_hand")
def delete_game(game_id: str) -> Page:
    if request.method == "POST":
        try:
            record = store.load_game(get_db(), game_id)
        except (store.NotFound, RuleError):
            forget(game_id)  # deleted already (a second tap): nothing more to do
            return redirect(url_for("games.home"), code=303)
    record = load_game(game_id)
    if store.night_of_table(get_db(), record.id) is not None:
        # A club night's table belongs to the night (its standings, its rounds): kept.
        flash(_("This game is a table of a club night: it stays with the night."))
        return redirect(url_for("games.scoreboard", game_id=record.id), code=303)
    if request.method == "GET":
        return confirm_page(record, "delete_game", sides=sides_view(record))
    with contextlib.suppress(store.NotFound):  # a second tap: already gone
        store.delete_game(get_db(), record.id)
    forget(record.id)
    flash(_("Game “%(name)s” deleted.", name=game_title(record)))
    return redirect(url_for("games.home"), code=303)
