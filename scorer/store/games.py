"""A game as stored: its hands' rows written and read back, its inputs from one snapshot,
and their replay.

Only the inputs of each hand are stored. The game's state (totals, minimums, winner) is
replayed by the rules engine on every load, so a rules fix corrects every stored game.
The game row and its hands are read in one read transaction, so a game's version always
matches the hands read with it.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

import sqlite_utils

from scorer.core.errors import N_, RuleError, ScorerError
from scorer.core.families import DEFAULT_FAMILY, RuleFamily, get_family
from scorer.core.game import GameState, Side, Table, make_table, play
from scorer.core.hand_schema import side_hand, side_values
from scorer.core.hand_schema import sides_json as schema_sides_json
from scorer.core.hands import Hand, SideHand
from scorer.core.limits import MAX_HANDS_PER_GAME, side_name
from scorer.core.rules import get_profile, with_fixed_hands, with_house_rules, with_target
from scorer.store.db import now, readable, snapshot


class NotFound(ScorerError, LookupError):
    """No game (or no hand) at that address."""

    def __init__(
        self,
        address: str,
        template: str = N_("no game at this address"),
        *,
        field: str | None = None,
    ) -> None:
        super().__init__(field, template)
        self.address = address


@dataclass(frozen=True)
class StoredGame:
    """A game's inputs exactly as stored, not replayed: what an export needs, and all it
    needs, so even a game a later rules fix no longer accepts can be saved elsewhere."""

    id: str
    name: str
    profile_key: str
    target: int
    house_rules: dict[str, Any]
    first_dealer: str
    created_at: str
    updated_at: str
    version: int
    sides: tuple[Side, ...]
    hands: tuple[Hand, ...]
    fixed_hands: int | None = None
    family_key: str = DEFAULT_FAMILY.key


@dataclass(frozen=True)
class ReplayedGame:
    """A stored game: its row and the state replayed from its hands."""

    id: str
    name: str
    profile_key: str
    house_rules: dict[str, Any]
    version: int
    created_at: str
    updated_at: str
    state: GameState

    @property
    def table(self) -> Table:
        return self.state.table

    @property
    def full(self) -> bool:
        """At the cap on hands: the game takes no further hand."""
        return len(self.state.results) >= MAX_HANDS_PER_GAME


def build_table(
    profile_key: str | None,
    target: int | None,
    house_rules: dict[str, Any] | None,
    sides: list[Side] | tuple[Side, ...],
    first_dealer: str | None,
    fixed_hands: int | None = None,
    family_key: str | None = None,
) -> Table:
    """The validated table of a new game (RuleError names what does not fit): the seating
    ``profile_key`` of the family ``family_key`` (the default family when None).

    A game of ``fixed_hands`` hands ends after that hand instead of at the target (which
    still sets its minimum table)."""
    profile = get_profile(profile_key, family_key)
    if not sides:
        raise RuleError("sides", N_("a game needs sides"))
    layout = profile.layout_for(tuple(len(side.players) for side in sides))
    profile = with_target(profile, target if target is not None else layout.target)
    if house_rules:
        profile = with_house_rules(profile, house_rules)
    if fixed_hands is not None:
        profile = with_fixed_hands(profile, fixed_hands)
    return make_table(profile, tuple(sides), first_dealer)


def version_of(db: sqlite_utils.Database, game_id: str) -> int:
    """The game's current version; NotFound for an unknown id."""
    row = db.execute("select version from games where id = ?", [game_id]).fetchone()
    if row is None:
        raise NotFound(game_id)
    return int(row[0])


def load_inputs(db: sqlite_utils.Database, game_id: str) -> StoredGame:
    """The stored inputs of a game, its row and hands from one snapshot; NotFound if none."""
    with snapshot(db):
        rows = list(db.query("select * from games where id = ?", [game_id]))
        if not rows:
            raise NotFound(game_id)
        sides = db.execute(
            "select name, players from sides where game_id = ? order by position", [game_id]
        ).fetchall()
        row = rows[0]
        family = get_family(row.get("family"))
        hands = db.query("select * from hands where game_id = ? order by number", [game_id])
        hands = tuple(hand_from_row(r, family) for r in hands)
    updated = readable(row["updated_at"], now())
    return StoredGame(
        id=row["id"],
        name=row["name"] or "",
        profile_key=row["profile"],
        target=row["target"],
        house_rules=json.loads(row["rules"] or "{}"),
        first_dealer=row["first_dealer"],
        created_at=readable(row["created_at"], updated),
        updated_at=updated,
        version=row["version"],
        sides=tuple(
            stored_side(name, json.loads(players), k) for k, (name, players) in enumerate(sides)
        ),
        hands=hands,
        fixed_hands=row.get("fixed_hands"),
        family_key=family.key,
    )


def stored_side(name: str, players: list[str], index: int) -> Side:
    """A side as stored; one named after its players reads with every name whole (no data is
    rewritten: a name cut at 40 characters by an older version reads whole too)."""
    return Side(side_name(name, players, index), tuple(players))


def replay(game: StoredGame) -> ReplayedGame:
    """The game's state from its inputs (RuleError when they no longer fit the rules)."""
    table = build_table(
        game.profile_key,
        game.target,
        game.house_rules,
        game.sides,
        game.first_dealer,
        game.fixed_hands,
        game.family_key,
    )
    return ReplayedGame(
        id=game.id,
        name=game.name,
        profile_key=game.profile_key,
        house_rules=game.house_rules,
        version=game.version,
        created_at=game.created_at,
        updated_at=game.updated_at,
        state=play(table, game.hands),
    )


def load_game(db: sqlite_utils.Database, game_id: str) -> ReplayedGame:
    """The game and its replayed state; NotFound for an unknown id."""
    return replay(load_inputs(db, game_id))


# --- a hand's inputs as stored in SQLite (and as the API shows them): only the inputs ------


def hand_from_row(row: dict[str, Any], family: RuleFamily = DEFAULT_FAMILY) -> Hand:
    return Hand(
        sides=tuple(side_from_dict(side, family) for side in json.loads(row["sides"])),
        went_out=row["went_out"],
        concealed=bool(row["concealed"]),
    )


def side_from_dict(data: dict[str, Any], family: RuleFamily = DEFAULT_FAMILY) -> SideHand:
    """A side's stored inputs back as a SideHand (counts stay counts), by the hand schema.

    A side stored before adjustments and melds rank by rank existed has neither: 0 and none.
    """
    return side_hand(data, family)


def side_to_dict(side: SideHand, family: RuleFamily = DEFAULT_FAMILY) -> dict[str, Any]:
    """A side's inputs as stored and as the API shows them (scorer.core.hand_schema)."""
    return side_values(side, family)


def sides_json(hand: Hand, family: RuleFamily = DEFAULT_FAMILY) -> str:
    """The hand's sides as its row keeps them (what HAND_BYTES_MAX bounds)."""
    return schema_sides_json(hand.sides, family)


def hand_row(
    game_id: str, number: int, hand: Hand, family: RuleFamily = DEFAULT_FAMILY
) -> dict[str, Any]:
    """The row of hand `number` (from 1) of a game of this family."""
    return {
        "game_id": game_id,
        "number": number,
        "went_out": hand.went_out,
        "concealed": int(hand.concealed),
        "sides": sides_json(hand, family),
        "created_at": now(),
    }
