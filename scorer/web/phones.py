"""The phones at the table: a game's QR code, and the service worker at the root scope.

Register with `phones.init_app(app)`; the scoreboard shows the code with
`<img src="/games/<id>/qr.svg">`.
"""

from __future__ import annotations

from flask import Blueprint, Flask, Response, abort, current_app, request, send_from_directory

from scorer import store
from scorer.network import public_base_url, split_host
from scorer.qr import qr_svg
from scorer.store.db import get_db

bp = Blueprint("phones", __name__)


def game_exists(game_id: str) -> bool:
    try:
        store.version_of(get_db(), game_id)  # no replay: only whether it is there
    except store.NotFound:
        return False
    return True


def request_port() -> int:
    """The port this request reached: the Host header's, else the server's own."""
    _, port = split_host(request.host)
    if port is not None:
        return port
    return int(request.environ.get("SERVER_PORT") or (443 if request.scheme == "https" else 80))


def absolute_url(path: str) -> str:
    """`path` on an address another phone can open (never `localhost`)."""
    return public_base_url(request.host, request_port(), scheme=request.scheme) + path


def svg_response(svg: str) -> Response:
    response = Response(svg, mimetype="image/svg+xml")
    # A game's address never changes: the code may be kept, but checked again on a new LAN.
    response.headers["Cache-Control"] = "no-cache"
    return response


@bp.get("/games/<game_id>/qr.svg")
def game_qr(game_id: str) -> Response:
    if not game_exists(game_id):
        abort(404)
    return svg_response(qr_svg(absolute_url(f"/games/{game_id}")))


@bp.get("/sw.js")
def service_worker() -> Response:
    """The service worker from the root, so it may look after every page of the app."""
    response = send_from_directory(current_app.static_folder or "static", "sw.js", max_age=0)
    response.headers["Service-Worker-Allowed"] = "/"
    response.headers["Cache-Control"] = "no-cache"  # a new version is picked up at once
    return response


def init_app(app: Flask) -> None:
    """Register the blueprint once (the app factory and a test may both ask)."""
    if bp.name not in app.blueprints:
        app.register_blueprint(bp)
    # The scoreboard's "Add a phone": addresses another phone can open (the watch page's
    # address comes from scorer.games.watch.init_app).
    app.jinja_env.globals.update(phone_url=absolute_url)
