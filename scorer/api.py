"""The JSON API: games and hands for scripts, integrations and tests.

Every game response carries an ETag made from the game's version; a write that sends
If-Match is refused with 412 when the game changed since (another phone saved first).
POST .../hands takes an optional Idempotency-Key: a retry of the same hand is answered
without recording it twice.
"""

from __future__ import annotations

import json
import re
from typing import Any, NoReturn

from flask import Blueprint, Response, jsonify, request

from scorer import store
from scorer.cache import app_cache
from scorer.db import get_db
from scorer.errors import N_, GameFinished, RuleError
from scorer.hands import Hand
from scorer.i18n import error_text
from scorer.payloads import (
    PayloadError,
    game_to_export,
    game_to_json,
    parse_export,
    parse_game,
    parse_hand,
)

bp = Blueprint("api", __name__, url_prefix="/api")

IDEMPOTENCY_HEADER = "Idempotency-Key"
# Visible ASCII only, and short: the key is stored with the game.
_KEY_PATTERN = re.compile(r"[\x21-\x7e]{1,200}")
# An import carries a whole game, so it may be larger than any other request.
IMPORT_MAX_BYTES = 1024 * 1024


class ApiError(Exception):
    """A refusal with its HTTP status; the body says why and names the field."""

    def __init__(self, status: int, error: RuleError) -> None:
        super().__init__(error.reason)
        self.status = status
        self.error = error


@bp.errorhandler(ApiError)
def _api_error(exc: ApiError) -> tuple[Response, int]:
    return jsonify(error=error_text(exc.error), field=exc.error.field), exc.status


def _status_of(error: RuleError) -> int:
    if isinstance(error, PayloadError):
        return 400
    if isinstance(error, GameFinished):
        return 409
    if isinstance(error, store.StaleGame):
        return 412
    return 422


def refuse(error: RuleError) -> NoReturn:
    raise ApiError(_status_of(error), error)


def json_body() -> Any:
    """The request's JSON; 400 unless the body is application/json and parses."""
    if not request.is_json:
        refuse(PayloadError(None, N_("send the body as application/json")))
    raw = request.get_data(cache=True)  # 413 past MAX_CONTENT_LENGTH
    try:
        return json.loads(raw)
    except (ValueError, RecursionError):  # RecursionError: absurdly deep nesting
        refuse(PayloadError(None, N_("the body is not valid JSON")))


def not_found(what: str = N_("no game at this address")) -> ApiError:
    return ApiError(404, RuleError(None, what))


def etag_of(record: store.GameRecord | store.StoredGame) -> str:
    return f"{record.id}.{record.version}"


def game_response(record: store.GameRecord, status: int = 200) -> Response:
    response = jsonify(game_to_json(record))
    response.status_code = status
    response.set_etag(etag_of(record))
    response.headers["Cache-Control"] = "no-cache"  # always revalidate: scores change
    return response


def _load(game_id: str) -> store.GameRecord:
    try:
        return store.load_game(get_db(), game_id, cache=app_cache("games"))
    except store.NotFound:
        raise not_found() from None
    except RuleError:
        # Stored hands that a later rules fix no longer accepts: say so instead of crashing.
        raise ApiError(
            409, RuleError(None, N_("this game's hands no longer fit the rules; export it"))
        ) from None


def _act(action: Any, *args: Any, **kwargs: Any) -> store.GameRecord:
    """Run a store action, turning domain refusals into API errors."""
    try:
        return action(get_db(), *args, **kwargs)
    except store.NotFound as exc:
        raise not_found(
            N_("no hand with that number")
            if "/hands/" in str(exc)
            else N_("no game at this address")
        ) from None
    except RuleError as error:
        refuse(error)


def expected_version(record: store.GameRecord) -> int | None:
    """The version an If-Match header expects (None without one).

    A tag that is not this game's current one (an old one, another game's, a made-up one)
    expects version 0, which no game has, so the store refuses the write as stale.
    """
    if "If-Match" not in request.headers:
        return None
    if request.if_match.star_tag or etag_of(record) in request.if_match.as_set():
        return record.version  # the store checks it again inside its transaction
    return 0


def idempotency_key() -> str | None:
    key = request.headers.get(IDEMPOTENCY_HEADER)
    if key is None:
        return None
    if not _KEY_PATTERN.fullmatch(key):
        refuse(PayloadError(IDEMPOTENCY_HEADER, N_("must be 1 to 200 visible ASCII characters")))
    return key


def _hand_from_body() -> Hand:
    try:
        return parse_hand(json_body())
    except RuleError as error:
        refuse(error)


@bp.post("/games")
def create_game() -> Response:
    try:
        arguments = parse_game(json_body())
        game_id = store.create_game(get_db(), **arguments)
    except RuleError as error:
        refuse(error)
    response = game_response(_load(game_id), 201)
    response.headers["Location"] = f"/api/games/{game_id}"
    return response


@bp.get("/games/<game_id>")
def get_game(game_id: str) -> Response:
    record = _load(game_id)
    if etag_of(record) in request.if_none_match:
        # A phone polling the scoreboard: nothing changed since its last read.
        response = Response(status=304)
        response.set_etag(etag_of(record))
        return response
    return game_response(record)


@bp.post("/games/<game_id>/hands")
def add_hand(game_id: str) -> Response:
    record = _load(game_id)
    if record.state.finished:
        # Checked first: a won game answers 409 whatever else is wrong, the key included.
        try:
            key = idempotency_key()
        except ApiError:
            key = None
        return game_response(_retry_of_last_hand(record, key), 201)
    key = idempotency_key()
    hand = _hand_from_body()
    return game_response(
        _act(
            store.record_hand,
            game_id,
            hand,
            version=expected_version(record),
            idempotency_key=key,
            cache=app_cache("games"),
        ),
        201,
    )


def _retry_of_last_hand(record: store.GameRecord, key: str | None) -> store.GameRecord:
    """A won game refuses any hand, whatever else is wrong with it, except a retry.

    The retry of the very hand that won (same key, same body) gets the first answer again.
    """
    if key is not None:
        try:
            hand: Hand | None = parse_hand(json_body())
        except (ApiError, RuleError):
            hand = None
        if hand is not None and store.key_recorded(get_db(), record.id, key, hand):
            return record
    raise ApiError(409, GameFinished(None, N_("this game is over: it takes no further hands")))


def _check_hand_number(record: store.GameRecord, number: int) -> None:
    if not 1 <= number <= len(record.state.results):
        raise not_found(N_("no hand with that number"))


@bp.put("/games/<game_id>/hands/<int:number>")
def replace_hand(game_id: str, number: int) -> Response:
    record = _load(game_id)
    _check_hand_number(record, number)
    hand = _hand_from_body()
    return game_response(
        _act(store.replace_hand, game_id, number, hand, version=expected_version(record))
    )


@bp.delete("/games/<game_id>/hands/<int:number>")
def delete_hand(game_id: str, number: int) -> Response:
    record = _load(game_id)
    _check_hand_number(record, number)
    return game_response(_act(store.delete_hand, game_id, number, version=expected_version(record)))


@bp.get("/games/<game_id>/export")
def export_game(game_id: str) -> Response:
    # From the stored inputs, without replaying them: a game that no longer replays under
    # the current rules can still be saved (and fixed, and imported back).
    try:
        game = store.load_inputs(get_db(), game_id)
    except store.NotFound:
        raise not_found() from None
    response = jsonify(game_to_export(game))
    response.set_etag(etag_of(game))
    response.headers["Content-Disposition"] = f'attachment; filename="game-{game.id}.json"'
    return response


@bp.post("/games/import")
def import_game() -> Response:
    request.max_content_length = IMPORT_MAX_BYTES
    try:
        game_id = store.import_game(get_db(), **parse_export(json_body()))
    except RuleError as error:
        refuse(error)
    response = game_response(_load(game_id), 201)
    response.headers["Location"] = f"/api/games/{game_id}"
    return response
