"""Small in-process caches of derived values, keyed so that they never go stale.

Every change to a game bumps its version, so a value keyed by (game id, version) is good
for as long as it lives: a new version is a new key, and old keys fall out of the LRU.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import Generic, TypeVar

import sqlite_utils
from flask import current_app, has_app_context

from scorer.store.db import snapshot
from scorer.store.games import ReplayedGame, load_inputs, replay, version_of

V = TypeVar("V")


class LruCache(Generic[V]):
    """Values by key, the least recently used dropped past `size` (thread-safe)."""

    def __init__(self, size: int = 256) -> None:
        self.size = size
        self._items: OrderedDict[Hashable, V] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: Hashable) -> V | None:
        with self._lock:
            if key not in self._items:
                return None
            self._items.move_to_end(key)
            return self._items[key]

    def put(self, key: Hashable, value: V) -> V:
        with self._lock:
            self._items[key] = value
            self._items.move_to_end(key)
            while len(self._items) > self.size:
                self._items.popitem(last=False)
        return value

    def clear(self) -> None:
        with self._lock:
            self._items.clear()

    def get_or_make(self, key: Hashable, make: Callable[[], V]) -> V:
        found = self.get(key)
        return found if found is not None else self.put(key, make())


def app_cache(name: str, size: int = 256) -> LruCache:
    """This app's cache called `name` (each app, and so each test, has its own)."""
    key = f"scorer.cache.{name}"
    found = current_app.extensions.get(key)
    if found is None:  # built once, not on every call as setdefault's argument would be
        found = current_app.extensions.setdefault(key, LruCache(size))
    return found


def replayed_game(db: sqlite_utils.Database, game_id: str) -> ReplayedGame:
    """The game replayed once per version: the web layer's one cache of games.

    The version and, on a miss, the inputs come from one snapshot, so the key always names
    what was read; the replay runs after the snapshot ends. Every write bumps the version,
    so a cached game is never stale.
    """
    games = app_cache("games")
    with snapshot(db):
        found = games.get((game_id, version_of(db, game_id)))
        if found is not None:
            return found
        stored = load_inputs(db, game_id)
    return keep(replay(stored))


def keep(record: ReplayedGame) -> ReplayedGame:
    """Remember a game as a write just returned it: the next read needs no replay."""
    return app_cache("games").put((record.id, record.version), record)


def keep_written(record: ReplayedGame) -> ReplayedGame:
    """A committed write's game, kept for the app that wrote it (a script with no app
    keeps nothing)."""
    return keep(record) if has_app_context() else record
