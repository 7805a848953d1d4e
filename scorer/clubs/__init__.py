"""Clubs: their JSON API, pages, charts, the club night sheet and the export format."""

from __future__ import annotations

from flask import Flask

from scorer import store
from scorer.clubs import api, pages
from scorer.web.routes import register_json_api


def init_app(app: Flask) -> None:
    """The clubs' routes: the pages ("clubs.*") and the API ("api_clubs.*"); and a club
    game's digest (its line on the club's page), written with every change to the game."""
    store.on_game_written(store.club_game_written)
    app.register_blueprint(pages.bp)
    register_json_api(app, api.bp)
