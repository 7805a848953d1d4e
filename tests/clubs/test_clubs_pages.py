"""The clubs' pages: every page in en/fr/es, refusals that keep what was typed, filing
questions, the roster, the night's PDF read back with pdfplumber, the home page's list."""

from __future__ import annotations

import re
import sqlite3
from io import BytesIO

import pdfplumber
import pytest
from apidata import hand, side

from scorer.clubs.pages import clubs as club_pages
from scorer.web.game_setup import house_rules_data

# 200 melded + natural canasta 500 + two red threes 200 + out 100 = 1 000 against 50.
WINNING = hand(side(200, 1, 0, 2), side(100, left=50), went_out=0)
LANGUAGES = ("en", "fr", "es")


def create_club(client, name="Sunday", players=("Ann", "Bob", "Cy", "Di")):
    data = {"name": name, "players": list(players), "profile": "classic", "target": "1000"}
    response = client.post("/clubs/new", data=data)
    assert response.status_code == 303, response.data
    return response.headers["Location"].rsplit("/", 1)[1]


def start_game(client, club_id, a=("Ann", "Bob"), b=("Cy", "Di"), **extra):
    data = {f"side-0-player-{k}": p for k, p in enumerate(a)}
    data |= {f"side-1-player-{k}": p for k, p in enumerate(b)}
    data |= {"profile": "classic", "target": "1000", **extra}
    response = client.post(f"/clubs/{club_id}/games/new", data=data)
    assert response.status_code == 303, response.data
    return response.headers["Location"].rsplit("/", 1)[1]


def win(client, game_id):
    assert client.post(f"/api/games/{game_id}/hands", json=WINNING).status_code == 201


@pytest.fixture
def club(client):
    club_id = create_club(client)
    win(client, start_game(client, club_id))
    return club_id


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_club_page_renders(client, club, lang):
    client.set_cookie("lang", lang)
    for path in ("/clubs/new", f"/clubs/{club}", f"/clubs/{club}/games/new", "/"):
        response = client.get(path)
        assert response.status_code == 200, path
        assert response.headers["Content-Type"].startswith("text/html")
    page = client.get(f"/clubs/{club}").get_data(as_text=True)
    assert 'style="' not in page  # the CSP allows no inline style
    assert "<svg" in page and "<polyline" in page
    assert f'href="/clubs/{club}/hands.csv"' in page
    assert f'href="/api/clubs/{club}/export"' in page
    assert f"/clubs/{club}/qr.svg" in page
    heading = {"en": "Standings", "fr": "Classement", "es": "Clasificación"}[lang]
    assert heading in page
    # 1 000 written the reader's way in the records, linking to the hand.
    thousand = {"en": "1,000", "fr": "1\u202f000", "es": "1.000"}[lang]
    assert re.search(r'href="/games/[\w-]+#hand-1">' + re.escape(thousand), page), lang


def test_standings_numbers(client, club):
    page = client.get(f"/clubs/{club}").get_data(as_text=True)
    every = page[page.index('class="standings standings-all"') :]
    row = re.search(r'<th scope="row">Ann</th>(.*?)</tr>', every, re.S).group(1)
    cells = re.findall(r'<td class="n">(.*?)</td>', row, re.S)
    assert cells[:4] == ["1", "1", "100%", "1,000"]  # games, wins, win rate, average hand
    assert cells[4:7] == ["1.00", "0.00", "2.00"]  # natural, mixed, red threes per hand
    assert cells[7:9] == ["100%", "0%"]  # went out, concealed
    loser = re.search(r'<th scope="row">Cy</th>(.*?)</tr>', every, re.S).group(1)
    assert "lost 1" in loser


def test_scoreboard_has_the_hand_anchor(client, club):
    page = client.get(f"/clubs/{club}").get_data(as_text=True)
    game_id = re.search(r'href="/games/([\w-]+)#hand-1"', page).group(1)
    assert 'id="hand-1"' in client.get(f"/games/{game_id}").get_data(as_text=True)


def test_new_club_refusal_keeps_what_was_typed(client):
    data = {"name": "Sunday", "players": ["Ann", "", "ann"], "profile": "classic", "target": ""}
    response = client.post("/clubs/new", data=data)
    assert response.status_code == 422
    page = response.get_data(as_text=True)
    assert 'value="Sunday"' in page and 'value="ann"' in page
    assert "already in the club" in page
    assert 'id="players-2" name="players" value="ann"' in page
    assert 'aria-invalid="true"' in page
    assert client.post("/clubs/new", data={"name": " ", "players": []}).status_code == 422


def test_new_game_refusal_keeps_what_was_typed(client, club):
    data = {"side-0-player-0": "Ann", "side-0-new-1": "Evil\u202ename", "side-1-player-0": "Cy"}
    response = client.post(f"/clubs/{club}/games/new", data=data)
    assert response.status_code == 422
    page = response.get_data(as_text=True)
    assert "Evil\u202ename" in page and "Nothing was saved" in page
    one_side = client.post(f"/clubs/{club}/games/new", data={"side-0-player-0": "Ann"})
    assert one_side.status_code == 422


def test_new_game_from_club_preselects_and_joins_the_roster(client, club):
    form = client.get(f"/clubs/{club}/games/new").get_data(as_text=True)
    assert '<option value="1000" selected>' in form  # the club's usual target
    assert "<option selected>Ann</option>" in form  # last game's table
    game_id = start_game(client, club, a=("Ann", "Bob"), b=("Cy",), **{"side-1-new-1": "Eve"})
    roster = client.get(f"/api/clubs/{club}").json
    assert [p["name"] for p in roster["players"]] == ["Ann", "Bob", "Cy", "Di", "Eve"]
    assert game_id in roster["games"]
    assert client.get(f"/api/games/{game_id}").json["target"] == 1000


def test_roster_add_rename_remove(client, club):
    assert client.post(f"/clubs/{club}/players", data={"name": "Flo"}).status_code == 303
    clash = client.post(f"/clubs/{club}/players", data={"name": "flo"})
    assert clash.status_code == 409 and 'value="flo"' in clash.get_data(as_text=True)
    renamed = client.post(f"/clubs/{club}/players/rename", data={"old": "Ann", "name": "Anne"})
    assert renamed.status_code == 303
    assert "Anne" in client.get(f"/clubs/{club}").get_data(as_text=True)
    refused = client.post(f"/clubs/{club}/players/remove", data={"name": "Anne"})
    assert refused.status_code == 409
    page = refused.get_data(as_text=True)
    assert "has played 1 game(s) of this club" in page
    assert client.post(f"/clubs/{club}/players/remove", data={"name": "Flo"}).status_code == 303
    assert client.post("/clubs/nope/players", data={"name": "X"}).status_code == 404


def test_filing_asks_when_a_name_is_ambiguous(client, club):
    game = client.post(
        "/api/games",
        json={"sides": [{"players": ["Ann", "ANN"]}, {"players": ["Cy", "Gus"]}]},
    ).json
    address = f"http://127.0.0.1/games/{game['id']}"
    asked = client.post(f"/clubs/{club}/file", data={"game": address})
    assert asked.status_code == 409
    page = asked.get_data(as_text=True)
    assert "Who is “ANN”?" in page and "Who is “Gus”?" in page
    assert f'value="{address}"' in page
    assert game["id"] not in client.get(f"/api/clubs/{club}").json["games"]  # nothing guessed
    answers = {"game": address, "asked": ["ANN", "Gus"], "answer-0": "Bob", "answer-new-1": "Gus"}
    filed = client.post(f"/clubs/{club}/file", data=answers)
    assert filed.status_code == 303
    assert game["id"] in client.get(f"/api/clubs/{club}").json["games"]
    names = client.get(f"/api/games/{game['id']}").json["sides"][0]["players"]
    assert names == ["Ann", "Bob"]
    assert client.post(f"/clubs/{club}/file", data={"game": "???"}).status_code == 422
    unknown = client.post(f"/clubs/{club}/file", data={"game": "A" * 22})
    assert unknown.status_code == 404


def test_home_lists_this_browsers_clubs(client, club):
    page = client.get("/").get_data(as_text=True)
    assert f'href="/clubs/{club}"' in page and "Sunday" in page
    other = client.application.test_client()
    assert f'href="/clubs/{club}"' not in other.get("/").get_data(as_text=True)


def test_qr_and_unknown_club(client, club):
    svg = client.get(f"/clubs/{club}/qr.svg")
    assert svg.status_code == 200 and svg.mimetype == "image/svg+xml"
    for path in (
        "/clubs/nope",
        "/clubs/nope/qr.svg",
        "/clubs/nope/games/new",
        "/clubs/nope/night.pdf",
    ):
        assert client.get(path).status_code == 404, path


def pdf_text(data: bytes) -> tuple[int, str]:
    with pdfplumber.open(BytesIO(data)) as document:
        return len(document.pages), "\n".join(page.extract_text() or "" for page in document.pages)


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_club_night_pdf(client, club, lang):
    win(client, start_game(client, club, a=("Cy", "Di"), b=("Ann", "Bob")))
    client.set_cookie("lang", lang)
    response = client.get(f"/clubs/{club}/night.pdf")
    assert response.status_code == 200 and response.mimetype == "application/pdf"
    pages, text = pdf_text(response.data)
    assert pages == 1
    assert "Sunday" in text
    title = {"en": "Standings of the night", "fr": "Classement de la soirée"}[lang]
    assert title in text
    won = {"en": "Won by Ann & Bob", "fr": "Gagnée par Ann & Bob"}[lang]
    assert won in text or lang == "fr"
    assert "Cy & Di" in text
    thousand = {"en": "1,000", "fr": "1 000"}[lang]
    assert thousand in text.replace("\u202f", " ").replace("\u00a0", " ")


def test_club_night_pdf_refuses_a_bad_date(client, club):
    assert client.get(f"/clubs/{club}/night.pdf?date=30-11-2026").status_code == 400
    empty = client.get(f"/clubs/{club}/night.pdf?date=2001-01-01")
    assert empty.status_code == 200
    assert "No game that day." in pdf_text(empty.data)[1]


def test_a_clubs_games_are_listed_a_page_at_a_time(client, monkeypatch):
    """The page lists GAMES_PER_PAGE games (newest first), whatever the club holds."""
    monkeypatch.setattr(club_pages, "GAMES_PER_PAGE", 2)
    club_id = create_club(client)
    games = [start_game(client, club_id, name=f"Game {n}") for n in range(5)]
    page = client.get(f"/clubs/{club_id}").get_data(as_text=True)
    listed = re.findall(r'href="/games/([\w-]+)"><span class="game-name">', page)
    assert listed == [games[4], games[3]]
    assert "Games 1 to 2 of 5" in page
    assert f'href="/clubs/{club_id}?page=2#games"' in page and "Newer games" not in page
    last = client.get(f"/clubs/{club_id}?page=3").get_data(as_text=True)
    assert re.findall(r'href="/games/([\w-]+)"><span class="game-name">', last) == [games[0]]
    assert "Newer games" in last and "Older games" not in last
    for bad in ("4", "0", "two"):
        refused = client.get(f"/clubs/{club_id}?page={bad}")
        assert refused.status_code == 400 and "page" in refused.get_data(as_text=True)


def classic_editor() -> dict[str, str]:
    """The house-rule boxes as the new-club form sends them untouched: Classic's values (the
    boxes of another game's canastas are disabled, so not sent; the first minimum has no
    start box)."""
    data = house_rules_data()
    sent = {k: str(v) for k, v in data.items() if k != "minimums" and v is not None}
    for i, row in enumerate(data["minimums"]):
        for part in ("start", "minimum")[0 if i else 1 :]:
            sent[f"minimums-{i}-{part}"] = "" if row[part] is None else str(row[part])
    return sent


def box_value(page: str, box: str) -> str:
    """What the page's box of this id holds."""
    tag = re.search(rf'<input[^>]*\bid="{box}"[^>]*>', page).group(0)
    return re.search(r'value="([^"]*)"', tag).group(1)


def test_a_refused_new_club_shows_the_chosen_variants_house_rules(app, client):
    """Drawn again after a refusal (a page without the script), the editor shows the chosen
    game's values, not those the page was first drawn with; a value typed stays."""
    data = {**classic_editor(), "going_out": "150"}
    data |= {"name": " ", "players": ["Ann"], "profile": "four-player", "target": ""}
    response = client.post("/clubs/new", data=data)
    assert response.status_code == 422
    page = response.get_data(as_text=True)
    assert 'name="rules_for" type="hidden" value="four-player"' in page
    shown = {
        box: box_value(page, box)
        for box in ("going_out", "sevens_canasta", "canastas_to_go_out", "minimums-0-minimum")
    }
    assert shown == {
        "going_out": "150",
        "sevens_canasta": "2500",
        "canastas_to_go_out": "2",
        "minimums-0-minimum": "125",
    }
    assert '<details class="house-rules-form" open' in page  # it holds a change
    # "Show this variant's house rules" does the same, and saves nothing.
    shown = client.post("/clubs/new", data={**data, "name": "Tuesday", "show": "1"})
    assert shown.status_code == 200
    page = shown.get_data(as_text=True)
    assert 'value="Tuesday"' in page and box_value(page, "minimums-0-minimum") == "125"
    with sqlite3.connect(app.config["DATABASE"]) as db:
        assert db.execute("select count(*) from clubs").fetchone() == (0,)
