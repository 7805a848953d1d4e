"""A club night on 360 px phones (issue 23): the organiser makes a night of eight players and
draws the first round; two tables' phones record their round (one with JavaScript, one
without); the wall's leaderboard follows by itself."""

from __future__ import annotations

import re

from playwright.sync_api import expect

EIGHT = ["Ann", "Bob", "Cy", "Di", "Eve", "Fay", "Gus", "Hal"]


def no_sideways_scroll(page) -> None:
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 360, width


def record_round(page, table_url: str, first: str) -> None:
    """A table's phone: the side that went out first, and its one hand (a round of 1 hand)."""
    page.goto(table_url)
    page.locator(".record-buttons a", has_text=first).first.tap()
    page.wait_for_selector("form.hand-form")
    page.fill("#sides-0-meld_points", "130")
    page.fill("#sides-0-natural_canastas", "1")
    page.fill("#sides-1-meld_points", "50")
    page.fill("#sides-1-hand_points", "85")
    no_sideways_scroll(page)
    page.get_by_role("button", name="Save hand").tap()
    expect(page.locator(".banner.win")).to_be_visible()


def test_a_night_of_eight_at_360(make_page, live_server, tmp_path):
    organiser = make_page(width=360, height=780)
    made = organiser.request.post(
        f"{live_server}/api/clubs", data={"name": "Thursday", "players": EIGHT[:6]}
    )
    assert made.status == 201
    club_id = made.json()["id"]
    organiser.goto(f"{live_server}/clubs/{club_id}")
    organiser.get_by_role("link", name="Club nights").tap()
    organiser.get_by_role("link", name="Start a club night").tap()
    # The six of the roster are ticked already; Gus and Hal are new tonight.
    organiser.fill("#new-player-1", "Gus")
    organiser.fill("#new-player-2", "Hal")
    organiser.fill("#night-rounds", "2")
    organiser.fill("#night-hands", "1")
    no_sideways_scroll(organiser)
    organiser.screenshot(path=str(tmp_path / "new-night.png"), full_page=True)
    organiser.get_by_role("button", name="Start the night").tap()
    expect(organiser.locator("h1")).to_have_text("Club night")
    organiser.get_by_role("button", name="Draw round 1").tap()
    tables = organiser.locator(".night-table")
    expect(tables).to_have_count(2)
    expect(organiser.locator(".night-table img.qr")).to_have_count(2)
    no_sideways_scroll(organiser)
    organiser.screenshot(path=str(tmp_path / "night.png"), full_page=True)
    table_urls = [
        live_server + organiser.get_by_role("link", name=f"Open table {n}").get_attribute("href")
        for n in (1, 2)
    ]
    firsts = [
        tables.nth(k).locator(".table-sides li .side-name").first.inner_text() for k in (0, 1)
    ]
    wall_url = organiser.get_by_role("link", name="Leaderboard for the wall").get_attribute("href")

    wall = make_page(width=360, height=780)
    wall.goto(live_server + wall_url)
    expect(wall.locator(".leaderboard tbody tr")).to_have_count(8)
    assert re.search(r"/nights/watch/", wall.url)

    record_round(make_page(width=360, height=780, javascript=False), table_urls[0], firsts[0])
    record_round(make_page(width=360, height=780), table_urls[1], firsts[1])

    # The wall updates by itself: four players have won a round, by 2 hands' difference each.
    winners = [name for side in firsts for name in side.split(" & ")]
    rows = wall.locator(".leaderboard tbody tr")
    expect(rows.nth(0).locator("td").nth(2)).to_have_text("1", timeout=15000)
    expect(rows.nth(3).locator("td").nth(2)).to_have_text("1", timeout=15000)
    top = sorted(rows.nth(k).locator("th").inner_text() for k in range(4))
    assert top == sorted(winners)
    # Ann & co. +995 (930 + 100 ... worked out by the game): every winner has the same points.
    points = {rows.nth(k).locator("td").nth(3).inner_text() for k in range(4)}
    assert len(points) == 1
    expect(wall.locator(".table-progress").first).to_contain_text("won")
    no_sideways_scroll(wall)
    wall.screenshot(path=str(tmp_path / "wall.png"), full_page=True)
    # Each player's rating moved with the night: the club shows it, and its history.
    organiser.goto(f"{live_server}/clubs/{club_id}")
    expect(organiser.locator("#ratings-title")).to_have_text("Ratings over time")
    expect(organiser.locator(".rating-chart")).to_have_count(8)
    no_sideways_scroll(organiser)
    organiser.locator("#ratings-title").scroll_into_view_if_needed()
    organiser.screenshot(path=str(tmp_path / "ratings.png"))
