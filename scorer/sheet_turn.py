"""One score sheet renders at a time on the whole server, whichever worker took the request.

Rendering is the costliest thing a request can buy, and `make run` serves with several
single-threaded workers: a lock in one worker's memory would let every worker render at
once and leave none for the phones. The turn is a file lock beside the database (every
worker of a server shares it); a request waits briefly for it, then gets 503 with
Retry-After, so a burst of sheet requests holds one worker, not all of them.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from filelock import FileLock, Timeout
from flask import current_app
from werkzeug.exceptions import ServiceUnavailable

# How long a request waits for the turn (SHEET_WAIT_SECONDS): about one short sheet's render.
# It blocks a worker meanwhile, so it stays short.
SHEET_WAIT_SECONDS = 2
SHEET_RETRY_AFTER = 5


def lock_path() -> str:
    """The lock file of this app's database (`scorer.sqlite3-sheet.lock` beside it)."""
    return f"{current_app.config['DATABASE']}-sheet.lock"


@contextmanager
def sheet_turn() -> Iterator[None]:
    """Hold the server's one turn to render a sheet; 503 if it stays taken too long."""
    wait = current_app.config.get("SHEET_WAIT_SECONDS", SHEET_WAIT_SECONDS)
    lock = FileLock(lock_path())
    try:
        lock.acquire(timeout=wait)
    except Timeout:
        raise ServiceUnavailable(retry_after=SHEET_RETRY_AFTER) from None
    try:
        yield
    finally:
        lock.release()
