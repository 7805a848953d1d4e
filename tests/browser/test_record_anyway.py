"""Melds below the opening minimum: the form asks, and "Record it anyway" records the hand.

With JavaScript on, the hand form is sent by static/outbox.js; it must send the tapped
button's value ("confirm"), or the server asks the same question forever. The same holds for
a hand saved offline that comes back irregular once the phone is online again.
"""

from __future__ import annotations

from typing import Any

import pytest
from phone import BOARD_URL, start_game, wait_for_hand_form


def fill_low_hand(page: Any) -> None:
    """Ann & Bob go out with 130 and a natural canasta; Cy & Dee meld 30 (below 50)."""
    page.fill("#sides-0-meld_points", "130")
    page.fill("#sides-0-natural_canastas", "1")
    page.fill("#sides-1-meld_points", "30")
    page.fill("#sides-1-hand_points", "20")


def open_hand_form(page: Any, javascript: bool) -> None:
    page.locator(".record-buttons a", has_text="Ann & Bob").tap()
    if javascript:
        wait_for_hand_form(page)
    else:
        page.wait_for_selector("form.hand-form")


def record_anyway(page: Any) -> None:
    ask = page.locator(".ask")
    ask.wait_for()
    assert "irregular" in ask.inner_text()
    assert page.locator("#sides-1-meld_points").input_value() == "30"  # nothing lost
    page.get_by_role("button", name="Record it anyway").tap()
    page.wait_for_url(BOARD_URL)


def assert_one_irregular_hand(page: Any) -> None:
    assert page.locator(".hand-row").count() == 1
    assert page.locator(".side-total .total").all_inner_texts() == ["730", "10"]
    assert page.locator("#hand-1").get_by_text("Irregular: confirmed by the table").count() == 1
    assert page.locator(".record-buttons").count() == 1


@pytest.mark.parametrize("javascript", [True, False], ids=["js", "no-js"])
def test_record_it_anyway_records_the_hand(make_page, live_server, javascript):
    page = make_page(width=360, height=780, javascript=javascript)
    start_game(page, live_server, ("Ann", "Bob", "Cy", "Dee"))
    board = page.url
    open_hand_form(page, javascript)
    fill_low_hand(page)
    page.get_by_role("button", name="Save hand").tap()
    record_anyway(page)
    assert page.url == board
    assert_one_irregular_hand(page)


def test_an_offline_hand_that_comes_back_irregular_is_recorded_once(make_page, live_server):
    page = make_page(width=360, height=780)
    start_game(page, live_server, ("Ann", "Bob", "Cy", "Dee"))
    open_hand_form(page, javascript=True)
    fill_low_hand(page)
    page.context.set_offline(True)
    page.get_by_role("button", name="Save hand").tap()
    page.locator("[data-outbox-banner]").wait_for()
    page.context.set_offline(False)
    page.evaluate("window.dispatchEvent(new Event('online'))")
    record_anyway(page)
    assert_one_irregular_hand(page)
    # Nothing is left waiting, and a reload does not send it again.
    page.reload()
    assert page.locator("[data-outbox-banner]").count() == 0
    assert page.locator(".hand-row").count() == 1
