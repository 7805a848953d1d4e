"""A team is called by every one of its players, whole (issue 28 point 6): no longer "A & B"
cut at 40 characters, on the board, the winner line, the sheet and the big screen; a game
stored by an older version (its name cut) reads whole, with nothing rewritten."""

from __future__ import annotations

from io import BytesIO

import pdfplumber
from apidata import hand, side
from stored import sql

AGNES, BILL = "Agnès Moreau-Delacroix", "Bill O'Connor-Fitzgerald"
INGRID, JO = "Ingrid Bakke", "Jo"
WHOLE = f"{AGNES} & {BILL}"  # 47 characters: cut at 40 before
CUT = WHOLE[:40].strip()


def team_game(client, **fields) -> str:
    # One hand decides: the winner line shows at once.
    sides = [{"players": [AGNES, BILL]}, {"players": [INGRID, JO]}]
    body = {"sides": sides, "fixed_hands": 1, **fields}
    response = client.post("/api/games", json=body)
    assert response.status_code == 201, response.json
    return response.json["id"]


def win(client, game_id: str) -> None:
    body = hand(side(300, natural=1), side(50), went_out=0)
    response = client.post(f"/api/games/{game_id}/hands", json=body)
    assert response.status_code == 201, response.json


def test_a_team_is_named_by_both_players_whole_in_every_answer(client):
    game_id = team_game(client)
    win(client, game_id)
    game = client.get(f"/api/games/{game_id}").json
    assert [side["name"] for side in game["sides"]] == [WHOLE, f"{INGRID} & {JO}"]
    board = client.get(f"/games/{game_id}").get_data(as_text=True)
    assert "Fitzgerald" in board and board.count(CUT + "<") == 0
    assert "Fitzgerald" in board.split("winner", 1)[-1]
    watch = client.get(game["watch_url"])
    assert watch.status_code == 200 and "Fitzgerald" in watch.get_data(as_text=True)


def test_the_sheet_names_both_partners(client):
    game_id = team_game(client)
    win(client, game_id)
    response = client.get(f"/games/{game_id}/sheet.pdf")
    assert response.status_code == 200
    with pdfplumber.open(BytesIO(response.data)) as pdf:
        text = " ".join((page.extract_text() or "") for page in pdf.pages)
    flat = " ".join(text.split())
    # The players' list always had both; the winner line and the head lost the second.
    assert f"Winner: {WHOLE} with" in flat, flat
    assert f"{WHOLE}: " in flat, flat


def test_a_label_the_table_chose_stays_within_the_limit(client):
    ok = client.post(
        "/api/games",
        json={"sides": [{"name": "The Aces", "players": [AGNES, BILL]}, {"players": [INGRID, JO]}]},
    )
    assert ok.status_code == 201 and ok.json["sides"][0]["name"] == "The Aces"
    long = client.post(
        "/api/games",
        json={"sides": [{"name": "x" * 41, "players": [AGNES, BILL]}, {"players": [INGRID, JO]}]},
    )
    assert long.status_code == 422 and long.json["field"] == "sides[0].name"


def test_a_game_stored_with_a_cut_name_reads_whole_and_keeps_its_rows(app, client):
    game_id = team_game(client)
    # As an older version stored it: the players' names cut at 40 characters.
    sql(app, "update sides set name = ? where game_id = ? and position = 0", [CUT, game_id])
    game = client.get(f"/api/games/{game_id}").json
    assert game["sides"][0]["name"] == WHOLE
    assert sql(app, "select name from sides where game_id = ? and position = 0", [game_id]) == [
        (CUT,)
    ]
    win(client, game_id)
    board = client.get(f"/games/{game_id}").get_data(as_text=True)
    assert "Fitzgerald" in board


def test_an_export_with_whole_names_imports_back(client):
    game_id = team_game(client)
    win(client, game_id)
    exported = client.get(f"/api/games/{game_id}/export").json
    assert exported["sides"][0]["name"] == WHOLE
    response = client.post("/api/games/import", json=exported)
    assert response.status_code == 201, response.json
    assert response.json["sides"][0]["name"] == WHOLE
