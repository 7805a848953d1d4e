"""Serving for real: gunicorn as the README says, `make run` without debug, a fresh start."""

from __future__ import annotations

import ast
import os
import re
import sqlite3
import stat
import subprocess
import sys
import time
from importlib.metadata import version
from pathlib import Path

import pytest
from packaging.version import Version
from serving import (
    THREADED,
    call,
    flask_command,
    free_port,
    gunicorn_command,
    running,
    server_env,
)

from bench import launcher
from scorer import ROOT
from scorer.serve import SETTINGS, command_line
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


# --- gunicorn's control socket: one path per user, so none for any server of ours ----------

# Every module that builds a command line: each gunicorn in it goes through bench.launcher.
COMMAND_SOURCES = ("scorer", "bench", "tests")
GUNICORN = ("gunicorn", "launcher.gunicorn")  # the builder, as modules call it


def gunicorn_commands_outside_the_builder() -> list[str]:
    """Where a source writes a command list starting with the gunicorn program (among its
    first three items: `python -m gunicorn`, `.../bin/gunicorn`) other than as an argument
    of bench.launcher.gunicorn, which adds the option. This module writes some on purpose."""
    found = []
    for folder in COMMAND_SOURCES:
        for path in sorted((ROOT / folder).rglob("*.py")):
            if path == Path(__file__):
                continue
            tree = ast.parse(path.read_text())
            built = set()  # the nodes inside the builder, or given to it
            for node in ast.walk(tree):
                builder = isinstance(node, ast.Call) and ast.unparse(node.func) in GUNICORN
                defined = isinstance(node, ast.FunctionDef) and node.name == "gunicorn"
                if builder or (defined and path.name == "launcher.py"):
                    built.update(id(inner) for inner in ast.walk(node))
            for node in ast.walk(tree):
                if isinstance(node, ast.List) and id(node) not in built:
                    heads = [ast.unparse(item) for item in node.elts[:3]]
                    if any(re.search(r"""['"]gunicorn['"]""", head) for head in heads):
                        found.append(f"{path.relative_to(ROOT)}:{node.lineno}")
    return found


def test_every_gunicorn_command_the_project_builds_goes_without_a_control_socket():
    assert gunicorn_commands_outside_the_builder() == []
    for options in (None, THREADED, ["--workers", "2", "--worker-class", "sync"]):
        assert launcher.NO_CONTROL_SOCKET in gunicorn_command(8000, options)
    assert launcher.NO_CONTROL_SOCKET in command_line()  # the bench's and the README's
    built = launcher.gunicorn(command_line(), "127.0.0.1:8000", "scorer:create_app()")
    assert built.count(launcher.NO_CONTROL_SOCKET) == 1
    # A gunicorn started any other way is refused before it starts.
    for program in ([sys.executable, "-m", "gunicorn"], ["/opt/venv/bin/gunicorn"]):
        with pytest.raises(ValueError, match="--no-control-socket"):
            launcher.Server([*program, "app:app"], {}, 8000, Path("unused.log"), ROOT)


def test_gunicorn_itself_knows_the_option():
    """The option exists from gunicorn 25.1 (pyproject.toml asks for it)."""
    assert Version(version("gunicorn")) >= Version("25.1")
    done = subprocess.run(
        [sys.executable, "-m", "gunicorn", "--help"], capture_output=True, text=True, timeout=60
    )
    assert launcher.NO_CONTROL_SOCKET in done.stdout


def test_a_served_gunicorn_opens_no_control_socket(tmp_path):
    """Nothing appears in its home (nor its runtime folder): two servers share nothing."""
    env = server_env(tmp_path / "scorer.sqlite3", tmp_path / "instance")
    env["HOME"] = str(tmp_path / "home")
    env["XDG_RUNTIME_DIR"] = str(tmp_path / "run")
    (tmp_path / "run").mkdir()
    port = free_port()
    log = tmp_path / "gunicorn.log"
    with running(gunicorn_command(port), env, port, log) as server:
        assert call("GET", f"{server.base}/")[0] == 200
        # Its control socket would open once every worker is up; give it time to show.
        deadline = time.monotonic() + 30
        while log.read_text().count("Booting worker") < SETTINGS["workers"]:
            assert time.monotonic() < deadline
            time.sleep(0.1)
        time.sleep(1)
    assert not (tmp_path / "home" / ".gunicorn").exists()
    assert not list((tmp_path / "run").iterdir())
    assert "Control socket" not in log.read_text()


def test_a_server_stopped_twice_signals_nothing_the_second_time(tmp_path, monkeypatch):
    """The shards test stops a shard, then stops it again on the way out: by then its process
    group id may be another process's, which the reaping SIGKILL would hit."""
    sleeper = [sys.executable, "-c", "import time; time.sleep(60)"]
    server = launcher.Server(sleeper, dict(os.environ), 0, tmp_path / "sleeper.log", tmp_path)
    server.stop()
    assert server.process.returncode is not None
    sent = []
    monkeypatch.setattr(os, "killpg", lambda *args: sent.append(args))
    server.stop()
    assert sent == []
