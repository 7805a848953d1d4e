"""Section 3: the app under gunicorn (2 workers, loopback) and a bounded load on it."""

from __future__ import annotations

from bench.context import Bench
from bench.loadgen import Load, generator
from bench.measure import BenchFailure, Row, Section, answered, fmt_time
from bench.served import CONNECTIONS, SCOREBOARD_LENGTH, WORKERS
from bench.site import RECORD, SCOREBOARD
from bench.wsgi import BARE_PATH, CACHED_SCOREBOARD

EXPERIMENT = "experiment: the same scoreboard cached per game version"


def run(section: Section, bench: Bench) -> None:
    server = bench.server
    seconds = 2 if bench.quick else 3  # whole seconds: wrk takes no fractions
    rounds = 1 if bench.quick else 3
    targets = {"bare route (same server)": BARE_PATH}
    scoreboard = SCOREBOARD.format(id=server.game)
    scoreboard_name = f"scoreboard, {SCOREBOARD_LENGTH}-hand game"
    cached = CACHED_SCOREBOARD.format(id=server.game)
    for path in (scoreboard, cached):
        answered(server.status(path), path)  # a row that cannot be measured fails the bench
    targets[scoreboard_name] = scoreboard
    targets[EXPERIMENT] = cached
    targets[f"API read, {SCOREBOARD_LENGTH}-hand game"] = f"/api/games/{server.game}"
    record = f"record a hand (API POST), {SCOREBOARD_LENGTH}-hand games"
    recording = server.record_requests()
    runs: dict[str, list[Load]] = {name: [] for name in [*targets, record]}
    for _ in range(rounds):  # in alternation, so drift touches every target alike
        for name, path in targets.items():
            runs[name].append(server.load(path, seconds))
        runs[record].append(server.load(RECORD.format(id="*"), seconds, recording))
    bare = Load.median(runs.pop("bare route (same server)"))
    section.rows.append(writes_row("baseline: bare route, same server", bare, bare))
    section.rows[-1].ratio = ""
    # Information rows: the share of a bare route's throughput was a goal until issue 21
    # retired it; it never measured what a player feels (the latency and capacity rows do).
    for name, loads in runs.items():
        section.rows.append(writes_row(name, Load.median(loads), bare))
    tool = "wrk" if generator() == "wrk" else "Python client threads (wrk is not installed)"
    section.notes.append(
        f"gunicorn, {WORKERS} sync workers on 127.0.0.1; {tool} with {CONNECTIONS} connections, "
        f"{rounds} run(s) of {seconds} s per target, targets in alternation; the load "
        "generator shares the 2 cores with the server."
    )
    section.notes.append(
        "The experiment is the real scoreboard view with its HTML kept per (game, version, "
        "language) in the worker (bench/wsgi.py). The app itself caches the replayed game "
        "and the hands list per version, not the whole page (it carries flashed messages and "
        "the session): the row shows what caching the whole page would add."
    )
    failures = sum(load.errors for loads in runs.values() for load in loads)
    if failures:
        raise BenchFailure(f"{failures} requests failed (non-2xx or socket errors)")


def writes_row(name: str, load: Load, bare: Load) -> Row:
    share = load.requests_per_second / bare.requests_per_second if bare.requests_per_second else 0
    value = (
        f"{load.requests_per_second:.0f} req/s; p50 {fmt_time(load.p50)}, p99 {fmt_time(load.p99)}"
    )
    ratio = f"{share:.2f}× the bare route's req/s; p50 {load.p50 / bare.p50:.1f}× its p50"
    return Row(name, value, ratio)
