"""One way to fail: a game that no longer replays answers 409 with a message everywhere."""

from __future__ import annotations

import json
import sqlite3

import pytest
from apidata import hand, side
from flask import Flask
from flask.testing import FlaskClient

from scorer import store
from scorer.core.errors import GameFinished, RuleError
from scorer.web import failures
from scorer.web.api_contract import PayloadError

FOUR = [{"players": ["Ann", "Bob"]}, {"players": ["Cy", "Di"]}]


def broken_game(app: Flask, client: FlaskClient) -> str:
    """A stored game whose one hand a rules change would no longer accept (raw SQL)."""
    game = client.post("/api/games", json={"sides": FOUR}).get_json()
    scored = hand(side(meld=130, natural=1), side(meld=50, left=85), went_out=0)
    assert client.post(f"/api/games/{game['id']}/hands", json=scored).status_code == 201
    conn = sqlite3.connect(app.config["DATABASE"])
    with conn:
        sides = json.dumps([dict(side(meld=133, natural=1)), dict(side(meld=50))])
        conn.execute("update hands set sides = ? where game_id = ?", [sides, game["id"]])
        conn.execute("update games set version = version + 1 where id = ?", [game["id"]])
    conn.close()
    return game["id"]


@pytest.mark.parametrize(
    "address",
    [
        "/games/{id}",
        "/games/{id}/hands/new",
        "/games/{id}/hands/1/edit",
        "/games/{id}/undo",
        "/api/games/{id}",
        "/games/{id}/sheet.pdf",
        "/rules?game={id}",
    ],
)
def test_a_game_that_no_longer_replays_is_a_409_with_a_message(
    app: Flask, client: FlaskClient, address: str
) -> None:
    game_id = broken_game(app, client)
    response = client.get(address.format(id=game_id))
    assert response.status_code == 409
    if address.startswith("/api/"):
        assert "no longer fit the rules" in response.get_json()["error"]
    else:
        assert "no longer fit the rules" in response.get_data(as_text=True)
    # Its inputs can still be saved elsewhere.
    assert client.get(f"/api/games/{game_id}/export").status_code == 200


@pytest.mark.parametrize(
    "address", ["/games/nope", "/api/games/nope", "/games/nope/sheet.pdf", "/rules?game=nope"]
)
def test_an_unknown_game_is_a_404_everywhere(client: FlaskClient, address: str) -> None:
    assert client.get(address).status_code == 404


def test_one_table_from_error_to_status() -> None:
    assert failures.status_of(PayloadError(None, "x")) == 400
    assert failures.status_of(store.NotFound("g")) == 404
    assert failures.status_of(GameFinished(None, "x")) == 409
    assert failures.status_of(store.StaleGame(None, "x")) == 409
    assert failures.status_of(store.StaleGame(None, "x"), api=True) == 412
    assert failures.status_of(RuleError("f", "x")) == 422
    # Refusals that are not rule breaks are not rule errors.
    for error in (PayloadError(None, "x"), store.StaleGame(None, "x"), store.KeyReused(None, "x")):
        assert not isinstance(error, RuleError)


def test_a_pages_outcomes_are_one_table_read_like_the_status_table() -> None:
    """The first class an error is an instance of decides; a refusal the table does not name
    rises on to answer() (the page catches only its table's refusals)."""
    outcomes: failures.Outcomes[str] = (
        (store.StaleGame, lambda error, ctx: f"stale {ctx}"),
        (RuleError, lambda error, ctx: f"refused {ctx}"),
    )
    assert failures.refusals(outcomes) == (store.StaleGame, RuleError)
    stale, broken = store.StaleGame(None, "x"), RuleError("f", "x")
    assert failures.page_outcome(stale, outcomes)(stale, "hand 3") == "stale hand 3"
    assert failures.page_outcome(broken, outcomes)(broken, "hand 3") == "refused hand 3"
    with pytest.raises(store.KeyReused):
        failures.page_outcome(store.KeyReused(None, "x"), outcomes)
