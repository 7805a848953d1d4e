"""Another phone saved first: the hand this phone typed is refused, and the page shows the
hand the other phone recorded beside this one, with two choices: "Same hand: drop mine"
(nothing stored) or "Record mine as the next hand" (stored once, however often tapped).
JavaScript on and off, 360 x 780."""

from __future__ import annotations

from typing import Any

import pytest
from phone import BOARD_URL, start_game, wait_for_hand_form

# Ann & Bob go out: 120 melded, a natural canasta (500), going out (100): 720; Cy & Dee 60 - 20.
OTHER_PHONE = {
    "sides": [
        {"meld_points": 120, "natural_canastas": 1},
        {"meld_points": 60, "hand_points": 20},
    ],
    "went_out": 0,
}


def hands_stored(page: Any, base: str, game_id: str) -> int:
    return len(page.request.get(f"{base}/api/games/{game_id}").json()["hands"])


def typed_while_another_phone_saves(page: Any, base: str, javascript: bool) -> str:
    """This phone types a hand; meanwhile another phone records one; this phone taps Save."""
    start_game(page, base, ("Ann", "Bob", "Cy", "Dee"))
    game_id = page.url.rstrip("/").rsplit("/", 1)[1]
    page.locator(".record-buttons a", has_text="Ann & Bob").tap()
    if javascript:
        wait_for_hand_form(page)
    else:
        page.wait_for_selector("form.hand-form")
    page.fill("#sides-0-meld_points", "120")
    page.fill("#sides-0-natural_canastas", "1")
    page.fill("#sides-1-meld_points", "60")
    page.fill("#sides-1-hand_points", "20")
    other = page.request.post(f"{base}/api/games/{game_id}/hands", data=OTHER_PHONE)
    assert other.status == 201, other.text()
    page.get_by_role("button", name="Save hand").tap()
    page.locator(".stale-compare").wait_for()
    return game_id


def assert_compare(page: Any) -> None:
    compare = page.locator(".stale-compare table.compare")
    rows = compare.locator("tbody tr")
    assert compare.locator("thead th").all_inner_texts() == ["Hand 1, recorded", "Yours"]
    assert rows.nth(0).locator("td").all_inner_texts() == ["+720", "+720"]
    assert rows.nth(1).locator("td").all_inner_texts() == ["+40", "+40"]
    assert "Ann & Bob went out." in rows.nth(2).inner_text()
    # No black bars: the totals' progress bars are not shown unstyled.
    fills = page.eval_on_selector_all("svg rect", "els => els.map(e => getComputedStyle(e).fill)")
    assert "rgb(0, 0, 0)" not in fills
    assert "save again to add it" not in page.inner_text("main")
    assert page.evaluate("document.documentElement.scrollWidth <= innerWidth")


@pytest.mark.parametrize("javascript", [True, False], ids=["js", "no-js"])
def test_same_hand_drops_mine(make_page, live_server, javascript, tmp_path):
    page = make_page(width=360, height=780, javascript=javascript)
    game_id = typed_while_another_phone_saves(page, live_server, javascript)
    assert_compare(page)
    page.screenshot(path=str(tmp_path / "stale.png"), full_page=True)
    page.get_by_role("link", name="Same hand: drop mine").first.tap()
    page.wait_for_url(BOARD_URL)
    assert page.locator(".hand-row").count() == 1
    assert hands_stored(page, live_server, game_id) == 1


@pytest.mark.parametrize("javascript", [True, False], ids=["js", "no-js"])
def test_record_mine_as_the_next_hand_once(make_page, live_server, javascript):
    page = make_page(width=360, height=780, javascript=javascript)
    game_id = typed_while_another_phone_saves(page, live_server, javascript)
    page.get_by_role("button", name="Record mine as the next hand").first.dblclick()
    page.wait_for_url(BOARD_URL)
    page.wait_for_load_state("load")
    assert hands_stored(page, live_server, game_id) == 2
    assert page.locator(".side-total .total").all_inner_texts() == ["1,440", "80"]


def test_a_double_post_of_record_mine_stores_one_hand(make_page, live_server):
    """Without JavaScript a double tap may send the form twice: the same token, one hand."""
    page = make_page(width=360, height=780, javascript=False)
    game_id = typed_while_another_phone_saves(page, live_server, javascript=False)
    form = page.locator("form.hand-form")
    fields = form.evaluate(
        "f => Object.fromEntries([...new FormData(f)].concat([['as_next', '1']]))"
    )
    action = form.evaluate("f => f.action")
    for _ in range(2):
        sent = page.request.post(action, form=fields, max_redirects=0)
        assert sent.status == 303, sent.status
    assert hands_stored(page, live_server, game_id) == 2
