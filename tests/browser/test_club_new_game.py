"""A club's "New game" on a 360 x 780 phone follows the chosen variant's seating, as the plain
new-game form does: two teams of two for classic, with JavaScript on (the boxes re-lay at
once) and off (the variant and seating are sent first)."""

from __future__ import annotations

from typing import Any

import pytest
from phone import BOARD_URL, no_sideways_scroll
from playwright.sync_api import expect

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


def type_in(page: Any, box: str, text: str) -> None:
    """A tap on the box, then its keys, as a thumb does."""
    page.locator(f"#{box}").tap()
    page.keyboard.type(text)


@pytest.mark.parametrize("javascript", [True, False], ids=["js", "nojs"])
def test_a_modern_american_club_from_its_pages(make_page, live_server, javascript, tmp_path):
    """A Modern American club made on the new-club form, a game started from its New game
    page as it comes (its own variant, its own target), one hand recorded on the hand form.

    The hand: 200 melded, a natural canasta and one of sevens (500 + 2 500), out 100: 3 300;
    the other side, without a canasta, melded 130 that count against it (§5a), 20 in hand:
    -130 - 20 = -150."""
    page = make_page(width=360, height=780, javascript=javascript)
    page.goto(f"{live_server}/clubs/new")
    type_in(page, "club-name", "Tuesday")
    for index, name in enumerate(ROSTER[:4]):
        type_in(page, f"players-{index}", name)
    page.select_option("#club-profile", label="Modern American (2 teams)")
    assert no_sideways_scroll(page)
    page.get_by_role("button", name="Create the club").tap()
    expect(page.locator("h1.club-name")).to_have_text("Tuesday")
    club_id = page.url.split("#")[0].rstrip("/").rsplit("/", 1)[-1]
    page.get_by_role("link", name="New game").first.tap()
    page.wait_for_url("**/games/new")
    # Its own variant chosen, and only its game's seatings offered; its usual target.
    variant = page.locator("#game-profile")
    assert variant.input_value() == "four-player"
    assert variant.locator("option").all_inner_texts() == ["Modern American (2 teams)"]
    assert page.locator("#game-target option").first.inner_text() == "8,500 (usual target)"
    assert shown_seats(page) == [
        "side-0-player-0",
        "side-0-player-1",
        "side-1-player-0",
        "side-1-player-1",
    ]
    assert no_sideways_scroll(page)
    page.screenshot(path=str(tmp_path / f"american-club-game-{javascript}.png"), full_page=True)
    page.get_by_role("button", name="Start the game").tap()
    page.wait_for_url(BOARD_URL)
    game_id = page.url.split("#")[0].rstrip("/").rsplit("/", 1)[-1]
    page.locator(".record-buttons a").first.tap()  # Ann & Bob went out
    page.wait_for_url("**/hands/new**")
    for box, text in (
        ("sides-0-meld_points", "200"),
        ("sides-0-canastas_natural", "1"),
        ("sides-0-canastas_sevens", "1"),
        ("sides-1-meld_points", "130"),
        ("sides-1-hand_points", "20"),
    ):
        type_in(page, box, text)
    assert no_sideways_scroll(page)
    page.locator(".form-actions button.big").tap()
    page.wait_for_url(BOARD_URL)
    game = page.request.get(f"{live_server}/api/games/{game_id}").json()
    assert (game["family"], game["profile"], game["target"]) == (
        "modern-american",
        "four-player",
        8500,
    )
    assert [side["players"] for side in game["sides"]] == [["Ann", "Bob"], ["Cy", "Di"]]
    assert [side["total"] for side in game["sides"]] == [3300, -150]
    club = page.request.get(f"{live_server}/api/clubs/{club_id}").json()
    assert (club["family"], club["games"]) == ("modern-american", [game_id])
