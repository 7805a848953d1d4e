"""A whole game on a phone (390 x 844, touch): start, record, refuse, correct, undo, win.

Every expected number is worked out from the rule book (docs/rules.md).
"""

from __future__ import annotations

from typing import Any

from phone import BOARD_URL, Thumb, no_sideways_scroll, shoot, wait_for_hand_form
from playwright.sync_api import expect

XSS = "<script>alert(1)</script>"


def board_numbers(page: Any) -> tuple[list[str], list[str]]:
    totals = page.locator(".side-total .total").all_inner_texts()
    minimums = page.locator(".side-total .minimum strong").all_inner_texts()
    return totals, minimums


def column(page: Any, index: int) -> Any:
    return page.locator(f'[data-column="{index}"]')


def type_into(thumb: Thumb, locator: Any, text: str) -> None:
    thumb.tap(locator)
    thumb.type(text)


def tools(page: Any, side: int) -> Any:
    """A side's other ways to enter it (counters, melds, a penalty), behind one control."""
    ways = page.locator("[data-other-ways]")
    if not ways.evaluate("d => d.open"):
        ways.locator("> summary").tap()
    return page.locator(f'[data-tools="{side}"]')


def more(thumb: Thumb, page: Any, side: int, label: str, times: int = 1) -> None:
    """The + of a counter's box."""
    button = tools(page, side).get_by_role("button", name=f"One more: {label}")
    for _ in range(times):
        thumb.tap(button)


def retype(thumb: Thumb, page: Any, side: int, name: str, value: int | str) -> None:
    """A box of the sheet: tapped, what it held erased, the new number typed."""
    locator = page.locator(f"#sides-{side}-{name}")
    thumb.tap(locator)
    page.keyboard.press("End")  # the caret after what the box holds, as a person puts it
    for _ in locator.input_value():
        page.keyboard.press("Backspace")
    thumb.type(str(value))


def red_threes(thumb: Thumb, page: Any, side: int, count: int) -> None:
    retype(thumb, page, side, "red_threes", count)


def save(page: Any, thumb: Thumb, name: str = "Save hand") -> None:
    assert no_sideways_scroll(page)
    thumb.tap(page.get_by_role("button", name=name))
    page.wait_for_url(BOARD_URL)
    assert no_sideways_scroll(page)


def went_out(page: Any, thumb: Thumb, side: str) -> None:
    thumb.tap(page.locator(".record-buttons a", has_text=side))
    wait_for_hand_form(page)


def test_a_whole_game_on_a_phone(page, live_server, tmp_path):
    errors: list[str] = []  # script errors and CSP refusals show up in the console
    page.on("console", lambda message: message.type == "error" and errors.append(message.text))
    page.on("pageerror", lambda error: errors.append(str(error)))
    thumb = Thumb(page)
    page.goto(live_server + "/")
    assert no_sideways_scroll(page)
    thumb.tap(page.get_by_role("link", name="New game"))
    page.wait_for_selector("form.new-game-form")
    assert no_sideways_scroll(page)
    for box, name in (
        ("#sides-0-players-0", "Ann"),
        ("#sides-0-players-1", "Bob"),
        ("#sides-1-players-0", "Cy"),
        ("#sides-1-players-1", XSS),
    ):
        type_into(thumb, page.locator(box), name)
    thumb.tap(page.get_by_role("button", name="Start the game"))
    page.wait_for_url(BOARD_URL)
    board = page.url
    assert page.locator(".side-total .side-name").all_inner_texts() == ["Ann & Bob", f"Cy & {XSS}"]
    assert page.evaluate("document.querySelectorAll('script:not([src])').length") == 0
    assert board_numbers(page) == (["0", "0"], ["50", "50"])
    assert page.locator(".dealer-next").inner_text() == "Ann"

    # Hand 1, the typical hand: A 130 + 500 + 200 + 100 = 930; B 50 - 85 = -35.
    went_out(page, thumb, "Ann & Bob")
    thumb.type("130")
    page.keyboard.press("Enter")  # the cursor walks on to the natural canastas
    thumb.type("1")
    red_threes(thumb, page, 0, 2)
    retype(thumb, page, 1, "meld_points", 50)
    type_into(thumb, page.locator("#sides-1-hand_points"), "85")
    save(page, thumb)
    assert page.locator(".flash").inner_text() == "Hand 1 saved."
    # 930 -> 50; -35 is below 0 -> 15. The deal passes to the left: Ann, Cy, Bob, Dee.
    assert board_numbers(page) == (["930", "−35"], ["50", "15"])
    assert page.locator(".dealer-next").inner_text() == "Cy"

    # Hand 2, with the card counter. B went out: melded 2 jokers, 4 aces/twos, 10 tens,
    # 6 fives = 100 + 80 + 100 + 30 = 310, a natural and a mixed canasta, one red three:
    # 310 + 500 + 300 + 100 + 100 = 1 310. A melded 60 and holds 2 tens, 3 fives = 35: 25.
    went_out(page, thumb, f"Cy & {XSS}")
    side_b = tools(page, 1)
    thumb.tap(side_b.locator("summary", has_text="Count melded cards"))
    more(thumb, page, 1, "Jokers", 2)
    type_into(thumb, side_b.locator("#sides-1-meld_twenty"), "4")
    type_into(thumb, side_b.locator("#sides-1-meld_ten"), "10")
    type_into(thumb, side_b.locator("#sides-1-meld_five"), "6")
    # The server's dry run counts them: the meld points box shows it, locked.
    expect(page.locator("#sides-1-meld_points")).to_have_value("310")
    retype(thumb, page, 1, "natural_canastas", 1)
    retype(thumb, page, 1, "mixed_canastas", 1)
    red_threes(thumb, page, 1, 1)
    type_into(thumb, page.locator("#sides-0-meld_points"), "60")
    side_a = tools(page, 0)
    thumb.tap(side_a.locator("summary", has_text="Count cards in hand"))
    type_into(thumb, side_a.locator("#sides-0-hand_ten"), "2")
    type_into(thumb, side_a.locator("#sides-0-hand_five"), "3")
    # The preview groups digits as the scoreboard does.
    expect(page.locator('output[data-preview-for="1"]')).to_have_text("+1,310")
    expect(page.locator('output[data-preview-for="0"]')).to_have_text("+25")
    save(page, thumb)
    assert board_numbers(page) == (["955", "1,275"], ["50", "50"])

    # Hand 3 is refused first: 3 + 2 red threes are more than the 4 in two packs.
    went_out(page, thumb, "Ann & Bob")
    thumb.type("130")
    retype(thumb, page, 0, "natural_canastas", 1)
    red_threes(thumb, page, 0, 3)
    retype(thumb, page, 1, "meld_points", 50)
    type_into(thumb, page.locator("#sides-1-hand_points"), "85")
    red_threes(thumb, page, 1, 2)
    thumb.tap(page.get_by_role("button", name="Save hand"))
    wait_for_hand_form(page)
    assert page.locator("#sides-1-red_threes-error").inner_text() == (
        "Red threes: at most 4 red threes in all with 2 packs"
    )
    assert page.locator("#sides-0-meld_points").input_value() == "130"  # nothing lost
    assert page.locator("#sides-1-hand_points").input_value() == "85"
    assert no_sideways_scroll(page)
    shoot(page, tmp_path, "flow-refused")
    red_threes(thumb, page, 1, 1)
    # A: 130 + 500 + 300 + 100 = 1 030 -> 1 985. B: 50 + 100 - 85 = 65 -> 1 340.
    save(page, thumb)
    assert board_numbers(page) == (["1,985", "1,340"], ["90", "50"])

    # Correct hand 1: A's canasta was mixed (300), not natural (500): A loses 200.
    thumb.tap(page.locator("#hand-1 summary"))
    thumb.tap(page.get_by_role("link", name="Correct hand 1"))
    wait_for_hand_form(page)
    assert page.locator("#sides-0-meld_points").input_value() == "130"
    retype(thumb, page, 0, "natural_canastas", 0)
    retype(thumb, page, 0, "mixed_canastas", 1)
    save(page, thumb, "Save correction")
    assert page.locator(".flash").inner_text() == "Hand 1 corrected."
    # 1 785 is past 1 500 -> 90.
    assert board_numbers(page) == (["1,785", "1,340"], ["90", "50"])

    # Undo the last hand (hand 3), after confirming.
    thumb.tap(page.get_by_role("link", name="Undo last hand"))
    page.wait_for_selector("form.confirm-form")
    assert page.locator("h1").inner_text() == "Undo hand 3?"
    assert no_sideways_scroll(page)
    thumb.tap(page.get_by_role("button", name="Yes, undo it"))
    page.wait_for_url(BOARD_URL)
    # Hand 1 corrected (730) + hand 2 (25) = 755; B: -35 + 1 310 = 1 275.
    assert board_numbers(page) == (["755", "1,275"], ["50", "50"])
    assert page.locator(".hand-row").count() == 2

    # Play to a win: A goes out with 600 melded, 3 natural canastas and all 4 red threes:
    # 600 + 1 500 + 800 + 100 = 3 000. B melds 50 and holds 20: +30.
    for totals, minimums in ((["3,755", "1,305"], ["120", "50"]), (["6,755", "1,335"], None)):
        went_out(page, thumb, "Ann & Bob")
        thumb.type("600")
        retype(thumb, page, 0, "natural_canastas", 3)
        red_threes(thumb, page, 0, 4)
        retype(thumb, page, 1, "meld_points", 50)
        type_into(thumb, page.locator("#sides-1-hand_points"), "20")
        save(page, thumb)
        assert page.locator(".side-total .total").all_inner_texts() == totals
        if minimums:
            assert board_numbers(page)[1] == minimums
    assert page.locator(".banner.win").inner_text().startswith("Winner: Ann & Bob")
    assert page.locator(".record-buttons").count() == 0
    shoot(page, tmp_path, "flow-won")
    assert page.goto(board).ok
    # The refused hand answers 422 on purpose; anything else in the console is a bug.
    assert [e for e in errors if not e.startswith("Failed to load resource")] == []


def test_a_hand_without_javascript(make_page, live_server):
    """No steppers, no preview: plain boxes still record the hand."""
    page = make_page(javascript=False)
    page.goto(live_server + "/games/new")
    for box, name in (
        ("#sides-0-players-0", "Ann"),
        ("#sides-0-players-1", "Bob"),
        ("#sides-1-players-0", "Cy"),
        ("#sides-1-players-1", "Dee"),
    ):
        page.fill(box, name)
    page.get_by_role("button", name="Start the game").tap()
    page.wait_for_url(BOARD_URL)
    page.locator(".record-buttons a", has_text="Ann & Bob").tap()
    page.wait_for_selector("form.hand-form")
    assert page.locator(".stepper").count() == 0
    page.fill("#sides-0-meld_points", "130")
    page.fill("#sides-0-natural_canastas", "1")
    page.locator("#sides-0-red_threes").tap()
    page.keyboard.type("2")
    page.fill("#sides-1-meld_points", "50")
    page.fill("#sides-1-hand_points", "85")
    assert no_sideways_scroll(page)
    page.get_by_role("button", name="Save hand").tap()
    page.wait_for_url(BOARD_URL)
    assert page.locator(".side-total .total").all_inner_texts() == ["930", "−35"]
    page.get_by_role("link", name="Undo last hand").tap()
    page.get_by_role("button", name="Yes, undo it").tap()
    page.wait_for_url(BOARD_URL)
    assert page.locator(".side-total .total").all_inner_texts() == ["0", "0"]
