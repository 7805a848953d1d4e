"""The secret key that signs sessions and forms: a server's own in its instance folder, or
the one a fleet of shards shares (made by `python -m scorer.deploy --key`)."""

from __future__ import annotations

import os
import secrets
import tempfile
from pathlib import Path


def load_secret_key(instance: Path) -> str:
    """The secret key kept in instance/, made on first run, readable by its owner only."""
    path = instance / "secret_key"
    instance.mkdir(mode=0o700, parents=True, exist_ok=True)
    make_secret_key(path)
    if path.stat().st_mode & 0o077:
        path.chmod(0o600)  # a key others can read is no secret: tighten it
    return usable_key(path)


def make_secret_key(path: Path, key: str | None = None) -> bool:
    """Write a new random key (or `key`) at `path`, mode 0600, unless one is there already;
    whether it wrote one.

    The key is written to a private temporary file and linked into place, so a second
    process starting at the same moment (two gunicorn workers) never reads half a key and
    both end up with the same one; an existing key is never replaced.
    """
    if path.exists():
        return False
    fd, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.")  # mode 0600
    try:
        with os.fdopen(fd, "w") as handle:
            handle.write(key or secrets.token_hex(32))
            handle.flush()
            os.fsync(handle.fileno())
        try:
            os.link(temporary, path)
        except FileExistsError:  # another process was first: use its key
            return False
    finally:
        os.unlink(temporary)
    return True


def read_fleet_key(path: Path) -> str:
    """The key a fleet of shards shares: made once by `python -m scorer.deploy --key`, never
    by a shard (each would make its own, and forms would fail across shards)."""
    if not path.is_file():
        raise RuntimeError(
            f"{path}: no secret key; make the fleet's one key with "
            f"`python -m scorer.deploy --key {path}` (once, for every shard)"
        )
    if path.stat().st_mode & 0o077:
        raise RuntimeError(f"{path} is readable by others: chmod 600 it (else it is no secret)")
    return usable_key(path)


def usable_key(path: Path) -> str:
    key = path.read_text().strip()
    if len(key) < 32:
        raise RuntimeError(f"{path} holds no usable secret key; delete it to make a new one")
    return key
