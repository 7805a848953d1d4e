"""Start the app in a server process on loopback: shared by `make bench` and the tests.

Everything here listens on and talks to 127.0.0.1 only.
"""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import Any

START_TIMEOUT = 60  # seconds; generous for a slow CI machine, only reached on failure
REQUEST_TIMEOUT = 20
PROBE_PATH = "/api/games/probe"  # answers 404 as soon as the app serves
# gunicorn (25.1 and later) opens a runtime control socket unless told not to, at one path
# per user ($XDG_RUNTIME_DIR/gunicorn.ctl or ~/.gunicorn/gunicorn.ctl): each server started
# takes the path from the one before, and each one stopping deletes it, so a command sent to
# "the" socket reaches whichever started last. Nothing here uses it: every gunicorn started
# through this module goes without (Server refuses one that does not).
NO_CONTROL_SOCKET = "--no-control-socket"
# The logs of every server (and helper process) started since the list was last emptied:
# each Server notes its own, and whoever starts a process another way, or a server that
# writes a second log (nginx's error.log), notes it with `show_on_failure`. A failing test
# shows each one's end (tests/conftest.py empties the list before each test), whether a
# test started the server or a bench helper it called did.
LOGS: list[Path] = []
LOG_TAIL = 6000  # characters of each log shown


def show_on_failure(log: Path) -> None:
    """Show `log` (a server's, or a helper process's) with the test's failure, if it fails."""
    if log not in LOGS:
        LOGS.append(log)


def failure_sections() -> list[tuple[str, str]]:
    """(title, the end of the log) for each log noted since the list was emptied."""
    sections = []
    for log in LOGS:
        text = log.read_text(errors="replace")[-LOG_TAIL:] if log.exists() else "(no log)"
        sections.append((f"log {log.parent.name}/{log.name}", text))
    return sections


def process_stats() -> Iterator[tuple[int, list[str]]]:
    """Every running process as (pid, the fields of /proc/<pid>/stat after its command name):
    [0] is the state, [1] the parent pid, [2] the process group, [11] and [12] user and
    system time in clock ticks.
    The command name may hold spaces, so the fields are read after its closing ")"."""
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:  # it ended between the listing and the read
            continue
        yield int(entry.name), stat.rsplit(")", 1)[1].split()


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def gunicorn(
    options: list[str], bind: str, app: str, program: list[str] | None = None
) -> list[str]:
    """A gunicorn command line: `options`, the address, the app, and no control socket.
    `program` is how gunicorn is run (this interpreter's by default)."""
    program = [sys.executable, "-m", "gunicorn"] if program is None else program
    flags = [option for option in options if option != NO_CONTROL_SOCKET]
    return [*program, *flags, NO_CONTROL_SOCKET, "--bind", bind, app]


def runs_gunicorn(command: list[str]) -> bool:
    """Whether `command` starts gunicorn (`python -m gunicorn` or a gunicorn script)."""
    head = command[:3]
    return "gunicorn" in head or any(Path(part).name == "gunicorn" for part in head)


def listens(group: int, port: int) -> bool:
    """Whether a process of process group `group` holds the socket listening on
    127.0.0.1:`port`: the answer on that port is this server's, not another's."""
    inodes = set()
    for line in Path("/proc/net/tcp").read_text().splitlines()[1:]:
        fields = line.split()
        if fields[1] == f"0100007F:{port:04X}" and fields[3] == "0A":  # LISTEN
            inodes.add(f"socket:[{fields[9]}]")
    for pid, fields in process_stats():
        if int(fields[2]) != group:  # [2] is the process group
            continue
        with suppress(OSError):  # it ended meanwhile
            for fd in (Path("/proc") / str(pid) / "fd").iterdir():
                with suppress(OSError):
                    if os.readlink(fd) in inodes:
                        return True
    return False


class Server:
    """A server process in its own process group, with its output in a log file (noted in
    LOGS: a failing test shows it).

    Up means it answers `probe` (a path and the status it gives, by default the app's
    probe's 404) from its own listening socket; `pass_fds` are kept open in it (a socket
    held for it, as systemd's socket activation does)."""

    probe: tuple[str, int] = (PROBE_PATH, 404)

    def __init__(
        self,
        command: list[str],
        env: dict[str, str],
        port: int,
        log: Path,
        cwd: Path,
        pass_fds: tuple[int, ...] = (),
    ) -> None:
        if runs_gunicorn(command) and NO_CONTROL_SOCKET not in command:
            raise ValueError(f"gunicorn without {NO_CONTROL_SOCKET}: {command}")
        self.port = port
        self.stopped = False
        self.base = f"http://127.0.0.1:{port}"
        self.log = log
        show_on_failure(log)
        with open(log, "ab") as out:
            self.process = subprocess.Popen(
                command,
                cwd=cwd,
                env=env,
                stdout=out,
                stderr=subprocess.STDOUT,
                stdin=subprocess.DEVNULL,
                start_new_session=True,
                pass_fds=pass_fds,
            )

    def log_text(self, last: int = 4000) -> str:
        return self.log.read_text(errors="replace")[-last:]

    def status(self, path: str) -> int:
        """The status of GET `path`, 0 when nothing answers."""
        try:
            with urllib.request.urlopen(self.base + path, timeout=5) as response:
                return int(response.status)
        except urllib.error.HTTPError as error:
            return int(error.code)
        except OSError:
            return 0

    def wait_until_up(
        self, ready: Callable[[Server], bool] | None = None, timeout: float = START_TIMEOUT
    ) -> None:
        """Until it answers its probe on this server's port, from this server's own
        listening socket (a port that merely opens, or another process on it, is not this
        server up), and `ready`, when given, agrees."""
        path, answer = self.probe
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise AssertionError(f"server exited:\n{self.log_text()}")
            if (
                self.status(path) == answer
                and listens(self.process.pid, self.port)
                and (ready is None or ready(self))
            ):
                return
            time.sleep(0.1)
        raise AssertionError(f"server did not answer in time:\n{self.log_text()}")

    def signal(self, sig: int) -> None:
        """Signal the whole process group this server started (gunicorn has workers)."""
        if self.process.poll() is None:
            os.killpg(self.process.pid, sig)

    def stop(self) -> None:
        if self.stopped:
            # Its process group id may belong to another process by now, which a second
            # SIGKILL below would hit.
            return
        self.signal(signal.SIGTERM)
        try:
            self.process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            self.signal(signal.SIGKILL)
            self.process.wait(timeout=15)
        # Workers of a killed gunicorn may linger a moment: reap the group.
        with suppress(ProcessLookupError):
            os.killpg(self.process.pid, signal.SIGKILL)
        self.stopped = True


@contextmanager
def running(
    command: list[str],
    env: dict[str, str],
    port: int,
    log: Path,
    cwd: Path,
    ready: Callable[[Server], bool] | None = None,
) -> Iterator[Server]:
    """The server of `command`, once it answers (Server.wait_until_up), stopped at the end."""
    server = Server(command, env, port, log, cwd)
    try:
        server.wait_until_up(ready)
        yield server
    finally:
        server.stop()


def call(
    method: str,
    url: str,
    body: Any = None,
    headers: dict[str, str] | None = None,
    timeout: float = REQUEST_TIMEOUT,
) -> tuple[int, Any, dict[str, str]]:
    """(status, parsed JSON or text, headers); HTTP errors are answers, not exceptions."""
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(url, data=data, method=method)
    if data is not None:
        request.add_header("Content-Type", "application/json")
    for name, value in (headers or {}).items():
        request.add_header(name, value)
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:
            status, raw, got = response.status, response.read(), dict(response.headers)
    except urllib.error.HTTPError as error:
        status, raw, got = error.code, error.read(), dict(error.headers)
        error.close()
    text = raw.decode("utf-8", "replace")
    try:
        return status, json.loads(text), got
    except ValueError:
        return status, text, got
