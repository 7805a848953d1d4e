"""What the API tests send and compare: hand payloads and a dump of the database."""

from __future__ import annotations

import sqlite3
from typing import Any

from flask import Flask
from flask.testing import FlaskClient
from werkzeug.test import TestResponse

# Eight players of a club night (two tables of four).
EIGHT = ["Ann", "Bob", "Cy", "Di", "Eve", "Fay", "Gus", "Hal"]


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


# Four hands whose totals come back to 0-0 (as bench/fixtures.py's cycle): any number of them
# is a legal game in play, so a game of 1 000 hands can be made by one import.
CYCLE: tuple[dict[str, Any], ...] = (
    hand(side(200, natural=1, reds=1), side(reds=1, left=100), went_out=0),
    hand(side(reds=2, left=700), side(200)),
    {
        "went_out": 1,
        "concealed": False,
        "sides": [
            {"meld_cards": {"ten": 5}, "hand_cards": {"five": 4}},
            {"meld_cards": {"jokers": 1, "twenty": 2, "ten": 6, "five": 2}, "mixed_canastas": 1},
        ],
    },
    hand(side(20, left=50), side(reds=3, left=260)),
)


def long_export(count: int) -> dict[str, Any]:
    """An exported classic game of `count` hands, still in play."""
    return {
        "format": "scorer-game",
        "format_version": 1,
        "sides": [{"players": ["Ann", "Bob"]}, {"players": ["Cy", "Di"]}],
        "hands": [CYCLE[i % len(CYCLE)] for i in range(count)],
    }


# A hand that adds 10 to the first side and 5 to the second (meld 150, cards left 140 and
# 145, nobody out), regular at any total (a game to 20 000 asks 150 from 7 500): after hand
# k the running totals are 10 k and 5 k.
STEADY = hand(side(150, left=140), side(150, left=145))


def steady_export(count: int, corrections: int = 0) -> dict[str, Any]:
    """An exported classic game of `count` STEADY hands to 20 000, so still in play at the
    cap on hands (10 000 and 5 000 after 1 000 of them), and `corrections` entries of its
    record of corrections (each correcting hand 1 to itself)."""
    scored = zip(STEADY["sides"], (10, 5), strict=True)
    recorded = {**STEADY, "sides": [{**side, "score": {"total": t}} for side, t in scored]}
    entry = {"hand": 1, "kind": "correction", "before": recorded, "after": recorded}
    entry |= {"at": "2026-12-02T20:30:00+00:00", "screen": "hand_form"}
    record = {"corrections": [entry] * corrections} if corrections else {}
    return {**long_export(0), "target": 20_000, "hands": [STEADY] * count, **record}
