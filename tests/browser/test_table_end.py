"""Issue 13 at 360 x 780, the way in and the way out: a new-game form that follows the
variant (with and without JavaScript), "deals first" among the names typed, play again,
blank sheets linked and served, the favicon."""

from __future__ import annotations

from typing import Any

import pytest
from apidata import hand, side
from phone import shoot
from playwright.sync_api import expect

WIDTH, HEIGHT = 360, 780
LARGE_TEXT = "document.documentElement.style.fontSize = '200%'"
SIDEWAYS = "document.documentElement.scrollWidth > window.innerWidth"
SHOWN_BOXES = """
() => Array.from(document.querySelectorAll('#players .team:not([hidden])')).map(team =>
  Array.from(team.querySelectorAll('.seat:not([hidden]) input')).length)
"""

# variant, seating, boxes per side shown, the seating's words, the usual target
VARIANTS = [
    ("classic", "2-2", [2, 2], "4 players in 2 teams of 2", "5,000"),
    ("classic", "alone", [1, 1, 1, 1], "4 players, each on their own", "5,000"),
    ("two-player", "alone", [1, 1], "2 players, each on their own", "5,000"),
    ("three-player", "alone", [1, 1, 1], "3 players, each on their own", "7,500"),
    ("five-player", "3-2", [3, 2], "5 players: a team of 3 and a team of 2", "5,000"),
    ("five-player", "alone", [1, 1, 1, 1, 1], "5 players, each on their own", "5,000"),
    ("six-player", "2-2-2", [2, 2, 2], "6 players in 3 teams of 2", "7,500"),
    ("six-player", "3-3", [3, 3], "6 players in 2 teams of 3", "10,000"),
    ("six-player", "alone", [1] * 6, "6 players, each on their own", "7,500"),
]


def usual_target(page: Any) -> str:
    return page.locator("#target option").first.inner_text()


def show(page: Any) -> None:
    """Without JS: ask the server for the new seats, and wait for the page it draws, its
    style sheets included (a click waits only for the answer to begin, and the seats a
    seating hides are hidden by the style sheet)."""
    with page.expect_navigation(wait_until="load"):
        page.click("button[name=show]")


@pytest.mark.parametrize("javascript", [True, False], ids=["js", "no-js"])
def test_new_game_form_follows_the_variant(make_page, live_server, javascript):
    page = make_page(width=WIDTH, height=HEIGHT, javascript=javascript)
    page.goto(live_server + "/games/new")
    for profile, seating, boxes, words, target in VARIANTS:
        page.select_option("#profile", profile)
        if not javascript:
            show(page)  # without JS: the server draws the new seats
        page.select_option("#seating", label=words)
        if not javascript:
            show(page)
        assert page.evaluate(SHOWN_BOXES) == boxes, (profile, seating)
        assert page.locator("#seating").input_value() == seating
        assert usual_target(page) == f"{target} (usual target)"
        alone = seating == "alone"
        expect(page.locator(".team-title:visible")).to_have_count(0 if alone else len(boxes))
        if alone:  # each box says which player it is
            labels = page.locator("#players .seat:visible label")
            expect(labels).to_have_text([f"Player {n}" for n in range(1, len(boxes) + 1)])
    assert page.locator("button[name=show]").is_visible() is not javascript
    shoot(page, None, f"new-six-alone-{'js' if javascript else 'nojs'}")


@pytest.mark.parametrize("javascript", [True, False], ids=["js", "no-js"])
def test_three_players_start_and_deals_first_is_tolerant(make_page, live_server, javascript):
    page = make_page(width=WIDTH, height=HEIGHT, javascript=javascript)
    page.goto(live_server + "/games/new")
    page.select_option("#profile", "three-player")
    if not javascript:
        show(page)
    for i, name in enumerate(("Alice", "Bob", "Cy")):
        page.fill(f"#sides-{i}-players-0", name)
    if javascript:
        # A choice among the names typed, not free text.
        options = page.locator("select#first_dealer option").all_inner_texts()
        assert options[1:] == ["Alice", "Bob", "Cy"]
        page.select_option("select#first_dealer", "Bob")
        dealer = "Bob"
    else:
        page.fill("#first_dealer", "  bOB ")
        dealer = "Bob"
    page.click("text=Start the game")
    page.wait_for_url("**/games/*")
    assert page.locator(".dealer-next").inner_text() == dealer
    assert page.locator(".side-total").count() == 3


def test_deals_first_unknown_name_is_refused_at_its_field(make_page, live_server):
    page = make_page(width=WIDTH, height=HEIGHT, javascript=False)
    page.goto(live_server + "/games/new")
    for i, name in enumerate(("Ann", "Bob")):
        page.fill(f"#sides-{i}-players-0", name)
        page.fill(f"#sides-{i}-players-1", name + "2")
    page.fill("#first_dealer", "ALICE")
    page.click("text=Start the game")
    assert page.locator("#first_dealer-error").inner_text() == (
        "Deals first: must be one of the players"
    )
    # "ann" is Ann whatever the case.
    page.fill("#first_dealer", "ann")
    page.click("text=Start the game")
    page.wait_for_url("**/games/*")
    assert page.locator(".dealer-next").inner_text() == "Ann"


def finished_game(app: Any) -> str:
    client = app.test_client()
    body = {"profile": "classic", "sides": [{"players": ["Ann", "Bob"]}, {"players": ["Cy", "Di"]}]}
    game_id = client.post("/api/games", json=body).get_json()["id"]
    big = hand(side(500, natural=2, mixed=2, reds=4), side(560, left=20), went_out=0)
    for _ in range(2):
        assert client.post(f"/api/games/{game_id}/hands", json=big).status_code == 201
    return game_id


def test_play_again_is_one_tap_from_a_finished_game(make_page, live_server, live_app):
    game_id = finished_game(live_app)
    page = make_page(width=WIDTH, height=HEIGHT)
    page.goto(f"{live_server}/games/{game_id}")
    # Hand 1 dealt by Ann, hand 2 by Cy: the deal moves on to Bob.
    assert "Bob deals first" in page.locator(".play-again").inner_text()
    shoot(page, None, "board-finished")
    page.click("text=Play again")  # a POST with the page's CSRF token
    page.wait_for_url(lambda url: game_id not in url)
    assert "Bob deals first" in page.locator(".flash").inner_text()
    assert page.locator(".dealer-next").inner_text() == "Bob"
    names = page.locator(".side-total .side-name").all_inner_texts()
    assert [n.strip() for n in names] == ["Ann & Bob", "Cy & Di"]
    assert page.locator(".total").all_inner_texts() == ["0", "0"]


def test_blank_sheets_are_linked_and_served(make_page, live_server):
    page = make_page(width=WIDTH, height=HEIGHT)
    for start in ("/", "/games/new"):
        page.goto(live_server + start)
        page.click("text=Blank score sheets")
        page.wait_for_url("**/sheets")
    page.evaluate(LARGE_TEXT)
    assert not page.evaluate(SIDEWAYS)
    shoot(page, None, "sheets-200")
    links = page.locator(".sheet-list a").evaluate_all("els => els.map(e => e.href)")
    # Classic's nine seatings and one (two teams) of Modern American, Samba and Bolivia
    # each, every one on A4 and Letter.
    assert len(links) == 24
    for family in ("modern-american", "samba", "bolivia"):
        assert sum(f"family={family}" in link for link in links) == 2, family
    for sides in range(2, 7):
        assert any(f"sides={sides}&" in link for link in links)
    for link in links[:: len(links) // 6]:
        response = page.request.get(link)
        assert response.status == 200 and response.headers["content-type"] == "application/pdf"


def test_favicon_answers(make_page, live_server):
    page = make_page(width=WIDTH, height=HEIGHT)
    response = page.request.get(live_server + "/favicon.ico")
    assert response.status == 200
    assert response.body()[:4] == b"\x00\x00\x01\x00"  # an ICO file


def test_new_game_form_at_200_percent_text(make_page, live_server):
    page = make_page(width=WIDTH, height=HEIGHT)
    page.goto(live_server + "/games/new")
    page.evaluate(LARGE_TEXT)
    page.select_option("#profile", "six-player")
    page.select_option("#seating", "3-3")
    assert not page.evaluate(SIDEWAYS)
    shoot(page, None, "new-six-3x3-200")
