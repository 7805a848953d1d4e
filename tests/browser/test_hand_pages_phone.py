"""A long game's hands on a phone, 50 a page (issue 35), at 360 x 780, JavaScript on and off.

A game of 120 hands: the scoreboard says which hands it shows, moves to the earlier ones and
back by plain links, and corrects a hand from its own page, landing there again. With
JavaScript, a page of earlier hands follows a hand recorded on another phone (each page's
hands move one place) and keeps the row the reader was on where it was on screen.
The games are STEADY hands (tests/apidata.py): after hand k the totals are 10 k and 5 k.
"""

from __future__ import annotations

from typing import Any

import pytest
from apidata import STEADY, steady_export
from phone import no_sideways_scroll, shoot, too_wide
from playwright.sync_api import expect

HANDS = 120


def long_game(make_page: Any, base: str, *, javascript: bool = True) -> tuple[Any, str]:
    """A phone at 360 x 780 and the scoreboard's address of a game of HANDS hands."""
    page = make_page(width=360, height=780, javascript=javascript)
    made = page.request.post(f"{base}/api/games/import", data=steady_export(HANDS))
    assert made.status == 201, made.text()
    return page, f"{base}/games/{made.json()['id']}"


def totals(page: Any) -> list[str]:
    return page.locator("[data-total]").evaluate_all("els => els.map(e => e.dataset.total)")


def shown(page: Any) -> tuple[str, int, int, int]:
    """Which hands the page says it shows, how many rows, its first and its last hand."""
    rows = page.locator(".hands details.hand-row")
    number = lambda at: int(rows.nth(at).get_attribute("id").split("-")[1])  # noqa: E731
    return page.inner_text(".hand-position"), rows.count(), number(0), number(-1)


def go(page: Any, link: str) -> None:
    with page.expect_navigation():
        page.locator(".hand-pages").get_by_role("link", name=link).tap()


@pytest.mark.parametrize("javascript", [True, False], ids=["js", "no-js"])
def test_a_long_game_goes_to_its_earlier_hands_and_back(
    make_page: Any, live_server: str, javascript: bool
) -> None:
    page, board = long_game(make_page, live_server, javascript=javascript)
    page.goto(board)
    assert shown(page) == ("Hands 71–120 of 120", 50, 120, 71)
    assert page.locator("#hand-120").get_attribute("open") is not None

    go(page, "Earlier hands")
    assert page.url == f"{board}?hands=2#hands-title"
    assert shown(page) == ("Hands 21–70 of 120", 50, 70, 21)
    # The page opens at its hands: the words saying which come first, on screen.
    assert page.locator(".hand-position").evaluate("e => e.getBoundingClientRect().top >= 0")
    assert no_sideways_scroll(page) and not too_wide(page), too_wide(page)
    if javascript:
        shoot(page, None, "earlier-hands-360")

    go(page, "Earlier hands")
    assert shown(page) == ("Hands 1–20 of 120", 20, 20, 1)
    assert page.locator(".hand-pages").get_by_role("link").all_inner_texts() == ["Later hands"]
    go(page, "Later hands")
    assert shown(page)[0] == "Hands 21–70 of 120"
    go(page, "Later hands")
    assert page.url == f"{board}#hands-title"
    assert shown(page) == ("Hands 71–120 of 120", 50, 120, 71)
    # The whole game around every page: its totals.
    assert totals(page) == ["1200", "600"]


@pytest.mark.parametrize("javascript", [True, False], ids=["js", "no-js"])
def test_a_hand_on_an_earlier_page_is_corrected_and_shown_there_again(
    make_page: Any, live_server: str, javascript: bool
) -> None:
    page, board = long_game(make_page, live_server, javascript=javascript)
    page.goto(f"{board}?hands=2")
    page.locator("#hand-30 summary").tap()
    with page.expect_navigation():
        page.get_by_role("link", name="Correct hand 30").tap()
    # Ann & Bob left 110 in hand, not 140: hand 30 scores +40, the totals after it +30.
    page.fill("#sides-0-hand_points", "110")
    with page.expect_navigation(url=f"{board}?hands=2#hand-30"):
        page.get_by_role("button", name="Save correction").tap()
    expect(page.get_by_text("Hand 30 corrected.")).to_be_visible()
    assert page.inner_text("#hand-30 .hand-sides").split() == ["+40", "330", "+5", "150"]
    assert shown(page)[0] == "Hands 21–70 of 120"


def test_a_page_of_earlier_hands_follows_another_phone_and_keeps_the_readers_place(
    make_page: Any, live_server: str
) -> None:
    page, board = long_game(make_page, live_server)
    page.goto(f"{board}?hands=2")
    page.evaluate(
        "window.__updated = 0; document.addEventListener('live:updated', () => window.__updated++)"
    )
    page.locator("#hand-40").scroll_into_view_if_needed()
    before = page.locator("#hand-40").evaluate("e => e.getBoundingClientRect().top")
    game_id = board.rsplit("/", 1)[1]
    recorded = page.request.post(f"{live_server}/api/games/{game_id}/hands", data=STEADY)
    assert recorded.status == 201, recorded.text()
    # Hand 71 comes down from the newest page; hand 21 goes on to the third.
    expect(page.locator(".hand-position")).to_have_text("Hands 22–71 of 121")
    page.wait_for_function("window.__updated > 0")
    assert shown(page) == ("Hands 22–71 of 121", 50, 71, 22)
    assert totals(page) == ["1210", "605"]
    after = page.locator("#hand-40").evaluate("e => e.getBoundingClientRect().top")
    assert abs(after - before) <= 1, (before, after)
