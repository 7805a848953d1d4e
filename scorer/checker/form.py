"""The checker as a plain form answered by the server, and the rules of play.

Reached from a side's minimum on the scoreboard (``?game=<id>&side=<n>``): the page then
starts from that side's minimum, names the side and links back to the game.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from flask import render_template, request
from flask_babel import gettext

from scorer import store
from scorer.checker.api import CHECKER_FAMILIES, FORM_ROWS, bp, checker_family, lowest_minimum
from scorer.checker.rulebook import family_label, other_families
from scorer.core.errors import N_, RuleError
from scorer.core.families import DEFAULT_FAMILY, WILD_RANK, RuleFamily
from scorer.core.meld import (
    REASONS,
    MeldCheck,
    MeldOptions,
    PlannedMeld,
    check_opening,
    parse_minimum,
    parse_rank,
    planned_meld,
)
from scorer.core.rules import PROFILES
from scorer.web import display, failures
from scorer.web.forms import is_index
from scorer.web.i18n import error_text, number
from scorer.web.routes import budget


@dataclass(frozen=True)
class SideAtTable:
    """The side whose minimum the checker was opened from."""

    game_id: str
    index: int
    name: str
    minimum: int
    family: RuleFamily


def side_at_table(values: Any) -> SideAtTable | None:
    """The game and side named in the address, if any (404 when either is unknown)."""
    game_id = values.get("game")
    if not game_id:
        return None
    record = failures.load_game(game_id)
    text = (values.get("side") or "").strip()
    if not is_index(text) or int(text) >= len(record.table.sides):
        raise store.NotFound(game_id, N_("no side of this game at this address"))
    index = int(text)
    return SideAtTable(
        game_id=record.id,
        index=index,
        name=display.side_label(record.table.sides[index], index),
        minimum=record.state.minimums[index],
        family=record.table.profile.family,
    )


# --- the page without JavaScript -----------------------------------------------------------


# Each row starts at a rank of its own, the high ones first (a table melds them most).
ROW_RANKS = ("A", "K", "Q", "J", "10", "9", "8", "7", "6", "5", "4")


@dataclass
class Row:
    """One row of the form: what was typed, and what the server says of it."""

    index: int
    rank: str = "K"
    naturals: str = ""
    jokers: str = ""
    twos: str = ""
    points: int | None = None
    counted: bool = True
    errors: tuple[str, ...] = ()

    @property
    def empty(self) -> bool:
        return not any(v.strip() not in ("", "0") for v in (self.naturals, self.jokers, self.twos))


def _count_of(row: Row, name: str) -> int:
    text = getattr(row, name).strip()
    if not text:
        return 0
    # ASCII digits only, and short: "²" and "①" are digits to Python but no number to int().
    if not is_index(text):
        raise RuleError(
            f"melds[{row.index}].{name}", N_("must be a whole number from 0 to {high}"), high=12
        )
    return int(text)


def _form_minimum(text: str | None, default: int) -> tuple[int, str | None]:
    if text is None or not text.strip():
        return default, None
    try:
        return parse_minimum(int(text.strip()) if is_index(text.strip()) else text), None
    except RuleError as error:
        return default, error_text(error)


@bp.route("/check-meld", methods=["GET", "POST"])
@budget("check_meld", methods=("GET", "POST"))
def check_meld_page() -> tuple[str, int]:
    """The checker as a plain form: the server answers each submission.

    A minimum or a count that cannot be read is answered 422, the form as it was typed
    with the error beside the field; a meld the rules refuse is a verdict (200).
    """
    values = request.form if request.method == "POST" else request.args
    side = side_at_table(values)
    family, family_error = _form_family(values.get("family"))
    if side:
        family = side.family
    default = side.minimum if side else lowest_minimum(family)
    minimum, minimum_error = _form_minimum(values.get("minimum"), default)
    rows = [
        Row(
            index=i,
            rank=values.get(f"rank-{i}", ROW_RANKS[i % len(ROW_RANKS)]),
            naturals=values.get(f"naturals-{i}", ""),
            jokers=values.get(f"jokers-{i}", ""),
            twos=values.get(f"twos-{i}", ""),
        )
        for i in range(FORM_ROWS)
    ]
    top = values.get("discard_top") or None
    check = None
    if request.method == "POST" and family_error is None:
        check = _check_rows(minimum, rows, values, top, family)
    unreadable = (
        minimum_error is not None
        or family_error is not None
        or (check is None and any(row.errors for row in rows))
    )
    threes = ("3",) if family.meld.black_threes_going_out else ()
    page = render_template(
        "checker/meld.html",
        side=side,
        rows=rows,
        # A red three is never melded (rule 4): rows offer the ranks a meld can be of.
        ranks=_rank_choices((*family.meld_ranks, *threes)),
        tops=display.rank_choices((*family.ranks, "3", "red-3")),
        family=family,
        families=[(key, family_label(key)) for key in CHECKER_FAMILIES],
        family_error=family_error,
        # The page's script repeats the default family's rules only: another family's
        # verdict comes from the server at each "Count".
        live=family is DEFAULT_FAMILY,
        minimum=minimum,
        minimum_error=minimum_error,
        check=check,
        verdict=verdict_text(check) if check else None,
        top=top,
        wild_rule=bool(values.get("wild_rule")),
        going_out=bool(values.get("going_out")),
        top_error=_top_error(check),
        opening_errors=opening_errors(check),
        reasons={code: error_text(RuleError(None, template)) for code, template in REASONS.items()},
    )
    return page, 422 if unreadable else 200


def _rank_choices(ranks: tuple[str, ...]) -> list[tuple[str, str]]:
    """The rows' ranks in the reader's words, a meld of wild cards only included."""
    words = {WILD_RANK: gettext("Wild cards only")}
    return [(value, words.get(value, label)) for value, label in display.rank_choices(ranks)]


def _form_family(text: str | None) -> tuple[RuleFamily, str | None]:
    try:
        return checker_family(text or None), None
    except RuleError as error:
        return DEFAULT_FAMILY, error_text(error)


def _check_rows(
    minimum: int, rows: list[Row], values: Any, top: str | None, family: RuleFamily
) -> MeldCheck | None:
    """Check the rows that hold cards; a row that cannot be read gets its error instead."""
    melds: list[PlannedMeld] = []
    used: list[Row] = []
    unreadable = False
    for row in rows:
        if row.empty:
            continue
        try:
            counts = [_count_of(row, name) for name in ("naturals", "jokers", "twos")]
            meld = planned_meld(row.index, row.rank, *counts, family=family)
        except RuleError as error:
            row.errors = (error_text(error),)
            unreadable = True
            continue
        melds.append(meld)
        used.append(row)
    try:
        discard_top = None if top is None else parse_rank("discard_top", top, family)
    except RuleError:
        discard_top = None
    options = MeldOptions(
        wild_never_outnumber_naturals=bool(values.get("wild_rule")),
        going_out=bool(values.get("going_out")),
        discard_top=discard_top,
        rules=family.meld,
    )
    if unreadable:
        return None
    check = check_opening(minimum, melds, options, family)
    for position, row in enumerate(used):
        row.points = check.meld_points[position]
        row.counted = check.counted[position]
        row.errors = tuple(error_text(p.as_error()) for p in check.problems if p.meld == position)
    return check


def _top_error(check: MeldCheck | None) -> str | None:
    if check is None:
        return None
    found = [error_text(p.as_error()) for p in check.problems if p.field == "discard_top"]
    return found[0] if found else None


def opening_errors(check: MeldCheck | None) -> list[str]:
    """What the opening as a whole lacks (Modern American's natural triple)."""
    if check is None:
        return []
    return [error_text(p.as_error()) for p in check.problems if p.field == "melds"]


def verdict_text(check: MeldCheck) -> str:
    """ "85 of 90: 5 short", or "95: you can open"."""
    if check.enough:
        return gettext("%(points)s: you can open", points=number(check.points))
    return gettext(
        "%(points)s of %(minimum)s: %(short)s short",
        points=number(check.points),
        minimum=number(check.minimum),
        short=number(check.short),
    )


# --- the rules of play ---------------------------------------------------------------------


@bp.get("/rules/play")
def rules_of_play() -> str:
    """How to play Canasta, section by section, in our own words."""
    return render_template(
        "rules/play.html", profiles=list(PROFILES.values()), families=other_families()
    )
