"""Play again from a finished game's scoreboard (a page POST with CSRF; the API's is in api.py)."""

from __future__ import annotations

from flask import flash, redirect, url_for
from flask_babel import gettext as _

from scorer import store
from scorer.games.pages.blueprint import bp
from scorer.store import get_db
from scorer.web.failures import load_game
from scorer.web.pages import Page, remember
from scorer.web.routes import budget


@bp.post("/games/<game_id>/again")
@budget("create_game")
def play_again(game_id: str) -> Page:
    """One tap: the next game is stored and opened."""
    new_id = store.play_again(get_db(), load_game(game_id))
    remember(new_id)
    dealer = load_game(new_id).state.dealer_next
    flash(_("New game with the same players: %(name)s deals first.", name=dealer))
    return redirect(url_for("games.scoreboard", game_id=new_id), code=303)
