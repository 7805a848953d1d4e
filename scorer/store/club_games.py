"""A club's games: starting one from the club, filing one in, the club exported and imported
with its games.

The club itself and its roster are scorer.store.clubs (whose roster helpers this module
uses: a game's players join the roster); what the club's page shows is
scorer.store.club_board.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator, Sequence
from typing import Any

import sqlite_utils

from scorer.core.errors import N_, GameFinished, RuleError, ScorerError
from scorer.core.families import get_family
from scorer.core.game import GameState, Side, play
from scorer.core.hand_schema import check_hand_size
from scorer.core.limits import GAMES_PER_CLUB, default_side_name, same_name
from scorer.core.limits import check_club_name as check_name
from scorer.store import club_digest, corrections, writes
from scorer.store.club_digest import digest_of
from scorer.store.clubs import (
    Ambiguous,
    ClubConflict,
    Question,
    StoredClub,
    check_club_version,
    check_family,
    check_room_for_games,
    check_roster,
    check_settings,
    club_of_game,
    insert_club,
    join_roster,
    load_club,
    read_club,
    rename_in_games,
    snapshot,
    touch_club,
)
from scorer.store.db import transaction
from scorer.store.game_json import game_to_export
from scorer.store.games import hand_row

EXPORT_FORMAT = "scorer-club"
EXPORT_VERSION = 1
EXPORT_FIELDS = frozenset(
    {"format", "format_version", "id", "name", "family", "settings", "players", "games", "next"}
)


def with_club_defaults(club: StoredClub, arguments: dict[str, Any]) -> dict[str, Any]:
    """A new game's arguments with the club's game (family), usual variant, target and house
    rules; a game of another family keeps its own (the club's belong to its family)."""
    merged = dict(arguments)
    if merged.get("family_key") is None:
        merged["family_key"] = club.family
    settings = club.settings if merged["family_key"] == club.family else {}
    same_variant = merged.get("profile_key") in (None, settings.get("profile"))
    if merged.get("profile_key") is None:
        merged["profile_key"] = settings.get("profile")
    # The usual target goes with the usual variant; another variant keeps its own.
    if merged.get("target") is None and same_variant:
        merged["target"] = settings.get("target")
    if merged.get("house_rules") is None:
        merged["house_rules"] = settings.get("rules") or None
    return merged


def link_game(db: sqlite_utils.Database, club_id: str, game_id: str) -> None:
    """File a stored game in a club, as is (inside the caller's transaction)."""
    db["club_games"].insert({"game_id": game_id, "club_id": club_id, "filed_at": writes.now()})


def create_club_game(
    db: sqlite_utils.Database,
    club_id: str,
    arguments: dict[str, Any],
    *,
    version: int | None = None,
) -> str:
    """A new game of the club (arguments as game_json.parse_game reads them); its id.

    Its players take the roster's spelling; a new name joins the roster.
    """
    with transaction(db):
        club = read_club(db, club_id)
        check_club_version(club, version)
        check_room_for_games(db, club_id)
        roster = list(club.players)
        arguments = with_club_defaults(club, arguments)
        sides = []
        for i, side in enumerate(arguments["sides"]):
            names = tuple(
                join_roster(db, club_id, roster, player, f"sides[{i}].players[{k}]")
                for k, player in enumerate(side.players)
            )
            named = side.name != default_side_name(side.players, i)
            sides.append(Side(side.name if named else default_side_name(names, i), names))
        dealer = arguments.get("first_dealer")
        if dealer is not None:
            dealer = next((name for name in roster if same_name(name, dealer)), dealer)
        table = writes.build_table(
            arguments["profile_key"],
            arguments["target"],
            arguments["house_rules"],
            sides,
            dealer,
            arguments.get("fixed_hands"),
            arguments.get("family_key"),
        )
        game_id = writes.new_game_id()
        rules = arguments["house_rules"]
        created = writes.now()
        writes.insert_game(db, game_id, arguments["name"], table, rules, created)
        link_game(db, club_id, game_id)
        row = {"id": game_id, "version": 1, "name": arguments["name"], "created_at": created}
        club_digest.store(db, game_id, 1, digest_of(row, play(table, [])))
        touch_club(db, club_id)
    return game_id


# --- filing an existing game -------------------------------------------------------------------


def match_players(
    roster: tuple[str, ...], names: list[str], answers: dict[str, str]
) -> dict[str, str]:
    """Each game player's roster name; Ambiguous with the questions the table must answer.

    An exact name, or the only roster name equal to it case-insensitively, matches. A name
    nobody matches, or two game players who would be the same roster player, are asked.
    """
    mapping: dict[str, str] = {}
    guessed: set[str] = set()
    questions: list[Question] = []
    for name in names:
        if name in answers:
            mapping[name] = next((p for p in roster if same_name(p, answers[name])), answers[name])
        elif name in roster:
            mapping[name] = name
        else:
            candidates = tuple(p for p in roster if same_name(p, name))
            if len(candidates) == 1:
                mapping[name] = candidates[0]
                guessed.add(name)
            else:
                questions.append(Question(name, candidates))
    for name, player in mapping.items():
        twins = [other for other, p in mapping.items() if p == player and other != name]
        if twins and name in guessed:
            questions.append(Question(name, (player,)))
        elif twins and not any(twin in guessed for twin in twins):
            # Name the player the table answered for: that answer is what clashes.
            answered = next((n for n in (name, *twins) if n in answers), name)
            raise RuleError(
                f"players.{answered}"[:100],
                N_("two players of this game cannot be the same person"),
            )
    if questions:
        raise Ambiguous(tuple(questions))
    return mapping


def _check_answers(answers: Any, names: list[str]) -> dict[str, str]:
    if answers is None:
        return {}
    if not isinstance(answers, dict):
        raise RuleError("players", N_("must be a JSON object"))
    checked = {}
    for name, player in answers.items():
        field = f"players.{name}"[:100]
        if name not in names:
            raise RuleError(field, N_("is not a player of this game"))
        checked[name] = check_name(player, field)
    return checked


def file_game(
    db: sqlite_utils.Database,
    club_id: str,
    game_id: str,
    answers: Any = None,
    *,
    version: int | None = None,
) -> StoredClub:
    """File an existing game into the club; its players' names become the roster's."""
    with transaction(db):
        club = read_club(db, club_id)
        check_club_version(club, version)
        sides = list(
            db.query(
                "select game_id, position, name, players from sides where game_id = ?", [game_id]
            )
        )
        if not sides:
            raise writes.NotFound(game_id)
        if club_of_game(db, game_id) is not None:
            raise ClubConflict("game", N_("this game is already filed in a club"))
        names = list(dict.fromkeys(p for row in sides for p in json.loads(row["players"])))
        mapping = match_players(club.players, names, _check_answers(answers, names))
        check_room_for_games(db, club_id)
        roster = list(club.players)
        for name, player in mapping.items():
            mapping[name] = join_roster(db, club_id, roster, player, f"players.{name}"[:100])
        rename_in_games(db, sides, mapping)
        link_game(db, club_id, game_id)
        _store_digest(db, game_id)
        touch_club(db, club_id)
        return read_club(db, club_id)


def _store_digest(db: sqlite_utils.Database, game_id: str) -> None:
    """A game just filed: its digest, from one replay (at most a game's hands)."""
    try:
        record = writes.load_game(db, game_id)
    except RuleError:
        return  # its hands no longer fit the rules: the club's page lists it apart
    row = {
        "id": game_id,
        "version": record.version,
        "name": record.name,
        "created_at": record.created_at,
    }
    club_digest.store(db, game_id, record.version, digest_of(row, record.state))


# --- export and import -----------------------------------------------------------------------


# Hands read per snapshot while a club's export streams (a game at its limit alone, or many
# short ones): a part of the export (up to CLUB_PART_BYTES, about 23 MiB of JSON) never sits
# in a worker's memory whole, only about this many hands' worth (~2 MB as Python objects),
# and no read transaction lasts the download.
EXPORT_HANDS = 2_000


def export_head(db: sqlite_utils.Database, club_id: str) -> tuple[dict[str, Any], tuple[str, ...]]:
    """A club's export without its games, and its games' ids (one snapshot); ClubNotFound."""
    with snapshot(db):
        club = read_club(db, club_id)
    head = {
        "format": EXPORT_FORMAT,
        "format_version": EXPORT_VERSION,
        "id": club.id,
        "name": club.name,
        "family": club.family,
        "settings": club.settings,
        "players": list(club.players),
    }
    return head, club.game_ids


def export_games(db: sqlite_utils.Database, game_ids: Sequence[str]) -> Iterator[dict[str, Any]]:
    """Each game as the games API exports it, read a snapshot at a time until EXPORT_HANDS
    hands are in hand (each game whole as of its read; one deleted meanwhile is left out, as
    it left the club)."""
    position = 0
    while position < len(game_ids):
        chunk: list[dict[str, Any]] = []
        hands = 0
        with snapshot(db):
            while position < len(game_ids) and hands < EXPORT_HANDS:
                game_id = game_ids[position]
                position += 1
                try:
                    inputs = writes.load_inputs(db, game_id)
                    record = corrections.record_json(db, game_id, get_family(inputs.family_key))
                    game = game_to_export(inputs, record)
                except writes.NotFound:
                    continue
                chunk.append(game)
                hands += len(game["hands"]) + 1  # + 1: a game of no hand still counts
        yield from chunk


def export_club(db: sqlite_utils.Database, club_id: str) -> dict[str, Any]:
    """The club, its roster and every game as the games API exports it, in one object
    (whatever its size: the API sends it in parts, scorer.clubs.api.export_club)."""
    head, game_ids = export_head(db, club_id)
    return {**head, "games": list(export_games(db, game_ids))}


# Reads one exported game into writes.import_game's arguments: the API contract's parser
# (scorer.web.api_contract.parse_export), given by the route, since requests are the web's.
ReadGame = Callable[[Any], dict[str, Any]]


def _import_arguments(data: Any, read_game: ReadGame) -> dict[str, Any]:
    if not isinstance(data, dict):
        raise RuleError(None, N_("must be a JSON object"))
    unknown = sorted(set(data) - EXPORT_FIELDS)
    if unknown:
        raise RuleError(unknown[0][:100], N_("is not a field this address takes"))
    if data.get("format") != EXPORT_FORMAT:
        raise RuleError("format", N_("must be {format}"), format=EXPORT_FORMAT)
    if data.get("format_version") != EXPORT_VERSION:
        raise RuleError("format_version", N_("must be {version}"), version=EXPORT_VERSION)
    games = data.get("games", [])
    if not isinstance(games, list):
        raise RuleError("games", N_("must be a list of games"))
    if len(games) > GAMES_PER_CLUB:
        raise RuleError("games", N_("a club has at most {max} games"), max=GAMES_PER_CLUB)
    family = check_family(data.get("family"))  # an export from before families: Classic
    return {
        "name": check_name(data.get("name"), "name"),
        "family": family,
        "settings": check_settings(data.get("settings"), family),
        "players": check_roster(data.get("players", []), "players"),
        "games": [_import_game(raw, f"games[{i}]", read_game) for i, raw in enumerate(games)],
    }


def _import_game(raw: Any, path: str, read_game: ReadGame) -> tuple[dict[str, Any], Any, GameState]:
    """One exported game, checked and replayed like a game import; (arguments, table, state)."""
    try:
        arguments = read_game(raw)
        table = writes.build_table(
            arguments["profile_key"],
            arguments["target"],
            arguments["house_rules"],
            arguments["sides"],
            arguments["first_dealer"],
            arguments.get("fixed_hands"),
            arguments.get("family_key"),
        )
        state = play(table, arguments["hands"])
        for index, hand in enumerate(arguments["hands"]):  # as a game's import bounds them
            check_hand_size(hand, table.profile.family, f"hands[{index}].sides")
    except GameFinished as error:
        raise RuleError(f"{path}.hands", error.template, **error.params) from error
    except ScorerError as error:  # a broken rule (422) or a malformed field (400)
        number = getattr(error, "hand_number", None)
        inner = error.field if number is None else f"hands[{number - 1}].{error.field}"
        field = f"{path}.{inner}" if inner else path
        # The same kind of refusal (a PayloadError stays a 400), under the game's path.
        raise type(error)(field, error.template, **error.params) from error
    return arguments, table, state


def import_club(db: sqlite_utils.Database, data: Any, read_game: ReadGame) -> str:
    """An exported club (or the first part of its export) under a new address, its games
    under new ones, all or nothing; ``read_game`` reads each exported game (the API's
    parse_export)."""
    arguments = _import_arguments(data, read_game)
    with transaction(db):
        club_id = insert_club(
            db, arguments["name"], arguments["players"], arguments["settings"], arguments["family"]
        )
        _insert_games(db, club_id, arguments)
    return club_id


def import_into_club(
    db: sqlite_utils.Database,
    club_id: str,
    data: Any,
    read_game: ReadGame,
    *,
    version: int | None = None,
) -> StoredClub:
    """A part of a club's export (or a whole one) added to this club, all or nothing: its
    games under new addresses, its players joining the roster (in the roster's spelling when
    it has them); the part's name and settings are left, the club keeps its own."""
    check_club_version(load_club(db, club_id), version)  # a retried part: before any replay
    arguments = _import_arguments(data, read_game)
    with transaction(db):
        club = read_club(db, club_id)
        check_club_version(club, version)
        check_room_for_games(db, club_id, len(arguments["games"]))
        roster = list(club.players)
        spelling = {
            name: join_roster(db, club_id, roster, name, f"players[{i}]")
            for i, name in enumerate(arguments["players"])
        }
        game_ids = _insert_games(db, club_id, arguments)
        renamed = {name: player for name, player in spelling.items() if name != player}
        if renamed and game_ids:
            marks = ",".join("?" * len(game_ids))
            sides = db.query(
                f"select game_id, position, name, players from sides where game_id in ({marks})",
                game_ids,
            )
            rename_in_games(db, list(sides), renamed)
        touch_club(db, club_id)
        return read_club(db, club_id)


def _insert_games(db: sqlite_utils.Database, club_id: str, arguments: dict[str, Any]) -> list[str]:
    """An import's games, checked and replayed, stored in the club (inside the caller's
    transaction), each with its hands, its record and its digest; their new ids."""
    game_ids = []
    for i, (game, table, state) in enumerate(arguments["games"]):
        for k, side in enumerate(table.sides):
            for player in side.players:
                if player not in arguments["players"]:
                    raise RuleError(
                        f"games[{i}].sides[{k}].players",
                        N_("{name} is not one of the club's players"),
                        name=player,
                    )
        game_id = writes.new_game_id()
        created = game["created_at"] or writes.now()
        writes.insert_game(db, game_id, game["name"], table, game["house_rules"], created)
        db["hands"].insert_all(
            hand_row(game_id, n, hand, table.profile.family)
            for n, hand in enumerate(game["hands"], 1)
        )
        link_game(db, club_id, game_id)
        corrections.restore(db, game_id, game.get("corrections", []))
        # Its digest from the replay that checked it: the club's page replays nothing.
        row = {"id": game_id, "version": 1, "name": game["name"], "created_at": created}
        club_digest.store(db, game_id, 1, digest_of(row, state))
        game_ids.append(game_id)
    return game_ids
