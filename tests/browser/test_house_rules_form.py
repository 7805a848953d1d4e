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
    tie = page.get_by_label("A tie at the top")
    against = page.get_by_label("Red threes count against")
    assert tie.input_value() == "play_on" and against.input_value() == "no_meld"
    tie.select_option(label="the side that went out wins")
    against.select_option(label="a side without a canasta")
    assert no_sideways_scroll(page)
    page.screenshot(path=str(tmp_path / "house-rules-form.png"), full_page=True)
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
    rules = page.locator(".house-rules dl").inner_text()
    assert "A tie at the top" in rules and "the side that went out wins" in rules
    assert "Red threes count against" in rules and "a side without a canasta" in rules
    assert no_sideways_scroll(page)
    page.screenshot(path=str(tmp_path / "house-rules-board.png"), full_page=True)
    assert errors == []
