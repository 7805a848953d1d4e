"""Helpers for tests that run the real app in a server process on loopback.

Every server a test starts goes through `running` (or, when the test must stop and start it
again itself, bench.launcher.Server): the test goes on only once that server answers a
request from its own listening socket, and if the test fails, whatever failed, the logs of
every server it started are shown with the failure (bench.launcher.LOGS, tests/conftest.py).
"""

from __future__ import annotations

import http.client
import os
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from apidata import side

from bench import launcher
from bench.launcher import Server, call, free_port, runs_gunicorn, show_on_failure
from scorer import ROOT
from scorer.serve import command_line

__all__ = ["Server", "call", "free_port", "running", "server_env", "show_on_failure"]


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


def gunicorn_command(port: int, options: list[str] | None = None) -> list[str]:
    """gunicorn serving the app: as the README starts it, or with other `options`; never
    with a control socket (bench.launcher.gunicorn)."""
    options = command_line() if options is None else options
    return launcher.gunicorn(
        [*options, "--graceful-timeout", "5"], f"127.0.0.1:{port}", "scorer:create_app()"
    )


# Threaded workers, which the app supports too: connections kept alive between requests.
THREADED = ["--workers", "2", "--threads", "2"]
# What `call` raises when the server is killed under it: before its answer (an OSError), or
# with the body half sent (IncompleteRead, an HTTPException). Either way: never acknowledged.
SERVER_GONE = (OSError, http.client.HTTPException)


@contextmanager
def running(
    command: list[str],
    env: dict[str, str],
    port: int,
    log: Path,
    cwd: Path = ROOT,
    ready: Callable[[Server], bool] | None = None,
) -> Iterator[Server]:
    """The server of `command`, started in `cwd` (the checkout) and stopped at the end: given
    to the test once it answers a request on `port` from its own listening socket (and
    `ready`, when given, agrees). Its log is shown if the test fails (launcher.Server)."""
    with launcher.running(command, env, port, log, cwd, ready) as server:
        yield server
    if runs_gunicorn(command):  # each gunicorn keeps to itself (bench.launcher.gunicorn)
        assert "Control socket listening" not in log.read_text(errors="replace")


def random_hand(rng, unique_left: int) -> dict[str, Any]:
    """A valid classic hand of modest score (about 180 on average for side A: a hundred
    hands stay under a target of 20 000); side B's points in hand are `unique_left` (a
    multiple of 5, at most 800), so each stored hand can be traced to its request.

    A side melds nothing or at least 15 points (three 5-point cards). Melds below a side's
    opening minimum are possible at a real table, so the body confirms them (§2b)."""
    went_out = rng.choice([None] * 8 + [0, 1])
    reds = [rng.randint(0, 2), rng.randint(0, 2)]
    sides = []
    for index in (0, 1):
        natural = 1 if went_out == index else 0
        meld = rng.choice([0, *range(15, 105, 5)]) if not natural else rng.randrange(35, 105, 5)
        left = unique_left if index == 1 else rng.randrange(0, 60, 5)
        sides.append(side(meld, natural=natural, reds=reds[index], left=left))
    return {
        "went_out": went_out,
        "concealed": False,
        "sides": sides,
        "confirm": ["opening_minimum"],
    }


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
