"""A small load generator in Python, used when wrk is not installed.

CONNECTIONS threads each send requests one after another on loopback until the time is up
(or MAX_REQUESTS in all): a bounded load that stops by itself.
"""

from __future__ import annotations

import http.client
import json
import statistics
import threading
import time
from collections.abc import Callable
from typing import Any
from urllib.parse import urlsplit

from bench import fixtures, served

MAX_REQUESTS = 20_000
# What every browser sends, and so every phone: the app answers gzip, with the same tags.
BROWSER = {"Accept-Encoding": "gzip, deflate, br"}


# One request: method, target, body, headers.
Request = tuple[str, str, Any, dict[str, str]]


def run(base: str, path: str, seconds: int, record_games: list[str] | None) -> served.Load:
    """GET `path` in a loop, or (with `record_games`) record hands in those games in turn."""

    def nth(sent: int) -> Request:
        if not record_games:
            return "GET", path, None, dict(BROWSER)
        game = record_games[sent % len(record_games)]
        hand = fixtures.hand_body(served.SCOREBOARD_LENGTH + sent // len(record_games))
        headers = {"Content-Type": "application/json", **BROWSER}
        return "POST", f"/api/games/{game}/hands", json.dumps(hand), headers

    return closed_loop(base, nth, seconds, served.CONNECTIONS)


def closed_loop(
    base: str, nth: Callable[[int], Request], seconds: int, connections: int
) -> served.Load:
    """`connections` threads each send request `nth(sent)` after request, a new connection
    each, until the time is up or MAX_REQUESTS were sent in all."""
    host = urlsplit(base)
    hostname, port = host.hostname or "127.0.0.1", host.port or 80
    latencies: list[float] = []
    errors = [0]
    lock = threading.Lock()
    deadline = time.monotonic() + seconds
    counter = iter(range(MAX_REQUESTS))

    def worker() -> None:
        while time.monotonic() < deadline:
            with lock:
                sent = next(counter, None)
            if sent is None:
                return
            method, target, body, headers = nth(sent)
            start = time.perf_counter()
            ok = _request(hostname, port, method, target, body, headers)
            took = time.perf_counter() - start
            with lock:
                latencies.append(took)
                errors[0] += not ok

    started = time.monotonic()
    threads = [threading.Thread(target=worker) for _ in range(connections)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    elapsed = time.monotonic() - started
    latencies.sort()
    return served.Load(
        requests_per_second=len(latencies) / elapsed,
        p50=statistics.median(latencies) if latencies else 0.0,
        p99=latencies[int(len(latencies) * 0.99)] if latencies else 0.0,
        requests=len(latencies),
        errors=errors[0],
    )


def _request(
    host: str, port: int, method: str, target: str, body: str | None, headers: dict[str, str]
) -> bool:
    connection = http.client.HTTPConnection(host, port, timeout=5)
    try:
        connection.request(method, target, body=body, headers=headers)
        response = connection.getresponse()
        response.read()
        return 200 <= response.status < 400
    except OSError:
        return False
    finally:
        connection.close()
