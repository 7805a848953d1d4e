"""Games in SQLite: each user action is one transaction; scores are always derived.

Only the inputs of each hand are stored. The game's state (totals, minimums, winner) is
replayed by the rules engine on every load, so a rules fix corrects every stored game.
"""

from __future__ import annotations

import hashlib
import json
import logging
import secrets
from collections.abc import Callable
from dataclasses import asdict, dataclass, replace
from datetime import UTC, datetime
from typing import Any

import sqlite_utils

from scorer.cache import LruCache
from scorer.db import transaction
from scorer.errors import N_, GameFinished, RuleError, ScorerError
from scorer.game import (
    GameState,
    Side,
    Table,
    add_hand,
    correct,
    make_table,
    play,
    remove,
    without_after_end,
)
from scorer.hands import CardCounts, Hand, SideHand
from scorer.irregular import CONFIRMABLE
from scorer.limits import check_game, check_hand_count
from scorer.rules import get_profile, with_house_rules, with_target

log = logging.getLogger(__name__)


class NotFound(ScorerError, LookupError):
    """No game (or no hand) at that address."""

    def __init__(self, address: str, template: str = N_("no game at this address")) -> None:
        super().__init__(None, template)
        self.address = address


class StaleGame(ScorerError):
    """The game changed since the client read it (another phone saved first)."""


class KeyReused(ScorerError):
    """An idempotency key already used for a different request on this game."""


@dataclass(frozen=True)
class GameRecord:
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


def new_game_id() -> str:
    """128 bits of randomness, URL-safe: a game's address is its only key."""
    return secrets.token_urlsafe(16)


def now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


def build_table(
    profile_key: str | None,
    target: int | None,
    house_rules: dict[str, Any] | None,
    sides: list[Side],
    first_dealer: str | None,
) -> Table:
    """The validated table of a new game (RuleError names what does not fit)."""
    profile = get_profile(profile_key)
    if not sides:
        raise RuleError("sides", N_("a game needs sides"))
    layout = profile.layout_for(tuple(len(side.players) for side in sides))
    profile = with_target(profile, target if target is not None else layout.target)
    if house_rules:
        profile = with_house_rules(profile, house_rules)
    return make_table(profile, tuple(sides), first_dealer)


def create_game(
    db: sqlite_utils.Database,
    *,
    name: str | None,
    profile_key: str | None,
    target: int | None,
    sides: list[Side],
    first_dealer: str | None = None,
    house_rules: dict[str, Any] | None = None,
) -> str:
    """Store a new game and return its id: importing a game that has no hands yet."""
    return import_game(
        db,
        name=name,
        profile_key=profile_key,
        target=target,
        sides=sides,
        first_dealer=first_dealer,
        house_rules=house_rules,
    )


def _insert_game(
    db: sqlite_utils.Database,
    game_id: str,
    name: str | None,
    table: Table,
    house_rules: dict[str, Any] | None,
    created_at: str,
) -> None:
    db["games"].insert(
        {
            "id": game_id,
            "name": name or "",
            "profile": table.profile.key,
            "target": table.profile.target,
            "rules": json.dumps(house_rules or {}),
            "first_dealer": table.seating[table.first_dealer],
            "version": 1,
            "created_at": created_at,
            "updated_at": now(),
        }
    )
    db["sides"].insert_all(
        {"game_id": game_id, "position": i, "name": s.name, "players": json.dumps(s.players)}
        for i, s in enumerate(table.sides)
    )


def import_game(
    db: sqlite_utils.Database,
    *,
    name: str | None,
    profile_key: str | None,
    target: int | None,
    sides: list[Side],
    first_dealer: str | None = None,
    house_rules: dict[str, Any] | None = None,
    hands: list[Hand] | tuple[Hand, ...] = (),
    created_at: str | None = None,
) -> str:
    """Store an exported game under a new id, all its hands in the same transaction.

    The hands are replayed first, against every rule of §2: a refusal names the hand
    (`hands[2].sides[0]...`) and nothing is stored. Irregular hands (§2b) are taken as the
    table confirmed them, and hands after the end are kept, counting for nothing (§2c).
    A new id keeps ids unguessable whatever the file says.
    """
    check_game(name, sides)
    check_hand_count(len(hands))
    table = build_table(profile_key, target, house_rules, sides, first_dealer)
    try:
        play(table, hands, strict=True)
    except RuleError as error:
        index = (error.hand_number or 1) - 1
        field = f"hands[{index}].{error.field}" if error.field else f"hands[{index}]"
        raise RuleError(field, error.template, **error.params) from error
    game_id = new_game_id()
    with transaction(db):
        _insert_game(db, game_id, name, table, house_rules, created_at or now())
        db["hands"].insert_all(
            _hand_row(game_id, number, hand) for number, hand in enumerate(hands, start=1)
        )
    return game_id


def load_game(
    db: sqlite_utils.Database, game_id: str, *, cache: LruCache | None = None
) -> GameRecord:
    """The game and its replayed state; NotFound for an unknown id.

    With a cache, a game already replayed at its current version is not replayed again:
    every write bumps the version, so a cached record is never stale.
    """
    rows = list(db.query("select * from games where id = ?", [game_id]))
    if not rows:
        raise NotFound(game_id)
    row = rows[0]
    if cache is None:
        return _replay_row(db, row)
    return cache.get_or_make((game_id, row["version"]), lambda: _replay_row(db, row))


def _replay_row(db: sqlite_utils.Database, row: dict[str, Any]) -> GameRecord:
    game_id = row["id"]
    sides = [
        Side(r["name"], tuple(json.loads(r["players"])))
        for r in db.query(
            "select name, players from sides where game_id = ? order by position", [game_id]
        )
    ]
    house_rules = json.loads(row["rules"] or "{}")
    table = build_table(row["profile"], row["target"], house_rules, sides, row["first_dealer"])
    hands = [
        hand_from_row(r)
        for r in db.query("select * from hands where game_id = ? order by number", [game_id])
    ]
    return GameRecord(
        id=row["id"],
        name=row["name"] or "",
        profile_key=row["profile"],
        house_rules=house_rules,
        version=row["version"],
        created_at=row["created_at"],
        updated_at=row["updated_at"],
        state=play(table, hands),
    )


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
    version: int
    sides: tuple[Side, ...]
    hands: tuple[Hand, ...]


def load_inputs(db: sqlite_utils.Database, game_id: str) -> StoredGame:
    """The stored inputs of a game; NotFound for an unknown id."""
    rows = list(db.query("select * from games where id = ?", [game_id]))
    if not rows:
        raise NotFound(game_id)
    row = rows[0]
    sides = tuple(
        Side(r["name"], tuple(json.loads(r["players"])))
        for r in db.query(
            "select name, players from sides where game_id = ? order by position", [game_id]
        )
    )
    hands = tuple(
        hand_from_row(r)
        for r in db.query("select * from hands where game_id = ? order by number", [game_id])
    )
    return StoredGame(
        id=row["id"],
        name=row["name"] or "",
        profile_key=row["profile"],
        target=row["target"],
        house_rules=json.loads(row["rules"] or "{}"),
        first_dealer=row["first_dealer"],
        created_at=row["created_at"],
        version=row["version"],
        sides=sides,
        hands=hands,
    )


def hand_from_row(row: dict[str, Any]) -> Hand:
    return Hand(
        sides=tuple(side_from_dict(side) for side in json.loads(row["sides"])),
        went_out=row["went_out"],
        concealed=bool(row["concealed"]),
    )


def side_from_dict(data: dict[str, Any]) -> SideHand:
    """A side's stored inputs back as a SideHand (counts stay counts)."""
    meld_cards = data.get("meld_cards")
    hand_cards = data.get("hand_cards")
    return SideHand(
        meld_points=data.get("meld_points", 0),
        natural_canastas=data.get("natural_canastas", 0),
        mixed_canastas=data.get("mixed_canastas", 0),
        red_threes=data.get("red_threes", 0),
        hand_points=data.get("hand_points", 0),
        meld_cards=CardCounts(**meld_cards) if meld_cards is not None else None,
        hand_cards=CardCounts(**hand_cards) if hand_cards is not None else None,
    )


def side_to_dict(side: SideHand) -> dict[str, Any]:
    """A side's inputs as stored and as the API shows them."""
    data: dict[str, Any] = {
        "meld_points": side.meld_points,
        "natural_canastas": side.natural_canastas,
        "mixed_canastas": side.mixed_canastas,
        "red_threes": side.red_threes,
        "hand_points": side.hand_points,
    }
    if side.meld_cards is not None:
        data["meld_cards"] = asdict(side.meld_cards)
    if side.hand_cards is not None:
        data["hand_cards"] = asdict(side.hand_cards)
    return data


def _hand_row(game_id: str, number: int, hand: Hand) -> dict[str, Any]:
    return {
        "game_id": game_id,
        "number": number,
        "went_out": hand.went_out,
        "concealed": int(hand.concealed),
        "sides": json.dumps([side_to_dict(side) for side in hand.sides]),
        "created_at": now(),
    }


def _check_version(record: GameRecord, expected: int | None) -> None:
    if expected is not None and expected != record.version:
        raise StaleGame(
            None, N_("this game was changed on another device; check the scoreboard and retry")
        )


def _touch(db: sqlite_utils.Database, game_id: str) -> str:
    """Bump the game's version (every change does); returns the new updated_at stamp."""
    stamp = now()
    db.execute(
        "update games set version = version + 1, updated_at = ? where id = ?", [stamp, game_id]
    )
    return stamp


def hand_fingerprint(hand: Hand) -> str:
    """A stable digest of a hand's inputs, to tell a retry from a different request."""
    data = {
        "went_out": hand.went_out,
        "concealed": hand.concealed,
        "sides": [side_to_dict(side) for side in hand.sides],
    }
    return hashlib.sha256(json.dumps(data, sort_keys=True).encode()).hexdigest()


def _seen_key(db: sqlite_utils.Database, game_id: str, key: str, hand: Hand) -> bool:
    """True when this key already recorded this very hand; KeyReused for another hand."""
    row = db.execute(
        "select request_hash from idempotency_keys where game_id = ? and key = ?",
        [game_id, key],
    ).fetchone()
    if row is None:
        return False
    if row[0] != hand_fingerprint(hand):
        raise KeyReused("Idempotency-Key", N_("this key was already used for a different hand"))
    return True


def key_recorded(db: sqlite_utils.Database, game_id: str, key: str, hand: Hand) -> bool:
    """True when this key already recorded this very hand on this game (a retry)."""
    try:
        return _seen_key(db, game_id, key, hand)
    except KeyReused:
        return False


def record_hand(
    db: sqlite_utils.Database,
    game_id: str,
    hand: Hand,
    *,
    version: int | None = None,
    idempotency_key: str | None = None,
    cache: LruCache | None = None,
    confirmed: frozenset[str] | None = None,
) -> GameRecord:
    """Add a hand at the end of the game, in one transaction; returns the new game.

    With ``confirmed`` (the pages and the API always give it), an irregular hand (§2b) is
    refused (NeedsConfirmation) unless its kind is in it; without, it is not asked about.
    With an idempotency key, a repeat of the same request records nothing and returns the
    game as it is (a double tap, a resubmitted form, a retry after the network dropped).
    """
    with transaction(db):
        record = load_game(db, game_id, cache=cache)
        if idempotency_key is not None and _seen_key(db, game_id, idempotency_key, hand):
            return record
        if record.state.finished:
            raise GameFinished(None, N_("this game is over: it takes no further hands"))
        _check_version(record, version)
        check_hand_count(len(record.state.results) + 1)
        # Validates (and asks); raises before anything is written.
        state = add_hand(record.state, hand, confirmed=confirmed)
        db["hands"].insert(_hand_row(game_id, len(record.state.results) + 1, hand))
        if idempotency_key is not None:
            db["idempotency_keys"].insert(
                {
                    "game_id": game_id,
                    "key": idempotency_key,
                    "request_hash": hand_fingerprint(hand),
                    "created_at": now(),
                }
            )
        stamp = _touch(db, game_id)
    saved = _written(record, state, stamp)
    # The next read of this version (the scoreboard, the next hand's check) needs no replay.
    return saved if cache is None else cache.put((game_id, saved.version), saved)


def _written(record: GameRecord, state: GameState, stamp: str) -> GameRecord:
    """The game as a write just stored it: the state it validated, one version on.

    The write replayed the game to check it; replaying it again to answer would be waste.
    """
    return replace(record, state=state, version=record.version + 1, updated_at=stamp)


def _hands_of(record: GameRecord) -> list[Hand]:
    return [result.hand for result in record.state.results]


def _hand_index(record: GameRecord, number: int) -> int:
    if not 1 <= number <= len(record.state.results):
        raise NotFound(f"{record.id}/hands/{number}", N_("no hand with that number"))
    return number - 1


def replace_hand(
    db: sqlite_utils.Database,
    game_id: str,
    number: int,
    hand: Hand,
    *,
    version: int | None = None,
    confirmed: frozenset[str] | None = None,
) -> GameRecord:
    """Correct hand `number` (from 1); everything after it is recomputed.

    The corrected hand is checked as a new one (asked about if irregular, as in
    :func:`record_hand`). If it makes the game end earlier, the later hands stay, played
    after the end (§2c).
    """
    agreed = CONFIRMABLE if confirmed is None else confirmed
    with transaction(db):
        record = load_game(db, game_id)
        _hand_index(record, number)
        _check_version(record, version)
        hands = _hands_of(record)
        state = _replayed(lambda: correct(record.table, hands, number, hand, confirmed=agreed))
        db.execute(
            "update hands set went_out = ?, concealed = ?, sides = ? "
            "where game_id = ? and number = ?",
            [
                hand.went_out,
                int(hand.concealed),
                json.dumps([side_to_dict(s) for s in hand.sides]),
                game_id,
                number,
            ],
        )
        stamp = _touch(db, game_id)
    return _written(record, state, stamp)


def _replayed(change: Callable[[], GameState]) -> GameState:
    """A correction's replay; a refusal in a later stored hand says which hand it is."""
    try:
        return change()
    except RuleError as error:
        if error.hand_number is None:  # the corrected hand itself: its own field
            raise
        raise RuleError(
            "hands",
            N_("this change makes hand {number} impossible: {reason}"),
            number=error.hand_number or 0,
            reason=error.reason,
        ) from error


def delete_hand(
    db: sqlite_utils.Database, game_id: str, number: int, *, version: int | None = None
) -> GameRecord:
    """Remove hand `number`; later hands are renumbered and recomputed."""
    with transaction(db):
        record = load_game(db, game_id)
        _hand_index(record, number)
        _check_version(record, version)
        state = _replayed(lambda: remove(record.table, _hands_of(record), number))
        db.execute("delete from hands where game_id = ? and number = ?", [game_id, number])
        # Two steps keep (game_id, number) unique while the later hands move down by one.
        db.execute(
            "update hands set number = -number where game_id = ? and number > ?",
            [game_id, number],
        )
        db.execute(
            "update hands set number = -number - 1 where game_id = ? and number < 0", [game_id]
        )
        stamp = _touch(db, game_id)
    return _written(record, state, stamp)


def delete_after_end(
    db: sqlite_utils.Database, game_id: str, *, version: int | None = None
) -> GameRecord:
    """Remove, in one step, every hand played after the game's end (§2c).

    A game with none is returned as it is: a repeated request changes nothing.
    """
    with transaction(db):
        record = load_game(db, game_id)
        _check_version(record, version)
        if not record.state.after_end:
            return record
        kept = without_after_end(record.state)
        state = play(record.table, kept)
        db.execute("delete from hands where game_id = ? and number > ?", [game_id, len(kept)])
        stamp = _touch(db, game_id)
    return _written(record, state, stamp)


def undo_last_hand(
    db: sqlite_utils.Database, game_id: str, *, version: int | None = None
) -> GameRecord:
    """Remove the last hand (nothing to undo: NotFound)."""
    record = load_game(db, game_id)
    return delete_hand(db, game_id, len(record.state.results), version=version)


def delete_game(db: sqlite_utils.Database, game_id: str) -> None:
    with transaction(db):
        if not db.execute("select 1 from games where id = ?", [game_id]).fetchone():
            raise NotFound(game_id)
        db.execute("delete from hands where game_id = ?", [game_id])
        db.execute("delete from idempotency_keys where game_id = ?", [game_id])
        db.execute("delete from sides where game_id = ?", [game_id])
        db.execute("delete from games where id = ?", [game_id])


def list_games(db: sqlite_utils.Database, ids: list[str] | None = None) -> list[GameRecord]:
    """Games, latest first; only those in `ids` when given (a browser's own games)."""
    order = " order by updated_at desc, created_at desc"
    if ids is None:
        rows = list(db.query("select id, updated_at, created_at from games" + order))
    else:
        rows = []
        wanted = list(dict.fromkeys(ids))
        # In slices, so a long list stays under SQLite's limit of bound parameters.
        for start in range(0, len(wanted), 500):
            chunk = wanted[start : start + 500]
            marks = ", ".join("?" for _ in chunk)
            rows += db.query(
                f"select id, updated_at, created_at from games where id in ({marks})", chunk
            )
        rows.sort(key=lambda row: (row["updated_at"], row["created_at"]), reverse=True)
    games = []
    for row in rows:
        try:
            games.append(load_game(db, row["id"]))
        except RuleError:
            # Hands a later rules fix no longer accepts: the list still shows the others.
            log.warning("game %s no longer replays under the current rules", row["id"])
    return games
