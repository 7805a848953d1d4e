"""Addresses another phone can open: absolute links (never `localhost`, never a forged
Host), and the SVG answer of their QR codes.

`addresses.init_app(app)` reads PUBLIC_URL and gives templates `phone_url`. The QR codes
themselves are the features': a game's (scorer.games.pages.board), its watch link's
(scorer.games.watch), a club's (scorer.clubs.pages.clubs).
"""

from __future__ import annotations

import contextlib
import os

from flask import Flask, Response, current_app, request

from scorer.network import public_base_url, split_host


def served_address() -> tuple[str, int]:
    """The address and port this request really reached: the server's end of its socket.

    Unlike the Host header, which any client writes as it likes, the socket cannot be
    forged. Without one (a test client), the WSGI server's name and port.
    """
    environ = request.environ
    sock = environ.get("gunicorn.socket") or environ.get("werkzeug.socket")
    if sock is not None:
        with contextlib.suppress(OSError):
            name = sock.getsockname()
            if isinstance(name, str | bytes):
                return front_address(environ)
            host, port = name[:2]
            return str(host), int(port)
    default = 443 if request.scheme == "https" else 80
    return str(environ.get("SERVER_NAME", "")), int(environ.get("SERVER_PORT") or default)


# Set by `make run`'s nginx (scorer.front) to the address and port the client reached.
FRONT_HEADER = "HTTP_X_SCORER_SERVED"


def front_address(environ: dict[str, object]) -> tuple[str, int]:
    """Behind `make run`'s nginx, on a Unix socket only it can open (its private folder):
    the address the client's socket reached, as nginx saw it (it replaces any such header
    a client sends). Without the header, loopback (a link made for this machine)."""
    found = str(environ.get(FRONT_HEADER, "")).rsplit(" ", 1)
    if len(found) == 2 and found[1].isdigit():
        return found[0], int(found[1])
    return "127.0.0.1", int(str(environ.get("SERVER_PORT") or 80))


def public_host() -> tuple[str, int]:
    """The host (with its port) that links are built on, never an arbitrary Host header.

    With TRUSTED_HOSTS set, Flask has already refused (400) any request whose Host is not
    in the list, so the Host is one of them; otherwise the address the request reached.
    """
    if current_app.config.get("TRUSTED_HOSTS"):
        _, port = split_host(request.host)
        default = 443 if request.scheme == "https" else 80
        return request.host, port if port is not None else default
    address, port = served_address()
    return (f"[{address}]:{port}" if ":" in address else f"{address}:{port}"), port


def absolute_url(path: str) -> str:
    """`path` on an address another phone can open (never `localhost`, never a forged host).

    A configured PUBLIC_URL (SCORER_PUBLIC_URL) comes first; else a trusted Host or the
    address the request reached, `localhost` turned into the machine's LAN address.
    """
    public = current_app.config.get("PUBLIC_URL")
    if public:
        return public.rstrip("/") + path
    host, port = public_host()
    return public_base_url(host, port, scheme=request.scheme) + path


def svg_response(svg: str) -> Response:
    response = Response(svg, mimetype="image/svg+xml")
    # A game's address never changes: the code may be kept, but checked again on a new LAN.
    response.headers["Cache-Control"] = "no-cache"
    return response


ENV_PUBLIC_URL = "SCORER_PUBLIC_URL"


def public_url_setting(app: Flask) -> str | None:
    """PUBLIC_URL from the config or SCORER_PUBLIC_URL: an http(s) address, or nothing."""
    value = app.config.get("PUBLIC_URL") or os.environ.get(ENV_PUBLIC_URL, "").strip() or None
    if value is not None and not value.startswith(("http://", "https://")):
        raise RuntimeError(f"PUBLIC_URL must start with http:// or https://, not {value!r}")
    return value


def init_app(app: Flask) -> None:
    """Read PUBLIC_URL and give templates `phone_url` (the app factory and a test may both ask)."""
    app.config["PUBLIC_URL"] = public_url_setting(app)
    # The scoreboard's "Add a phone": addresses another phone can open (the watch page's
    # address comes from scorer.games.watch.init_app).
    app.jinja_env.globals.update(phone_url=absolute_url)
