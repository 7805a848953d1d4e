"""The app under gunicorn on loopback: start, seed, load it with wrk, read its memory."""

from __future__ import annotations

import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

from bench import fixtures, loadgen
from bench.wsgi import BARE_PATH
from tests import launcher

ROOT = Path(__file__).resolve().parent.parent
WORKERS = 2
SCOREBOARD_LENGTH = 30
RECORD_GAMES = 200  # posts go round-robin over these, so no game grows by more than a few


@dataclass
class Load:
    """What one bounded load run measured."""

    requests_per_second: float
    p50: float  # seconds
    p99: float
    requests: int
    errors: int  # non-2xx answers and socket errors

    @staticmethod
    def median(loads: list[Load]) -> Load:
        """The median of repeated runs, their requests and errors added up."""
        return Load(
            requests_per_second=statistics.median(x.requests_per_second for x in loads),
            p50=statistics.median(x.p50 for x in loads),
            p99=statistics.median(x.p99 for x in loads),
            requests=sum(x.requests for x in loads),
            errors=sum(x.errors for x in loads),
        )


class Server(launcher.Server):
    """gunicorn with WORKERS sync workers serving bench.wsgi:app on 127.0.0.1.

    Started by the launcher the tests use (tests/launcher.py), after seeding its database.
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
            [sys.executable, "-m", "gunicorn", "--workers", str(WORKERS)]
            + ["--bind", f"127.0.0.1:{port}", "--log-level", "warning", "bench.wsgi:create()"],
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
        children = []
        for entry in Path("/proc").iterdir():
            if not entry.name.isdigit():
                continue
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue
            # The command name may hold spaces: the parent pid is the 2nd field after ")".
            if int(stat.rsplit(")", 1)[1].split()[1]) == self.process.pid:
                children.append(int(entry.name))
        return sorted(children)

    def stop(self) -> None:
        super().stop()
        self._tmp.cleanup()

    def load(self, path: str, seconds: int, post_script: Path | None = None) -> Load:
        """A bounded load on one address (wrk when installed, else threads in Python)."""
        if shutil.which("wrk"):
            return wrk(self.base + path, seconds, post_script)
        return loadgen.run(self.base, path, seconds, self.record_games if post_script else None)

    def post_script(self) -> Path:
        """A wrk script posting the next hand of the cycle to each game in turn."""
        bodies = [json.dumps(fixtures.hand_body(SCOREBOARD_LENGTH + k)) for k in range(4)]
        script = self.folder / "record.lua"
        script.write_text(
            RECORD_LUA.replace("$IDS", ", ".join(json.dumps(g) for g in self.record_games)).replace(
                "$BODIES", ", ".join(f"[[{b}]]" for b in bodies)
            )
        )
        return script


# Each game gets the hands of the cycle in order, so its totals stay far from the target.
RECORD_LUA = """
local ids = {$IDS}
local bodies = {$BODIES}
local sent = 0
request = function()
  local game = sent % #ids
  local body = bodies[(math.floor(sent / #ids) % #bodies) + 1]
  sent = sent + 1
  return wrk.format("POST", "/api/games/" .. ids[game + 1] .. "/hands",
    {["Content-Type"] = "application/json"}, body)
end
"""

CONNECTIONS = 4


def wrk(url: str, seconds: int, script: Path | None) -> Load:
    command = ["wrk", "-t1", f"-c{CONNECTIONS}", f"-d{seconds}s", "--latency", "--timeout", "5s"]
    command += [
        arg for name, value in loadgen.BROWSER.items() for arg in ("-H", f"{name}: {value}")
    ]
    if script is not None:
        command += ["-s", str(script)]
    done = subprocess.run([*command, url], capture_output=True, text=True, timeout=seconds + 30)
    if done.returncode:
        raise RuntimeError(f"wrk failed: {done.stderr or done.stdout}")
    return parse_wrk(done.stdout)


def parse_wrk(text: str) -> Load:
    def number(pattern: str) -> float:
        found = re.search(pattern, text)
        return float(found.group(1)) if found else 0.0

    errors = int(number(r"Non-2xx or 3xx responses:\s+(\d+)"))
    socket_errors = re.search(r"Socket errors:(.*)", text)
    if socket_errors:
        errors += sum(int(n) for n in re.findall(r"\d+", socket_errors.group(1)))
    return Load(
        requests_per_second=number(r"Requests/sec:\s+([\d.]+)"),
        p50=_duration(re.search(r"\s50%\s+([\d.]+\w+)", text)),
        p99=_duration(re.search(r"\s99%\s+([\d.]+\w+)", text)),
        requests=int(number(r"(\d+) requests in")),
        errors=errors,
    )


UNITS = {"us": 1e-6, "ms": 1e-3, "s": 1.0, "m": 60.0}


def _duration(found: re.Match[str] | None) -> float:
    if not found:
        return 0.0
    value, unit = re.fullmatch(r"([\d.]+)(\w+)", found.group(1)).groups()  # type: ignore[union-attr]
    return float(value) * UNITS[unit]


def peak_rss(pid: int) -> int:
    """VmHWM: the most resident memory the process ever had, in bytes."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) * 1024
    raise RuntimeError(f"no VmHWM for pid {pid}")
