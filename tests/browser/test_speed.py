"""Speed of entry: the typical hand of issue 3, from the scoreboard to saved, counted.

Side A: meld 130, one natural canasta, two red threes, went out; side B: meld 50, 85 left
in hand. Each tap counts 1 and each key press counts 1 ("130" is 3). The rule book gives
A 130 + 500 + 200 + 100 = 930 and B 50 - 85 = -35.
"""

from __future__ import annotations

import pytest
from phone import BOARD_URL, Thumb, no_sideways_scroll, start_game, wait_for_hand_form
from playwright.sync_api import expect

TAP_BUDGET = 4  # the record button, a box across the sheet, Save


def focused_id(page) -> str:
    return page.evaluate("document.activeElement && document.activeElement.id")


@pytest.mark.parametrize("width", [360, 390])
def test_typical_hand_in_at_most_4_taps_and_its_keys(make_page, live_server, width):
    """The issue-28 goal: a typed hand of two sides in at most 4 taps (the record button and
    Save included), the digits and the keyboard's Enter (Next) apart, and no swipe."""
    page = make_page(width=width)
    start_game(page, live_server, ("Ann", "Bob", "Cy", "Dee"))
    thumb = Thumb(page)

    # On the scoreboard: "Record a hand - who went out?" -> Ann & Bob.
    thumb.tap(page.locator(".record-buttons a", has_text="Ann & Bob"))
    wait_for_hand_form(page)
    assert focused_id(page) == "sides-0-meld_points"  # the cursor waits there
    keys = 0
    for text, enters in (("130", 1), ("1", 2), ("2", 2), ("50", 0)):
        thumb.type(text)
        for _ in range(enters):  # Next: down side A's column, then to side B's top
            page.keyboard.press("Enter")
        keys += len(text) + enters
    assert focused_id(page) == "sides-1-meld_points"
    thumb.tap(page.locator("#sides-1-hand_points"))
    thumb.type("85")
    keys += 2
    expect(page.locator('output[data-preview-for="0"]')).to_have_text("+930")
    expect(page.locator('output[data-preview-for="1"]')).to_have_text("\u221235")
    assert no_sideways_scroll(page)
    assert page.evaluate("window.visualViewport.scale") == 1  # nothing zoomed in
    thumb.tap(page.get_by_role("button", name="Save hand"))
    page.wait_for_url(BOARD_URL)

    totals = page.locator(".side-total .total").all_inner_texts()
    assert totals == ["930", "−35"]
    taps = thumb.count - keys
    assert taps <= TAP_BUDGET, taps
    assert thumb.scrolls == 0
    print(f"typical hand at {width} px: {taps} taps, {keys} keys")
