"""Issue 20, point 10: the smaller things a newcomer met (pages through the test client)."""

from __future__ import annotations

import io
import re
from datetime import date
from pathlib import Path

import pdfplumber
from apidata import hand, put_hand, side
from babel.messages.pofile import read_po
from flask import Flask
from flask.testing import FlaskClient

from scorer.core.game import Side, next_name
from scorer.web.i18n import day_month_text

ROOT = Path(__file__).resolve().parents[2]
FOUR = [{"players": ["Ann", "Bob"]}, {"players": ["Cy", "Di"]}]
NBSP = "\u00a0"
ENGLISH = {"Accept-Language": "en"}
FRENCH = {"Accept-Language": "fr-FR"}


def test_a_name_over_the_limit_is_refused_whole_and_the_form_says_the_limit(client):
    form = client.get("/games/new", headers=ENGLISH).get_data(as_text=True)
    assert 'maxlength="40"' not in form  # a name box never cuts what is typed
    assert "A name has at most 40 characters." in form
    long = "Bernadette-Marie-Christine de la Tour-Vieille"  # 44 characters
    data = {
        "profile": "classic",
        "seating": "2-2",
        "sides-0-players-0": long,
        "sides-0-players-1": "Bob",
        "sides-1-players-0": "Cy",
        "sides-1-players-1": "Di",
        "rules_for": "classic",
    }
    refused = client.post("/games/new", data=data, headers=ENGLISH)
    assert refused.status_code == 422
    page = refused.get_data(as_text=True)
    assert "must be 1 to 40 characters" in page
    assert f'value="{long}"' in page  # kept as typed, all 44 characters


def test_play_again_names_the_next_game_apart() -> None:
    sides = [Side("Ann & Bob", ("Ann", "Bob")), Side("Cy & Di", ("Cy", "Di"))]
    assert next_name("Friday", sides) == "Friday #2"
    assert next_name("Friday #2", sides) == "Friday #3"
    assert next_name(None, sides) == "Ann & Bob / Cy & Di #2"
    long = next_name("A" * 40, sides)
    assert len(long) == 40 and long.endswith(" #2")


def test_the_board_counts_the_hands_up_to_the_end(client: FlaskClient) -> None:
    game = client.post("/api/games", json={"sides": FOUR, "target": 1000}).json
    gid = game["id"]
    for body in (hand(side(100, natural=1), side(50)), hand(side(300), side(50))):
        assert client.post(f"/api/games/{gid}/hands", json=body).status_code == 201
    winning = hand(side(300, natural=1, reds=2), side(50, left=20), went_out=0)
    assert put_hand(client, f"/api/games/{gid}/hands/1", json=winning).status_code == 200
    board = client.get(f"/games/{gid}", headers=ENGLISH).get_data(as_text=True)
    meta = re.search(r'<p class="meta">(.*?)</p>', board, re.S).group(1)
    assert re.search(r"·\s*1 hand\b", meta), meta  # hand 2 was played after the end


def test_the_checker_rows_start_apart_and_offer_no_red_three(client: FlaskClient) -> None:
    page = client.get("/check-meld", headers=ENGLISH).get_data(as_text=True)
    selects = re.findall(r'<select name="rank-\d+">(.*?)</select>', page, re.S)
    assert len(selects) == 6
    chosen = [re.search(r'value="([^"]+)" selected', s).group(1) for s in selects]
    assert len(set(chosen)) == 6, chosen
    assert all('value="red-3"' not in s for s in selects)
    top = re.search(r'<select id="discard_top".*?</select>', page, re.S).group(0)
    assert 'value="red-3"' in top  # a red three may still be what the pile shows


def test_the_clubs_who_is_who_question_is_not_an_error(client: FlaskClient) -> None:
    club = client.post("/api/clubs", json={"name": "Sunday", "players": ["Ann", "Bob"]}).json
    game = client.post(
        "/api/games", json={"sides": [{"players": ["Ann", "ANN"]}, {"players": ["Cy", "Gus"]}]}
    ).json
    asked = client.post(f"/clubs/{club['id']}/file", data={"game": game["id"]}, headers=ENGLISH)
    assert asked.status_code == 409
    page = asked.get_data(as_text=True)
    assert 'class="ask-note"' in page
    assert "banner error" not in page and "field-error" not in page
    assert 'aria-invalid="true"' not in page


def pdf_text(data: bytes) -> str:
    with pdfplumber.open(io.BytesIO(data)) as document:
        return "\n".join(page.extract_text() or "" for page in document.pages)


def test_the_six_side_sheet_legend_names_only_its_columns(client: FlaskClient) -> None:
    six = pdf_text(client.get("/sheets/blank.pdf?sides=6", headers=ENGLISH).data)
    legend = six[six.index("Min:") :]
    assert "Score:" in legend and "Total:" in legend
    assert "Bonuses:" not in six and "In hand:" not in six
    two = pdf_text(client.get("/sheets/blank.pdf?sides=2", headers=ENGLISH).data)
    assert "Bonuses:" in two and "In hand:" in two  # the full sheet has those columns


def test_the_readme_and_the_sheets_page_name_the_same_seatings(client: FlaskClient) -> None:
    page = client.get("/sheets", headers=ENGLISH).get_data(as_text=True)
    links = set(re.findall(r'href="(/sheets/blank\.pdf\?[^"&]+&amp;seating=[^"&]+)"', page))
    links = {link.replace("&amp;", "&") for link in links}
    readme = (ROOT / "README.md").read_text()
    examples = re.findall(r"`(/sheets/blank\.pdf\?sides=\d+&seating=[\w-]+)`", readme)
    assert examples, "the README shows a blank sheet's address"
    for example in examples:
        assert example in links, example
    assert "3 sides: 6 players in 3 teams of 2" in page


def test_french_dates_and_typography(app: Flask, client: FlaskClient) -> None:
    with app.test_request_context(headers=FRENCH):
        assert day_month_text(date(2026, 12, 1)) == "1er décembre"
        assert day_month_text(date(2026, 12, 2)) == "2 décembre"
    with app.test_request_context(headers={"Accept-Language": "en-GB"}):
        assert day_month_text(date(2026, 12, 1)) == "1 December"
    with app.test_request_context(headers={"Accept-Language": "en-US"}):
        assert day_month_text(date(2026, 12, 1)) == "December 1"
    # Every French sentence: a no-break space before : ; ? ! and inside 1 000.
    with (ROOT / "scorer/translations/fr/LC_MESSAGES/messages.po").open("rb") as handle:
        catalogue = read_po(handle)
    broken = []
    for message in catalogue:
        strings = message.string if isinstance(message.string, tuple) else (message.string,)
        for text in strings:
            if re.search(r" [:;?!]|\d \d{3}\b", text or ""):
                broken.append(text)
    assert broken == []
    club = client.post("/api/clubs", json={"name": "Sunday", "players": ["Ann", "Bob"]}).json
    body = {"sides": [{"players": ["Ann"]}, {"players": ["Bob"]}], "profile": "two-player"}
    client.post(f"/api/clubs/{club['id']}/games", json=body)
    page = client.get(f"/clubs/{club['id']}", headers=FRENCH).get_data(as_text=True)
    assert f"Meilleure donne{NBSP}:" in page


def test_the_two_player_form_says_nothing_of_partners(client: FlaskClient) -> None:
    two = client.get("/games/new?profile=two-player", headers=ENGLISH).get_data(as_text=True)
    hint = re.search(r'<p class="hint partners-hint"([^>]*)>', two)
    assert hint and "hidden" in hint.group(1)
    four = client.get("/games/new", headers=ENGLISH).get_data(as_text=True)
    hint = re.search(r'<p class="hint partners-hint"([^>]*)>', four)
    assert hint and "hidden" not in hint.group(1)
