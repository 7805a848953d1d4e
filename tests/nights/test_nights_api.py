"""Club nights through the JSON API (issue 23 points 3, 4 and 7): real SQLite, the test client."""

from __future__ import annotations

import threading
from typing import Any

import pytest
from apidata import EIGHT
from flask import Flask
from flask.testing import FlaskClient


def new_club(client: FlaskClient) -> str:
    response = client.post("/api/clubs", json={"name": "Thursday club", "players": ["Ann"]})
    assert response.status_code == 201
    return response.json["id"]


def new_night(client: FlaskClient, club_id: str, **fields: Any) -> Any:
    body = {"players": EIGHT, "rounds": 3, "round": {"fixed_hands": 1}, **fields}
    return client.post(f"/api/clubs/{club_id}/nights", json=body)


@pytest.fixture
def night(client: FlaskClient) -> dict[str, Any]:
    response = new_night(client, new_club(client))
    assert response.status_code == 201, response.json
    return {**response.json, "etag": response.headers["ETag"]}


def draw(client: FlaskClient, night_id: str, etag: str | None = None) -> Any:
    if etag is None:
        etag = client.get(f"/api/nights/{night_id}").headers["ETag"]
    return client.post(f"/api/nights/{night_id}/rounds", headers={"If-Match": etag})


def play_hand(client: FlaskClient, game_id: str, first: int, second: int) -> None:
    sides = [{"meld_points": first}, {"meld_points": second}]
    response = client.post(f"/api/games/{game_id}/hands", json={"sides": sides})
    assert response.status_code == 201, response.json


def test_a_night_is_made_with_its_players_and_no_round_yet(client, night):
    assert night["players"] == EIGHT and night["rounds"] == [] and night["rounds_drawn"] == 0
    assert night["round"] == {"fixed_hands": 1} and night["draw"] == "random"
    assert night["ranking"] == "wins_then_points"
    assert [line["player"] for line in night["standings"]] == sorted(EIGHT)
    got = client.get(f"/api/nights/{night['id']}")
    assert got.status_code == 200 and got.json == {k: v for k, v in night.items() if k != "etag"}


def test_creating_answers_201_with_location_and_new_players_join_the_roster(client):
    club_id = new_club(client)
    response = new_night(client, club_id, players=["ann", "Bob", "Cy", "Di"])
    assert response.status_code == 201
    assert response.headers["Location"] == f"/api/nights/{response.json['id']}"
    # "ann" takes the roster's spelling; the others join the roster.
    assert response.json["players"] == ["Ann", "Bob", "Cy", "Di"]
    roster = [p["name"] for p in client.get(f"/api/clubs/{club_id}").json["players"]]
    assert roster == ["Ann", "Bob", "Cy", "Di"]


def test_a_retry_with_the_same_idempotency_key_makes_one_night(client):
    club_id = new_club(client)
    body = {"players": EIGHT, "rounds": 2}
    first = client.post(
        f"/api/clubs/{club_id}/nights", json=body, headers={"Idempotency-Key": "n-1"}
    )
    again = client.post(
        f"/api/clubs/{club_id}/nights", json=body, headers={"Idempotency-Key": "n-1"}
    )
    assert first.status_code == again.status_code == 201
    assert first.json["id"] == again.json["id"]
    other = client.post(
        f"/api/clubs/{club_id}/nights",
        json={**body, "rounds": 3},
        headers={"Idempotency-Key": "n-1"},
    )
    assert other.status_code == 422 and other.json["field"] == "Idempotency-Key"


@pytest.mark.parametrize(
    ("body", "status", "field"),
    [
        ({"players": EIGHT, "rounds": 0}, 422, "rounds"),
        ({"players": EIGHT, "rounds": 21}, 422, "rounds"),
        ({"players": EIGHT}, 422, "rounds"),
        ({"players": ["Ann", "Bob"], "rounds": 2}, 422, "players"),
        ({"players": [f"P{k}" for k in range(61)], "rounds": 2}, 422, "players"),
        ({"players": ["Ann", "Bob", "ANN", "Di"], "rounds": 2}, 422, "players[2]"),
        ({"players": ["Ann", "Bob", "", "Di"], "rounds": 2}, 422, "players[2]"),
        ({"players": "Ann, Bob", "rounds": 2}, 400, "players"),
        ({"players": EIGHT, "rounds": 2, "round": {"fixed_hands": 0}}, 422, "round.fixed_hands"),
        ({"players": EIGHT, "rounds": 2, "round": {"target": 1234}}, 422, "round.target"),
        (
            {"players": EIGHT, "rounds": 2, "round": {"target": 5000, "fixed_hands": 4}},
            422,
            "round",
        ),
        ({"players": EIGHT, "rounds": 2, "round": {"hands": 4}}, 400, "round.hands"),
        ({"players": EIGHT, "rounds": 2, "draw": "swiss"}, 422, "draw"),
        ({"players": EIGHT, "rounds": 2, "ranking": "elo"}, 422, "ranking"),
        ({"players": EIGHT, "rounds": 2, "odd": "sit"}, 422, "odd"),
        ({"players": EIGHT, "rounds": 2, "club": "x"}, 400, "club"),
    ],
)
def test_bad_input_is_refused_naming_the_field_and_nothing_is_stored(client, body, status, field):
    club_id = new_club(client)
    response = client.post(f"/api/clubs/{club_id}/nights", json=body)
    assert response.status_code == status, response.json
    assert response.json["field"] == field
    roster = [p["name"] for p in client.get(f"/api/clubs/{club_id}").json["players"]]
    assert roster == ["Ann"]


def test_an_unknown_club_or_night_is_404(client):
    assert new_night(client, "nope").status_code == 404
    assert client.get("/api/nights/nope").status_code == 404
    assert draw(client, "nope", etag="*").status_code == 404


def test_get_answers_304_until_something_changes(client, night):
    url = f"/api/nights/{night['id']}"
    assert client.get(url, headers={"If-None-Match": night["etag"]}).status_code == 304
    drawn = draw(client, night["id"], night["etag"])
    assert client.get(url, headers={"If-None-Match": night["etag"]}).status_code == 200
    game = drawn.json["rounds"][0]["tables"][0]["game"]
    tag = drawn.headers["ETag"]
    assert client.get(url, headers={"If-None-Match": tag}).status_code == 304
    play_hand(client, game, 100, 50)  # a hand at a table changes the standings: a new tag
    assert client.get(url, headers={"If-None-Match": tag}).status_code == 200


def test_a_round_is_drawn_as_ordinary_games_of_the_club(client, night):
    response = draw(client, night["id"], night["etag"])
    assert response.status_code == 201
    (drawn,) = response.json["rounds"]
    assert drawn["number"] == 1 and drawn["bye"] == []
    seated = sorted(p for t in drawn["tables"] for s in t["sides"] for p in s["players"])
    assert seated == sorted(EIGHT)
    for table in drawn["tables"]:
        game = client.get(f"/api/games/{table['game']}").json
        assert game["fixed_hands"] == 1 and game["profile"] == "classic"
        assert [s["players"] for s in game["sides"]] == [s["players"] for s in table["sides"]]
        assert client.get(table["watch_url"]).status_code == 200
        assert client.get(f"/games/{table['game']}/qr.svg").status_code == 200
    assert client.get(f"/games/{drawn['tables'][0]['game']}").status_code == 200


def test_a_tables_game_does_not_reveal_the_night_nor_the_club(client):
    """Nothing a table's phone or watcher reads names the organiser's night page or the club;
    the scoreboard leads back to the night's wall only (read only, issue 28 point 7)."""
    club_id = new_club(client)
    night = new_night(client, club_id).json
    drawn = draw(client, night["id"]).json
    watch_id = night["watch_url"].rsplit("/", 1)[-1]
    for table in drawn["rounds"][0]["tables"]:
        for url in (f"/api/games/{table['game']}", f"/games/{table['game']}", table["watch_url"]):
            text = client.get(url).get_data(as_text=True)
            assert night["id"] not in text and club_id not in text
            assert (watch_id in text) == (url == f"/games/{table['game']}")


def test_drawing_needs_if_match_and_a_stale_tag_draws_nothing(client, night):
    url = f"/api/nights/{night['id']}/rounds"
    missing = client.post(url)
    assert missing.status_code == 428 and missing.json["field"] == "If-Match"
    assert draw(client, night["id"], night["etag"]).status_code == 201
    stale = draw(client, night["id"], night["etag"])
    assert stale.status_code == 412
    assert client.get(f"/api/nights/{night['id']}").json["rounds_drawn"] == 1


def test_two_organisers_drawing_at_once_draw_the_round_once(app: Flask, night):
    statuses: list[int] = []
    start = threading.Barrier(2)

    def organiser() -> None:
        client = app.test_client()
        start.wait()
        statuses.append(draw(client, night["id"], night["etag"]).status_code)

    threads = [threading.Thread(target=organiser) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(statuses) == [201, 412]
    got = app.test_client().get(f"/api/nights/{night['id']}").json
    assert got["rounds_drawn"] == 1


def test_a_round_is_redrawn_until_its_first_hand_then_refused(client, night):
    first = draw(client, night["id"], night["etag"])
    old_games = [t["game"] for t in first.json["rounds"][0]["tables"]]
    redraw_url = f"/api/nights/{night['id']}/rounds/last/redraw"
    assert client.post(redraw_url).status_code == 428
    again = client.post(redraw_url, headers={"If-Match": first.headers["ETag"]})
    assert again.status_code == 200, again.json
    assert again.json["rounds_drawn"] == 1
    new_games = [t["game"] for t in again.json["rounds"][0]["tables"]]
    assert set(new_games).isdisjoint(old_games)
    assert all(client.get(f"/api/games/{g}").status_code == 404 for g in old_games)
    play_hand(client, new_games[1], 100, 50)
    tag = client.get(f"/api/nights/{night['id']}").headers["ETag"]
    refused = client.post(redraw_url, headers={"If-Match": tag})
    assert refused.status_code == 409 and refused.json["field"] == "rounds"
    assert [
        t["game"] for t in client.get(f"/api/nights/{night['id']}").json["rounds"][0]["tables"]
    ] == new_games


def test_no_more_rounds_than_planned(client):
    night = new_night(client, new_club(client), rounds=1).json
    assert draw(client, night["id"]).status_code == 201
    refused = draw(client, night["id"])
    assert refused.status_code == 409 and refused.json["field"] == "rounds"


def test_a_late_arrival_is_seated_from_the_next_round(client, night):
    draw(client, night["id"], night["etag"])
    url = f"/api/nights/{night['id']}/players"
    added = client.post(url, json={"name": "Ivy"})
    assert added.status_code == 201 and added.json["players"] == [*EIGHT, "Ivy"]
    assert client.post(url, json={"name": "ivy"}).status_code == 409
    assert client.post(url, json={"nom": "Jo"}).status_code == 400
    second = draw(client, night["id"]).json["rounds"][1]
    seated = [p for t in second["tables"] for s in t["sides"] for p in s["players"]]
    assert "Ivy" in seated and len(seated) == 9  # a table of five (the default "variants")
    assert sorted(t["profile"] for t in second["tables"]) == ["classic", "five-player"]


def test_a_rotating_bye_when_the_organiser_chooses_it(client):
    night = new_night(client, new_club(client), players=[*EIGHT, "Ivy"], odd="bye").json
    byes = [draw(client, night["id"]).json["rounds"][-1]["bye"] for _ in range(3)]
    assert all(len(bye) == 1 for bye in byes) and len({bye[0] for bye in byes}) == 3


def test_standings_follow_the_tables_live(client, night):
    drawn = draw(client, night["id"], night["etag"]).json["rounds"][0]["tables"]
    one, two = drawn
    play_hand(client, one["game"], 300, 100)  # one hand a round: side 1 wins by 200
    play_hand(client, two["game"], 50, 150)  # side 2 wins by 100
    lines = {
        line["player"]: line for line in client.get(f"/api/nights/{night['id']}").json["standings"]
    }
    for table, winner, margin in ((one, 0, 200), (two, 1, 100)):
        for k, side in enumerate(table["sides"]):
            for player in side["players"]:
                line = lines[player]
                assert line["rounds"] == 1
                assert line["wins"] == (k == winner)
                assert line["points"] == (margin if k == winner else -margin)
    ranked = [line["player"] for line in client.get(f"/api/nights/{night['id']}").json["standings"]]
    winners_one = one["sides"][0]["players"]
    assert sorted(ranked[:2]) == sorted(winners_one)  # two wins' worth: +200 beats +100


def test_the_tables_play_by_the_clubs_house_rules(client):
    rules = {"tie": "went_out_wins", "red_three": 150}
    response = client.post(
        "/api/clubs", json={"name": "Thursday club", "players": [], "settings": {"rules": rules}}
    )
    assert response.status_code == 201, response.json
    night = new_night(client, response.json["id"])
    drawn = draw(client, night.json["id"], night.headers["ETag"])
    assert drawn.status_code == 201, drawn.json
    for table in drawn.json["rounds"][0]["tables"]:
        game = client.get(f"/api/games/{table['game']}").json
        assert game["rules"]["tie"] == "went_out_wins" and game["rules"]["red_three"] == 150


def test_a_roster_rename_reaches_the_nights_players_byes_and_tables(client):
    club_id = new_club(client)
    night = new_night(client, club_id, players=[*EIGHT, "Ivy"], odd="bye").json
    drawn = draw(client, night["id"]).json
    before = client.get(f"/api/nights/{night['id']}")
    on_bye = drawn["rounds"][0]["bye"][0]
    seated = drawn["rounds"][0]["tables"][0]["sides"][0]["players"][0]
    for old in (on_bye, seated):
        response = client.patch(f"/api/clubs/{club_id}/players/{old}", json={"name": old + "-2"})
        assert response.status_code == 200, response.json
    after = client.get(f"/api/nights/{night['id']}")
    assert after.headers["ETag"] != before.headers["ETag"]
    players = after.json["players"]
    assert on_bye not in players and seated not in players
    assert {on_bye + "-2", seated + "-2"} <= set(players)
    assert after.json["rounds"][0]["bye"] == [on_bye + "-2"]
    assert seated + "-2" in after.json["rounds"][0]["tables"][0]["sides"][0]["players"]
    standings = {line["player"] for line in after.json["standings"]}
    assert standings == set(players)
