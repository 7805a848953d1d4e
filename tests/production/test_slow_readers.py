"""Issue 35, point 1: a client reading slowly never holds a worker, through `make run`.

`make run` (python -m scorer.serve) puts nginx before gunicorn (scorer.front), buffering each
answer: more slow readers than there are workers each hold a big club's export (read at about
2 KB/s, with a small receive window), and other tables still record their hands. On gunicorn
alone, the readers held every worker until its 120 s timeout and the hands waited.
"""

from __future__ import annotations

import threading

import pytest
from serving import call

from bench import push
from scorer import front
from scorer.serve import SETTINGS

EXPORT_GAMES = 1000  # about 6 MiB of export: more than the kernel's socket buffers hold
READERS = SETTINGS["workers"] + 3
WRITE_TIMEOUT = 30  # seconds: a hand that waits for a worker held by a reader waits 120 s


def test_slow_readers_of_big_exports_leave_the_workers_to_the_hands(tmp_path):
    if not front.available():
        pytest.fail("nginx with Nchan is missing: `make test` installs libnginx-mod-nchan")
    database, club, _, tables = push.build(tmp_path, EXPORT_GAMES)
    with push.served(tmp_path, database) as server:
        stop = threading.Event()
        read: list[int] = []
        started = [threading.Event() for _ in range(READERS)]
        url = f"{server.base}/api/clubs/{club}/export"
        readers = [
            threading.Thread(target=push.slow_reader, args=(url, stop, read, one), daemon=True)
            for one in started
        ]
        try:
            for thread in readers:
                thread.start()
            # Every reader is being answered: each export was asked for and begun.
            for one in started:
                assert one.wait(120), "a reader got no answer"
            for number, game_id in enumerate(tables[:10]):
                status, body, _ = call(
                    "POST",
                    f"{server.base}/api/games/{game_id}/hands",
                    {"sides": [{"meld_points": 90}, {"meld_points": 50 + 5 * number}]},
                    timeout=WRITE_TIMEOUT,
                )
                assert status == 201, body
            assert all(thread.is_alive() for thread in readers), "a reader finished: not slow"
        finally:
            stop.set()
            for thread in readers:
                thread.join(timeout=35)
