"""Section 9: phones at the table, the live check and how many tables one machine holds.

Both parts run on gunicorn with the documented settings (`scorer.serve.SETTINGS`) on
127.0.0.1. The load comes from wrk (one C thread, keep-alive connections, a Lua script
for the request mix) when installed, so the generator takes little of the 2 cores the
server needs; BENCH_LOADGEN=python uses Python client threads instead, as before (each
opens a connection per request and competes with gunicorn for the cores).

(a) A live check that finds nothing new: `GET /api/games/<id>` with a matching
    If-None-Match (304), against the bare route of the same server, in alternation.
(b) Capacity. A table is four phones asking every 4 s (a 304 almost always) and one hand
    every 3 minutes; after a hand, each of the four phones reads the game's JSON and its
    scoreboard page once (live.js swaps the regions). So one table costs, per second,
    4/4 live checks + 1/180 hand + 4/180 JSON reads + 4/180 page reads. A phone's checks
    are 4 s apart, past gunicorn's 2 s keep-alive, so each one is counted with a connection
    of its own (`Connection: close`). Each kind is measured
    alone at saturation (closed loop, CONNECTIONS clients); when its p99 is over 200 ms there,
    it is measured again with 4, 2, then 1 client, and the first throughput with its p99
    under 200 ms is the one kept. One table's share of a server-second is the sum of
    (rate of each kind / its throughput); the tables held are 1 / that share.
"""

from __future__ import annotations

import json
import os
import tempfile
import urllib.request
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from flask import Flask

from bench import fixtures, launcher, router
from bench.loadgen import BROWSER, Load, Request, closed_loop, generator
from bench.measure import Row, Section, fmt_time
from bench.served import ROOT, SCOREBOARD_LENGTH
from bench.wsgi import BARE_PATH
from scorer.serve import command_line
from scorer.store import ids

CONNECTIONS = 8  # closed-loop clients: more than the server's workers, all kept busy
P99_LIMIT = 0.200
CLIENTS = {
    "wrk": "connections driven by one wrk thread (kept alive where the server allows)",
    "python": "Python client threads (a new connection per request)",
}
PHONES, POLL_SECONDS, HAND_SECONDS = 4, 4.0, 180.0  # POLL_SECONDS: static/live.js
GAMES = 50
LIVE = "live check, new connection"  # what a table's polling phones cost


class TableServer(launcher.Server):
    """gunicorn as documented, on a database of GAMES games of SCOREBOARD_LENGTH hands."""

    def __init__(self, folder: Path, shard: int | None = None, games: int = GAMES) -> None:
        folder.mkdir(parents=True, exist_ok=True)
        self.database = folder / "live.sqlite3"
        db = fixtures.open_db(self.database)
        # The ids carry the shard, as the shard's server would mint them (scorer.store.ids).
        seeding = Flask("bench-seed")
        seeding.config["SHARD"] = shard
        try:
            with seeding.app_context():
                self.games = [fixtures.make_game(db, SCOREBOARD_LENGTH) for _ in range(games)]
        finally:
            db.close()
        port = launcher.free_port()
        options = [*command_line(), "--log-level", "warning"]
        super().__init__(
            launcher.gunicorn(options, f"127.0.0.1:{port}", "bench.wsgi:create()"),
            env={
                **os.environ,
                "BENCH_DATABASE": str(self.database),
                **({ids.ENV_SHARD: str(shard)} if shard else {}),
            },
            port=port,
            log=folder / "gunicorn.log",
            cwd=ROOT,
        )


def etags(base: str, games: list[str]) -> dict[str, str]:
    """Each game's tag as a phone holds it: the one a gzip answer carried (static/live.js)."""
    tags = {}
    for game in games:
        asked = urllib.request.Request(f"{base}/api/games/{game}", headers=BROWSER)
        with urllib.request.urlopen(asked, timeout=5) as response:
            tags[game] = response.headers["ETag"]
    return tags


def run(section: Section, bench: Any) -> None:
    seconds = 2 if bench.quick else 3
    rounds = 1 if bench.quick else 3
    with tempfile.TemporaryDirectory(prefix="scorer-live-") as folder:
        server = TableServer(Path(folder) / "one")
        try:
            # Five workers import the app at once: on a loaded machine that takes a while.
            server.wait_until_up(ready=lambda s: s.status(BARE_PATH) == 200, timeout=180)
            one = measure(section, server, seconds, rounds)
        finally:
            server.stop()
        # Then the same tables through the router, on two shards (issue 24), one after the
        # other on the same machine so both numbers meet the same neighbours.
        routed, per_request = through_router(Path(folder), seconds, rounds)
    section.rows.append(
        Row(
            f"tables held through the nginx router, {SHARDS} shards",
            f"{routed.tables:,}" + ("" if routed.usable else " (a p99 was over 200 ms)"),
            f"{routed.tables / one.tables:.2f}× one instance without the router",
        )
    )
    # What a table costs the router: its requests a second times the router's CPU per
    # request; a router core's worth of tables is the inverse.
    per_table = sum(PER_TABLE.values()) * per_request
    section.rows.append(
        Row(
            "router CPU per request passed on",
            f"{per_request * 1e6:.0f} µs",
            f"one router core ≈ {int(1 / per_table):,} tables",
        )
    )
    section.notes.append(
        f"Through the router: `deploy/scorer-shards.conf` as `python -m scorer.deploy` writes it "
        f"(Debian's nginx, one worker) in front of {SHARDS} shards, each the same gunicorn with "
        f"its own database of {GAMES // SHARDS} of the {GAMES} games, all on the same 2 cores; "
        "the same four kinds of request over every game, measured the same way. "
        f"Live check through it: {text(routed.load[LIVE])}; "
        f"record a hand: {text(routed.load['record a hand'])}."
    )


SHARDS = 2


def through_router(folder: Path, seconds: int, rounds: int) -> tuple[Capacity, float]:
    """Tables held by SHARDS shards behind the generated router, and the router's CPU
    seconds per request (nginx's master and worker, over every request it passed on)."""
    shards = [
        TableServer(folder / f"shard-{n}", shard=n, games=GAMES // SHARDS)
        for n in range(1, SHARDS + 1)
    ]
    proxy = None
    try:
        for shard in shards:
            shard.wait_until_up(ready=lambda s: s.status(BARE_PATH) == 200, timeout=180)
        proxy = router.router(folder / "router", tuple(shard.port for shard in shards))
        games = [game for shard in shards for game in shard.games]
        before = router.cpu_seconds(proxy.process.pid)
        measured = capacity(proxy.base, games, seconds, rounds)
        router_cpu = router.cpu_seconds(proxy.process.pid) - before
        return measured, router_cpu / max(measured.requests(), 1)
    finally:
        if proxy is not None:
            proxy.stop()
        for shard in shards:
            shard.stop()


@dataclass
class Capacity:
    """What the capacity part measured at one address."""

    load: dict[str, Load]  # each kind, at the load where it was kept
    clients: dict[str, int]
    runs: dict[str, list[Load]]  # the runs at saturation, in alternation
    first: Load  # recording at saturation
    tables: int
    busy: float  # seconds of server per table per second
    usable: bool  # every p99 under the limit

    def requests(self) -> int:
        """Every request sent, reruns with fewer clients included."""
        sent = sum(x.requests for loads in self.runs.values() for x in loads) + self.first.requests
        return sent + sum(
            self.load[name].requests
            for name in [*PER_TABLE, "live check"]
            if self.clients[name] != CONNECTIONS
        )

    def errors(self) -> int:
        errors = sum(x.errors for loads in self.runs.values() for x in loads) + self.first.errors
        return errors + sum(
            self.load[name].errors
            for name in [*PER_TABLE, "live check"]
            if self.clients[name] != CONNECTIONS
        )


PER_TABLE = {
    LIVE: PHONES / POLL_SECONDS,
    "record a hand": 1 / HAND_SECONDS,
    "JSON read": PHONES / HAND_SECONDS,
    "scoreboard page": PHONES / HAND_SECONDS,
}


def capacity(base: str, games: list[str], seconds: int, rounds: int) -> Capacity:
    """Each kind of request a table makes, measured at `base`, and the tables held."""
    tags = etags(base, games)
    # Every request asks for gzip, as a phone's browser does.
    kinds: dict[str, list[Request]] = {
        "bare": [("GET", BARE_PATH, None, BROWSER)],
        "live check": [
            ("GET", f"/api/games/{g}", None, {"If-None-Match": tags[g], **BROWSER}) for g in games
        ],
        # A phone polls every 4 s (static/live.js), past gunicorn's 2 s keep-alive:
        # each check connects anew.
        LIVE: [
            (
                "GET",
                f"/api/games/{g}",
                None,
                {"If-None-Match": tags[g], "Connection": "close", **BROWSER},
            )
            for g in games
        ],
        "JSON read": [("GET", f"/api/games/{g}", None, BROWSER) for g in games],
        "scoreboard page": [("GET", f"/games/{g}", None, BROWSER) for g in games],
    }
    hands = [
        (
            "POST",
            f"/api/games/{g}/hands",
            json.dumps(fixtures.hand_body(SCOREBOARD_LENGTH + k)),
            {"Content-Type": "application/json", **BROWSER},
        )
        for k in range(4)  # the cycle's hands in turn keep every game far from its target
        for g in games
    ]
    runs: dict[str, list[Load]] = {name: [] for name in kinds}
    for _ in range(rounds):  # in alternation, so drift touches every kind alike
        for name, requests in kinds.items():
            runs[name].append(closed_loop(base, requests, seconds, CONNECTIONS))
    load = {name: Load.median(loads) for name, loads in runs.items()}
    # A kind whose p99 passed the limit at saturation is measured again with fewer clients:
    # its throughput counts at the load where its p99 stays under the limit.
    clients = {name: CONNECTIONS for name in [*kinds, "record a hand"]}
    for name in ("live check", LIVE, "JSON read", "scoreboard page"):
        load[name], clients[name] = within_limit(base, kinds[name], seconds, load[name])
    # Last: recording moves the games' versions (the live checks would miss).
    first = closed_loop(base, hands, seconds, CONNECTIONS)
    load["record a hand"], clients["record a hand"] = within_limit(base, hands, seconds, first)
    tables, busy, usable = tables_held(load, PER_TABLE)
    return Capacity(load, clients, runs, first, tables, busy, usable)


def measure(section: Section, server: TableServer, seconds: int, rounds: int) -> Capacity:
    measured = capacity(server.base, server.games, seconds, rounds)
    load, clients = measured.load, measured.clients
    # Side by side, at saturation: the runs in alternation, before any fewer-clients rerun.
    bare = Load.median(measured.runs["bare"])
    live = Load.median(measured.runs["live check"])
    share = live.requests_per_second / bare.requests_per_second
    section.rows.append(Row("baseline: bare route, same server", text(bare)))
    section.rows.append(
        Row(
            "live check, nothing new (304)",
            text(live),
            f"{share:.2f}× the bare route's req/s",
            "≥ 0.8× the bare route's req/s",
            share >= 0.8,
        )
    )
    if clients["live check"] != CONNECTIONS:  # its p99 was over the limit at saturation
        section.rows.append(
            Row("live check, p99 < 200 ms", with_clients(load, clients, "live check"))
        )
    section.rows.append(Row("live check, a new connection each", with_clients(load, clients, LIVE)))
    for name in ("JSON read", "scoreboard page", "record a hand"):
        section.rows.append(
            Row(f"{name}, {SCOREBOARD_LENGTH}-hand game", with_clients(load, clients, name))
        )
    tables, busy, usable = measured.tables, measured.busy, measured.usable
    section.rows.append(
        Row(
            f"tables held (4 phones every {POLL_SECONDS:.0f} s, 1 hand / 3 min)",
            f"{tables:,}" if usable else f"{tables:,} (a p99 was over 200 ms)",
            f"{busy * 1000:.2f} ms of server per table per second",
            "≥ 1,000 tables with p99 < 200 ms",
            usable and tables >= 1000,
        )
    )
    section.notes.append(
        f"gunicorn as `make run` serves ({' '.join(command_line())}) on 127.0.0.1; {CONNECTIONS} "
        f"closed-loop {CLIENTS[generator()]} on the same 2 cores; {rounds} run(s) of "
        f"{seconds} s per kind, in alternation; a hand is recorded once, at the end. Every "
        "request asks for gzip and a check sends the tag a gzip answer carried, as a phone's "
        "browser does."
    )
    section.notes.append(
        "Tables held = 1 / Σ(rate per table ÷ throughput) over the four kinds of request a "
        "table makes, each throughput measured with its p99 under 200 ms (at saturation, "
        "else with fewer clients, as shown); "
        "polling holds no worker between checks, so phones add requests, not connections."
    )
    errors = measured.errors()
    if errors:
        section.notes.append(f"{errors} requests failed (non-2xx/304 or socket errors).")
    return measured


LOWER_CONCURRENCY = (4, 2, 1)


def tables_held(load: dict[str, Load], per_table: dict[str, float]) -> tuple[int, float, bool]:
    """Tables one server holds, its busy share per table, and whether every p99 was kept."""
    usable = all(load[k].p99 < P99_LIMIT for k in per_table)
    busy = sum(rate / load[k].requests_per_second for k, rate in per_table.items())
    return int(1 / busy), busy, usable


def with_clients(load: dict[str, Load], clients: dict[str, int], name: str) -> str:
    fewer = f" ({clients[name]} clients)" if clients[name] != CONNECTIONS else ""
    return text(load[name]) + fewer


def within_limit(base: str, requests: list[Request], seconds: int, load: Load) -> tuple[Load, int]:
    """`load` if its p99 is under the limit, else the first run with fewer clients that is
    (or the last one tried), with its number of clients."""
    connections = CONNECTIONS
    for fewer in LOWER_CONCURRENCY:
        if load.p99 < P99_LIMIT:
            break
        connections = fewer
        load = closed_loop(base, requests, seconds, connections)
    return load, connections


def text(load: Load) -> str:
    return (
        f"{load.requests_per_second:.0f} req/s; p50 {fmt_time(load.p50)}, p99 {fmt_time(load.p99)}"
    )
