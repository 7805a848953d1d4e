"""Ratings (issue 23 point 5): openskill from every finished game of a club, checked against
the library's own results, shown by the club's API and page, used by the balanced draw."""

from __future__ import annotations

import pytest
from flask.testing import FlaskClient
from openskill.models import PlackettLuce

from scorer.core.ratings import RatedGame, places, rate

AB, CD = ("Ann", "Bob"), ("Cy", "Di")


def test_the_first_game_of_two_pairs_moves_as_the_library_says():
    # openskill's Plackett-Luce: 25 +- 8.333 each; the winners go to 26.964, the others to
    # 23.036, both sigmas to 8.178 (the library's own numbers for this match).
    ratings = rate([RatedGame((AB, CD), (600, 400), 0)]).current
    assert ratings["Ann"].mu == pytest.approx(26.964294621803063)
    assert ratings["Cy"].mu == pytest.approx(23.035705378196937)
    assert ratings["Di"].sigma == pytest.approx(8.177962604389991)
    assert ratings["Bob"].games == 1


def test_a_night_of_games_rates_as_the_library_match_by_match():
    games = [
        RatedGame((AB, CD), (600, 400), 0),
        RatedGame((("Ann", "Cy"), ("Bob", "Di")), (100, 700), 1),
        RatedGame((("Ann",), ("Bob",), ("Cy",)), (900, 300, 300), 0),  # three alone, a tie
        RatedGame((AB, CD), (100, 50), None),  # under way: counts for nothing
        RatedGame((("Di", "Bob"), ("Cy", "Ann")), (800, 200), 0),
    ]
    model = PlackettLuce()
    mine = {name: model.rating() for name in ("Ann", "Bob", "Cy", "Di")}
    for teams, ranks in [
        ([["Ann", "Bob"], ["Cy", "Di"]], [0, 1]),
        ([["Ann", "Cy"], ["Bob", "Di"]], [1, 0]),
        ([["Ann"], ["Bob"], ["Cy"]], [0, 1, 1]),
        ([["Di", "Bob"], ["Cy", "Ann"]], [0, 1]),
    ]:
        rated = model.rate([[mine[p] for p in team] for team in teams], ranks=ranks)
        for team, new in zip(teams, rated, strict=True):
            for player, rating in zip(team, new, strict=True):
                mine[player] = rating
    result = rate(games)
    for player, expected in mine.items():
        assert result.current[player].mu == pytest.approx(expected.mu)
        assert result.current[player].sigma == pytest.approx(expected.sigma)
    assert [r.games for r in result.history["Ann"]] == [1, 2, 3, 4]
    assert result.current["Di"].games == 3


@pytest.mark.parametrize(
    ("totals", "winner", "expected"),
    [
        ((600, 400), 0, [0, 1]),
        ((400, 600), 1, [1, 0]),
        ((900, 300, 300), 0, [0, 1, 1]),
        ((300, 900, 500), 1, [2, 0, 1]),
        ((500, 500, 900, 100), 2, [1, 1, 0, 3]),
    ],
)
def test_places_winner_first_then_by_total(totals, winner, expected):
    sides = tuple((f"P{k}",) for k in range(len(totals)))
    assert places(RatedGame(sides, totals, winner)) == expected


def play_club_game(client: FlaskClient, club_id: str, sides, first: int, second: int) -> None:
    body = {"sides": [{"players": list(s)} for s in sides], "fixed_hands": 1}
    game = client.post(f"/api/clubs/{club_id}/games", json=body).json
    hand = {"sides": [{"meld_points": first}, {"meld_points": second}]}
    assert client.post(f"/api/games/{game['id']}/hands", json=hand).status_code == 201


def test_the_club_shows_each_players_rating_with_its_uncertainty(client):
    club_id = client.post("/api/clubs", json={"name": "C", "players": [*AB, *CD, "Eve"]}).json["id"]
    play_club_game(client, club_id, (AB, CD), 200, 100)
    players = {p["name"]: p for p in client.get(f"/api/clubs/{club_id}").json["players"]}
    assert players["Ann"]["rating"] == {
        "mu": 26.964,
        "sigma": 8.178,
        "ordinal": round(26.964294621803063 - 3 * 8.177962604389991, 3),
        "games": 1,
    }
    assert players["Eve"]["rating"] is None
    page = client.get(f"/clubs/{club_id}").get_data(as_text=True)
    assert "27 ± 16.4" in page and "23 ± 16.4" in page


def test_the_balanced_draw_pairs_the_strong_with_the_weak(client):
    club_id = client.post("/api/clubs", json={"name": "C", "players": [*AB, *CD]}).json["id"]
    for _ in range(4):
        play_club_game(client, club_id, (AB, CD), 300, 100)  # Ann and Bob always win
    for _ in range(3):
        body = {"players": [*AB, *CD], "rounds": 1, "draw": "balanced"}
        night = client.post(f"/api/clubs/{club_id}/nights", json=body).json
        drawn = client.post(f"/api/nights/{night['id']}/rounds", headers={"If-Match": "*"})
        (table,) = drawn.json["rounds"][0]["tables"]
        pairs = {frozenset(side["players"]) for side in table["sides"]}
        assert frozenset(AB) not in pairs and frozenset(CD) not in pairs
        ratings = {line["player"]: line["rating"] for line in drawn.json["standings"]}
        assert ratings["Ann"]["mu"] > 25 > ratings["Cy"]["mu"]


def test_ratings_move_after_a_night(client):
    club_id = client.post("/api/clubs", json={"name": "C", "players": [*AB, *CD]}).json["id"]
    body = {"players": [*AB, *CD], "rounds": 1, "round": {"fixed_hands": 1}}
    night = client.post(f"/api/clubs/{club_id}/nights", json=body).json
    drawn = client.post(f"/api/nights/{night['id']}/rounds", headers={"If-Match": "*"}).json
    (table,) = drawn["rounds"][0]["tables"]
    hand = {"sides": [{"meld_points": 300}, {"meld_points": 100}]}
    client.post(f"/api/games/{table['game']}/hands", json=hand)
    winners = table["sides"][0]["players"]
    after = {
        line["player"]: line["rating"]
        for line in client.get(f"/api/nights/{night['id']}").json["standings"]
    }
    assert all(after[p]["mu"] > 25 for p in winners)
    assert all(after[p]["mu"] < 25 for p in [*AB, *CD] if p not in winners)


def test_the_club_page_charts_each_rating_with_its_band(client):
    club_id = client.post("/api/clubs", json={"name": "C", "players": [*AB, *CD, "Eve"]}).json["id"]
    play_club_game(client, club_id, (AB, CD), 200, 100)
    play_club_game(client, club_id, (("Ann", "Cy"), ("Bob", "Di")), 100, 200)
    page = client.get(f"/clubs/{club_id}").get_data(as_text=True)
    assert "Ratings over time" in page
    assert page.count('<polygon class="band') == 4  # Eve has no finished game: no chart
    assert "Ann: a rating of" in page
