"""The house rules of issue 22 through the contract: the API's "rules", the new-game and
new-club forms, the club's preset, /rules for a game, the scoreboard and the sheet (PDF read
back with pdfplumber). The engine's arithmetic is in test_house_rules.py."""

from __future__ import annotations

import html
import json
import re
from io import BytesIO
from typing import Any

import pdfplumber
import pytest
from apidata import dump, hand, side
from flask.testing import FlaskClient

FOUR = [{"players": ["Ann", "Bob"]}, {"players": ["Cy", "Di"]}]
HOUSE = {"tie": "went_out_wins", "red_threes_count_against": "no_canasta"}
# 500 + eight natural canastas: 4 500 apiece; then 550 apiece: a tie on 5 050.
TO_4500 = hand(side(500, natural=8), side(500, natural=8))
TIE_NOBODY_OUT = hand(side(550), side(550))


def create(client: FlaskClient, status: int = 201, **body: Any) -> dict[str, Any]:
    response = client.post("/api/games", json={"sides": FOUR, **body})
    assert response.status_code == status, response.json
    return response.json


def add(client: FlaskClient, game_id: str, body: dict, status: int = 201) -> dict[str, Any]:
    response = client.post(f"/api/games/{game_id}/hands", json=body)
    assert response.status_code == status, response.json
    return response.json


def plain(response: Any) -> str:
    page = response.get_data(as_text=True)
    return re.sub(r"\s+", " ", html.unescape(re.sub(r"<[^>]+>", " ", page)))


# --- the API ----------------------------------------------------------------------------------


def test_the_rules_come_back_with_the_book_defaults(client):
    game = create(client)
    assert (game["rules"]["tie"], game["rules"]["red_threes_count_against"]) == (
        "play_on",
        "no_meld",
    )
    assert game["house_rules"] == [] and game["shared_win"] == []


def test_house_rules_are_kept_and_score_red_threes_against_a_side_without_a_canasta(client):
    game = create(client, rules=HOUSE)
    assert {k: game["rules"][k] for k in HOUSE} == HOUSE
    assert sorted(game["house_rules"]) == sorted(HOUSE)
    # Side A melded 90 without a canasta and holds two red threes: -200 under this house rule.
    after = add(client, game["id"], hand(side(90, reds=2), side(60)))
    a = after["hands"][0]["sides"][0]["score"]
    assert (a["red_threes"], a["total"]) == (-200, 90 - 200)
    assert client.get(f"/api/games/{game['id']}").json["rules"]["tie"] == "went_out_wins"


def test_went_out_wins_ends_a_tie_through_the_api(client):
    game = create(client, rules={"tie": "went_out_wins"})
    add(client, game["id"], TO_4500)
    # A: seven aces in a natural canasta (140 + 500) and going out (100); B: 240 + 500.
    after = add(client, game["id"], hand(side(140, natural=1), side(240, natural=1), went_out=0))
    assert after["sides"][0]["total"] == after["sides"][1]["total"] == 5240
    assert (after["winner"], after["finished"], after["tied"]) == (0, True, False)


def test_a_shared_win_ends_the_game_and_takes_no_more_hands(app, client):
    game = create(client, rules={"tie": "shared"})
    add(client, game["id"], TO_4500)
    after = add(client, game["id"], TIE_NOBODY_OUT)
    assert (after["winner"], after["shared_win"], after["finished"]) == (None, [0, 1], True)
    assert after["ended_at"] == 2 and after["tied"] is False
    before = dump(app)
    refused = client.post(f"/api/games/{game['id']}/hands", json=hand(side(50), side(50)))
    assert refused.status_code == 409 and refused.json["error"]
    assert dump(app) == before


def test_by_the_book_a_tie_plays_on(client):
    game = create(client)
    add(client, game["id"], TO_4500)
    after = add(client, game["id"], TIE_NOBODY_OUT)
    assert (after["winner"], after["shared_win"], after["tied"]) == (None, [], True)


@pytest.mark.parametrize(
    ("rules", "field"),
    [
        ({"tie": "coin_toss"}, "rules.tie"),
        ({"tie": 2}, "rules.tie"),
        ({"red_threes_count_against": "never"}, "rules.red_threes_count_against"),
    ],
)
def test_bad_values_are_refused_naming_the_rule_and_nothing_stored(app, client, rules, field):
    before = dump(app)
    refused = create(client, status=422, rules=rules)
    assert refused["field"] == field and "one of" in refused["error"]
    assert dump(app) == before


def test_the_refusal_speaks_spanish_when_asked(client):
    response = client.post(
        "/api/games",
        json={"sides": FOUR, "rules": {"tie": "coin_toss"}},
        headers={"Accept-Language": "es"},
    )
    assert response.status_code == 422
    assert response.json["error"] == "debe ser uno de estos valores: play_on, went_out_wins, shared"


# --- /rules, the scoreboard, the sheet -------------------------------------------------------


@pytest.mark.parametrize(
    ("language", "label", "value", "note"),
    [
        ("en", "A tie at the top", "the side that went out wins", "a house rule settles a tie"),
        ("fr", "Égalité en tête", "le camp qui est sorti gagne", "une règle maison tranche"),
        ("es", "Empate en cabeza", "gana el bando que cerró", "una regla de la casa resuelve"),
    ],
)
def test_rules_for_the_game_show_both_house_rules(client, language, label, value, note):
    game = create(client, rules=HOUSE)
    page = plain(client.get(f"/rules?game={game['id']}", headers={"Accept-Language": language}))
    assert label in page and value in page and note in page
    book = plain(client.get("/rules", headers={"Accept-Language": language}))
    assert label in book and note not in book  # the rule is offered; no game, no note


def test_the_scoreboard_and_the_sheet_name_the_house_rules_and_the_shared_win(client):
    game = create(client, rules={"tie": "shared", "red_threes_count_against": "no_canasta"})
    add(client, game["id"], TO_4500)
    add(client, game["id"], TIE_NOBODY_OUT)
    board = plain(client.get(f"/games/{game['id']}"))
    assert "A tie at the top" in board and "the game ends, a shared win" in board
    assert "Shared win: Ann & Bob · Cy & Di" in board
    response = client.get(f"/games/{game['id']}/sheet.pdf")
    assert response.status_code == 200
    with pdfplumber.open(BytesIO(response.data)) as pdf:
        sheet = " ".join((page.extract_text() or "") for page in pdf.pages)
    sheet = re.sub(r"\s+", " ", sheet)
    assert "A tie at the top the game ends, a shared win" in sheet
    assert "Red threes count against a side without a canasta" in sheet
    assert "Shared win:" in sheet and "5,050" in sheet


# --- the new-game form (no JavaScript: the test client) --------------------------------------


def test_the_new_game_form_offers_and_keeps_both_rules(app, client):
    page = client.get("/games/new").get_data(as_text=True)
    assert 'name="tie"' in page and 'name="red_threes_count_against"' in page
    assert re.search(r'name="tie" value="play_on" checked>', page)
    data = {
        "profile": "classic",
        "rules_for": "classic",
        "sides-0-players-0": "Ann",
        "sides-0-players-1": "Bob",
        "sides-1-players-0": "Cy",
        "sides-1-players-1": "Di",
        "tie": "shared",
        "red_threes_count_against": "no_meld",
    }
    response = client.post("/games/new", data=data)
    assert response.status_code == 303
    game_id = response.headers["Location"].rsplit("/", 1)[1]
    game = client.get(f"/api/games/{game_id}").json
    assert game["house_rules"] == ["tie"] and game["rules"]["tie"] == "shared"


def test_the_new_game_form_refuses_a_bad_choice_at_its_box(app, client):
    data = {
        "profile": "classic",
        "sides-0-players-0": "Ann",
        "sides-0-players-1": "Bob",
        "sides-1-players-0": "Cy",
        "sides-1-players-1": "Di",
        "tie": "coin_toss",
    }
    before = dump(app)
    response = client.post("/games/new", data=data)
    assert response.status_code == 422
    page = response.get_data(as_text=True)
    assert '<details class="house-rules-form" open>' in page
    assert re.search(r'id="tie-error">A tie at the top: must be one of', page)
    assert dump(app) == before


# --- clubs: the preset -----------------------------------------------------------------------


def club_form(**extra: Any) -> dict[str, Any]:
    return {
        "name": "Sunday",
        "players": ["Ann", "Bob", "Cy", "Di"],
        "profile": "classic",
        "target": "",
        "rules_for": "classic",
        **extra,
    }


def test_the_new_club_form_has_the_house_rules_editor(client):
    page = client.get("/clubs/new").get_data(as_text=True)
    assert '<details class="house-rules-form">' in page
    for name in ("going_out", "tie", "red_threes_count_against", "minimums-1-start"):
        assert f'name="{name}"' in page


def test_a_club_keeps_its_house_rules_as_its_preset_for_new_games(app, client):
    data = club_form(tie="went_out_wins", going_out="150")
    response = client.post("/clubs/new", data=data)
    assert response.status_code == 303, response.get_data(as_text=True)
    club_id = response.headers["Location"].rsplit("/", 1)[1]
    club = client.get(f"/api/clubs/{club_id}").json
    assert club["settings"]["rules"] == {"going_out": 150, "tie": "went_out_wins"}
    # The club's new-game page names its preset, and a game started there plays by it.
    page = plain(client.get(f"/clubs/{club_id}/games/new"))
    assert "The club's house rules apply (its preset, Sunday):" in page
    assert "A tie at the top: the side that went out wins" in page
    started = client.post(
        f"/clubs/{club_id}/games/new",
        data={
            "side-0-player-0": "Ann",
            "side-0-player-1": "Bob",
            "side-1-player-0": "Cy",
            "side-1-player-1": "Di",
            "profile": "classic",
        },
    )
    assert started.status_code == 303
    game_id = started.headers["Location"].rsplit("/", 1)[1]
    game = client.get(f"/api/games/{game_id}").json
    assert game["rules"]["tie"] == "went_out_wins" and game["rules"]["going_out"] == 150


def test_a_bad_house_rule_in_the_new_club_form_is_refused_at_its_box(app, client):
    before = dump(app)
    response = client.post("/clubs/new", data=club_form(going_out="7", tie="shared"))
    assert response.status_code == 422
    page = response.get_data(as_text=True)
    assert '<details class="house-rules-form" open>' in page
    assert 'id="going_out-error">Going-out bonus: must be a multiple of 5' in page
    assert 'value="Sunday"' in page and re.search(r'name="tie" value="shared" checked>', page)
    response = client.post("/clubs/new", data=club_form(red_three="ten"))
    assert response.status_code == 400
    assert 'id="red_three-error"' in response.get_data(as_text=True)
    assert dump(app) == before


def test_the_club_api_takes_the_preset_and_refuses_a_bad_one(app, client):
    body = {"name": "Sunday", "settings": {"rules": {"tie": "shared"}}}
    club = client.post("/api/clubs", json=body).json
    game = client.post(
        f"/api/clubs/{club['id']}/games", json={"sides": FOUR}
    ).json  # the preset is chosen by default
    assert game["rules"]["tie"] == "shared"
    own = client.post(
        f"/api/clubs/{club['id']}/games", json={"sides": FOUR, "rules": {"tie": "play_on"}}
    ).json  # a game may still choose its own
    assert own["rules"]["tie"] == "play_on"
    before = dump(app)
    bad = {"name": "Monday", "settings": {"rules": {"red_threes_count_against": "x"}}}
    refused = client.post("/api/clubs", json=bad)
    assert refused.status_code == 422
    assert refused.json["field"] == "settings.rules.red_threes_count_against"
    assert dump(app) == before
    assert json.loads(json.dumps(club["settings"])) == {"rules": {"tie": "shared"}}
