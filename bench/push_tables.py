"""Section 14 (e): the tables one box holds with every phone on push, and the same on the poll.

A table is four phones on its scoreboard and a watch screen (`/watch/<id>`), each with an
EventSource on the game's channel through `make run`'s front (nginx + Nchan before
gunicorn), and a phone recording a hand every HAND_SECONDS (bench/live.py's pace). When a
screen hears its channel it does what live.js does: the JSON check, then the page for its
regions. Save-to-other-screen latency is from the moment a hand is sent to the moment each
of the table's five screens has read its page. One probe table records a hand every second
or two so that every step has enough saves to time.

The tables grow in steps (STEPS) on one server, each step measured for a few seconds; the
tables held are the last step whose p95 stays under the goal (the first that fails ends
the run). Then the same tables on the 4 s poll (conditional GET, a new connection each, then
the page on a change): its latency and the server's CPU, against push's at that step.

The screens are one Python thread reading every stream (selectors) and a small pool doing
the reads; they share the machine's 2 cores with the server (and whatever else runs).
"""

from __future__ import annotations

import heapq
import os
import random
import resource
import selectors
import statistics
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from contextlib import suppress
from dataclasses import dataclass, field
from pathlib import Path
from typing import Self

from bench import fixtures, launcher
from bench.measure import Row, Section, fmt_time

SCREENS = 5  # four phones and a watch screen
HAND_SECONDS = 180.0  # a hand every 3 minutes a table (bench/live.py)
POLL = 4.0  # static/live.js PERIOD
GOAL = 1.0  # seconds, p95
STEPS = (50, 100, 200, 400, 800)
QUICK_STEPS = (50, 100, 200)
STEP_SECONDS, QUICK_STEP_SECONDS = 40.0, 12.0
READERS = 24  # the screens' pool: reads after a message happen at once on a table's screens
CORES = os.cpu_count() or 1
START_HANDS = 12  # the games' hands before the run: pages of a game under way


@dataclass
class Table:
    game_id: str
    watch_id: str
    sent: float = 0.0  # when its last hand was sent (perf_counter); 0 before any
    hands: int = 0
    lock: threading.Lock = field(default_factory=threading.Lock)

    def reads(self, screen: int) -> tuple[str, str]:
        """(the check's address, the page's) for one of its screens: the last is the watch."""
        if screen == SCREENS - 1:
            return f"/watch/{self.watch_id}", f"/watch/{self.watch_id}"
        return f"/api/games/{self.game_id}", f"/games/{self.game_id}"


def get(url: str, headers: dict[str, str]) -> tuple[int, str | None]:
    request = urllib.request.Request(url, headers=headers)
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            response.read()
            return int(response.status), response.headers.get("ETag")
    except urllib.error.HTTPError as error:
        return int(error.code), error.headers.get("ETag")


def build(db_path: Path, count: int) -> list[Table]:
    from scorer import store

    db = fixtures.open_db(db_path)
    try:
        games = [fixtures.make_game(db, START_HANDS) for _ in range(count)]
        return [Table(game, store.watch_id_of(db, game)) for game in games]
    finally:
        db.close()


class Background:
    """A loop on its own thread handing work to a pool: started by `with`; on leaving,
    stopped, joined, and the pool drained (what the phones, the screens and the pollers of
    this bench share)."""

    def __init__(self, workers: int) -> None:
        self.pool = ThreadPoolExecutor(workers)
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self._run, daemon=True)

    def _run(self) -> None:
        raise NotImplementedError

    def __enter__(self) -> Self:
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop.set()
        self.thread.join()
        self.pool.shutdown(wait=True)


class Recorder(Background):
    """Each table's phone records a hand every HAND_SECONDS (a random first one); the probe
    table every 1–2 s. `hand` is the bench's own POST (bench/push.py)."""

    def __init__(self, base: str, hand: Callable[[str, str, int], None]) -> None:
        super().__init__(8)
        self.base, self.hand = base, hand
        self.queue: list[tuple[float, int, Table]] = []
        self.failed = 0
        self.lock = threading.Lock()

    def add(self, table: Table, probe: bool = False) -> None:
        first = random.uniform(0.5, 2.0) if probe else random.uniform(0, HAND_SECONDS)
        with self.lock:
            heapq.heappush(self.queue, (time.monotonic() + first, -1 if probe else 0, table))

    def _run(self) -> None:
        while not self.stop.wait(0.05):
            now = time.monotonic()
            with self.lock:
                while self.queue and self.queue[0][0] <= now:
                    _, probe, table = heapq.heappop(self.queue)
                    gap = random.uniform(1.0, 2.0) if probe else HAND_SECONDS
                    heapq.heappush(self.queue, (now + gap, probe, table))
                    self.pool.submit(self._record, table)

    def _record(self, table: Table) -> None:
        with table.lock:  # one phone records: hands of a table one after another
            number = START_HANDS + table.hands
            table.sent, table.hands = time.perf_counter(), table.hands + 1
            try:
                self.hand(self.base, table.game_id, number)
            except (OSError, RuntimeError):
                self.failed += 1


class Screens(Background):
    """Every screen's EventSource in one selector; a message sends the screen's reads to a
    pool, and the time from its table's last hand to its page read is kept."""

    def __init__(self, base: str, port: int, channel_of: Callable[[str, str], str]) -> None:
        super().__init__(READERS)
        self.base, self.port, self.channel_of = base, port, channel_of
        self.selector = selectors.DefaultSelector()
        self.times: list[float] = []
        self.errors = 0

    def add(self, table: Table) -> None:
        from bench.push import open_stream

        channel = self.channel_of(self.base, table.game_id)
        for screen in range(SCREENS):
            sock = open_stream(self.port, channel)
            sock.setblocking(False)
            self.selector.register(sock, selectors.EVENT_READ, (table, screen, bytearray()))

    def _run(self) -> None:
        while not self.stop.is_set():
            for key, _ in self.selector.select(timeout=0.05):
                table, screen, buffered = key.data
                try:
                    chunk = key.fileobj.recv(65536)  # type: ignore[union-attr]
                except OSError:
                    continue
                buffered += chunk
                if b"\ndata: " in buffered and b"\n\n" in buffered[buffered.find(b"\ndata: ") :]:
                    del buffered[:]
                    if table.sent:  # the hand it tells of: later ones are not this read's
                        self.pool.submit(self._read, table, screen, table.sent)
                else:
                    del buffered[: max(0, len(buffered) - 64)]

    def _read(self, table: Table, screen: int, sent: float) -> None:
        check, page = table.reads(screen)
        status, _ = get(f"{self.base}{check}", {"Accept": "application/json"})
        status2, _ = get(f"{self.base}{page}", {"Accept": "text/html"})
        if status >= 400 or status2 >= 400:
            self.errors += 1
        self.times.append(time.perf_counter() - sent)

    def __exit__(self, *exc: object) -> None:
        super().__exit__(*exc)
        for key in list(self.selector.get_map().values()):
            key.fileobj.close()  # type: ignore[union-attr]


class Pollers(Background):
    """The same screens on the 4 s poll: each its own phase; a change read, then timed."""

    def __init__(self, base: str, tables: list[Table]) -> None:
        super().__init__(READERS)
        self.base = base
        self.queue = [
            (time.monotonic() + random.uniform(0, POLL), n, table, screen)
            for n, (table, screen) in enumerate((t, s) for t in tables for s in range(SCREENS))
        ]
        heapq.heapify(self.queue)
        self.tags: dict[tuple[str, int], str | None] = {}
        self.times: list[float] = []
        self.lags: list[float] = []  # how late each check left: the client's own limit
        self.errors = 0

    def _run(self) -> None:
        while not self.stop.wait(0.01):
            now = time.monotonic()
            while self.queue and self.queue[0][0] <= now:
                due, n, table, screen = heapq.heappop(self.queue)
                heapq.heappush(self.queue, (due + POLL, n, table, screen))
                self.pool.submit(self._check, due, table, screen)

    def _check(self, due: float, table: Table, screen: int) -> None:
        self.lags.append(time.monotonic() - due)
        sent, key = table.sent, (table.game_id, screen)
        check, page = table.reads(screen)
        tag = self.tags.get(key)
        headers = {"Accept": "application/json", "Connection": "close"}
        status, new_tag = get(
            f"{self.base}{check}", headers | ({"If-None-Match": tag} if tag else {})
        )
        if status >= 400:
            self.errors += 1
            return
        self.tags[key] = new_tag
        if status == 200 and tag is not None:
            get(f"{self.base}{page}", {"Accept": "text/html"})
            if sent:
                self.times.append(time.perf_counter() - sent)


def p95(times: list[float]) -> float:
    ordered = sorted(times)
    return ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))] if ordered else float("inf")


def spread(times: list[float]) -> str:
    if not times:
        return "no save timed"
    return (
        f"p50 {fmt_time(statistics.median(times))}, p95 {fmt_time(p95(times))}, "
        f"max {fmt_time(max(times))} ({len(times)} screen reads)"
    )


def server_cpu(pid: int) -> float:
    """CPU seconds of the server and every process under it (nginx, gunicorn's workers)."""
    from bench.push import children, cpu_seconds

    total, todo = 0.0, [pid]
    while todo:
        current = todo.pop()
        with suppress(OSError):
            total += cpu_seconds(current)
        todo += [child for child, _ in children(current)]
    return total


def client_cpu() -> float:
    """CPU seconds of this process: the screens' and phones' threads."""
    used = resource.getrusage(resource.RUSAGE_SELF)
    return used.ru_utime + used.ru_stime


@dataclass
class Step:
    tables: int
    times: list[float]
    cpu: float  # % of one core, the server's
    client: float  # % of one core, this process's (the screens and phones)
    load: float  # the machine's 1-minute load average at the step's end: its neighbours

    @property
    def held(self) -> bool:
        return bool(self.times) and p95(self.times) < GOAL


def run(
    section: Section,
    server: launcher.Server,
    database: Path,
    hand: Callable[[str, str, int], None],
    channel_of: Callable[[str, str], str],
    quick: bool,
) -> None:
    steps = QUICK_STEPS if quick else STEPS
    seconds = QUICK_STEP_SECONDS if quick else STEP_SECONDS
    tables = build(database, steps[-1] + 1)
    probe, rest = tables[0], tables[1:]
    measured: list[Step] = []
    with (
        Screens(server.base, server.port, channel_of) as screens,
        Recorder(server.base, hand) as rec,
    ):
        screens.add(probe)
        rec.add(probe, probe=True)
        on = 0
        for count in steps:
            for table in rest[on:count]:
                screens.add(table)
                rec.add(table)
            on = count
            time.sleep(2.0)  # the new subscriptions are in place
            screens.times.clear()
            cpu, own, started = server_cpu(server.process.pid), client_cpu(), time.monotonic()
            time.sleep(seconds)
            spent = time.monotonic() - started
            used = (server_cpu(server.process.pid) - cpu) / spent * 100
            mine = (client_cpu() - own) / spent * 100
            load = os.getloadavg()[0]
            measured.append(Step(count, list(screens.times), used, mine, load))
            if not measured[-1].held:
                break
        push_errors = screens.errors
    held = [step for step in measured if step.held]
    best = held[-1] if held else measured[0]
    # The same tables on the poll, with the push screens gone.
    with (
        Pollers(server.base, [probe, *rest[: best.tables]]) as pollers,
        Recorder(server.base, hand) as rec,
    ):
        rec.add(probe, probe=True)
        for table in rest[: best.tables]:
            rec.add(table)
        time.sleep(POLL + 1.0)  # every screen has its first tag
        pollers.times.clear()
        cpu, started = server_cpu(server.process.pid), time.monotonic()
        time.sleep(max(seconds, 3 * POLL))
        poll_cpu = (server_cpu(server.process.pid) - cpu) / (time.monotonic() - started) * 100
        poll_times, lags = list(pollers.times), list(pollers.lags)
    label = f"{SCREENS - 1} phones + a watch screen, 1 hand / {HAND_SECONDS / 60:.0f} min"
    section.rows.append(
        Row(
            f"tables held with every screen on push ({label}), save to screen p95 < 1 s",
            f"{best.tables:,}" if held else f"fewer than {measured[0].tables}",
            f"at {best.tables}: {spread(best.times)}; server CPU {best.cpu:.0f} % of a core",
            goal="p95 < 1 s",
            met=bool(held),
        )
    )
    for step in measured:
        section.notes.append(
            f"Push, {step.tables} tables ({step.tables * SCREENS} EventSources + the probe "
            f"table's): {spread(step.times)}; server CPU {step.cpu:.0f} % of a core, the "
            f"client's {step.client:.0f} %; machine load {step.load:.1f} on {CORES} cores."
        )
    section.rows.append(
        Row(
            f"same {best.tables} tables on the 4 s poll",
            spread(poll_times),
            f"server CPU {poll_cpu:.0f} % of a core vs {best.cpu:.0f} % with push",
        )
    )
    section.notes.append(
        f"Tables on push: steps of {', '.join(map(str, steps))} tables, {seconds:.0f} s each "
        "(the first whose p95 passes 1 s ends them); a probe table records a hand every 1–2 s "
        "so that each step has saves to time. The poll: the same screens checking every 4 s "
        f"(a new connection each), {max(seconds, 3 * POLL):.0f} s; its checks left "
        f"p95 {fmt_time(p95(lags))} late (the Python client's own limit). "
        f"{push_errors + pollers.errors} reads failed; {rec.failed} hands failed. The screens "
        "are Python (one selector thread, a pool of reads) on the same 2 cores as the server."
    )
