"""A club's tables on a 360 x 780 phone: the standings and the head-to-head read without any
sideways scroll (the essential columns, every other number one tap away), and the games
beside the win rate are the games it counts: the finished ones."""

from __future__ import annotations

from typing import Any

from phone import no_sideways_scroll

# Ann & Bob win this one in a hand (target 1 000).
WIN = {
    "sides": [
        {"meld_points": 200, "natural_canastas": 1, "red_threes": 2},
        {"meld_points": 100, "hand_points": 50},
    ],
    "went_out": 0,
}


def club_game(page: Any, base: str, club_id: str, a: tuple, b: tuple, finish: bool) -> None:
    body = {"sides": [{"players": list(a)}, {"players": list(b)}], "target": 1000}
    made = page.request.post(f"{base}/api/clubs/{club_id}/games", data=body)
    assert made.status == 201, made.text()
    if finish:
        hand = page.request.post(f"{base}/api/games/{made.json()['id']}/hands", data=WIN)
        assert hand.status == 201, hand.text()


def fits_its_box(locator: Any) -> bool:
    return bool(locator.evaluate("e => e.scrollWidth <= e.clientWidth + 1"))


def test_club_tables_read_at_360(make_page, live_server, tmp_path):
    page = make_page(width=360, height=780)
    made = page.request.post(
        f"{live_server}/api/clubs",
        data={"name": "Sunday", "players": ["Ann", "Bob", "Bernadette", "Dimitri"]},
    )
    club_id = made.json()["id"]
    team, others = ("Ann", "Bob"), ("Bernadette", "Dimitri")
    club_game(page, live_server, club_id, team, others, finish=True)  # Ann wins
    club_game(page, live_server, club_id, team, others, finish=True)  # Ann wins
    club_game(page, live_server, club_id, others, team, finish=True)  # Ann loses
    club_game(page, live_server, club_id, team, others, finish=False)  # still being played
    page.goto(f"{live_server}/clubs/{club_id}")
    assert no_sideways_scroll(page)
    standings = page.locator("table.standings").first
    assert standings.is_visible()
    assert fits_its_box(standings)
    assert standings.evaluate("e => e.getBoundingClientRect().right") <= 360
    ann = standings.locator("tbody tr", has=page.locator("th", has_text="Ann"))
    # Three finished games, two won: 67 %, and the game being played is said apart.
    assert ann.locator("td").all_inner_texts() == ["3", "2", "67%"]
    assert "+1 game being played" in ann.locator("th").inner_text()
    h2h = page.locator("table.h2h")
    assert fits_its_box(h2h)
    assert h2h.evaluate("e => e.getBoundingClientRect().right") <= 360
    row = h2h.locator("tbody tr", has=page.locator("th", has_text="Ann"))
    assert row.first.locator("td").all_inner_texts() == ["Bernadette", "2–1"]
    # Every other number is one tap away, in a box of its own.
    page.locator(".every-number summary").first.tap()
    assert page.locator("table.standings-all").first.is_visible()
    assert no_sideways_scroll(page)
    page.screenshot(path=str(tmp_path / "club.png"), full_page=True)
