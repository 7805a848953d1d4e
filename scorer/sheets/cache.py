"""Score sheets, rendered once per (sheet, version, language, paper) for the whole server.

Rendering is the costliest thing a request can buy, and `make run` serves with several
single-threaded workers, so both the cache and the turn to render live beside the database,
where every worker of a server finds them:
- the caches are folders of files (cachelib's FileSystemCache), one per kind of sheet with a
  budget of its own (SHEET_BUDGETS): `scorer.sqlite3-sheets/` for games' sheets,
  `scorer.sqlite3-sheets-blank/` and `scorer.sqlite3-sheets-night/`; seventy blank sheets
  cannot push a 1 000-hand game's sheet out, and printing again reads a file, whichever
  worker answers;
- the turn is a file lock (`scorer.sqlite3-sheet.lock`): one sheet of any kind renders at a
  time. A request that finds it taken does not wait (a waiting sync worker serves nobody):
  it answers 503 with Retry-After at once, and a browser gets a small page that asks again
  by itself (a meta refresh, no script), by when the sheet is usually kept.
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

# Sheets kept on disk, per kind. A 1 000-hand sheet is under 1 MB, so games' sheets stay
# under ~64 MB; a blank sheet or a night's is a page or two (a few tens of KB); a part of a
# club's hands as CSV (scorer/games/csv_routes.py, made in the same turn) under 0.5 MB.
SHEET_BUDGETS = {"game": 64, "blank": 32, "night": 32, "csv": 16}
SHEET_CACHE_SIZE = SHEET_BUDGETS["game"]
# How long a request waits for the turn (SHEET_WAIT_SECONDS): not at all by default, since
# a waiting sync worker serves nobody meanwhile.
SHEET_WAIT_SECONDS = 0
SHEET_RETRY_AFTER = 5


class SheetBusy(ServiceUnavailable):
    """Another sheet is rendering: 503, Retry-After, and a page that asks again by itself."""

    refresh = SHEET_RETRY_AFTER
    busy_with = "sheet"  # what the error page says the server is busy with

    def __init__(self) -> None:
        super().__init__(retry_after=SHEET_RETRY_AFTER)


def sheet_cache(app: Flask, kind: str = "game") -> FileSystemCache:
    """The server's kept sheets of one kind: files beside the app's database, readable by
    its owner, within that kind's budget."""
    found = app.extensions.get(f"scorer.sheets.{kind}")
    if found is None:
        folder = f"{app.config['DATABASE']}-sheets" + ("" if kind == "game" else f"-{kind}")
        # No expiry (timeout 0): a key names a version, so a kept sheet never goes stale.
        found = FileSystemCache(folder, SHEET_BUDGETS[kind], default_timeout=0, mode=0o600)
        app.extensions[f"scorer.sheets.{kind}"] = found
    return found


def cached_sheet(key: tuple[Hashable, ...], make_pdf: Callable[[], bytes]) -> bytes:
    """The sheet's PDF from the cache of its kind (`key[0]`: game, blank or night), else
    rendered (one render at a time per server; 503 at once while another renders)."""
    cache = sheet_cache(current_app, str(key[0]))
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
    """Hold the server's one turn to render a sheet; SheetBusy (503) if it is taken."""
    wait = current_app.config.get("SHEET_WAIT_SECONDS", SHEET_WAIT_SECONDS)
    lock = FileLock(f"{current_app.config['DATABASE']}-sheet.lock")
    try:
        lock.acquire(timeout=wait)
    except Timeout:
        raise SheetBusy from None
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
