"""Section 10: short write locks. A small game's writes, alone and while a game at the cap
on hands is corrected by two other clients (gunicorn as `make run` serves, on loopback).

The two correcting clients run in processes of their own: in the timing client's process,
their reading of two 600 KB answers a correction would hold its interpreter lock, and the
timings would measure the benchmark instead of the server.
"""

from __future__ import annotations

import json
import multiprocessing
import os
import tempfile
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

from bench import fixtures, launcher
from bench.context import Bench
from bench.measure import Row, Section, fmt_time
from scorer.core.limits import MAX_HANDS_PER_GAME
from scorer.serve import command_line

ROOT = Path(__file__).resolve().parent.parent
GOAL = 2.0  # p99 during corrections at most twice the p99 alone (issue 11)
WARM_UP = 30  # writes before the timed ones, enough to reach every worker
ROUNDS = 5  # blocks of writes alone, then during corrections, in turn
BLOCK = 20  # writes a block
SETTLE = 0.5  # seconds for the corrections to start or end between blocks


def run(section: Section, bench: Bench) -> None:
    rounds = 2 if bench.quick else ROUNDS
    with tempfile.TemporaryDirectory(prefix="scorer-locks-") as folder:
        database = Path(folder) / "locks.sqlite3"
        db = fixtures.open_db(database)
        try:
            long_game = fixtures.make_game(db, MAX_HANDS_PER_GAME)
            # A fresh small game for each block of writes: all blocks write the same hands.
            small_games = [fixtures.make_game(db, 0) for _ in range(2 * rounds + 1)]
        finally:
            db.close()
        port = launcher.free_port()
        env = {k: v for k, v in os.environ.items() if not k.startswith(("FLASK_", "SCORER_"))}
        env |= {"SCORER_DATABASE": str(database), "SCORER_INSTANCE_PATH": f"{folder}/instance"}
        options = [*command_line(), "--log-level", "warning"]
        command = launcher.gunicorn(options, f"127.0.0.1:{port}", "scorer:create_app()")
        with launcher.running(command, env, port, Path(folder) / "gunicorn.log", ROOT) as server:
            # Every worker's first requests open its caches and connections: not timed.
            small_writes(server.base, small_games.pop(), WARM_UP)
            alone, during, corrections = _alternate(server.base, long_game, small_games, rounds)
    ratio = p99(during.times) / p99(alone.times)
    section.rows.append(writes_row("small-game write (API POST), alone", alone))
    section.rows.append(
        writes_row(f"the same, while a {MAX_HANDS_PER_GAME}-hand game is corrected", during)
    )
    section.rows[-1].ratio = f"p99 {ratio:.1f}× alone"
    section.rows[-1].goal = f"p99 ≤ {GOAL:.0f}× alone"
    section.rows[-1].met = ratio <= GOAL
    statuses = sorted(set(corrections))
    section.notes.append(
        f"{len(alone.times)} sequential writes each way, in {rounds} alternating blocks of "
        f"{BLOCK} (so a neighbour's load on the machine falls on both); two clients correct "
        f"hand 1 of the long game in a loop during the second kind ({len(corrections)} "
        f"corrections, statuses {statuses}; each re-scores {MAX_HANDS_PER_GAME} hands). Failed "
        f"small-game writes: alone {alone.errors}, during {during.errors}."
    )


def _alternate(
    base: str, long_game: str, small_games: list[str], rounds: int
) -> tuple[Writes, Writes, list[int]]:
    """Blocks of small-game writes, alone and during corrections in turn."""
    alone, during = Writes(), Writes()
    processes = multiprocessing.get_context("spawn")
    go, stop, answers = processes.Event(), processes.Event(), processes.Queue()
    correctors = [
        processes.Process(target=_correct, args=(base, long_game, go, stop, answers))
        for _ in range(2)
    ]
    for corrector in correctors:
        corrector.start()
    try:
        for _ in range(rounds):
            time.sleep(SETTLE)  # the last block's corrections have ended
            alone.extend(small_writes(base, small_games.pop(), BLOCK))
            go.set()
            time.sleep(SETTLE)  # the corrections are under way
            during.extend(small_writes(base, small_games.pop(), BLOCK))
            go.clear()
    finally:
        stop.set()
        go.set()
    corrections = [status for _ in correctors for status in answers.get(timeout=120)]
    for corrector in correctors:
        corrector.join(120)
    return alone, during, corrections


class Writes:
    def __init__(self) -> None:
        self.times: list[float] = []
        self.errors = 0

    def extend(self, other: Writes) -> None:
        self.times += other.times
        self.errors += other.errors


def small_writes(base: str, game_id: str, count: int) -> Writes:
    result = Writes()
    for number in range(count):
        start = time.perf_counter()
        status, _, _ = launcher.call(
            "POST", f"{base}/api/games/{game_id}/hands", fixtures.hand_body(number), timeout=60
        )
        result.times.append(time.perf_counter() - start)
        result.errors += status != 201
    return result


def _correct(base: str, game_id: str, go: Any, stop: Any, answers: Any) -> None:
    """One client correcting hand 1 of the long game in a loop while `go` is set; its
    statuses once `stop` is."""
    url = f"{base}/api/games/{game_id}"
    body = json.dumps(fixtures.hand_body(0)).encode()
    statuses: list[int] = []
    while go.wait() and not stop.is_set():
        status, etag = _send(urllib.request.Request(url))
        if status == 200:
            headers = {"If-Match": etag, "Content-Type": "application/json"}
            put = urllib.request.Request(f"{url}/hands/1", body, headers, method="PUT")
            status, _ = _send(put)
        statuses.append(status)
    answers.put(statuses)


def _send(request: urllib.request.Request) -> tuple[int, str]:
    """(status, ETag); the body is read, not parsed: the client stays light on the CPU."""
    try:
        with urllib.request.urlopen(request, timeout=60) as response:
            response.read()
            return response.status, response.headers.get("ETag", "")
    except urllib.error.HTTPError as error:
        error.read()
        error.close()
        return error.code, ""


def p99(times: list[float]) -> float:
    ordered = sorted(times)
    return ordered[min(len(ordered) - 1, round(0.99 * (len(ordered) - 1)))]


def writes_row(name: str, writes: Writes) -> Row:
    ordered = sorted(writes.times)
    p50 = ordered[len(ordered) // 2]
    return Row(name, f"p50 {fmt_time(p50)}, p99 {fmt_time(p99(writes.times))}")
