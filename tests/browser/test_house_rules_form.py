"""A game with the house rules of issue 22, created through the form on a 360 px phone."""

from __future__ import annotations

from typing import Any

from phone import BOARD_URL, Thumb, no_sideways_scroll


def test_a_game_with_house_rules_through_the_form_at_360_px(make_page, live_server, tmp_path):
    page: Any = make_page(width=360, height=780, javascript=True)
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    thumb = Thumb(page)
    page.goto(live_server + "/games/new")
    thumb.tap(page.locator("summary", has_text="House rules"))
    rules = page.locator("details.house-rules-form")
    # The rule book's ways are chosen until a chip is tapped.
    assert rules.locator("input[name=tie]:checked").input_value() == "play_on"
    assert rules.locator("input[name=red_threes_count_against]:checked").input_value() == "no_meld"
    thumb.tap(rules.locator("label.chip", has_text="the side that went out wins"))
    thumb.tap(rules.locator("label.chip", has_text="a side without a canasta"))
    assert rules.locator("input[name=tie]:checked").input_value() == "went_out_wins"
    assert no_sideways_scroll(page)
    page.screenshot(path=str(tmp_path / "house-rules-form.png"), full_page=True)
    # At 200 % text (the phone's font size setting) the long chips wrap, nothing overflows.
    page.evaluate("document.documentElement.style.fontSize = '200%'")
    assert no_sideways_scroll(page)
    rules.screenshot(path=str(tmp_path / "house-rules-form-200.png"))
    page.evaluate("document.documentElement.style.fontSize = ''")
    for box, name in (
        ("#sides-0-players-0", "Ann"),
        ("#sides-0-players-1", "Bob"),
        ("#sides-1-players-0", "Cy"),
        ("#sides-1-players-1", "Di"),
    ):
        thumb.tap(page.locator(box))
        thumb.type(name)
    thumb.tap(page.get_by_role("button", name="Start the game"))
    page.wait_for_url(BOARD_URL)
    shown = page.locator(".house-rules dl").inner_text()
    assert "A tie at the top" in shown and "the side that went out wins" in shown
    assert "Red threes count against" in shown and "a side without a canasta" in shown
    assert no_sideways_scroll(page)
    page.screenshot(path=str(tmp_path / "house-rules-board.png"), full_page=True)
    assert errors == []
