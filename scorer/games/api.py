"""The JSON API: games and hands for scripts, integrations and tests.

Every game response carries an ETag made from the game's version. Correcting or removing a
hand requires If-Match (428 without it) and is refused with 412 when the game changed since,
so a retried DELETE never removes a second hand. Adding a hand, creating a game and
importing one take an optional Idempotency-Key: a retry is answered with the first result.
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, Response, jsonify

from scorer import store
from scorer.core.errors import N_, GameFinished, ScorerError
from scorer.core.families import get_family
from scorer.core.hands import Hand
from scorer.core.limits import GAME_IMPORT_MAX_BYTES
from scorer.games import watch
from scorer.store import game_to_export, get_db
from scorer.web.api_contract import (
    PayloadError,
    PreconditionRequired,
    parse_confirm,
    parse_export,
    parse_game,
    parse_hand,
)
from scorer.web.failures import load_game
from scorer.web.http import (
    creation_key,
    game_etag,
    game_response,
    hand_key,
    is_current,
    json_body,
    not_modified,
    tagged,
    version_expected,
)
from scorer.web.routes import body_cap, budget, heavy_read

bp = Blueprint("api", __name__, url_prefix="/api")


def etag_of(record: store.ReplayedGame | store.StoredGame) -> str:
    return game_etag(record.id, record.version)


def required_version(record: store.ReplayedGame) -> int:
    """The version an If-Match header expects, which a correction or removal must send."""
    version = expected_version(record)
    if version is None:
        raise PreconditionRequired(
            "If-Match",
            N_("send If-Match with the game's ETag: without it a retry could change it twice"),
        )
    # Before anything else: a retried removal finds the game changed (412), even when the
    # hand it names is no longer there.
    store.check_version(record, version)
    return version


def expected_version(record: store.ReplayedGame) -> int | None:
    """The version an If-Match header expects (None without one).

    A tag that is not this game's current one (an old one, another game's, a made-up one)
    expects version 0, which no game has, so the store refuses the write as stale.
    """
    # The store checks the version again inside its transaction.
    return version_expected(etag_of(record), record.version)


def _hand_from_body(record: store.ReplayedGame) -> tuple[Hand, Any]:
    """The hand a body sends, read by its game's hand schema, and the body (parsed once:
    what the table confirms is read from it too)."""
    body = json_body()
    return parse_hand(body, record.table.profile.family), body


def created(game_id: str) -> Response:
    """A new game (or, for a retry with the same key, the one the first request made)."""
    return game_response(load_game(game_id), 201, created=True)


@bp.post("/games")
@budget("create_game")
def create_game() -> Response:
    key = creation_key()
    return created(store.create_game(get_db(), **parse_game(json_body()), idempotency_key=key))


@bp.get("/games/<game_id>")
def get_game(game_id: str) -> Response:
    # A phone polling the scoreboard, nothing new, is answered by scorer.web.livecheck before
    # it gets here; this is the same answer for what that skips (a HEAD, a request racing a
    # write): one indexed read, no replay.
    version = watch.current_version(game_id)
    if version is not None and is_current(game_etag(game_id, version)):
        return not_modified(game_etag(game_id, version))
    return game_response(load_game(game_id))


@bp.post("/games/<game_id>/hands")
@budget("record_hand")
def add_hand(game_id: str) -> Response:
    record = load_game(game_id)
    if record.state.finished:
        # Checked first: a won game answers 409 whatever else is wrong, the key included.
        try:
            key = hand_key()
        except PayloadError:
            key = None
        return game_response(_retry_of_last_hand(record, key), 201)
    key = hand_key()
    hand, body = _hand_from_body(record)
    return game_response(
        store.record_hand(
            get_db(),
            game_id,
            hand,
            version=expected_version(record),
            idempotency_key=None if key is None else key[0],
            unscoped_key=None if key is None else key[1],
            base=record,
            confirmed=parse_confirm(body),
        ),
        201,
    )


def _retry_of_last_hand(
    record: store.ReplayedGame, key: tuple[str, str] | None
) -> store.ReplayedGame:
    """A won game refuses any hand, whatever else is wrong with it, except a retry.

    The retry of the very hand that won (same key, same body) gets the first answer again.
    """
    if key is not None:
        try:
            hand: Hand | None = parse_hand(json_body(), record.table.profile.family)
        except ScorerError:
            hand = None
        if hand is not None and store.key_recorded(get_db(), record.id, key[0], hand, key[1]):
            return record
    raise GameFinished(None, N_("this game is over: it takes no further hands"))


@bp.put("/games/<game_id>/hands/<int:number>")
@budget("record_hand")
def replace_hand(game_id: str, number: int) -> Response:
    record = load_game(game_id)
    version = required_version(record)
    store.check_hand_number(record, number)
    hand, body = _hand_from_body(record)
    return game_response(
        store.replace_hand(
            get_db(),
            game_id,
            number,
            hand,
            version=version,
            base=record,
            confirmed=parse_confirm(body),
            screen="api",
        )
    )


@bp.delete("/games/<game_id>/hands/<int:number>")
@budget("record_hand")
def delete_hand(game_id: str, number: int) -> Response:
    record = load_game(game_id)
    version = required_version(record)
    store.check_hand_number(record, number)
    return game_response(
        store.delete_hand(get_db(), game_id, number, version=version, base=record, screen="api")
    )


@bp.delete("/games/<game_id>/hands/after-end")
@budget("record_hand")
def delete_after_end(game_id: str) -> Response:
    """One request removes every hand played after the game's end (§2c)."""
    record = load_game(game_id)
    version = expected_version(record)
    return game_response(
        store.delete_after_end(get_db(), game_id, version=version, base=record, screen="api")
    )


@bp.get("/games/<game_id>/export")
@heavy_read
def export_game(game_id: str) -> Response:
    # From the stored inputs, without replaying them: a game that no longer replays under
    # the current rules can still be saved (and fixed, and imported back).
    game = store.load_inputs(get_db(), game_id)
    record = store.corrections_json(get_db(), game_id, get_family(game.family_key))
    response = tagged(jsonify(game_to_export(game, record)), etag_of(game))
    response.headers["Content-Disposition"] = f'attachment; filename="game-{game.id}.json"'
    return response


@bp.post("/games/import")
@budget("import_kib")
@body_cap(GAME_IMPORT_MAX_BYTES)
def import_game() -> Response:
    key = creation_key()
    body = json_body()
    return created(store.import_game(get_db(), **parse_export(body), idempotency_key=key))


@bp.post("/games/<game_id>/again")
@budget("create_game")
def play_again(game_id: str) -> Response:
    """A new game with the same sides, rules and target, the deal moved on: 201 + Location."""
    new_id = store.play_again(get_db(), load_game(game_id))
    return game_response(load_game(new_id), 201, created=True)
