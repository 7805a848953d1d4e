"""The traps a real club night still found (issue 28 points 5 to 9, issue 35 point 9), played on
a 360 x 780 phone as a person does, tapping: the club's and the night's tables at 200 % text,
the night page at 360 px in three languages, a team's whole name, a night table's end that
leads back to the night, a draw that asks first and can be taken back, and a shared win."""

from __future__ import annotations

from typing import Any

import pytest
from phone import large_text, shoot, split_words, too_wide
from playwright.sync_api import expect

WIDTH, HEIGHT = 360, 780
LOCALES = ["en-GB", "fr-FR", "es-ES"]
# A club night of eight, names of every length (Germaine broke letter by letter at 200 %).
EIGHT = ["Germaine", "Bernadette", "Anne-Sophie", "Maximilien", "Jo", "Ingrid", "Bill", "Zoé"]
AGNES, BILL = "Agnès Moreau-Delacroix", "Bill O'Connor-Fitzgerald"
WON = {
    "went_out": 0,
    "concealed": False,
    "sides": [
        {"meld_points": 300, "natural_canastas": 1, "red_threes": 1},
        {"meld_points": 50, "hand_points": 35},
    ],
}
LEVEL = {"went_out": None, "concealed": False, "sides": [{"meld_points": 100}] * 2}

# Each cell's content inside its own box (a header running into the next one, "gamesWins",
# overflows its cell without scrolling anything): what overflows, as a list.
CELLS_OVERFLOW = """() => {
  const found = [];
  for (const cell of document.querySelectorAll('table th, table td')) {
    if (!cell.getClientRects().length || cell.closest('[hidden], .visually-hidden')) continue;
    if (cell.scrollWidth > cell.clientWidth + 1)
      found.push(cell.tagName + ' ' + cell.textContent.trim().slice(0, 30)
        + ' ' + cell.scrollWidth + '>' + cell.clientWidth);
  }
  return found.slice(0, 10);
}"""


def api(app: Any, method: str, url: str, **kwargs: Any) -> Any:
    response = getattr(app.test_client(), method)(url, **kwargs)
    assert response.status_code in (200, 201), (url, response.json)
    return response.json


def night_of(app: Any, rounds: int = 3, hands: int = 1, rules: dict | None = None) -> dict:
    club: dict[str, Any] = {"name": "Thursday club", "players": EIGHT}
    if rules:
        club["settings"] = {"rules": rules}
    club_id = api(app, "post", "/api/clubs", json=club)["id"]
    body = {"players": EIGHT, "rounds": rounds, "round": {"fixed_hands": hands}}
    return {**api(app, "post", f"/api/clubs/{club_id}/nights", json=body), "club": club_id}


def draw(app: Any, night_id: str) -> dict:
    tag = app.test_client().get(f"/api/nights/{night_id}").headers["ETag"]
    return api(app, "post", f"/api/nights/{night_id}/rounds", headers={"If-Match": tag})


def games_of(night: dict, number: int) -> list[str]:
    return [t["game"] for t in night["rounds"][number - 1]["tables"]]


def phone(make_page: Any, locale: str = "en-GB", javascript: bool = True, big=False) -> Any:
    page = make_page(width=WIDTH, height=HEIGHT, locale=locale, javascript=javascript)
    if big:
        large_text(page)
    return page


def open_every_detail(page: Any) -> None:
    page.locator("details").evaluate_all("els => els.forEach(d => d.open = true)")


def look(page: Any, name: str) -> None:
    """Screenshots of the screen as the phone shows it, top to bottom (a full-page shot is
    taken at 100 % text by Chromium, whatever the text size)."""
    height = page.evaluate("document.documentElement.scrollHeight")
    for k, top in enumerate(range(0, min(height, 6 * HEIGHT), HEIGHT)):
        page.evaluate(f"window.scrollTo(0, {top})")
        shoot(page, None, f"{name}-{k}", full=False)
    page.evaluate("window.scrollTo(0, 0)")


def problems(page: Any) -> list[str]:
    return split_words(page) + too_wide(page) + page.evaluate(CELLS_OVERFLOW)


# --- point 5: every table at 200 % text keeps whole names and numbers ------------------------


@pytest.mark.parametrize("locale", LOCALES)
def test_the_club_and_night_tables_at_200_percent(make_page, live_server, live_app, locale):
    night = night_of(live_app)
    drawn = draw(live_app, night["id"])
    for game_id in games_of(drawn, 1):
        api(live_app, "post", f"/api/games/{game_id}/hands", json=WON)
    page = phone(make_page, locale, javascript=False, big=True)
    page.goto(f"{live_server}/clubs/{night['club']}")
    expect(page.locator("table.standings").first).to_be_visible()
    look(page, f"club-{locale}")
    assert problems(page) == []
    open_every_detail(page)
    look(page, f"club-every-number-{locale}")
    assert split_words(page) == [] and page.evaluate(CELLS_OVERFLOW) == []
    page.goto(f"{live_server}/nights/{night['id']}")
    look(page, f"night-{locale}")
    assert problems(page) == []
    page.goto(live_server + drawn["watch_url"])
    look(page, f"wall-{locale}")
    assert problems(page) == []


# --- point 9: the night page fits 360 px -------------------------------------------------------


@pytest.mark.parametrize("locale", LOCALES)
@pytest.mark.parametrize("javascript", [True, False])
def test_the_night_page_fits_360_with_its_points_on_screen(
    make_page, live_server, live_app, locale, javascript
):
    night = night_of(live_app)
    drawn = draw(live_app, night["id"])
    api(live_app, "post", f"/api/games/{games_of(drawn, 1)[0]}/hands", json=WON)
    page = phone(make_page, locale, javascript)
    page.goto(f"{live_server}/nights/{night['id']}")
    shoot(page, None, f"night-{locale}-{javascript}")
    assert too_wide(page) == []
    points = page.locator(".leaderboard thead th").last
    box = points.bounding_box()
    assert box and box["x"] + box["width"] <= WIDTH, box
    for cell in page.locator(".leaderboard tbody tr td:last-child").all():
        right = cell.bounding_box()
        assert right and right["x"] + right["width"] <= WIDTH
