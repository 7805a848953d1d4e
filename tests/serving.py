"""Helpers for tests that run the real app in a server process on loopback."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import Any

from apidata import side

from scorer import ROOT

START_TIMEOUT = 60  # seconds; generous for a slow CI machine, only reached on failure
REQUEST_TIMEOUT = 20


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def server_env(database: Path, instance: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("FLASK_", "SCORER_"))}
    env["SCORER_DATABASE"] = str(database)
    env["SCORER_INSTANCE_PATH"] = str(instance)
    env["PYTHONUNBUFFERED"] = "1"
    return env


def flask_command(port: int) -> list[str]:
    """What `make run` starts, on another port."""
    return [
        sys.executable, "-m", "flask", "--app", "scorer", "run", "--no-debug",
        "--host", "127.0.0.1", "--port", str(port),
    ]  # fmt: skip


def gunicorn_command(port: int, workers: int = 2, threads: int = 2) -> list[str]:
    """The production server, as the README starts it."""
    return [
        sys.executable, "-m", "gunicorn", "--workers", str(workers), "--threads", str(threads),
        "--bind", f"127.0.0.1:{port}", "--graceful-timeout", "5", "scorer:create_app()",
    ]  # fmt: skip


class Server:
    """A server process in its own process group, with its output in a log file."""

    def __init__(self, command: list[str], env: dict[str, str], port: int, log: Path) -> None:
        self.base = f"http://127.0.0.1:{port}"
        self.log = log
        with open(log, "ab") as out:
            self.process = subprocess.Popen(
                command,
                cwd=ROOT,
                env=env,
                stdout=out,
                stderr=subprocess.STDOUT,
                stdin=subprocess.DEVNULL,
                start_new_session=True,
            )

    def wait_until_up(self) -> None:
        deadline = time.monotonic() + START_TIMEOUT
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise AssertionError(f"server exited:\n{self.log.read_text()}")
            try:
                status, _body, _headers = call("GET", f"{self.base}/api/games/probe", timeout=2)
            except OSError:
                time.sleep(0.1)
                continue
            if status == 404:
                return
        raise AssertionError(f"server did not answer in time:\n{self.log.read_text()}")

    def signal(self, sig: int) -> None:
        """Signal the whole process group this test started (gunicorn has workers)."""
        if self.process.poll() is None:
            os.killpg(self.process.pid, sig)

    def stop(self) -> None:
        self.signal(signal.SIGTERM)
        try:
            self.process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            self.signal(signal.SIGKILL)
            self.process.wait(timeout=15)
        # Workers of a killed gunicorn may linger a moment: reap the group.
        with suppress(ProcessLookupError):
            os.killpg(self.process.pid, signal.SIGKILL)


@contextmanager
def running(command: list[str], env: dict[str, str], port: int, log: Path) -> Iterator[Server]:
    server = Server(command, env, port, log)
    try:
        server.wait_until_up()
        yield server
    finally:
        server.stop()


def call(
    method: str,
    url: str,
    body: Any = None,
    headers: dict[str, str] | None = None,
    timeout: float = REQUEST_TIMEOUT,
) -> tuple[int, Any, dict[str, str]]:
    """(status, parsed JSON or text, headers); HTTP errors are answers, not exceptions."""
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(url, data=data, method=method)
    if data is not None:
        request.add_header("Content-Type", "application/json")
    for name, value in (headers or {}).items():
        request.add_header(name, value)
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:
            status, raw, got = response.status, response.read(), dict(response.headers)
    except urllib.error.HTTPError as error:
        status, raw, got = error.code, error.read(), dict(error.headers)
        error.close()
    text = raw.decode("utf-8", "replace")
    try:
        return status, json.loads(text), got
    except ValueError:
        return status, text, got


def random_hand(rng, unique_left: int) -> dict[str, Any]:
    """A valid classic hand of modest score (about 180 on average for side A: a hundred
    hands stay under a target of 20 000); side B's points in hand are `unique_left` (a
    multiple of 5, at most 800), so each stored hand can be traced to its request."""
    went_out = rng.choice([None] * 8 + [0, 1])
    reds = [rng.randint(0, 2), rng.randint(0, 2)]
    sides = []
    for index in (0, 1):
        natural = 1 if went_out == index else 0
        meld = rng.randrange(35 if natural else 0, 105, 5)
        left = unique_left if index == 1 else rng.randrange(0, 60, 5)
        sides.append(side(meld, natural=natural, reds=reds[index], left=left))
    return {"went_out": went_out, "concealed": False, "sides": sides}


def expected_score(hand: dict[str, Any], index: int) -> int:
    """A side's hand score worked out from the rule book's classic values, independently."""
    s = hand["sides"][index]
    reds = 800 if s["red_threes"] == 4 else 100 * s["red_threes"]
    if s["meld_points"] == 0:
        reds = -reds  # red threes count against a side that melded nothing
    going_out = 0
    if hand["went_out"] == index:
        going_out = 200 if hand["concealed"] else 100
    canastas = 500 * s["natural_canastas"] + 300 * s["mixed_canastas"]
    return s["meld_points"] + canastas + reds + going_out - s["hand_points"]


def long_games(base: str, count: int) -> list[str]:
    """Ids of `count` new four-player games played to 20 000, so they take many hands."""
    ids = []
    for _ in range(count):
        status, body, _ = call(
            "POST",
            f"{base}/api/games",
            {"target": 20000, "sides": [{"players": ["Ann", "Bob"]}, {"players": ["Cy", "Di"]}]},
        )
        assert status == 201
        ids.append(body["id"])
    return ids
