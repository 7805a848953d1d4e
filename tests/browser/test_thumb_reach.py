"""Issue 20, points 2, 3 and 6: after a save the next tap is in reach, and an offline save
says so by the save button.

Point 2: on a 360 x 780 phone, once a hand is saved, "Hand N saved." and every "who went
out?" button (each side's whole name and "Nobody") are on screen without a scroll, for two to
six sides, with a game title over three lines, at 100 % and 200 % text, JavaScript on and off.
Point 3: the record buttons wrap into rows, never scroll sideways inside their bar.
Point 6: a save without network says, by the save button, that the hand waits on the phone.
"""

from __future__ import annotations

from typing import Any

import pytest
from phone import (
    BOARD_URL,
    Watcher,
    large_text,
    record_button_names,
    record_buttons_problems,
    shoot,
    too_wide,
    wait_for_hand_form,
)
from test_table import api_game

WIDTH, HEIGHT = 360, 780
NAMES = ("Marie-Claire", "Bernadette", "Jean-Baptiste", "Guillaume", "Anne-Sophie", "Maximilien")
# A name of the game as long as the form allows: three lines of title on a phone.
TITLE = "Championnat intercommunal extraordinaire"
# Names as long as the new-game form allows (40 characters), with and without spaces.
LONG_NAMES = (
    "Grandmother Josephine Alexandra Whitmore",
    "Grandfather Bartholomew Maximilian Smith",
    "Aunt Wilhelmina Theodora Featherstonehau",
    "Bartholomewmaximiliancharlesfrederickson",
    "Uncle Maximilian Augustus Charlesworthys",
    "Cousin Evangeline Rosalind Montgomeryyyy",
)


def hands_stored(app: Any, game_id: str) -> int:
    return len(app.test_client().get(f"/api/games/{game_id}").json["hands"])


def play_a_hand(page: Any, sides: int, javascript: bool) -> None:
    """The first side goes out with 200 and two natural canastas; the others hold 50."""
    page.locator(".record-buttons .button").first.tap()
    if javascript:
        wait_for_hand_form(page)
    else:
        page.wait_for_selector("form.hand-form")
    page.fill("#sides-0-meld_points", "200")
    page.fill("#sides-0-natural_canastas", "2")
    for index in range(1, sides):
        page.fill(f"#sides-{index}-hand_points", "50")
    page.locator(".form-actions button[type=submit]").tap()
    page.wait_for_url(BOARD_URL)
    page.wait_for_load_state("load")


def assert_next_hand_in_reach(page: Any, names: list[str], number: int) -> None:
    flash = page.locator(".record-bar .flash")
    assert flash.inner_text() == f"Hand {number} saved."
    box = flash.bounding_box()
    assert box and box["y"] >= 0 and box["y"] + box["height"] <= HEIGHT, box
    assert record_button_names(page) == [*names, "Nobody"]
    assert record_buttons_problems(page) == []
    assert page.evaluate("window.scrollY") == 0  # nothing was scrolled to get there


CASES = [(n, False, True) for n in (2, 3, 4, 5, 6)]
CASES += [(2, True, True), (4, True, False), (6, True, True), (6, True, False), (3, False, False)]


@pytest.mark.parametrize(
    ("sides", "large", "javascript"),
    CASES,
    ids=[f"{n}-sides-{'200' if big else '100'}-{'js' if js else 'nojs'}" for n, big, js in CASES],
)
def test_after_a_save_the_next_hand_is_on_screen(
    make_page, live_server, live_app, tmp_path, sides, large, javascript
):
    page = make_page(width=WIDTH, height=HEIGHT, javascript=javascript)
    watcher = Watcher(page)
    if large:
        large_text(page)
    names = list(NAMES[:sides])
    game_id = api_game(live_app, [[n] for n in names], name=TITLE)
    page.goto(f"{live_server}/games/{game_id}")
    assert page.locator("h1").bounding_box()["height"] > 2.5 * 29  # three lines of title
    play_a_hand(page, sides, javascript)
    shoot(page, tmp_path, f"saved-{sides}", full=False)
    assert hands_stored(live_app, game_id) == 1
    assert_next_hand_in_reach(page, names, 1)
    assert too_wide(page) == []
    assert watcher.problems == []


@pytest.mark.parametrize("large", [False, True], ids=["100", "200"])
def test_a_four_player_team_game_after_a_save(make_page, live_server, live_app, large):
    """Two teams of two: the buttons carry the teams' names, whole."""
    page = make_page(width=WIDTH, height=HEIGHT)
    if large:
        large_text(page)
    game_id = api_game(live_app, [["Marie", "Bernadette"], ["Guillaume", "Jean"]], name=TITLE)
    page.goto(f"{live_server}/games/{game_id}")
    play_a_hand(page, 2, javascript=True)
    assert_next_hand_in_reach(page, ["Marie & Bernadette", "Guillaume & Jean"], 1)


@pytest.mark.parametrize("sides", [2, 4, 6])
def test_the_record_buttons_wrap_rather_than_scroll(make_page, live_server, live_app, sides):
    """Point 3: the longest names the form allows; every button whole, none off screen."""
    page = make_page(width=WIDTH, height=HEIGHT)
    names = list(LONG_NAMES[:sides])
    page.goto(f"{live_server}/games/{api_game(live_app, [[n] for n in names])}")
    assert record_button_names(page) == [*names, "Nobody"]
    assert record_buttons_problems(page) == []
    assert too_wide(page) == []


def test_an_offline_save_says_so_by_the_save_button(make_page, live_server, live_app, tmp_path):
    """Point 6: no network at Save: the form says, by its button, that the hand waits."""
    page = make_page(width=WIDTH, height=HEIGHT)
    game_id = api_game(live_app, [["Ann"], ["Bob"]])
    page.goto(f"{live_server}/games/{game_id}/hands/new?out=0")
    wait_for_hand_form(page)
    page.fill("#sides-0-meld_points", "200")
    page.fill("#sides-0-natural_canastas", "2")
    page.fill("#sides-1-hand_points", "50")
    save = page.locator(".form-actions button[type=submit]")
    page.context.set_offline(True)
    save.tap()
    note = page.locator(".form-actions [data-outbox-note]")
    note.wait_for()
    assert "waits on this phone" in note.inner_text()
    # Beside the save button, on screen, where the thumb just was.
    box, button = note.bounding_box(), save.bounding_box()
    assert box["y"] + box["height"] <= HEIGHT and box["y"] >= 0
    assert abs(box["y"] - button["y"]) < 200
    assert page.locator("form.hand-form").get_attribute("aria-busy") == "true"
    assert "Waiting" in save.inner_text()
    shoot(page, tmp_path, "offline-save", full=False)
    assert hands_stored(live_app, game_id) == 0
    page.context.set_offline(False)
    page.evaluate("window.dispatchEvent(new Event('online'))")
    page.wait_for_url(BOARD_URL)
    assert page.locator(".record-bar .flash").inner_text() == "Hand 1 saved."
    assert hands_stored(live_app, game_id) == 1


def test_a_board_without_a_save_keeps_its_messages_on_top(make_page, live_server, live_app):
    """A finished game has no record bar: its messages stay at the top, as before."""
    page = make_page(width=WIDTH, height=HEIGHT)
    game_id = api_game(live_app, [["Ann"], ["Bob"]], target=1000)
    page.goto(f"{live_server}/games/{game_id}")
    play_a_hand(page, 2, javascript=True)
    assert page.locator(".record-bar").count() == 0
    assert page.locator("main > .flashes .flash").inner_text() == "Hand 1 saved."
