"""A phone at 360 px with JavaScript on: a hand typed meld by meld, and a penalty (issue 22).

Scores worked out by hand: kings natural 70 + 500, sevens mixed 25 + 50 + 20 + 300, aces
60, one red three 100, going out 100: 1 225. Cy & Dee: 60 melded, 30 in hand: 30.
"""

from __future__ import annotations

from typing import Any

from phone import BOARD_URL, no_sideways_scroll, start_game, wait_for_hand_form
from playwright.sync_api import expect


def open_hand_form(page: Any) -> None:
    page.locator(".record-buttons a", has_text="Ann & Bob").tap()
    wait_for_hand_form(page)


def tools(page: Any, side: int) -> Any:
    """The side's other ways to enter it, behind the form's one control."""
    page.locator("[data-other-ways] > summary").tap()
    return page.locator(f'[data-tools="{side}"]')


def type_in(page: Any, box: str, text: str) -> None:
    """A tap on the box, then its keys, as a thumb does."""
    page.locator(f"#{box}").tap()
    page.keyboard.type(text)


def test_a_hand_typed_meld_by_meld_at_360_px(make_page, live_server, tmp_path):
    page = make_page(width=360, height=780)
    start_game(page, live_server, ("Ann", "Bob", "Cy", "Dee"))
    open_hand_form(page)
    column = tools(page, 0)
    column.get_by_text("Meld by meld, rank by rank").tap()
    type_in(page, "sides-0-melds-0-rank", "K")
    type_in(page, "sides-0-melds-0-naturals", "7")
    type_in(page, "sides-0-melds-1-rank", "7")
    type_in(page, "sides-0-melds-1-naturals", "5")
    type_in(page, "sides-0-melds-1-jokers", "1")
    type_in(page, "sides-0-melds-1-twos", "1")
    # A fourth row: added in place (no round trip), the cursor in its rank.
    column.get_by_role("button", name="Add a meld").tap()
    assert column.locator("legend", has_text="Meld 4").count() == 1
    assert page.evaluate("document.activeElement.id") == "sides-0-melds-3-rank"
    page.keyboard.type("A")
    type_in(page, "sides-0-melds-3-naturals", "3")
    # The melds decide (the server's dry run says what they hold): the meld points and
    # canasta boxes show it, locked.
    expect(page.locator("#sides-0-meld_points")).to_have_value("225")
    expect(page.locator("#sides-0-natural_canastas")).to_have_value("1")
    expect(page.locator("#sides-0-mixed_canastas")).to_have_value("1")
    assert page.locator("#sides-0-meld_points").evaluate("box => box.readOnly")
    page.fill("#sides-0-red_threes", "1")
    page.fill("#sides-1-meld_points", "60")
    page.fill("#sides-1-hand_points", "30")
    assert page.locator('input[name="went_out"]:checked').get_attribute("value") == "0"
    expect(page.locator('[data-preview-for="0"]')).to_have_text("+1,225")
    assert no_sideways_scroll(page)
    page.screenshot(path=str(tmp_path / "by-rank-360.png"), full_page=True)
    page.get_by_role("button", name="Save hand").tap()
    page.wait_for_url(BOARD_URL)
    assert page.locator(".side-total .total").all_inner_texts() == ["1,225", "30"]
    # The correction shows the three melds again.
    page.locator("#hand-1").get_by_role("link", name="Correct hand 1").tap()
    wait_for_hand_form(page)
    assert page.locator("#sides-0-melds-2-naturals").input_value() == "3"
    assert page.locator("#sides-0-melds-2-rank").input_value() == "A"


def test_a_penalty_at_360_px(make_page, live_server, tmp_path):
    page = make_page(width=360, height=780)
    start_game(page, live_server, ("Ann", "Bob", "Cy", "Dee"))
    open_hand_form(page)
    page.fill("#sides-0-meld_points", "130")
    page.fill("#sides-0-natural_canastas", "1")
    page.fill("#sides-1-meld_points", "60")
    page.fill("#sides-1-hand_points", "20")
    assert not page.locator("#sides-1-adjustment").is_visible()  # folded by default
    column = tools(page, 1)
    column.get_by_text("Penalty or correction").first.tap()
    page.fill("#sides-1-adjustment", "100")  # taken away: the chip's default
    page.fill("#sides-1-adjustment_note", "took the pile illegally")
    # 60 − 20 − 100 = −60, the penalty shown as a part of its own.
    expect(page.locator('[data-preview-for="1"]')).to_have_text("\u221260")
    assert "\u2212100" in page.locator("[data-parts-body] tr", has_text="Penalty").text_content()
    assert no_sideways_scroll(page)
    page.screenshot(path=str(tmp_path / "penalty-360.png"), full_page=True)
    page.get_by_role("button", name="Save hand").tap()
    page.wait_for_url(BOARD_URL)
    # 130 + 500 + 100 = 730 and −60.
    assert page.locator(".side-total .total").all_inner_texts() == ["730", "\u221260"]
    hand = page.locator("#hand-1")
    assert "took the pile illegally" in hand.inner_text()
    assert hand.locator("tr.adjustment td").all_inner_texts() == ["0", "\u2212100"]
