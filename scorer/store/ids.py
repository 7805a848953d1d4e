"""Every address the scorer hands out (a game, a club, a watch link): one home for ids.

An id is 128 random bits, URL-safe (22 characters). A server that is one shard of many
(SCORER_SHARD=2) puts its shard in front, `s2-` + the 22 characters, so a proxy sends
`/games/s2-…` to shard 2 by reading the address alone, with no lookup table. A single box
(no shard) hands out the bare 22 characters, as it always did; those ids stay valid
everywhere, and a proxy sends them to the shard that was the single box (see scorer.deploy).

The two forms cannot be confused: a bare id is exactly 22 characters, a sharded one is
longer, so a bare id that happens to begin with `s2-` is still read as bare.
"""

from __future__ import annotations

import re
import secrets

from flask import current_app, has_app_context

TOKEN_BYTES = 16  # 128 bits: an address is its own key, it must not be guessed
TOKEN_LENGTH = 22  # len(secrets.token_urlsafe(TOKEN_BYTES))
TOKEN_CHARACTERS = "[A-Za-z0-9_-]"
MAX_SHARD = 999
ENV_SHARD = "SCORER_SHARD"
# A shard number as it appears in an id and in SCORER_SHARD: 1 to 999, no leading zero.
SHARD_NUMBER = "[1-9][0-9]{0,2}"
SHARDED_ID = re.compile(rf"s({SHARD_NUMBER})-{TOKEN_CHARACTERS}{{{TOKEN_LENGTH}}}")


def shard_setting(text: str | None) -> int | None:
    """SCORER_SHARD read: None (a single box) when unset or empty, else 1 to 999."""
    if text is None or not str(text).strip():
        return None
    text = str(text).strip()
    if not re.fullmatch(SHARD_NUMBER, text):
        raise ValueError(
            f"{ENV_SHARD} must be a shard number from 1 to {MAX_SHARD} (or unset), not {text!r}"
        )
    return int(text)


def new_id(shard: int | None) -> str:
    """A fresh id, carrying `shard` when there is one."""
    token = secrets.token_urlsafe(TOKEN_BYTES)
    return token if shard is None else f"s{shard}-{token}"


def shard_of(identifier: str) -> int | None:
    """The shard an id names, None for a bare (single-box) id."""
    found = SHARDED_ID.fullmatch(identifier)
    return int(found.group(1)) if found else None


def this_shard() -> int | None:
    """The shard this server is (the app's SHARD setting), None for a single box or when no
    app is running (a script calling the store directly)."""
    return current_app.config.get("SHARD") if has_app_context() else None


def mint() -> str:
    """A new id for something this server stores: a game, a club, a watch link."""
    return new_id(this_shard())
