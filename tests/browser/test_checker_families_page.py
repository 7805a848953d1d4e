"""The checker in Modern American on a 360 px phone, with JavaScript and without (issue 31):
the game is chosen first, the page comes back at its minimum, the server gives the verdict."""

from __future__ import annotations

import pytest
from phone import no_sideways_scroll
from test_checker_page import fill_row


@pytest.mark.parametrize("javascript", [True, False])
def test_choosing_modern_american_then_counting(make_page, live_server, javascript):
    page = make_page(width=360, height=780, javascript=javascript)
    page.goto(live_server + "/check-meld")
    if javascript:  # choosing the game brings its page back at once
        with page.expect_navigation():
            page.select_option("#family", "modern-american")
    else:  # without a script, Count brings it back
        page.select_option("#family", "modern-american")
        with page.expect_navigation():
            page.get_by_role("button", name="Count").tap()
    assert page.locator("#family").input_value() == "modern-american"
    fill_row(page, 0, "K", "2", jokers="1")
    fill_row(page, 1, "Q", "2", twos="1")
    page.fill("#minimum", "125")
    if javascript:  # the script knows Classic's rules only: no live verdict in this game
        assert page.locator("#verdict").inner_text() == ""
    with page.expect_navigation():
        page.get_by_role("button", name="Count").tap()
    assert page.locator("#verdict").inner_text() == "110 of 125: 15 short"
    assert "three natural cards of one rank" in page.locator("[data-opening-error]").inner_text()
    fill_row(page, 1, "Q", "3", twos="1")
    with page.expect_navigation():
        page.get_by_role("button", name="Count").tap()
    assert page.locator("#verdict").inner_text() == "120 of 125: 5 short"
    assert page.locator("[data-opening-error]").count() == 0
    assert no_sideways_scroll(page)
