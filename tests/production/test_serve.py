"""`make run`: gunicorn on HOST and PORT, with the address and its QR code printed at start.

Started on loopback only (HOST=127.0.0.1): no test listens on, or sends to, another address.
"""

from __future__ import annotations

import contextlib
import io
import json
import logging
import os
import re
import shlex
import signal
import socket
import subprocess
import sys
import time
import types
from pathlib import Path

import pytest
from serving import call, free_port, running, server_env

from bench.launcher import process_stats
from scorer import ROOT, front, serve
from scorer.serve import SETTINGS, greeting, listening, phone_address, url_of
from scorer.store import db as dbmod


def serve_command() -> list[str]:
    return [sys.executable, "-m", "scorer.serve"]


def test_make_run_starts_the_launcher():
    dry_run = subprocess.run(
        ["make", "-n", "run"], cwd=ROOT, capture_output=True, text=True, timeout=60, check=True
    )
    (line,) = [x for x in dry_run.stdout.splitlines() if "scorer.serve" in x]
    assert shlex.split(line)[-2:] == ["-m", "scorer.serve"]


def test_the_launcher_serves_on_loopback_and_prints_the_address_and_its_qr(tmp_path):
    env = server_env(tmp_path / "scorer.sqlite3", tmp_path / "instance")
    port = free_port()
    env.update(HOST="127.0.0.1", PORT=str(port))
    log = tmp_path / "serve.log"
    with running(serve_command(), env, port, log) as server:
        status, page, headers = call("GET", f"{server.base}/")
        assert status == 200 and "<html" in page.lower()
        assert "Content-Security-Policy" in headers
    output = log.read_text()
    assert f"http://127.0.0.1:{port}/" in output
    assert "private to this machine" in output
    assert re.search(r"^[█▀▄ ]{25,}$", output, re.MULTILINE)  # the QR code's rows
    # The README's production settings: single-threaded workers, as many as it says.
    assert len(re.findall(r"Booting worker", output)) == SETTINGS["workers"]
    assert "Using worker: sync" in output
    # No control socket at the one path per user another gunicorn would take (serve.main).
    assert "Control socket" not in output
    # The master made the database before any worker booted (serve.prepare_in_master).
    prepared = output.index(f"Prepared {env['SCORER_DATABASE']} before the workers boot")
    assert prepared < output.index("Booting worker")


def test_a_taken_port_stops_the_launcher_with_nginx_s_reason(tmp_path):
    """With its public port taken, nginx cannot start: `make run` says so and exits, rather
    than staying up with nothing reachable (nginx's socket files exist before it binds the
    port; only its pid file says every address was bound)."""
    if not front.available():
        pytest.fail("nginx with Nchan is missing: `make test` installs libnginx-mod-nchan")
    env = server_env(tmp_path / "scorer.sqlite3", tmp_path / "instance")
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        env.update(HOST="127.0.0.1", PORT=str(port))
        launched = subprocess.run(
            serve_command(), cwd=ROOT, env=env, capture_output=True, text=True, timeout=60
        )
    output = launched.stdout + launched.stderr
    assert launched.returncode != 0, output
    assert f"nginx could not start on 127.0.0.1:{port}" in output, output
    assert "Address already in use" in output, output


def test_the_master_prepares_what_the_workers_would_race_for(tmp_path, monkeypatch):
    """A fresh database in WAL with every migration, and the instance's secret key, made by
    one process before the workers start (issue 36: two workers switching it to WAL at
    once, one was refused and gunicorn stopped the server)."""
    database, instance = tmp_path / "fresh.sqlite3", tmp_path / "instance"
    monkeypatch.setenv("SCORER_DATABASE", str(database))
    monkeypatch.setenv("SCORER_INSTANCE_PATH", str(instance))
    hook = serve.base_options()["on_starting"]
    hook(types.SimpleNamespace(log=logging.getLogger("gunicorn.test")))
    conn = dbmod.connect(database)
    try:
        assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        assert dbmod.pending_migrations(conn) == []
    finally:
        conn.close()
    assert (instance / "secret_key").stat().st_mode & 0o777 == 0o600


# A booted worker, as gunicorn's post_worker_init finds it: the app made, one page served.
# Run in a process of its own: a frozen object stays for the process's life.
AFTER_BOOT = """
import gc, json, sys
from scorer import create_app, serve
app = create_app({"DATABASE": sys.argv[1], "SECRET_KEY": "test"})
assert app.test_client().get("/").status_code == 200
walked = len(gc.get_objects())
serve.base_options()["post_worker_init"](None)
print(json.dumps({"walked": walked, "frozen": gc.get_freeze_count(),
                  "walked_after": len(gc.get_objects())}))
"""


def test_a_worker_leaves_what_it_booted_with_out_of_the_cycle_collections(tmp_path):
    """A full collection walks every tracked object: a booted worker's ~100 000 took 60-120 ms
    on a 2-core machine, in the middle of a table's hand. Frozen, they are walked no more."""
    database = tmp_path / "scorer.sqlite3"
    done = subprocess.run(
        [sys.executable, "-c", AFTER_BOOT, str(database)],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=ROOT,
        check=True,
    )
    counts = json.loads(done.stdout.splitlines()[-1])
    assert counts["walked"] > 20_000  # the app's modules and caches, as booted
    assert counts["frozen"] >= counts["walked"] * 0.9
    assert counts["walked_after"] < counts["walked"] * 0.05


def test_host_and_port_default_to_every_interface_on_5000():
    assert listening({}) == ("0.0.0.0", 5000)
    assert listening({"HOST": "127.0.0.1", "PORT": "5001"}) == ("127.0.0.1", 5001)


@pytest.mark.parametrize("port", ["http", "0", "70000", "-1"])
def test_a_port_that_is_not_one_is_refused_plainly(port):
    with pytest.raises(SystemExit, match="PORT must be a port number"):
        listening({"PORT": port})


def test_listening_everywhere_shows_the_lan_address():
    assert phone_address("0.0.0.0", found="192.168.1.23") == "192.168.1.23"
    assert phone_address("127.0.0.1", found="192.168.1.23") == "127.0.0.1"
    assert url_of("::1", 5000) == "http://[::1]:5000/"


def test_greeting_for_the_table():
    text = greeting("0.0.0.0", "192.168.1.23", 5000)
    assert "Open http://192.168.1.23:5000/ on a phone on the same Wi-Fi" in text
    assert "█" in text


def test_greeting_without_a_network():
    text = greeting("0.0.0.0", "127.0.0.1", 5000)
    assert "No network address found" in text and "http://127.0.0.1:5000/" in text


def test_greeting_is_plain_text():
    out = io.StringIO()
    out.write(greeting("127.0.0.1", "127.0.0.1", 5002))
    assert "\x1b" not in out.getvalue()  # no terminal colour codes: readable in a log too


def test_killing_the_master_leaves_no_worker_on_the_port(tmp_path):
    """kill -9 of `make run`'s gunicorn master: its workers and its nginx go too, and the
    port is free."""
    env = server_env(tmp_path / "scorer.sqlite3", tmp_path / "instance")
    port = free_port()
    env.update(HOST="127.0.0.1", PORT=str(port))
    with running(serve_command(), env, port, tmp_path / "serve.log") as server:
        master = server.process.pid
        # The first worker answers while the others may still be booting on a busy machine.
        deadline = time.monotonic() + 60
        # The workers, and nginx in front of them (scorer.front) where it is installed.
        children = SETTINGS["workers"] + (1 if front.available() else 0)
        while len(workers := children_of(master)) < children:
            assert time.monotonic() < deadline, f"only {len(workers)} workers started"
            time.sleep(0.1)
        assert len(workers) == children
        os.kill(master, signal.SIGKILL)
        server.process.wait(timeout=10)
        deadline = time.monotonic() + 5
        while time.monotonic() < deadline and (alive(workers) or answers(port)):
            time.sleep(0.1)
        assert not alive(workers), "orphaned workers still running"
        assert not answers(port), "the port still answers"


def children_of(pid: int) -> list[int]:
    return [child for child, fields in process_stats() if int(fields[1]) == pid]


def alive(pids: list[int]) -> list[int]:
    """The pids still running (a zombie, dead but not yet reaped, counts as gone)."""
    running_now = []
    for pid in pids:
        with contextlib.suppress(OSError):
            state = (Path("/proc") / str(pid) / "stat").read_text().rsplit(")", 1)[1].split()[0]
            if state != "Z":
                running_now.append(pid)
    return running_now


def answers(port: int) -> bool:
    with socket.socket() as sock:
        sock.settimeout(1)
        return sock.connect_ex(("127.0.0.1", port)) == 0
