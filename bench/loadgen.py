"""The one load generator of the bench: closed-loop clients on loopback.

wrk when installed (one C thread drives every connection, so the generator takes a small
share of the 2 cores the server needs), else Python client threads (each request opens a
connection; much heavier). BENCH_LOADGEN=python asks for the threads even with wrk.
Either way a bounded load that stops by itself: the time is up, or MAX_REQUESTS were sent.
"""

from __future__ import annotations

import http.client
import json
import os
import re
import shutil
import statistics
import subprocess
import tempfile
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

MAX_REQUESTS = 20_000
# What every browser sends, and so every phone: the app answers gzip, with the same tags.
BROWSER = {"Accept-Encoding": "gzip, deflate, br"}

# One request: method, target, body, headers.
Request = tuple[str, str, Any, dict[str, str]]


@dataclass
class Load:
    """What one bounded load run measured."""

    requests_per_second: float
    p50: float  # seconds
    p99: float
    requests: int
    errors: int  # non-2xx answers and socket errors

    @staticmethod
    def median(loads: list[Load]) -> Load:
        """The median of repeated runs, their requests and errors added up."""
        return Load(
            requests_per_second=statistics.median(x.requests_per_second for x in loads),
            p50=statistics.median(x.p50 for x in loads),
            p99=statistics.median(x.p99 for x in loads),
            requests=sum(x.requests for x in loads),
            errors=sum(x.errors for x in loads),
        )


def closed_loop(base: str, requests: list[Request], seconds: int, connections: int) -> Load:
    """`connections` clients sending `requests` round robin until the time is up.

    wrk when installed: one C thread drives every connection, so the generator takes a
    small share of the 2 cores the server needs. Else threads in Python (much heavier: each
    request opens a connection and the interpreter competes with gunicorn for the cores).
    """
    if generator() == "wrk":
        return wrk_loop(base, requests, seconds, connections)
    return python_loop(base, requests, seconds, connections)


def generator() -> str:
    """wrk if installed, unless BENCH_LOADGEN=python asks for the Python clients (to compare)."""
    wanted = os.environ.get("BENCH_LOADGEN", "wrk")
    return "wrk" if wanted == "wrk" and shutil.which("wrk") else "python"


WRK_LUA = """
local requests = {$REQUESTS}
local sent = 0
request = function()
  local r = requests[(sent % #requests) + 1]
  sent = sent + 1
  return wrk.format(r[1], r[2], r[3], r[4])
end
"""


def lua_string(value: str) -> str:
    return json.dumps(value)  # a JSON string of ASCII is a valid Lua string literal


def wrk_script(requests: list[Request]) -> str:
    rows = []
    for method, target, body, headers in requests:
        fields = ", ".join(f"[{lua_string(k)}] = {lua_string(v)}" for k, v in headers.items())
        tail = lua_string(body) if body is not None else "nil"
        rows.append(f"{{{lua_string(method)}, {lua_string(target)}, {{{fields}}}, {tail}}}")
    return WRK_LUA.replace("$REQUESTS", ",\n  ".join(rows))


def wrk_loop(base: str, requests: list[Request], seconds: int, connections: int) -> Load:
    """wrk, one thread, keep-alive connections, the requests round robin (a Lua script)."""
    with tempfile.NamedTemporaryFile("w", suffix=".lua", delete=False) as handle:
        handle.write(wrk_script(requests))
    try:
        command = ["wrk", "-t1", f"-c{connections}", f"-d{seconds}s", "--latency"]
        command += ["--timeout", "5s", "-s", handle.name, base]
        done = subprocess.run(command, capture_output=True, text=True, timeout=seconds + 30)
    finally:
        os.unlink(handle.name)
    if done.returncode:
        raise RuntimeError(f"wrk failed: {done.stderr or done.stdout}")
    return parse_wrk(done.stdout)


def python_loop(base: str, requests: list[Request], seconds: int, connections: int) -> Load:
    """Python threads, one connection per request."""
    return _threads(base, lambda sent: requests[sent % len(requests)], seconds, connections)


def parse_wrk(text: str) -> Load:
    def number(pattern: str) -> float:
        found = re.search(pattern, text)
        return float(found.group(1)) if found else 0.0

    errors = int(number(r"Non-2xx or 3xx responses:\s+(\d+)"))
    socket_errors = re.search(r"Socket errors:(.*)", text)
    if socket_errors:
        errors += sum(int(n) for n in re.findall(r"\d+", socket_errors.group(1)))
    return Load(
        requests_per_second=number(r"Requests/sec:\s+([\d.]+)"),
        p50=_duration(re.search(r"\s50%\s+([\d.]+\w+)", text)),
        p99=_duration(re.search(r"\s99%\s+([\d.]+\w+)", text)),
        requests=int(number(r"(\d+) requests in")),
        errors=errors,
    )


UNITS = {"us": 1e-6, "ms": 1e-3, "s": 1.0, "m": 60.0}


def _duration(found: re.Match[str] | None) -> float:
    if not found:
        return 0.0
    value, unit = re.fullmatch(r"([\d.]+)(\w+)", found.group(1)).groups()  # type: ignore[union-attr]
    return float(value) * UNITS[unit]


def _threads(base: str, nth: Callable[[int], Request], seconds: int, connections: int) -> Load:
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
    return Load(
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
