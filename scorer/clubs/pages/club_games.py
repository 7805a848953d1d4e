"""Games and clubs: a new game from a club's roster, filing an existing game into a club.

Both work without JavaScript: the sides are picked with selects (roster names) beside a box
for a new name; a filing the club cannot match alone comes back with the question.
"""

from __future__ import annotations

import re
from typing import Any

from flask import flash, redirect, render_template, request, url_for
from flask_babel import gettext as _
from werkzeug.datastructures import MultiDict

from scorer import store
from scorer.clubs.pages.blueprint import bp
from scorer.clubs.pages.clubs import club_page
from scorer.core.errors import N_, RuleError
from scorer.core.families import get_family
from scorer.core.game import Side
from scorer.core.limits import check_game, check_name, check_target, default_side_name
from scorer.core.rules import RuleProfile, get_profile, profiles_of, with_house_rules
from scorer.core.seatings import Seating, seatings_of
from scorer.store import get_db
from scorer.web import display
from scorer.web.failures import status_of
from scorer.web.forms import is_index
from scorer.web.game_setup import (
    FORM_PLAYERS,
    FORM_SIDES,
    profile_choices,
    seat_boxes,
    seating_choices,
    target_choices,
    usual_target,
)
from scorer.web.i18n import error_text
from scorer.web.pages import Page, remember, remember_club
from scorer.web.routes import budget

GAME_ADDRESS = re.compile(r"(?:^|/games/)([A-Za-z0-9_-]{8,64})/?(?:[?#].*)?$")


def club_variants(club: store.StoredClub) -> dict[str, RuleProfile]:
    """The variants a club's New game page offers: the seatings of the club's own game (a
    Modern American club's are Modern American's)."""
    return profiles_of(get_family(club.family))


def _variant(variants: dict[str, RuleProfile], key: str) -> RuleProfile:
    """The variant named key, or the first of these when key names none of them."""
    return variants.get(key) or next(iter(variants.values()))


def club_seating(data: MultiDict, variants: dict[str, RuleProfile]) -> Seating:
    """The seating asked for, among the chosen variant's (its first when unknown)."""
    choices = seatings_of(_variant(variants, data.get("profile", "")))
    return next((s for s in choices if s.key == data.get("seating")), choices[0])


def seating_of(
    profile_key: str, sides: list[tuple[str, ...]], variants: dict[str, RuleProfile]
) -> str:
    """The key of the variant's seating these sides sit in ("" when none fits)."""
    sizes = tuple(len(players) for players in sides)
    seatings = seatings_of(_variant(variants, profile_key))
    return next((s.key for s in seatings if s.team_sizes == sizes), "")


def seat_defaults(club: store.StoredClub) -> MultiDict:
    """The boxes' first values: the sides of the club's latest game, else the roster in order;
    the variant and seating asked in the address (the form without JavaScript) come first."""
    data: MultiDict = MultiDict()
    sides: list[tuple[str, ...]] = []
    if club.game_ids:
        try:
            latest = store.load_game(get_db(), club.game_ids[-1])
            sides = [side.players for side in latest.state.table.sides]
        except RuleError:
            sides = []
    if not sides:
        roster = list(club.players)
        sides = [tuple(roster[0:2]), tuple(roster[2:4])]
    for i, players in enumerate(sides[:FORM_SIDES]):
        for k, player in enumerate(players[:FORM_PLAYERS]):
            data[f"side-{i}-player-{k}"] = player
    settings = club.settings
    variants = club_variants(club)
    data["profile"] = _variant(variants, settings.get("profile", "")).key
    data["target"] = str(settings.get("target", ""))
    data["seating"] = seating_of(data["profile"], sides, variants)
    if request.args.get("profile") in variants:
        data["profile"] = request.args["profile"]
        data["seating"] = request.args.get("seating", "")
    return data


def typed_sides(variants: dict[str, RuleProfile]) -> list[Side]:
    """The sides picked: a new name typed beats the select beside it; empty seats are skipped.
    With a seating (the form sends one), only the boxes it shows are read."""
    sides: list[Side] = []
    seating = club_seating(request.form, variants) if request.form.get("seating") else None
    for i in range(FORM_SIDES):
        players: list[str] = []
        seats = FORM_PLAYERS
        if seating is not None:
            seats = seating.team_sizes[i] if i < seating.sides else 0
        for k in range(seats):
            field = f"sides[{i}].players[{k}]"
            new = request.form.get(f"side-{i}-new-{k}", "").strip()
            picked = request.form.get(f"side-{i}-player-{k}", "").strip()
            name = check_name(new, field, required=True) if new else picked
            if name:
                players.append(name)
        if players:
            sides.append(Side(default_side_name(tuple(players), len(sides)), tuple(players)))
    if len(sides) < 2:
        raise RuleError("sides", N_("enter the players of at least two sides"))
    return sides


def typed_target() -> int | None:
    target = request.form.get("target", "")
    if not target:
        return None
    return check_target(int(target) if is_index(target) else target)


def preset_lines(club: store.StoredClub) -> list[tuple[str, str]]:
    """The club's own house rules (its preset for new games), as (label, value) lines."""
    rules = club.settings.get("rules")
    if not rules:
        return []
    profile = with_house_rules(get_profile(club.settings.get("profile"), club.family), rules)
    return display.house_rule_lines(profile)


def new_game_page(
    club: store.StoredClub, data: MultiDict, status: int = 200, error: str | None = None
) -> Page:
    variants = club_variants(club)
    seating = club_seating(data, variants)
    targets = target_choices()
    targets[0] = ("", usual_target(seating))
    return (
        render_template(
            "clubs/new_game.html",
            club=club,
            preset=preset_lines(club),
            data=data,
            seating=seating,
            seatings=seating_choices(variants),
            boxes=seat_boxes(),
            profiles=profile_choices(variants),
            targets=targets,
            error=error,
        ),
        status,
    )


@bp.route("/clubs/<club_id>/games/new", methods=["GET", "POST"])
@budget("create_game")
def new_club_game(club_id: str) -> Page:
    club = store.load_club(get_db(), club_id)
    if request.method == "GET":
        return new_game_page(club, seat_defaults(club))
    if request.form.get("show"):
        # "Show the boxes for this seating" without JavaScript: the same form, nothing saved.
        return new_game_page(club, request.form)
    name = request.form.get("name", "").strip()
    try:
        sides = typed_sides(club_variants(club))
        check_game(name, sides)
        arguments: dict[str, Any] = {
            "name": name or None,
            "profile_key": request.form.get("profile") or None,
            "target": typed_target(),
            "house_rules": None,
            "sides": sides,
            "first_dealer": None,
        }
        game_id = store.create_club_game(get_db(), club_id, arguments)
    except RuleError as error:
        return new_game_page(club, request.form, status_of(error), error_text(error))
    remember(game_id)
    remember_club(club_id)
    flash(_("Game started. Good luck!"))
    return redirect(url_for("games.scoreboard", game_id=game_id), code=303)


# --- filing a game ---------------------------------------------------------------------------


def game_id_of(text: str) -> str | None:
    """The game id in a pasted address ("https://…/games/<id>") or the id itself."""
    found = GAME_ADDRESS.search(text.strip())
    return found.group(1) if found else None


def typed_answers() -> dict[str, str]:
    """The table's answers to the questions: a roster name picked, or a new name typed."""
    answers: dict[str, str] = {}
    for index, asked in enumerate(request.form.getlist("asked")):
        new = request.form.get(f"answer-new-{index}", "").strip()
        picked = request.form.get(f"answer-{index}", "").strip()
        if new or picked:
            answers[asked] = new or picked
    return answers


@bp.post("/clubs/<club_id>/file")
@budget("club_roster")
def file_game(club_id: str) -> Page:
    typed = request.form.get("game", "")
    game_id = game_id_of(typed)
    form: dict[str, Any] = {"value": typed}
    try:
        if game_id is None:
            raise RuleError("game", N_("paste the game's address or its id"))
        store.file_game(get_db(), club_id, game_id, typed_answers() or None)
    except store.ClubNotFound:
        raise  # no club: the 404 page
    except store.NotFound:
        form["error"] = _("No game at this address.")
        return club_page(club_id, 404, file=form)
    except store.Ambiguous as error:
        # A question, not a fault: asked in its own calm style (no red, no "nothing saved").
        form["questions"] = error.questions
        form["ask"] = error_text(error)
        return club_page(club_id, 409, file=form)
    except RuleError as error:
        form["error"] = error_text(error)
        return club_page(club_id, status_of(error), file=form)
    flash(_("The game is filed in this club."))
    return redirect(url_for("clubs.club", club_id=club_id) + "#games", code=303)
