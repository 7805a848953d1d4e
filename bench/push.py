"""Section 14: push (issue 29) and slow readers (issue 35, point 1), through `make run`'s front.

Every server here is `python -m scorer.serve` as `make run` starts it (nginx with Nchan on a
loopback port, gunicorn behind it on a Unix socket), or with FRONT=off (gunicorn alone on
the port, as before) for the comparisons.

(a) Save to other screen. A second screen's way of hearing about a hand: with push, an
    EventSource on the game's channel (one HTTP stream read here), then the check live.js
    makes (the game's JSON) and the page it reads for its regions; with the poll, a check
    every 4 s (static/live.js) at a phase of its own, then the same two reads. From the
    moment the hand is sent to the moment the page is read, while other tables' load runs
    (LOAD_TABLES tables: four phones' checks every 4 s each and a hand a minute).
(b) Idle screens: as many EventSource connections as the machine gives (goal 10 000),
    opened on as many channels, then left waiting; nginx's CPU over a quiet minute (Nchan
    pings each every 20 s) and its memory.
(c) One publish: scorer.web.push.publish to Nchan's socket, from the app's side.
(e) Tables held with every screen on push, against the same tables on the 4 s poll
    (bench/push_tables.py).
(d) Slow readers: ten clients read a big club's export at about 2 KB/s while other tables
    record hands; their writes' p99 against the writes alone, with the front and without.
"""

from __future__ import annotations

import os
import random
import re
import resource
import selectors
import socket
import statistics
import sys
import tempfile
import threading
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from pathlib import Path

from bench import fixtures, launcher, push_tables
from bench.club_limit import import_club
from bench.context import Bench
from bench.locks import p99
from bench.measure import Row, Section, fmt_bytes, fmt_time
from scorer import front, store
from scorer.store.game_json import game_to_export
from scorer.web import push

ROOT = Path(__file__).resolve().parent.parent
POLL = 4.0  # static/live.js PERIOD
LOAD_TABLES = 20
SAVES = 30  # per way (push, poll)
IDLE_GOAL = 10_000
IDLE_CPU_GOAL = 5.0  # % of one core
IDLE_SECONDS = 60.0
SLOW_READERS = 10
SLOW_RATE = 2048  # bytes a second, per reader
SLOW_SECONDS = 30.0
SETTLE_SECONDS = 10.0
WARM_SECONDS = 3.0
TABLE_HANDS = 12  # about a Classic game's length, to 5 000
EXPORT_GAMES = 1000  # about 10 MiB of export: more than the kernel's socket buffers
PUSH_ATTRIBUTE = re.compile(r'data-live-push="(/push/[0-9a-f]+)"')


@contextmanager
def served(folder: Path, database: Path, *, with_front: bool = True) -> Iterator[launcher.Server]:
    port = launcher.free_port()
    env = {k: v for k, v in os.environ.items() if not k.startswith(("FLASK_", "SCORER_"))}
    env |= {
        "SCORER_DATABASE": str(database),
        "SCORER_INSTANCE_PATH": f"{folder}/instance",
        "RATELIMIT_ENABLED": "False",
        "HOST": "127.0.0.1",
        "PORT": str(port),
        "FRONT": "on" if with_front else "off",
    }
    command = [sys.executable, "-m", "scorer.serve"]
    log = folder / f"serve-{port}.log"
    with launcher.running(command, env, port, log, ROOT) as server:
        yield server


def hand(base: str, game_id: str, number: int) -> None:
    status, body, _ = launcher.call(
        "POST", f"{base}/api/games/{game_id}/hands", fixtures.hand_body(number), timeout=60
    )
    if status != 201:
        raise RuntimeError(f"hand refused: {status} {body}")


def get(url: str, headers: dict[str, str] | None = None) -> int:
    request = urllib.request.Request(url, headers=headers or {})
    try:
        with urllib.request.urlopen(request, timeout=60) as response:
            response.read()
            return int(response.status)
    except urllib.error.HTTPError as error:
        return int(error.code)


def screen_reads(base: str, game_id: str) -> None:
    """What live.js does once told: the JSON, then the page for its regions."""
    get(f"{base}/api/games/{game_id}", {"Accept": "application/json"})
    get(f"{base}/games/{game_id}", {"Accept": "text/html"})


# --- (a) save to other screen ----------------------------------------------------------------


class TablesLoad:
    """LOAD_TABLES tables' phones: checks every 4 s (304s) and a hand a minute each."""

    def __init__(self, base: str, games: list[str]) -> None:
        self.base, self.games, self.stop = base, games, threading.Event()
        self.threads = [threading.Thread(target=self._table, args=(g,), daemon=True) for g in games]

    def _table(self, game_id: str) -> None:
        """Four phones checking every 4 s are a check a second; a hand a minute."""
        rng = random.Random(game_id)
        url = f"{self.base}/api/games/{game_id}"
        with urllib.request.urlopen(url, timeout=60) as response:
            response.read()
            tag = response.headers["ETag"]
        number, next_hand = 0, time.monotonic() + rng.uniform(0, 60)
        while not self.stop.wait(POLL / 4 * rng.uniform(0.9, 1.1)):
            get(url, {"If-None-Match": tag, "Accept": "application/json"})
            if time.monotonic() > next_hand:
                hand(self.base, game_id, number)
                with urllib.request.urlopen(url, timeout=60) as response:
                    response.read()
                    tag = response.headers["ETag"]
                number, next_hand = number + 1, time.monotonic() + 60

    def __enter__(self) -> TablesLoad:
        for thread in self.threads:
            thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop.set()
        for thread in self.threads:
            thread.join(timeout=70)


def channel_of(base: str, game_id: str) -> str:
    with urllib.request.urlopen(f"{base}/games/{game_id}", timeout=60) as response:
        (channel,) = set(PUSH_ATTRIBUTE.findall(response.read().decode()))
    return channel


def open_stream(port: int, channel: str) -> socket.socket:
    sock = socket.create_connection(("127.0.0.1", port), timeout=60)
    sock.sendall(
        f"GET {channel} HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n\r\n".encode()
    )
    return sock


def next_data(sock: socket.socket, buffered: bytearray) -> None:
    """Read until a `data:` line has arrived (pings and headers are skipped)."""
    while True:
        found = re.search(rb"\ndata: [^\n]*\n", buffered)
        if found:
            del buffered[: found.end()]
            return
        chunk = sock.recv(4096)
        if not chunk:
            raise RuntimeError("the channel closed")
        buffered += chunk


def push_latencies(base: str, port: int, game_id: str, count: int) -> list[float]:
    sock = open_stream(port, channel_of(base, game_id))
    buffered = bytearray()
    try:
        time.sleep(0.5)  # the subscription is in place
        buffered.clear()
        sock.settimeout(0.2)
        with suppress(TimeoutError):  # drop what came with the headers (the first ping)
            buffered += sock.recv(65536)
        sock.settimeout(60)
        buffered.clear()
        times = []
        for number in range(count):
            started = time.perf_counter()
            hand(base, game_id, number)
            next_data(sock, buffered)
            screen_reads(base, game_id)
            times.append(time.perf_counter() - started)
            time.sleep(random.uniform(0.2, 0.6))
        return times
    finally:
        sock.close()


def poll_latencies(base: str, game_id: str, count: int) -> list[float]:
    """A screen polling every 4 s on its own phase; each save timed to the page read."""
    url = f"{base}/api/games/{game_id}"
    seen = threading.Event()
    stop = threading.Event()

    def poller() -> None:
        tag = None
        while not stop.wait(POLL):
            headers = {"Accept": "application/json", **({"If-None-Match": tag} if tag else {})}
            request = urllib.request.Request(url, headers=headers)
            try:
                with urllib.request.urlopen(request, timeout=60) as response:
                    response.read()
                    changed = tag is not None
                    tag = response.headers["ETag"]
            except urllib.error.HTTPError as error:
                changed = error.code != 304
            if changed:
                get(f"{base}/games/{game_id}", {"Accept": "text/html"})
                seen.set()

    thread = threading.Thread(target=poller, daemon=True)
    thread.start()
    time.sleep(POLL + 0.5)  # its first read has its tag
    times = []
    for number in range(count):
        seen.clear()
        started = time.perf_counter()
        hand(base, game_id, 1000 + number)
        seen.wait(60)
        times.append(time.perf_counter() - started)
        time.sleep(random.uniform(0.0, POLL))
    stop.set()
    thread.join()
    return times


def latency_row(name: str, times: list[float]) -> Row:
    ordered = sorted(times)
    p95 = ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))]
    return Row(
        name,
        f"p50 {fmt_time(statistics.median(ordered))}, p95 {fmt_time(p95)}, "
        f"max {fmt_time(ordered[-1])}",
        goal="< 1 s",
        met=ordered[-1] < 1.0 if "push" in name else None,
    )


# --- (b) idle screens ------------------------------------------------------------------------


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def rss(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) * 1024
    return 0


def children(pid: int) -> list[tuple[int, bytes]]:
    """(pid, command line) of each process whose parent is `pid`."""
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                parent = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
                if parent == pid:
                    found.append((int(entry.name), (entry / "cmdline").read_bytes()))
            except OSError:
                continue
    return found


def front_of(server: launcher.Server) -> tuple[list[int], str]:
    """(the nginx workers' pids, one a core, the publisher's socket) of this server's front."""
    (master,) = [p for p, line in children(server.process.pid) if line.startswith(b"nginx")]
    workers = [p for p, line in children(master) if line.startswith(b"nginx: worker")]
    for config in Path(tempfile.gettempdir()).glob("scorer-front-*/nginx.conf"):
        if f"listen 127.0.0.1:{server.port};" in config.read_text():
            return workers, f"unix:{config.parent / 'publish.sock'}"
    raise RuntimeError("the front's folder was not found")


def idle_screens(section: Section, server: launcher.Server, count: int, seconds: float) -> None:
    workers, _ = front_of(server)
    selector = selectors.DefaultSelector()
    socks = []
    opened = 0
    try:
        for index in range(count):
            name = push.channel(push.GAME, f"idle-{index}", secret="bench")
            try:
                sock = open_stream(server.port, f"{push.SUBSCRIBE_PREFIX}{name}")
            except OSError as error:
                section.notes.append(f"Idle screens: stopped at {index} ({error}).")
                break
            sock.setblocking(False)
            selector.register(sock, selectors.EVENT_READ)
            socks.append(sock)
            opened += 1
        drain(selector, 2.0)
        cpu, start = sum(map(cpu_seconds, workers)), time.monotonic()
        drain(selector, seconds)  # the pings arrive and are read, as a browser would
        used = (sum(map(cpu_seconds, workers)) - cpu) / (time.monotonic() - start) * 100
        memory = sum(map(rss, workers))
    finally:
        for sock in socks:
            sock.close()
    section.rows.append(
        Row(
            "idle waiting screens held (EventSource, one channel each)",
            f"{opened}",
            goal=f">= {IDLE_GOAL}",
            met=opened >= IDLE_GOAL,
        )
    )
    section.rows.append(
        Row(
            f"nginx CPU while they wait ({seconds:.0f} s, pings every {front.PING_SECONDS} s)",
            f"{used:.2f} % of a core",
            goal=f"< {IDLE_CPU_GOAL:.0f} %",
            met=used < IDLE_CPU_GOAL,
        )
    )
    section.rows.append(
        Row(
            "nginx workers' memory with them",
            f"{fmt_bytes(memory)} ({memory // max(opened, 1)} B each)",
        )
    )


def drain(selector: selectors.BaseSelector, seconds: float) -> None:
    deadline = time.monotonic() + seconds
    while (left := deadline - time.monotonic()) > 0:
        for key, _ in selector.select(timeout=min(left, 1.0)):
            with suppress(OSError):
                key.fileobj.recv(65536)  # type: ignore[union-attr]


# --- (c) one publish -------------------------------------------------------------------------


def publish_cost(section: Section, url: str, count: int) -> None:
    name = push.channel(push.GAME, "publish-cost", secret="bench")
    times = []
    for number in range(count):
        started = time.perf_counter()
        assert push.publish(name, number, url=url)
        times.append(time.perf_counter() - started)
    ordered = sorted(times)
    section.rows.append(
        Row(
            "one publish (POST of a version to Nchan's socket)",
            f"p50 {fmt_time(statistics.median(ordered))}, p99 {fmt_time(p99(ordered))}",
        )
    )


# --- (d) slow readers ------------------------------------------------------------------------


def slow_reader(
    url: str, stop: threading.Event, read: list[int], started: threading.Event | None = None
) -> None:
    """A client reading `url` at SLOW_RATE, with a small receive window, until `stop`;
    `started` is set once its answer's first bytes come.

    Heavy reads are made a few at a time (scorer.web.priority.HeavySlots): a reader refused
    with 503 asks again after its Retry-After, as a browser's refresh does, so every reader
    ends up holding an export being sent, not a short refusal."""
    while not stop.is_set():
        retry_after = _read_slowly(url, stop, read, started)
        if retry_after is None or stop.wait(retry_after):
            return


def _read_slowly(
    url: str, stop: threading.Event, read: list[int], started: threading.Event | None
) -> float | None:
    """One request of slow_reader: the seconds to wait when refused with 503, else None."""
    host, rest = url.removeprefix("http://").split("/", 1)
    address, port = host.split(":")
    sock = socket.socket()
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    sock.settimeout(30)
    try:
        sock.connect((address, int(port)))
        sock.sendall(f"GET /{rest} HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n\r\n".encode())
        head = b""
        while b"\r\n\r\n" not in head and not stop.is_set():
            chunk = sock.recv(SLOW_RATE // 2)
            if not chunk:
                return None
            head += chunk
        refused = re.match(rb"HTTP/1\.[01] 503 .*?\r\nRetry-After: *(\d+)", head, re.I | re.S)
        if refused:
            return float(refused.group(1))
        read.append(len(head))
        if started is not None:
            started.set()
        while not stop.wait(0.5):
            chunk = sock.recv(SLOW_RATE // 2)
            if not chunk:
                break
            read.append(len(chunk))
    except OSError:
        pass
    finally:
        sock.close()
    return None


class Tables:
    """Other tables for the slow readers' case: LOAD_TABLES at a time, each one retired after
    TABLE_HANDS hands for a new one from a pool made before the server starts.

    Why: a hand's cost grows with its game (the game is loaded and answered whole), so hands
    sent to the same tables for a minute cost more at the end than at the start, readers or
    not (20 tables reached 150 hands and their p99 went from 24 ms to 150-200 ms with no
    reader at all). Tables of a real game's length keep "alone" and "during" comparable."""

    def __init__(self, games: list[str]) -> None:
        self.games = games
        self.sent = 0

    def next_hand(self) -> tuple[str, int]:
        """(game id, hand number from 0) of the next hand to send."""
        seat, round_ = self.sent % LOAD_TABLES, self.sent // LOAD_TABLES
        generation, number = divmod(round_, TABLE_HANDS)
        self.sent += 1
        # Past the pool's end the tables come round again and grow: the pool is made big
        # enough for the machine's pace that this does not happen (see `pool_size`).
        return self.games[(generation * LOAD_TABLES + seat) % len(self.games)], number


def pool_size(seconds: float) -> int:
    """Tables enough for `seconds` of writes at up to 200 hands a second."""
    return LOAD_TABLES * (int(seconds * 200) // (LOAD_TABLES * TABLE_HANDS) + 1)


def make_tables(database: Path, count: int) -> list[str]:
    db = fixtures.open_db(database)
    try:
        return [fixtures.make_game(db, 0) for _ in range(count)]
    finally:
        db.close()


def writes_for(base: str, tables: Tables, seconds: float) -> list[float]:
    """Other tables' hands, one after another, for `seconds`: each one's time."""
    times: list[float] = []
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        game_id, number = tables.next_hand()
        started = time.perf_counter()
        with suppress(OSError, RuntimeError):
            hand(base, game_id, number)
        times.append(time.perf_counter() - started)
    return times


def slow_readers(section: Section, folder: Path, database: Path, club: str) -> None:
    phases = WARM_SECONDS + SLOW_SECONDS / 2 + SETTLE_SECONDS + SLOW_SECONDS
    for with_front in (True, False):
        label = "make run (nginx front)" if with_front else "gunicorn alone (FRONT=off)"
        tables = Tables(make_tables(database, pool_size(phases)))
        with served(folder, database, with_front=with_front) as server:
            writes_for(server.base, tables, WARM_SECONDS)  # warm every worker
            alone = writes_for(server.base, tables, SLOW_SECONDS / 2)
            stop = threading.Event()
            read: list[int] = []
            url = f"{server.base}/api/clubs/{club}/export"
            readers = [
                threading.Thread(target=slow_reader, args=(url, stop, read), daemon=True)
                for _ in range(SLOW_READERS)
            ]
            for thread in readers:
                thread.start()
            # While the exports are made (ten of them, CPU the writes share), then while the
            # readers only hold them: the case of the goal.
            making = writes_for(server.base, tables, SETTLE_SECONDS)
            during = writes_for(server.base, tables, SLOW_SECONDS)
            stop.set()
            for thread in readers:
                thread.join(timeout=35)
        ratio = p99(during) / p99(alone)
        section.notes.append(
            f"{label}: while the ten exports were being made (first {SETTLE_SECONDS:.0f} s), "
            f"writes' p99 {fmt_time(p99(making))} ({len(making)} writes); "
            f"{sum(read) // 1024} KiB read by the slow readers in all. The ten asks are made "
            "a few at a time (the heavy reads' slots; the others get 503 and Retry-After, "
            "then come back), and once a part has been sent whole the next readers get the "
            "kept file (scorer/clubs/export_cache.py). Other tables' hands go to fresh tables "
            f"retired after {TABLE_HANDS} hands, alone and during alike (see Tables)."
        )
        section.rows.append(
            Row(
                f"{label}: writes' p99 while {SLOW_READERS} slow readers hold the club export",
                f"p99 {fmt_time(p99(during))} ({len(during)} writes) vs {fmt_time(p99(alone))} "
                f"alone ({len(alone)})",
                ratio=f"{ratio:.1f}×",
                goal="<= 2×" if with_front else "",
                met=ratio <= 2.0 if with_front else None,
            )
        )


def build(folder: Path, export_games: int) -> tuple[Path, str, list[str], list[str]]:
    database = folder / "push.sqlite3"
    db = fixtures.open_db(database)
    try:
        model = fixtures.make_game(db, 30)
        game = game_to_export(store.load_inputs(db, model))
        store.delete_game(db, model)
        club = import_club(db, export_games, game)
        screens = [fixtures.make_game(db, 0) for _ in range(2)]
        tables = [fixtures.make_game(db, 0) for _ in range(LOAD_TABLES)]
    finally:
        db.close()
    return database, club, screens, tables


def run(section: Section, bench: Bench) -> None:
    if not front.available():
        section.missing = front.MISSING
        return
    saves = 8 if bench.quick else SAVES
    idle = int(os.environ.get("BENCH_IDLE_SCREENS", IDLE_GOAL))
    with tempfile.TemporaryDirectory(prefix="scorer-push-") as name:
        folder = Path(name)
        database, club, screens, tables = build(folder, 200 if bench.quick else EXPORT_GAMES)
        with served(folder, database) as server:
            with TablesLoad(server.base, tables):
                time.sleep(2.0)
                pushed = push_latencies(server.base, server.port, screens[0], saves)
                polled = poll_latencies(server.base, screens[1], saves)
            section.rows.append(
                latency_row(f"save to other screen, push ({LOAD_TABLES} tables' load)", pushed)
            )
            section.rows.append(
                latency_row(f"save to other screen, 4 s poll ({LOAD_TABLES} tables' load)", polled)
            )
            publish_cost(section, front_of(server)[1], 200 if bench.quick else 2000)
            _, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
            resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))  # this client's sockets
            count = min(idle, front.open_files() - 500, hard - 500)
            idle_screens(section, server, count, 10.0 if bench.quick else IDLE_SECONDS)
            push_tables.run(section, server, database, hand, channel_of, bench.quick)
        slow_readers(section, folder, database, club)
    section.notes.append(
        "The idle screens are plain sockets holding an EventSource request each (read as a "
        "browser reads the pings); the client and nginx share this machine's 2 cores with the "
        "rest of the run. The load's phones are Python threads (a connection per request)."
    )
