"""Serving for real: gunicorn as the README says, `make run` without debug, a fresh start."""

from __future__ import annotations

import os
import sqlite3
import stat
import subprocess
import sys

from serving import (
    call,
    flask_command,
    free_port,
    gunicorn_command,
    running,
    server_env,
)

from scorer import ROOT
from scorer.store import db

SECURITY = ("Content-Security-Policy", "X-Content-Type-Options", "Referrer-Policy")


def test_the_app_starts_under_gunicorn_and_serves_the_home_page(tmp_path):
    database, instance = tmp_path / "data" / "scorer.sqlite3", tmp_path / "instance"
    env = server_env(database, instance)
    port = free_port()
    with running(gunicorn_command(port), env, port, tmp_path / "gunicorn.log") as server:
        status, page, headers = call("GET", f"{server.base}/")
        assert status == 200
        assert "<html" in page.lower()
        assert all(name in headers for name in SECURITY)
        status, game, headers = call(
            "POST",
            f"{server.base}/api/games",
            {"sides": [{"players": ["Ann", "Bob"]}, {"players": ["Cy", "Di"]}]},
        )
        assert status == 201 and headers["Location"] == f"/api/games/{game['id']}"
        status, missing, _ = call("GET", f"{server.base}/api/games/unknown")
        assert status == 404 and missing["error"]
        # Owner-only, the database and what SQLite keeps beside it while it runs: a game's
        # id is its write key.
        files = [database.with_name(database.name + s) for s in ("", "-wal", "-shm")]
        assert all(file.exists() for file in files)
        assert {oct(stat.S_IMODE(file.stat().st_mode)) for file in files} == {oct(0o600)}
    # The database and a private secret key were made on first start, where they were asked.
    assert database.is_file()
    assert stat.S_IMODE((instance / "secret_key").stat().st_mode) == 0o600


def test_debug_stays_off_even_when_the_shell_asks_for_it(tmp_path):
    env = server_env(tmp_path / "scorer.sqlite3", tmp_path / "instance")
    env["FLASK_DEBUG"] = "1"  # left over in someone's shell
    port = free_port()
    log = tmp_path / "flask.log"
    with running(flask_command(port), env, port, log) as server:
        status, _page, _ = call("GET", f"{server.base}/")
        assert status == 200
    output = log.read_text()
    assert "Debug mode: off" in output
    assert "Debugger is active" not in output


def test_workers_starting_together_on_a_fresh_database_all_come_up(tmp_path):
    database = tmp_path / "fresh.sqlite3"
    script = "import sys; from scorer import db; db.prepare(sys.argv[1])"
    processes = [
        subprocess.Popen(
            [sys.executable, "-c", script, str(database)],
            cwd=ROOT,
            env={**os.environ},
            stderr=subprocess.PIPE,
            text=True,
        )
        for _ in range(4)
    ]
    errors = [p.communicate(timeout=120)[1] for p in processes]
    assert [p.returncode for p in processes] == [0] * 4, errors
    conn = sqlite3.connect(database)
    try:
        applied = conn.execute("select name from _sqlite_migrations").fetchall()
    finally:
        conn.close()
    assert sorted(applied) == sorted(set(applied)) and len(applied) >= 2


def test_rate_limit_settings_are_read_from_the_environment(tmp_path):
    """As the README documents them: a server started with them set obeys them."""
    game = {"sides": [{"players": ["Ann", "Bob"]}, {"players": ["Cy", "Di"]}]}
    one_worker = ["--workers", "1", "--worker-class", "sync", "--timeout", "120"]
    answers = {}
    for name, settings in {
        "limited": {"RATELIMIT_CREATE_GAME": "2/hour"},
        "off": {"RATELIMIT_CREATE_GAME": "1/hour", "RATELIMIT_ENABLED": "False"},
    }.items():
        env = server_env(tmp_path / name / "scorer.sqlite3", tmp_path / name)
        env.update(settings)
        port = free_port()
        log = tmp_path / f"{name}.log"
        with running(gunicorn_command(port, one_worker), env, port, log) as server:
            answers[name] = [call("POST", f"{server.base}/api/games", game)[0] for _ in range(3)]
    assert answers == {"limited": [201, 201, 429], "off": [201, 201, 201]}


def test_a_database_others_could_read_is_made_private(tmp_path):
    database = tmp_path / "old.sqlite3"
    sqlite3.connect(database).close()
    database.chmod(0o644)  # made before the rule, or by hand
    db.prepare(database)
    assert stat.S_IMODE(database.stat().st_mode) == 0o600


def test_a_forged_host_never_reaches_a_served_link(tmp_path):
    """Under gunicorn: links come from the address the request reached, not its Host."""
    env = server_env(tmp_path / "scorer.sqlite3", tmp_path / "instance")
    env["SCORER_LAN_ADDRESS"] = "192.168.77.5"  # what `make run` announces to the phones
    port = free_port()
    with running(gunicorn_command(port), env, port, tmp_path / "gunicorn.log") as server:
        game = {"sides": [{"players": ["Ann", "Bob"]}, {"players": ["Cy", "Di"]}]}
        _, created, _ = call("POST", f"{server.base}/api/games", game)
        forged = {"Host": "evil.example:80"}
        status, page, _ = call("GET", f"{server.base}/games/{created['id']}", headers=forged)
        assert status == 200
        assert "evil.example" not in page
        assert f'href="http://192.168.77.5:{port}/games/{created["id"]}"' in page
