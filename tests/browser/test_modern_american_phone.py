"""Issue 31: an evening of Modern American Canasta on a phone at 360 x 780, JavaScript on and
off: the game chosen on the new-game form, the board showing it (its target 8 500, its
minimum 125), a real hand typed with both sides filled in the one-screen grid, the preview's
figures the engine's, and the board's totals.

The numbers are the issue's worked examples: a natural canasta of kings (70 + 500) and a
canasta of sevens (35 + 2 500), two red threes (300) and a black three (100), out (100), the
partner holding a queen (-10): 3 595; the other side, no canasta, 90 melded, two red threes,
40 in hand: -90 - 300 - 40 = -430. Both melded under the minimum of 125: the table confirms.
"""

from __future__ import annotations

from typing import Any

import pytest
from phone import BOARD_URL, Thumb, no_sideways_scroll, shoot, wait_for_hand_form

WIDTH, HEIGHT = 360, 780
VARIANT = "Modern American (2 teams)"
US = {
    "meld_points": "105",
    "canastas_natural": "1",
    "canastas_sevens": "1",
    "red_threes": "2",
    "black_threes": "1",
    "hand_points": "10",
}
THEM = {"meld_points": "90", "red_threes": "2", "hand_points": "40"}


def start(page: Any, live_server: str, javascript: bool) -> None:
    page.goto(live_server + "/games/new")
    page.select_option("#profile", label=VARIANT)
    if not javascript:  # the seats of the chosen variant, shown by the server
        page.get_by_role("button", name="Show the boxes for this seating").tap()
        page.wait_for_selector("form.new-game-form")
    for box, name in (
        ("#sides-0-players-0", "Ann"),
        ("#sides-0-players-1", "Bob"),
        ("#sides-1-players-0", "Cy"),
        ("#sides-1-players-1", "Dee"),
    ):
        page.locator(box).tap()
        page.keyboard.type(name)
    page.get_by_role("button", name="Start the game").tap()
    page.wait_for_url(BOARD_URL)


def fill(page: Any, thumb: Thumb, side: int, boxes: dict[str, str]) -> None:
    for name, text in boxes.items():
        box = page.locator(f"#sides-{side}-{name}")
        box.scroll_into_view_if_needed()
        thumb.tap(box)
        thumb.type(text)


@pytest.mark.parametrize("javascript", [True, False], ids=["js", "no-js"])
def test_a_modern_american_hand_from_the_new_game_form_to_the_board(
    make_page: Any, live_server: str, javascript: bool
) -> None:
    page = make_page(width=WIDTH, height=HEIGHT, javascript=javascript)
    start(page, live_server, javascript)
    head = page.locator(".page-head").inner_text()
    assert "Modern American" in head and "8,500" in head
    assert page.locator(".side-total .minimum strong").all_inner_texts() == ["125", "125"]
    assert no_sideways_scroll(page)

    thumb = Thumb(page)
    thumb.tap(page.locator(".record-buttons a", has_text="Ann & Bob"))
    page.wait_for_url("**/hands/new?out=*")
    if javascript:
        wait_for_hand_form(page)
    # The family's questions, from its hand schema: canastas by kind, threes of both colours,
    # unfinished melds, players holding, a special hand.
    for name in (
        "canastas_sevens",
        "canastas_aces",
        "black_threes",
        "unfinished_sevens",
        "players_holding_aces",
        "special_hand",
    ):
        assert page.locator(f"#sides-0-{name}").count() == 1, name
    assert page.locator("#sides-0-natural_canastas").count() == 0
    fill(page, thumb, 0, US)
    fill(page, thumb, 1, THEM)
    assert no_sideways_scroll(page)
    if javascript:
        # The preview is the server's dry run: the engine's figures, before Save.
        page.wait_for_function(
            """() => [...document.querySelectorAll('output[data-preview-for]')]
                .map(o => o.textContent).join('|') === '+3,595|\u2212430'"""
        )
        # (The part-by-part table is folded: its words are read, not its layout.)
        black = page.locator("[data-parts-body] tr[data-part='black_threes'] td")
        assert [cell.text_content() for cell in black.all()] == [
            "+100",
            "",
        ]  # the other side has none
    shoot(page, None, f"ma-hand-{'js' if javascript else 'no-js'}", full=True)
    page.get_by_role("button", name="Save hand").tap()
    page.get_by_role("button", name="Record it anyway").tap()
    page.wait_for_url(BOARD_URL)
    assert page.locator(".side-total .total").all_inner_texts() == ["3,595", "−430"]
    # 3 595 is past 3 000: 155; below 0: 125.
    assert page.locator(".side-total .minimum strong").all_inner_texts() == ["155", "125"]
    shoot(page, None, f"ma-board-{'js' if javascript else 'no-js'}", full=True)
