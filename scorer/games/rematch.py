"""Play again: the next game with the same sides, players, rules and target, the deal moved
on one seat (the player after the last hand's dealer deals first)."""

from __future__ import annotations

import sqlite_utils

from scorer import store
from scorer.core.errors import N_, RuleError


def play_again(db: sqlite_utils.Database, record: store.GameRecord) -> str:
    """Store the next game of a finished one and return its id."""
    state = record.state
    if not state.finished:
        raise RuleError("game", N_("this game is not over yet: play again once it has a winner"))
    inputs = store.load_inputs(db, record.id)
    return store.create_game(
        db,
        name=inputs.name or None,
        profile_key=inputs.profile_key,
        target=inputs.target,
        sides=list(inputs.sides),
        first_dealer=state.dealer_next,
        house_rules=inputs.house_rules or None,
        fixed_hands=inputs.fixed_hands,
    )
