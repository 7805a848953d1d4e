"""At the table: "is my meld enough to open?" (JSON and a plain form), and the rules of play.

The JSON endpoint and the form answer with the same core, scorer.core.meld; static/checker.js
repeats its few rules in the browser so the verdict follows each tap.
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, Response, jsonify

from scorer import store
from scorer.core.errors import N_, RuleError
from scorer.core.meld import (
    MeldCheck,
    MeldOptions,
    PlannedMeld,
    check_opening,
    parse_minimum,
    parse_rank,
    planned_meld,
)
from scorer.store import get_db
from scorer.web.api_contract import PayloadError, parse_game_id
from scorer.web.http import json_body
from scorer.web.i18n import error_text
from scorer.web.routes import budget

bp = Blueprint("checker", __name__)

FORM_ROWS = 6
DEFAULT_MINIMUM = 50
MAX_MELDS = 20
HOUSE_RULES = ("wild_never_outnumber_naturals",)
BODY_KEYS = {"minimum", "game", "side", "melds", "house_rules", "going_out", "discard_top"}
MELD_KEYS = {"rank", "naturals", "jokers", "twos"}


def minimum_of_game(game_id: str, side: int) -> int:
    """The opening minimum side n of a game needs for its next hand (from its total)."""
    try:
        record = store.load_game(get_db(), game_id)
    except store.NotFound:
        raise store.NotFound(game_id, field="game") from None
    minimums = record.state.minimums
    if isinstance(side, bool) or not isinstance(side, int) or not 0 <= side < len(minimums):
        raise RuleError(
            "side", N_("must be a side of this game, from 0 to {last}"), last=len(minimums) - 1
        )
    return minimums[side]


def _flag(body: dict[str, Any], name: str) -> bool:
    value = body.get(name, False)
    if not isinstance(value, bool):
        raise RuleError(name, N_("must be true or false"))
    return value


def options_from_json(body: dict[str, Any]) -> MeldOptions:
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
        discard_top=None if top is None else parse_rank("discard_top", top),
    )


def melds_from_json(value: Any) -> list[PlannedMeld]:
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
            )
        )
    return melds


def check_from_json(body: Any) -> MeldCheck:
    if not isinstance(body, dict):
        raise RuleError(None, N_("the body must be a JSON object"))
    for key in body:
        if key not in BODY_KEYS:
            raise RuleError(key, N_("is not a field of this request"))
    if "minimum" in body:
        minimum = parse_minimum(body["minimum"])
    elif "game" in body:
        minimum = minimum_of_game(parse_game_id(body["game"], "game"), body.get("side"))
    else:
        raise RuleError("minimum", N_("is required (or a game and a side)"))
    return check_opening(minimum, melds_from_json(body.get("melds")), options_from_json(body))


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
