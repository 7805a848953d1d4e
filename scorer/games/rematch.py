"""Play again: the next game with the same sides, players, rules and target, the deal moved
on one seat (the player after the last hand's dealer deals first)."""

from __future__ import annotations

import re
from collections.abc import Sequence

import sqlite_utils

from scorer import store
from scorer.core.errors import N_, RuleError
from scorer.core.game import Side
from scorer.core.limits import NAME_MAX

# "Friday #2": the number of the game in a row of Play again (no words: stored names are not
# translated, and "#" reads the same in every language).
_NUMBERED = re.compile(r"^(.*\S) #(\d{1,4})$")


def next_name(name: str | None, sides: Sequence[Side]) -> str:
    """The next game's name: "Friday" is followed by "Friday #2", then "Friday #3"; a game
    without a name is called by its sides. Within the name limit, the number kept whole."""
    base = name or " / ".join(side.name for side in sides)
    number = 2
    found = _NUMBERED.match(base)
    if found:
        base, number = found.group(1), int(found.group(2)) + 1
    suffix = f" #{number}"
    return base[: NAME_MAX - len(suffix)].rstrip() + suffix


def play_again(db: sqlite_utils.Database, record: store.GameRecord) -> str:
    """Store the next game of a finished one and return its id."""
    state = record.state
    if not state.finished:
        raise RuleError("game", N_("this game is not over yet: play again once it has a winner"))
    inputs = store.load_inputs(db, record.id)
    return store.create_game(
        db,
        name=next_name(inputs.name, inputs.sides),
        profile_key=inputs.profile_key,
        target=inputs.target,
        sides=list(inputs.sides),
        first_dealer=state.dealer_next,
        house_rules=inputs.house_rules or None,
        fixed_hands=inputs.fixed_hands,
    )
