"""The app as gunicorn serves it for the benchmark: a temporary database and a bare route.

gunicorn cannot hand create_app a config dict, so `bench.wsgi:create()` builds the app from
BENCH_DATABASE and mounts /bench/bare (a fixed string) on the same app: the floor of the
same server, the same workers and the same after-request hooks.

It also mounts an experiment, /bench/cached/<game_id>: the real scoreboard view, its HTML
kept per (game, version, language) in the worker. The app caches only the replayed game
and the hands list per version; this measures what caching the whole page would add.
"""

from __future__ import annotations

import os

from flask import Flask, abort
from flask_babel import get_locale

from bench import fixtures
from scorer import create_app
from scorer.games.pages.board import scoreboard
from scorer.store.db import get_db
from scorer.web.pages import remember

BARE_PATH = "/bench/bare"
BARE_BODY = "ok"
CACHED_SCOREBOARD = "/bench/cached/{id}"

_pages: dict[tuple[str, int, str], object] = {}


def bare() -> str:
    return BARE_BODY


def cached_scoreboard(game_id: str) -> object:
    """The scoreboard from the cache while the game's version is unchanged."""
    row = get_db().execute("select version from games where id = ?", [game_id]).fetchone()
    if row is None:
        abort(404)
    key = (game_id, int(row[0]), str(get_locale()))
    if key not in _pages:
        _pages[key] = scoreboard(game_id)
    else:
        remember(game_id)  # what the view does besides rendering
    return _pages[key]


def create() -> Flask:
    app = create_app(
        {
            "DATABASE": os.environ["BENCH_DATABASE"],
            "SECRET_KEY": os.environ.get("BENCH_SECRET_KEY", "bench-secret"),
            "INSTANCE_PATH": os.path.dirname(os.environ["BENCH_DATABASE"]),
            **fixtures.CEILINGS,
        }
    )
    app.add_url_rule(BARE_PATH, "bench_bare", bare)
    app.add_url_rule(
        CACHED_SCOREBOARD.replace("{id}", "<game_id>"), "bench_cached", cached_scoreboard
    )
    return app
