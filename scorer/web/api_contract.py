"""The API's contract: what a request body may hold (its whitelists and types), the 400 and
428 refusals, and the game as the API answers it.

A side's hand is read by the hand schema (scorer.core.hand_schema): this module checks the
JSON types of its fields, the schema makes the hand. The store keeps only storage (its rows
and the export format, scorer.store.game_json).
"""

from __future__ import annotations

import json
import re
from datetime import UTC, datetime
from typing import Any

from scorer.core import hand_schema
from scorer.core.errors import N_, RuleError, ScorerError
from scorer.core.families import DEFAULT_FAMILY, RuleFamily, get_family
from scorer.core.game import Side
from scorer.core.hand_schema import (
    CARDS,
    CHOICE,
    COUNTS_BY_KIND,
    MELDS,
    NOTE,
    SEQUENCES,
    canasta_fields,
    check_hand_size,
    decided_by_melds,
    field_names,
    side_fields,
    side_hand,
    side_values,
    top_name,
    value_of,
)
from scorer.core.hands import CardCounts, Hand, SideHand, SideScore, score_parts
from scorer.core.irregular import CONFIRMABLE
from scorer.core.limits import (
    MAX_HANDS_PER_GAME,
    SIDES_MAX,
    check_adjustment_note,
    check_correction_count,
    check_fixed_hands,
    check_hand_count,
    check_name,
    check_player_count,
    check_side_count,
    default_side_name,
)
from scorer.core.meld import (
    SEQUENCE_INPUTS,
    PlannedMeld,
    PlannedSequence,
    planned_meld,
    planned_sequence,
    side_melds_at_most,
    side_sequences_at_most,
)
from scorer.core.rules import VALUE_GROUPS, effective_rules
from scorer.store import ReplayedGame
from scorer.store.corrections import KINDS, SCREENS
from scorer.store.db import is_rfc3339
from scorer.store.game_json import EXPORT_FORMAT, EXPORT_VERSION

# What a client may send. Fields the API itself writes (scores, totals, numbers) are
# accepted and ignored, so a hand read from a game can be sent back as it is; any other
# field is refused, because a misspelt one ("meld_point") would silently count as 0.
GAME_FIELDS = frozenset(
    {"name", "family", "profile", "target", "fixed_hands", "first_dealer", "sides", "rules"}
)
SIDE_FIELDS = frozenset({"name", "players"})
SIDE_OUTPUT_FIELDS = frozenset({"total", "opening_minimum"})
HAND_FIELDS = frozenset({"went_out", "concealed", "sides", "confirm"})
HAND_OUTPUT_FIELDS = frozenset({"number", "dealer", "irregular", "after_end"})
# A side's hand: the hand schema's fields of the default family (each game's own are read
# with it). Fields the melds decide when they are given rank by rank: sending both is refused.
SIDE_HAND_FIELDS = field_names(DEFAULT_FAMILY)
MELD_FIELDS = decided_by_melds(DEFAULT_FAMILY)
PLANNED_MELD_FIELDS = frozenset(hand_schema.PLANNED_MELD_FIELDS)
# A sequence (Samba, Bolivia): its suit, first and last rank, and wild cards only to refuse.
PLANNED_SEQUENCE_FIELDS = frozenset(SEQUENCE_INPUTS)
WILD = ("jokers", "twos")
SIDE_HAND_OUTPUT_FIELDS = frozenset({"score", "running_total", "opening_minimum"})
# Canastas by kind in one object: the name every family takes (Classic its own fields too).
CANASTAS = "canastas"
# A game's id as the store makes them (scorer.store.ids: s<shard>- and 22 characters), with
# room to spare.
GAME_ID = re.compile(r"[A-Za-z0-9_-]{1,64}")
EXPORT_FIELDS = GAME_FIELDS | {
    "format",
    "format_version",
    "id",
    "created_at",
    "hands",
    "corrections",
}
# An entry of a game's record of corrections (scorer.store.corrections.record_json).
CORRECTION_FIELDS = frozenset({"hand", "kind", "before", "after", "at", "screen"})
# A recorded side's score: only its total is kept (ample room for any hand's score).
RECORDED_SCORE_MAX = 1_000_000


class PayloadError(ScorerError):
    """A request of the wrong shape or type (HTTP 400), as opposed to a broken rule (422)."""


class PreconditionRequired(ScorerError):
    """A write that must name the version it changes (If-Match) and does not (HTTP 428)."""


def _type_error(field: str | None, template: str, **params: Any) -> PayloadError:
    return PayloadError(field, template, **params)


def _object(
    value: Any,
    field: str | None,
    allowed: frozenset[str] | None = None,
    ignored: frozenset[str] = frozenset(),
) -> dict[str, Any]:
    """A JSON object; with `allowed`, any key outside allowed and ignored is refused."""
    if not isinstance(value, dict):
        raise _type_error(field, N_("must be a JSON object"))
    if allowed is not None:
        unknown = sorted(set(value) - allowed - ignored)
        if unknown:
            path = f"{field}.{unknown[0]}" if field else unknown[0]
            raise _type_error(path[:100], N_("is not a field this address takes"))
    return value


def fields_of(value: Any, allowed: frozenset[str]) -> dict[str, Any]:
    """A request body that must be a JSON object of these fields only."""
    return _object(value, None, allowed)


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
    return check_name(value, field, required=required)


def parse_game_id(value: Any, field: str) -> str:
    """A game's id as a body names it: the letters, digits, - and _ of a game's address.

    Anything else cannot be a game (and a lone surrogate cannot even be looked up).
    """
    if not isinstance(value, str) or not GAME_ID.fullmatch(value):
        raise _type_error(field, N_("must be a game's id"))
    return value


def parse_game(data: Any) -> dict[str, Any]:
    """Arguments for store.create_game from a POST /api/games body."""
    data = _object(data, None, GAME_FIELDS)
    arguments = _game_arguments(data)
    if arguments["fixed_hands"] is not None and arguments["target"] is not None:
        # (A game's export names both, its target setting the minimums: the import takes it.)
        raise RuleError(
            "fixed_hands", N_("a game plays to a target or a number of hands: send one of them")
        )
    return arguments


def _game_arguments(data: dict[str, Any]) -> dict[str, Any]:
    family = data.get("family")
    if family is not None and not isinstance(family, str):
        raise _type_error("family", N_("must be text"))
    profile = data.get("profile")
    if profile is not None and not isinstance(profile, str):
        raise _type_error("profile", N_("must be text"))
    target = data.get("target")
    if target is not None:
        target = _int(target, "target")
    fixed_hands = data.get("fixed_hands")
    if fixed_hands is not None:
        fixed_hands = check_fixed_hands(_int(fixed_hands, "fixed_hands"))
    rules = data.get("rules")
    if rules is not None:
        rules = _object(rules, "rules")
    first_dealer = data.get("first_dealer")
    if first_dealer is not None and not isinstance(first_dealer, str):
        raise _type_error("first_dealer", N_("must be text"))
    raw_sides = data.get("sides")
    if not isinstance(raw_sides, list):
        raise _type_error("sides", N_("must be a list of sides"))
    check_side_count(len(raw_sides))
    return {
        "name": _name(data.get("name"), "name", required=False),
        "family_key": family,
        "profile_key": profile,
        "target": target,
        "fixed_hands": fixed_hands,
        "sides": [_side(raw, i) for i, raw in enumerate(raw_sides)],
        "first_dealer": first_dealer,
        "house_rules": rules,
    }


def _side(raw: Any, index: int) -> Side:
    path = f"sides[{index}]"
    raw = _object(raw, path, SIDE_FIELDS, SIDE_OUTPUT_FIELDS)
    players = raw.get("players")
    if not isinstance(players, list):
        raise _type_error(f"{path}.players", N_("must be a list of names"))
    check_player_count(len(players), f"{path}.players")
    names = tuple(
        _name(player, f"{path}.players[{k}]", required=True) for k, player in enumerate(players)
    )
    whole = default_side_name(names, index)
    raw_name = raw.get("name")
    # An export names a side after its players with every name whole, whatever its length.
    if isinstance(raw_name, str) and raw_name.strip() == whole:
        return Side(whole, names)
    name = _name(raw_name, f"{path}.name", required=False)
    return Side(name or whole, names)


def _cards(value: Any, field: str) -> CardCounts:
    data = _object(value, field)
    unknown = set(data) - set(VALUE_GROUPS)
    if unknown:
        raise _type_error(
            f"{field}.{sorted(unknown)[0]}"[:100],
            N_("is not a card group (jokers, twenty, ten, five)"),
        )
    return CardCounts(**{g: _optional_int(data, g, f"{field}.{g}") for g in VALUE_GROUPS})


def _check_meld_by_meld(data: dict[str, Any], path: str, family: RuleFamily) -> None:
    """Melds rank by rank or sequences decide the meld points and canastas: sent beside
    them, these are refused at their field."""
    if data.get("melds") is None and data.get("sequences") is None:
        return
    for key in decided_by_melds(family):
        if value_of(data, key) is not None:
            raise _type_error(
                f"{path}.{key}",
                N_("send the melds rank by rank or the meld points and canastas, not both"),
            )


def _melds(data: dict[str, Any], path: str, family: RuleFamily) -> tuple[PlannedMeld, ...] | None:
    """A side's melds rank by rank, or None when it sent its meld points instead."""
    raw = data.get("melds")
    if raw is None:
        return None
    if not isinstance(raw, list):
        raise _type_error(f"{path}.melds", N_("must be a list of melds"))
    limit = side_melds_at_most(family)
    if len(raw) > limit:
        raise RuleError(
            f"{path}.melds", N_("a side has at most {limit} melds: one per rank"), limit=limit
        )
    melds = []
    for j, item in enumerate(raw):
        meld = _object(item, f"{path}.melds[{j}]", PLANNED_MELD_FIELDS)
        try:
            melds.append(
                planned_meld(
                    j,
                    meld.get("rank"),
                    meld.get("naturals"),
                    *(0 if meld.get(name) is None else meld[name] for name in WILD),
                    family=family,
                )
            )
        except RuleError as error:
            raise RuleError(f"{path}.{error.field}", error.template, **error.params) from error
    return tuple(melds)


def _sequences(raw: Any, path: str, family: RuleFamily) -> tuple[PlannedSequence, ...]:
    """A side's sequences (Samba, Bolivia), each by its suit, first and last rank: their types
    checked here, their rules by the engine at each one's field."""
    where = f"{path}.sequences"
    if not isinstance(raw, list):
        raise _type_error(where, N_("must be a list of sequences"))
    limit = side_sequences_at_most(family)
    if len(raw) > limit:
        raise RuleError(
            where, N_("a side has at most {limit} sequences with these packs"), limit=limit
        )
    sequences = []
    for j, item in enumerate(raw):
        sequence = _object(item, f"{where}[{j}]", PLANNED_SEQUENCE_FIELDS)
        try:
            sequences.append(
                planned_sequence(
                    j,
                    sequence.get("suit"),
                    sequence.get("first"),
                    sequence.get("last"),
                    *(0 if sequence.get(name) is None else sequence[name] for name in WILD),
                )
            )
        except RuleError as error:
            raise RuleError(f"{path}.{error.field}", error.template, **error.params) from error
    return tuple(sequences)


def _side_hand(raw: Any, path: str, family: RuleFamily) -> SideHand:
    """A side's hand from its JSON: each schema field's type checked, then the schema's."""
    data = _object(raw, path, field_names(family) | {CANASTAS}, SIDE_HAND_OUTPUT_FIELDS)
    if family.canasta_field_per_kind:
        data = _canastas_as_fields(data, path, family)
    note = data.get("adjustment_note")
    if note is not None and not isinstance(note, str):  # checked first, as it always was
        raise _type_error(f"{path}.adjustment_note", N_("must be text"))
    _check_canasta_object(data, path, family)
    values: dict[str, Any] = {}
    for field in side_fields(family):
        name, where = field.name, f"{path}.{field.name}"
        value = value_of(data, name)
        if field.kind == MELDS:
            _check_meld_by_meld(data, path, family)
            values[name] = _melds(data, path, family)
        elif value is None:
            continue
        elif field.kind == SEQUENCES:
            values[name] = _sequences(value, path, family)
        elif field.kind == CARDS:
            values[name] = _cards(value, where)
        elif field.kind == NOTE:
            if not isinstance(value, str):
                raise _type_error(where, N_("must be text"))
            values[name] = check_adjustment_note(value, where)
        elif field.kind == COUNTS_BY_KIND:
            counts = _object(value, where)
            values[name] = {
                str(kind)[:40]: _int(n, f"{where}.{kind}"[:100]) for kind, n in counts.items()
            }
        elif field.kind == CHOICE:
            if not isinstance(value, str):
                raise _type_error(where, N_("must be text"))
            values[name] = value[:40]  # the engine refuses what is no choice of the family
        else:
            values[name] = _int(value, where)
    return side_hand(values, family)


def _canastas_as_fields(data: dict[str, Any], path: str, family: RuleFamily) -> dict[str, Any]:
    """Classic's canastas sent in the names of every other family ("canastas": {"natural":
    1}), as its own fields ("natural_canastas"): a client may use one name for every game."""
    raw = data.get(CANASTAS)
    if raw is None:
        return data
    counts = _object(raw, f"{path}.{CANASTAS}")
    fields = dict(data)
    del fields[CANASTAS]
    for kind, count in counts.items():
        if kind not in family.kinds:
            raise RuleError(f"{path}.{CANASTAS}.{kind}"[:100], N_("is not a kind of canasta"))
        name = family.canasta_field(kind)
        if fields.get(name) is not None:
            raise _type_error(
                f"{path}.{name}", N_("send each kind of canasta once: in canastas or on its own")
            )
        fields[name] = count
    return fields


def _check_canasta_object(data: dict[str, Any], path: str, family: RuleFamily) -> None:
    """The object of canastas by kind ("canastas": {"sevens": 1}) of a family that names
    them so: an object, holding only the family's kinds (a kind it lacks is refused at its
    own field, as the engine refuses it: it would otherwise count as nothing)."""
    outers = {top_name(field.name) for field in canasta_fields(family) if "." in field.name}
    for outer in outers:
        raw = data.get(outer)
        if raw is None:
            continue
        counts = _object(raw, f"{path}.{outer}")
        for kind in counts:
            if kind not in family.kinds:
                raise RuleError(f"{path}.{outer}.{kind}"[:100], N_("is not a kind of canasta"))


def parse_hand(data: Any, family: RuleFamily = DEFAULT_FAMILY) -> Hand:
    """A Hand from an API body (shape and types only; the rules engine judges the rest), its
    sides read by the hand schema of the game's family."""
    return _hand(data, None, family)


def parse_confirm(data: Any) -> frozenset[str]:
    """What the table confirms with a hand (§2b): ``"confirm": ["opening_minimum"]``.

    Only irregularities can be confirmed; a name that is not one is refused, so a misspelt
    one is not taken for a confirmation. One the hand does not need is ignored later.
    """
    if not isinstance(data, dict) or data.get("confirm") is None:
        return frozenset()
    raw = data["confirm"]
    if not isinstance(raw, list):
        raise _type_error("confirm", N_("must be a list of what the table confirms"))
    for k, kind in enumerate(raw[:10]):
        # A list or an object is no name (and cannot be looked up in a set).
        if not isinstance(kind, str) or kind not in CONFIRMABLE:
            raise _type_error(
                f"confirm[{k}]", N_("is not something the scorer asks the table to confirm")
            )
    if len(raw) > 10:
        raise _type_error("confirm", N_("must be a list of what the table confirms"))
    return frozenset(raw)


def _hand(data: Any, path: str | None, family: RuleFamily) -> Hand:
    prefix = f"{path}." if path else ""
    data = _object(data, path, HAND_FIELDS, HAND_OUTPUT_FIELDS)
    went_out = data.get("went_out")
    if went_out is not None:
        went_out = _int(went_out, f"{prefix}went_out")
    concealed = data.get("concealed", False)
    if not isinstance(concealed, bool):
        raise _type_error(f"{prefix}concealed", N_("must be true or false"))
    sides = data.get("sides")
    if not isinstance(sides, list):
        raise _type_error(f"{prefix}sides", N_("must be a list with one entry per side"))
    if len(sides) > SIDES_MAX:
        check_side_count(len(sides), f"{prefix}sides")
    return Hand(
        sides=tuple(_side_hand(raw, f"{prefix}sides[{i}]", family) for i, raw in enumerate(sides)),
        went_out=went_out,
        concealed=concealed,
    )


def parse_export(data: Any) -> dict[str, Any]:
    """Arguments for store.import_game from an exported game (see game_to_export)."""
    data = _object(data, None, EXPORT_FIELDS)
    if data.get("format") != EXPORT_FORMAT:
        raise _type_error("format", N_("must be {format}"), format=EXPORT_FORMAT)
    if data.get("format_version") != EXPORT_VERSION:
        raise _type_error("format_version", N_("must be {version}"), version=EXPORT_VERSION)
    hands = data.get("hands", [])
    if not isinstance(hands, list):
        raise _type_error("hands", N_("must be a list of hands"))
    check_hand_count(len(hands))
    arguments = _game_arguments(data)
    family = get_family(arguments["family_key"])
    arguments["hands"] = [_hand(raw, f"hands[{i}]", family) for i, raw in enumerate(hands)]
    arguments["created_at"] = _timestamp(data.get("created_at"), "created_at")
    # An export from before the record (or of a game never corrected) has none: [].
    record = _corrections(data.get("corrections", []), len(arguments["sides"]), family)
    if record:
        arguments["corrections"] = record
    return arguments


def _corrections(raw: Any, sides: int, family: RuleFamily) -> list[dict[str, Any]]:
    """A game's record of corrections from its export, as scorer.store.corrections stores it."""
    if not isinstance(raw, list):
        raise _type_error("corrections", N_("must be a list of corrections"))
    check_correction_count(len(raw))
    return [_correction(entry, f"corrections[{i}]", sides, family) for i, entry in enumerate(raw)]


def _correction(raw: Any, path: str, sides: int, family: RuleFamily) -> dict[str, Any]:
    data = _object(raw, path, CORRECTION_FIELDS)
    number = _int(data.get("hand"), f"{path}.hand")
    if not 1 <= number <= MAX_HANDS_PER_GAME:
        raise _type_error(
            f"{path}.hand", N_("must be a hand's number from 1 to {max}"), max=MAX_HANDS_PER_GAME
        )
    stored_kinds = {name: stored for stored, name in KINDS.items()}
    kind = data.get("kind")
    if not isinstance(kind, str) or kind not in stored_kinds:
        raise _type_error(f"{path}.kind", N_("must be correction or removal"))
    screen = data.get("screen")
    if not isinstance(screen, str) or screen not in SCREENS:
        raise _type_error(f"{path}.screen", N_("is not a screen the scorer names"))
    at = _timestamp(data.get("at"), f"{path}.at")
    if at is None:
        raise _type_error(
            f"{path}.at",
            N_("must be a date and time as RFC 3339 writes it, like 2024-05-01T20:30:00Z"),
        )
    if not at.endswith("+00:00"):  # the record says when in UTC, as it writes it
        at = datetime.fromisoformat(at.upper()).astimezone(UTC).isoformat()
    before = _recorded_hand(data.get("before"), f"{path}.before", sides, family)
    after = data.get("after")
    if kind == "removal" and after is not None:
        raise _type_error(f"{path}.after", N_("must be null for a removal"))
    if kind == "correction":
        after = _recorded_hand(after, f"{path}.after", sides, family)
    return {
        "hand_number": number,
        "kind": stored_kinds[kind],
        "before": before,
        "after": after,
        "screen": screen,
        "at": at,
    }


def _recorded_hand(raw: Any, path: str, sides: int, family: RuleFamily) -> str:
    """A recorded hand (a hand as the API shows it, each side's score's total kept), read
    like an imported hand, as its JSON row."""
    hand = _hand(raw, path, family)
    if len(hand.sides) != sides:
        raise _type_error(f"{path}.sides", N_("must be a list with one entry per side"))
    check_hand_size(hand, family, f"{path}.sides")  # a stored hand's bound: it is one
    scores = []
    for i, side in enumerate(raw["sides"]):
        where = f"{path}.sides[{i}].score"
        score = _object(side.get("score"), where)
        total = _int(score.get("total"), f"{where}.total")
        if abs(total) > RECORDED_SCORE_MAX:
            raise _type_error(
                f"{where}.total",
                N_("must be from {low} to {high} points"),
                low=-RECORDED_SCORE_MAX,
                high=RECORDED_SCORE_MAX,
            )
        scores.append(total)
    return json.dumps(
        {
            "scores": scores,
            "went_out": hand.went_out,
            "concealed": hand.concealed,
            "sides": [side_values(side, family) for side in hand.sides],
        }
    )


def _timestamp(value: Any, field: str) -> str | None:
    if value is None:
        return None
    if not isinstance(value, str) or len(value) > 40 or not is_rfc3339(value):
        raise _type_error(
            field, N_("must be a date and time as RFC 3339 writes it, like 2024-05-01T20:30:00Z")
        )
    return value


def score_json(score: SideScore, family: RuleFamily) -> dict[str, int]:
    """A side's hand score as the API gives it: its family's parts, then its total (a
    Classic score keeps its shape)."""
    return {**{part: getattr(score, part) for part in score_parts(family)}, "total": score.total}


def game_to_json(record: ReplayedGame) -> dict[str, Any]:
    """The game as the API returns it (the exact contract of the API)."""
    state = record.state
    profile = record.table.profile
    return {
        "id": record.id,
        "name": record.name,
        "family": profile.family.key,
        "profile": profile.key,
        "target": profile.target,
        "fixed_hands": profile.fixed_hands,
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
                # What the table confirmed (§2b), and whether it came after the end (§2c).
                "irregular": list(dict.fromkeys(item.kind for item in result.irregular)),
                "after_end": result.after_end,
                "sides": [
                    {
                        **side_values(side, profile.family),
                        "score": score_json(score, profile.family),
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
        # The sides sharing the win (the house rule "tie": "shared"), else [].
        "shared_win": list(state.shared_by),
        "ended_at": state.ended_at,
        "tied": state.tied,
        "finished": state.finished,
    }
