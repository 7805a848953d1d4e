"""What a request to make a night may say, read and checked (the limits are scorer.core.limits)."""

from __future__ import annotations

from typing import Any

from scorer.core.draw import MODES, ODD_CHOICES
from scorer.core.errors import N_, RuleError
from scorer.core.leaderboard import RANKINGS
from scorer.core.limits import (
    check_club_name,
    check_fixed_hands,
    check_night_players,
    check_night_rounds,
    check_target,
    same_name,
)
from scorer.store import NightSettings
from scorer.web.api_contract import PayloadError

NIGHT_FIELDS = frozenset({"players", "rounds", "round", "draw", "ranking", "odd"})
ROUND_FIELDS = frozenset({"fixed_hands", "target"})


def parse_night(data: Any) -> tuple[list[str], NightSettings]:
    """The players present and the night's settings from a POST .../nights body."""
    if not isinstance(data, dict):
        raise PayloadError(None, N_("must be a JSON object"))
    unknown = sorted(set(data) - NIGHT_FIELDS)
    if unknown:
        raise PayloadError(unknown[0][:100], N_("is not a field this address takes"))
    players = data.get("players")
    if not isinstance(players, list):
        raise PayloadError("players", N_("must be a list of names"))
    check_night_players(len(players))
    names = [check_club_name(name, f"players[{k}]") for k, name in enumerate(players)]
    for k, name in enumerate(names):
        if any(same_name(name, other) for other in names[:k]):
            raise RuleError(f"players[{k}]", N_("each player needs a different name"))
    end = data.get("round", {"target": None})
    if not isinstance(end, dict):
        raise PayloadError("round", N_("must be a JSON object"))
    unknown = sorted(set(end) - ROUND_FIELDS)
    if unknown:
        raise PayloadError(f"round.{unknown[0]}"[:100], N_("is not a field this address takes"))
    if "fixed_hands" in end and "target" in end:
        raise RuleError(
            "round", N_("a game plays to a target or a number of hands: send one of them")
        )
    fixed = end.get("fixed_hands")
    target = end.get("target")
    return names, NightSettings(
        rounds=check_night_rounds(data.get("rounds")),
        fixed_hands=None if fixed is None else check_fixed_hands(fixed, "round.fixed_hands"),
        target=None if target is None else _target(target),
        draw=_choice(data, "draw", MODES),
        ranking=_choice(data, "ranking", RANKINGS),
        odd=_choice(data, "odd", ODD_CHOICES),
    )


def _target(target: Any) -> int:
    try:
        return check_target(target)
    except RuleError as error:
        raise RuleError("round.target", error.template, **error.params) from error


def _choice(data: dict[str, Any], key: str, choices: tuple[str, ...]) -> str:
    value = data.get(key, choices[0])
    if value not in choices:
        raise RuleError(key, N_("must be one of {choices}"), choices=", ".join(choices))
    return str(value)


def parse_name(data: Any) -> str:
    """A late arrival's name from a POST .../players body."""
    if not isinstance(data, dict) or set(data) != {"name"}:
        raise PayloadError("name", N_('send the new player\'s name, and only it, in "name"'))
    return check_club_name(data["name"], "name")
