"""What every response gets: security headers and friendly errors (never a bare 500)."""

from __future__ import annotations

import logging
import re
import time

from flask import Flask, Response, current_app, g, jsonify, make_response, render_template, request
from flask_babel import gettext
from werkzeug.exceptions import HTTPException

from scorer.core.errors import N_

CONTENT_SECURITY_POLICY = (
    "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; "
    "font-src 'self'; connect-src 'self'; form-action 'self'; frame-ancestors 'none'; "
    "base-uri 'none'; object-src 'none'"
)

SECURITY_HEADERS = {
    "Content-Security-Policy": CONTENT_SECURITY_POLICY,
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "same-origin",
    "X-Frame-Options": "DENY",
    "Cross-Origin-Opener-Policy": "same-origin",
    "Permissions-Policy": "camera=(), microphone=(), geolocation=(), payment=()",
}

# Plain words for the errors the API can meet outside its own refusals.
API_MESSAGES = {
    400: N_("the request could not be read"),
    404: N_("nothing at this address"),
    405: N_("this address does not take that method"),
    413: N_("the request is too large"),
    415: N_("send the body as application/json"),
    429: N_("too many requests from this address; wait and try again"),
    500: N_("something went wrong on our side; nothing was changed"),
    503: N_("the server is busy; try again in a few seconds"),
}
# Marked on its own line: Babel's extractor does not see N_() nested in another call.
API_REFUSED = N_("the request was refused")

log = logging.getLogger(__name__)


def security_headers(response: Response) -> Response:
    for name, value in SECURITY_HEADERS.items():
        response.headers.setdefault(name, value)
    return response


def _wants_json() -> bool:
    return request.path == "/api" or request.path.startswith("/api/")


def api_message(status: int) -> str:
    return gettext(API_MESSAGES.get(status, API_REFUSED))


def refused_budget(error: HTTPException | None) -> str | None:
    """The budget a 429 was refused for (scorer.web.ratelimit's names), if it says."""
    return getattr(getattr(error, "limit", None), "scope", None)


def seconds_to_wait(error: HTTPException | None) -> int | None:
    """When a refused client may ask again: a busy answer's own wait, or the end of the
    window of the budget it spent (what Retry-After says)."""
    own = getattr(error, "retry_after", None)
    if own is not None:
        return int(own)
    limiter = current_app.extensions.get("scorer.limiter")
    current = limiter.current_limit if limiter is not None and error is not None else None
    if current is None or not current.breached:
        return None
    return max(1, int(current.reset_at - time.time()))


def _page(status: int, error: HTTPException | None) -> tuple[Response | str, int]:
    try:
        page = render_template(
            "error.html",
            status=status,
            error=error,
            budget=refused_budget(error),
            wait=seconds_to_wait(error) if status == 429 else None,
        )
        return page, status
    except Exception:  # the error page itself failed: still answer, in plain text
        log.exception("error page failed to render")
        body = f"{status} {error.name if error else 'Internal Server Error'}"
        return Response(body, status, mimetype="text/plain"), status


def http_error(error: HTTPException) -> Response:
    status = error.code or 500
    if _wants_json():
        response = jsonify(error=api_message(status), field=None)
        response.status_code = status
        allowed = getattr(error, "valid_methods", None)
        if allowed:
            response.headers["Allow"] = ", ".join(allowed)
    else:
        response = make_response(_page(status, error))
    retry_after = getattr(error, "retry_after", None)  # 503 of a busy worker
    if retry_after is not None and "Retry-After" not in response.headers:
        response.headers["Retry-After"] = str(retry_after)
        g.scorer_retry_after = str(retry_after)  # kept over the rate limits' own (ratelimit)
    return response


def unexpected_error(error: Exception) -> tuple[Response | str, int]:
    """Last resort: a plain page (or JSON) instead of a stack trace."""
    log.exception("unexpected error", exc_info=error)
    if _wants_json():
        return jsonify(error=api_message(500), field=None), 500
    return _page(500, None)


# Matched in the UTF-8 bytes: a newline, a space and a tab are never part of another
# character's bytes, so the result is the text's own; decoding a long page to text first
# and encoding it back cost ten times the match (a 5 MB page: 35 ms against 3).
_INDENTATION = re.compile(rb"\n[ \t]+")


def fold_indentation(response: Response) -> Response:
    """Drop the templates' indentation from HTML pages: bytes a phone need not download.

    Safe because no page has <pre> or <textarea>, where leading spaces would matter.
    """
    if response.mimetype == "text/html" and not response.direct_passthrough:
        folded, found = _INDENTATION.subn(b"\n", response.get_data())
        if found:
            response.set_data(folded)
    return response


def init_app(app: Flask) -> None:
    app.after_request(fold_indentation)
    app.after_request(security_headers)
    app.register_error_handler(HTTPException, http_error)
    if not app.testing:
        app.register_error_handler(Exception, unexpected_error)
