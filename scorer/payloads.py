"""JSON shapes of the API: reading requests (type checks) and writing games."""

from __future__ import annotations

from typing import Any

from scorer.errors import N_, RuleError
from scorer.game import Side
from scorer.hands import CardCounts, Hand, SideHand
from scorer.rules import VALUE_GROUPS, effective_rules
from scorer.store import GameRecord, side_to_dict

NAME_MAX = 40
PLAYERS_MAX = 6
SIDES_MAX = 6


class PayloadError(RuleError):
    """A request of the wrong shape or type (HTTP 400), as opposed to a broken rule (422)."""


def _type_error(field: str | None, template: str, **params: Any) -> PayloadError:
    return PayloadError(field, template, **params)


def _object(value: Any, field: str | None) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise _type_error(field, N_("must be a JSON object"))
    return value


def _int(value: Any, field: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise _type_error(field, N_("must be a whole number"))
    return value


def _optional_int(data: dict[str, Any], key: str, field: str, default: int = 0) -> int:
    value = data.get(key)
    return default if value is None else _int(value, field)


def _name(value: Any, field: str, *, required: bool) -> str:
    if value is None and not required:
        return ""
    if not isinstance(value, str):
        raise _type_error(field, N_("must be text"))
    value = value.strip()
    if not 1 <= len(value) <= NAME_MAX:
        if not value and not required:
            return ""
        raise RuleError(field, N_("must be 1 to {max} characters"), max=NAME_MAX)
    return value


def parse_game(data: Any) -> dict[str, Any]:
    """Arguments for store.create_game from a POST /api/games body."""
    data = _object(data, None)
    profile = data.get("profile")
    if profile is not None and not isinstance(profile, str):
        raise _type_error("profile", N_("must be text"))
    target = data.get("target")
    if target is not None:
        target = _int(target, "target")
    rules = data.get("rules")
    if rules is not None:
        rules = _object(rules, "rules")
    first_dealer = data.get("first_dealer")
    if first_dealer is not None and not isinstance(first_dealer, str):
        raise _type_error("first_dealer", N_("must be text"))
    raw_sides = data.get("sides")
    if not isinstance(raw_sides, list):
        raise _type_error("sides", N_("must be a list of sides"))
    if not 2 <= len(raw_sides) <= SIDES_MAX:
        raise RuleError("sides", N_("a game has 2 to {max} sides"), max=SIDES_MAX)
    return {
        "name": _name(data.get("name"), "name", required=False),
        "profile_key": profile,
        "target": target,
        "sides": [_side(raw, i) for i, raw in enumerate(raw_sides)],
        "first_dealer": first_dealer,
        "house_rules": rules,
    }


def _side(raw: Any, index: int) -> Side:
    path = f"sides[{index}]"
    raw = _object(raw, path)
    players = raw.get("players")
    if not isinstance(players, list):
        raise _type_error(f"{path}.players", N_("must be a list of names"))
    if not 1 <= len(players) <= PLAYERS_MAX:
        raise RuleError(f"{path}.players", N_("a side has 1 to {max} players"), max=PLAYERS_MAX)
    names = tuple(
        _name(player, f"{path}.players[{k}]", required=True) for k, player in enumerate(players)
    )
    name = _name(raw.get("name"), f"{path}.name", required=False)
    return Side(name or default_side_name(names, index), names)


def default_side_name(players: tuple[str, ...], index: int) -> str:
    """A side without a name is called by its players ("Ann & Bob")."""
    return " & ".join(players)[:NAME_MAX] or f"Side {index + 1}"


def _cards(value: Any, field: str) -> CardCounts:
    data = _object(value, field)
    unknown = set(data) - set(VALUE_GROUPS)
    if unknown:
        raise _type_error(
            f"{field}.{sorted(unknown)[0]}", N_("is not a card group (jokers, twenty, ten, five)")
        )
    return CardCounts(**{g: _optional_int(data, g, f"{field}.{g}") for g in VALUE_GROUPS})


def _side_hand(raw: Any, index: int) -> SideHand:
    path = f"sides[{index}]"
    data = _object(raw, path)
    meld_cards = data.get("meld_cards")
    hand_cards = data.get("hand_cards")
    return SideHand(
        meld_points=_optional_int(data, "meld_points", f"{path}.meld_points"),
        natural_canastas=_optional_int(data, "natural_canastas", f"{path}.natural_canastas"),
        mixed_canastas=_optional_int(data, "mixed_canastas", f"{path}.mixed_canastas"),
        red_threes=_optional_int(data, "red_threes", f"{path}.red_threes"),
        hand_points=_optional_int(data, "hand_points", f"{path}.hand_points"),
        meld_cards=None if meld_cards is None else _cards(meld_cards, f"{path}.meld_cards"),
        hand_cards=None if hand_cards is None else _cards(hand_cards, f"{path}.hand_cards"),
    )


def parse_hand(data: Any) -> Hand:
    """A Hand from an API body (shape and types only; the rules engine judges the rest)."""
    data = _object(data, None)
    went_out = data.get("went_out")
    if went_out is not None:
        went_out = _int(went_out, "went_out")
    concealed = data.get("concealed", False)
    if not isinstance(concealed, bool):
        raise _type_error("concealed", N_("must be true or false"))
    sides = data.get("sides")
    if not isinstance(sides, list):
        raise _type_error("sides", N_("must be a list with one entry per side"))
    if len(sides) > SIDES_MAX:
        raise RuleError("sides", N_("a game has 2 to {max} sides"), max=SIDES_MAX)
    return Hand(
        sides=tuple(_side_hand(raw, i) for i, raw in enumerate(sides)),
        went_out=went_out,
        concealed=concealed,
    )


def game_to_json(record: GameRecord) -> dict[str, Any]:
    """The game as the API returns it (the exact contract of the API)."""
    state = record.state
    profile = record.table.profile
    return {
        "id": record.id,
        "name": record.name,
        "profile": profile.key,
        "target": profile.target,
        "rules": effective_rules(profile),
        "house_rules": list(profile.house_rules),
        "version": record.version,
        "created_at": record.created_at,
        "sides": [
            {
                "name": side.name,
                "players": list(side.players),
                "total": state.totals[i],
                "opening_minimum": state.minimums[i],
            }
            for i, side in enumerate(record.table.sides)
        ],
        "hands": [
            {
                "number": result.number,
                "went_out": result.hand.went_out,
                "concealed": result.hand.concealed,
                "dealer": result.dealer,
                "sides": [
                    {
                        **side_to_dict(side),
                        "score": {
                            "cards": score.cards,
                            "canastas": score.canastas,
                            "red_threes": score.red_threes,
                            "going_out": score.going_out,
                            "hand": score.hand,
                            "total": score.total,
                        },
                        "opening_minimum": result.minimums[i],
                        "running_total": result.totals[i],
                    }
                    for i, (side, score) in enumerate(
                        zip(result.hand.sides, result.scores, strict=True)
                    )
                ],
            }
            for result in state.results
        ],
        "dealer_next": state.dealer_next,
        "sitting_out_next": list(state.sitting_out_next),
        "winner": state.winner,
        "tied": state.tied,
        "finished": state.finished,
    }
