"""Crash safety: SIGKILL the real server while hands are being recorded, then restart it.

Afterwards the database passes PRAGMA integrity_check, every hand acknowledged before the
kill is there once, and no hand is half-stored. A backup taken while the server wrote is a
whole, consistent database too.
"""

from __future__ import annotations

import random
import signal
import subprocess
import sys
import threading
import time

from serving import (
    SERVER_GONE,
    call,
    expected_score,
    flask_command,
    free_port,
    long_games,
    random_hand,
    running,
    server_env,
    show_on_failure,
)
from stored import assert_whole

from scorer import store
from scorer.store import db as dbmod

CLIENTS = 3
HANDS_BEFORE_KILL = 24  # acknowledged hands in all, then the kill comes mid-stream
MAX_HANDS_PER_CLIENT = 80  # a bound, whatever happens
PACE = 0.1  # seconds between a client's hands
WAIT_LIMIT = 90  # seconds; reached only if something is badly wrong
# `flask --app scorer backup PATH`, its app loaded first, run once told to on its input.
BACKUP_WHEN_TOLD = """
import sys
from flask.cli import main
import scorer
scorer.create_app()
print("loaded", flush=True)
sys.stdin.readline()
sys.argv = ["flask", "--app", "scorer", "backup", sys.argv[1]]
main()
"""


def test_sigkill_mid_stream_loses_nothing_acknowledged(tmp_path):
    database = tmp_path / "scorer.sqlite3"
    env = server_env(database, tmp_path / "instance")
    port = free_port()
    log = tmp_path / "server.log"
    acked: list[list[tuple[str, dict]]] = [[] for _ in range(CLIENTS)]
    in_flight: list[dict | None] = [None] * CLIENTS
    games: list[str] = []

    with running(flask_command(port), env, port, log) as server:
        games.extend(long_games(server.base, CLIENTS))

        def client(c: int) -> None:
            rng = random.Random(c)
            for i in range(MAX_HANDS_PER_CLIENT):
                body = random_hand(rng, unique_left=5 * (i + 1))
                key = f"c{c}-h{i}"
                in_flight[c] = body
                try:
                    status, _answer, _ = call(
                        "POST",
                        f"{server.base}/api/games/{games[c]}/hands",
                        body,
                        {"Idempotency-Key": key},
                        timeout=10,
                    )
                except SERVER_GONE:
                    return  # the server is gone: this hand was never acknowledged
                assert status == 201, status
                acked[c].append((key, body))
                # A table's pace, not a flood: the stream must still be flowing when the
                # backup (a whole new process) is done and the kill comes.
                time.sleep(PACE)

        backup = tmp_path / "backup.sqlite3"
        backup_log = tmp_path / "backup.log"
        show_on_failure(backup_log)
        with open(backup_log, "w") as out:
            backup_process = subprocess.Popen(
                [sys.executable, "-c", BACKUP_WHEN_TOLD, str(backup)],
                env=env,
                stdin=subprocess.PIPE,
                stdout=out,
                stderr=subprocess.STDOUT,
                text=True,
            )
        ready = time.monotonic() + WAIT_LIMIT
        while "loaded" not in backup_log.read_text() and time.monotonic() < ready:
            assert backup_process.poll() is None, backup_log.read_text()
            time.sleep(0.1)
        threads = [threading.Thread(target=client, args=(c,)) for c in range(CLIENTS)]
        for thread in threads:
            thread.start()
        deadline = time.monotonic() + WAIT_LIMIT
        while sum(map(len, acked)) < HANDS_BEFORE_KILL and time.monotonic() < deadline:
            time.sleep(0.005)
        # A backup taken by another process while hands keep arriving: `flask backup`,
        # loaded beforehand (a new interpreter loading the app takes seconds on a busy
        # machine, long enough for every client to send all its hands before the kill).
        backup_process.communicate("go\n", timeout=WAIT_LIMIT)
        assert backup_process.returncode == 0, backup_log.read_text()
        after_backup = sum(map(len, acked))
        while sum(map(len, acked)) < after_backup + CLIENTS * 4 and time.monotonic() < deadline:
            time.sleep(0.005)
        server.signal(signal.SIGKILL)
        server.process.wait(timeout=WAIT_LIMIT)
        for thread in threads:
            thread.join(timeout=WAIT_LIMIT)
        assert not any(thread.is_alive() for thread in threads)
    assert sum(map(len, acked)) >= HANDS_BEFORE_KILL + CLIENTS * 4, log.read_text()
    # The kill came mid-stream: no client had finished its hands.
    assert all(len(a) < MAX_HANDS_PER_CLIENT for a in acked)

    check_database(database)
    check_database(backup)

    # The restarted server has every acknowledged hand, once, in order, with right totals.
    port = free_port()
    with running(flask_command(port), env, port, tmp_path / "restart.log") as server:
        for c, game_id in enumerate(games):
            status, game, _ = call("GET", f"{server.base}/api/games/{game_id}")
            assert status == 200
            stored = [h for h in game["hands"]]
            sent = [body for _key, body in acked[c]]
            assert len(stored) in (len(sent), len(sent) + 1)
            if len(stored) == len(sent) + 1:
                # The hand in flight at the kill was committed, just never acknowledged.
                sent.append(in_flight[c])
            for stored_hand, body in zip(stored, sent, strict=True):
                # The confirmation is part of the request, not of the stored hand.
                sent_hand = {k: v for k, v in body.items() if k != "confirm"}
                assert strip_outputs(stored_hand) == sent_hand
            for index in (0, 1):
                total = sum(expected_score(body, index) for body in sent)
                assert game["sides"][index]["total"] == total
            # Retrying the last acknowledged hand records nothing new.
            key, body = acked[c][-1]
            status, again, _ = call(
                "POST", f"{server.base}/api/games/{game_id}/hands", body, {"Idempotency-Key": key}
            )
            assert status == 201 and len(again["hands"]) == len(stored)


def strip_outputs(stored: dict) -> dict:
    """A stored hand as the client sent it (without the scores the API adds)."""
    inputs = ("meld_points", "natural_canastas", "mixed_canastas", "red_threes", "hand_points")
    return {
        "went_out": stored["went_out"],
        "concealed": stored["concealed"],
        "sides": [{k: s[k] for k in inputs} for s in stored["sides"]],
    }


def check_database(path) -> None:
    assert_whole(path)
    db = dbmod.connect(path)
    try:
        for row in db.query("select id from games"):
            record = store.load_game(db, row["id"])
            hands = len(record.state.results)
            numbers = [
                r["number"]
                for r in db.query(
                    "select number from hands where game_id = ? order by number", [record.id]
                )
            ]
            assert numbers == list(range(1, hands + 1))
            # Each hand is one write: its row, its key and its version bump, all or nothing.
            keys = db.execute(
                "select count(*) from idempotency_keys where game_id = ?", [record.id]
            ).fetchone()[0]
            assert keys == hands
            assert record.version == 1 + hands
    finally:
        db.close()
