"""What every response gets: security headers and friendly errors (never a bare 500)."""

from __future__ import annotations

from flask import Flask, Response, jsonify, render_template, request
from werkzeug.exceptions import HTTPException

CONTENT_SECURITY_POLICY = (
    "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; "
    "font-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'; "
    "object-src 'none'"
)


def security_headers(response: Response) -> Response:
    response.headers.setdefault("Content-Security-Policy", CONTENT_SECURITY_POLICY)
    response.headers.setdefault("X-Content-Type-Options", "nosniff")
    response.headers.setdefault("Referrer-Policy", "same-origin")
    response.headers.setdefault("X-Frame-Options", "DENY")
    return response


def _wants_json() -> bool:
    return request.path.startswith("/api/")


def http_error(error: HTTPException) -> tuple[Response | str, int]:
    status = error.code or 500
    if _wants_json():
        return jsonify(error=error.description, field=None), status
    return render_template("error.html", status=status, error=error), status


def unexpected_error(error: Exception) -> tuple[Response | str, int]:
    """Last resort: a plain page (or JSON) instead of a stack trace."""
    if _wants_json():
        return jsonify(error="something went wrong on our side", field=None), 500
    return render_template("error.html", status=500, error=None), 500


def init_app(app: Flask) -> None:
    app.after_request(security_headers)
    app.register_error_handler(HTTPException, http_error)
    if not app.testing:
        app.register_error_handler(Exception, unexpected_error)
