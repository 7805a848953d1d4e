"""Heavy reads give way to the tables' hands.

A view marked @heavy_read where it is defined (scorer.web.routes: a club's page, API,
export, CSV and night sheet, a game's CSV and export, a season's page, API and CSV, every
PDF) can hold a core for a while; a client asking for them in a loop would slow every
table's next hand (issue 25).
Such a request is served by a thread of its own at the lowest priority: Linux keeps a nice
value per thread, lets any user raise its own, and forgets it with the thread. Idle cores
still serve a heavy read at full speed; busy ones go to the writes and the live checks first.

The thread runs the whole WSGI call, body included (a streamed export is handed over in
chunks); the worker's own thread only waits and sends.

Heavy reads are also bounded in number across the server (`HeavySlots`): at most
HEAVY_READS_AT_ONCE are made at once, whichever worker serves them, so however many clients
loop on exports the other workers stay free for the tables' hands. The slots are file
locks beside the database, as the sheets' turn is (a sync worker is a process), each freed
when its answer is made (while reads queue for the slots, not before HEAVY_SLOT_HOLD_MS
from its start), or by the kernel if the worker dies. A heavy read finding every slot
taken does not wait: 503 with Retry-After at once, spending no budget.
"""

from __future__ import annotations

import contextlib
import os
import queue
import threading
import time
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import Any

from filelock import FileLock, Timeout
from flask import Flask, request
from werkzeug.exceptions import HTTPException, ServiceUnavailable

from scorer.web.routes import is_heavy

# How much a heavy read yields: the most there is. Under Linux's scheduler nice 19 weighs
# about 1/70 of nice 0, so a hand or a live check competing with heavy reads for a core gets
# nearly all of it; on idle cores the heavy read runs at full speed. (Nice 10, a tenth,
# still let a loop of club reads slow a small game's write past 2x on the bench.)
HEAVY_NICE = 19
# Heavy reads made at once across the server: below `make run`'s five workers, so three
# always remain for the hands and the live checks (SCORER_HEAVY_READS_AT_ONCE, or
# HEAVY_READS_AT_ONCE in the config, changes it).
HEAVY_READS_AT_ONCE = 2
# While heavy reads queue for the slots (one was refused for want of a slot in the last
# CONTENDED_SECONDS), a slot that made an answer (2xx; a refusal frees it at once) stays
# taken HEAVY_SLOT_HOLD_MS from the read's start (SCORER_HEAVY_SLOT_HOLD_MS, or the config's
# HEAVY_SLOT_HOLD_MS): clients asking at once then share at most 50 answers a second a slot,
# 100 across the server, far more than a club night asks. Each read costs some work no
# priority can lower (gunicorn's parsing, the handoff, the send, at the usual priority in
# the worker's own thread): five clients looping on the club's API, answered in 4 ms, asked
# it ~350 times a second and the tables' writes' p99 went 1.4-2.2x; held, 1.0-1.5x. A client
# asking one at a time (a person, a script walking a club's pages) never finds every slot
# taken, so is never held; the answer itself is never delayed: the slot is freed after it.
HEAVY_SLOT_HOLD_MS = 20
CONTENDED_SECONDS = 1.0
HEAVY_RETRY_AFTER = 2
ENV_HEAVY_READS_AT_ONCE = "SCORER_HEAVY_READS_AT_ONCE"
ENV_HEAVY_SLOT_HOLD_MS = "SCORER_HEAVY_SLOT_HOLD_MS"
_BUSY = "scorer.heavy_busy"
QUEUED_CHUNKS = 8  # a streamed body's chunks made ahead of the sending
# The pace a heavy answer is handed to the sender at, past its first HEAVY_BURST bytes. The
# worker's own thread sends (a WSGI server's part), at the usual priority: unpaced, five
# clients looping on a club's 18 MiB export at loopback speed drew some 700 MiB/s of socket
# copies and doubled the tables' write p99 even with every heavy thread at nice 19. At this
# pace a full club's export takes about two seconds and two heavy answers at once cost a
# few percent of a core; every page, sheet or CSV part is within the burst and waits not.
HEAVY_SEND_RATE = 8 * 1024 * 1024  # bytes a second
HEAVY_BURST = 1024 * 1024
_DONE = object()


def yield_cores() -> None:
    """Set this thread's nice value (and no other thread's) to HEAVY_NICE."""
    thread = threading.get_native_id()
    with contextlib.suppress(OSError):  # not Linux, or not allowed: the usual priority
        if os.getpriority(os.PRIO_PROCESS, thread) < HEAVY_NICE:
            os.setpriority(os.PRIO_PROCESS, thread, HEAVY_NICE)


def ahead_of_pace(handed: int, seconds: float) -> float:
    """Seconds an answer that handed `handed` bytes in `seconds` is ahead of its pace."""
    return (handed - HEAVY_BURST) / HEAVY_SEND_RATE - seconds


class HeavyBusy(ServiceUnavailable):
    """Every heavy-read slot is taken: 503, Retry-After, and a page that asks again."""

    refresh = HEAVY_RETRY_AFTER
    busy_with = "heavy_read"  # what the error page says the server is busy with

    def __init__(self) -> None:
        super().__init__(retry_after=HEAVY_RETRY_AFTER)


class HeavySlots:
    """The server's slots for heavy reads: `count` file locks named after `prefix`, and a
    file whose time says when a heavy read last found every slot taken."""

    def __init__(self, prefix: str, count: int, hold: float = 0.0) -> None:
        self.paths = [f"{prefix}-heavy-{number}.lock" for number in range(count)]
        self.refused = Path(f"{prefix}-heavy-refused")
        self.hold = hold  # seconds a slot rests from a read's start, while reads queue

    def take(self) -> FileLock | None:
        """A free slot, held until released; None when every one is taken (and noted)."""
        for path in self.paths:
            lock = FileLock(path, thread_local=False, mode=0o600)
            try:
                lock.acquire(timeout=0)
            except Timeout:
                continue
            return lock
        with contextlib.suppress(OSError):  # not noted: no hold, as when nobody waits
            self.refused.touch(mode=0o600)
        return None

    def hold_now(self) -> float:
        """`hold` while heavy reads were refused for want of a slot in the last
        CONTENDED_SECONDS, else nothing: a client asking one at a time is never held."""
        try:
            refused_at = self.refused.stat().st_mtime
        except OSError:
            return 0.0
        return self.hold if time.time() - refused_at < CONTENDED_SECONDS else 0.0


class Yielding:
    """WSGI middleware: requests `heavy` says so are served by a thread that yields, each
    within a slot of `slots` (if given)."""

    def __init__(
        self,
        wsgi_app: Any,
        heavy: Callable[[dict[str, Any]], bool],
        slots: HeavySlots | None = None,
    ) -> None:
        self.wsgi_app = wsgi_app
        self.heavy = heavy
        self.slots = slots

    def __call__(self, environ: dict[str, Any], start_response: Callable[..., Any]) -> Any:
        if not self.heavy(environ):
            return self.wsgi_app(environ, start_response)
        slot = None
        if self.slots is not None:
            slot = self.slots.take()
            if slot is None:  # the app answers 503 itself (its page or its JSON)
                environ[_BUSY] = True
                return self.wsgi_app(environ, start_response)
        return _Handoff(self.wsgi_app, environ, slot, self.slots).answer(start_response)


class _Handoff:
    """One heavy request: served in a thread, its answer handed to the worker's thread."""

    def __init__(
        self,
        wsgi_app: Any,
        environ: dict[str, Any],
        slot: Any = None,
        slots: HeavySlots | None = None,
    ) -> None:
        self.wsgi_app = wsgi_app
        self.environ = environ
        self.slot = slot  # the heavy-read slot, freed once the answer is made...
        self.slots = slots  # ...and, while reads are refused, once the slots' hold is out
        self.started: queue.Queue[Any] = queue.Queue()  # the head, or what stopped it
        self.headed = False
        self.made = False  # whether the app made an answer (2xx), not a refusal
        self.chunks: queue.Queue[Any] = queue.Queue(QUEUED_CHUNKS)
        self.stopped = threading.Event()
        self.handed = 0  # bytes of body handed to the sender so far
        self.began = time.monotonic()

    def answer(self, start_response: Callable[..., Any]) -> Iterable[bytes]:
        try:
            threading.Thread(target=self.serve, daemon=True).start()
        except BaseException:
            self.free()
            raise
        head = self.started.get()
        if isinstance(head, BaseException):
            raise head
        start_response(*head)
        return _Body(self)

    def serve(self) -> None:
        yield_cores()
        end: Any = _DONE
        try:
            self.make()
        except BaseException as error:  # re-raised in the worker's thread
            end = error
        # A refusal (429, 404...) frees its slot at once: a client looping on refusals holds
        # no slot from others.
        hold = self.slots.hold_now() if self.slots is not None and self.made else 0.0
        left = hold - (time.monotonic() - self.began)
        if left > 0:  # the answer goes now; its slot once the hold is out
            self.finish(end)
            time.sleep(left)
            self.free()
        else:  # freed before the end is handed over: the client's next read finds it
            self.free()
            self.finish(end)

    def make(self) -> None:
        """The WSGI call and its body, handed to the sender chunk by chunk."""
        body = self.wsgi_app(self.environ, self.start)
        try:
            for chunk in body:
                if not self.put(chunk):
                    return
                self.pace(len(chunk))
        finally:
            if hasattr(body, "close"):
                body.close()

    def pace(self, size: int) -> None:
        """Wait, in this heavy thread, while the answer runs ahead of HEAVY_SEND_RATE."""
        self.handed += size
        ahead = ahead_of_pace(self.handed, time.monotonic() - self.began)
        if ahead > 0:
            self.stopped.wait(ahead)

    def free(self) -> None:
        slot, self.slot = self.slot, None
        if slot is not None:
            slot.release()

    def start(self, status: str, headers: list[tuple[str, str]], exc_info: Any = None) -> Any:
        """The WSGI start_response of the app's call: the head, handed to the worker."""
        self.headed = True
        self.made = status.startswith("2")
        self.started.put((status, headers) if exc_info is None else (status, headers, exc_info))
        return self.put  # the WSGI write() callable: what it is given is sent as body

    def finish(self, end: Any) -> None:
        """The answer's end: after its head, in the body; before it, in the head's place."""
        if self.headed:
            self.put(end)
        else:
            self.started.put(RuntimeError("no answer") if end is _DONE else end)

    def put(self, item: Any) -> bool:
        """Queue a chunk for the sender; False once the sender has gone (a closed socket)."""
        while not self.stopped.is_set():
            try:
                self.chunks.put(item, timeout=0.5)
                return True
            except queue.Full:
                continue
        return False


class _Body:
    """The answer's body as the worker's thread sends it."""

    def __init__(self, handoff: _Handoff) -> None:
        self.handoff = handoff

    def __iter__(self) -> Iterator[bytes]:
        while True:
            item = self.handoff.chunks.get()
            if item is _DONE:
                return
            if isinstance(item, BaseException):
                raise item
            yield item

    def close(self) -> None:
        self.handoff.stopped.set()


def heavy_requests(app: Flask) -> Callable[[dict[str, Any]], bool]:
    """Whether a request goes to a view marked @heavy_read (by the app's own URL map)."""

    def heavy(environ: dict[str, Any]) -> bool:
        if environ.get("REQUEST_METHOD") not in ("GET", "HEAD"):
            return False
        try:
            endpoint, _ = app.url_map.bind_to_environ(environ).match()
        except HTTPException:
            return False
        return is_heavy(app.view_functions.get(endpoint))

    return heavy


def whole_setting(app: Flask, key: str, env: str, default: int, least: int) -> int:
    """`key` from the config, else `env` from the environment, else `default`: a whole
    number from `least`, or the server stops at start saying so."""
    value = app.config.get(key)
    if value in (None, ""):
        value = os.environ.get(env)
    text = str(default) if value in (None, "") else str(value).strip()
    if not text.isdigit() or int(text) < least:
        raise RuntimeError(f"{key} must be a whole number from {least}, not {text!r}")
    return int(text)


def heavy_reads_at_once(app: Flask) -> int:
    """HEAVY_READS_AT_ONCE from the config or the environment (a whole number, 1 or more)."""
    return whole_setting(
        app, "HEAVY_READS_AT_ONCE", ENV_HEAVY_READS_AT_ONCE, HEAVY_READS_AT_ONCE, 1
    )


def heavy_slot_hold(app: Flask) -> float:
    """HEAVY_SLOT_HOLD_MS from the config or the environment, in seconds (0 or more)."""
    hold = whole_setting(app, "HEAVY_SLOT_HOLD_MS", ENV_HEAVY_SLOT_HOLD_MS, HEAVY_SLOT_HOLD_MS, 0)
    return hold / 1000


def refuse_when_busy() -> None:
    """The 503 of a heavy read that found every slot taken (before any budget is spent)."""
    if request.environ.get(_BUSY):
        raise HeavyBusy


def init_app(app: Flask) -> None:
    slots = HeavySlots(app.config["DATABASE"], heavy_reads_at_once(app), heavy_slot_hold(app))
    app.extensions["scorer.heavy_slots"] = slots
    app.before_request(refuse_when_busy)
    app.wsgi_app = Yielding(app.wsgi_app, heavy_requests(app), slots)  # type: ignore[method-assign]
