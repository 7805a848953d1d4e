"""A night run as a tournament (issue 33): what its request may add, its match-point
standings, and what its JSON adds. Beside the night's own payloads and view, not inside them.

A request to make a night may say, besides the night's fields (scorer.nights.payloads):
``"ranking": "match_points"``; ``"draws": false`` (draws switched off); ``"movement":
"mitchell"`` with ``"pairs": [["Ann", "Bob"], ...]`` (the first half North-South; the night's
players are the pairs' players, so ``"players"`` is left out); and in ``"round"`` a time,
``"minutes"`` and ``"warning_minutes"``, beside its ``"fixed_hands"`` or ``"target"``.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from scorer import store
from scorer.core.errors import N_, RuleError
from scorer.core.leaderboard import RANKINGS
from scorer.core.limits import (
    check_club_name,
    check_mitchell_pairs,
    check_round_minutes,
    check_warning_minutes,
    same_name,
)
from scorer.core.match_points import (
    DEFAULT_FAMILY,
    FORFEIT_CARD_POINTS,
    Forfeit,
    Match,
    MatchStanding,
    forfeit_card_points,
    match_standings,
)
from scorer.core.movements import mitchell_pairs
from scorer.core.ratings import rating_json
from scorer.core.round_clock import ClockReading, RoundClock, read_clock, winner_at_time
from scorer.nights.payloads import parse_night
from scorer.nights.view import NightView
from scorer.store import (
    MOVEMENTS,
    Tournament,
    TournamentSettings,
    get_db,
    load_tournament,
    round_clocks,
)
from scorer.web.api_contract import PayloadError

MATCH_POINTS = "match_points"
NIGHT_RANKINGS: tuple[str, ...] = (*RANKINGS, MATCH_POINTS)
TIME_FIELDS = ("minutes", "warning_minutes")


def parse_tournament_night(data: Any) -> tuple[list[str], TournamentSettings]:
    """The players and settings of a POST .../nights body, the tournament's fields included."""
    if not isinstance(data, dict):
        raise PayloadError(None, N_("must be a JSON object"))
    rest = {k: v for k, v in data.items() if k not in ("draws", "movement", "pairs")}
    ranking = rest.get("ranking", RANKINGS[0])
    if ranking not in NIGHT_RANKINGS:
        raise RuleError(
            "ranking", N_("must be one of {choices}"), choices=", ".join(NIGHT_RANKINGS)
        )
    if ranking == MATCH_POINTS:
        rest["ranking"] = "points"  # checked by parse_night as a plain ranking, set back below
    draws = data.get("draws", True)
    if not isinstance(draws, bool):
        raise PayloadError("draws", N_("must be true or false"))
    movement = data.get("movement", MOVEMENTS[0])
    if movement not in MOVEMENTS:
        raise RuleError("movement", N_("must be one of {choices}"), choices=", ".join(MOVEMENTS))
    pairs: tuple[tuple[str, str], ...] = ()
    if movement == "mitchell":
        if "players" in data:
            raise PayloadError(
                "players", N_("a Mitchell movement's players are its pairs': send only the pairs")
            )
        pairs = _pairs(data.get("pairs"))
        rest["players"] = [name for pair in pairs for name in pair]
        # One round per table unless the organiser says fewer: then every meeting is played.
        rest.setdefault("rounds", (len(pairs) + 1) // 2)
    elif "pairs" in data:
        raise PayloadError("pairs", N_('pairs are for "movement": "mitchell"'))
    end = rest.get("round")
    minutes, warning = None, 0
    if isinstance(end, dict) and any(key in end for key in TIME_FIELDS):
        end = dict(end)
        if "minutes" not in end:
            raise RuleError("round.minutes", N_("a warning needs the round's minutes"))
        minutes = check_round_minutes(end.pop("minutes"))
        warning = check_warning_minutes(end.pop("warning_minutes", 0), minutes)
        rest["round"] = end
    players, settings = parse_night(rest)
    if movement == "mitchell":
        tables = len(mitchell_pairs(pairs).north_south)
        if settings.rounds > tables:
            raise RuleError(
                "rounds",
                N_("a Mitchell movement of {tables} tables has {tables} rounds at most"),
                tables=tables,
            )
    base = {field: getattr(settings, field) for field in settings.__dataclass_fields__}
    base["ranking"] = ranking
    return players, TournamentSettings(
        **base,
        draws=draws,
        movement=movement,
        pairs=pairs,
        minutes=minutes,
        warning_minutes=warning,
    )


def _pairs(value: Any) -> tuple[tuple[str, str], ...]:
    """The pairs as sent, each name by the one name rule (scorer.core.limits), all distinct."""
    if not isinstance(value, list):
        raise PayloadError("pairs", N_("must be a list of pairs of names"))
    check_mitchell_pairs(len(value))
    pairs = []
    for k, pair in enumerate(value):
        if not isinstance(pair, list) or len(pair) != 2:
            raise PayloadError(f"pairs[{k}]", N_("must be a pair: two names"))
        first, second = (check_club_name(name, f"pairs[{k}]") for name in pair)
        pairs.append((first, second))
    mitchell_pairs(pairs)  # the names all different (as a table would tell them)
    names = [name for pair in pairs for name in pair]
    for k, name in enumerate(names):
        if any(same_name(name, other) for other in names[:k]):
            raise RuleError(f"pairs[{k // 2}]", N_("each player needs a different name"))
    return tuple(pairs)


def parse_forfeit(data: Any) -> int:
    """The absent side's number (from 0) of a PUT .../forfeit body."""
    if not isinstance(data, dict) or set(data) != {"absent"}:
        raise PayloadError("absent", N_('send the absent side\'s number, and only it, in "absent"'))
    absent = data["absent"]
    if isinstance(absent, bool) or not isinstance(absent, int):
        raise PayloadError("absent", N_("must be the number of one of the table's sides"))
    return absent


def parse_final(data: Any) -> int:
    """How many of each table go to the final table, from a POST .../final body."""
    if not isinstance(data, dict) or set(data) != {"per_table"}:
        raise PayloadError(
            "per_table",
            N_('send how many of each table go to the final, and only it, in "per_table"'),
        )
    return data["per_table"]  # checked by the core (scorer.core.movements.qualifiers)


def night_ranking(view: NightView) -> list[str]:
    """The players, best first, by the ranking the night shows."""
    if view.night.settings.ranking == MATCH_POINTS:
        return [line.player for line in tournament_state(view, datetime.now(UTC)).standings]
    return [line.player for line in view.standings]


@dataclass(frozen=True)
class TournamentState:
    """The night's tournament at one phase of its clocks: its settings and forfeits, each
    round's clock, the tables time has ended (with their winners) and the match-point
    standings (None when the night ranks otherwise). No reading of a clock: that is the
    request's (its seconds left change every second; what it decides here, only with the
    phase)."""

    tournament: Tournament
    clocks: dict[int, RoundClock]
    ended: dict[str, int | None]
    standings: tuple[MatchStanding, ...] | None


def tournament_state(view: NightView, now: datetime) -> TournamentState:
    """The night's tournament as of `now`, worked out once per state of the night, of its
    tournament's rows and of its rounds' clocks, and per round whose time is called (kept
    with the view). Which tables time has ended changes only when a round's time is called
    (or a hand is recorded, which is a new view): on the largest timed night, asking each
    table's clock and hands at every request cost 600 queries. The settings, forfeits and
    clocks are read at each request (three small queries) and name the state they make."""
    db = get_db()
    tournament = load_tournament(db, view.night.id)
    clocks = round_clocks(db, view.night.id, tournament)
    phases = tuple((number, clock, now >= clock.ends_at) for number, clock in clocks.items())
    return view.kept(
        ("tournament", tournament, phases), lambda: _state_at(view, tournament, clocks, now)
    )


def _state_at(
    view: NightView, tournament: Tournament, clocks: dict[int, RoundClock], now: datetime
) -> TournamentState:
    ended = time_results(view, now) if tournament.timed else {}
    lines = None
    if view.night.settings.ranking == MATCH_POINTS:
        lines = tuple(night_match_standings(view, tournament, ended))
    return TournamentState(tournament, clocks, ended, lines)


def night_matches(
    view: NightView,
    tournament: Tournament,
    ended_by_time: dict[str, int | None] | None = None,
) -> tuple[list[Match], list[Forfeit]]:
    """Each table's game as a match (finished when its game is, or when time ended it), and
    the tables won by forfeit instead."""
    forfeited = dict(tournament.forfeits)
    matches, forfeits = [], []
    for tables in view.rounds:
        for table in tables:
            sides = tuple(players for _, players in table.sides)
            absent = forfeited.get((table.round, table.position))
            if absent is not None:
                present = tuple(p for k, side in enumerate(sides) if k != absent for p in side)
                forfeits.append(Forfeit(present, sides[absent], table.family))
                continue
            state = table.game.state if table.game else None
            finished = bool(state and state.finished)
            winner = state.winner if state else None
            if not finished and ended_by_time and table.game_id in ended_by_time:
                finished, winner = True, ended_by_time[table.game_id]
            matches.append(Match(sides, table.totals, finished, winner))
    return matches, forfeits


def night_match_standings(
    view: NightView, tournament: Tournament, ended_by_time: dict[str, int | None] | None = None
) -> list[MatchStanding]:
    """The night ranked by match points (whatever ranking the night shows)."""
    matches, forfeits = night_matches(view, tournament, ended_by_time)
    return match_standings(view.night.players, matches, forfeits, draws=tournament.draws)


def time_results(view: NightView, now: datetime) -> dict[str, int | None]:
    """The tables time has ended (their last hand recorded after time), each with its
    winner: the higher total (None on a tie at the top)."""
    ended = store.ended_by_time(get_db(), list(view.night.game_ids), now)
    return {
        table.game_id: winner_at_time(table.totals)
        for tables in view.rounds
        for table in tables
        if table.game_id in ended and not (table.game and table.game.state.finished)
    }


def tournament_extras(view: NightView) -> dict[str, Any]:
    """The night's tournament JSON as of now (the one reading of the clock per request)."""
    now = datetime.now(UTC)
    return tournament_json(view, tournament_state(view, now), now)


def clock_tag(extras: dict[str, Any]) -> str:
    """What a night's ETag adds for its clocks: each round's phase, so a client holding the
    night before the warning or the call gets the new phase, not a 304. (The seconds left
    are not in the tag: a client counts down to ``ends_at``.)"""
    clocks = extras.get("clocks")
    return "." + "".join(clock["phase"][0] for clock in clocks.values()) if clocks else ""


def phase_tag(reading: ClockReading | None) -> str:
    """What the wall's ETag adds for the last round's clock: its phase (as clock_tag)."""
    return f".{reading.phase[0]}" if reading else ""


def clock_json(clock: RoundClock, now: datetime) -> dict[str, Any]:
    """A timed round's clock as the API and the wall show it."""
    reading = read_clock(clock, now)
    return {
        "minutes": clock.minutes,
        "warning_minutes": clock.warning_minutes,
        "started_at": clock.started_at.isoformat(timespec="seconds"),
        "ends_at": clock.ends_at.isoformat(timespec="seconds"),
        "phase": reading.phase,
        "seconds_left": reading.seconds_left,
    }


def tournament_json(view: NightView, state: TournamentState, now: datetime) -> dict[str, Any]:
    """What the night's JSON adds: movement, draws, the round's time, each round's clock;
    and, ranked by match points, the standings rows with ``match_points``/``card_points``."""
    tournament = state.tournament
    data: dict[str, Any] = tournament.to_json()
    if tournament.timed:
        data["round"] = {
            **view.night.settings.to_json()["round"],
            "minutes": tournament.minutes,
            "warning_minutes": tournament.warning_minutes,
        }
        data["clocks"] = {
            str(number): clock_json(clock, now) for number, clock in state.clocks.items()
        }
    if state.standings is not None:
        data["standings"] = [
            {
                "rank": line.rank,
                "player": line.player,
                "rounds": line.games,
                "wins": line.wins,
                "draws": line.draws,
                "match_points": line.match_points,
                "card_points": line.card_points,
                "rating": rating_json(view.ratings.get(line.player)),
            }
            for line in state.standings
        ]
    return data


@dataclass(frozen=True)
class TournamentPage:
    """What a night's pages show of its tournament: the match-point standings (None when the
    night ranks otherwise) and the last round's clock as of this request (None: not timed)."""

    standings: tuple[MatchStanding, ...] | None
    clock: ClockReading | None
    ends_at: datetime | None
    draws: bool
    forfeits: tuple[tuple[tuple[int, int], int], ...]
    forfeit_points: int = FORFEIT_CARD_POINTS[DEFAULT_FAMILY]  # the night's family's
    final_round: int | None = None
    movement: str = "draw"


def tournament_page(view: NightView) -> TournamentPage:
    """The night's tournament as its pages show it (read once per page, the clock too)."""
    now = datetime.now(UTC)
    state = tournament_state(view, now)
    tournament = state.tournament
    last = state.clocks.get(len(view.night.rounds)) if view.night.rounds else None
    return TournamentPage(
        state.standings,
        read_clock(last, now) if last else None,
        last.ends_at if last else None,
        tournament.draws,
        tournament.forfeits,
        forfeit_points=forfeit_card_points(view.family),
        final_round=tournament.final_round,
        movement=tournament.movement,
    )
