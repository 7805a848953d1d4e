"""A game's writes in SQLite: each user action is one transaction; scores are always derived.

Creating a game is importing one with no hands; loading (scorer.store.games) is replaying the
stored inputs, read from one snapshot. A write validates and replays outside
the write lock, then takes the lock only to check that the game's version is still the one
it replayed and to write its rows (else it starts again once, else StaleGame).

A write caches its own result once committed (scorer.store.cache: the next read needs no
replay), so no route has to remember to; what else must follow a game's change in the same
transaction (a club game's digest) is a hook registered with `on_game_written`. Read through
the store's face, `from scorer import store`.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import replace
from typing import Any

import sqlite_utils

from scorer.core.errors import N_, GameFinished, RuleError, ScorerError
from scorer.core.game import (
    GameState,
    Side,
    Table,
    add_hand,
    correct,
    next_name,
    play,
    remove,
    rescore,
    without_after_end,
)
from scorer.core.hands import Hand
from scorer.core.irregular import CONFIRMABLE
from scorer.core.limits import MAX_HANDS_PER_GAME, check_game, check_hand_count
from scorer.store import cache, corrections, ids, round_time
from scorer.store.corrections import restore as restore_corrections
from scorer.store.db import now, snapshot, transaction
from scorer.store.games import (
    NotFound,
    ReplayedGame,
    build_table,
    hand_row,
    load_game,
    load_inputs,
    sides_json,
    version_of,
)
from scorer.store.idempotency import (
    created_game,
    digest,
    game_of_key,
    remember_game,
    remember_hand,
    seen_hand,
)

# Called inside a game's write transaction once its version is bumped, with (db, game id,
# new version, name, created_at, the state written): what must change with the game.
GameWritten = Callable[[sqlite_utils.Database, str, int, str | None, str, GameState], None]
_ON_WRITTEN: list[GameWritten] = []


def on_game_written(hook: GameWritten) -> None:
    """Run `hook` inside every game write's transaction (once, however often registered)."""
    if hook not in _ON_WRITTEN:
        _ON_WRITTEN.append(hook)


class StaleGame(ScorerError):
    """The game changed since the client read it (another phone saved first)."""


class GameFull(ScorerError):
    """The game holds the most hands a game may hold: it takes no further hand."""


def new_game_id() -> str:
    """128 bits of randomness, URL-safe, carrying this server's shard (scorer.store.ids):
    a game's address is its only key."""
    return ids.mint()


# --- creating: importing a game, with or without hands ----------------------------------------


def create_game(db: sqlite_utils.Database, **arguments: Any) -> str:
    """Store a new game and return its id: importing a game that has no hands yet."""
    return import_game(db, **arguments)


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
    idempotency_key: str | None = None,
    fixed_hands: int | None = None,
    family_key: str | None = None,
    corrections: list[dict[str, Any]] | None = None,
) -> str:
    """Store a game under a new id, all its hands in the same transaction; returns the id.

    The hands are replayed first, against every rule of §2: a refusal names the hand
    (`hands[2].sides[0]...`) and nothing is stored. Irregular hands (§2b) are taken as the
    table confirmed them, and hands after the end are kept, counting for nothing (§2c).
    A new id keeps ids unguessable whatever the file says. With an idempotency key, a retry
    of the same request returns the game it created the first time.
    """
    check_game(name, sides)
    check_hand_count(len(hands))
    table = build_table(
        profile_key, target, house_rules, sides, first_dealer, fixed_hands, family_key
    )
    try:
        play(table, hands, strict=True)
    except RuleError as error:
        index = (error.hand_number or 1) - 1
        field = f"hands[{index}].{error.field}" if error.field else f"hands[{index}]"
        raise RuleError(field, error.template, **error.params) from error
    request = digest(
        [name, profile_key, target, sides, first_dealer, house_rules, hands]
        # Earlier keys keep their digest: what they did not name is left out.
        + ([fixed_hands] if fixed_hands is not None else [])
        + ([family_key] if family_key is not None else [])
        + ([corrections] if corrections else [])
    )
    game_id = new_game_id()
    with transaction(db):
        if idempotency_key is not None:
            first = created_game(db, idempotency_key, request)
            if first is not None:
                return first
            # (The game row comes first: the key's row points at it.)
        insert_game(db, game_id, name, table, house_rules, created_at or now())
        family = table.profile.family
        db["hands"].insert_all(
            hand_row(game_id, n, hand, family) for n, hand in enumerate(hands, 1)
        )
        # An exported record of corrections comes back with its game (scorer.store.corrections).
        restore_corrections(db, game_id, corrections or [])
        if idempotency_key is not None:
            remember_game(db, idempotency_key, request, game_id)
    return game_id


def insert_game(
    db: sqlite_utils.Database,
    game_id: str,
    name: str | None,
    table: Table,
    house_rules: dict[str, Any] | None,
    created_at: str,
) -> None:
    """The rows of a new game, its sides and its watch address (inside the caller's
    transaction). The watch id is random on its own, never derived from the game's id."""
    db["games"].insert(
        {
            "id": game_id,
            "name": name or "",
            "family": table.profile.family.key,
            "profile": table.profile.key,
            "target": table.profile.target,
            "fixed_hands": table.profile.fixed_hands,
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
    db["watch_ids"].insert({"watch_id": ids.mint(), "game_id": game_id})


def watch_id_of(db: sqlite_utils.Database, game_id: str) -> str:
    """The game's watch id (made with the game, or by m006_watch_ids for older games)."""
    row = db.execute("select watch_id from watch_ids where game_id = ?", [game_id]).fetchone()
    return str(row[0])


def play_again(db: sqlite_utils.Database, record: ReplayedGame) -> str:
    """Store the next game of a finished one and return its id: the same sides, players,
    rules and target, the deal moved on one seat (the player after the last hand's dealer
    deals first).

    A finished game is played again once: a double tap, two phones tapping together or a
    retried request all get the same next game. The finished game's id is the key of that
    creation (its `creation_keys` row), so no token is needed on the page nor on the API;
    whoever holds the game's address, which is already its write key, finds its next game.
    """
    state = record.state
    if not state.finished:
        raise RuleError("game", N_("this game is not over yet: play again once it has a winner"))
    key = again_key(record.id)
    made = game_of_key(db, key)
    if made is not None:  # played again already (the same inputs or, since, corrected ones)
        return made
    inputs = load_inputs(db, record.id)
    # Two taps at once both get here: the key is checked again under the write lock.
    return create_game(
        db,
        name=next_name(inputs.name, inputs.sides),
        profile_key=inputs.profile_key,
        target=inputs.target,
        sides=list(inputs.sides),
        first_dealer=state.dealer_next,
        house_rules=inputs.house_rules or None,
        fixed_hands=inputs.fixed_hands,
        family_key=inputs.family_key,
        idempotency_key=key,
    )


def again_key(game_id: str) -> str:
    # Never a client's key: those are stored as hex digests (scorer.web.http.creation_key).
    return f"again:{game_id}"


# --- writing: replay outside the lock, commit if nobody saved meanwhile -----------------------

# A change: given the game as read, the state it makes (checked) and how to write its rows.
Change = Callable[[ReplayedGame], tuple[GameState, Callable[[sqlite_utils.Database], None]]]


class _AlreadyDone(Exception):
    """Inside the lock: the same request was recorded meanwhile (a retry that raced)."""


def _commit(
    db: sqlite_utils.Database, game_id: str, change: Change, base: ReplayedGame | None
) -> ReplayedGame:
    """Apply a change and cache the game as written, once committed: every write's result
    is the next read's, whichever route made it."""
    return cache.keep_written(_write(db, game_id, change, base))


def _write(
    db: sqlite_utils.Database, game_id: str, change: Change, base: ReplayedGame | None
) -> ReplayedGame:
    """Apply a change, holding the write lock only for the version check and the rows.

    `base` is the game as the caller just read it (no second replay when it is current).
    Two tries run the change outside the lock; if other writes landed in between both times
    (a busy game), a last try holds the lock while it reads and replays, so it cannot lose
    again. A change pinned to a version (If-Match) still fails as stale there.
    """
    for attempt in range(2):
        record = base if attempt == 0 and base is not None and base.id == game_id else None
        record = record or load_game(db, game_id)
        state, write = change(record)  # validates and replays: no lock held
        with transaction(db):
            if version_of(db, game_id) == record.version:
                write(db)
                return _written(db, game_id, record, state)
    with transaction(db):
        record = load_game(db, game_id)
        state, write = change(record)
        write(db)
        return _written(db, game_id, record, state)


def _written(
    db: sqlite_utils.Database, game_id: str, record: ReplayedGame, state: GameState
) -> ReplayedGame:
    """Bump the version; the game as written: the state it validated, one version on."""
    stamp = now()
    db.execute(
        "update games set version = version + 1, updated_at = ? where id = ?", [stamp, game_id]
    )
    for hook in _ON_WRITTEN:  # a club game's digest, in the same transaction (scorer.clubs)
        hook(db, game_id, record.version + 1, record.name, record.created_at, state)
    return replace(record, state=state, version=record.version + 1, updated_at=stamp)


def _stale() -> StaleGame:
    return StaleGame(
        None, N_("this game was changed on another device; check the scoreboard and retry")
    )


def check_version(record: ReplayedGame, expected: int | None) -> None:
    if expected is not None and expected != record.version:
        raise _stale()


def record_hand(
    db: sqlite_utils.Database,
    game_id: str,
    hand: Hand,
    *,
    version: int | None = None,
    idempotency_key: str | None = None,
    unscoped_key: str | None = None,
    base: ReplayedGame | None = None,
    confirmed: frozenset[str] | None = None,
) -> ReplayedGame:
    """Add a hand at the end of the game; returns the new game.

    With ``confirmed`` (the pages and the API always give it), an irregular hand (§2b) is
    refused (NeedsConfirmation) unless its kind is in it; without, it is not asked about.
    With an idempotency key, a repeat of the same request records nothing and returns the
    game as it is (a double tap, a resubmitted form, a retry after the network dropped).
    The key is stored as given; `unscoped_key` (the key as the client sent it, when the
    given one is scoped to the client) also finds a row stored before keys were scoped.
    """
    key = idempotency_key
    if key is not None and _seen(db, game_id, key, hand, unscoped_key):
        return cache.keep_written(load_game(db, game_id))

    def change(record: ReplayedGame) -> tuple[GameState, Callable[[sqlite_utils.Database], None]]:
        if record.state.finished:
            raise GameFinished(None, N_("this game is over: it takes no further hands"))
        check_version(record, version)
        if record.full:
            raise GameFull(
                "hands",
                N_("this game has {max} hands, the most a game holds: start a new one"),
                max=MAX_HANDS_PER_GAME,
            )
        # Validates (and asks); raises before anything is written.
        state = add_hand(record.state, hand, confirmed=confirmed)
        number = len(record.state.results) + 1

        def write(db: sqlite_utils.Database) -> None:
            if key is not None and seen_hand(db, game_id, key, hand, unscoped_key):
                raise _AlreadyDone
            # A table of a timed round: after time, the hand under way only (inside the lock).
            round_time.check_hand_time(db, game_id)
            db["hands"].insert(hand_row(game_id, number, hand, record.table.profile.family))
            if key is not None:
                remember_hand(db, game_id, key, hand)

        return state, write

    try:
        return _commit(db, game_id, change, base)
    except _AlreadyDone:
        return cache.keep_written(load_game(db, game_id))


def _seen(
    db: sqlite_utils.Database, game_id: str, key: str, hand: Hand, unscoped: str | None
) -> bool:
    with snapshot(db):
        version_of(db, game_id)  # NotFound first
        return seen_hand(db, game_id, key, hand, unscoped)


def check_hand_number(record: ReplayedGame, number: int) -> None:
    """NotFound unless the game has a hand `number` (from 1)."""
    if not 1 <= number <= len(record.state.results):
        raise NotFound(f"{record.id}/hands/{number}", N_("no hand with that number"))


def replace_hand(
    db: sqlite_utils.Database,
    game_id: str,
    number: int,
    hand: Hand,
    *,
    version: int | None = None,
    base: ReplayedGame | None = None,
    confirmed: frozenset[str] | None = None,
    screen: str | None = None,
) -> ReplayedGame:
    """Correct hand `number` (from 1); everything after it is recomputed.

    The corrected hand is checked as a new one (asked about if irregular, as in
    :func:`record_hand`). If it makes the game end earlier, the later hands stay, played
    after the end (§2c).
    """
    agreed = CONFIRMABLE if confirmed is None else confirmed

    def change(record: ReplayedGame) -> tuple[GameState, Callable[[sqlite_utils.Database], None]]:
        check_hand_number(record, number)
        check_version(record, version)
        state = correct(record.state, number, hand, confirmed=agreed)

        def write(db: sqlite_utils.Database) -> None:
            db.execute(
                "update hands set went_out = ?, concealed = ?, sides = ? "
                "where game_id = ? and number = ?",
                [
                    hand.went_out,
                    int(hand.concealed),
                    sides_json(hand, record.table.profile.family),
                    game_id,
                    number,
                ],
            )
            # A club game keeps the record of its corrections (in the same transaction).
            before, after = record.state.results[number - 1], state.results[number - 1]
            corrections.record(db, game_id, before, after, screen, record.table.profile.family)

        return state, write

    return _commit(db, game_id, change, base)


def delete_hand(
    db: sqlite_utils.Database,
    game_id: str,
    number: int,
    *,
    version: int | None = None,
    base: ReplayedGame | None = None,
    screen: str | None = None,
) -> ReplayedGame:
    """Remove hand `number`; later hands are renumbered and recomputed."""

    def change(record: ReplayedGame) -> tuple[GameState, Callable[[sqlite_utils.Database], None]]:
        check_hand_number(record, number)
        check_version(record, version)
        removed = record.state.results[number - 1]

        def write_and_record(db: sqlite_utils.Database) -> None:
            write(db)
            corrections.record(db, game_id, removed, None, screen, record.table.profile.family)

        return remove(record.state, number), write_and_record

    def write(db: sqlite_utils.Database) -> None:
        db.execute("delete from hands where game_id = ? and number = ?", [game_id, number])
        # Two steps keep (game_id, number) unique while the later hands move down by one.
        db.execute(
            "update hands set number = -number where game_id = ? and number > ?",
            [game_id, number],
        )
        db.execute(
            "update hands set number = -number - 1 where game_id = ? and number < 0", [game_id]
        )

    return _commit(db, game_id, change, base)


def delete_after_end(
    db: sqlite_utils.Database,
    game_id: str,
    *,
    version: int | None = None,
    base: ReplayedGame | None = None,
    screen: str | None = None,
) -> ReplayedGame:
    """Remove, in one step, every hand played after the game's end (§2c).

    A game with none is returned as it is: a repeated request changes nothing.
    """
    record = base if base is not None and base.id == game_id else load_game(db, game_id)
    check_version(record, version)
    if not record.state.after_end:
        return record

    def change(record: ReplayedGame) -> tuple[GameState, Callable[[sqlite_utils.Database], None]]:
        check_version(record, version)
        kept = without_after_end(record.state)

        def write(db: sqlite_utils.Database) -> None:
            db.execute("delete from hands where game_id = ? and number > ?", [game_id, len(kept)])
            for removed in record.state.results[len(kept) :]:
                corrections.record(db, game_id, removed, None, screen, record.table.profile.family)

        return rescore(record.table, list(kept)), write

    return _commit(db, game_id, change, record)


def undo_last_hand(
    db: sqlite_utils.Database,
    game_id: str,
    *,
    version: int | None = None,
    base: ReplayedGame | None = None,
    screen: str | None = "undo",
) -> ReplayedGame:
    """Remove the last hand (nothing to undo: NotFound)."""
    record = base if base is not None and base.id == game_id else load_game(db, game_id)
    return delete_hand(
        db, game_id, len(record.state.results), version=version, base=record, screen=screen
    )


def delete_game(db: sqlite_utils.Database, game_id: str) -> None:
    """The game and everything of it, its place in a club too."""
    with transaction(db):
        version_of(db, game_id)  # NotFound
        delete_game_rows(db, game_id)


def delete_game_rows(db: sqlite_utils.Database, game_id: str) -> None:
    """Every row of a game (inside the caller's transaction): a redrawn night's table too."""
    for table in ("hands", "idempotency_keys", "creation_keys", "sides", "club_games"):
        db.execute(f"delete from {table} where game_id = ?", [game_id])  # noqa: S608
    db.execute("delete from games where id = ?", [game_id])
