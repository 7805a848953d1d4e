"""At the table: "is my meld enough to open?" (JSON and a plain form), and the rules of play.

The JSON endpoint and the form answer with the same core, scorer.core.meld; static/checker.js
repeats its few rules in the browser so the verdict follows each tap.
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, Response, jsonify

from scorer import store
from scorer.core.errors import N_, RuleError
from scorer.core.families import DEFAULT_FAMILY, FAMILIES, RuleFamily
from scorer.core.meld import (
    SEQUENCE_INPUTS,
    MeldCheck,
    MeldOptions,
    PlannedMeld,
    PlannedSequence,
    check_opening,
    parse_minimum,
    parse_rank,
    planned_meld,
    planned_sequence,
)
from scorer.core.rules import profile_of
from scorer.store import get_db
from scorer.web.api_contract import PayloadError, parse_game_id
from scorer.web.http import json_body
from scorer.web.i18n import error_text
from scorer.web.routes import budget

bp = Blueprint("checker", __name__)

FORM_ROWS = 6
MAX_MELDS = 20
HOUSE_RULES = ("wild_never_outnumber_naturals",)
BODY_KEYS = {
    "minimum",
    "game",
    "side",
    "melds",
    "house_rules",
    "going_out",
    "discard_top",
    "family",
    "hand",
    "sequences",
    "total",
}
# The games a table may choose, each checked by its own rules (Samba's and Bolivia's
# sequences too).
CHECKER_FAMILIES: dict[str, RuleFamily] = dict(FAMILIES)


def checker_family(key: Any) -> RuleFamily:
    """The family a check is made in (the default when not named)."""
    if key is None:
        return DEFAULT_FAMILY
    if isinstance(key, str) and key in CHECKER_FAMILIES:
        return CHECKER_FAMILIES[key]
    names = ", ".join(CHECKER_FAMILIES)
    raise RuleError(
        "family", N_("unknown game {key}; choose one of {names}"), key=str(key)[:40], names=names
    )


def lowest_minimum(family: RuleFamily) -> int:
    """A family's minimum for a side below its table's second row (50 in Classic at 0)."""
    rows = dict(family.minimums)
    return rows.get(0, rows[None])


def minimum_of_hand(family: RuleFamily, hand: Any) -> int:
    """The tournament rule's minimum for hand number ``hand`` (Modern American: 125, 155,
    180); refused at "hand" in a family without it."""
    if isinstance(hand, bool) or not isinstance(hand, int) or not 1 <= hand <= 1000:
        raise RuleError("hand", N_("must be a whole number from 1 to {high}"), high=1000)
    minimum = family.minimum_for_hand(hand)
    if minimum is None:
        raise RuleError("hand", N_("this game has no minimum by hand number"))
    return minimum


def minimum_of_total(family: RuleFamily, total: Any) -> int:
    """The minimum a side of this total before the hand needs, by the family's own table
    (Samba's 150 from 7 000); a game's house rules come with its game and side."""
    if isinstance(total, bool) or not isinstance(total, int) or abs(total) > TOTAL_MAX:
        raise RuleError(
            "total",
            N_("must be from {low} to {high} points"),
            low=-TOTAL_MAX,
            high=TOTAL_MAX,
        )
    return profile_of(family, family.seatings[0]).opening_minimum(total)


# A side's total the checker takes: ample for any game (targets stop far below).
TOTAL_MAX = 1_000_000
MELD_KEYS = {"rank", "naturals", "jokers", "twos"}


def minimum_of_game(game_id: str, side: int) -> tuple[int, RuleFamily]:
    """The opening minimum side n of a game needs for its next hand (from its total), and
    the game's family."""
    try:
        record = store.load_game(get_db(), game_id)
    except store.NotFound:
        raise store.NotFound(game_id, field="game") from None
    minimums = record.state.minimums
    if isinstance(side, bool) or not isinstance(side, int) or not 0 <= side < len(minimums):
        raise RuleError(
            "side", N_("must be a side of this game, from 0 to {last}"), last=len(minimums) - 1
        )
    return minimums[side], record.table.profile.family


def _flag(body: dict[str, Any], name: str) -> bool:
    value = body.get(name, False)
    if not isinstance(value, bool):
        raise RuleError(name, N_("must be true or false"))
    return value


def options_from_json(body: dict[str, Any], family: RuleFamily = DEFAULT_FAMILY) -> MeldOptions:
    rules = body.get("house_rules") or {}
    if not isinstance(rules, dict):
        raise RuleError("house_rules", N_("must be an object of house rules"))
    for key in rules:
        if key not in HOUSE_RULES:
            raise RuleError(f"house_rules.{key}", N_("is not a house rule this checker knows"))
    top = body.get("discard_top")
    return MeldOptions(
        wild_never_outnumber_naturals=_flag(rules, "wild_never_outnumber_naturals")
        if rules
        else False,
        going_out=_flag(body, "going_out"),
        discard_top=None if top is None else parse_rank("discard_top", top, family),
        rules=family.meld,
    )


def melds_from_json(value: Any, family: RuleFamily = DEFAULT_FAMILY) -> list[PlannedMeld]:
    if not isinstance(value, list) or len(value) > MAX_MELDS:
        raise RuleError("melds", N_("must be a list of at most {count} melds"), count=MAX_MELDS)
    melds = []
    for index, item in enumerate(value):
        if not isinstance(item, dict):
            raise RuleError(f"melds[{index}]", N_("must be an object with a rank and counts"))
        for key in item:
            if key not in MELD_KEYS:
                raise RuleError(f"melds[{index}].{key}", N_("is not a field of a meld"))
        if "naturals" not in item:
            raise RuleError(f"melds[{index}].naturals", N_("is required"))
        melds.append(
            planned_meld(
                index,
                item.get("rank"),
                item["naturals"],
                item.get("jokers", 0),
                item.get("twos", 0),
                family,
            )
        )
    return melds


def sequences_from_json(value: Any) -> list[PlannedSequence]:
    """The sequences of an opening (Samba, Bolivia): each its suit, first and last rank."""
    if value is None:
        return []
    if not isinstance(value, list) or len(value) > MAX_MELDS:
        raise RuleError(
            "sequences", N_("must be a list of at most {count} sequences"), count=MAX_MELDS
        )
    sequences = []
    for index, item in enumerate(value):
        if not isinstance(item, dict):
            raise RuleError(f"sequences[{index}]", N_("must be an object with a suit and ranks"))
        for key in item:
            if key not in SEQUENCE_INPUTS:
                raise RuleError(f"sequences[{index}].{key}", N_("is not a field of a sequence"))
        sequences.append(
            planned_sequence(
                index,
                item.get("suit"),
                item.get("first"),
                item.get("last"),
                item.get("jokers", 0),
                item.get("twos", 0),
            )
        )
    return sequences


def check_from_json(body: Any) -> MeldCheck:
    if not isinstance(body, dict):
        raise RuleError(None, N_("the body must be a JSON object"))
    for key in body:
        if key not in BODY_KEYS:
            raise RuleError(key, N_("is not a field of this request"))
    family = checker_family(body.get("family"))
    if "minimum" in body:
        minimum = parse_minimum(body["minimum"])
    elif "game" in body:
        minimum, family = minimum_of_game(parse_game_id(body["game"], "game"), body.get("side"))
        if body.get("family") not in (None, family.key):
            raise RuleError("family", N_("is not this game's"))
    elif "hand" in body:
        minimum = minimum_of_hand(family, body["hand"])
    elif "total" in body:
        minimum = minimum_of_total(family, body["total"])
    else:
        raise RuleError("minimum", N_("is required (or a game and a side)"))
    return check_opening(
        minimum,
        melds_from_json(body.get("melds"), family),
        options_from_json(body, family),
        family,
        sequences_from_json(body.get("sequences")),
    )


def check_json(check: MeldCheck) -> dict[str, Any]:
    """The verdict as the endpoint sends it (refused melds' points are not counted)."""
    return {
        "points": check.points,
        "minimum": check.minimum,
        "enough": check.enough,
        "short": check.short,
        "problems": [
            {
                "meld": p.meld,
                "field": p.field,
                "code": p.code,
                "error": error_text(p.as_error()),
            }
            for p in check.problems
        ],
        "melds": [
            {"points": points, "counted": counted}
            for points, counted in zip(check.meld_points, check.counted, strict=True)
        ],
        # Samba's and Bolivia's sequences, after the melds of one rank ([] without any).
        "sequences": [
            {"points": points, "counted": counted}
            for points, counted in zip(check.sequence_points, check.sequences_counted, strict=True)
        ],
    }


@bp.post("/api/opening-meld")
@budget("check_meld")
def opening_meld_api() -> Response:
    """Do these melds reach this minimum? Refused melds are named and not counted."""
    body = json_body()
    try:
        check = check_from_json(body)
    except RuleError as error:
        raise error.recast(PayloadError) from None  # a question it cannot read: 400, not 422
    return jsonify(check_json(check))
