"""The pages people touch at the table: games, the scoreboard, hand entry, corrections.

Every write is a POST form with a CSRF token, answered by a redirect (POST/redirect/GET).
A refused form comes back with what was typed and the message at the field: 400 when the
input cannot be read, 422 when it breaks a rule, 409 when the game moved on meanwhile.
"""

from __future__ import annotations

from flask import Blueprint

bp = Blueprint("pages", __name__)

# Each module adds its routes to bp; a new idea (clubs, phones...) is one more module here.
from scorer.pages import (  # noqa: E402
    after_end,
    again,
    board,
    club_games,
    club_night,
    clubs,
    games,
    hands,
    sheets,
)
from scorer.pages.board import scoreboard  # noqa: E402
from scorer.pages.common import remember  # noqa: E402

__all__ = [
    "after_end",
    "again",
    "bp",
    "board",
    "club_games",
    "club_night",
    "clubs",
    "games",
    "hands",
    "remember",
    "scoreboard",
    "sheets",
]
