"""A game at the table: its JSON API, its pages, CSV, the watch page, play again."""

from __future__ import annotations

from flask import Flask

from scorer.games import api, csv_routes, pages, watch
from scorer.web.routes import register_json_api


def init_app(app: Flask) -> None:
    """The games' routes: the pages ("games.*"), the API ("api.*"), CSV, the watch page."""
    app.register_blueprint(pages.bp)
    register_json_api(app, api.bp)
    app.register_blueprint(csv_routes.bp)
    watch.init_app(app)
