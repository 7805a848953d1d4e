"""`make run`: the scorer for the phones at the table: nginx (with Nchan) before gunicorn.

    python -m scorer.serve            # every interface, port 5000: phones on the Wi-Fi join
    HOST=127.0.0.1 python -m scorer.serve   # this machine only
    PORT=5001 python -m scorer.serve

It listens with the README's production settings (`SETTINGS`) and prints the address to
open on a phone, with the same address as a QR code drawn in the terminal. nginx with Nchan
(scorer.front) takes the public port: it holds the screens' push channels and buffers every
answer, so a slow client never holds a worker; gunicorn listens on a Unix socket behind it.
Without nginx (or with FRONT=off) gunicorn takes the port alone, and the screens poll.
"""

from __future__ import annotations

import ctypes
import gc
import os
import shutil
import signal
import sys
from collections.abc import Mapping
from typing import Any, TextIO

from gunicorn.app.base import BaseApplication

from scorer import create_app, front
from scorer.network import ENV_LAN_ADDRESS, LOOPBACK, lan_address
from scorer.qr import qr_terminal
from scorer.web.push import ENV_PUSH_URL

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


def die_with_parent(sig: int = signal.SIGKILL) -> None:
    """Ask Linux for `sig` when this process's parent dies (nothing elsewhere)."""
    if sys.platform.startswith("linux"):
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(PR_SET_PDEATHSIG, sig)


def die_with_master(server: Any, worker: Any) -> None:
    """gunicorn's post_fork hook: a worker whose master is killed (kill -9) quits too.

    Without it an orphaned worker keeps serving, and keeps the port, until its own timeout
    (about a minute under load): a `make run` started again could not listen. SIGKILL, as
    the master itself got: even gunicorn's quick shutdown (SIGQUIT) spent seconds tearing
    the interpreter down on a busy machine. A write cut short is rolled back by SQLite, as
    it is when the master dies in the middle of one.
    """
    die_with_parent()
    # The master may have died between the fork and the line above: no signal then.
    if os.getppid() != server.pid:
        os.kill(os.getpid(), signal.SIGKILL)


def prepare_in_master(server: Any) -> None:
    """gunicorn's on_starting hook: the app made once in the master, before any worker.

    Making an app writes what a server keeps on disk the first time: the secret key in its
    instance folder, the database switched to WAL with every migration applied, the fleet's
    key stored in it. Done here, one process does it, so the workers that boot together
    afterwards only read; done by each worker, they raced each other for it, and one worker
    refused ('database is locked') made gunicorn's master stop the whole server ('Worker
    failed to boot'; issue 36). A failure here stops the server once, with its reason.
    """
    app = create_app()
    server.log.info("Prepared %s before the workers boot", app.config["DATABASE"])


def freeze_what_boot_made(worker: Any) -> None:
    """gunicorn's post_worker_init hook: what the worker holds once its app is made (the
    modules, the app, their caches, about 100 000 objects) is left out of Python's cycle
    collections from now on.

    Python walks every tracked object in a full collection, and starts one every so often
    as requests make objects: on this project's 2-core machine a full collection of a booted
    worker took 60-120 ms, and it landed in the middle of a table's hand (the bench's
    writes had stalls of 80-130 ms in their p99, one per few hundred hands, each matching a
    collection in the worker that served it). Frozen, those objects are never walked again,
    and they are never garbage either: they live as long as the worker. Objects made later
    are collected as before. (Python's documentation gives gc.freeze for servers that fork.)
    """
    gc.freeze()


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


def wants_front(env: Mapping[str, str], out: TextIO) -> bool:
    """nginx in front unless FRONT=off; said plainly when it is missing."""
    if env.get("FRONT", "").strip().lower() in ("0", "off", "no", "false"):
        return False
    if not front.available():
        out.write(front.MISSING + "\n")
        return False
    return True


def front_hooks(edge: front.Front) -> dict[str, Any]:
    """gunicorn's hooks that start nginx once gunicorn listens and stop it at the end."""
    started: list[Any] = []

    def when_ready(server: Any) -> None:
        try:
            # nginx gets SIGTERM (its fast stop) if this master is killed outright.
            started.append(front.start(edge, lambda: die_with_parent(signal.SIGTERM)))
        except RuntimeError as error:
            raise SystemExit(f"nginx could not start on {edge.listen}:\n{error}") from None

    def on_exit(server: Any) -> None:
        for process in started:
            front.stop(process)
        shutil.rmtree(edge.folder, ignore_errors=True)

    return {"when_ready": when_ready, "on_exit": on_exit}


def base_options() -> dict[str, Any]:
    """gunicorn's options for `make run` and the deploy's units, before the address."""
    return {
        **SETTINGS,
        "graceful_timeout": 5,  # Ctrl+C at the end of the evening stops it promptly
        # No runtime control socket (gunicorn 25.1+): its default path is one per user
        # (~/.gunicorn/gunicorn.ctl), which every other gunicorn would take over.
        "control_socket_disable": True,
        "on_starting": prepare_in_master,
        "post_fork": die_with_master,
        "post_worker_init": freeze_what_boot_made,
    }


def main(env: Mapping[str, str] = os.environ, out: TextIO = sys.stdout) -> None:
    host, port = listening(env)
    address = phone_address(host)
    # The workers' QR codes (a page opened on localhost) carry the address shown here.
    os.environ[ENV_LAN_ADDRESS] = address
    options = base_options()
    if wants_front(env, out):
        edge = front.Front(front.new_folder(), front.nginx_listen(host, port), front.app_rules())
        # The workers publish to nginx's private socket and trust its X-Forwarded-For.
        os.environ[ENV_PUSH_URL] = edge.push_url
        os.environ["SCORER_BEHIND_PROXY"] = "1"
        options |= {"bind": f"unix:{edge.app_socket}", **front_hooks(edge)}
    else:
        options["bind"] = bind_address(host, port)
    out.write(greeting(host, address, port))
    out.flush()
    ScorerServer(options).run()


if __name__ == "__main__":
    main()
