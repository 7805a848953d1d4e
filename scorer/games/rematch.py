"""Play again: the next game with the same sides, players, rules and target, the deal moved
on one seat (the player after the last hand's dealer deals first).

A finished game is played again once: a double tap, two phones tapping together or a
retried request all get the same next game. The finished game's id is the key of that
creation (its `creation_keys` row), so no token is needed on the page nor on the API;
whoever holds the game's address, which is already its write key, finds its next game.
"""

from __future__ import annotations

import sqlite_utils

from scorer import store
from scorer.core.errors import N_, RuleError


def play_again(db: sqlite_utils.Database, record: store.GameRecord) -> str:
    """Store the next game of a finished one and return its id."""
    state = record.state
    if not state.finished:
        raise RuleError("game", N_("this game is not over yet: play again once it has a winner"))
    key = again_key(record.id)
    made = store.game_of_key(db, key)
    if made is not None:  # played again already (the same inputs or, since, corrected ones)
        return made
    inputs = store.load_inputs(db, record.id)
    # Two taps at once both get here: the store checks the key again under its write lock.
    return store.create_game(
        db,
        name=inputs.name or None,
        profile_key=inputs.profile_key,
        target=inputs.target,
        sides=list(inputs.sides),
        first_dealer=state.dealer_next,
        house_rules=inputs.house_rules or None,
        fixed_hands=inputs.fixed_hands,
        idempotency_key=key,
    )


def again_key(game_id: str) -> str:
    # Never a client's key: those are stored as hex digests (scorer.web.http.creation_key).
    return f"again:{game_id}"
