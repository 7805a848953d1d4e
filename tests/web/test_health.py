"""GET /healthz (issue 34): the database answers and has every migration, in JSON, cheaply,
never spending a budget; 503 when a migration is missing."""

from __future__ import annotations

import sqlite3
from contextlib import closing

from scorer import create_app


def test_healthz_says_ok_and_is_never_limited(tmp_path):
    app = create_app({"DATABASE": str(tmp_path / "db.sqlite3"), "INSTANCE_PATH": str(tmp_path),
                      "RATELIMIT_CREATE_GAME": "1/hour"})  # fmt: skip
    client = app.test_client()
    for _ in range(50):  # a monitor's every few seconds, all day: never a 429
        answer = client.get("/healthz")
        assert answer.status_code == 200
    assert answer.json == {"status": "ok", "database": "ok", "migrations": "current",
                           "shard": None}  # fmt: skip
    assert "Set-Cookie" not in answer.headers  # no session made for a monitor


def test_healthz_fails_when_a_migration_is_missing(tmp_path):
    database = tmp_path / "db.sqlite3"
    app = create_app({"DATABASE": str(database), "INSTANCE_PATH": str(tmp_path)})
    with closing(sqlite3.connect(database)) as conn, conn:
        conn.execute("delete from _sqlite_migrations where name = 'm012_fleet_key'")
    answer = app.test_client().get("/healthz")
    assert answer.status_code == 503
    assert answer.json["status"] == "failing" and "m012_fleet_key" in answer.json["migrations"]
