"""`make run`: the scorer for the phones at the table, under gunicorn.

    python -m scorer.serve            # every interface, port 5000: phones on the Wi-Fi join
    HOST=127.0.0.1 python -m scorer.serve   # this machine only
    PORT=5001 python -m scorer.serve

It listens with the README's production settings (`SETTINGS`) and prints the address to
open on a phone, with the same address as a QR code drawn in the terminal.
"""

from __future__ import annotations

import ctypes
import os
import signal
import sys
from collections.abc import Mapping
from typing import Any, TextIO

from gunicorn.app.base import BaseApplication

from scorer import create_app
from scorer.network import ENV_LAN_ADDRESS, LOOPBACK, lan_address
from scorer.qr import qr_terminal

DEFAULT_HOST = "0.0.0.0"
DEFAULT_PORT = 5000
# gunicorn's settings, here for `make run`, the README's production command and the bench.
# Single-threaded (sync) workers: a request never shares a worker's interpreter lock, so
# the replay of a long game slows nobody else's request in that worker, and the kernel
# shares the cores between workers fairly. Five keep a table's phones served while two
# long requests (a long game's sheet or correction) run. The timeout leaves room for the
# longest sheet a game allows on a busy machine before a stuck worker is replaced.
SETTINGS: dict[str, Any] = {"workers": 5, "worker_class": "sync", "timeout": 120}
WILDCARD_HOSTS = frozenset({"0.0.0.0", "::", ""})


class ScorerServer(BaseApplication):  # type: ignore[misc]  # gunicorn ships no type hints
    """gunicorn, started from Python with fixed settings instead of a command line."""

    def __init__(self, options: Mapping[str, Any]) -> None:
        self.options = dict(options)
        super().__init__()

    def load_config(self) -> None:
        for key, value in self.options.items():
            self.cfg.set(key, value)

    def load(self) -> Any:
        # Each worker builds its own app, as `gunicorn 'scorer:create_app()'` does.
        return create_app()


# prctl(2): the signal a process gets when its parent dies (Linux).
PR_SET_PDEATHSIG = 1


def die_with_master(server: Any, worker: Any) -> None:
    """gunicorn's post_fork hook: a worker whose master is killed (kill -9) quits too.

    Without it an orphaned worker keeps serving, and keeps the port, until its own timeout
    (about a minute under load): a `make run` started again could not listen. SIGKILL, as
    the master itself got: even gunicorn's quick shutdown (SIGQUIT) spent seconds tearing
    the interpreter down on a busy machine. A write cut short is rolled back by SQLite, as
    it is when the master dies in the middle of one.
    """
    if sys.platform.startswith("linux"):
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL)
    # The master may have died between the fork and the line above: no signal then.
    if os.getppid() != server.pid:
        os.kill(os.getpid(), signal.SIGKILL)


def command_line() -> list[str]:
    """`SETTINGS` as gunicorn's command-line options, without a control socket as `main`."""
    options = [f"--{key.replace('_', '-')}={value}" for key, value in SETTINGS.items()]
    return [*options, "--no-control-socket"]


def listening(env: Mapping[str, str]) -> tuple[str, int]:
    """HOST and PORT from the environment; a port that is not a number is an error."""
    host = env.get("HOST", "").strip() or DEFAULT_HOST
    port_text = env.get("PORT", "").strip() or str(DEFAULT_PORT)
    if not port_text.isdigit() or not 0 < int(port_text) < 65536:
        raise SystemExit(f"PORT must be a port number (1 to 65535), not {port_text!r}")
    return host, int(port_text)


def phone_address(host: str, found: str | None = None) -> str:
    """The address phones open: the LAN address when listening everywhere, else the host."""
    if host in WILDCARD_HOSTS:
        return found if found is not None else lan_address()
    return host


def bind_address(host: str, port: int) -> str:
    return f"[{host}]:{port}" if ":" in host else f"{host}:{port}"


def url_of(address: str, port: int) -> str:
    return f"http://{bind_address(address, port)}/"


def greeting(host: str, address: str, port: int) -> str:
    """The few plain lines printed at start, then the QR code."""
    url = url_of(address, port)
    if address == LOOPBACK or address.startswith("127.") or address == "::1":
        if host in WILDCARD_HOSTS:
            first = (
                "No network address found: phones can join once this machine is on a Wi-Fi.\n"
                f"Meanwhile, open {url} in a browser on this machine."
            )
        else:
            first = f"The scorer is private to this machine: open {url} in a browser here."
    else:
        first = f"Open {url} on a phone on the same Wi-Fi,\nor scan this code with its camera:"
    return f"Canasta scorer is starting.\n{first}\n{qr_terminal(url)}Stop it with Ctrl+C.\n"


def main(env: Mapping[str, str] = os.environ, out: TextIO = sys.stdout) -> None:
    host, port = listening(env)
    address = phone_address(host)
    # The workers' QR codes (a page opened on localhost) carry the address shown here.
    os.environ[ENV_LAN_ADDRESS] = address
    out.write(greeting(host, address, port))
    out.flush()
    ScorerServer(
        {
            "bind": bind_address(host, port),
            **SETTINGS,
            "graceful_timeout": 5,  # Ctrl+C at the end of the evening stops it promptly
            # No runtime control socket: one fixed path would clash between two servers.
            "control_socket_disable": True,
            "post_fork": die_with_master,
        }
    ).run()


if __name__ == "__main__":
    main()
