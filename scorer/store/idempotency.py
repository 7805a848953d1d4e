"""Idempotency keys: a retried write is answered with its first result, never done twice.

A hand's key lives in `idempotency_keys` with its game (m002); a new game's key (creation or
import) in `creation_keys` (m007), since the game does not exist before the first request.
Each key keeps a digest of its request, to tell a retry from another request under the key.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

import sqlite_utils

from scorer.core.errors import N_, ScorerError
from scorer.core.hands import Hand
from scorer.store.db import now
from scorer.store.games import side_to_dict


class KeyReused(ScorerError):
    """An idempotency key already used for a different request."""


def digest(data: Any) -> str:
    """A stable digest of a request's data (JSON-like), whatever its keys' order."""
    return hashlib.sha256(json.dumps(data, sort_keys=True, default=str).encode()).hexdigest()


def hand_fingerprint(hand: Hand) -> str:
    """A stable digest of a hand's inputs, to tell a retry from a different request."""
    return digest(
        {
            "went_out": hand.went_out,
            "concealed": hand.concealed,
            "sides": [side_to_dict(side) for side in hand.sides],
        }
    )


def seen_hand(
    db: sqlite_utils.Database, game_id: str, key: str, hand: Hand, unscoped: str | None = None
) -> bool:
    """True when this key already recorded this very hand; KeyReused for another hand.

    `key` is the key as stored now (the API scopes it to its client); `unscoped`, the key as
    the client sent it, finds a row stored before keys were scoped.
    """
    row = None
    for stored_as in (key, unscoped):
        if stored_as is not None and row is None:
            row = db.execute(
                "select request_hash from idempotency_keys where game_id = ? and key = ?",
                [game_id, stored_as],
            ).fetchone()
    if row is None:
        return False
    if row[0] != hand_fingerprint(hand):
        raise KeyReused("Idempotency-Key", N_("this key was already used for a different hand"))
    return True


def key_recorded(
    db: sqlite_utils.Database, game_id: str, key: str, hand: Hand, unscoped: str | None = None
) -> bool:
    """True when this key already recorded this very hand on this game (a retry)."""
    try:
        return seen_hand(db, game_id, key, hand, unscoped)
    except KeyReused:
        return False


def remember_hand(db: sqlite_utils.Database, game_id: str, key: str, hand: Hand) -> None:
    db["idempotency_keys"].insert(
        {
            "game_id": game_id,
            "key": key,
            "request_hash": hand_fingerprint(hand),
            "created_at": now(),
        }
    )


def created_game(db: sqlite_utils.Database, key: str, request_hash: str) -> str | None:
    """The game this key already created from this very request; KeyReused for another."""
    row = db.execute(
        "select game_id, request_hash from creation_keys where key = ?", [key]
    ).fetchone()
    if row is None:
        return None
    if row[1] != request_hash:
        raise KeyReused("Idempotency-Key", N_("this key was already used for a different game"))
    return str(row[0])


def game_of_key(db: sqlite_utils.Database, key: str) -> str | None:
    """The game this key created, whatever the request was."""
    row = db.execute("select game_id from creation_keys where key = ?", [key]).fetchone()
    return None if row is None else str(row[0])


def remember_game(db: sqlite_utils.Database, key: str, request_hash: str, game_id: str) -> None:
    db["creation_keys"].insert(
        {"key": key, "game_id": game_id, "request_hash": request_hash, "created_at": now()}
    )
