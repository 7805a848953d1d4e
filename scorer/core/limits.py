"""The limits of a game, defined once: names, sides, players, targets, hands.

The API, the new-game form and the import all ask this module, so they give the same
verdict; and since a game is only ever stored within these limits, its export imports back.
The import caps are worked out from them, never guessed: a hand's size is bounded
(HAND_BYTES_MAX), so the largest legal game is (GAME_IMPORT_MAX_BYTES, about 14 MiB), and a
club's export, which the limits would let reach hundreds of MiB, comes in parts of whole
games that each import back within CLUB_IMPORT_MAX_BYTES (about 23.5 MiB). No cap is larger
than the largest export it must take. Pure core: no Flask, no SQL.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from scorer.core.errors import N_, RuleError

# The targets and a club's list of special hands are bounded by the rule book's module
# (scorer.core.rules, which a house rule is read by), read here with every other limit.
from scorer.core.rules import (  # noqa: F401
    ALLOWED_TARGETS,
    FIXED_HANDS_MAX,
    FIXED_HANDS_MIN,
    PROFILES,
    SPECIAL_HAND_NAME_MAX,
    SPECIAL_HAND_VALUE_MAX,
    SPECIAL_HAND_VALUE_MIN,
    SPECIAL_HANDS_MAX,
    TARGET_MAX,
    TARGET_MIN,
    TARGET_STEP,
    check_fixed_hands,
    check_target,
)

# A line of text a person typed, checked by one rule (scorer.core.text): read here too.
from scorer.core.text import BIDI_CONTROLS, check_text, name_key, same_name  # noqa: F401

NAME_MAX = 40
# A table's own penalty or correction to a side's hand score (docs/rules.md §3, adjustments).
ADJUSTMENT_MIN = -5000
ADJUSTMENT_MAX = 5000
ADJUSTMENT_STEP = 5
ADJUSTMENT_NOTE_MAX = 60
# Far more than any game to 20 000 needs; keeps a game (and its import) bounded.
MAX_HANDS_PER_GAME = 1000
# A club game's record of corrections (scorer/store/corrections.py): each entry holds a hand
# twice (before and after). Far more corrections than a night's table makes: past it a
# correction is refused rather than left unrecorded.
CORRECTIONS_PER_GAME = 200
# A club (scorer/store/clubs.py): its roster and its games.
PLAYERS_PER_CLUB = 60
GAMES_PER_CLUB = 2000
# What one hand may hold: its sides' inputs as JSON, as the store keeps them
# (scorer.core.hand_schema.sides_json: non-ASCII written \uXXXX, 6 or 12 bytes a character,
# so never shorter than the exports' compact UTF-8, nor than a client's re-encoding of them:
# the caps below hold for either). The largest hand
# a table can write, six players alone melding 50 melds rank by rank (all the three packs
# hold), counting the cards left in hand and each noting an adjustment in 60 emoji (12 bytes
# each), takes 7 891 bytes (tests/largest.py); a hand past the bound is refused at every way
# in (the API, the pages, an import, a record of corrections), so a game's size is bounded.
HAND_BYTES_MAX = 10 * 1024
# Hands in one download of a club's hands as CSV (about 450 KB, a second at most to make on
# a busy 2-core machine): a club's hands come in parts of whole games, so no request costs
# what a 2 000-game club stored (60 000 hands or more, 16 MB, 10 s of replays).
HANDS_PER_CSV_PART = 2000
# A club night (scorer/nights): the players present, its rounds and so its tables.
NIGHT_PLAYERS_MAX = PLAYERS_PER_CLUB
NIGHT_ROUNDS_MAX = 20
NIGHT_TABLES_MAX = NIGHT_PLAYERS_MAX // 4
# Nights a club keeps (ten years of weekly nights), and starts in one day (an afternoon and
# an evening, each started again once or twice): a script cannot fill the club's list.
NIGHTS_PER_CLUB = 520
NIGHTS_PER_CLUB_PER_DAY = 6
# From the profiles: every player alone at the largest table, or its largest team.
SIDES_MIN = 2
SIDES_MAX = max(profile.players for profile in PROFILES.values())
PLAYERS_PER_SIDE_MAX = max(
    size
    for profile in PROFILES.values()
    for layout in profile.layouts
    for size in layout.team_sizes
)

# What an export may weigh, and so what its import takes: every export the limits allow
# imports back, and no import cap is larger than the largest export it must take.
#
# A game's export: its head (its name, sides, players and house rules: what a new game's
# body holds, well within a request's 64 KiB even with every name in escaped emoji), each
# hand at its largest (its inputs, HAND_BYTES_MAX, and the keys around them) and each entry
# of its record of corrections at its largest (the hand before and after, each side's score,
# the entry's own keys). The cap is the largest legal game: 64 KiB + 1 000 hands of 10 304
# bytes + 200 entries of 21 248 bytes = 14 619 136 bytes, about 14 MiB (the largest game
# tests/largest.py makes, 1 000 hands and a full record, exports about 11 MB).
GAME_HEAD_BYTES = 64 * 1024
HAND_EXPORT_BYTES = HAND_BYTES_MAX + 64
CORRECTION_EXPORT_BYTES = 2 * (HAND_EXPORT_BYTES + SIDES_MAX * 32) + 256
GAME_IMPORT_MAX_BYTES = (
    GAME_HEAD_BYTES
    + MAX_HANDS_PER_GAME * HAND_EXPORT_BYTES
    + CORRECTIONS_PER_GAME * CORRECTION_EXPORT_BYTES
)
# A club's export comes in parts (GET /api/clubs/<id>/export, then each part's "next"): its
# head (name, settings, a roster of 60 names: within CLUB_HEAD_BYTES) and whole games, at
# most CLUB_PART_BYTES of them, each part importing back on its own (the first makes the
# club, POST /api/clubs/import; the rest join it, POST /api/clubs/<id>/import). A part holds
# a full club of night games (2 000 of 12 KiB each; one of 30 hands, both sides filled, is
# 8 to 9 KiB: BENCHMARKS.md, section 11), so a real club exports as one document, and at
# least the largest legal game. The limits allow far more (2 000 games of 1 000 hands, 427
# MiB even at the smallest hand): that comes in parts, never in one body.
CLUB_GAME_EXPORT_BYTES = 12 * 1024
CLUB_PART_BYTES = max(GAMES_PER_CLUB * CLUB_GAME_EXPORT_BYTES, GAME_IMPORT_MAX_BYTES)
CLUB_HEAD_BYTES = 64 * 1024
CLUB_IMPORT_MAX_BYTES = CLUB_HEAD_BYTES + CLUB_PART_BYTES
# The largest body any address takes (scorer.web.inbound reads a chunked body up to it).
LARGEST_BODY = max(GAME_IMPORT_MAX_BYTES, CLUB_IMPORT_MAX_BYTES)


def check_name(value: str, field: str, *, required: bool) -> str:
    """A trimmed name within the rules; "" for an optional name left empty."""
    return check_text(value, field, required=required, longest=NAME_MAX)


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


def check_new_night(nights: int, today: int) -> None:
    """A club with `nights` nights, `today` of them started today, may start one more."""
    if nights >= NIGHTS_PER_CLUB:
        raise RuleError("nights", N_("a club has at most {max} nights"), max=NIGHTS_PER_CLUB)
    if today >= NIGHTS_PER_CLUB_PER_DAY:
        raise RuleError(
            "nights", N_("a club starts at most {max} nights a day"), max=NIGHTS_PER_CLUB_PER_DAY
        )


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


def check_hand_bytes(size: int, field: str = "sides") -> None:
    """A hand's inputs, `size` bytes as stored, within HAND_BYTES_MAX."""
    if size > HAND_BYTES_MAX:
        raise RuleError(
            field, N_("a hand's entries take at most {max} KiB"), max=HAND_BYTES_MAX // 1024
        )


def check_correction_count(count: int, field: str = "corrections") -> None:
    if count > CORRECTIONS_PER_GAME:
        raise RuleError(
            field,
            N_("a game's record keeps at most {max} corrections"),
            max=CORRECTIONS_PER_GAME,
        )


def check_game(name: str | None, sides: Sequence[Any]) -> None:
    """The name, the sides and every player's name of a new game (sides have .name, .players)."""
    check_name(name or "", "name", required=False)
    check_side_count(len(sides))
    for index, side in enumerate(sides):
        path = f"sides[{index}]"
        check_player_count(len(side.players), f"{path}.players")
        for k, player in enumerate(side.players):
            check_name(player, f"{path}.players[{k}]", required=True)
        check_side_name(side.name, side.players, index, f"{path}.name")


def default_side_name(players: Sequence[str], index: int) -> str:
    """A side without a name is called by its players, every one whole ("Ann & Bob"): a
    label the table chose is held to NAME_MAX, never the players' names put together."""
    return " & ".join(players) or f"Side {index + 1}"


def check_side_name(name: str, players: Sequence[str], index: int, field: str) -> str:
    """A side's name: its players' names put together (any length, each name already within
    the limit), or a label within NAME_MAX."""
    if name == default_side_name(players, index):
        return name
    return check_name(name, field, required=True)


def side_name(name: str, players: Sequence[str], index: int) -> str:
    """A stored side's name as it reads: a side named after its players gets every name
    whole, including one stored before whole names, when it was cut at NAME_MAX."""
    whole = default_side_name(players, index)
    if not name or name == whole[:NAME_MAX].strip():
        return whole
    return name


# A timed round (docs/rules.md §6): its minutes and the warning before time is called.
ROUND_MINUTES_MIN = 5
ROUND_MINUTES_MAX = 240
# A season (scorer/core/seasons.py): the nights counted, and how many seasons a club keeps.
SEASON_BEST_OF_MAX = 366
SEASONS_PER_CLUB = 200
# A Mitchell movement: one North-South pair per table, so the night's tables bound the pairs.
MITCHELL_PAIRS_MAX = NIGHT_TABLES_MAX * 2


def check_round_minutes(minutes: Any, field: str = "round.minutes") -> int:
    """A timed round's length in whole minutes (RuleError otherwise)."""
    if (
        isinstance(minutes, bool)
        or not isinstance(minutes, int)
        or not ROUND_MINUTES_MIN <= minutes <= ROUND_MINUTES_MAX
    ):
        raise RuleError(
            field,
            N_("must be a number of minutes from {low} to {high}"),
            low=ROUND_MINUTES_MIN,
            high=ROUND_MINUTES_MAX,
        )
    return minutes


def check_warning_minutes(warning: Any, minutes: int, field: str = "round.warning_minutes") -> int:
    """The warning before time is called: 0 (none) to less than the round's minutes."""
    if isinstance(warning, bool) or not isinstance(warning, int) or not 0 <= warning < minutes:
        raise RuleError(field, N_("must be a number of minutes from 0 to {high}"), high=minutes - 1)
    return warning


def check_best_of(best_of: Any, field: str = "best_of") -> int:
    """How many of a season's nights count for each player (a whole number, 1 or more)."""
    if (
        isinstance(best_of, bool)
        or not isinstance(best_of, int)
        or not 1 <= best_of <= SEASON_BEST_OF_MAX
    ):
        raise RuleError(
            field, N_("must be a whole number of nights from 1 to {max}"), max=SEASON_BEST_OF_MAX
        )
    return best_of


def check_mitchell_pairs(count: int, field: str = "pairs") -> None:
    """A Mitchell movement's pairs: 3 at least, as many as a night's tables seat at most."""
    if not 3 <= count <= MITCHELL_PAIRS_MAX:
        raise RuleError(
            field, N_("a Mitchell movement has 3 to {max} pairs"), max=MITCHELL_PAIRS_MAX
        )
