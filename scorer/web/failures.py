"""One way to fail: load a game or refuse, and one table from error to HTTP status.

Every route (pages, API, PDF, the rules page) loads its game through :func:`load_game` and
lets refusals rise; :func:`answer` turns any of them into a page or, under /api, JSON.
A page that answers some refusals itself (the hand form keeps what was typed) says what it
does for each in one table of outcomes (`Outcomes`, read by :func:`page_outcome`), beside
the status table and read the same way: the first class an error is an instance of decides.
"""

from __future__ import annotations

import logging
import sqlite3
from collections.abc import Callable
from typing import TypeVar

from flask import Flask, Response, has_request_context, jsonify, make_response

from scorer import store
from scorer.core.errors import N_, GameFinished, RuleError, ScorerError
from scorer.core.irregular import NeedsConfirmation
from scorer.store.cache import replayed_game
from scorer.store.clubs import Ambiguous, ClubConflict, StaleClub
from scorer.store.db import get_db
from scorer.web import _page, _wants_json, unexpected_error
from scorer.web.api_contract import PayloadError, PreconditionRequired
from scorer.web.i18n import error_text
from scorer.web.pages import Page

log = logging.getLogger(__name__)


class GameUnreadable(ScorerError):
    """A stored game whose hands no longer replay under the current rules."""


class DatabaseBusy(ScorerError):
    """SQLite stayed locked by other writers past the busy timeout: try again shortly."""


# Seconds a client is asked to wait before retrying when the database is busy.
BUSY_RETRY_AFTER = 2


# The status of each refusal; the first class an error is an instance of decides.
STATUS: tuple[tuple[type[ScorerError], int], ...] = (
    (PreconditionRequired, 428),
    (PayloadError, 400),
    (store.NotFound, 404),
    (GameFinished, 409),
    (GameUnreadable, 409),
    (store.GameFull, 409),
    (store.StaleGame, 409),
    (store.KeyReused, 409),
    (ClubConflict, 409),
    (StaleClub, 409),
    (DatabaseBusy, 503),
    (RuleError, 422),
)
# The API's writes carry If-Match, so a stale one is a failed precondition; a reused key is
# a request that cannot be taken as sent (the API's documented contract).
API_STATUS: tuple[tuple[type[ScorerError], int], ...] = (
    (store.StaleGame, 412),
    (store.KeyReused, 422),
    (StaleClub, 412),
    *STATUS,
)


T = TypeVar("T")
Ctx = TypeVar("Ctx")
# What a page does on each refusal (a redirect, the form again with the message...), given
# the refusal and what the page was doing (Ctx): one table per page that catches refusals.
Outcome = Callable[[ScorerError, Ctx], Page]
Outcomes = tuple[tuple[type[ScorerError], Outcome[Ctx]], ...]


def first_match(error: ScorerError, table: tuple[tuple[type[ScorerError], T], ...]) -> T | None:
    """The entry of the first class `error` is an instance of, as an `except` list reads."""
    return next((entry for kind, entry in table if isinstance(error, kind)), None)


def status_of(error: ScorerError, *, api: bool | None = None) -> int:
    """The status of a refusal: the API's table under /api (or when api is True)."""
    if api is None:
        api = has_request_context() and _wants_json()
    status = first_match(error, API_STATUS if api else STATUS)
    return 422 if status is None else status


def refusals(outcomes: Outcomes[Ctx]) -> tuple[type[ScorerError], ...]:
    """The refusals a page's table answers (what its `except` catches)."""
    return tuple(kind for kind, _ in outcomes)


def page_outcome(error: ScorerError, outcomes: Outcomes[Ctx]) -> Outcome[Ctx]:
    """What the page does on this refusal: its table's first match (the page catches only
    the refusals of its table, so there is one)."""
    outcome = first_match(error, outcomes)
    if outcome is None:
        raise error
    return outcome


def load_game(game_id: str) -> store.ReplayedGame:
    """The game, replayed (once per version); NotFound, or GameUnreadable when it no
    longer replays under the current rules."""
    try:
        return replayed_game(get_db(), game_id)
    except RuleError as error:
        log.warning("game %s no longer replays: %s", game_id, error)
        raise GameUnreadable(
            None, N_("this game's hands no longer fit the rules; export it")
        ) from error


def answer(error: ScorerError) -> Response:
    """A refusal as JSON under /api (the message and the field), else as an error page."""
    status = status_of(error)
    if _wants_json():
        body: dict[str, object] = {"error": error_text(error), "field": error.field}
        if isinstance(error, NeedsConfirmation):
            body["confirm"] = error.confirm  # send it back in "confirm" to record the hand
        if isinstance(error, Ambiguous):  # who is who, for the table to answer
            body["questions"] = [
                {"name": q.name, "candidates": list(q.candidates)} for q in error.questions
            ]
        response = jsonify(body)
    else:
        response = make_response(_page(status, None))
    response.status_code = status
    if isinstance(error, DatabaseBusy):
        response.headers["Retry-After"] = str(BUSY_RETRY_AFTER)
    return response


def busy(error: sqlite3.OperationalError) -> Response | tuple[Response | str, int]:
    """A database still locked after the busy timeout is a 503, never a 500."""
    if "locked" not in str(error) and "busy" not in str(error):
        return unexpected_error(error)
    log.warning("database busy: %s", error)
    return answer(DatabaseBusy(None, N_("the scorer is busy; try again in a moment")))


def init_app(app: Flask) -> None:
    app.register_error_handler(ScorerError, answer)
    app.register_error_handler(sqlite3.OperationalError, busy)
