"""The limits of a game, defined once: names, sides, players, targets, hands.

The API, the new-game form and the import all ask this module, so they give the same
verdict; and since a game is only ever stored within these limits, its export imports back.
Pure core: no Flask, no SQL.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence
from typing import Any

from scorer.core.errors import N_, RuleError

# The targets are the rule book's (scorer.core.rules), read here with every other limit.
from scorer.core.rules import (  # noqa: F401
    ALLOWED_TARGETS,
    FIXED_HANDS_MAX,
    FIXED_HANDS_MIN,
    PROFILES,
    TARGET_MAX,
    TARGET_MIN,
    TARGET_STEP,
    check_fixed_hands,
    check_target,
)

NAME_MAX = 40
# A table's own penalty or correction to a side's hand score (docs/rules.md §3, adjustments).
ADJUSTMENT_MIN = -5000
ADJUSTMENT_MAX = 5000
ADJUSTMENT_STEP = 5
ADJUSTMENT_NOTE_MAX = 60
# Far more than any game to 20 000 needs; keeps a game (and its import) bounded.
MAX_HANDS_PER_GAME = 1000
# A club (scorer/store/clubs.py): its roster and its games; an export holds every game, a few
# KiB each.
PLAYERS_PER_CLUB = 60
GAMES_PER_CLUB = 2000
# An import carries a whole game (or a club's games), so it may be larger than any other
# request; the largest body any endpoint takes bounds what scorer.web.inbound reads.
GAME_IMPORT_MAX_BYTES = 1024 * 1024
CLUB_IMPORT_MAX_BYTES = 16 * 1024 * 1024
# The largest body any address takes (scorer.web.inbound reads a chunked body up to it).
LARGEST_BODY = max(GAME_IMPORT_MAX_BYTES, CLUB_IMPORT_MAX_BYTES)
# Hands in one download of a club's hands as CSV (about 450 KB, a second at most to make on
# a busy 2-core machine): a club's hands come in parts of whole games, so no request costs
# what a 2 000-game club stored (60 000 hands or more, 16 MB, 10 s of replays).
HANDS_PER_CSV_PART = 2000
# A club night (scorer/nights): the players present, its rounds and so its tables.
NIGHT_PLAYERS_MAX = PLAYERS_PER_CLUB
NIGHT_ROUNDS_MAX = 20
NIGHT_TABLES_MAX = NIGHT_PLAYERS_MAX // 4
# From the profiles: every player alone at the largest table, or its largest team.
SIDES_MIN = 2
SIDES_MAX = max(profile.players for profile in PROFILES.values())
PLAYERS_PER_SIDE_MAX = max(
    size
    for profile in PROFILES.values()
    for layout in profile.layouts
    for size in layout.team_sizes
)

# Characters that reorder the text around them: a name could make a score read backwards.
BIDI_CONTROLS = frozenset(chr(c) for c in [*range(0x202A, 0x202F), *range(0x2066, 0x206A)])
# Letters that show as nothing (Hangul fillers), besides the format characters (Cf).
_BLANK_LETTERS = frozenset("\u115f\u1160\u3164\uffa0")
# Control characters and lone surrogates cannot be shown (or even stored as UTF-8).
_UNPRINTABLE = frozenset({"Cc", "Cs"})


def _invisible(char: str) -> bool:
    return char.isspace() or char in _BLANK_LETTERS or unicodedata.category(char) == "Cf"


def check_name(value: str, field: str, *, required: bool) -> str:
    """A trimmed name within the rules; "" for an optional name left empty."""
    return check_text(value, field, required=required, longest=NAME_MAX)


def check_text(value: str, field: str, *, required: bool, longest: int) -> str:
    """A trimmed line of text a person typed (a name, a note); "" for one left empty."""
    value = value.strip()
    if not value and not required:
        return ""
    if not 1 <= len(value) <= longest:
        raise RuleError(field, N_("must be 1 to {max} characters"), max=longest)
    if any(unicodedata.category(char) in _UNPRINTABLE for char in value):
        raise RuleError(field, N_("must not contain control characters"))
    if any(char in BIDI_CONTROLS for char in value):
        raise RuleError(field, N_("must not contain characters that reverse the text"))
    if all(_invisible(char) for char in value):
        raise RuleError(field, N_("must contain visible characters"))
    return value


def check_adjustment(value: Any, field: str) -> int:
    """Points a table adds to (or takes from) a side's hand score: a multiple of 5 in bounds."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise RuleError(field, N_("must be a whole number of points"))
    if value % ADJUSTMENT_STEP:
        raise RuleError(field, N_("must be a multiple of 5"))
    if not ADJUSTMENT_MIN <= value <= ADJUSTMENT_MAX:
        raise RuleError(
            field,
            N_("must be from {low} to {high} points"),
            low=ADJUSTMENT_MIN,
            high=ADJUSTMENT_MAX,
        )
    return value


def check_adjustment_note(value: Any, field: str) -> str:
    """The short note that says why a side's score was adjusted ("" for none)."""
    if not isinstance(value, str):
        raise RuleError(field, N_("must be text"))
    return check_text(value, field, required=False, longest=ADJUSTMENT_NOTE_MAX)


def check_club_name(value: Any, field: str) -> str:
    """A required name (a club's or a roster player's) sent as anything: the one name rule."""
    if not isinstance(value, str):
        raise RuleError(field, N_("must be text"))
    return check_name(value, field, required=True)


def same_name(a: str, b: str) -> bool:
    """Two names a table would take for the same person (case and width folded)."""
    return name_key(a) == name_key(b)


def name_key(name: str) -> str:
    return unicodedata.normalize("NFKC", name).casefold()


def check_night_rounds(rounds: Any, field: str = "rounds") -> int:
    """A night's number of rounds (RuleError otherwise)."""
    if (
        isinstance(rounds, bool)
        or not isinstance(rounds, int)
        or not 1 <= rounds <= NIGHT_ROUNDS_MAX
    ):
        raise RuleError(
            field, N_("must be a number of rounds from 1 to {max}"), max=NIGHT_ROUNDS_MAX
        )
    return rounds


def check_night_players(count: int, field: str = "players") -> None:
    """A night seats 3 players at least (one table of three), and the most a club has."""
    if not 3 <= count <= NIGHT_PLAYERS_MAX:
        raise RuleError(field, N_("a night has 3 to {max} players"), max=NIGHT_PLAYERS_MAX)


def check_side_count(count: int, field: str = "sides") -> None:
    if not SIDES_MIN <= count <= SIDES_MAX:
        raise RuleError(field, N_("a game has 2 to {max} sides"), max=SIDES_MAX)


def check_player_count(count: int, field: str) -> None:
    if not 1 <= count <= PLAYERS_PER_SIDE_MAX:
        raise RuleError(field, N_("a side has 1 to {max} players"), max=PLAYERS_PER_SIDE_MAX)


def check_hand_count(count: int, field: str = "hands") -> None:
    if count > MAX_HANDS_PER_GAME:
        raise RuleError(field, N_("a game has at most {max} hands"), max=MAX_HANDS_PER_GAME)


def check_game(name: str | None, sides: Sequence[Any]) -> None:
    """The name, the sides and every player's name of a new game (sides have .name, .players)."""
    check_name(name or "", "name", required=False)
    check_side_count(len(sides))
    for index, side in enumerate(sides):
        path = f"sides[{index}]"
        check_player_count(len(side.players), f"{path}.players")
        for k, player in enumerate(side.players):
            check_name(player, f"{path}.players[{k}]", required=True)
        check_name(side.name, f"{path}.name", required=True)


def default_side_name(players: Sequence[str], index: int) -> str:
    """A side without a name is called by its players ("Ann & Bob")."""
    return " & ".join(players)[:NAME_MAX].strip() or f"Side {index + 1}"
