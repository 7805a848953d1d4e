"""An upgrade without errors (issue 34): a shard restarted under load, its port held open
as systemd holds it (the generated scorer@N.socket), answers every request, none refused,
none a 5xx; the same restart with gunicorn binding the port itself refuses some (the
control, so the test can fail).

systemd's socket activation is played by this test: it opens and keeps the listening
socket and starts `python -m scorer.serve` with it as fd 3 and LISTEN_PID/LISTEN_FDS set,
as systemd does; gunicorn takes it instead of binding. The load is bounded (four phones
polling and recording, on loopback); the counts are printed (pytest -s shows them).
"""

from __future__ import annotations

import random
import socket
import sys
import threading
import time
from collections import Counter
from pathlib import Path

from serving import Server, call, free_port, random_hand, server_env

from scorer import ROOT
from scorer.store import ids

PHONES = 4
PACE = 0.05  # seconds between a phone's requests
# Like systemd: the socket's fd is 3 in the server, LISTEN_PID its own pid (after exec).
ACTIVATED = (
    "import os, sys; fd = int(sys.argv[1]); os.dup2(fd, 3); "
    "os.environ.update(LISTEN_PID=str(os.getpid()), LISTEN_FDS='1'); "
    "os.execv(sys.executable, [sys.executable, '-m', 'scorer.serve'])"
)
FOUR = [{"players": ["Ann", "Bob"]}, {"players": ["Cy", "Di"]}]


def start(env: dict[str, str], log: Path, held: socket.socket | None) -> Server:
    """`python -m scorer.serve` on env's PORT, its log shown if the test fails (not yet
    waited for: Server.wait_until_up); with `held`, given that socket as systemd gives it."""
    if held is None:
        command, fds = [sys.executable, "-m", "scorer.serve"], ()
    else:
        command, fds = [sys.executable, "-c", ACTIVATED, str(held.fileno())], (held.fileno(),)
    return Server(command, env, int(env["PORT"]), log, ROOT, pass_fds=fds)


def healthy(server: Server) -> bool:
    return server.status("/healthz") == 200


def restart_under_load(tmp_path: Path, held: bool) -> Counter:
    """A shard serving four phones is restarted (stop, then start, as systemctl restart);
    the answers the phones got, by status (0: no answer, the connection refused or cut)."""
    name = "held" if held else "bound"
    port = free_port()
    database = tmp_path / name / "scorer.sqlite3"
    env = server_env(database, database.parent)
    # As a shard's settings say (scorer.deploy.shard_env): the router is its front, so no
    # nginx of its own, which would bind the held port and fail.
    env.update({"HOST": "127.0.0.1", "PORT": str(port), ids.ENV_SHARD: "1", "FRONT": "off"})
    listener = None
    if held:
        listener = socket.socket()
        listener.bind(("127.0.0.1", port))
        listener.listen(2048)
    base = f"http://127.0.0.1:{port}"
    log = tmp_path / f"{name}.log"
    server = start(env, log, listener)
    answers: Counter = Counter()
    stop_phones = threading.Event()
    try:
        server.wait_until_up(healthy)
        status, game, _ = call("POST", f"{base}/api/games", {"target": 20000, "sides": FOUR})
        assert status == 201, game

        def phone(number: int) -> None:
            rng = random.Random(number)
            i = 0
            while not stop_phones.is_set():
                i += 1
                if number == 0 and i % 4 == 0:  # the scorekeeper records now and then
                    body = random_hand(rng, unique_left=5 * (i % 160 + 1))
                    request = ("POST", f"{base}/api/games/{game['id']}/hands", body,
                               {"Idempotency-Key": f"{number}-{i}"})  # fmt: skip
                else:
                    request = ("GET", f"{base}/api/games/{game['id']}", None, None)
                try:
                    answers[call(*request, timeout=60)[0]] += 1
                except OSError:
                    answers[0] += 1
                time.sleep(PACE)

        phones = [threading.Thread(target=phone, args=(n,)) for n in range(PHONES)]
        for thread in phones:
            thread.start()
        time.sleep(2)  # serving under load
        server.stop()  # systemctl stop: SIGTERM, gunicorn's graceful stop
        server = start(env, log, listener)  # the new code: what an upgrade starts
        server.wait_until_up(healthy)
        time.sleep(2)
        stop_phones.set()
        for thread in phones:
            thread.join(timeout=120)
    finally:
        stop_phones.set()
        server.stop()
        if listener is not None:
            listener.close()
    return answers


def test_a_shard_restarted_under_load_with_its_port_held_fails_no_request(tmp_path):
    bound = restart_under_load(tmp_path, held=False)
    held = restart_under_load(tmp_path, held=True)
    print(f"\nrestart under load: port bound by gunicorn {dict(bound)}; "
          f"port held (scorer@N.socket) {dict(held)}")  # fmt: skip
    failures = {status: n for status, n in held.items() if status == 0 or status >= 500}
    assert not failures, held
    assert held[200] > 50 and held[201] > 0, held  # the phones did use it throughout
    # The control: without the held port the same restart refuses requests.
    assert bound[0] > 0, bound
