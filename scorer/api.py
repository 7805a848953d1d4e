"""The JSON API: games and hands for scripts, integrations and tests."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, Response, jsonify, request

from scorer import store
from scorer.db import get_db
from scorer.errors import N_, GameFinished, RuleError
from scorer.i18n import error_text
from scorer.payloads import PayloadError, game_to_json, parse_game, parse_hand

bp = Blueprint("api", __name__, url_prefix="/api")


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


def json_body() -> Any:
    """The request's JSON; 400 unless the body is application/json and parses."""
    if not request.is_json:
        raise ApiError(400, PayloadError(None, N_("send the body as application/json")))
    data = request.get_json(silent=True)
    if data is None:
        raise ApiError(400, PayloadError(None, N_("the body is not valid JSON")))
    return data


def not_found(what: str = N_("no game at this address")) -> ApiError:
    return ApiError(404, RuleError(None, what))


def game_response(record: store.GameRecord, status: int = 200) -> Response:
    response = jsonify(game_to_json(record))
    response.status_code = status
    return response


def _load(game_id: str) -> store.GameRecord:
    try:
        return store.load_game(get_db(), game_id)
    except store.NotFound:
        raise not_found() from None


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
        raise ApiError(_status_of(error), error) from None


@bp.post("/games")
def create_game() -> Response:
    try:
        arguments = parse_game(json_body())
        game_id = store.create_game(get_db(), **arguments)
    except RuleError as error:
        raise ApiError(_status_of(error), error) from None
    response = game_response(_load(game_id), 201)
    response.headers["Location"] = f"/api/games/{game_id}"
    return response


@bp.get("/games/<game_id>")
def get_game(game_id: str) -> Response:
    return game_response(_load(game_id))


def _hand_from_body() -> Any:
    try:
        return parse_hand(json_body())
    except RuleError as error:
        raise ApiError(_status_of(error), error) from None


@bp.post("/games/<game_id>/hands")
def add_hand(game_id: str) -> Response:
    record = _load(game_id)
    if record.state.finished:
        # A won game refuses any hand, whatever else is wrong with it.
        raise ApiError(409, GameFinished(None, N_("this game is over: it takes no further hands")))
    hand = _hand_from_body()
    return game_response(_act(store.record_hand, game_id, hand), 201)


def _check_hand_number(record: store.GameRecord, number: int) -> None:
    if not 1 <= number <= len(record.state.results):
        raise not_found(N_("no hand with that number"))


@bp.put("/games/<game_id>/hands/<int:number>")
def replace_hand(game_id: str, number: int) -> Response:
    _check_hand_number(_load(game_id), number)
    hand = _hand_from_body()
    return game_response(_act(store.replace_hand, game_id, number, hand))


@bp.delete("/games/<game_id>/hands/<int:number>")
def delete_hand(game_id: str, number: int) -> Response:
    _check_hand_number(_load(game_id), number)
    return game_response(_act(store.delete_hand, game_id, number))
