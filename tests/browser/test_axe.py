"""Accessibility: axe-core (bundled by the axe-playwright-python package, nothing fetched)
runs on every page type, in English and French, JavaScript on, on a 360 x 780 phone. No
violation of impact "serious" or "critical" is allowed."""

from __future__ import annotations

from typing import Any

import pytest
from axe_playwright_python.sync_playwright import Axe
from phone import wait_for_hand_form

AXE = Axe()
GRAVE = {"serious", "critical"}
HAND = {
    "sides": [
        {"meld_points": 120, "natural_canastas": 1, "red_threes": 1},
        {"meld_points": 60, "hand_points": 20},
    ],
    "went_out": 0,
}


def grave_violations(page: Any) -> list[str]:
    """Each serious or critical violation: its rule, impact and the elements it names."""
    results = AXE.run(page)
    found = []
    for violation in results.response["violations"]:
        if violation["impact"] in GRAVE:
            targets = [" ".join(map(str, node["target"])) for node in violation["nodes"][:4]]
            found.append(f"{violation['id']} ({violation['impact']}): {targets}")
    return found


def setting(page: Any, base: str) -> dict[str, str]:
    """A game with a hand, a club with a game: every page type has something to show."""
    sides = [{"players": ["Ann", "Bob"]}, {"players": ["Cy", "Di"]}]
    game = page.request.post(f"{base}/api/games", data={"sides": sides}).json()
    assert page.request.post(f"{base}/api/games/{game['id']}/hands", data=HAND).status == 201
    club = page.request.post(
        f"{base}/api/clubs", data={"name": "Sunday", "players": ["Ann", "Bob", "Cy", "Di"]}
    ).json()
    made = page.request.post(
        f"{base}/api/clubs/{club['id']}/games", data={"sides": sides, "target": 1000}
    )
    assert made.status == 201, made.text()
    page.request.post(f"{base}/api/games/{made.json()['id']}/hands", data=HAND)
    return {"game": game["id"], "watch": game["watch_url"], "club": club["id"]}


def stale_page(page: Any, base: str, game_id: str) -> None:
    """The refused hand: another phone recorded one while this one was typing."""
    page.goto(f"{base}/games/{game_id}/hands/new?out=0")
    wait_for_hand_form(page)
    page.fill("#sides-0-meld_points", "120")
    page.fill("#sides-1-meld_points", "60")
    assert page.request.post(f"{base}/api/games/{game_id}/hands", data=HAND).status == 201
    page.locator("form.hand-form button.primary").click()
    page.locator(".stale-compare").wait_for()


def club_question(page: Any, base: str, club_id: str) -> None:
    """The club asks who is who before filing a game whose names it cannot match alone."""
    sides = [{"players": ["Ann", "ANN"]}, {"players": ["Cy", "Gus"]}]
    game = page.request.post(f"{base}/api/games", data={"sides": sides}).json()
    page.goto(f"{base}/clubs/{club_id}")
    page.fill("#file-game", game["id"])
    page.locator("#file button[type=submit]").click()
    page.locator(".ask-note").wait_for()


@pytest.mark.parametrize("locale", ["en-GB", "fr-FR"])
def test_no_serious_accessibility_violation_on_any_page(make_page, live_server, locale):
    page = make_page(width=360, height=780, locale=locale)
    ids = setting(page, live_server)
    game, club = ids["game"], ids["club"]
    pages = {
        "scoreboard": f"/games/{game}",
        "home": "/",
        "new game": "/games/new",
        "hand form": f"/games/{game}/hands/new?out=0",
        "correction": f"/games/{game}/hands/1/edit",
        "watch": ids["watch"],
        "club": f"/clubs/{club}",
        "new club": "/clubs/new",
        "club new game": f"/clubs/{club}/games/new",
        "checker": "/check-meld",
        "rules": "/rules",
        "rules of play": "/rules/play",
        "sheets": "/sheets",
    }
    found = {}
    for name, path in pages.items():
        page.goto(live_server + path)
        page.wait_for_load_state("load")
        found[name] = grave_violations(page)
    stale_page(page, live_server, game)
    found["refused hand"] = grave_violations(page)
    club_question(page, live_server, club)
    found["club question"] = grave_violations(page)
    assert {name: v for name, v in found.items() if v} == {}
