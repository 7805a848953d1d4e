"""A club night run as a tournament (docs/rules.md §6): match points with or without draws, a
Mitchell movement of fixed pairs, timed rounds. Beside scorer.store.nights, not inside it.

What a tournament night adds to a night's settings is kept in the same JSON column
(nights.settings), so a night is still made in one transaction (its Idempotency-Key covering
the whole request); a plain night's settings are written exactly as before. The extra keys:
``draws`` (false: draws switched off), ``movement`` ("mitchell") with its ``pairs``, and the
round's ``minutes`` and ``warning_minutes``.

A timed round's clock starts when the round is drawn (night_rounds.drawn_at).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, replace
from datetime import datetime
from typing import Any

import sqlite_utils

from scorer.core.draw import Round
from scorer.core.errors import N_, RuleError
from scorer.core.movements import final_table, mitchell_pairs, mitchell_round
from scorer.core.round_clock import RoundClock
from scorer.store import nights, writes
from scorer.store.db import transaction
from scorer.store.nights import NightNotFound, NightSettings, RoundUnderWay, StoredNight

MOVEMENTS: tuple[str, ...] = ("draw", "mitchell")


@dataclass(frozen=True)
class TournamentSettings(NightSettings):
    """A night's settings with the tournament's: draws, movement and pairs, the round's time."""

    draws: bool = True
    movement: str = "draw"
    pairs: tuple[tuple[str, str], ...] = ()
    minutes: int | None = None
    warning_minutes: int = 0

    def to_json(self) -> dict[str, Any]:
        data = super().to_json()
        if not self.draws:
            data["draws"] = False
        if self.movement != "draw":
            data["movement"] = self.movement
            data["pairs"] = [list(pair) for pair in self.pairs]
        if self.minutes is not None:
            data["round"] = {
                **data["round"],
                "minutes": self.minutes,
                "warning_minutes": self.warning_minutes,
            }
        return data


@dataclass(frozen=True)
class Tournament:
    """A night's tournament settings as stored (a plain night: the defaults)."""

    draws: bool = True
    movement: str = "draw"
    pairs: tuple[tuple[str, str], ...] = ()
    minutes: int | None = None
    warning_minutes: int = 0
    # Tables won by forfeit: (round, table) -> the absent side's index.
    forfeits: tuple[tuple[tuple[int, int], int], ...] = ()
    final_round: int | None = None  # the round of the final table, once seated

    @property
    def timed(self) -> bool:
        return self.minutes is not None

    def to_json(self) -> dict[str, Any]:
        """What the night's JSON says of it (beside the night's own settings)."""
        data: dict[str, Any] = {"movement": self.movement, "draws": self.draws}
        if self.movement == "mitchell":
            data["pairs"] = [list(pair) for pair in self.pairs]
        if self.final_round is not None:
            data["final_round"] = self.final_round
        data["forfeits"] = [
            {"round": number, "table": position, "absent": absent}
            for (number, position), absent in self.forfeits
        ]
        return data


def tournament_from_json(settings: dict[str, Any]) -> Tournament:
    end = settings.get("round") or {}
    return Tournament(
        draws=bool(settings.get("draws", True)),
        movement=str(settings.get("movement", "draw")),
        pairs=tuple((pair[0], pair[1]) for pair in settings.get("pairs", ())),
        minutes=end.get("minutes"),
        warning_minutes=int(end.get("warning_minutes", 0)),
        final_round=settings.get("final_round"),
    )


def load_tournament(db: sqlite_utils.Database, night_id: str) -> Tournament:
    row = db.execute("select settings from nights where id = ?", [night_id]).fetchone()
    if row is None:
        raise NightNotFound(night_id)
    forfeits = tuple(sorted(forfeits_of(db, night_id).items()))
    return replace(tournament_from_json(json.loads(row[0])), forfeits=forfeits)


def round_clocks(
    db: sqlite_utils.Database, night_id: str, tournament: Tournament
) -> dict[int, RoundClock]:
    """Each drawn round's clock, by round number (none for a night without timed rounds)."""
    if tournament.minutes is None:
        return {}
    return {
        row[0]: RoundClock(
            datetime.fromisoformat(row[1]), tournament.minutes, tournament.warning_minutes
        )
        for row in db.execute(
            "select number, drawn_at from night_rounds where night_id = ? order by number",
            [night_id],
        )
    }


def mitchell_next_round(night: StoredNight, tournament: Tournament) -> Round:
    """The movement's next round for the night as it stands."""
    return mitchell_round(mitchell_pairs(tournament.pairs), len(night.rounds) + 1)


def draw_mitchell_round(
    db: sqlite_utils.Database, night_id: str, *, version: int | None, table_name: Any
) -> StoredNight:
    """Seat the movement's next round and make its tables' games, all or nothing (as
    scorer.store.nights.draw_next_round does for a drawn round, its helpers reused)."""
    with transaction(db):
        night = nights.read_night(db, night_id)
        nights.check_night_version(night, version)
        if len(night.rounds) >= night.settings.rounds:
            raise RoundUnderWay(
                "rounds",
                N_("the night's {rounds} rounds are all drawn"),
                rounds=night.settings.rounds,
            )
        tournament = load_tournament(db, night_id)
        seated = mitchell_next_round(night, tournament)
        nights.insert_round(db, night, len(night.rounds) + 1, seated, 0, table_name)
        nights.bump_night(db, night_id)
        return nights.read_night(db, night_id)


def forfeits_of(db: sqlite_utils.Database, night_id: str) -> dict[tuple[int, int], int]:
    """The night's tables won by forfeit: (round, table) -> the absent side's index."""
    return {
        (row[0], row[1]): row[2]
        for row in db.execute(
            "select round, position, absent from night_forfeits where night_id = ?", [night_id]
        )
    }


def _table_of(night: StoredNight, number: int, position: int) -> nights.NightTable:
    for past in night.rounds:
        if past.number == number:
            for table in past.tables:
                if table.position == position:
                    return table
    raise NightNotFound(f"{night.id}/rounds/{number}/tables/{position}")


def set_forfeit(
    db: sqlite_utils.Database,
    night_id: str,
    number: int,
    position: int,
    absent: int | None,
    *,
    version: int | None,
) -> StoredNight:
    """Declare a table won by forfeit (``absent``: the side that did not come), or withdraw it
    (None). Refused once a hand is recorded at that table: then the game was played."""
    with transaction(db):
        night = nights.read_night(db, night_id)
        nights.check_night_version(night, version)
        table = _table_of(night, number, position)
        if absent is not None:
            if not 0 <= absent < len(table.drawn.sides):
                raise RuleError("absent", N_("must be the number of one of the table's sides"))
            played = db.execute(
                "select count(*) from hands where game_id = ?", [table.game_id]
            ).fetchone()[0]
            if played:
                raise RoundUnderWay(
                    "absent", N_("a hand is recorded at this table: its game was played")
                )
        db.execute(
            "delete from night_forfeits where night_id = ? and round = ? and position = ?",
            [night_id, number, position],
        )
        if absent is not None:
            db["night_forfeits"].insert(
                {
                    "night_id": night_id,
                    "round": number,
                    "position": position,
                    "absent": absent,
                    "created_at": writes.now(),
                }
            )
        nights.bump_night(db, night_id)
        return nights.read_night(db, night_id)


def seat_final_table(
    db: sqlite_utils.Database,
    night_id: str,
    ranking: list[str],
    *,
    per_table: int,
    version: int | None,
    table_name: Any,
) -> StoredNight:
    """The final table as one more round (after the planned ones): the ``per_table`` best of
    each table of the last round by the night's ``ranking``, the others sitting out."""
    with transaction(db):
        night = nights.read_night(db, night_id)
        nights.check_night_version(night, version)
        if len(night.rounds) < night.settings.rounds:
            raise RoundUnderWay(
                "rounds",
                N_("the final table comes after the night's {rounds} rounds"),
                rounds=night.settings.rounds,
            )
        row = db.execute("select settings from nights where id = ?", [night_id]).fetchone()
        settings = json.loads(row[0])
        if settings.get("final_round"):
            raise RoundUnderWay("per_table", N_("the final table is already seated"))
        last = night.rounds[-1]
        table = final_table(
            ranking, per_table=per_table, tables=[t.drawn.players for t in last.tables]
        )
        seated = set(table.players)
        bye = tuple(sorted(player for player in night.players if player not in seated))
        number = len(night.rounds) + 1
        nights.insert_round(db, night, number, Round((table,), bye), 0, table_name)
        settings["final_round"] = number
        db.execute("update nights set settings = ? where id = ?", [json.dumps(settings), night_id])
        nights.bump_night(db, night_id)
        return nights.read_night(db, night_id)


def draw_next_round(
    db: sqlite_utils.Database,
    night_id: str,
    *,
    version: int | None,
    table_name: Any,
    ratings: Any = None,
) -> StoredNight:
    """The night's next round, whatever its movement: the Mitchell's seating, else the draw
    (scorer.store.nights.draw_next_round). The API and the pages both draw through here."""
    if load_tournament(db, night_id).movement == "mitchell":
        return draw_mitchell_round(db, night_id, version=version, table_name=table_name)
    return nights.draw_next_round(
        db, night_id, version=version, table_name=table_name, ratings=ratings
    )


def redraw_round(
    db: sqlite_utils.Database,
    night_id: str,
    *,
    version: int | None,
    table_name: Any,
    ratings: Any = None,
) -> StoredNight:
    """Draw the last round again: refused for a movement (its rounds are set) and once the
    final table is seated."""
    tournament = load_tournament(db, night_id)
    if tournament.movement == "mitchell":
        raise RoundUnderWay("rounds", N_("a movement's rounds are set: none is redrawn"))
    if tournament.final_round is not None:
        raise RoundUnderWay("rounds", N_("the final table is seated: no round is redrawn"))
    return nights.redraw_round(
        db, night_id, version=version, table_name=table_name, ratings=ratings
    )


def add_player(
    db: sqlite_utils.Database, night_id: str, name: str, *, version: int | None = None
) -> str:
    """A late arrival (scorer.store.nights.add_player); refused at a Mitchell night, whose
    players are its pairs, fixed when it was made."""
    if load_tournament(db, night_id).movement == "mitchell":
        raise RoundUnderWay(
            "name", N_("a Mitchell movement's pairs are fixed: a late arrival cannot join it")
        )
    return nights.add_player(db, night_id, name, version=version)
