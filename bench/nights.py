"""Section 12: club nights (issue 23): drawing a round for 40 players, the leaderboard of a
night of 10 tables x 6 rounds, and a club's ratings over 500 games."""

from __future__ import annotations

import random

from bench import fixtures
from bench.context import Bench
from bench.measure import Row, Section, fmt_time, median_of, sample
from scorer import store
from scorer.core.draw import Round, draw_round
from scorer.core.leaderboard import TableResult, standings
from scorer.core.ratings import RatedGame, rate
from scorer.store import clubs, nights

GOAL = 0.1  # seconds, the goal for a draw and for a leaderboard
PLAYERS = [f"Player {k:02}" for k in range(40)]


def night_history(rounds: int) -> list[Round]:
    history: list[Round] = []
    ratings = {name: 20 + k % 10 for k, name in enumerate(PLAYERS)}
    for _ in range(rounds):
        history.append(draw_round(PLAYERS, history, seed=7, mode="balanced", ratings=ratings))
    return history


def results(history: list[Round]) -> list[TableResult]:
    rng = random.Random(3)
    return [
        TableResult(table.sides, (rng.randrange(-500, 3000, 5), rng.randrange(-500, 3000, 5)), 0)
        for drawn in history
        for table in drawn.tables
    ]


def rated_games(count: int) -> list[RatedGame]:
    rng = random.Random(5)
    players = PLAYERS[:12]
    games = []
    for _ in range(count):
        four = rng.sample(players, 4)
        totals = (rng.randrange(0, 6000, 5), rng.randrange(0, 6000, 5))
        games.append(
            RatedGame((tuple(four[:2]), tuple(four[2:])), totals, 0 if totals[0] > totals[1] else 1)
        )
    return games


def timed_row(section: Section, measure: str, fn: object, repeat: int, goal: float | None) -> None:
    seconds = median_of([sample(fn, 1) for _ in range(repeat)])  # type: ignore[arg-type]
    row = Row(measure, fmt_time(seconds))
    if goal is not None:
        row.goal = f"< {fmt_time(goal)}"
        row.met = seconds < goal
    section.rows.append(row)


def run(section: Section, bench: Bench) -> None:
    repeat = bench.repeat
    history = night_history(5)
    timed_row(
        section,
        "draw round 6 of a night of 40 players (balanced)",
        lambda: draw_round(PLAYERS, history, seed=7, mode="balanced"),
        repeat,
        GOAL,
    )
    tables = results(night_history(6))
    timed_row(
        section,
        "standings of a night of 10 tables x 6 rounds (pure)",
        lambda: standings(PLAYERS, tables),
        repeat,
        GOAL,
    )
    timed_row(
        section,
        "ratings of a club of 500 games (openskill)",
        lambda: rate(rated_games(500)),
        repeat,
        None,
    )
    # The whole leaderboard as the API answers it: 60 stored games of 4 hands, replayed once
    # (the first GET), then from the games' cache (what a wall's live check costs on a change).
    site = bench.site
    club_id = clubs.create_club(site.db, name="Night club", players=PLAYERS)
    settings = nights.NightSettings(rounds=6, fixed_hands=4, target=None)
    night_id = nights.create_night(site.db, club_id, PLAYERS, settings)
    for _ in range(6):
        night = nights.load_night(site.db, night_id)
        nights.draw_next_round(
            site.db, night_id, version=night.version, table_name=lambda r, t: f"T{t} R{r}"
        )
    for game_id in nights.load_night(site.db, night_id).game_ids:
        for hand in fixtures.hands(4):
            store.record_hand(site.db, game_id, hand)
    client = site.client
    path = f"/api/nights/{night_id}"
    first = median_of([sample(lambda: client.get(path), 1) for _ in range(1)])
    section.rows.append(Row("GET a night of 10 tables x 6 rounds, first read", fmt_time(first)))
    timed_row(
        section,
        "GET a night of 10 tables x 6 rounds, games cached",
        lambda: client.get(path),
        repeat,
        GOAL,
    )
