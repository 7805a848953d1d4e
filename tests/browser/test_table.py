"""Issue 13, the table test at 360 x 780: large text, long names, Enter, the record bar.

Large text is made the way a browser's text-size setting makes it: the root font size is
set to 200 % (``html.style.fontSize = "200%"``), so every size given in rem/em doubles while the
viewport stays 360 px, as with Chrome's "font size" setting. (Page zoom would shrink the
viewport instead and test nothing new.)
"""

from __future__ import annotations

from typing import Any

import pytest
from phone import (
    BOARD_URL,
    no_sideways_scroll,
    record_buttons_problems,
    shoot,
    start_game,
    wait_for_hand_form,
)
from playwright.sync_api import expect

WIDTH, HEIGHT = 360, 780
# Set through the CSSOM: the app's CSP (style-src 'self') refuses an added <style>.
LARGE_TEXT = "document.documentElement.style.fontSize = '200%'"
# Names as long as the new-game form allows (40 characters), with and without spaces.
LONG_NAMES = (
    "Grandmother Josephine Alexandra Whitmore",
    "Grandfather Bartholomew Maximilian Smith",
    "Aunt Wilhelmina Theodora Featherstonehau",
    "Bartholomewmaximiliancharlesfrederickson",
    "Uncle Maximilian Augustus Charlesworthys",
    "Cousin Evangeline Rosalind Montgomeryyyy",
)

# Each total inside its card, and no box narrower than what it holds.
CLIPPED = """
() => Array.from(document.querySelectorAll('.total, .preview output, .minimum strong'))
  .filter(el => el.getClientRects().length)
  .filter(el => {
    const card = el.closest('.side-total, .preview').getBoundingClientRect();
    const r = el.getBoundingClientRect();
    return el.scrollWidth > el.clientWidth + 1
      || r.left < card.left - 0.5 || r.right > card.right + 0.5;
  })
  .map(el => el.className + ' ' + el.textContent)
"""
HEADER_FITS = "document.querySelector('.top').scrollWidth <= window.innerWidth"
SLIVERS = """
() => Array.from(document.querySelectorAll('.stepper input'))
  .filter(el => el.getClientRects().length && el.getBoundingClientRect().width < 40)
  .map(el => el.id)
"""


SOLO_PROFILE = {2: "two-player", 3: "three-player", 4: "classic", 5: "five-player", 6: "six-player"}


def api_game(app: Any, players: list[list[str]], **extra: Any) -> str:
    if all(len(p) == 1 for p in players):
        extra.setdefault("profile", SOLO_PROFILE[len(players)])
    response = app.test_client().post(
        "/api/games", json={"sides": [{"players": p} for p in players], **extra}
    )
    assert response.status_code == 201, response.json
    return response.json["id"]


def api_hand(app: Any, game_id: str, sides: list[dict[str, int]]) -> None:
    empty = {"meld_points": 0, "natural_canastas": 0, "mixed_canastas": 0, "red_threes": 0}
    body = {"went_out": None, "concealed": False, "sides": [{**empty, **s} for s in sides]}
    response = app.test_client().post(f"/api/games/{game_id}/hands", json=body)
    assert response.status_code == 201, response.json


def deep_in_the_red(app: Any) -> str:
    """A game where side B is at -99,995: 50 hands of -1,980 (cards left, red threes
    without a meld) and one of -995; side A stays at 0."""
    game_id = api_game(app, [["Ann", "Bob"], ["Cy", "Dee"]], target=20000)
    for _ in range(50):
        api_hand(app, game_id, [{"hand_points": 0}, {"hand_points": 1180, "red_threes": 4}])
    api_hand(app, game_id, [{"hand_points": 0}, {"hand_points": 995}])
    return game_id


# A phone page widens its layout viewport to fit what overflows (window.innerWidth
# grows with it), so the page is compared with the screen's own width.
FITS_SCREEN = f"document.documentElement.scrollWidth <= {WIDTH} && window.innerWidth <= {WIDTH}"
WIDE = f"""() => Array.from(document.querySelectorAll('body *'))
  .filter(el => el.getBoundingClientRect().right > {WIDTH} + 0.5)
  .map(el => el.tagName + '.' + el.className + '#' + el.id).slice(0, 8)"""


def check_screen(page: Any, name: str) -> None:
    assert no_sideways_scroll(page), name
    assert page.evaluate(FITS_SCREEN), (name, page.evaluate(WIDE))
    assert page.evaluate(HEADER_FITS), name
    assert page.evaluate(CLIPPED) == [], name
    assert page.evaluate(SLIVERS) == [], name


def widest_totals(page: Any) -> None:
    """The widest totals a game can show, written into every card (the CSS must hold them)."""
    page.evaluate(
        """() => document.querySelectorAll('.total').forEach((el, i) =>
             el.textContent = i % 2 ? '\\u221299,999' : '99,999')"""
    )


@pytest.mark.parametrize("large", [False, True], ids=["normal-text", "text-200"])
def test_every_screen_fits_360_px(make_page, live_server, live_app, large):
    page = make_page(width=WIDTH, height=HEIGHT)
    board = start_game(page, live_server, ("Ann", "Bob", "Cy", "Dee"))  # listed at home
    red = live_server + "/games/" + deep_in_the_red(live_app)
    solo = live_server + "/games/" + api_game(live_app, [[n] for n in LONG_NAMES[:3]])
    suffix = "200" if large else "100"
    for name, url in (
        ("home", live_server + "/"),
        ("new", live_server + "/games/new"),
        ("board", board),
        ("board-red", red),
        ("board-three", solo),
        ("hand", board + "/hands/new?out=0"),
        ("hand-three", solo + "/hands/new?out=1"),
    ):
        page.goto(url)
        if large:
            page.evaluate(LARGE_TEXT)
        if name.startswith("hand"):
            wait_for_hand_form(page)
            page.evaluate("document.querySelectorAll('details').forEach(d => d.open = true)")
        if name == "board-red":
            assert "\u221299,995" in page.locator(".total").all_inner_texts() or (
                "-99,995" in page.locator(".total").all_inner_texts()
            )
        check_screen(page, f"{name}-{suffix}")
        shoot(page, None, f"{name}-{suffix}")
        if name.startswith("board"):
            widest_totals(page)
            check_screen(page, f"{name}-widest-{suffix}")


def test_enter_goes_to_the_next_visible_box(make_page, live_server):
    page = make_page(width=WIDTH, height=HEIGHT)
    board = start_game(page, live_server, ("Ann", "Bob", "Cy", "Dee"))
    page.goto(board + "/hands/new?out=0")
    wait_for_hand_form(page)
    page.locator("#sides-0-meld_points").focus()
    for key in ("3", "2", "0", "Enter", "1"):  # as a person types it
        page.keyboard.press(key)
    assert page.input_value("#sides-0-meld_points") == "320"
    assert page.input_value("#sides-0-natural_canastas") == "1"  # the sheet's next row
    assert page.evaluate("document.activeElement.id") == "sides-0-natural_canastas"


def test_the_card_counter_and_the_points_box_show_one_value(make_page, live_server):
    page = make_page(width=WIDTH, height=HEIGHT)
    board = start_game(page, live_server, ("Ann", "Bob", "Cy", "Dee"))
    page.goto(board + "/hands/new?out=none")
    wait_for_hand_form(page)
    page.fill("#sides-0-meld_points", "300")
    page.locator("[data-other-ways] > summary").tap()
    side = page.locator('[data-tools="0"]')
    side.locator("[data-counter=meld] summary").tap()
    # The opened counter waits in its first box, on the details' toggle event: waited for,
    # or the focus it moves can take the 7 typed below into the jokers (350, seen in CI).
    expect(page.locator("#sides-0-meld_jokers")).to_be_focused()
    assert page.input_value("#sides-0-meld_points") == "300"  # nothing counted yet
    page.fill("#sides-0-meld_ten", "7")
    expect(page.locator("#sides-0-meld_points")).to_have_value("70")  # the counter decides
    assert page.locator("#sides-0-meld_points").evaluate("el => el.readOnly")
    page.fill("#sides-0-meld_ten", "")
    expect(page.locator("#sides-0-meld_points")).to_have_value("300")  # typed value is back
    page.fill("#sides-0-meld_ten", "7")
    page.get_by_role("button", name="Save hand").tap()
    page.wait_for_url(BOARD_URL)
    assert page.locator(".side-total .total").first.inner_text() == "70"


def test_the_preview_shows_each_part(make_page, live_server):
    """820 typed with a natural canasta: the preview shows the bonus twice before saving."""
    page = make_page(width=WIDTH, height=HEIGHT)
    board = start_game(page, live_server, ("Ann", "Bob", "Cy", "Dee"))
    page.goto(board + "/hands/new?out=0")
    wait_for_hand_form(page)
    page.fill("#sides-0-meld_points", "820")
    page.fill("#sides-0-natural_canastas", "1")
    expect(page.locator('output[data-preview-for="0"]')).to_have_text("+1,420")
    page.locator("[data-parts] > summary").tap()
    rows = page.locator("[data-parts-body] tr")
    assert [r.split("\t")[0] for r in rows.all_inner_texts()] == ["Cards", "Canastas", "Going out"]
    assert rows.nth(0).locator("td").first.inner_text() == "+820"
    assert rows.nth(1).locator("td").first.inner_text() == "+500"


def test_nobody_cannot_go_out_concealed(make_page, live_server):
    page = make_page(width=WIDTH, height=HEIGHT)
    board = start_game(page, live_server, ("Ann", "Bob", "Cy", "Dee"))
    page.goto(board + "/hands/new?out=0")
    wait_for_hand_form(page)
    page.check("#concealed")
    page.locator(".nobody-chip").tap()  # Nobody: the stock ran out
    assert page.locator("#concealed").is_disabled()
    assert not page.locator("#concealed").is_checked()
    page.locator(".went-chip").first.tap()
    assert page.locator("#concealed").is_enabled()


WHOLE = """
sel => Array.from(document.querySelectorAll(sel)).map(el => [el.textContent.trim(),
  el.scrollWidth <= el.clientWidth + 1 && el.scrollHeight <= el.clientHeight + 1])
"""


@pytest.mark.parametrize("sides", [3, 4, 6])
def test_whole_names_in_who_went_out(make_page, live_server, live_app, sides):
    page = make_page(width=WIDTH, height=HEIGHT)
    names = list(LONG_NAMES[:sides])
    board = live_server + "/games/" + api_game(live_app, [[n] for n in names])
    page.goto(board)
    shoot(page, None, f"record-bar-{sides}")
    assert page.evaluate(WHOLE, ".record-buttons .button")[:sides] == [[n, True] for n in names]
    page.goto(board + "/hands/new")
    wait_for_hand_form(page)
    shoot(page, None, f"who-went-out-{sides}")
    assert page.evaluate(WHOLE, ".side-head .side-name") == [[n, True] for n in names]
    assert page.evaluate(FITS_SCREEN)


def test_whole_team_names_in_who_went_out(make_page, live_server, live_app):
    """Six players in three teams: each team is called by its two players, both whole
    (issue 28 point 6: no longer cut at 40 characters)."""
    page = make_page(width=WIDTH, height=HEIGHT)
    pairs = [list(LONG_NAMES[i : i + 2]) for i in (0, 2, 4)]
    board = live_server + "/games/" + api_game(live_app, pairs, profile="six-player")
    page.goto(board + "/hands/new")
    wait_for_hand_form(page)
    chips = page.evaluate(WHOLE, ".side-head .side-name")[:3]
    assert [c[0] for c in chips] == [" & ".join(p) for p in pairs]
    assert all(whole for _, whole in chips)


@pytest.mark.parametrize("sides", [4, 6])
def test_the_record_bar_leaves_the_board_visible(make_page, live_server, live_app, sides):
    """Issue 20 made the buttons wrap (never scroll sideways): with the longest names the bar
    grows (300 to 400 px), and still leaves the top of the board in view."""
    page = make_page(width=WIDTH, height=HEIGHT)
    board = live_server + "/games/" + api_game(live_app, [[n] for n in LONG_NAMES[:sides]])
    page.goto(board)
    bar = page.locator(".record-bar").bounding_box()
    assert bar["height"] <= HEIGHT * 0.6, bar
    assert page.locator("h1").bounding_box()["y"] < bar["y"] - 100  # the board shows above it
    assert record_buttons_problems(page) == []
    assert page.evaluate(FITS_SCREEN)
