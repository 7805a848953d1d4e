"""A club's "New game" on a 360 x 780 phone follows the chosen variant's seating, as the plain
new-game form does: two teams of two for classic, with JavaScript on (the boxes re-lay at
once) and off (the variant and seating are sent first)."""

from __future__ import annotations

from typing import Any

import pytest
from phone import BOARD_URL, no_sideways_scroll

ROSTER = ("Ann", "Bob", "Cy", "Di", "Eve", "Flo")


def make_club(page: Any, base: str) -> str:
    response = page.request.post(
        f"{base}/api/clubs", data={"name": "Sunday", "players": list(ROSTER)}
    )
    assert response.status == 201, response.text()
    return response.json()["id"]


def shown_seats(page: Any) -> list[str]:
    """The ids of the player selects a person sees."""
    return [
        s.get_attribute("id")
        for s in page.locator(".club-game-form select[id^='side-']").all()
        if s.is_visible()
    ]


def page_height(page: Any) -> int:
    return int(page.evaluate("document.documentElement.scrollHeight"))


@pytest.mark.parametrize("javascript", [True, False])
def test_club_new_game_follows_the_seating(make_page, live_server, javascript, tmp_path):
    page = make_page(width=360, height=780, javascript=javascript)
    club_id = make_club(page, live_server)
    page.goto(f"{live_server}/clubs/{club_id}/games/new")
    # Classic, two teams of two: four seats and nothing folded away holding more.
    assert shown_seats(page) == [
        "side-0-player-0",
        "side-0-player-1",
        "side-1-player-0",
        "side-1-player-1",
    ]
    assert page.locator(".club-game-form details").count() == 0
    height = page_height(page)
    # Measured at 360 px, four players: 3 002 px before (six teams of three boxes), 1 135 now.
    assert height < 1500, height
    assert no_sideways_scroll(page)
    page.screenshot(path=str(tmp_path / f"club-new-game-{javascript}.png"), full_page=True)

    # Three teams of two for six players: the boxes follow the variant.
    page.select_option("#game-profile", "six-player")
    if not javascript:
        page.get_by_role("button", name="Show the boxes for this seating").click()
    expect_six = [f"side-{i}-player-{k}" for i in range(3) for k in range(2)]
    assert shown_seats(page) == expect_six
    for seat, name in zip(expect_six, ROSTER, strict=True):
        page.select_option(f"#{seat}", name)
    page.locator("input[name='side-2-new-1']").fill("Gus")  # a new name beats the select
    page.get_by_role("button", name="Start the game").click()
    page.wait_for_url(BOARD_URL)
    names = page.locator(".side-total .side-name").all_inner_texts()
    assert names == ["Ann & Bob", "Cy & Di", "Eve & Gus"]


def test_club_new_game_every_player_alone(make_page, live_server):
    """Every player alone: one box per player, each a side of its own."""
    page = make_page(width=360, height=780)
    club_id = make_club(page, live_server)
    page.goto(f"{live_server}/clubs/{club_id}/games/new")
    page.select_option("#game-profile", "three-player")
    assert shown_seats(page) == ["side-0-player-0", "side-1-player-0", "side-2-player-0"]
    labels = [page.locator(f"label[for='side-{i}-player-0']").inner_text() for i in range(3)]
    assert labels == ["Player 1", "Player 2", "Player 3"]
    assert not page.locator(".team-title").first.is_visible()
    for i, name in enumerate(("Ann", "Bob", "Cy")):
        page.select_option(f"#side-{i}-player-0", name)
    page.get_by_role("button", name="Start the game").click()
    page.wait_for_url(BOARD_URL)
    assert page.locator(".side-total .side-name").all_inner_texts() == ["Ann", "Bob", "Cy"]
