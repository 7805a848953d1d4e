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
from urllib.parse import urlsplit

from bench import fixtures, served

MAX_REQUESTS = 20_000


def run(base: str, path: str, seconds: int, record_games: list[str] | None) -> served.Load:
    host = urlsplit(base)
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
            method, target, body, headers = "GET", path, None, {}
            if record_games:
                game = record_games[sent % len(record_games)]
                target = f"/api/games/{game}/hands"
                hand = fixtures.hand_body(served.SCOREBOARD_LENGTH + sent // len(record_games))
                method, body = "POST", json.dumps(hand)
                headers = {"Content-Type": "application/json"}
            start = time.perf_counter()
            ok = _request(
                host.hostname or "127.0.0.1", host.port or 80, method, target, body, headers
            )
            took = time.perf_counter() - start
            with lock:
                latencies.append(took)
                errors[0] += not ok

    started = time.monotonic()
    threads = [threading.Thread(target=worker) for _ in range(served.CONNECTIONS)]
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
