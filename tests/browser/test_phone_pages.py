"""Phone-size checks of the pages: tap targets, three teams, the variant switch."""

from __future__ import annotations

import pytest
from phone import BOARD_URL, no_sideways_scroll, start_game, wait_for_hand_form

# Links inside a sentence are exempt (WCAG 2.5.8); everything else a finger aims at counts.
SMALL_TARGETS = """
() => Array.from(document.querySelectorAll(
    'a, button, input:not([type=hidden]), select, summary, label.chip span, .check-label'
  ))
  .filter(el => !el.closest('p.meta, p.hint, .rulebook p, .rulebook li, .rulebook td'))
  .filter(el => !(el.matches('.chip input, .check-label input')))
  // not a target: hidden from sight and from touch (the hand form's Enter-key default button)
  .filter(el => !el.closest('.visually-hidden, [aria-hidden=true]'))
  .filter(el => el.getClientRects().length && getComputedStyle(el).visibility !== 'hidden')
  .map(el => [el.outerHTML.slice(0, 80), el.getBoundingClientRect()])
  .filter(([, r]) => r.width > 0 && (r.height < 44 || r.width < 44))
  .map(([html, r]) => `${html} ${Math.round(r.width)}x${Math.round(r.height)}`)
"""


@pytest.mark.parametrize("width", [360])
def test_tap_targets_are_big_enough(make_page, live_server, width):
    page = make_page(width=width)
    board = start_game(page, live_server, ("Ann", "Bob", "Cy", "Dee"))
    page.goto(board + "/hands/new?out=0")
    page.fill("#sides-0-meld_points", "130")
    page.fill("#sides-0-natural_canastas", "1")
    page.fill("#sides-1-meld_points", "50")
    page.get_by_role("button", name="Save hand").tap()
    page.wait_for_url(BOARD_URL)
    for path in (
        "/",
        "/games/new",
        board.removeprefix(live_server),
        board.removeprefix(live_server) + "/hands/new?out=1",
        board.removeprefix(live_server) + "/hands/1/edit",
        board.removeprefix(live_server) + "/undo",
        board.removeprefix(live_server) + "/delete",
    ):
        page.goto(live_server + path)
        page.evaluate("document.querySelectorAll('details').forEach(d => d.open = true)")
        assert page.evaluate(SMALL_TARGETS) == [], path
        assert no_sideways_scroll(page), path


def test_three_teams_fit_a_small_phone(make_page, live_server):
    """Six players in three teams: three columns of the hand form, still nothing sideways."""
    page = make_page(width=360)
    page.goto(live_server + "/games/new")
    page.select_option("#profile", "six-player")  # three teams of two: their boxes show
    names = iter(("Ann", "Bob", "Cy", "Dee", "Eve", "Fay"))
    for side in range(3):
        for seat in range(2):
            page.fill(f"#sides-{side}-players-{seat}", next(names))
    page.get_by_role("button", name="Start the game").tap()
    page.wait_for_url(BOARD_URL)
    assert page.locator(".side-total").count() == 3
    # 0 to 1 495 -> 50 for every team; six players keep their own rules (3 packs).
    assert page.locator(".side-total .minimum strong").all_inner_texts() == ["50"] * 3
    assert no_sideways_scroll(page)
    page.locator(".record-buttons a").nth(2).tap()
    page.wait_for_selector("form.hand-form")
    assert page.locator(".side-cells").count() == 3
    assert page.locator("#sides-0-red_threes").count() == 1  # a box: 0 to 6 typed
    page.evaluate("document.querySelectorAll('details').forEach(d => d.open = true)")
    assert page.evaluate(SMALL_TARGETS) == []
    assert no_sideways_scroll(page)


def test_another_variant_brings_its_own_house_rules(make_page, live_server):
    """Choosing six players shows their values; untouched, they are no house rule."""
    page = make_page()
    page.goto(live_server + "/games/new")
    page.tap("summary:has-text('House rules')")
    assert page.input_value("#canastas_to_go_out") == "1"
    page.fill("#going_out", "150")  # the table's own going-out bonus
    page.select_option("#profile", "six-player")
    # Rule book, section 3: six players need 2 canastas; all 6 red threes score 1 200.
    assert page.input_value("#canastas_to_go_out") == "2"
    assert page.input_value("#all_red_threes") == "1200"
    assert page.input_value("#going_out") == "150"  # a changed value stays
    names = iter(("Ann", "Bob", "Cy", "Dee", "Eve", "Fay"))
    for side in range(3):
        for seat in range(2):
            page.fill(f"#sides-{side}-players-{seat}", next(names))
    page.get_by_role("button", name="Start the game").tap()
    page.wait_for_url(BOARD_URL)
    rules = page.locator(".house-rules dl").inner_text()
    assert "Going-out bonus" in rules and "150" in rules
    assert "Canastas needed" not in rules


def test_enter_moves_on_to_the_next_side_once_this_one_is_walked(make_page, live_server):
    """The sheet's reading order: Enter walks a side's boxes, then the next side's."""
    page = make_page()
    board = start_game(page, live_server, ("Ann", "Bob", "Cy", "Dee"))
    page.goto(board + "/hands/new?out=0")
    wait_for_hand_form(page)
    page.keyboard.type("130")
    for _ in range(4):  # canastas, mixed, red threes, in hand
        page.keyboard.press("Enter")
        assert page.evaluate("document.activeElement.id").startswith("sides-0-")
    page.keyboard.press("Enter")
    assert page.evaluate("document.activeElement.id") == "sides-1-meld_points"
