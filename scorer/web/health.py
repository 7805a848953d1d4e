"""`GET /healthz`: whether this server can serve, cheaply, for the router and a timer.

200 `{"status": "ok", ...}` when the database answers a read and has every migration this
code knows; 503 with the reason otherwise. A read of two small tables, no session, no
budget: it is a GET, and only what ENDPOINTS names in scorer.web.ratelimit spends one, so
a monitor checking every few seconds is never refused.
"""

from __future__ import annotations

import sqlite3

from flask import Blueprint, Flask, Response, current_app, jsonify

from scorer.store.db import get_db, pending_migrations

bp = Blueprint("health", __name__)
PATH = "/healthz"


@bp.get(PATH)
def healthz() -> tuple[Response, int]:
    answer: dict[str, object] = {"shard": current_app.config.get("SHARD")}
    try:
        db = get_db()
        db.execute("select 1 from games limit 1").fetchall()
        pending = pending_migrations(db)
    except sqlite3.Error as error:
        answer.update(status="failing", database=f"not answering: {error}")
        return fresh(answer), 503
    answer["database"] = "ok"
    if pending:
        answer.update(status="failing", migrations=f"pending: {', '.join(pending)}")
        return fresh(answer), 503
    answer.update(status="ok", migrations="current")
    return fresh(answer), 200


def fresh(answer: dict[str, object]) -> Response:
    response = jsonify(answer)
    response.headers["Cache-Control"] = "no-store"  # each check asks the server itself
    return response


def init_app(app: Flask) -> None:
    app.register_blueprint(bp)
