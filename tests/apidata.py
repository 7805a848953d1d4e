"""What the API tests send and compare: hand payloads and a dump of the database."""

from __future__ import annotations

import sqlite3
from typing import Any

from flask import Flask
from flask.testing import FlaskClient
from werkzeug.test import TestResponse


def dump(app: Flask) -> list[str]:
    """Every row of every table, as SQL: equal dumps mean an unchanged database."""
    conn = sqlite3.connect(app.config["DATABASE"])
    try:
        return list(conn.iterdump())
    finally:
        conn.close()


def side(meld=0, natural=0, mixed=0, reds=0, left=0) -> dict[str, int]:
    """One side's call in the API's words."""
    return {
        "meld_points": meld,
        "natural_canastas": natural,
        "mixed_canastas": mixed,
        "red_threes": reds,
        "hand_points": left,
    }


def hand(a: dict, b: dict, went_out: int | None = None, concealed: bool = False) -> dict[str, Any]:
    """A two-side hand in the API's words."""
    return {"went_out": went_out, "concealed": concealed, "sides": [a, b]}


def if_match(client: FlaskClient, hand_url: str) -> dict[str, str]:
    """If-Match with the current ETag of the game a hand's address belongs to (none if the
    game is unknown): a correction or removal must name the version it changes."""
    read = client.get(hand_url.rsplit("/hands", 1)[0])
    return {"If-Match": read.headers["ETag"]} if read.status_code == 200 else {}


def put_hand(client: FlaskClient, url: str, **kwargs: Any) -> TestResponse:
    """PUT a correction with the game's current ETag, as a client that just read it."""
    return client.put(url, headers=if_match(client, url), **kwargs)


def delete_hand(client: FlaskClient, url: str) -> TestResponse:
    """DELETE a hand with the game's current ETag, as a client that just read it."""
    return client.delete(url, headers=if_match(client, url))
