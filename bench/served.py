"""The app under gunicorn on loopback: start, seed, load it (bench.loadgen), read its memory."""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path

from bench import fixtures, launcher, loadgen
from bench.loadgen import Load, Request
from bench.wsgi import BARE_PATH

ROOT = Path(__file__).resolve().parent.parent
WORKERS = 2
SCOREBOARD_LENGTH = 30
RECORD_GAMES = 200  # posts go round-robin over these, so no game grows by more than a few


class Server(launcher.Server):
    """gunicorn with WORKERS sync workers serving bench.wsgi:app on 127.0.0.1.

    Started by the launcher the tests use too (bench/launcher.py), after seeding its database.
    """

    def __init__(self, folder: tempfile.TemporaryDirectory[str]) -> None:
        self._tmp = folder
        self.folder = Path(folder.name)
        self.database = self.folder / "served.sqlite3"
        db = fixtures.open_db(self.database)
        try:
            self.game = fixtures.make_game(db, SCOREBOARD_LENGTH)
            fixtures.check_game(db, self.game, SCOREBOARD_LENGTH)
            self.record_games = [
                fixtures.make_game(db, SCOREBOARD_LENGTH) for _ in range(RECORD_GAMES)
            ]
        finally:
            db.close()
        port = launcher.free_port()
        super().__init__(
            launcher.gunicorn(
                ["--workers", str(WORKERS), "--log-level", "warning"],
                f"127.0.0.1:{port}",
                "bench.wsgi:create()",
            ),
            env={**os.environ, "BENCH_DATABASE": str(self.database)},
            port=port,
            log=self.folder / "gunicorn.log",
            cwd=ROOT,
        )

    @classmethod
    def start(cls) -> Server:
        server = cls(tempfile.TemporaryDirectory(prefix="scorer-served-"))
        try:
            server.wait_until_up(ready=Server.all_workers_serve, timeout=30)
        except BaseException:
            server.stop()
            raise
        return server

    def all_workers_serve(self) -> bool:
        return len(self.workers()) == WORKERS and self.status(BARE_PATH) == 200

    def workers(self) -> list[int]:
        """The worker processes: the children of our gunicorn master."""
        master = self.process.pid
        return sorted(pid for pid, fields in launcher.process_stats() if int(fields[1]) == master)

    def stop(self) -> None:
        super().stop()
        self._tmp.cleanup()

    def load(self, path: str, seconds: int, requests: list[Request] | None = None) -> Load:
        """A bounded load on one address, or round robin over `requests`."""
        requests = requests or [("GET", path, None, dict(loadgen.BROWSER))]
        return loadgen.closed_loop(self.base, requests, seconds, CONNECTIONS)

    def record_requests(self) -> list[Request]:
        """The next hand of the cycle posted to each game in turn, then the hand after."""
        headers = {"Content-Type": "application/json", **loadgen.BROWSER}
        bodies = [json.dumps(fixtures.hand_body(SCOREBOARD_LENGTH + k)) for k in range(4)]
        return [
            ("POST", f"/api/games/{game}/hands", body, headers)
            for body in bodies
            for game in self.record_games
        ]


CONNECTIONS = 4


def peak_rss(pid: int) -> int:
    """VmHWM: the most resident memory the process ever had, in bytes."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) * 1024
    raise RuntimeError(f"no VmHWM for pid {pid}")
