"""Heavy reads give way to the tables' hands.

A view marked @heavy_read where it is defined (scorer.web.routes: a club's page, API,
export, CSV and night sheet, a game's CSV and export, every PDF) can hold a core for a
while; a client asking for them in a loop would slow every table's next hand (issue 25).
Such a request is served by a thread of its own at the lowest priority: Linux keeps a nice
value per thread, lets any user raise its own, and forgets it with the thread. Idle cores
still serve a heavy read at full speed; busy ones go to the writes and the live checks first.

The thread runs the whole WSGI call, body included (a streamed export is handed over in
chunks); the worker's own thread only waits and sends.
"""

from __future__ import annotations

import contextlib
import os
import queue
import threading
from collections.abc import Callable, Iterable, Iterator
from typing import Any

from flask import Flask
from werkzeug.exceptions import HTTPException

from scorer.web.routes import is_heavy

# How much a heavy read yields: the most there is. Under Linux's scheduler nice 19 weighs
# about 1/70 of nice 0, so a hand or a live check competing with heavy reads for a core gets
# nearly all of it; on idle cores the heavy read runs at full speed. (Nice 10, a tenth,
# still let a loop of club reads slow a small game's write past 2x on the bench.)
HEAVY_NICE = 19
QUEUED_CHUNKS = 8  # a streamed body's chunks made ahead of the sending
_DONE = object()


def yield_cores() -> None:
    """Set this thread's nice value (and no other thread's) to HEAVY_NICE."""
    thread = threading.get_native_id()
    with contextlib.suppress(OSError):  # not Linux, or not allowed: the usual priority
        if os.getpriority(os.PRIO_PROCESS, thread) < HEAVY_NICE:
            os.setpriority(os.PRIO_PROCESS, thread, HEAVY_NICE)


class Yielding:
    """WSGI middleware: requests `heavy` says so are served by a thread that yields."""

    def __init__(self, wsgi_app: Any, heavy: Callable[[dict[str, Any]], bool]) -> None:
        self.wsgi_app = wsgi_app
        self.heavy = heavy

    def __call__(self, environ: dict[str, Any], start_response: Callable[..., Any]) -> Any:
        if not self.heavy(environ):
            return self.wsgi_app(environ, start_response)
        return _Handoff(self.wsgi_app, environ).answer(start_response)


class _Handoff:
    """One heavy request: served in a thread, its answer handed to the worker's thread."""

    def __init__(self, wsgi_app: Any, environ: dict[str, Any]) -> None:
        self.wsgi_app = wsgi_app
        self.environ = environ
        self.started: queue.Queue[Any] = queue.Queue()  # the head, or what stopped it
        self.headed = False
        self.chunks: queue.Queue[Any] = queue.Queue(QUEUED_CHUNKS)
        self.stopped = threading.Event()

    def answer(self, start_response: Callable[..., Any]) -> Iterable[bytes]:
        threading.Thread(target=self.serve, daemon=True).start()
        head = self.started.get()
        if isinstance(head, BaseException):
            raise head
        start_response(*head)
        return _Body(self)

    def serve(self) -> None:
        yield_cores()
        try:
            body = self.wsgi_app(self.environ, self.hold)
            try:
                for chunk in body:
                    if not self.put(chunk):
                        return
            finally:
                if hasattr(body, "close"):
                    body.close()
            self.finish(_DONE)
        except BaseException as error:  # re-raised in the worker's thread
            self.finish(error)

    def hold(self, status: str, headers: list[tuple[str, str]], exc_info: Any = None) -> Any:
        self.headed = True
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


def init_app(app: Flask) -> None:
    app.wsgi_app = Yielding(app.wsgi_app, heavy_requests(app))  # type: ignore[method-assign]
