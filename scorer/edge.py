"""Where the app meets the network: a proxy in front, HTTPS cookies, and the body cap.

- Behind a reverse proxy (BEHIND_PROXY config, or SCORER_BEHIND_PROXY=1 in the environment),
  Werkzeug's ProxyFix trusts ONE proxy's X-Forwarded-For and X-Forwarded-Proto: the client
  address the rate limits count, and whether the request came over HTTPS. Without the
  setting those headers are ignored, since any client could send them.
- Cookies are `Secure` whenever the request came over HTTPS (Flask's SESSION_COOKIE_SECURE is
  fixed at start-up; the scheme is known per request).
- A body over MAX_CONTENT_LENGTH gets 413 even when sent chunked. Werkzeug enforces the cap
  on a stream only when a view reads past it (its LimitedStream raises on the read AFTER the
  limit), so a view that reads "the body" once got its first 64 KiB and parsed them.
"""

from __future__ import annotations

import io
import os
import time
from collections.abc import Iterable
from typing import Any

from flask import Flask, abort, request
from flask.sessions import SecureCookieSessionInterface
from werkzeug.middleware.proxy_fix import ProxyFix

ENV_BEHIND_PROXY = "SCORER_BEHIND_PROXY"
TOO_LARGE = "scorer.body_too_large"


class SchemeAwareSessionInterface(SecureCookieSessionInterface):
    """The session cookie is `Secure` on HTTPS requests (and always if the config says so)."""

    def get_cookie_secure(self, app: Flask) -> bool:
        return bool(app.config["SESSION_COOKIE_SECURE"]) or request.is_secure


class BodyCap:
    """WSGI middleware: a body over MAX_CONTENT_LENGTH is refused whole, however it is sent.

    A body of unknown length (chunked) is read here up to one byte past the cap and handed
    on as an ordinary one with a Content-Length. A body over the cap, chunked or declared,
    is read to its end and thrown away (up to DRAIN_BYTES within DRAIN_SECONDS), then the
    request goes on with no body and a mark the app turns into its usual 413. Reading the
    rest is what keeps the connection usable: a server that closes a socket with unread
    bytes makes the kernel send a reset, which can destroy the 413 before the client reads
    it. A body past the drain bound is answered with `Connection: close`.
    """

    DRAIN_BYTES = 64 * 1024 * 1024
    DRAIN_SECONDS = 10.0
    BLOCK = 64 * 1024

    def __init__(self, wsgi_app: Any, app: Flask) -> None:
        self.wsgi_app = wsgi_app
        self.app = app

    def __call__(self, environ: dict[str, Any], start_response: Any) -> Iterable[bytes]:
        cap = self.app.config.get("MAX_CONTENT_LENGTH")
        if cap is None:
            return self.wsgi_app(environ, start_response)
        declared = declared_length(environ)
        too_large = declared is not None and declared > cap
        if declared is None and unknown_length(environ):
            body = environ["wsgi.input"].read(cap + 1)
            too_large = len(body) > cap
            if not too_large:
                environ["wsgi.input"] = io.BytesIO(body)
                environ["CONTENT_LENGTH"] = str(len(body))
        if not too_large:
            return self.wsgi_app(environ, start_response)
        whole = self.drain(environ["wsgi.input"])
        environ[TOO_LARGE] = True
        environ["wsgi.input"] = io.BytesIO(b"")
        environ["CONTENT_LENGTH"] = "0"
        if whole:
            return self.wsgi_app(environ, start_response)

        def closing(status: str, headers: list[tuple[str, str]], *args: Any) -> Any:
            return start_response(status, [*headers, ("Connection", "close")], *args)

        return self.wsgi_app(environ, closing)

    def drain(self, stream: Any) -> bool:
        """Read and drop the rest of the body; False if it was longer than we will read."""
        deadline = time.monotonic() + self.DRAIN_SECONDS
        drained = 0
        while drained <= self.DRAIN_BYTES and time.monotonic() < deadline:
            block = stream.read(self.BLOCK)
            if not block:
                return True
            drained += len(block)
        return False


def declared_length(environ: dict[str, Any]) -> int | None:
    try:
        return int(environ.get("CONTENT_LENGTH") or "")
    except ValueError:
        return None


def unknown_length(environ: dict[str, Any]) -> bool:
    """A body with no Content-Length that the server says it will end (chunked)."""
    if environ.get("CONTENT_LENGTH"):
        return False
    chunked = "chunked" in environ.get("HTTP_TRANSFER_ENCODING", "").lower()
    return chunked or "wsgi.input_terminated" in environ


def refuse_large_body() -> None:
    if request.environ.get(TOO_LARGE):
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
    app.wsgi_app = BodyCap(app.wsgi_app, app)  # type: ignore[method-assign]
    if behind_proxy(app):
        app.wsgi_app = ProxyFix(app.wsgi_app, x_for=1, x_proto=1)  # type: ignore[method-assign]
