"""The app factory: config, extensions and blueprints wired into one Flask app."""

from __future__ import annotations

import contextlib
import os
from pathlib import Path
from typing import Any

from flask import Flask
from flask_compress import Compress
from flask_wtf.csrf import CSRFProtect

from scorer import checker, cli, clubs, games, nights, web
from scorer.secret import load_secret_key, read_fleet_key
from scorer.sheets import blank_sheet, game_sheet, render
from scorer.sheets import pages as sheet_pages
from scorer.store import db, fleet, ids
from scorer.web import (
    addresses,
    assets,
    display,
    failures,
    health,
    http,
    i18n,
    inbound,
    livecheck,
    pages,
    priority,
    push,
    ratelimit,
)
from scorer.web.folders import STATIC_FOLDER, TEMPLATE_FOLDER
from scorer.web.http import JSONProvider

# Each feature registers its own blueprints (its pages, its API...): init_app(app).
FEATURES = (games, clubs, checker, nights)
# Imported for their routes on the sheets' blueprint (scorer.sheets.render.bp).
SHEETS = (game_sheet, blank_sheet, sheet_pages)
__all__ = ["create_app", "load_secret_key"]
csrf = CSRFProtect()
compress = Compress()  # gzip for pages, CSS, JS and JSON: phones on a busy Wi-Fi


# Environment variables a server (gunicorn, `flask run`, a test's subprocess) may set.
ENV_DATABASE = "SCORER_DATABASE"
ENV_INSTANCE_PATH = "SCORER_INSTANCE_PATH"
# A fleet's shared secret key (scorer.deploy --key makes it): every shard signs with it.
ENV_SECRET_KEY_FILE = "SCORER_SECRET_KEY_FILE"


def create_app(config: dict[str, Any] | None = None) -> Flask:
    """The app factory.

    `config` may set DATABASE, TESTING, SECRET_KEY, WTF_CSRF_ENABLED and INSTANCE_PATH (the
    folder of the secret key and the default database); SCORER_DATABASE and
    SCORER_INSTANCE_PATH in the environment do the same for a server started from the shell.
    SECRET_KEY_FILE (or SCORER_SECRET_KEY_FILE) names the key a fleet of shards shares
    instead of the instance folder's own; the server then keeps a copy in its database.
    Without either, Flask picks the instance folder: `instance/` in a checkout (editable
    installs included), `<prefix>/var/scorer-instance` for an installed package, never
    site-packages.
    SHARD (or SCORER_SHARD=2) makes this server one shard of many behind scorer.deploy's
    proxy: every id it hands out carries the shard (scorer.store.ids); unset, a single box.
    BEHIND_PROXY (or SCORER_BEHIND_PROXY=1) trusts one reverse proxy's X-Forwarded-For and
    X-Forwarded-Proto; RATELIMIT_* are Flask-Limiter's settings and scorer.web.ratelimit's limits.
    """
    config = dict(config or {})
    instance_path = config.get("INSTANCE_PATH") or os.environ.get(ENV_INSTANCE_PATH)
    app = Flask(
        "scorer",  # the package, not this module: the instance folder stays scorer-instance
        instance_path=str(Path(instance_path).resolve()) if instance_path else None,
        template_folder=str(TEMPLATE_FOLDER),
        static_folder=str(STATIC_FOLDER),
    )
    # Block tags leave no blank lines behind: a long game's scoreboard repeats them per hand.
    app.jinja_env.trim_blocks = True
    app.jinja_env.lstrip_blocks = True
    app.config.from_mapping(
        DATABASE=os.environ.get(ENV_DATABASE) or str(Path(app.instance_path) / "scorer.sqlite3"),
        MAX_CONTENT_LENGTH=64 * 1024,  # a hand is a few hundred bytes; refuse floods early
        WTF_CSRF_TIME_LIMIT=None,  # a game lasts all evening: the form must not expire
        SESSION_COOKIE_SAMESITE="Lax",
        SESSION_COOKIE_HTTPONLY=True,
        # The cookie is sent back only when the session changed: a poll or a static file
        # answered late must never put back an older session (and lose a form's CSRF token).
        SESSION_REFRESH_EACH_REQUEST=False,
        COMPRESS_ALGORITHM=["gzip"],  # every browser takes it
        # Each route answers its own conditional requests (scorer.web.http), on the tag it gave,
        # before compression: Flask-Compress's second look would compare a suffixed one.
        COMPRESS_EVALUATE_CONDITIONAL_REQUEST=False,
    )
    app.config.from_mapping(config)
    # Read at start: a wrong shard number stops the server before it hands out any id.
    app.config["SHARD"] = ids.shard_setting(
        app.config.get("SHARD") or os.environ.get(ids.ENV_SHARD)
    )
    app.config["INSTANCE_PATH"] = app.instance_path
    key_file = app.config.get("SECRET_KEY_FILE") or os.environ.get(ENV_SECRET_KEY_FILE)
    if not app.config.get("SECRET_KEY"):
        app.config["SECRET_KEY"] = (
            read_fleet_key(Path(key_file)) if key_file else load_secret_key(Path(app.instance_path))
        )
    app.json = JSONProvider(app)

    db.init_app(app)
    if key_file:  # backed up with the data: the replica carries it (scorer.store.fleet)
        with contextlib.closing(db.connect(app.config["DATABASE"])) as conn:
            fleet.remember_key(conn, app.config["SECRET_KEY"])
    # Hooks run in reverse order of registration: compression runs after every other hook,
    # then keep_tag puts back the tag the route gave (one tag per version, any encoding).
    app.after_request(http.keep_tag)
    compress.init_app(app)
    assets.init_app(app)
    inbound.init_app(app)
    csrf.init_app(app)
    i18n.init_app(app)
    display.init_app(app)
    web.init_app(app)
    failures.init_app(app)
    cli.init_app(app)
    app.register_blueprint(pages.bp)  # the toolkit's own: the service worker, the favicon
    for feature in FEATURES:
        feature.init_app(app)  # after csrf: a JSON API's blueprint is exempted as it comes
    app.register_blueprint(render.bp)
    addresses.init_app(app)
    health.init_app(app)  # GET /healthz: no budget (scorer.web.ratelimit names writes)
    ratelimit.init_app(app)  # after the blueprints: it wraps their views
    priority.init_app(app)  # heavy reads served by threads that give way to the hands
    push.init_app(app)  # a write tells the waiting screens (Nchan), when configured
    livecheck.init_app(app)  # outermost: a live check with nothing new skips every layer
    return app
