"""The club flow on a 360 x 780 phone: create a club, start two games from it, finish them,
read the standings, download the CSV and parse it back. No sideways scroll of the page."""

from __future__ import annotations

import csv
import io

from playwright.sync_api import expect

WINNING = {
    "sides": [
        {"meld_points": 200, "natural_canastas": 1, "mixed_canastas": 0, "red_threes": 2},
        {
            "meld_points": 100,
            "natural_canastas": 0,
            "mixed_canastas": 0,
            "red_threes": 0,
            "hand_points": 50,
        },
    ],
    "went_out": 0,
}


def no_sideways_scroll(page) -> None:
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 360, width


def start_game(page, base: str, club_url: str, first: tuple[str, str], second: tuple[str, str]):
    page.goto(club_url)
    page.get_by_role("link", name="New game").click()
    for k, name in enumerate(first):
        page.select_option(f"#side-0-player-{k}", name)
    for k, name in enumerate(second):
        page.select_option(f"#side-1-player-{k}", name)
    page.select_option("#game-target", "1000")
    page.get_by_role("button", name="Start the game").click()
    expect(page.locator("h1")).to_be_visible()
    game_id = page.url.rstrip("/").rsplit("/", 1)[1].split("#")[0]
    # Finish it through the API in one winning hand (the hand form has its own tests).
    response = page.request.post(f"{base}/api/games/{game_id}/hands", data=WINNING)
    assert response.status == 201, response.text()
    return game_id


def test_club_flow_at_360(make_page, live_server):
    page = make_page(width=360, height=780)
    page.goto(live_server + "/")
    page.get_by_role("link", name="New club").click()
    page.fill("#club-name", "Sunday")
    for index, name in enumerate(("Ann", "Bob", "Cy", "Di")):
        page.fill(f"#players-{index}", name)
    page.select_option("#club-target", "1000")
    page.get_by_role("button", name="Create the club").click()
    expect(page.locator("h1.club-name")).to_have_text("Sunday")
    club_url = page.url
    club_id = club_url.rstrip("/").rsplit("/", 1)[1]

    start_game(page, live_server, club_url, ("Ann", "Bob"), ("Cy", "Di"))
    start_game(page, live_server, club_url, ("Ann", "Cy"), ("Bob", "Di"))

    page.goto(club_url)
    no_sideways_scroll(page)
    ann = page.locator("table.standings").first.locator(
        "tr", has=page.locator("th", has_text="Ann")
    )
    cells = ann.locator("td")
    expect(cells.nth(0)).to_have_text("2")  # games
    expect(cells.nth(1)).to_have_text("2")  # wins
    expect(cells.nth(2)).to_have_text("100%")
    di = page.locator("table.standings").first.locator("tr", has=page.locator("th", has_text="Di"))
    expect(di.locator("td").nth(1)).to_have_text("0")
    expect(page.locator(".totals-charts .club-chart svg polyline")).to_have_count(4)
    # Every number: the wide table scrolls inside its own box.
    page.locator(".every-number summary").first.click()
    box = page.locator(".table-scroll").first
    assert box.evaluate("e => e.scrollWidth > e.clientWidth")
    assert page.locator(".club-game-list li").count() == 2

    with page.expect_download() as download_info:
        page.get_by_role("link", name="Every hand (CSV)").click()
    text = download_info.value.path().read_text(encoding="utf-8")
    rows = list(csv.DictReader(io.StringIO(text)))
    assert len(rows) == 4  # two games, one hand each, one row per side
    links = "Array.from(document.querySelectorAll('.club-game-list a'))"
    listed = page.evaluate(f"{links}.map(a => a.pathname.split('/')[2])")
    assert {row["game id"] for row in rows} == set(listed)
    totals = sorted(int(row["running total"]) for row in rows)
    assert totals == [50, 50, 1000, 1000]
    assert club_id in page.url
