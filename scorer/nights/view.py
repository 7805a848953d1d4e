"""A night as the organiser and the wall see it: each table's game as it stands, and the
standings worked out from them (scorer.core.leaderboard). The API, the pages and the watch page
all read this one view.

The view is built once per state of the night (``load_night_view``): on the largest night the
limits allow (300 tables) building it reads and replays every table's game, some 200 000
Python calls, and every phone and wall watching the night asks again after each change.
Kept per worker by the night's stamp (scorer.store.night_stamp: two queries of version
columns), a view is never stale: any change that alters it moves the stamp. Nothing that
depends on the time of the request (a round's clock) or on the request (its language, a
form's CSRF token) is in it."""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Hashable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from functools import cached_property
from typing import Any, TypeVar

import sqlite_utils

from scorer import store
from scorer.core.errors import RuleError
from scorer.core.families import DEFAULT_FAMILY
from scorer.core.leaderboard import Standing, TableResult, standings
from scorer.core.ratings import Rating, Ratings, rating_json
from scorer.store import (
    ClubBoard,
    ClubNotFound,
    StoredNight,
    app_cache,
    board_cache,
    load_club_board,
    night_stamp,
    replayed_game,
)

T = TypeVar("T")

# Views kept per worker: the nights being played at once on this server, each at its state
# now (an older state's view is never asked again and falls out).
NIGHT_VIEWS = 8


@dataclass(frozen=True)
class TableView:
    """A table of a round and its game now (None: a game that no longer replays)."""

    round: int
    position: int
    game_id: str
    watch_id: str
    sides: tuple[tuple[str, tuple[str, ...]], ...]  # (name, players) of each side
    game: store.ReplayedGame | None
    # The family key of the table's game ("modern-american"), never its seating's
    # ("four-player"); the club's when the game no longer replays.
    family: str

    @property
    def totals(self) -> tuple[int, ...]:
        return self.game.state.totals if self.game else tuple(0 for _ in self.sides)

    @property
    def winner(self) -> int | None:
        return self.game.state.winner if self.game else None

    @property
    def shared_by(self) -> tuple[int, ...]:
        """The sides sharing the win (the house rule "shared" on a tie at the top), else ()."""
        return self.game.state.shared_by if self.game else ()

    @property
    def finished(self) -> bool:
        """The table's game is over: a winner, or a win shared (it takes no more hands)."""
        return bool(self.game and self.game.state.finished)

    @property
    def hands(self) -> int:
        return len(self.game.state.results) if self.game else 0


@dataclass(frozen=True)
class NightView:
    night: StoredNight
    rounds: tuple[tuple[TableView, ...], ...]
    standings: tuple[Standing, ...]
    ratings: dict[str, Rating]  # the club's, from every finished game (the night's too)
    family: str  # the key of the game the club plays, so its tables play: the night's
    # What is worked out from this view and kept with it (`kept`): a view is kept per state
    # of the night, so what it keeps is too, and goes when the view does.
    memo: dict[Hashable, Any] = field(default_factory=dict, compare=False, repr=False)

    def kept(self, key: Hashable, make: Callable[[], T]) -> T:
        """What `make` works out from this view, made once per `key` (which names whatever
        else it depends on: a language, the clocks' phases)."""
        if key not in self.memo:
            self.memo[key] = make()
        return self.memo[key]  # type: ignore[no-any-return]

    @property
    def etag(self) -> str:
        """The night's version, every table game's and its players' ratings: a hand recorded,
        or a rating moved by another game of the club, changes the tag."""
        return f"night-{self.night.id}.{self.night.version}.{self._digest}"

    @property
    def watch_etag(self) -> str:
        """The same for the wall's address, naming only the wall (never the night's id)."""
        return f"wall-{self.night.watch_id}.{self.night.version}.{self._digest}"

    @cached_property  # a view is kept and asked again: its tables are digested once
    def _digest(self) -> str:
        versions = ",".join(
            f"{t.game_id}.{t.game.version if t.game else 0}"
            for tables in self.rounds
            for t in tables
        )
        # The standings' ratings are in the night's JSON: a client holding the tag from
        # before a game of the club ended must not be told 304.
        ratings = repr([self.ratings.get(name) for name in self.night.players])
        return hashlib.sha256(f"{versions};{ratings}".encode()).hexdigest()[:16]

    @property
    def current_round_started(self) -> bool:
        """A hand is recorded at a table of the last round drawn (no redraw then)."""
        return bool(self.rounds) and any(t.hands for t in self.rounds[-1])


def club_board(db: sqlite_utils.Database, club_id: str) -> ClubBoard | None:
    """The club's board (cached per version of its games); None for a club gone."""
    try:
        return load_club_board(db, club_id, this_year(), cache=board_cache())
    except ClubNotFound:
        return None


def this_year() -> str:
    """The year the club's board counts (its ratings are read from that board)."""
    return str(datetime.now(UTC).year)


def load_night_view(db: sqlite_utils.Database, night_id: str) -> NightView:
    """The night's view as it stands, built once per state (see the module); NightNotFound
    for an unknown id. The stamp is read before the night: a view stored under a stamp is
    of that state or a later one, and a stamp never comes back once moved."""
    key = (night_id, night_stamp(db, night_id), this_year())
    views = app_cache("night_views", NIGHT_VIEWS)
    return views.get_or_make(key, lambda: night_view(db, store.load_night(db, night_id)))


def night_view(db: sqlite_utils.Database, night: StoredNight) -> NightView:
    board = club_board(db, night.club_id)
    club_family = board.club.family if board else DEFAULT_FAMILY.key
    rounds = []
    for past in night.rounds:
        tables = []
        for table in past.tables:
            try:
                game: store.ReplayedGame | None = replayed_game(db, table.game_id)
            except (store.NotFound, RuleError):
                game = None
            sides = (
                tuple((side.name, side.players) for side in game.table.sides)
                if game
                else tuple(("", side) for side in table.drawn.sides)
            )
            tables.append(
                TableView(
                    past.number,
                    table.position,
                    table.game_id,
                    table.watch_id,
                    sides,
                    game,
                    game.table.profile.family.key if game else club_family,
                )
            )
        rounds.append(tuple(tables))
    results = [
        TableResult(tuple(players for _, players in t.sides), t.totals, t.winner, t.shared_by)
        for tables in rounds
        for t in tables
    ]
    ranking = night.settings.ranking
    lines = standings(night.players, results, ranking)  # type: ignore[arg-type]
    ratings = (board.stats.ratings if board else Ratings({}, {})).current
    return NightView(night, tuple(rounds), tuple(lines), ratings, club_family)


def _table_json(table: TableView, *, public: bool) -> dict[str, Any]:
    data: dict[str, Any] = {
        "table": table.position,
        "watch_url": f"/watch/{table.watch_id}",
        "profile": table.game.profile_key if table.game else None,
        "sides": [
            {"name": name, "players": list(players), "total": table.totals[k]}
            for k, (name, players) in enumerate(table.sides)
        ],
        "hands": table.hands,
        "winner": table.winner,
        "shared_win": list(table.shared_by),
        "finished": table.finished,
    }
    if not public:
        data = {"game": table.game_id, **data}
    return data


def night_json(view: NightView, *, public: bool = False) -> dict[str, Any]:
    """The night as the API answers it; ``public``: as its watch address shows it, with no
    game's address (only their watch links) and no club."""
    night = view.night
    data: dict[str, Any] = {
        **night.settings.to_json(),
        "players": list(night.players),
        "created_at": night.created_at,
        "rounds_drawn": len(night.rounds),
        "rounds": [
            {
                "number": past.number,
                "bye": list(past.bye),
                "tables": [_table_json(t, public=public) for t in tables],
            }
            for past, tables in zip(night.rounds, view.rounds, strict=True)
        ],
        "standings": [
            {
                "rank": line.rank,
                "player": line.player,
                "rounds": line.rounds,
                "wins": line.wins,
                "points": line.points,
                "rating": rating_json(view.ratings.get(line.player)),
            }
            for line in view.standings
        ],
        "watch_url": f"/nights/watch/{night.watch_id}",
    }
    if not public:
        data = {"id": night.id, "version": night.version, **data}
    return data
