"""live.js, outbox.js and the service worker on the real pages, as the templates wire them.

The server, the forms, the one-time token and the database are the real ones. Phones are
separate browser contexts.
"""

from __future__ import annotations

import sqlite3
from contextlib import closing
from typing import Any

import pytest
from flask import Flask
from phone import BOARD_URL, wait_for_hand_form
from serving import call

from scorer.web import addresses

FOUR = [{"players": ["Ann", "Bob"]}, {"players": ["Cy", "Di"]}]
WAITING = "1 hand waiting to be sent"
HAND = {
    "went_out": None,
    "concealed": False,
    "sides": [
        {
            "meld_points": 90,
            "natural_canastas": 0,
            "mixed_canastas": 0,
            "red_threes": 0,
            "hand_points": 0,
        }
    ]
    * 2,
}


def new_game(base: str) -> str:
    status, game, _ = call("POST", f"{base}/api/games", {"sides": FOUR})
    assert status == 201
    return game["id"]


def hands_stored(app: Flask, game_id: str) -> int:
    with closing(sqlite3.connect(app.config["DATABASE"])) as conn:
        row = conn.execute("select count(*) from hands where game_id = ?", [game_id]).fetchone()
    return int(row[0])


def with_outbox(page: Any, game_id: str) -> None:
    """The hand form as the server sent it, with outbox.js running (its hooks are there)."""
    wait_for_hand_form(page)
    assert page.locator(f'form[data-outbox="{game_id}"]').count() == 1


def type_hand(page: Any) -> None:
    page.fill("#sides-0-meld_points", "120")
    page.fill("#sides-1-meld_points", "90")
    page.locator(".nobody-chip").tap()


def test_a_hand_saved_offline_waits_and_is_recorded_once(make_page, live_server, live_app):
    game_id = new_game(live_server)
    page = make_page()
    page.goto(f"{live_server}/games/{game_id}/hands/new")
    with_outbox(page, game_id)
    type_hand(page)
    page.context.set_offline(True)
    page.get_by_role("button", name="Save hand").tap()
    page.wait_for_selector(f"[data-outbox-banner]:has-text('{WAITING}')")
    assert hands_stored(live_app, game_id) == 0
    page.context.set_offline(False)  # the `online` event sends it
    page.wait_for_url(BOARD_URL)
    assert hands_stored(live_app, game_id) == 1
    assert (
        page.evaluate("Object.keys(localStorage).filter(k => k.startsWith('scorer-outbox:'))") == []
    )


def test_a_queued_hand_is_sent_once_when_the_game_is_opened_again(make_page, live_server, live_app):
    game_id = new_game(live_server)
    page = make_page()
    form_url = f"{live_server}/games/{game_id}/hands/new"
    page.goto(form_url)
    with_outbox(page, game_id)
    type_hand(page)
    # The Wi-Fi drops the save itself (the phone still thinks it is online).
    page.route(
        "**/hands/new",
        lambda route: route.abort() if route.request.method == "POST" else route.continue_(),
    )
    page.get_by_role("button", name="Save hand").tap()
    page.wait_for_selector(f"[data-outbox-banner]:has-text('{WAITING}')")
    page.unroute("**/hands/new")
    assert hands_stored(live_app, game_id) == 0
    page.reload()
    with_outbox(page, game_id)
    page.wait_for_selector("[data-outbox-banner]", state="detached")
    assert hands_stored(live_app, game_id) == 1
    page.reload()  # and again: nothing is left to send
    with_outbox(page, game_id)
    page.wait_for_load_state("networkidle")
    assert hands_stored(live_app, game_id) == 1


def test_a_refused_queued_hand_comes_back_as_typed(make_page, live_server, live_app):
    game_id = new_game(live_server)
    page = make_page()
    page.goto(f"{live_server}/games/{game_id}/hands/new")
    with_outbox(page, game_id)
    type_hand(page)
    page.context.set_offline(True)
    page.get_by_role("button", name="Save hand").tap()
    page.wait_for_selector("[data-outbox-banner]")
    # Meanwhile another phone records a hand: the queued one is now stale.
    status, _, _ = call("POST", f"{live_server}/api/games/{game_id}/hands", HAND)
    assert status == 201
    page.context.set_offline(False)
    page.wait_for_selector("#form-error")  # the server's own page: "someone changed this game"
    assert page.locator("#sides-0-meld_points").input_value() == "120"
    assert page.locator("#sides-1-meld_points").input_value() == "90"
    assert hands_stored(live_app, game_id) == 1


def test_what_is_typed_survives_a_reload(make_page, live_server):
    game_id = new_game(live_server)
    page = make_page()
    page.goto(f"{live_server}/games/{game_id}/hands/new")
    with_outbox(page, game_id)
    page.fill("#sides-0-meld_points", "75")
    page.fill("#sides-1-meld_points", "55")
    page.reload()
    with_outbox(page, game_id)
    assert page.locator("#sides-0-meld_points").input_value() == "75"
    assert page.locator("#sides-1-meld_points").input_value() == "55"


def test_a_board_follows_a_hand_recorded_on_another_phone(make_page, live_server):
    game_id = new_game(live_server)
    board = make_page()
    board.goto(f"{live_server}/games/{game_id}")
    board.wait_for_load_state("load")
    board.evaluate("document.querySelector('#live-board').dataset.marker = 'old'")
    status, _, _ = call("POST", f"{live_server}/api/games/{game_id}/hands", HAND)
    assert status == 201
    board.wait_for_selector(".hands .hand-row")  # swapped in, without a reload
    assert board.evaluate("document.querySelector('#live-board').dataset.marker") is None
    assert board.evaluate("performance.getEntriesByType('navigation').length") == 1


def test_an_open_hand_form_is_told_before_saving(make_page, live_server):
    game_id = new_game(live_server)
    phone = make_page()
    phone.goto(f"{live_server}/games/{game_id}/hands/new")
    wait_for_hand_form(phone)
    status, _, _ = call("POST", f"{live_server}/api/games/{game_id}/hands", HAND)
    assert status == 201
    phone.wait_for_selector("[data-live-banner]:has-text('Another phone just recorded hand 1')")


@pytest.fixture
def live_app(live_app: Flask) -> Flask:
    """The app with the phones' routes (/sw.js), until the app factory registers them."""
    addresses.init_app(live_app)  # before the server's first request
    return live_app


def test_on_localhost_a_visited_game_opens_offline(make_page, live_server):
    game_id = new_game(live_server)
    call("POST", f"{live_server}/api/games/{game_id}/hands", HAND)
    page = make_page()
    board = f"{live_server}/games/{game_id}"
    page.goto(board)
    assert page.evaluate("window.isSecureContext")  # loopback counts as secure
    page.evaluate("navigator.serviceWorker.ready.then(() => true)")
    page.wait_for_function("navigator.serviceWorker.controller !== null")
    page.reload()  # through the worker now: it keeps this copy
    page.wait_for_function(
        "caches.open('scorer-pages').then(c => c.keys()).then(k => k.length > 0)"
    )
    page.context.set_offline(True)
    page.reload()
    assert page.evaluate("document.documentElement.hasAttribute('data-offline')")
    assert page.locator(".hands .hand-row").count() == 1  # the last scoreboard it saw
    # Its style sheet came from the worker's cache too (unstyled, the body is transparent).
    assert page.evaluate("getComputedStyle(document.body).backgroundColor") != "rgba(0, 0, 0, 0)"
