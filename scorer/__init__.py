"""scorer: a Canasta scorekeeping companion for card tables."""

from __future__ import annotations

import os
import secrets
from pathlib import Path
from typing import Any

from flask import Flask
from flask_wtf.csrf import CSRFProtect

ROOT = Path(__file__).resolve().parent.parent
csrf = CSRFProtect()


def create_app(config: dict[str, Any] | None = None) -> Flask:
    """The app factory: `config` may set DATABASE, TESTING, SECRET_KEY, WTF_CSRF_ENABLED."""
    app = Flask(
        __name__,
        instance_path=str(ROOT / "instance"),
        template_folder=str(ROOT / "templates"),
        static_folder=str(ROOT / "static"),
    )
    app.config.from_mapping(
        DATABASE=str(Path(app.instance_path) / "scorer.sqlite3"),
        MAX_CONTENT_LENGTH=64 * 1024,  # a hand is a few hundred bytes; refuse floods early
        WTF_CSRF_TIME_LIMIT=None,  # a game lasts all evening: the form must not expire
        SESSION_COOKIE_SAMESITE="Lax",
        SESSION_COOKIE_HTTPONLY=True,
        JSON_SORT_KEYS=False,
    )
    if config:
        app.config.from_mapping(config)
    if not app.config.get("SECRET_KEY"):
        app.config["SECRET_KEY"] = load_secret_key(Path(app.instance_path))

    from scorer import api, db, i18n, pages, pdf, rulebook, web

    db.init_app(app)
    csrf.init_app(app)
    i18n.init_app(app)
    web.init_app(app)
    app.register_blueprint(pages.bp)
    app.register_blueprint(api.bp)
    # The API takes only application/json bodies, which no cross-site form can send.
    csrf.exempt(api.bp)
    app.register_blueprint(pdf.bp)
    app.register_blueprint(rulebook.bp)
    return app


def load_secret_key(instance: Path) -> str:
    """The secret key kept in instance/, made on first run, readable by its owner only."""
    path = instance / "secret_key"
    instance.mkdir(parents=True, exist_ok=True)
    if not path.exists():
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "w") as handle:
            handle.write(secrets.token_hex(32))
    return path.read_text().strip()
