"""A bounded load test on loopback: a long game's corrections do not fail a small game.

gunicorn as `make run` serves (scorer.serve.SETTINGS) on 127.0.0.1; a game at the cap on
hands (made by one import) is corrected by two clients while a third records hands on a
small game. Every write to the small game succeeds and nothing answers 5xx. No timing is
asserted here: the latency comparison is a row of `make bench` (section 10, bench/locks.py).
"""

from __future__ import annotations

import threading

from apidata import CYCLE, hand, long_export, side
from serving import call, free_port, gunicorn_command, running, server_env

from scorer.core.limits import MAX_HANDS_PER_GAME

SMALL_WRITES = 15
CORRECTORS = 2
CORRECTIONS = 4  # per corrector: each replays the whole long game
JOIN_LIMIT = 240  # seconds; reached only if something hangs


def correction(i: int) -> dict:
    """Hand 1 of the long game, with side B holding 100 or 105 points: a real change."""
    first = CYCLE[0]
    sides = [first["sides"][0], {**first["sides"][1], "hand_points": 100 + 5 * (i % 2)}]
    return {**first, "sides": sides}


def test_small_game_writes_succeed_while_a_long_game_is_corrected(tmp_path):
    env = server_env(tmp_path / "scorer.sqlite3", tmp_path / "instance")
    port = free_port()
    failures: list[str] = []
    with running(gunicorn_command(port), env, port, tmp_path / "gunicorn.log") as server:
        status, long_game, _ = call(
            "POST", f"{server.base}/api/games/import", long_export(MAX_HANDS_PER_GAME)
        )
        assert status == 201, long_game
        status, small, _ = call(
            "POST", f"{server.base}/api/games", {"sides": long_export(0)["sides"]}
        )
        assert status == 201
        long_url = f"{server.base}/api/games/{long_game['id']}"

        def correct(c: int) -> None:
            for i in range(CORRECTIONS):
                status, _, headers = call("GET", long_url)
                if status != 200:
                    failures.append(f"read of the long game: {status}")
                    return
                status, answer, _ = call(
                    "PUT",
                    f"{long_url}/hands/1",
                    correction(c + i),
                    {"If-Match": headers["ETag"]},
                    timeout=60,
                )
                if status not in (200, 412):  # 412: the other corrector saved first
                    failures.append(f"correction: {status} {answer}")

        correctors = [threading.Thread(target=correct, args=(c,)) for c in range(CORRECTORS)]
        for thread in correctors:
            thread.start()
        small_url = f"{server.base}/api/games/{small['id']}/hands"
        for i in range(SMALL_WRITES):
            body = hand(side(50 + 5 * (i % 10)), side(60))
            status, answer, _ = call("POST", small_url, body, {"Idempotency-Key": f"s{i}"})
            if status != 201:
                failures.append(f"small game, hand {i}: {status} {answer}")
        for thread in correctors:
            thread.join(JOIN_LIMIT)
        status, final, _ = call("GET", f"{server.base}/api/games/{small['id']}")
        log = server.log_text()
    assert failures == [], failures
    assert len(final["hands"]) == SMALL_WRITES
    assert "database is locked" not in log and "Traceback" not in log
