"""Games of any length for the benchmark, written straight into a real SQLite file.

The hands come from a four-hand cycle whose totals come back to 0–0, so a game of 1 000
hands never reaches the target and every hand is a legal one (the engine replays them all
when the game is loaded, which checks that).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import sqlite_utils

from scorer import store
from scorer.core.game import Side, Table
from scorer.core.hands import CardCounts, Hand, SideHand
from scorer.store import db as scorer_db
from scorer.web.ratelimit import LIMITS, config_key

# A load, or a measure repeated, asks from one address far more than a client's budgets allow
# (a hand a few ms, a sheet or a club page dozens of times): the bench's apps keep the limiter
# running (its cost is part of what is measured) under ceilings no bench reaches.
CEILINGS = {config_key(budget): "1000000/minute" for budget in LIMITS}

SIDES = [Side("Ann & Bob", ("Ann", "Bob")), Side("Cleo & Dan", ("Cleo", "Dan"))]

# Totals after each hand of the cycle: (900, -200), (0, 0), (30, 560), (0, 0).
CYCLE: tuple[Hand, ...] = (
    Hand(
        sides=(
            SideHand(meld_points=200, natural_canastas=1, red_threes=1),
            SideHand(red_threes=1, hand_points=100),
        ),
        went_out=0,
    ),
    Hand(
        sides=(SideHand(red_threes=2, hand_points=700), SideHand(meld_points=200)),
        went_out=None,
    ),
    Hand(
        sides=(
            SideHand(meld_cards=CardCounts(ten=5), hand_cards=CardCounts(five=4)),
            SideHand(meld_cards=CardCounts(jokers=1, twenty=2, ten=6, five=2), mixed_canastas=1),
        ),
        went_out=1,
    ),
    Hand(
        sides=(
            SideHand(meld_points=20, hand_points=50),
            SideHand(red_threes=3, hand_points=260),
        ),
        went_out=None,
    ),
)


def hands(count: int) -> list[Hand]:
    return [CYCLE[i % len(CYCLE)] for i in range(count)]


def table() -> Table:
    return store.build_table("classic", None, None, SIDES, None)


def hand_body(number: int) -> dict[str, Any]:
    """The JSON body of POST /api/games/<id>/hands for hand `number` (from 0) of the cycle."""
    hand = CYCLE[number % len(CYCLE)]
    return {
        "sides": [store.side_to_dict(side) for side in hand.sides],
        "went_out": hand.went_out,
        "concealed": hand.concealed,
        # The cycle has a meld of 20 (below a minimum): the table confirms it (§2b).
        "confirm": ["opening_minimum"],
    }


def open_db(path: Path) -> sqlite_utils.Database:
    """The benchmark's database, created and migrated as the app would."""
    scorer_db.prepare(path)
    return scorer_db.connect(path)


def make_game(db: sqlite_utils.Database, count: int, name: str = "Friday night") -> str:
    """A stored game of `count` hands; returns its id."""
    game_id = store.create_game(db, name=name, profile_key="classic", target=None, sides=SIDES)
    rows = [
        {
            "game_id": game_id,
            "number": i + 1,
            "went_out": hand.went_out,
            "concealed": int(hand.concealed),
            "sides": json.dumps([store.side_to_dict(side) for side in hand.sides]),
            "created_at": store.now(),
        }
        for i, hand in enumerate(hands(count))
    ]
    with scorer_db.transaction(db):
        db["hands"].insert_all(rows)
        db.execute("update games set version = ? where id = ?", [count + 1, game_id])
    return game_id


def check_game(db: sqlite_utils.Database, game_id: str, count: int) -> None:
    """Replays the stored game: it must hold `count` hands and still be in play."""
    record = store.load_game(db, game_id)
    if len(record.state.results) != count or record.state.finished:
        raise RuntimeError(f"benchmark game {game_id} is not a {count}-hand game in play")
