"""Issue 20, point 5: at 200 % text no number or name is split over two lines, and nothing
pushes a page sideways: the scoreboard (2 to 6 sides), the club charts, the minimum table on
/rules and the hand form, at 360 x 780, in English and French (its narrow-space thousands)."""

from __future__ import annotations

from typing import Any

import pytest
from phone import large_text, shoot, split_words, too_wide
from test_table import api_game
from test_thumb_reach import NAMES

WIDTH, HEIGHT = 360, 780
EMPTY = {"meld_points": 0, "natural_canastas": 0, "mixed_canastas": 0, "red_threes": 0}


def play(app: Any, game_id: str, sides: int, hands: int = 3) -> None:
    """Three hands with four-digit and negative numbers (1 300 out; 1 025; a loss of 1 300)."""
    client = app.test_client()
    out = {**EMPTY, "meld_points": 200, "natural_canastas": 2}
    played = [
        (0, [out] + [{**EMPTY, "hand_points": 75}] * (sides - 1)),
        (None, [{**EMPTY, "meld_points": 425, "mixed_canastas": 2}]
         + [{**EMPTY, "hand_points": 5}] * (sides - 1)),
        (1, [{**EMPTY, "hand_points": 500, "red_threes": 4}, out]
         + [{**EMPTY, "hand_points": 5}] * (sides - 2)),
    ]  # fmt: skip
    for went_out, scores in played[:hands]:
        body = {"went_out": went_out, "concealed": False, "sides": scores}
        response = client.post(f"/api/games/{game_id}/hands", json=body)
        assert response.status_code == 201, response.json


def open_page(make_page: Any, locale: str = "en-GB") -> Any:
    page = make_page(width=WIDTH, height=HEIGHT, locale=locale, javascript=False)
    large_text(page)
    return page


def open_every_detail(page: Any) -> None:
    page.locator("details").evaluate_all("els => els.forEach(d => d.open = true)")


@pytest.mark.parametrize("locale", ["en-GB", "fr-FR"])
@pytest.mark.parametrize("sides", [2, 3, 4, 5, 6])
def test_the_scoreboard_at_200_percent(make_page, live_server, live_app, tmp_path, sides, locale):
    game_id = api_game(live_app, [[n] for n in NAMES[:sides]])
    play(live_app, game_id, sides)
    page = open_page(make_page, locale)
    page.goto(f"{live_server}/games/{game_id}")
    open_every_detail(page)
    assert split_words(page) == []
    assert too_wide(page) == []


@pytest.mark.parametrize("sides", [2, 6])
def test_the_hand_form_at_200_percent(make_page, live_server, live_app, tmp_path, sides):
    game_id = api_game(live_app, [[n] for n in NAMES[:sides]])
    play(live_app, game_id, sides)
    page = open_page(make_page)
    page.goto(f"{live_server}/games/{game_id}/hands/new?out=0")
    open_every_detail(page)
    assert split_words(page) == []
    assert too_wide(page) == []


@pytest.mark.parametrize("locale", ["en-GB", "fr-FR"])
def test_the_minimum_table_on_the_rules_at_200_percent(make_page, live_server, live_app, locale):
    game_id = api_game(live_app, [[n] for n in NAMES[:6]])
    play(live_app, game_id, 6)
    page = open_page(make_page, locale)
    page.goto(f"{live_server}/rules?game={game_id}")
    # The game's own table, then one for each other game a table may choose.
    assert page.locator(".minimum-table").count() >= 1
    assert split_words(page) == []
    assert too_wide(page) == []


@pytest.mark.parametrize("javascript", [True, False])
@pytest.mark.parametrize("locale", ["en-GB", "fr-FR"])
def test_a_modern_american_games_rules_at_200_percent(
    make_page, live_server, live_app, locale, javascript
):
    """Opened from a game of Modern American, the page is that game's: its family's section
    with the game's target and each side's row of the minimum table, nothing of Classic's."""
    game_id = api_game(live_app, [["Ann", "Bob"], ["Cy", "Di"]], family="modern-american")
    page = make_page(width=WIDTH, height=HEIGHT, locale=locale, javascript=javascript)
    large_text(page)
    page.goto(f"{live_server}/rules?game={game_id}")
    assert page.locator("section.rules-family").count() == 1
    assert page.locator("#family-modern-american .minimum-table tr.current").count() == 1
    assert page.locator("#card-values, #variants").count() == 0
    assert ("8 500" if locale == "fr-FR" else "8,500") in page.locator(
        ".rules-context"
    ).inner_text().replace("\u202f", " ")
    assert split_words(page) == []
    assert too_wide(page) == []


def test_the_club_charts_at_200_percent(make_page, live_server, live_app, tmp_path):
    client = live_app.test_client()
    players = ["Marie-Claire", "Bernadette", "Guillaume", "Maximilien"]
    club = client.post("/api/clubs", json={"name": "Jeudi soir", "players": players})
    assert club.status_code == 201, club.json
    club_id = club.json["id"]
    for first, second in ((players[:2], players[2:]), (players[::2], players[1::2])):
        version = client.get(f"/api/clubs/{club_id}").headers["ETag"]
        body = {"sides": [{"players": first}, {"players": second}], "target": 1000}
        game = client.post(f"/api/clubs/{club_id}/games", json=body, headers={"If-Match": version})
        assert game.status_code == 201, game.json
        play(live_app, game.json["id"], 2, hands=1)
    page = open_page(make_page)
    page.goto(f"{live_server}/clubs/{club_id}")
    assert page.locator(".totals-charts .club-chart").count() == 4
    assert page.locator(".h2h tbody tr").count() > 0  # both games won: head to head shows
    assert page.evaluate("document.documentElement.scrollWidth") <= WIDTH
    # The charts' words and numbers (the standings tables are another helper's part).
    assert [w for w in split_words(page) if "club-chart" in w] == []
    shoot(page, tmp_path, "club-200")
