"""A write caches its own result, and what follows a game's change is a registered hook
(issue 30): no route has to remember either."""

from __future__ import annotations

import contextlib
from typing import Any

import pytest
from flask import Flask

from scorer import store
from scorer.core.game import Side
from scorer.core.hands import Hand, SideHand
from scorer.store import db as dbmod
from scorer.store import writes

SIDES = [Side("A", ("Ann", "Bob")), Side("B", ("Cy", "Di"))]
HAND = Hand((SideHand(meld_points=120), SideHand(meld_points=50)))


def cached(game_id: str, version: int) -> store.ReplayedGame | None:
    return store.app_cache("games").get((game_id, version))


@pytest.mark.parametrize(
    "write",
    [
        lambda db, game_id: store.record_hand(db, game_id, HAND),
        lambda db, game_id: store.replace_hand(db, game_id, 1, HAND),
        lambda db, game_id: store.delete_hand(db, game_id, 1),
        lambda db, game_id: store.undo_last_hand(db, game_id),  # the page's undo
        lambda db, game_id: store.record_hand(db, game_id, HAND, idempotency_key="k"),
    ],
)
def test_every_write_caches_the_game_it_wrote(app: Flask, write: Any) -> None:
    with app.app_context():
        db = store.get_db()
        game_id = store.create_game(db, name=None, profile_key=None, target=None, sides=SIDES)
        store.record_hand(db, game_id, HAND, idempotency_key="k")
        store.app_cache("games").clear()
        written = write(db, game_id)
        assert written.version == store.version_of(db, game_id)
        assert cached(game_id, written.version) is written  # the next read replays nothing


def test_a_write_outside_an_app_caches_nothing_and_still_writes(app: Flask) -> None:
    """A script (a restore, a bench fixture) writes with no app: there is no cache to fill."""
    with contextlib.closing(dbmod.connect(app.config["DATABASE"])) as db:
        game_id = store.create_game(db, name=None, profile_key=None, target=None, sides=SIDES)
        written = store.record_hand(db, game_id, HAND)
        assert written.version == store.version_of(db, game_id) and written.state.results


def test_a_game_written_hook_runs_once_inside_the_write(
    app: Flask, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(writes, "_ON_WRITTEN", list(writes._ON_WRITTEN))
    seen: list[tuple[str, int, bool]] = []

    def hook(db: Any, game_id: str, version: int, *_: Any) -> None:
        seen.append((game_id, version, db.conn.in_transaction))

    store.on_game_written(hook)
    store.on_game_written(hook)  # once, however often registered
    with app.app_context():
        db = store.get_db()
        game_id = store.create_game(db, name=None, profile_key=None, target=None, sides=SIDES)
        written = store.record_hand(db, game_id, HAND)
    assert seen == [(game_id, written.version, True)]


def test_the_clubs_register_their_digest(app: Flask) -> None:
    assert store.club_game_written in writes._ON_WRITTEN
