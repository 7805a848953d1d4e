"""Issue 20, point 4: the watch page looks like the scoreboard, and ?size=large makes it a
screen to read across the room (a laptop or a TV at three metres), live, JavaScript or not."""

from __future__ import annotations

from typing import Any

import pytest
from phone import Watcher, shoot, split_words, too_wide
from playwright.sync_api import expect
from test_table import api_game

# Three metres from a 40-inch 1080p screen: a 64 px total is a number 2 cm tall, and below
# about 32 px a line is hard to read. A laptop is read from closer: the sizes scale with it.
TV = {"width": 1920, "height": 1080}
LAPTOP = {"width": 1280, "height": 720}
HAND = {"meld_points": 0, "natural_canastas": 0, "mixed_canastas": 0, "red_threes": 0}


def api_hand(app: Any, game_id: str, sides: int, meld: int = 200) -> None:
    """Nobody goes out (the stock ran out): the first side melded, the others hold 40."""
    first = {**HAND, "meld_points": meld}
    body = {"went_out": None, "concealed": False}
    body["sides"] = [first] + [{**HAND, "hand_points": 40}] * (sides - 1)
    response = app.test_client().post(f"/api/games/{game_id}/hands", json=body)
    assert response.status_code == 201, response.json


def watch_url(app: Any, game_id: str) -> str:
    return app.test_client().get(f"/api/games/{game_id}").json["watch_url"]


def px(page: Any, selector: str) -> float:
    return float(
        page.locator(selector).first.evaluate("el => parseFloat(getComputedStyle(el).fontSize)")
    )


def test_the_watch_page_is_styled_like_the_scoreboard(make_page, live_server, live_app, tmp_path):
    game_id = api_game(live_app, [["Ann", "Bob"], ["Cy", "Dee"]])
    api_hand(live_app, game_id, 2)
    page = make_page(width=360, height=780, javascript=False)
    page.goto(live_server + watch_url(live_app, game_id))
    shoot(page, tmp_path, "watch-phone")
    # The hands' head and each row lay their sides out in columns (board.css is loaded).
    assert page.locator(".hands-head").evaluate("el => getComputedStyle(el).display") == "flex"
    row = page.locator(".hand-row summary").first
    assert row.evaluate("el => getComputedStyle(el).display") == "flex"
    score, running = page.locator(".hand-row .hand-side").first.locator("span").all()
    assert score.bounding_box()["y"] < running.bounding_box()["y"]  # one above the other
    assert too_wide(page) == [] and split_words(page) == []
    assert page.get_by_role("link", name="Big screen (TV or laptop)").count() == 1


@pytest.mark.parametrize("javascript", [True, False], ids=["js", "nojs"])
@pytest.mark.parametrize("screen", [TV, LAPTOP], ids=["tv", "laptop"])
def test_the_large_watch_screen_reads_from_across_the_room(
    make_page, live_server, live_app, tmp_path, screen, javascript
):
    names = [["Marie", "Bernadette"], ["Guillaume", "Jean"], ["Anne", "Paul"]]
    game_id = api_game(live_app, names, profile="six-player")
    for meld in (200, 150, 300, 120, 250, 180, 210):  # seven hands: the last five are shown
        api_hand(live_app, game_id, 3, meld)
    page = make_page(width=screen["width"], height=screen["height"], javascript=javascript)
    watcher = Watcher(page)
    page.goto(live_server + watch_url(live_app, game_id))
    page.get_by_role("link", name="Big screen (TV or laptop)").click()
    page.wait_for_url("**?size=large")
    shoot(page, tmp_path, f"watch-large-{screen['width']}", full=False)
    scale = screen["width"] / TV["width"]  # a laptop is read from closer
    assert px(page, ".total") >= 64 * scale
    assert px(page, ".minimum strong") >= 36 * scale
    assert px(page, ".next-deal") >= 32 * scale
    assert px(page, ".hand-row .hand-score") >= 32 * scale
    # Everything the room needs is on the one screen: no scroll, nothing cut.
    rows = page.locator(".hand-row:visible")
    assert rows.count() == 5
    assert page.locator(".hand-row:visible .hand-no").first.inner_text().strip() == "7"
    for selector in (".side-total", ".next-deal", ".hand-row:visible"):
        for box in (el.bounding_box() for el in page.locator(selector).all()):
            assert box["y"] + box["height"] <= screen["height"], selector
    assert too_wide(page) == [] and split_words(page) == []
    assert watcher.problems == []


def test_the_large_watch_screen_follows_the_game(make_page, live_server, live_app):
    game_id = api_game(live_app, [["Ann"], ["Bob"]])
    page = make_page(width=1920, height=1080)
    page.goto(live_server + watch_url(live_app, game_id) + "?size=large")
    assert page.locator(".total").all_inner_texts() == ["0", "0"]
    api_hand(live_app, game_id, 2)
    # Live as the phone view: the new totals within the 4 s check (and some slack).
    expect(page.locator(".total").first).to_have_text("200", timeout=15_000)
    assert page.locator("body").get_attribute("class").endswith("watch-large")
    assert page.locator(".hand-row:visible").count() == 1
