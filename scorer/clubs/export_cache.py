"""Club exports kept on disk by the club's tag: ten readers of one big club cost one render.

Behind `make run`'s front (or the router) nginx takes an answer at once and sends it at the
client's pace, so a slow reader no longer holds a worker; but each reader that comes back
after its 503 used to make the whole export again, about 1.5 s of CPU for a 1 000-game club,
which the tables' hands share (issue 35). A part is kept as the file it was sent as, named
after the club's tag (its own version and the count of changes to its games) and the part's
first game, in a folder beside the database that every worker finds; a hand or a roster
change makes a new tag, so a kept part is never stale. The file is written while the part
is streamed (its memory stays bounded) and only a part sent whole is kept.
"""

from __future__ import annotations

import hashlib
import os
import time
from collections.abc import Iterator
from pathlib import Path
from typing import IO

from flask import Flask

# Parts kept at once, the newest (a part is at most CLUB_PART_BYTES, about 23 MiB): a club
# being read by many and a few others.
KEPT_PARTS = 4
# A part being written for longer than this was left by a worker that died meanwhile.
ABANDONED_SECONDS = 3600
SUFFIX = ".json"


def folder(app: Flask) -> Path:
    """The kept parts' folder, beside the app's database (the sheets' way)."""
    path = Path(f"{app.config['DATABASE']}-exports")
    path.mkdir(mode=0o700, exist_ok=True)
    return path


def _path(app: Flask, tag: str, start: str | None) -> Path:
    name = hashlib.sha256(f"{tag}|{start or ''}".encode()).hexdigest()[:32]
    return folder(app) / f"{name}{SUFFIX}"


def kept(app: Flask, tag: str, start: str | None) -> IO[bytes] | None:
    """The part kept for this tag, opened; None when there is none."""
    try:
        return _path(app, tag, start).open("rb")
    except FileNotFoundError:
        return None


def sent(file: IO[bytes], chunk_bytes: int = 64 * 1024) -> Iterator[bytes]:
    """A kept part's bytes, a chunk at a time, its file closed once they are all read (or
    the client goes away)."""
    with file:
        while chunk := file.read(chunk_bytes):
            yield chunk


def keeping(app: Flask, tag: str, start: str | None, chunks: Iterator[bytes]) -> Iterator[bytes]:
    """`chunks`, passed on as they come and written to a file kept once the last is sent;
    a part the client left half-way is not kept."""
    final = _path(app, tag, start)
    partial = final.with_name(f".{final.stem}.{os.getpid()}.{time.monotonic_ns()}.part")
    descriptor = os.open(partial, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(descriptor, "wb") as file:
        try:
            for chunk in chunks:
                file.write(chunk)
                yield chunk
        except BaseException:  # GeneratorExit too: the client went away
            file.close()
            partial.unlink(missing_ok=True)
            raise
    os.replace(partial, final)
    prune(final.parent)


def prune(parent: Path, keep: int = KEPT_PARTS) -> None:
    """Keep the newest parts only, and drop half-written ones a dead worker left."""
    parts = sorted(parent.glob(f"*{SUFFIX}"), key=_age)
    for old in parts[: max(len(parts) - keep, 0)]:
        old.unlink(missing_ok=True)
    for partial in parent.glob(".*.part"):
        if time.time() - _age(partial) > ABANDONED_SECONDS:
            partial.unlink(missing_ok=True)


def _age(path: Path) -> float:
    try:
        return path.stat().st_mtime
    except FileNotFoundError:
        return 0.0
