"""Three phones on one game, as at the table: two that record and a watcher.

Each phone is its own browser context (its own cookies and storage); all reach the app on
127.0.0.1 only. Screenshots at 360 x 780 go to the test's tmp_path for a human to look at.
"""

from __future__ import annotations

import sqlite3
from contextlib import closing
from typing import Any

from flask import Flask
from phone import BOARD_URL, shoot, wait_for_hand_form
from serving import call

FOUR = [{"players": ["Ann", "Bob"]}, {"players": ["Cy", "Di"]}]
SMALL = {"width": 360, "height": 780}


def new_game(base: str) -> tuple[str, str]:
    status, game, _ = call("POST", f"{base}/api/games", {"sides": FOUR})
    assert status == 201
    return game["id"], game["watch_url"]


def hands_stored(app: Flask, game_id: str) -> int:
    with closing(sqlite3.connect(app.config["DATABASE"])) as conn:
        row = conn.execute("select count(*) from hands where game_id = ?", [game_id]).fetchone()
    return int(row[0])


def record_on(page: Any, base: str, game_id: str, meld: tuple[str, str]) -> None:
    """Phone A: from its scoreboard, tap who went out, type the hand, save."""
    page.goto(f"{base}/games/{game_id}")
    page.locator(".record-bar a", has_text="Nobody").tap()
    wait_for_hand_form(page)
    page.fill("#sides-0-meld_points", meld[0])
    page.fill("#sides-1-meld_points", meld[1])
    page.get_by_role("button", name="Save hand").tap()
    page.wait_for_url(BOARD_URL)


def test_a_hand_recorded_on_one_phone_shows_on_the_others(make_page, live_server, live_app):
    game_id, watch_url = new_game(live_server)
    phone_a = make_page(**SMALL)
    phone_b = make_page(**SMALL)
    watcher = make_page(**SMALL)
    record_on(phone_a, live_server, game_id, ("120", "90"))
    record_on(phone_a, live_server, game_id, ("150", "60"))
    phone_b.goto(f"{live_server}/games/{game_id}")
    watcher.goto(f"{live_server}{watch_url}")
    for page in (phone_b, watcher):
        page.wait_for_load_state("load")
    # B reads the older hand: it opens it and scrolls down to it.
    phone_b.evaluate("document.getElementById('hand-1').open = true")
    phone_b.locator("#hand-1").scroll_into_view_if_needed()
    scroll = phone_b.evaluate("window.scrollY")
    assert scroll > 0

    record_on(phone_a, live_server, game_id, ("200", "50"))  # hand 3, through the page

    for page in (phone_b, watcher):
        page.wait_for_selector("#hand-3")  # live.js polls every 4 s; no reload
        assert page.evaluate("performance.getEntriesByType('navigation').length") == 1
    assert phone_b.evaluate("document.getElementById('hand-1').open")
    assert phone_b.evaluate("window.scrollY") == scroll
    assert "3 hands" in watcher.locator(".page-head .meta").first.inner_text()
    assert hands_stored(live_app, game_id) == 3


def test_an_open_form_on_another_phone_is_warned(make_page, live_server, live_app):
    game_id, _ = new_game(live_server)
    phone_a = make_page(**SMALL)
    phone_b = make_page(**SMALL)
    phone_b.goto(f"{live_server}/games/{game_id}/hands/new?out=none")
    wait_for_hand_form(phone_b)
    phone_b.fill("#sides-0-meld_points", "95")
    record_on(phone_a, live_server, game_id, ("120", "90"))
    banner = phone_b.wait_for_selector("[data-live-banner]")
    assert "Another phone just recorded hand 1" in banner.inner_text()
    assert phone_b.locator("#sides-0-meld_points").input_value() == "95"  # nothing lost
    shoot(phone_b, None, "phones-live-warning", full=False)


def test_the_watcher_reads_but_every_write_is_refused(make_page, live_server, live_app):
    game_id, watch_url = new_game(live_server)
    phone_a = make_page(**SMALL)
    record_on(phone_a, live_server, game_id, ("120", "90"))
    watcher = make_page(**SMALL)
    watcher.goto(f"{live_server}{watch_url}")
    assert watcher.locator("form").count() == 0
    assert watcher.locator("#hand-1").count() == 1
    assert game_id not in watcher.content()
    # Whatever the watcher tries from its page, through its address, is refused.
    statuses = watcher.evaluate(
        """async (watch) => {
            const tries = [["POST", watch], ["PUT", watch], ["DELETE", watch],
                           ["POST", watch + "/hands"], ["POST", watch + "/undo"],
                           ["DELETE", watch + "/hands/1"], ["PATCH", watch]];
            const out = [];
            for (const [method, url] of tries) {
                const r = await fetch(url, {method, body: method === "DELETE" ? null : "x=1",
                                            headers: {"Content-Type": "application/json"}});
                out.push(r.status);
            }
            return out;
        }""",
        watch_url,
    )
    assert set(statuses) <= {404, 405}, statuses
    assert hands_stored(live_app, game_id) == 1
    shoot(watcher, None, "phones-watch", full=True)


def test_add_a_phone_shows_the_code_and_the_link(make_page, live_server):
    game_id, watch_url = new_game(live_server)
    page = make_page(**SMALL)
    page.goto(f"{live_server}/games/{game_id}")
    page.locator("#add-phone summary").tap()
    qr = page.locator("#add-phone img.qr").first
    qr.scroll_into_view_if_needed()
    page.wait_for_function("document.querySelector('#add-phone img.qr').naturalWidth > 0")
    assert qr.get_attribute("src") == f"/games/{game_id}/qr.svg"
    link = page.locator("#add-phone a[data-share-url]").first
    # Served on 127.0.0.1 with no LAN address: the code carries what network.py found.
    assert link.get_attribute("href").endswith(f"/games/{game_id}")
    assert page.locator("[data-copy]").is_visible()  # share.js revealed the buttons
    assert page.locator(f'img[src="{watch_url}/qr.svg"]').count() == 1
    shoot(page, None, "phones-add-a-phone", full=False)
    page.locator("[data-copy]").tap()
    page.wait_for_selector("[data-copy]:has-text('Link copied')")


def test_offline_banner_screenshot(make_page, live_server):
    game_id, _ = new_game(live_server)
    page = make_page(**SMALL)
    page.goto(f"{live_server}/games/{game_id}/hands/new?out=none")
    wait_for_hand_form(page)
    page.fill("#sides-0-meld_points", "120")
    page.fill("#sides-1-meld_points", "90")
    page.context.set_offline(True)
    page.get_by_role("button", name="Save hand").tap()
    page.wait_for_selector("[data-outbox-banner]:has-text('1 hand waiting to be sent')")
    shoot(page, None, "phones-waiting", full=False)
    page.context.set_offline(False)
    page.wait_for_url(BOARD_URL)
