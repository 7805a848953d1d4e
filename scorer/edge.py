"""Where the app meets the network: a proxy in front, HTTPS cookies, and the body cap.

- Behind a reverse proxy (BEHIND_PROXY config, or SCORER_BEHIND_PROXY=1 in the environment),
  Werkzeug's ProxyFix trusts ONE proxy's X-Forwarded-For and X-Forwarded-Proto: the client
  address the rate limits count, and whether the request came over HTTPS. Without the
  setting those headers are ignored, since any client could send them.
- Cookies are `Secure` whenever the request came over HTTPS (Flask's SESSION_COOKIE_SECURE is
  fixed at start-up; the scheme is known per request).
- A body over MAX_CONTENT_LENGTH gets 413 even when sent chunked. Werkzeug only enforces the
  cap on a stream when the view reads past it, so a view that reads "the body" gets its first
  64 KiB and parses them. Chunked bodies are read here, up to one byte past the cap, before
  the app sees the request.
"""

from __future__ import annotations

import io
import os
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


class ChunkedBodyCap:
    """WSGI middleware: reads a body of unknown length, refusing it past the app's cap.

    The body (at most the cap, 64 KiB by default) is handed on as an ordinary one with a
    Content-Length. Past the cap the request goes on with no body and a mark the app turns
    into its usual 413; the server (gunicorn) discards the unread rest before reading the
    next request, so a kept-alive connection stays usable.
    """

    def __init__(self, wsgi_app: Any, app: Flask) -> None:
        self.wsgi_app = wsgi_app
        self.app = app

    def __call__(self, environ: dict[str, Any], start_response: Any) -> Iterable[bytes]:
        cap = self.app.config.get("MAX_CONTENT_LENGTH")
        if cap is not None and self._unknown_length(environ):
            body = environ["wsgi.input"].read(cap + 1)
            if len(body) > cap:
                environ[TOO_LARGE] = True
                body = b""
            environ["wsgi.input"] = io.BytesIO(body)
            environ["CONTENT_LENGTH"] = str(len(body))
        return self.wsgi_app(environ, start_response)

    @staticmethod
    def _unknown_length(environ: dict[str, Any]) -> bool:
        chunked = "chunked" in environ.get("HTTP_TRANSFER_ENCODING", "").lower()
        return not environ.get("CONTENT_LENGTH") and (chunked or "wsgi.input_terminated" in environ)


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
    app.wsgi_app = ChunkedBodyCap(app.wsgi_app, app)  # type: ignore[method-assign]
    if behind_proxy(app):
        app.wsgi_app = ProxyFix(app.wsgi_app, x_for=1, x_proto=1)  # type: ignore[method-assign]
