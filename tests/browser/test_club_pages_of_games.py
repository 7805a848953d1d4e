"""A club's games a page at a time on a 360 px phone, with JavaScript off and on, and at
200 % text: the newest first, "Older games" and "Newer games" tapped as a person does, the
CSV in parts linked below, all within the page's width."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import expect

from scorer.clubs.pages import clubs as club_pages
from scorer.core import limits

LARGE_TEXT = "document.documentElement.style.fontSize = '200%'"
WIDER_THAN_THE_SCREEN = """[...document.querySelectorAll('.club-game-pages *, .downloads *')]
  .filter(e => e.getBoundingClientRect().right >
    document.querySelector('main').getBoundingClientRect().right)
  .map(e => e.tagName + '.' + e.className)"""
SMALL_HAND = {
    "sides": [
        {"meld_points": 90, "natural_canastas": 0, "mixed_canastas": 1, "red_threes": 0},
        {"meld_points": 120, "natural_canastas": 0, "mixed_canastas": 0, "red_threes": 1},
    ],
    "went_out": None,
}


def new_club(page, base: str, games: int) -> tuple[str, list[str]]:
    club = page.request.post(
        f"{base}/api/clubs", data={"name": "Sunday", "players": ["Ann", "Bob", "Cy", "Di"]}
    )
    assert club.status == 201, club.text()
    club_id = club.json()["id"]
    ids = []
    for n in range(games):
        body = {
            "name": f"Night {n + 1}",
            "sides": [{"players": ["Ann", "Bob"]}, {"players": ["Cy", "Di"]}],
        }
        game = page.request.post(f"{base}/api/clubs/{club_id}/games", data=body)
        assert game.status == 201, game.text()
        ids.append(game.json()["id"])
        hand = page.request.post(f"{base}/api/games/{ids[-1]}/hands", data=SMALL_HAND)
        assert hand.status == 201, hand.text()
    return club_id, ids


@pytest.mark.parametrize("javascript", [False, True])
def test_older_and_newer_games_at_360(
    make_page, live_server, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, javascript: bool
) -> None:
    monkeypatch.setattr(club_pages, "GAMES_PER_PAGE", 2)
    monkeypatch.setattr(limits, "HANDS_PER_CSV_PART", 2)
    page = make_page(javascript=javascript)
    club_id, _ids = new_club(page, live_server, 5)
    page.goto(f"{live_server}/clubs/{club_id}")
    games = page.locator(".club-game-list .game-name")
    expect(games).to_have_text(["Night 5", "Night 4"])
    expect(page.get_by_text("Games 1 to 2 of 5")).to_be_visible()
    expect(page.get_by_role("link", name="Hands (CSV), part 3 of 3")).to_be_visible()
    page.get_by_role("link", name="Older games").click()
    expect(games).to_have_text(["Night 3", "Night 2"])
    page.get_by_role("link", name="Older games").click()
    expect(games).to_have_text(["Night 1"])
    expect(page.get_by_role("link", name="Older games")).to_have_count(0)
    page.evaluate(LARGE_TEXT)
    page.locator("#games").scroll_into_view_if_needed()
    nav = page.locator(".club-game-pages")
    nav.screenshot(path=str(tmp_path / f"club-games-page-3-js-{javascript}.png"))
    # At 200 % text the list's links and the downloads wrap within the page's width.
    assert page.evaluate(WIDER_THAN_THE_SCREEN) == []
    page.get_by_role("link", name="Newer games").click()
    expect(games).to_have_text(["Night 3", "Night 2"])
