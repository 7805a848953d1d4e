"""The games' pages' own blueprint, and what those pages share: a game's title, the page
that asks "are you sure?", the version a form posted, the way back to the scoreboard."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, redirect, render_template, request, url_for
from werkzeug.wrappers import Response

from scorer import store
from scorer.web import display
from scorer.web.forms import is_index
from scorer.web.pages import Page

# Registered by scorer.games.init_app; its endpoints are "games.scoreboard", "games.new_hand"...
bp = Blueprint("games", __name__)


def game_title(record: store.ReplayedGame) -> str:
    return display.game_title(record.name, record.table.sides)


def confirm_page(
    record: store.ReplayedGame, action: str, *, number: int | None = None, **context: Any
) -> Page:
    """Are you sure? "No" leads back to the scoreboard, at hand `number`'s page if given."""
    return render_template(
        "games/confirm.html",
        game=record,
        title=game_title(record),
        action=action,
        version=record.version,
        back=board_url(record, number),
        **context,
    )


def posted_version() -> int | None:
    value = request.form.get("version", "")
    return int(value) if is_index(value) else None


def board_url(record: store.ReplayedGame, number: int | None = None) -> str:
    """The scoreboard; at the page of hands that shows hand `number`, when given and older
    than the newest page (a hand corrected from an earlier page leads back to it)."""
    page = 1 if number is None else display.page_of_hand(len(record.state.results), number)
    if page == 1:
        return url_for("games.scoreboard", game_id=record.id)
    return url_for("games.scoreboard", game_id=record.id, hands=page, _anchor=f"hand-{number}")


def back_to(record: store.ReplayedGame, number: int | None = None) -> Response:
    return redirect(board_url(record, number), code=303)
