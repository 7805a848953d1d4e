"""The traps of a club night (issue 28 points 7 and 8, issue 35 point 9), through the API and
the pages without JavaScript: a draw taken back until its first hand, a draw that asks first
while a table still plays, a shared win that ends a table everywhere, and a night table whose
board leads back to the night."""

from __future__ import annotations

from typing import Any

import pytest
from apidata import EIGHT, dump, hand, side
from flask.testing import FlaskClient
from stored import sql


def new_club(client: FlaskClient, **settings: Any) -> str:
    body: dict[str, Any] = {"name": "Thursday club", "players": EIGHT}
    if settings:
        body["settings"] = settings
    response = client.post("/api/clubs", json=body)
    assert response.status_code == 201, response.json
    return response.json["id"]


def new_night(client: FlaskClient, club_id: str, **fields: Any) -> dict[str, Any]:
    body = {"players": EIGHT, "rounds": 3, "round": {"fixed_hands": 1}, **fields}
    response = client.post(f"/api/clubs/{club_id}/nights", json=body)
    assert response.status_code == 201, response.json
    return response.json


def etag(client: FlaskClient, night_id: str) -> str:
    return client.get(f"/api/nights/{night_id}").headers["ETag"]


def draw(client: FlaskClient, night_id: str) -> dict[str, Any]:
    response = client.post(
        f"/api/nights/{night_id}/rounds", headers={"If-Match": etag(client, night_id)}
    )
    assert response.status_code == 201, response.json
    return response.json


def undo(client: FlaskClient, night_id: str, tag: str | None = None) -> Any:
    headers = {"If-Match": tag if tag is not None else etag(client, night_id)}
    return client.delete(f"/api/nights/{night_id}/rounds/last", headers=headers)


def play(client: FlaskClient, game_id: str, first: int = 300, second: int = 50) -> Any:
    body = hand(side(first, natural=1), side(second), went_out=0)
    return client.post(f"/api/games/{game_id}/hands", json=body)


def table_games(night: dict[str, Any], number: int) -> list[str]:
    return [table["game"] for table in night["rounds"][number - 1]["tables"]]


# --- undo a draw (point 8) -----------------------------------------------------------------


def test_a_draw_is_taken_back_with_its_games(app, client):
    club_id = new_club(client)
    night = new_night(client, club_id)
    drawn = draw(client, night["id"])
    games = table_games(drawn, 1)
    response = undo(client, night["id"])
    assert response.status_code == 200, response.json
    assert response.json["rounds"] == [] and response.json["rounds_drawn"] == 0
    assert response.json["version"] == drawn["version"] + 1
    for game_id in games:
        assert client.get(f"/api/games/{game_id}").status_code == 404
    # Nothing of the round is left: no table, no round, no game row, nothing in the club.
    for table in ("night_tables", "night_rounds"):
        assert sql(app, f"select count(*) from {table}") == [(0,)]
    marks = ",".join("?" * len(games))
    for table, column in [("games", "id"), ("sides", "game_id"), ("club_games", "game_id")]:
        found = sql(app, f"select count(*) from {table} where {column} in ({marks})", games)
        assert found == [(0,)], table
    # Drawn again, the round is back (the tables are new games).
    again = draw(client, night["id"])
    assert again["rounds_drawn"] == 1 and not set(table_games(again, 1)) & set(games)


def test_only_the_last_round_goes_and_the_first_stays(client):
    night = new_night(client, new_club(client))
    first = draw(client, night["id"])
    for game_id in table_games(first, 1):
        assert play(client, game_id).status_code == 201
    second = draw(client, night["id"])
    assert second["rounds_drawn"] == 2
    after = undo(client, night["id"]).json
    assert after["rounds_drawn"] == 1 and table_games(after, 1) == table_games(first, 1)
    assert all(t["finished"] for t in after["rounds"][0]["tables"])


def test_a_round_with_a_hand_recorded_cannot_be_taken_back(app, client):
    night = new_night(client, new_club(client))
    drawn = draw(client, night["id"])
    assert play(client, table_games(drawn, 1)[0]).status_code == 201
    before = dump(app)
    response = undo(client, night["id"])
    assert response.status_code == 409 and response.json["field"] == "rounds"
    assert "begun" in response.json["error"]
    assert dump(app) == before


def test_undo_asks_for_the_version_and_refuses_a_stale_one(app, client):
    night = new_night(client, new_club(client))
    stale = etag(client, night["id"])
    draw(client, night["id"])
    before = dump(app)
    missing = client.delete(f"/api/nights/{night['id']}/rounds/last")
    assert missing.status_code == 428
    assert undo(client, night["id"], stale).status_code == 412
    assert dump(app) == before


def test_nothing_to_take_back_before_the_first_draw(client):
    night = new_night(client, new_club(client))
    response = undo(client, night["id"])
    assert response.status_code == 409 and response.json["field"] == "rounds"
    assert (
        client.delete("/api/nights/nope/rounds/last", headers={"If-Match": "*"}).status_code == 404
    )


def test_the_organiser_takes_back_a_draw_from_the_page(client):
    night = new_night(client, new_club(client))
    drawn = draw(client, night["id"])
    page = client.get(f"/nights/{night['id']}").get_data(as_text=True)
    assert f"/nights/{night['id']}/undo" in page and "Take back this draw" in page
    response = client.post(f"/nights/{night['id']}/undo", data={"version": drawn["version"]})
    assert response.status_code == 303
    shown = client.get(response.headers["Location"]).get_data(as_text=True)
    assert "The draw of round 1 is taken back" in shown
    assert client.get(f"/api/nights/{night['id']}").json["rounds_drawn"] == 0


# --- the draw asks first (point 8) ---------------------------------------------------------


def test_drawing_while_a_table_plays_asks_first_and_draws_nothing(app, client):
    night = new_night(client, new_club(client))
    drawn = draw(client, night["id"])
    games = table_games(drawn, 1)
    assert play(client, games[0]).status_code == 201  # table 1 is over, table 2 plays
    page = client.get(f"/nights/{night['id']}").get_data(as_text=True)
    assert 'method="get" action="/nights/' in page
    before = dump(app)
    version = client.get(f"/api/nights/{night['id']}").json["version"]
    asked = client.post(f"/nights/{night['id']}/draw", data={"version": version})
    text = asked.get_data(as_text=True)
    assert asked.status_code == 200 and "Draw round 2?" in text
    assert "1 table is still playing" in text and 'name="confirm" value="1"' in text
    assert dump(app) == before
    shown = client.get(f"/nights/{night['id']}/draw").get_data(as_text=True)
    assert "Draw round 2?" in shown
    done = client.post(f"/nights/{night['id']}/draw", data={"version": version, "confirm": "1"})
    assert done.status_code == 303
    assert client.get(f"/api/nights/{night['id']}").json["rounds_drawn"] == 2


def test_a_finished_round_draws_the_next_at_once(client):
    night = new_night(client, new_club(client))
    drawn = draw(client, night["id"])
    for game_id in table_games(drawn, 1):
        assert play(client, game_id).status_code == 201
    page = client.get(f"/nights/{night['id']}").get_data(as_text=True)
    assert 'method="post" action="/nights/' + night["id"] + '/draw"' in page
    version = client.get(f"/api/nights/{night['id']}").json["version"]
    done = client.post(f"/nights/{night['id']}/draw", data={"version": version})
    assert done.status_code == 303
    assert client.get(f"/api/nights/{night['id']}").json["rounds_drawn"] == 2


# --- a shared win ends the table (issue 35 point 9) ----------------------------------------


@pytest.fixture
def shared(client: FlaskClient) -> dict[str, Any]:
    """A night whose club shares a tie at the top; table 1's only hand ends level."""
    night = new_night(client, new_club(client, rules={"tie": "shared"}))
    drawn = draw(client, night["id"])
    game_id = table_games(drawn, 1)[0]
    level = hand(side(100), side(100))
    assert client.post(f"/api/games/{game_id}/hands", json=level).status_code == 201
    assert play(client, game_id).status_code == 409  # the game takes no more hands
    return {"night": night, "game": game_id}


def test_a_shared_win_is_finished_in_the_json_and_on_the_wall(client, shared):
    night = client.get(f"/api/nights/{shared['night']['id']}").json
    table = night["rounds"][0]["tables"][0]
    assert (table["finished"], table["winner"], table["shared_win"]) == (True, None, [0, 1])
    wall = client.get(night["watch_url"], headers={"Accept": "application/json"}).json
    assert wall["rounds"][0]["tables"][0]["finished"] is True
    # Each sharing player has played the round and won it.
    lines = {line["player"]: line for line in night["standings"]}
    players = [p for s in table["sides"] for p in s["players"]]
    assert all(lines[p]["rounds"] == 1 and lines[p]["wins"] == 1 for p in players)


@pytest.mark.parametrize("address", ["organiser", "wall"])
def test_a_shared_win_reads_over_on_the_pages(client, shared, address):
    night = client.get(f"/api/nights/{shared['night']['id']}").json
    url = f"/nights/{night['id']}" if address == "organiser" else night["watch_url"]
    page = client.get(url).get_data(as_text=True)
    first = page.split('class="night-table"')[1]
    assert "share the win" in first and "hand 1 of 1" not in first


# --- a night table's end (point 7) ---------------------------------------------------------


def test_a_finished_table_leads_back_to_the_night_and_to_each_next_seat(client):
    night = new_night(client, new_club(client))
    first = draw(client, night["id"])
    game_id = table_games(first, 1)[0]
    assert play(client, game_id).status_code == 201
    board = client.get(f"/games/{game_id}").get_data(as_text=True)
    assert f'href="{night["watch_url"]}"' in board and "Back to the night" in board
    assert f"/nights/{night['id']}" not in board  # the wall, never the organiser's page
    assert "Play again" not in board and "Delete game" not in board
    assert "Round 2 is not drawn yet" in board
    for other in table_games(first, 1)[1:]:
        assert play(client, other).status_code == 201
    second = draw(client, night["id"])
    board = client.get(f"/games/{game_id}").get_data(as_text=True)
    assert "Round 2 is drawn" in board
    players = [p for s in first["rounds"][0]["tables"][0]["sides"] for p in s["players"]]
    for table in second["rounds"][1]["tables"]:
        seated = [p for s in table["sides"] for p in s["players"]]
        for player in set(players) & set(seated):
            line = board.split(f'<span class="player">{player}</span>', 1)[1]
            assert f"/games/{table['game']}" in line.split("</li>", 1)[0]


def test_a_night_table_is_not_deleted_from_its_board(client):
    night = new_night(client, new_club(client))
    game_id = table_games(draw(client, night["id"]), 1)[0]
    board = client.get(f"/games/{game_id}").get_data(as_text=True)
    assert "Delete game" not in board and f"/games/{game_id}/delete" not in board
    for method in (client.get, client.post):
        response = method(f"/games/{game_id}/delete")
        assert response.status_code == 303 and response.headers["Location"] == f"/games/{game_id}"
    assert client.get(f"/api/games/{game_id}").status_code == 200


def test_a_game_of_fixed_hands_has_no_target_on_its_chart(client):
    night = new_night(client, new_club(client), round={"fixed_hands": 4})
    game_id = table_games(draw(client, night["id"]), 1)[0]
    assert play(client, game_id).status_code == 201
    board = client.get(f"/games/{game_id}").get_data(as_text=True)
    chart = board.split('<figure class="chart">', 1)[1].split("</figure>", 1)[0]
    assert "target" not in chart and "5,000" not in chart and "a game of 4 hands" in chart
