"""Clubs' pages: create a club, its page (standings, records, charts), its roster, its QR code.

Every write is a POST form (CSRF) answered by a redirect; a refusal comes back with what was
typed and the message beside its box, like the games' forms.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime
from typing import Any

from flask import flash, redirect, render_template, request, url_for
from flask_babel import format_decimal, format_percent, ngettext
from flask_babel import gettext as _
from werkzeug.wrappers import Response

from scorer import store
from scorer.clubs.charts import charts, rating_charts
from scorer.clubs.forms import ClubRulesForm
from scorer.clubs.pages.blueprint import bp
from scorer.core.errors import RuleError
from scorer.core.rules import DEFAULT_PROFILE, VARIANTS
from scorer.core.stats import HeadToHead, Standing
from scorer.qr import qr_svg
from scorer.store import ClubBoard, board_cache, get_db, load_club_board
from scorer.web.addresses import absolute_url, svg_response
from scorer.web.failures import status_of
from scorer.web.forms import is_index, list_page
from scorer.web.game_setup import (
    RULE_CHOICES,
    RULE_NUMBERS,
    house_rules_data,
    profile_choices,
    target_choices,
    variant_rule_defaults,
)
from scorer.web.i18n import HOUSE_RULE_LABELS, day_month_text, error_text
from scorer.web.pages import Page, remember_club
from scorer.web.routes import budget, heavy_read

# Games listed on one page of a club (newest first; ?page= for older ones): the page costs
# the same for a club of 2 000 games as for one of 50.
GAMES_PER_PAGE = 50
# Boxes for the roster on the new-club form (more players are added on the club's page).
ROSTER_BOXES = 8


# --- words and numbers -----------------------------------------------------------------------


def this_year() -> str:
    return str(datetime.now(UTC).year)


def rate(value: float) -> str:
    return str(format_percent(value))


def per_hand(value: float) -> str:
    return str(format_decimal(round(value, 2), format="0.00"))


def day_month(iso: str) -> str:
    """ "30 November" in the reader's language."""
    try:
        moment = datetime.fromisoformat(iso)
    except ValueError:
        return iso
    return day_month_text(moment)


def streak_text(streak: int) -> str:
    if streak > 0:
        return ngettext("won %(num)s", "won %(num)s in a row", streak)
    if streak < 0:
        return ngettext("lost %(num)s", "lost %(num)s in a row", -streak)
    return "–"


def load_board(club_id: str) -> ClubBoard:
    return load_club_board(get_db(), club_id, this_year(), cache=board_cache())


def empty_standing(name: str) -> Standing:
    return Standing((name,), 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, None, None, 0)


def roster_standings(board: ClubBoard) -> list[Standing]:
    """Every roster player's standing (those without games too), best first."""
    by_name = {standing.name: standing for standing in board.stats.players}
    played = [s for s in board.stats.players if s.name in board.club.players]
    return played + [empty_standing(n) for n in board.club.players if n not in by_name]


def head_to_head_pairs(head: Sequence[HeadToHead]) -> list[HeadToHead]:
    """Each pair of players once (the first by name's view), alphabetically: a list reads at
    360 px where a players x players grid showed one column."""

    def key(h: HeadToHead) -> tuple[str, str]:
        return h.player.casefold(), h.opponent.casefold()

    return sorted((h for h in head if key(h)[0] < key(h)[1]), key=key)


# --- the club's page -------------------------------------------------------------------------


def club_page(club_id: str, status: int = 200, **forms: Any) -> Page:
    """The club's page; `forms` carries a refused form's typed values and messages."""
    board = load_board(club_id)
    newest_first = list(reversed(board.games))
    shown = list_page(len(newest_first), GAMES_PER_PAGE)
    remember_club(club_id)
    head = board.stats.head_to_head
    return (
        render_template(
            "clubs/club.html",
            board=board,
            club=board.club,
            standings=roster_standings(board),
            partnerships=board.stats.partnerships,
            pairs=head_to_head_pairs(head),
            records=board.stats.records,
            charts=charts(board.stats.series, board.club.players),
            rating_charts=rating_charts(board.stats.ratings.history, board.club.players),
            games=newest_first[shown.first : shown.end],
            page=shown.page,
            pages=shown.pages,
            first=shown.first,
            csv_parts=len(board.hand_parts()),
            rate=rate,
            per_hand=per_hand,
            day_month=day_month,
            streak_text=streak_text,
            forms=forms,
        ),
        status,
    )


@bp.get("/clubs/<club_id>")
@heavy_read
def club(club_id: str) -> Page:
    return club_page(club_id)


@bp.get("/clubs/<club_id>/qr.svg")
def club_qr(club_id: str) -> Response:
    store.load_club(get_db(), club_id)  # 404 when there is no such club
    return svg_response(qr_svg(absolute_url(f"/clubs/{club_id}")))


def back_to_club(club_id: str, anchor: str = "") -> Response:
    return redirect(url_for("clubs.club", club_id=club_id) + anchor, code=303)


# --- the roster ------------------------------------------------------------------------------


@bp.post("/clubs/<club_id>/players")
@budget("club_roster")
def add_player(club_id: str) -> Page:
    name = request.form.get("name", "")
    try:
        store.add_club_player(get_db(), club_id, name)
    except RuleError as error:
        return club_page(club_id, status_of(error), add={"value": name, "error": error_text(error)})
    flash(_("%(name)s joined the club.", name=name.strip()))
    return back_to_club(club_id, "#roster")


@bp.post("/clubs/<club_id>/players/rename")
@budget("club_roster")
def rename_player(club_id: str) -> Page:
    old, new = request.form.get("old", ""), request.form.get("name", "")
    try:
        store.rename_player(get_db(), club_id, old, new)
    except RuleError as error:
        typed = {"player": old, "value": new, "error": error_text(error)}
        return club_page(club_id, status_of(error), rename=typed)
    flash(_("%(old)s is now called %(new)s, in every game of the club.", old=old, new=new.strip()))
    return back_to_club(club_id, "#roster")


@bp.post("/clubs/<club_id>/players/remove")
@budget("club_roster")
def remove_player(club_id: str) -> Page:
    name = request.form.get("name", "")
    try:
        store.remove_player(get_db(), club_id, name)
    except RuleError as error:
        return club_page(
            club_id, status_of(error), remove={"player": name, "error": error_text(error)}
        )
    flash(_("%(name)s left the club.", name=name))
    return back_to_club(club_id, "#roster")


# --- a new club ------------------------------------------------------------------------------


def new_club_form(
    status: int = 200,
    error: str | None = None,
    field: str = "",
    rules: ClubRulesForm | None = None,
) -> Page:
    form = request.form
    players = form.getlist("players") if request.method == "POST" else []
    players = (players + [""] * ROSTER_BOXES)[:ROSTER_BOXES]
    rules = rules or ClubRulesForm(data=house_rules_data())
    return (
        render_template(
            "clubs/new.html",
            name=form.get("name", ""),
            players=players,
            profile=form.get("profile", DEFAULT_PROFILE),
            target=form.get("target", ""),
            profiles=profile_choices(VARIANTS),  # every family's seatings: its game too
            targets=target_choices(),
            error=error,
            error_field=field,
            rules_form=rules,
            # The editor follows the usual variant chosen (the script swaps its boxes).
            defaults=variant_rule_defaults(),
            rules_open=field == "rules" or any(f.errors for f in _rule_fields(rules)),
        ),
        status,
    )


def _rule_fields(rules: ClubRulesForm) -> list[Any]:
    rows = [f for entry in rules.minimums.entries for f in (entry.form.start, entry.form.minimum)]
    return [rules[key] for key in RULE_NUMBERS + RULE_CHOICES] + rows


def typed_settings(rules: ClubRulesForm | None = None) -> dict[str, Any]:
    settings: dict[str, Any] = {"profile": request.form.get("profile") or None}
    target = request.form.get("target", "")
    # Short ASCII digits only: int() of 5 000 digits raises (Python's conversion limit).
    settings["target"] = int(target) if is_index(target) else target or None
    if rules is not None:
        settings["rules"] = rules.house_rules() or None
    return settings


def place_rules_error(rules: ClubRulesForm, error: RuleError) -> bool:
    """Put a refusal of the club's house rules under its input; False when it is not one."""
    field = error.field or ""
    if not field.startswith("settings.rules"):
        return False
    key = field.removeprefix("settings.rules.")
    message = error_text(error)
    if key.startswith("minimums"):
        label = HOUSE_RULE_LABELS["minimums"]
        rules.minimums_error = _("%(label)s: %(message)s", label=label, message=message)
        return True
    if key in RULE_NUMBERS + RULE_CHOICES:
        target = rules[key]
        target.errors = [_("%(label)s: %(message)s", label=target.label.text, message=message)]
        return True
    return False


@bp.route("/clubs/new", methods=["GET", "POST"])
@budget("create_club")
def new_club() -> Page:
    if request.method == "GET":
        return new_club_form()
    rules = ClubRulesForm(request.form)
    if not rules.validate():
        # A house rule that is not a whole number: refused at its input, nothing saved.
        return new_club_form(400, _("a house rule needs a whole number"), "rules", rules)
    players = [p for p in request.form.getlist("players")[:ROSTER_BOXES] if p.strip()]
    try:
        club_id = store.create_club(
            get_db(),
            name=request.form.get("name", ""),
            players=players,
            settings=typed_settings(rules),
        )
    except RuleError as error:
        if place_rules_error(rules, error):
            return new_club_form(422, error_text(error), "rules", rules)
        return new_club_form(
            422, error_text(error), roster_field(error.field or "", players), rules
        )
    remember_club(club_id)
    flash(_("Club created. Start its first game from here."))
    return back_to_club(club_id)


def roster_field(field: str, players: list[str]) -> str:
    """The box a refusal points at: "players[2]" is the third non-empty box typed."""
    if field.startswith("players[") and field.endswith("]"):
        index = field[8:-1]
        if index.isdigit() and int(index) < len(players):
            typed = [i for i, p in enumerate(request.form.getlist("players")) if p.strip()]
            return f"players-{typed[int(index)]}"
    return field.replace(".", "-")
