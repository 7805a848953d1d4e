"""Issue 13: play again (page and API), the new-game form per seating, deals first, favicon."""

from __future__ import annotations

import sqlite3
import threading
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from apidata import hand, side
from flask.testing import FlaskClient

from scorer import create_app

BIG = hand(side(500, natural=2, mixed=2, reds=4), side(560, left=20), went_out=0)


def finished(client: FlaskClient, **extra: object) -> str:
    body = {"sides": [{"players": ["Ann", "Bob"]}, {"players": ["Cy", "Di"]}], **extra}
    game_id = client.post("/api/games", json=body).get_json()["id"]
    for _ in range(2):  # 3 000 and 540 a hand: Ann & Bob pass 5 000 at hand 2
        assert client.post(f"/api/games/{game_id}/hands", json=BIG).status_code == 201
    return game_id


def test_api_play_again_keeps_the_table_and_moves_the_deal_on(client: FlaskClient) -> None:
    old = finished(client, name="Friday", target=6000, rules={"going_out": 150})
    before = client.get(f"/api/games/{old}").get_json()
    response = client.post(f"/api/games/{old}/again")
    assert response.status_code == 201
    new = response.get_json()
    assert response.headers["Location"] == f"/api/games/{new['id']}"
    assert new["id"] != old and new["hands"] == []
    assert new["name"] == "Friday #2"  # two games of one evening, told apart
    for key in ("profile", "target", "rules"):
        assert new[key] == before[key], key
    seats = [(s["name"], s["players"]) for s in new["sides"]]
    assert seats == [(s["name"], s["players"]) for s in before["sides"]]
    assert [s["total"] for s in new["sides"]] == [0, 0]
    # Seating Ann, Cy, Bob, Di: hand 1 dealt by Ann, hand 2 by Cy, so Bob deals first now.
    assert new["dealer_next"] == "Bob"


def test_play_again_before_the_end_is_refused(client: FlaskClient) -> None:
    body = {"sides": [{"players": ["Ann", "Bob"]}, {"players": ["Cy", "Di"]}]}
    game_id = client.post("/api/games", json=body).get_json()["id"]
    response = client.post(f"/api/games/{game_id}/again")
    assert response.status_code == 422
    assert response.get_json()["field"] == "game"
    assert client.post(f"/games/{game_id}/again").status_code == 422


def test_page_play_again_opens_the_new_game(client: FlaskClient) -> None:
    old = finished(client)
    assert b"Play again" in client.get(f"/games/{old}").data
    response = client.post(f"/games/{old}/again")
    assert response.status_code == 303
    page = client.get(response.headers["Location"]).get_data(as_text=True)
    assert "New game with the same players: Bob deals first." in page
    assert b"Play again" not in client.get(response.headers["Location"]).data


def new_game(client: FlaskClient, **form: str) -> tuple[int, str]:
    response = client.post("/games/new", data=form)
    return response.status_code, response.get_data(as_text=True)


def test_three_players_alone_from_the_form(client: FlaskClient) -> None:
    names = {"sides-0-players-0": "Alice", "sides-1-players-0": "Bob", "sides-2-players-0": "Cy"}
    status, _page = new_game(
        client, profile="three-player", seating="alone", first_dealer=" alice ", **names
    )
    assert status == 302 or status == 303
    # Two names typed for three players: refused in plain words.
    del names["sides-2-players-0"]
    status, page = new_game(client, profile="three-player", seating="alone", **names)
    assert status == 422
    assert "this variant seats 3 players, each on their own" in page


def test_five_players_in_teams_of_three_and_two(client: FlaskClient) -> None:
    names = {f"sides-0-players-{i}": n for i, n in enumerate(("A", "B", "C"))}
    names |= {"sides-1-players-0": "D", "sides-1-players-1": "E", "sides-2-players-0": "Zed"}
    response = client.post("/games/new", data={"profile": "five-player", "seating": "3-2", **names})
    assert response.status_code == 303
    board = client.get(response.headers["Location"]).get_data(as_text=True)
    assert "Zed" not in board  # a box the seating does not show is not read
    assert "A, B, C" in board and "D, E" in board


def test_show_the_seats_without_javascript_saves_nothing(client: FlaskClient) -> None:
    status, page = new_game(client, profile="six-player", seating="3-3", show="1")
    assert status == 200
    assert "10,000 (usual target)" in page
    assert 'value="3-3" selected' in page
    assert "field-error" not in page


def test_deals_first_unknown_name_is_refused_naming_the_field(client: FlaskClient) -> None:
    names = {"sides-0-players-0": "Ann", "sides-0-players-1": "Bob"}
    names |= {"sides-1-players-0": "Cy", "sides-1-players-1": "Di"}
    status, page = new_game(client, profile="classic", seating="2-2", first_dealer="Eve", **names)
    assert status == 422
    assert "Deals first: must be one of the players" in page


def test_favicon(client: FlaskClient) -> None:
    response = client.get("/favicon.ico")
    assert response.status_code == 200
    assert response.data[:4] == b"\x00\x00\x01\x00"


# --- played again once (issue 25): a double tap or a retry makes one game ------------------


def games_stored(app) -> int:  # noqa: ANN001
    with sqlite3.connect(app.config["DATABASE"]) as conn:
        return conn.execute("select count(*) from games").fetchone()[0]


def test_a_retried_play_again_answers_the_same_new_game(app, client: FlaskClient) -> None:
    old = finished(client)
    first = client.post(f"/api/games/{old}/again")
    retry = client.post(f"/api/games/{old}/again")
    assert first.status_code == retry.status_code == 201
    assert retry.get_json()["id"] == first.get_json()["id"]
    assert retry.headers["Location"] == first.headers["Location"]
    # A double tap on the page opens that same game.
    taps = [client.post(f"/games/{old}/again") for _ in range(2)]
    assert [t.status_code for t in taps] == [303, 303]
    assert {t.headers["Location"] for t in taps} == {f"/games/{first.get_json()['id']}"}
    assert games_stored(app) == 2


def test_two_phones_tapping_play_again_at_once_make_one_game(tmp_path: Path) -> None:
    config = {"TESTING": True, "DATABASE": str(tmp_path / "db.sqlite3"), "SECRET_KEY": "s"}
    workers = [create_app({**config, "WTF_CSRF_ENABLED": False}) for _ in range(4)]
    old = finished(workers[0].test_client())
    start = threading.Barrier(len(workers))

    def tap(app) -> str:  # noqa: ANN001
        client = app.test_client()
        start.wait()
        response = client.post(f"/api/games/{old}/again")
        assert response.status_code == 201, response.get_data()
        return response.get_json()["id"]

    with ThreadPoolExecutor(max_workers=len(workers)) as pool:
        made = set(pool.map(tap, workers))
    assert len(made) == 1
    assert games_stored(workers[0]) == 2


def test_the_next_game_once_deleted_can_be_made_again(client: FlaskClient) -> None:
    old = finished(client)
    first = client.post(f"/api/games/{old}/again").get_json()["id"]
    assert client.post(f"/games/{first}/delete").status_code == 303
    again = client.post(f"/api/games/{old}/again")
    assert again.status_code == 201 and again.get_json()["id"] != first
