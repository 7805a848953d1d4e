"""Section 8: a club's page for 50 and 500 games of 30 hands (cold, from its cache, and
after one new hand in one of its games)."""

from __future__ import annotations

import time
import tracemalloc

from bench import fixtures
from bench.context import Bench
from bench.measure import Row, Section, fmt_bytes, fmt_time, median_of
from bench.site import Site
from scorer import store
from scorer.store import club_games, clubs
from scorer.store.club_board import BOARD_CACHE_SIZE, SUMMARY_CACHE_SIZE
from scorer.store.db import transaction

SIZES = (50, 500)
HANDS = 30
LIMIT = 0.3  # seconds
PER_GAME_SPREAD = 1.5  # the per-game cost at 500 within 1.5x the cost at 50


def make_club(site: Site, games: int) -> tuple[str, list[str]]:
    """A club of `games` stored games of HANDS hands each, filed directly; (club, games)."""
    players = [name for side in fixtures.SIDES for name in side.players]
    club_id = clubs.create_club(site.db, name=f"Club of {games}", players=players)
    ids = [fixtures.make_game(site.db, HANDS) for _ in range(games)]
    with transaction(site.db):
        for game_id in ids:
            club_games.link_game(site.db, club_id, game_id)
    return club_id, ids


def after_new_hand(site: Site, path: str, game_id: str) -> float:
    """One more hand recorded in one game of the club, then the club page: its time."""
    store.record_hand(site.db, game_id, fixtures.hands(HANDS + 1)[-1])
    return timed(site, path)


def timed(site: Site, path: str) -> float:
    start = time.perf_counter()
    site.get(path)
    return time.perf_counter() - start


def run(section: Section, bench: Bench) -> None:
    site = bench.site
    if not site.has_page("/clubs/x"):
        section.rows.append(Row("club page", "not available yet"))
        return
    repeat = 5 if bench.quick else 11
    per_game: dict[int, float] = {}
    for size in SIZES:
        club_id, ids = make_club(site, size)
        path = f"/clubs/{club_id}"
        cold = timed(site, path)
        warm = median_of([timed(site, path) for _ in range(repeat)])
        # A different game each time: each takes one hand, as at a club night.
        changed = median_of([after_new_hand(site, path, ids[i]) for i in range(repeat)])
        per_game[size] = warm / size
        name = f"club page, {size} games of {HANDS} hands"
        section.rows.append(Row(f"{name}, first view (replays)", fmt_time(cold)))
        section.rows.append(
            Row(
                f"club page after one new hand in one game, {size} games",
                fmt_time(changed),
                f"{fmt_time(changed / size)} per game",
                f"< {LIMIT} s",
                changed < LIMIT,
            )
        )
        section.rows.append(
            Row(
                name,
                fmt_time(warm),
                f"{fmt_time(warm / size)} per game",
                f"< {LIMIT} s",
                warm < LIMIT,
            )
        )
    spread = per_game[SIZES[1]] / per_game[SIZES[0]]
    section.rows.append(
        Row(
            "club page, cost per game at 500 against 50",
            f"{spread:.2f}×",
            "",
            f"< {PER_GAME_SPREAD}×",
            spread < PER_GAME_SPREAD,
        )
    )
    _memory(section, site, path)


def _memory(section: Section, site: Site, path: str) -> None:
    """Python memory held after many views of the largest club: it must not grow."""
    tracemalloc.start()
    for _ in range(5):
        site.get(path)
    before, _peak = tracemalloc.get_traced_memory()
    for _ in range(30):
        site.get(path)
    after, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    growth = after - before
    section.rows.append(
        Row(
            "club page, memory growth over 30 more views",
            fmt_bytes(max(growth, 0)),
            f"peak {fmt_bytes(peak)}",
            "< 1 MB",
            growth < 1_000_000,
        )
    )
    section.notes.append(
        "The club page keeps each club's standings keyed by the club's version and its games' "
        f"versions (at most {BOARD_CACHE_SIZE} clubs), and each game's light summary keyed by "
        f"its version (at most {SUMMARY_CACHE_SIZE} games, never the replays): the first view "
        "replays every game once, a view after a change replays only the games that changed."
    )
