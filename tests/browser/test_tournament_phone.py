"""A tournament night and its season on 360 px phones in three languages (issue 33): the
organiser's page and the wall show the match-point standings and the round's clock; the
organiser makes a season by tapping and typing (JavaScript on and off), reads its table, its
champion, and downloads its CSV; once more at 200 % text."""

from __future__ import annotations

from typing import Any

import pytest
from phone import large_text, no_sideways_scroll, shoot, too_wide
from playwright.sync_api import expect

EIGHT = ["Ann", "Bob", "Cy", "Di", "Eve", "Fay", "Gus", "Hal"]
WORDS = {
    "en-GB": {
        "card": "Card points",
        "left": "left in this round",
        "create": "Create the season",
        "champion": "Champions",
        "seasons": "Seasons",
    },
    "fr-FR": {
        "card": "Points de cartes",
        "left": "restantes dans cette manche",
        "create": "Créer la saison",
        "champion": "Champions",
        "seasons": "Saisons",
    },
    "es-ES": {
        "card": "Puntos de cartas",
        "left": "restantes en esta ronda",
        "create": "Crear la temporada",
        "champion": "Campeones",
        "seasons": "Temporadas",
    },
}


def timed_night(page: Any, server: str) -> tuple[str, dict[str, Any]]:
    """A club's night of eight ranked by match points, 50-minute rounds; round 1 drawn and
    its first table played (through the API, as the tables' phones would)."""
    club = page.request.post(f"{server}/api/clubs", data={"name": "Thursday", "players": EIGHT})
    club_id = club.json()["id"]
    body = {
        "players": EIGHT,
        "rounds": 2,
        "ranking": "match_points",
        "round": {"fixed_hands": 1, "minutes": 50, "warning_minutes": 10},
    }
    night = page.request.post(f"{server}/api/clubs/{club_id}/nights", data=body).json()
    etag = page.request.get(f"{server}/api/nights/{night['id']}").headers["etag"]
    drawn = page.request.post(
        f"{server}/api/nights/{night['id']}/rounds", headers={"If-Match": etag}
    ).json()
    table = drawn["rounds"][0]["tables"][0]
    hand = {"sides": [{"meld_points": 300}, {"meld_points": 100}]}
    assert page.request.post(f"{server}/api/games/{table['game']}/hands", data=hand).status == 201
    return club_id, {**night, "winners": sorted(table["sides"][0]["players"])}


def looks_right(page: Any) -> None:
    wide = too_wide(page)
    if wide:
        shoot(page, None, "too-wide")
    assert no_sideways_scroll(page), page.url
    assert wide == [], page.url


@pytest.mark.parametrize(
    ("locale", "javascript"), [("en-GB", True), ("fr-FR", False), ("es-ES", True)]
)
def test_a_tournament_night_and_its_season_at_360(make_page, live_server, locale, javascript):
    words = WORDS[locale]
    page = make_page(width=360, height=780, locale=locale, javascript=javascript)
    club_id, night = timed_night(page, live_server)
    page.goto(f"{live_server}/nights/{night['id']}")
    expect(page.locator(".leaderboard th", has_text=words["card"])).to_be_visible()
    expect(page.locator(".round-clock")).to_contain_text(words["left"])
    looks_right(page)
    shoot(page, None, f"night-{locale}")
    page.goto(live_server + night["watch_url"])
    expect(page.locator(".round-clock .clock-left")).to_be_visible()
    looks_right(page)
    shoot(page, None, f"wall-{locale}")
    # The organiser makes the season from the club's nights.
    page.goto(f"{live_server}/clubs/{club_id}/nights")
    page.get_by_role("link", name=words["seasons"]).tap()
    page.fill("#season-name", "Championnat du jeudi 2026")
    page.fill("#season-from", "2026-01-01")
    page.fill("#season-to", "2025-12-31")  # before the first day: refused, what was typed kept
    page.get_by_role("button", name=words["create"]).tap()
    expect(page.locator("#season-error-to")).to_be_visible()
    expect(page.locator("#season-name")).to_have_value("Championnat du jeudi 2026")
    looks_right(page)
    shoot(page, None, f"season-refused-{locale}")
    page.fill("#season-to", "2099-12-31")
    page.get_by_role("button", name=words["create"]).tap()
    expect(page.locator("h1")).to_have_text("Championnat du jeudi 2026")
    expect(page.locator(".season-champion")).to_contain_text(words["champion"])
    for winner in night["winners"]:
        expect(page.locator(".season-champion")).to_contain_text(winner)
    # The four of the table whose game is over played the night; the others' is not over.
    expect(page.locator(".leaderboard.season tbody tr")).to_have_count(4)
    looks_right(page)
    shoot(page, None, f"season-{locale}")
    with page.expect_download() as download:
        page.locator("a[href$='.csv']").tap()
    assert download.value.suggested_filename.endswith(".csv")


def test_the_season_and_the_wall_at_200_percent_text(make_page, live_server):
    page = make_page(width=360, height=780)
    large_text(page)
    club_id, night = timed_night(page, live_server)
    season = page.request.post(
        f"{live_server}/api/clubs/{club_id}/seasons",
        data={"name": "Spring 2026", "from": "2026-01-01", "to": "2099-12-31", "best_of": 4},
    ).json()
    for address, name in (
        (night["watch_url"], "wall-large"),
        (f"/seasons/{season['id']}", "season-large"),
    ):
        page.goto(live_server + address)
        looks_right(page)
        shoot(page, None, name)
