"""Issue 28: a hand on one screen like the paper sheet, played as a person does at 360 x 780.

- every box of a typed hand, who went out and Save on screen at once, JavaScript on and off;
- Enter (the keyboard's "Next") walks every side in reading order and ends on Save, the
  focused box never under the sticky Save bar;
- Cancel drops the draft; a draft brought back after a reload says so, with "Discard" in the
  reader's language, and never overrides the side just tapped on the board;
- a refused save opens with its message and its box on the first screen, the box focused;
- the preview is the server's verdict before Save (a dry run), and says offline that it
  cannot check;
- at 200 % text the board's first screen shows both totals and minimums, its record bar at
  most a fifth of the screen, and the form's focused box is clear of the Save bar.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from phone import BOARD_URL, Thumb, large_text, on_screen, shoot, wait_for_hand_form
from playwright.sync_api import expect
from test_table import api_game

WIDTH, HEIGHT = 360, 780
TEAMS = [["Agnès Moreau", "Bill O'Connor"], ["Cy", "Dee"]]
QUESTIONS = (
    "meld_points",
    "natural_canastas",
    "mixed_canastas",
    "red_threes",
    "hand_points",
)
DISCARD = {"en-GB": "Discard", "fr-FR": "Effacer", "es-ES": "Descartar"}
CANNOT_CHECK = {
    "en-GB": "cannot be checked",
    "fr-FR": "ne peut pas être vérifiée",
    "es-ES": "no se puede comprobar",
}


def board(make_page: Any, live_server: str, live_app: Any, **page: Any) -> tuple[Any, str]:
    """A phone on a new game's scoreboard (the longest names of the issue's evening)."""
    game_id = api_game(live_app, TEAMS)
    phone = make_page(width=WIDTH, height=HEIGHT, **page)
    phone.goto(f"{live_server}/games/{game_id}")
    return phone, game_id


def tap_side(page: Any, thumb: Thumb, index: int, javascript: bool = True) -> None:
    """The board's record bar: a tap on who went out opens the form."""
    thumb.tap(page.locator(".record-buttons a").nth(index))
    page.wait_for_url("**/hands/new?out=*")
    if javascript:
        wait_for_hand_form(page)
    else:
        page.wait_for_selector("form[data-preview] .hand-grid")


def focused(page: Any) -> str:
    return page.evaluate("(el => el.id || el.className || el.tagName)(document.activeElement)")


def checks(page: Any) -> int:
    """How many dry runs the form has had answered."""
    return int(page.locator("form[data-preview]").get_attribute("data-checked") or 0)


def wait_for_verdict(page: Any, after: int) -> str:
    """The verdict of the first dry run after `after`, as shown by the Save bar."""
    # The answer counted and its words shown: a loaded machine can count a stale answer (to
    # the first keys typed) a moment before the last one's words are in the bar.
    page.wait_for_function(
        """n => Number(document.querySelector('form[data-preview]').dataset.checked || 0) > n
            && document.querySelector('[data-verdict]').textContent.trim() !== ''""",
        arg=after,
    )
    return page.locator("[data-verdict]").inner_text()


def under_the_save_bar(page: Any) -> bool:
    """The focused box is hidden, wholly or partly, by the Save bar stuck to the foot."""
    return bool(
        page.evaluate(
            """() => {
      const box = document.activeElement.getBoundingClientRect();
      const bar = document.querySelector('.form-actions').getBoundingClientRect();
      return box.bottom > bar.top + 0.5 || box.top < 0;
    }"""
        )
    )


@pytest.mark.parametrize("javascript", [True, False], ids=["js", "no-js"])
def test_a_typed_hand_is_one_screen_from_board_to_board(
    make_page, live_server, live_app, javascript
):
    """Both sides filled: every box, who went out and Save on screen at once; the boxes typed
    where they are, Save; the board shows the totals. No swipe."""
    page, _ = board(make_page, live_server, live_app, javascript=javascript)
    thumb = Thumb(page)
    tap_side(page, thumb, 0, javascript)
    sheet = page.locator(".hand-grid input, .went-more input, .form-actions button.big")
    assert sheet.count() == 2 * len(QUESTIONS) + 2 + 2 + 1  # boxes, out x 3, concealed, Save
    assert [b for b in sheet.all() if not on_screen(page, b)] == []
    shoot(page, None, f"sheet-{'js' if javascript else 'no-js'}", full=False)
    for box, text in (
        ("sides-0-meld_points", "130"),
        ("sides-0-natural_canastas", "1"),
        ("sides-0-red_threes", "2"),
        ("sides-1-meld_points", "50"),
        ("sides-1-hand_points", "85"),
    ):
        thumb.tap(page.locator(f"#{box}"))
        thumb.type(text)
    thumb.tap(page.get_by_role("button", name="Save hand"))
    page.wait_for_url(BOARD_URL)
    assert page.locator("[data-total]").all_inner_texts() == ["930", "−35"]
    assert thumb.scrolls == 0


def test_enter_walks_every_side_in_reading_order_and_ends_on_save(make_page, live_server, live_app):
    page, _ = board(make_page, live_server, live_app)
    thumb = Thumb(page)
    tap_side(page, thumb, 1)
    walked = [focused(page)]
    for _ in range(2 * len(QUESTIONS)):
        assert not under_the_save_bar(page), walked[-1]
        page.keyboard.press("Enter")
        walked.append(focused(page))
    expected = [f"sides-{side}-{name}" for side in (0, 1) for name in QUESTIONS]
    assert walked[:-1] == expected
    assert page.evaluate("document.activeElement.textContent.trim()") == "Save hand"
    assert page.url.endswith("/hands/new?out=1")  # nothing sent on the way


@pytest.mark.parametrize("locale", DISCARD)
def test_cancel_drops_the_draft_and_the_tapped_side_wins(make_page, live_server, live_app, locale):
    """The issue's trap: 180 and a canasta typed for one side, Cancel, a tap on the other
    side: a fresh form for that side. A reload brings a draft back, said so, with Discard."""
    page, _ = board(make_page, live_server, live_app, locale=locale)
    thumb = Thumb(page)
    tap_side(page, thumb, 0)
    thumb.type("180")
    page.keyboard.press("Enter")
    thumb.type("1")
    thumb.tap(page.locator(".form-actions a.quiet"))  # Cancel
    page.wait_for_url(BOARD_URL)
    tap_side(page, thumb, 1)
    assert page.input_value("#sides-0-meld_points") == ""
    assert page.input_value("#sides-0-natural_canastas") == ""
    assert page.locator('input[name="went_out"]:checked').get_attribute("value") == "1"
    assert page.locator("[data-draft-note]").count() == 0
    # A draft kept across a reload comes back, and says so.
    thumb.type("90")
    page.reload()
    wait_for_hand_form(page)
    assert page.input_value("#sides-0-meld_points") == "90"
    note = page.locator("[data-draft-note]")
    assert note.is_visible()
    thumb.tap(note.get_by_role("button", name=DISCARD[locale]))
    assert page.input_value("#sides-0-meld_points") == ""
    assert page.locator('input[name="went_out"]:checked').get_attribute("value") == "1"
    page.reload()
    wait_for_hand_form(page)
    assert page.input_value("#sides-0-meld_points") == ""  # discarded for good


@pytest.mark.parametrize("javascript", [True, False], ids=["js", "no-js"])
def test_a_refusal_opens_with_its_message_and_box_on_the_first_screen(
    make_page, live_server, live_app, javascript
):
    """Going out without a canasta: refused; the message and its box on screen, the box
    focused and clear of the Save bar."""
    page, _ = board(make_page, live_server, live_app, javascript=javascript)
    thumb = Thumb(page)
    tap_side(page, thumb, 0, javascript)
    thumb.tap(page.locator("#sides-0-meld_points"))
    thumb.type("120")
    thumb.tap(page.locator("#sides-1-hand_points"))
    thumb.type("40")
    thumb.tap(page.get_by_role("button", name="Save hand"))
    page.wait_for_selector("#form-error")
    page.wait_for_load_state("load")
    shoot(page, None, f"refused-{'js' if javascript else 'no-js'}", full=False)
    assert focused(page) == "sides-0-natural_canastas"
    assert not under_the_save_bar(page)
    # The box's own message (also under the sheet) heads the form, on screen with its box.
    message = page.locator("#sides-0-natural_canastas-error").inner_text()
    assert "canasta" in message
    banner = page.locator("#form-error")
    assert message in banner.inner_text()
    assert on_screen(page, banner)
    assert on_screen(page, page.locator("#sides-0-natural_canastas"))
    assert page.input_value("#sides-0-meld_points") == "120"  # kept as typed
    # Typed where the cursor waits, saved: the hand is recorded.
    thumb.type("1")
    thumb.tap(page.get_by_role("button", name="Save hand"))
    page.wait_for_url(BOARD_URL)


@pytest.mark.parametrize("locale", ["en-GB", "fr-FR", "es-ES"])
def test_the_preview_gives_the_servers_verdict_before_save(
    make_page, live_server, live_app, locale
):
    """The issue's +250 for a hand the server refuses: now the server's own words, before
    Save; a good hand shows its figures; offline, the form says it cannot check."""
    page, _ = board(make_page, live_server, live_app, locale=locale)
    thumb = Thumb(page)
    tap_side(page, thumb, 0)
    thumb.type("150")  # going out with no canasta
    # The answer to the last key: the one to the tap (a side that melded nothing cannot go
    # out, at its meld points) can come after the keys, on a loaded machine.
    expect(page.locator("[data-verdict-field]")).to_have_attribute("id", "sides-0-natural_canastas")
    verdict = page.locator("[data-verdict]").inner_text()
    assert "canasta" in verdict.lower()
    assert page.locator("output[data-preview-for]").all_inner_texts() == ["", ""]
    # The very words Save then gives, at the same box.
    thumb.tap(page.locator(".form-actions button.big"))
    page.wait_for_selector("#sides-0-natural_canastas-error")
    assert page.locator("#sides-0-natural_canastas-error").inner_text() == verdict
    wait_for_hand_form(page)
    # Five red threes: refused before Save too.
    thumb.tap(page.locator("#sides-0-natural_canastas"))
    thumb.type("1")
    thumb.tap(page.locator("#sides-0-red_threes"))
    thumb.type("5")
    # The answer to the last key, not one to a key before it (answers can come late): the
    # verdict waited for is the one these boxes call for.
    verdict_bar = page.locator("[data-verdict]")
    expect(verdict_bar).to_contain_text("4")  # at most 4 with two packs
    expect(verdict_bar).to_have_class("verdict refused")
    # Corrected: the server's figures (150 + 500 + 100 going out + 2 red threes 200).
    page.keyboard.press("Backspace")
    thumb.type("2")
    expect(page.locator("output[data-preview-for]").first).to_have_text(re.compile(r"^\+9\D?50$"))
    expect(verdict_bar).to_have_class("verdict ok")
    # The form says when its figures are about to change (data-checking, from a key to the
    # answer of the check it calls for): what a careful reader, or the tap bench, waits for.
    expect(page.locator("form[data-checking]")).to_have_count(0)
    assert page.evaluate(
        """() => {
      const box = document.getElementById("sides-0-red_threes");
      box.value = "3";
      box.dispatchEvent(new Event("input", { bubbles: true }));
      return document.querySelector("form[data-preview]").hasAttribute("data-checking");
    }"""
    )
    expect(page.locator("form[data-checking]")).to_have_count(0)
    expect(page.locator("output[data-preview-for]").first).to_have_text(re.compile(r"^\+1\D?050$"))
    # Offline: no verdict to give.
    page.context.set_offline(True)
    before = checks(page)
    thumb.tap(page.locator("#sides-1-hand_points"))
    thumb.type("5")
    assert CANNOT_CHECK[locale] in wait_for_verdict(page, before)
    page.context.set_offline(False)


def test_at_200_percent_the_board_shows_both_totals_and_the_form_its_box(
    make_page, live_server, live_app
):
    game_id = api_game(live_app, TEAMS)
    client = live_app.test_client()
    empty = {"meld_points": 0, "natural_canastas": 0, "mixed_canastas": 0, "red_threes": 0}
    body = {
        "went_out": 0,
        "concealed": False,
        "sides": [
            {**empty, "meld_points": 700, "natural_canastas": 1},
            {**empty, "hand_points": 75},
        ],
    }
    answer = client.post(f"/api/games/{game_id}/hands", json=body)
    assert answer.status_code == 201, answer.json
    page = make_page(width=WIDTH, height=HEIGHT)
    large_text(page)
    page.goto(f"{live_server}/games/{game_id}")
    for item in page.locator(".side-total .total, .side-total .minimum strong").all():
        assert on_screen(page, item), item.inner_text()
    bar = page.locator(".record-bar").bounding_box()
    assert bar["height"] <= HEIGHT / 5
    assert on_screen(page, page.locator(".record-buttons a").first)
    shoot(page, None, "board-200", full=False)
    thumb = Thumb(page)
    tap_side(page, thumb, 1)
    assert focused(page) == "sides-0-meld_points"
    assert not under_the_save_bar(page)
    assert page.locator(".form-actions").bounding_box()["height"] <= HEIGHT / 5
    shoot(page, None, "form-200", full=False)
    walked = 0
    while focused(page).startswith("sides-"):
        assert not under_the_save_bar(page), focused(page)
        page.keyboard.press("Enter")
        walked += 1
    assert walked == 2 * len(QUESTIONS)
