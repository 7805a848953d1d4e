"""Where the app meets the network: a proxy in front, HTTPS cookies, and the body cap.

- Behind a reverse proxy (BEHIND_PROXY config, or SCORER_BEHIND_PROXY=1 in the environment),
  Werkzeug's ProxyFix trusts ONE proxy's X-Forwarded-For and X-Forwarded-Proto: the client
  address the rate limits count, and whether the request came over HTTPS. Without the
  setting those headers are ignored, since any client could send them.
- Cookies are `Secure` whenever the request came over HTTPS (Flask's SESSION_COOKIE_SECURE is
  fixed at start-up; the scheme is known per request).
- A body over its cap (MAX_CONTENT_LENGTH; more for an import) gets 413 even when chunked.
  Werkzeug enforces the cap on a stream only when a view reads past it (its LimitedStream
  raises on the read AFTER the limit), so a view that read "the body" once got its first
  64 KiB and parsed them.
- It gets its 413 before the view runs, whether the view reads a body or not: a view that
  never reads one (play again, delete) would otherwise do its write whatever came with it.
  The cap is the endpoint's own (scorer.web.routes.body_cap), else MAX_CONTENT_LENGTH.
"""

from __future__ import annotations

import io
import os
import time
from collections.abc import Callable, Iterable
from typing import Any

from flask import Flask, abort, current_app, request
from flask.sessions import SecureCookieSessionInterface
from werkzeug.exceptions import ClientDisconnected
from werkzeug.middleware.proxy_fix import ProxyFix
from werkzeug.wsgi import LimitedStream

from scorer.core.limits import LARGEST_BODY
from scorer.web.routes import body_cap_of

ENV_BEHIND_PROXY = "SCORER_BEHIND_PROXY"
TOO_LARGE = "scorer.body_too_large"


class SchemeAwareSessionInterface(SecureCookieSessionInterface):
    """The session cookie is `Secure` on HTTPS requests (and always if the config says so)."""

    def get_cookie_secure(self, app: Flask) -> bool:
        return bool(app.config["SESSION_COOKIE_SECURE"]) or request.is_secure


class BodyCap:
    """WSGI middleware: a body over the cap is refused whole, however it is sent.

    A body of unknown length (chunked) is read here, up to one byte past the largest cap any
    endpoint allows (`ceiling`: an import takes more than a hand), and handed on as an
    ordinary body with a Content-Length, so Werkzeug applies each endpoint's own cap to it
    as to any other. Past the ceiling the request goes on with no body and a mark the app
    turns into its usual 413.

    After the app has answered, whatever it left unread of the body is read and dropped
    (up to DRAIN_BYTES within DRAIN_SECONDS) before the answer is sent. That keeps the
    connection usable: a server that closes a socket with unread bytes makes the kernel send
    a reset, which can destroy the 413 before the client reads it. A body past the drain
    bound is answered with `Connection: close`.
    """

    DRAIN_BYTES = 64 * 1024 * 1024
    DRAIN_SECONDS = 10.0
    BLOCK = 64 * 1024

    def __init__(self, wsgi_app: Any, ceiling: Callable[[], int | None]) -> None:
        self.wsgi_app = wsgi_app
        self.ceiling = ceiling

    def __call__(self, environ: dict[str, Any], start_response: Any) -> Iterable[bytes]:
        original = body_end(environ)
        ceiling = self.ceiling()
        if ceiling is not None and unknown_length(environ):
            body = original.read(ceiling + 1)
            if len(body) > ceiling:
                environ[TOO_LARGE] = True
                body = b""
            environ["wsgi.input"] = io.BytesIO(body)
            environ["CONTENT_LENGTH"] = str(len(body))
            # No longer chunked: Werkzeug ignores Content-Length beside Transfer-Encoding.
            environ.pop("HTTP_TRANSFER_ENCODING", None)
        answer: list[Any] = []

        def hold(status: str, headers: list[tuple[str, str]], exc_info: Any = None) -> Any:
            answer[:] = [status, headers, exc_info]
            return no_write

        body_out = self.wsgi_app(environ, hold)
        status, headers, exc_info = answer
        if not self.drain(original):
            headers = [*headers, ("Connection", "close")]
        start_response(status, headers, exc_info)
        return body_out

    def drain(self, stream: Any) -> bool:
        """Read and drop the rest of the body; False if it was longer than we will read."""
        deadline = time.monotonic() + self.DRAIN_SECONDS
        drained = 0
        while drained <= self.DRAIN_BYTES and time.monotonic() < deadline:
            try:
                block = stream.read(self.BLOCK)
            except (OSError, ClientDisconnected):
                return False
            if not block:
                return True
            drained += len(block)
        return False


def body_end(environ: dict[str, Any]) -> Any:
    """The request body as a stream that ends where the body ends, never past it.

    A server hands over the raw socket when a request has no chunked body (Werkzeug's
    development server does): reading past the declared length would wait for the next
    request. So a declared body is read through a LimitedStream, and a request with
    neither a length nor chunks has no body to read at all.
    """
    stream = environ["wsgi.input"]
    if unknown_length(environ):
        return stream  # the server ends it (chunked)
    try:
        length = max(int(environ.get("CONTENT_LENGTH") or 0), 0)
    except ValueError:
        length = 0
    limited = LimitedStream(stream, length)
    environ["wsgi.input"] = limited
    return limited


def no_write(_data: bytes) -> None:
    raise RuntimeError("the app writes its answer through the returned iterable only")


def unknown_length(environ: dict[str, Any]) -> bool:
    """A body with no Content-Length that the server says it will end (chunked)."""
    if environ.get("CONTENT_LENGTH"):
        return False
    chunked = "chunked" in environ.get("HTTP_TRANSFER_ENCODING", "").lower()
    return chunked or "wsgi.input_terminated" in environ


def body_ceiling(app: Flask) -> int | None:
    """The largest body any endpoint takes (a club import's), None if bodies are not capped.

    A chunked body is read up to it, so that each endpoint then applies its own cap to it
    as to a body sent with its length: a club import of 2 MiB is taken either way.
    """
    cap = app.config.get("MAX_CONTENT_LENGTH")
    return None if cap is None else max(cap, LARGEST_BODY)


def refuse_large_body() -> None:
    """413 for a body over its endpoint's cap, before the view (and its budget) is reached;
    the cap then holds for the view's own reading too. A chunked body has its length by now
    (BodyCap), or the mark of one past every cap."""
    cap = body_cap_of(current_app.view_functions.get(request.endpoint or ""))
    if cap is not None:
        request.max_content_length = cap
    limit = request.max_content_length
    too_large = limit is not None and (request.content_length or 0) > limit
    if too_large or request.environ.get(TOO_LARGE):
        abort(413)


def behind_proxy(app: Flask) -> bool:
    setting = app.config.get("BEHIND_PROXY")
    if setting is None:
        setting = os.environ.get(ENV_BEHIND_PROXY, "").strip().lower() in {"1", "true", "yes"}
    return bool(setting)


def init_app(app: Flask) -> None:
    app.session_interface = SchemeAwareSessionInterface()
    app.before_request(refuse_large_body)
    # Order matters: ProxyFix runs first, so every later layer sees the client's scheme.
    app.wsgi_app = BodyCap(app.wsgi_app, lambda: body_ceiling(app))  # type: ignore[method-assign]
    if behind_proxy(app):
        app.wsgi_app = ProxyFix(app.wsgi_app, x_for=1, x_proto=1)  # type: ignore[method-assign]
