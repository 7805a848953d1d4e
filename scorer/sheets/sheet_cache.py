"""Score sheets, rendered once per (game, version, language, paper) for the whole server.

Rendering is the costliest thing a request can buy, and `make run` serves with several
single-threaded workers, so both the cache and the turn to render live beside the database,
where every worker of a server finds them:
- the cache is a folder of files (`scorer.sqlite3-sheets/`, cachelib's FileSystemCache):
  printing a game again reads a file, whichever worker answers;
- the turn is a file lock (`scorer.sqlite3-sheet.lock`): one sheet renders at a time; a
  request waits briefly for it, then gets 503 with Retry-After, so a burst of sheet requests
  holds one worker and leaves the others to the phones.
A new hand is a new version, so a kept sheet is never stale; old ones are pruned by count.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import gc
from collections.abc import Callable, Hashable, Iterator
from contextlib import contextmanager

from cachelib import FileSystemCache
from filelock import FileLock, Timeout
from flask import Flask, current_app, request
from flask_babel import get_locale
from werkzeug.exceptions import ServiceUnavailable

# Sheets kept on disk. A 1 000-hand sheet is under 1 MB, so the folder stays under ~64 MB.
SHEET_CACHE_SIZE = 64
# How long a request waits for the turn (SHEET_WAIT_SECONDS): about one short sheet's render.
# It blocks a worker meanwhile, so it stays short.
SHEET_WAIT_SECONDS = 2
SHEET_RETRY_AFTER = 5


def sheet_cache(app: Flask) -> FileSystemCache:
    """The server's kept sheets: files beside the app's database, readable by its owner."""
    found = app.extensions.get("scorer.sheets")
    if found is None:
        folder = f"{app.config['DATABASE']}-sheets"
        # No expiry (timeout 0): a key names a version, so a kept sheet never goes stale.
        found = FileSystemCache(folder, SHEET_CACHE_SIZE, default_timeout=0, mode=0o600)
        app.extensions["scorer.sheets"] = found
    return found


def cached_sheet(key: Hashable, make_pdf: Callable[[], bytes]) -> bytes:
    """The sheet's PDF from the cache, else rendered (one render at a time per server)."""
    cache = sheet_cache(current_app)
    paper = request.args.get("paper", "a4").strip().lower()
    name = repr((key, str(get_locale()), paper))
    found = cache.get(name)
    if found is not None:
        return found
    with sheet_turn():
        found = cache.get(name)  # rendered by the request we waited for?
        if found is None:
            found = rendered_apart(make_pdf)
            cache.set(name, found)
    return found


def rendered_apart(make_pdf: Callable[[], bytes]) -> bytes:
    """`make_pdf()`, with the worker's own objects (app, fonts, caches) set aside meanwhile.

    A layout is cyclic garbage, so it is collected, but a full collection walks the whole
    heap (about 50 ms in a worker): frozen (gc.freeze), the worker's objects are skipped and
    each collection walks the render's objects only. glibc then gets the freed pages back.
    """
    gc.freeze()
    try:
        return make_pdf()
    finally:
        release_memory()
        gc.unfreeze()


@contextmanager
def sheet_turn() -> Iterator[None]:
    """Hold the server's one turn to render a sheet; 503 if it stays taken too long."""
    wait = current_app.config.get("SHEET_WAIT_SECONDS", SHEET_WAIT_SECONDS)
    lock = FileLock(f"{current_app.config['DATABASE']}-sheet.lock")
    try:
        lock.acquire(timeout=wait)
    except Timeout:
        raise ServiceUnavailable(retry_after=SHEET_RETRY_AFTER) from None
    try:
        yield
    finally:
        lock.release()


def _libc_trim() -> Callable[[int], int] | None:
    name = ctypes.util.find_library("c")
    try:
        return ctypes.CDLL(name).malloc_trim if name else None
    except (OSError, AttributeError):  # not glibc: nothing to trim
        return None


MALLOC_TRIM = _libc_trim()


def release_memory() -> None:
    """Give a render's memory back: its layout is cyclic garbage, and glibc keeps freed pages.

    Called while the worker's objects are frozen (`rendered_apart`), so the collection walks
    only what the render made.
    """
    gc.collect()
    if MALLOC_TRIM is not None:
        MALLOC_TRIM(0)
