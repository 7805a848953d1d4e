"""The watch link: a game's second address, read only, for a club screen or a relative at home.

`/watch/<watch_id>` shows the live scoreboard with no form and no link to any write; with
`Accept: application/json` it answers the game's JSON without its `id` (nor `watch_url`).
`?size=large` is the same page for a laptop or a TV across the room: totals, minimums, next
dealer and the last hands, read from three metres. Either shows a long game's newest 50
hands (display.HANDS_PER_PAGE), as the scoreboard's first page does.
The watch id is random on its own (table `watch_ids`, migration m006), so it cannot be
turned into the game's address; and there is no write route under /watch at all.
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, Flask, Response, abort, current_app, jsonify, render_template, request

from scorer import store
from scorer.games.pages.board import board_context, hands_html
from scorer.qr import qr_svg
from scorer.web import display, livecheck
from scorer.web.addresses import absolute_url, svg_response
from scorer.web.api_contract import game_to_json
from scorer.web.failures import load_game
from scorer.web.http import (
    cached_json,
    is_current,
    not_modified,
    tagged,
    watch_etag,
    watch_url,
)
from scorer.web.livecheck import version_reader

bp = Blueprint("watch", __name__)


def game_of(watch_id: str) -> str:
    """The game a watch id shows; 404 for an unknown one (nothing says whether it was one)."""
    game_id = version_reader(current_app).watched_game(watch_id)
    if game_id is None:
        abort(404)
    return game_id


def current_version(game_id: str) -> int | None:
    """The game's version alone: enough to answer a live check that finds nothing new."""
    return version_reader(current_app).game_version(game_id)


def wants_json() -> bool:
    return livecheck.wants_json(request.headers.get("Accept"))


def watch_json(record: store.ReplayedGame) -> dict[str, Any]:
    game = game_to_json(record)
    game.pop("id", None)
    game.pop("watch_url", None)
    # The record of corrections, as the game's answer and the watch page give it (issue 33).
    family = record.table.profile.family
    return {**game, "corrections": store.corrections_json(store.get_db(), record.id, family)}


def watch_answer(record: store.ReplayedGame) -> Response:
    """The watch JSON made once per game version, as the game's own (http.game_response):
    every screen watching a game asks for it after each hand, and a long game's took 70 ms."""
    key = (record.id, record.version)
    return cached_json("watch_json", key, lambda: jsonify(watch_json(record)).get_data())


@bp.get("/watch/<watch_id>")
def watch(watch_id: str) -> Response | str:
    game_id = game_of(watch_id)
    version = current_version(game_id)
    if version is None:
        abort(404)
    etag = watch_etag(watch_id, version)
    as_json = wants_json()
    if as_json and is_current(etag):
        response = not_modified(etag)
    else:
        record = load_game(game_id)
        if as_json:
            response = watch_answer(record)
            tagged(response, watch_etag(watch_id, record.version))
        else:
            response = Response(render_watch(record, watch_id), mimetype="text/html")
            response.headers["Cache-Control"] = "no-cache"
    response.vary.add("Accept")  # one address, a page or JSON
    return response


LARGE = "large"  # ?size=large: the big-screen view


def render_watch(record: store.ReplayedGame, watch_id: str) -> str:
    """The watch page shows the newest page of hands, and no link to earlier ones: a screen
    on a club's wall or a phone at home follows the game as it goes (every hand stays on the
    table's own scoreboard and its score sheet, both at the game's address)."""
    block = display.hand_block(len(record.state.results))
    return render_template(
        "watch/board.html",
        watch_id=watch_id,
        large=request.args.get("size") == LARGE,
        watch_etag=watch_etag(watch_id, record.version),
        hands_html=hands_html(record, block, read_only=True),
        **board_context(record, block),
    )


@bp.get("/watch/<watch_id>/qr.svg")
def watch_qr(watch_id: str) -> Response:
    game_of(watch_id)
    return svg_response(qr_svg(absolute_url(f"/watch/{watch_id}")))


def init_app(app: Flask) -> None:
    """Register the watch page once, and its address for the scoreboard's "Add a phone"."""
    if bp.name not in app.blueprints:
        app.register_blueprint(bp)
    app.jinja_env.globals.update(watch_url=watch_url)
