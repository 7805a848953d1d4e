"""Club nights (issue 23): several tables at once, rounds, a fair draw, a live leaderboard.

A night belongs to a club; each table of each round is an ordinary game of the club.
The draw (scorer.core.draw) and the standings (scorer.core.leaderboard) are pure core;
this package holds its JSON (payloads, view), its API (api) and its pages (pages).
"""

from __future__ import annotations

from flask import Flask

from scorer.nights import api, pages, season_pages, seasons, tournament, tournament_pages
from scorer.web.routes import register_json_api


def init_app(app: Flask) -> None:
    """The nights' routes (their tables come with the store's migrations)."""
    register_json_api(app, api.bp)
    app.register_blueprint(pages.bp)
    register_json_api(app, seasons.bp)  # its only write takes a JSON body, as the API's
    app.register_blueprint(season_pages.bp)
    app.register_blueprint(tournament_pages.bp)
    # The night's pages ask for their tournament (match points, the clock) from a partial.
    app.jinja_env.globals["night_tournament"] = tournament.tournament_page
