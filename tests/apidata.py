"""What the API tests send and compare: hand payloads and a dump of the database."""

from __future__ import annotations

import sqlite3
from typing import Any

from flask import Flask


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
