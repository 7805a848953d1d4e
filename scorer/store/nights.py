"""Club nights in SQLite: a night, its players, its rounds and their tables (each a game).

A table is an ordinary game of the club (created through :mod:`scorer.store`, filed in the
club's games), so its scores, corrections and sheet are the game's own; the night only
remembers which game each table is. Each action is one transaction; drawing a round checks
the night's version inside it, so two organisers drawing at once draw it once.

The night's tables come with the store's migrations (scorer.store.db), which only ever add.
"""

from __future__ import annotations

import hashlib
import json
import secrets
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import sqlite_utils

from scorer.core.draw import DrawnTable, Round, draw_round
from scorer.core.errors import N_, GameFinished, RuleError
from scorer.core.families import get_family
from scorer.core.game import Side
from scorer.core.limits import NIGHT_PLAYERS_MAX, check_new_night, default_side_name, same_name
from scorer.core.ratings import Rating
from scorer.store import ids, writes
from scorer.store.club_games import link_game
from scorer.store.clubs import (
    ClubNotFound,
    check_room_for_games,
    join_roster,
    read_club,
    touch_club,
)
from scorer.store.db import snapshot, transaction
from scorer.store.idempotency import KeyReused, digest


class NightNotFound(writes.NotFound):
    """No night at that address."""

    def __init__(self, address: str) -> None:
        super().__init__(address, N_("no club night at this address"))


class StaleNight(writes.StaleGame):
    """The night changed since the organiser read it (another one drew the round)."""


class RoundUnderWay(GameFinished):
    """A conflict with the night as it stands (HTTP 409): a round begun, all rounds drawn."""


@dataclass(frozen=True)
class NightSettings:
    """How the night plays: its rounds, each round's end, the draw and the ranking."""

    rounds: int
    fixed_hands: int | None
    target: int | None
    draw: str = "random"
    ranking: str = "wins_then_points"
    odd: str = "variants"

    def to_json(self) -> dict[str, Any]:
        end = {"fixed_hands": self.fixed_hands} if self.fixed_hands else {"target": self.target}
        return {
            "rounds": self.rounds,
            "round": end,
            "draw": self.draw,
            "ranking": self.ranking,
            "odd": self.odd,
        }


@dataclass(frozen=True)
class NightTable:
    """A table of a round: its game and how the draw seated it."""

    position: int
    game_id: str
    drawn: DrawnTable
    watch_id: str  # the game's read-only address (table watch_ids)


@dataclass(frozen=True)
class NightRound:
    number: int
    tables: tuple[NightTable, ...]
    bye: tuple[str, ...]
    attempt: int


@dataclass(frozen=True)
class StoredNight:
    """A night as stored: its club, settings, players (in order) and rounds drawn so far."""

    id: str
    club_id: str
    watch_id: str
    settings: NightSettings
    seed: int
    version: int
    created_at: str
    updated_at: str
    players: tuple[str, ...]
    rounds: tuple[NightRound, ...]

    @property
    def history(self) -> tuple[Round, ...]:
        return tuple(
            Round(tuple(table.drawn for table in past.tables), past.bye) for past in self.rounds
        )

    @property
    def game_ids(self) -> tuple[str, ...]:
        return tuple(table.game_id for past in self.rounds for table in past.tables)


# --- reading ---------------------------------------------------------------------------------


def load_night(db: sqlite_utils.Database, night_id: str) -> StoredNight:
    """The night in one snapshot; NightNotFound for an unknown id."""
    with snapshot(db):
        return read_night(db, night_id)


def night_stamp(db: sqlite_utils.Database, night_id: str) -> tuple[Any, ...]:
    """What moves whenever anything a night's view shows does, read from rows (two queries,
    no game replayed, no Python per table): a key for that view, which never comes back.

    The night's version (a draw, redraw, undo, player added, forfeit, final table, rename);
    its club's version and games' count of changes (m011: the ratings and the club's
    family, read from the club's board); and its tables' games' versions (a hand recorded,
    corrected or removed, a game ended), read here too so that a table whose game left the
    club still moves the stamp. Each part only ever grows. NightNotFound for an unknown id.
    """
    with snapshot(db):
        row = db.execute(
            "select n.version, c.version, c.games_version from nights n "
            "left join clubs c on c.id = n.club_id where n.id = ?",
            [night_id],
        ).fetchone()
        if row is None:
            raise NightNotFound(night_id)
        # Fetched whole and digested in C, as a season's tag is (scorer.store.seasons).
        tables = db.execute(
            "select t.game_id, g.version from night_tables t "
            "left join games g on g.id = t.game_id where t.night_id = ? "
            "order by t.round, t.position",
            [night_id],
        ).fetchall()
    return (*row, hashlib.sha256(repr(tables).encode()).hexdigest()[:16])


def night_of_watch(db: sqlite_utils.Database, watch_id: str) -> str:
    row = db.execute("select id from nights where watch_id = ?", [watch_id]).fetchone()
    if row is None:
        raise NightNotFound(watch_id)
    return str(row[0])


def night_counts(db: sqlite_utils.Database, club_id: str, day: str) -> tuple[int, int]:
    """How many nights the club has, and how many of them were started on `day`."""
    row = db.execute(
        "select count(*), coalesce(sum(substr(created_at, 1, 10) = ?), 0) from nights "
        "where club_id = ?",
        [day, club_id],
    ).fetchone()
    return int(row[0]), int(row[1])


@dataclass(frozen=True)
class NextSeat:
    """Where a player of a table sits in the round after it: a table (its number and game)
    or out (``table`` None)."""

    player: str
    table: int | None
    game_id: str | None


@dataclass(frozen=True)
class TableOfNight:
    """A game that is a table of a night: the night, its round, and (once the next round is
    drawn) where each of its players sits next."""

    night_id: str
    wall_id: str  # the night's read-only address: what a table's phone is shown
    round: int
    rounds: int  # planned for the night
    next_round: int | None  # the round after this one, when drawn
    next_seats: tuple[NextSeat, ...]


def night_of_table(db: sqlite_utils.Database, game_id: str) -> TableOfNight | None:
    """The night a game is a table of, and its players' next seats; None for another game."""
    with snapshot(db):
        row = db.execute(
            "select night_id, round from night_tables where game_id = ?", [game_id]
        ).fetchone()
        if row is None:
            return None
        night = read_night(db, row[0])
    number = row[1]
    here = next(t for t in night.rounds[number - 1].tables if t.game_id == game_id)
    players = [player for side in here.drawn.sides for player in side]
    if len(night.rounds) <= number:
        return TableOfNight(night.id, night.watch_id, number, night.settings.rounds, None, ())
    after = night.rounds[number]
    seats = {
        player: (table.position, table.game_id)
        for table in after.tables
        for side in table.drawn.sides
        for player in side
    }
    return TableOfNight(
        night.id,
        night.watch_id,
        number,
        night.settings.rounds,
        after.number,
        tuple(NextSeat(player, *seats.get(player, (None, None))) for player in players),
    )


def nights_of_club(
    db: sqlite_utils.Database, club_id: str, limit: int = -1, offset: int = 0
) -> list[dict[str, Any]]:
    """The club's nights, newest first (`limit` of them from `offset`, a page): id, date,
    rounds drawn of rounds planned."""
    return [
        {
            "id": row["id"],
            "created_at": row["created_at"],
            "drawn": row["drawn"],
            "rounds": json.loads(row["settings"])["rounds"],
        }
        for row in db.query(
            "select n.id, n.created_at, n.settings, "
            "(select count(*) from night_rounds r where r.night_id = n.id) as drawn "
            "from nights n where n.club_id = ? order by n.created_at desc, n.rowid desc "
            "limit ? offset ?",
            [club_id, limit, offset],
        )
    ]


def read_night(db: sqlite_utils.Database, night_id: str) -> StoredNight:
    """The night as stored, inside the caller's snapshot or transaction (NightNotFound)."""
    rows = list(db.query("select * from nights where id = ?", [night_id]))
    if not rows:
        raise NightNotFound(night_id)
    row = rows[0]
    players = tuple(
        r["name"]
        for r in db.query(
            "select name from night_players where night_id = ? order by position", [night_id]
        )
    )
    sides: dict[str, list[tuple[str, ...]]] = {}
    profiles: dict[str, str] = {}
    tables: dict[int, list[tuple[int, str, str]]] = {}
    for r in db.query(
        "select t.round, t.position, t.game_id, g.profile, w.watch_id from night_tables t "
        "join games g on g.id = t.game_id join watch_ids w on w.game_id = t.game_id "
        "where t.night_id = ? order by t.round, t.position",
        [night_id],
    ):
        tables.setdefault(r["round"], []).append((r["position"], r["game_id"], r["watch_id"]))
        profiles[r["game_id"]] = r["profile"]
    for r in db.query(
        "select s.game_id, s.players from sides s join night_tables t on t.game_id = s.game_id "
        "where t.night_id = ? order by s.game_id, s.position",
        [night_id],
    ):
        sides.setdefault(r["game_id"], []).append(tuple(json.loads(r["players"])))
    rounds = tuple(
        NightRound(
            number=r["number"],
            tables=tuple(
                NightTable(
                    position,
                    game_id,
                    DrawnTable(profiles[game_id], tuple(sides[game_id])),
                    watch_id,
                )
                for position, game_id, watch_id in tables.get(r["number"], [])
            ),
            bye=tuple(json.loads(r["bye"])),
            attempt=r["attempt"],
        )
        for r in db.query(
            "select * from night_rounds where night_id = ? order by number", [night_id]
        )
    )
    settings = json.loads(row["settings"])
    end = settings["round"]
    return StoredNight(
        id=row["id"],
        club_id=row["club_id"],
        watch_id=row["watch_id"],
        settings=NightSettings(
            rounds=settings["rounds"],
            fixed_hands=end.get("fixed_hands"),
            target=end.get("target"),
            draw=settings["draw"],
            ranking=settings["ranking"],
            odd=settings["odd"],
        ),
        seed=row["seed"],
        version=row["version"],
        created_at=row["created_at"],
        updated_at=row["updated_at"],
        players=players,
        rounds=rounds,
    )


# --- writing ---------------------------------------------------------------------------------


def create_night(
    db: sqlite_utils.Database,
    club_id: str,
    players: Sequence[str],
    settings: NightSettings,
    *,
    idempotency_key: str | None = None,
) -> str:
    """A new night of the club (players already checked: scorer.nights.payloads); its id.

    Players take the roster's spelling, and a new name joins the roster. No round is drawn.
    """
    request = digest([list(players), settings.to_json()])
    night_id = ids.mint()  # carries this server's shard, as the club's games do
    stamp = writes.now()
    with transaction(db):
        club = read_club(db, club_id)
        if idempotency_key is not None:
            first = db.execute(
                "select night_id, request_hash from night_keys where club_id = ? and key = ?",
                [club_id, idempotency_key],
            ).fetchone()
            if first is not None:
                if first[1] != request:
                    raise KeyReused(
                        "Idempotency-Key", N_("this key was already used for a different night")
                    )
                return str(first[0])
        check_new_night(*night_counts(db, club_id, stamp[:10]))
        roster = list(club.players)
        names = [
            join_roster(db, club_id, roster, name, f"players[{k}]")
            for k, name in enumerate(players)
        ]
        db["nights"].insert(
            {
                "id": night_id,
                "club_id": club_id,
                "watch_id": ids.mint(),
                "settings": json.dumps(settings.to_json()),
                "seed": secrets.randbits(48),
                "version": 1,
                "created_at": stamp,
                "updated_at": stamp,
            }
        )
        db["night_players"].insert_all(
            {"night_id": night_id, "name": name, "position": k, "joined_round": 1}
            for k, name in enumerate(names)
        )
        if idempotency_key is not None:
            db["night_keys"].insert(
                {
                    "club_id": club_id,
                    "key": idempotency_key,
                    "request_hash": request,
                    "night_id": night_id,
                    "created_at": stamp,
                }
            )
        touch_club(db, club_id)
    return night_id


def check_night_version(night: StoredNight, expected: int | None) -> None:
    """StaleNight unless the night is at the version the form or the request showed."""
    if expected is not None and expected != night.version:
        raise StaleNight(
            None, N_("this night was changed on another device; look at it again and retry")
        )


def bump_night(db: sqlite_utils.Database, night_id: str) -> None:
    """One version on, inside the write's transaction: every change to a night bumps it."""
    db.execute(
        "update nights set version = version + 1, updated_at = ? where id = ?",
        [writes.now(), night_id],
    )


def add_player(
    db: sqlite_utils.Database, night_id: str, name: str, *, version: int | None = None
) -> str:
    """A late arrival: seated from the next round drawn. Returns the roster's spelling."""
    with transaction(db):
        night = read_night(db, night_id)
        check_night_version(night, version)
        if any(same_name(player, name) for player in night.players):
            raise RoundUnderWay("name", N_("this player is already at the night"))
        if len(night.players) >= NIGHT_PLAYERS_MAX:
            raise RoundUnderWay("name", N_("a night has 3 to {max} players"), max=NIGHT_PLAYERS_MAX)
        try:
            club = read_club(db, night.club_id)
        except ClubNotFound:
            raise NightNotFound(night_id) from None
        spelled = join_roster(db, night.club_id, list(club.players), name, "name")
        db["night_players"].insert(
            {
                "night_id": night_id,
                "name": spelled,
                "position": len(night.players),
                "joined_round": len(night.rounds) + 1,
            }
        )
        bump_night(db, night_id)
    return spelled


def draw_next_round(
    db: sqlite_utils.Database,
    night_id: str,
    *,
    version: int | None,
    table_name: Any,
    ratings: Mapping[str, Rating] | None = None,
) -> StoredNight:
    """Draw the next round and make its tables' games, all or nothing.

    ``version`` is the night's version the organiser saw (If-Match): a second organiser
    drawing the same round at once finds the night changed and draws nothing.
    ``table_name(round, table)`` names a table's game in the organiser's language.
    """
    with transaction(db):
        night = read_night(db, night_id)
        check_night_version(night, version)
        if len(night.rounds) >= night.settings.rounds:
            raise RoundUnderWay(
                "rounds",
                N_("the night's {rounds} rounds are all drawn"),
                rounds=night.settings.rounds,
            )
        drawn = _draw(night, night.history, 0, ratings)
        insert_round(db, night, len(night.rounds) + 1, drawn, 0, table_name)
        bump_night(db, night_id)
        return read_night(db, night_id)


def redraw_round(
    db: sqlite_utils.Database,
    night_id: str,
    *,
    version: int | None,
    table_name: Any,
    ratings: Mapping[str, Rating] | None = None,
) -> StoredNight:
    """Draw the last round again, its tables' games removed; refused once a hand is recorded."""
    with transaction(db):
        night = read_night(db, night_id)
        check_night_version(night, version)
        last = _remove_last_round(db, night)
        drawn = _draw(night, night.history[:-1], last.attempt + 1, ratings)
        insert_round(db, night, last.number, drawn, last.attempt + 1, table_name)
        bump_night(db, night_id)
        return read_night(db, night_id)


def undo_round(db: sqlite_utils.Database, night_id: str, *, version: int | None) -> StoredNight:
    """Take back the last round drawn, its tables' games removed, as if it had not been drawn
    (a draw by mistake); refused once a hand of it is recorded. One transaction."""
    with transaction(db):
        night = read_night(db, night_id)
        check_night_version(night, version)
        _remove_last_round(db, night)
        bump_night(db, night_id)
        return read_night(db, night_id)


def _remove_last_round(db: sqlite_utils.Database, night: StoredNight) -> NightRound:
    """Delete the last round and its tables' games (inside the caller's transaction);
    RoundUnderWay when there is none, or once a hand of it is recorded."""
    if not night.rounds:
        raise RoundUnderWay("rounds", N_("no round is drawn yet"))
    last = night.rounds[-1]
    played = db.execute(
        "select count(*) from hands h join night_tables t on t.game_id = h.game_id "
        "where t.night_id = ? and t.round = ?",
        [night.id, last.number],
    ).fetchone()[0]
    if played:
        raise RoundUnderWay(
            "rounds",
            N_("round {number} has begun: a hand is recorded, so it stays as drawn"),
            number=last.number,
        )
    for table in last.tables:
        writes.delete_game_rows(db, table.game_id)
    db.execute("delete from night_tables where night_id = ? and round = ?", [night.id, last.number])
    db.execute(
        "delete from night_rounds where night_id = ? and number = ?", [night.id, last.number]
    )
    return last


def _draw(
    night: StoredNight,
    history: tuple[Round, ...],
    attempt: int,
    ratings: Mapping[str, Rating] | None,
) -> Round:
    settings = night.settings
    return draw_round(
        night.players,
        history,
        seed=night.seed,
        mode=settings.draw,  # type: ignore[arg-type]
        odd=settings.odd,  # type: ignore[arg-type]
        # The balanced draw evens out the skills (mu) of those the club has rated.
        ratings={name: rating.mu for name, rating in (ratings or {}).items()},
        attempt=attempt,
    )


def insert_round(
    db: sqlite_utils.Database,
    night: StoredNight,
    number: int,
    drawn: Round,
    attempt: int,
    table_name: Any,
) -> None:
    """A drawn round's rows, inside the caller's transaction: each table a new game of the
    club, named by `table_name(round, position)` (a tournament's rounds come here too)."""
    check_room_for_games(db, night.club_id, len(drawn.tables))
    settings = night.settings
    # Each table is a game of the club, so it plays by the club's house rules, as the
    # club's other new games do (the variant is the table's: it follows the seating).
    club = read_club(db, night.club_id)
    house_rules = club.settings.get("rules") or None
    # The tables play the club's game: the seating of its family for each table's shape.
    family = get_family(club.family)
    stamp = writes.now()
    for position, table in enumerate(drawn.tables, 1):
        sides = [
            Side(default_side_name(players, k), players) for k, players in enumerate(table.sides)
        ]
        seating = family.seating_for(tuple(len(side) for side in table.sides))
        if seating is None:
            raise RuleError(
                "odd",
                N_("this club's game seats no such table: let the players left over sit out"),
            )
        built = writes.build_table(
            seating, settings.target, house_rules, sides, None, settings.fixed_hands, family.key
        )
        game_id = writes.new_game_id()
        writes.insert_game(db, game_id, table_name(number, position), built, house_rules, stamp)
        link_game(db, night.club_id, game_id)
        db["night_tables"].insert(
            {"night_id": night.id, "round": number, "position": position, "game_id": game_id}
        )
    db["night_rounds"].insert(
        {
            "night_id": night.id,
            "number": number,
            "bye": json.dumps(list(drawn.bye)),
            "attempt": attempt,
            "drawn_at": stamp,
        }
    )
