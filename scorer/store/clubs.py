"""A club in SQLite: the club and its roster, one short transaction per action.

The club's games (starting, filing, export and import) are scorer.store.club_games, its
board (standings, records, the games' lines) scorer.store.club_board; both, and the
nights, use the roster helpers here (read_club, join_roster, touch_club...).

A club's games keep their players as names (in sides.players), and those names are the
roster's: a game started from the club takes the roster's spelling, filing a game rewrites
its names to the roster's, and renaming a player rewrites every game of the club. The name
is the link, so the games' own JSON and sheets need no change and reveal no club.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

import sqlite_utils

from scorer.core.errors import N_, RuleError
from scorer.core.families import DEFAULT_FAMILY, family_of_seating, get_family
from scorer.core.game import Side
from scorer.core.limits import (
    GAMES_PER_CLUB,
    PLAYERS_PER_CLUB,
    default_side_name,
    same_name,
)
from scorer.core.limits import check_club_name as check_name
from scorer.core.limits import side_name as reads_as
from scorer.core.rules import get_profile, validate_target, with_house_rules
from scorer.store import club_digest, writes
from scorer.store.db import transaction


class ClubNotFound(writes.NotFound):
    """No club (or no such player in it) at that address (HTTP 404, as a game not found)."""

    def __init__(self, address: str, template: str = N_("no club at this address")) -> None:
        super().__init__(address, template)


NO_PLAYER = N_("no player of that name in this club")


class StaleClub(RuleError):
    """The club changed since the client read it."""


class ClubConflict(RuleError):
    """The request clashes with the club as it is (HTTP 409)."""


@dataclass(frozen=True)
class Question:
    """A game's player the club cannot match alone: which roster players they could be."""

    name: str
    candidates: tuple[str, ...]


class Ambiguous(ClubConflict):
    """Filing a game needs the table to say who is who."""

    def __init__(self, questions: tuple[Question, ...]) -> None:
        super().__init__(
            "players", N_("say who is who for {count} player(s) of this game"), count=len(questions)
        )
        self.questions = questions


@dataclass(frozen=True)
class StoredClub:
    """A club's row, its roster in order and its games' ids (oldest first)."""

    id: str
    name: str
    settings: dict[str, Any]
    version: int
    created_at: str
    updated_at: str
    players: tuple[str, ...]
    game_ids: tuple[str, ...]
    # The game of the Canasta family the club plays: its games' and nights' default.
    family: str = DEFAULT_FAMILY.key

    def roster_name(self, name: str) -> str | None:
        """The roster's spelling of `name` (case folded), None when nobody matches."""
        for player in self.players:
            if same_name(player, name):
                return player
        return None


# --- reading ---------------------------------------------------------------------------------


@contextmanager
def snapshot(db: sqlite_utils.Database) -> Iterator[sqlite_utils.Database]:
    """Several reads that see the database at one moment (a read transaction)."""
    db.execute("BEGIN")
    try:
        yield db
    finally:
        db.conn.commit()


def load_club(db: sqlite_utils.Database, club_id: str) -> StoredClub:
    """The club, its roster and its game ids in one snapshot; ClubNotFound if unknown."""
    with snapshot(db):
        return read_club(db, club_id)


def read_club(db: sqlite_utils.Database, club_id: str) -> StoredClub:
    rows = list(db.query("select * from clubs where id = ?", [club_id]))
    if not rows:
        raise ClubNotFound(club_id)
    row = rows[0]
    players = tuple(
        r["name"]
        for r in db.query(
            "select name from club_players where club_id = ? order by position", [club_id]
        )
    )
    # Joined on games: a game deleted since it was filed is no longer the club's.
    game_ids = tuple(
        r["game_id"]
        for r in db.query(
            "select c.game_id from club_games c join games g on g.id = c.game_id "
            "where c.club_id = ? order by g.created_at, c.filed_at, g.rowid",
            [club_id],
        )
    )
    return StoredClub(
        id=row["id"],
        name=row["name"],
        settings=json.loads(row["settings"] or "{}"),
        version=row["version"],
        created_at=row["created_at"],
        updated_at=row["updated_at"],
        players=players,
        game_ids=game_ids,
        family=row.get("family") or DEFAULT_FAMILY.key,
    )


def club_of_game(db: sqlite_utils.Database, game_id: str) -> str | None:
    row = db.execute("select club_id from club_games where game_id = ?", [game_id]).fetchone()
    return None if row is None else row[0]


# --- settings and names ----------------------------------------------------------------------

SETTINGS_FIELDS = ("profile", "target", "rules")


def check_family(family: Any) -> str:
    """The game a club plays, by its key (the default family when not named)."""
    if family is None:
        return DEFAULT_FAMILY.key
    if not isinstance(family, str):
        raise RuleError("family", N_("must be text"))
    return get_family(family).key


def _family_of_settings(settings: Any) -> str | None:
    """A club that names no game plays its usual variant's (the new-club form's one choice:
    each variant is one family's seating); None: the default."""
    profile = settings.get("profile") if isinstance(settings, dict) else None
    family = family_of_seating(profile) if isinstance(profile, str) else None
    return None if family is None else family.key


def check_settings(settings: Any, family: str | None = None) -> dict[str, Any]:
    """The club's usual variant, target and house rules, checked like a new game's (in the
    club's family)."""
    if settings is None:
        return {}
    if not isinstance(settings, dict):
        raise RuleError("settings", N_("must be a JSON object"))
    for key in settings:
        if key not in SETTINGS_FIELDS:
            raise RuleError(f"settings.{key}"[:100], N_("is not a field this address takes"))
    profile_key = settings.get("profile")
    if profile_key is not None and not isinstance(profile_key, str):
        raise RuleError("settings.profile", N_("must be text"))
    profile = _prefixed(get_profile, profile_key, family)
    target = settings.get("target")
    if target is not None:
        _prefixed(validate_target, target)
    rules = settings.get("rules")
    if rules is not None:
        if not isinstance(rules, dict):
            raise RuleError("settings.rules", N_("must be a JSON object"))
        _prefixed(with_house_rules, profile, rules)
    return {key: settings[key] for key in SETTINGS_FIELDS if settings.get(key) is not None}


def _prefixed(check: Any, *args: Any) -> Any:
    try:
        return check(*args)
    except RuleError as error:
        field = f"settings.{error.field}" if error.field else "settings"
        raise RuleError(field, error.template, **error.params) from error


def check_roster(names: Any, field: str) -> list[str]:
    if not isinstance(names, list):
        raise RuleError(field, N_("must be a list of names"))
    if len(names) > PLAYERS_PER_CLUB:
        raise RuleError(field, N_("a club has at most {max} players"), max=PLAYERS_PER_CLUB)
    roster: list[str] = []
    for index, raw in enumerate(names):
        name = check_name(raw, f"{field}[{index}]")
        if any(same_name(name, other) for other in roster):
            raise RuleError(f"{field}[{index}]", N_("this name is already in the club"))
        roster.append(name)
    return roster


# --- writing ---------------------------------------------------------------------------------


def check_club_version(club: StoredClub, expected: int | None) -> None:
    if expected is not None and expected != club.version:
        raise StaleClub(None, N_("this club was changed on another device; reload it and retry"))


def touch_club(db: sqlite_utils.Database, club_id: str) -> None:
    db.execute(
        "update clubs set version = version + 1, updated_at = ? where id = ?",
        [writes.now(), club_id],
    )


def insert_club(
    db: sqlite_utils.Database,
    name: str,
    players: list[str],
    settings: dict[str, Any],
    family: str = DEFAULT_FAMILY.key,
) -> str:
    club_id = writes.new_game_id()  # the same 128 random bits as a game's address
    stamp = writes.now()
    db["clubs"].insert(
        {
            "id": club_id,
            "name": name,
            "settings": json.dumps(settings),
            "family": family,
            "version": 1,
            "created_at": stamp,
            "updated_at": stamp,
        }
    )
    db["club_players"].insert_all(
        {"club_id": club_id, "name": player, "position": i} for i, player in enumerate(players)
    )
    return club_id


def create_club(
    db: sqlite_utils.Database,
    *,
    name: Any,
    players: Any = (),
    settings: Any = None,
    family: Any = None,
) -> str:
    """Store a new club and return its id (RuleError names a bad field)."""
    name = check_name(name, "name")
    roster = check_roster(list(players) if isinstance(players, tuple) else players, "players")
    family = check_family(family if family is not None else _family_of_settings(settings))
    settings = check_settings(settings, family)
    with transaction(db):
        return insert_club(db, name, roster, settings, family)


def join_roster(
    db: sqlite_utils.Database, club_id: str, roster: list[str], name: str, field: str
) -> str:
    """The roster's spelling of `name`, adding it to the roster (and to `roster`) when new."""
    for player in roster:
        if same_name(player, name):
            return player
    if len(roster) >= PLAYERS_PER_CLUB:
        raise RuleError(field, N_("a club has at most {max} players"), max=PLAYERS_PER_CLUB)
    position = db.execute(
        "select coalesce(max(position), -1) + 1 from club_players where club_id = ?", [club_id]
    ).fetchone()[0]
    db["club_players"].insert({"club_id": club_id, "name": name, "position": position})
    roster.append(name)
    return name


def add_player(
    db: sqlite_utils.Database, club_id: str, name: Any, *, version: int | None = None
) -> StoredClub:
    name = check_name(name, "name")
    with transaction(db):
        club = read_club(db, club_id)
        check_club_version(club, version)
        if club.roster_name(name) is not None:
            raise ClubConflict("name", N_("this name is already in the club"))
        join_roster(db, club_id, list(club.players), name, "name")
        touch_club(db, club_id)
        return read_club(db, club_id)


def _games_of(db: sqlite_utils.Database, club_id: str) -> list[dict[str, Any]]:
    """Every side of every game of the club (rows of sides)."""
    return list(
        db.query(
            "select s.game_id, s.position, s.name, s.players from sides s "
            "join club_games c on c.game_id = s.game_id where c.club_id = ?",
            [club_id],
        )
    )


def games_of_player(db: sqlite_utils.Database, club_id: str, name: str) -> int:
    return len(
        {row["game_id"] for row in _games_of(db, club_id) if name in json.loads(row["players"])}
    )


def rename_player(
    db: sqlite_utils.Database,
    club_id: str,
    old: str,
    new: Any,
    *,
    version: int | None = None,
) -> StoredClub:
    """Rename a roster player, and them in every game of the club, in one transaction."""
    new = check_name(new, "name")
    with transaction(db):
        club = read_club(db, club_id)
        check_club_version(club, version)
        if old not in club.players:
            raise ClubNotFound(f"{club_id}/players/{old}", NO_PLAYER)
        clash = club.roster_name(new)
        if clash is not None and clash != old:
            raise ClubConflict("name", N_("this name is already in the club"))
        db.execute(
            "update club_players set name = ? where club_id = ? and name = ?", [new, club_id, old]
        )
        rename_in_games(db, _games_of(db, club_id), {old: new})
        _rename_in_nights(db, club_id, old, new)
        touch_club(db, club_id)
        return read_club(db, club_id)


def _rename_in_nights(db: sqlite_utils.Database, club_id: str, old: str, new: str) -> None:
    """The club's nights follow a roster rename: their lists of players and byes (the
    tables are games, renamed with the others); each night changed gets a new version.

    Here rather than in nights.py, which builds on this module: a rename is the roster's
    change, and importing nights from here would make the two import each other."""
    stamp = writes.now()
    for (night_id,) in db.execute("select id from nights where club_id = ?", [club_id]).fetchall():
        listed = db.execute(
            "update night_players set name = ? where night_id = ? and name = ?",
            [new, night_id, old],
        ).rowcount
        for number, bye in db.execute(
            "select number, bye from night_rounds where night_id = ?", [night_id]
        ).fetchall():
            names = json.loads(bye)
            if old in names:
                renamed = json.dumps([new if name == old else name for name in names])
                db.execute(
                    "update night_rounds set bye = ? where night_id = ? and number = ?",
                    [renamed, night_id, number],
                )
        if listed:
            db.execute(
                "update nights set version = version + 1, updated_at = ? where id = ?",
                [stamp, night_id],
            )


def rename_in_games(
    db: sqlite_utils.Database, sides: list[dict[str, Any]], names: dict[str, str]
) -> None:
    """Rewrite players' names in these sides; a side named after its players follows."""
    changed: set[str] = set()
    for row in sides:
        players = tuple(json.loads(row["players"]))
        renamed = tuple(names.get(player, player) for player in players)
        if renamed == players:
            continue
        side_name = row["name"]
        # A side named after its players follows them (one cut at 40 characters before too).
        if reads_as(side_name, players, row["position"]) == default_side_name(
            players, row["position"]
        ):
            side_name = default_side_name(renamed, row["position"])
        db.execute(
            "update sides set players = ?, name = ? where game_id = ? and position = ?",
            [json.dumps(renamed), side_name, row["game_id"], row["position"]],
        )
        changed.add(row["game_id"])
    stamp = writes.now()
    for game_id in changed:
        # The first dealer is stored by name too; a new version makes cached replays and
        # open scoreboards see the new names.
        dealer = db.execute("select first_dealer from games where id = ?", [game_id]).fetchone()
        db.execute(
            "update games set version = version + 1, updated_at = ?, first_dealer = ? where id = ?",
            [stamp, names.get(dealer[0], dealer[0]), game_id],
        )
        # Its digest with the new names (no replay: a rename changes no score).
        version = db.execute("select version from games where id = ?", [game_id]).fetchone()[0]
        sides = [
            Side(name, tuple(json.loads(players)))
            for name, players in db.execute(
                "select name, players from sides where game_id = ? order by position", [game_id]
            ).fetchall()
        ]
        club_digest.renamed(db, game_id, version, sides, names)


def remove_player(
    db: sqlite_utils.Database, club_id: str, name: str, *, version: int | None = None
) -> StoredClub:
    """Take a player off the roster; refused while they have games in the club."""
    with transaction(db):
        club = read_club(db, club_id)
        check_club_version(club, version)
        if name not in club.players:
            raise ClubNotFound(f"{club_id}/players/{name}", NO_PLAYER)
        games = games_of_player(db, club_id, name)
        if games:
            raise ClubConflict(
                "name",
                N_("{name} has played {count} game(s) of this club: rename them instead"),
                name=name,
                count=games,
            )
        db.execute("delete from club_players where club_id = ? and name = ?", [club_id, name])
        touch_club(db, club_id)
        return read_club(db, club_id)


def set_house_rule(
    db: sqlite_utils.Database,
    club_id: str,
    key: str,
    value: Any,
    *,
    version: int | None = None,
) -> StoredClub:
    """Set one house rule of the club's preset for its new games (its list of special
    hands...), checked as the club's other settings (RuleError names the field); the club's
    games keep the rules they started with."""
    with transaction(db):
        club = read_club(db, club_id)
        check_club_version(club, version)
        settings = dict(club.settings)
        settings["rules"] = {**(settings.get("rules") or {}), key: value}
        settings = check_settings(settings, club.family)
        db.execute("update clubs set settings = ? where id = ?", [json.dumps(settings), club_id])
        touch_club(db, club_id)
        return read_club(db, club_id)


def check_room_for_games(db: sqlite_utils.Database, club_id: str, more: int = 1) -> None:
    # Joined on games, as the club's reads are: a game deleted since is not counted.
    count = db.execute(
        "select count(*) from club_games c join games g on g.id = c.game_id where c.club_id = ?",
        [club_id],
    ).fetchone()[0]
    if count + more > GAMES_PER_CLUB:
        raise RuleError("games", N_("a club has at most {max} games"), max=GAMES_PER_CLUB)
