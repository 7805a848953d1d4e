"""A club that plays Samba or Bolivia (issue 32): its games and its nights' tables are of its
game, its records compare its own family's hands, its export keeps its game, and a forfeit
at its night gives the family's card points (4 000)."""

from __future__ import annotations

from typing import Any

import pytest
from flask.testing import FlaskClient

FOUR = ["Ann", "Bob", "Cy", "Di"]
EIGHT = [*FOUR, "Ed", "Flo", "Gus", "Hal"]
# A samba of hearts and seven kings, meld by meld, going out: 2 505 (docs/rules.md §5b); in
# Bolivia the same sequence is an escalera, and the hand scores the same.
OUT = {
    "went_out": 0,
    "sides": [
        {
            "melds": [{"rank": "K", "naturals": 7}],
            "sequences": [{"suit": "hearts", "first": "4", "last": "10"}],
            "red_threes": 2,
            "hand_points": 15,
        },
        {"meld_points": 70, "hand_points": 30},
    ],
    "confirm": ["opening_minimum"],
}


def new_club(client: FlaskClient, family: str) -> dict[str, Any]:
    body = {"name": "Thursday", "players": EIGHT, "family": family}
    response = client.post("/api/clubs", json=body)
    assert response.status_code == 201, response.json
    return response.json


@pytest.mark.parametrize(("family", "target"), [("samba", 10000), ("bolivia", 15000)])
def test_a_clubs_games_are_of_its_game(client: FlaskClient, family: str, target: int) -> None:
    club = new_club(client, family)
    assert club["family"] == family
    body = {"sides": [{"players": FOUR[:2]}, {"players": FOUR[2:]}]}
    game = client.post(f"/api/clubs/{club['id']}/games", json=body)
    assert game.status_code == 201, game.json
    assert (game.json["family"], game.json["profile"], game.json["target"]) == (
        family,
        family,
        target,
    )
    hand = client.post(f"/api/games/{game.json['id']}/hands", json=OUT)
    assert hand.status_code == 201, hand.json
    # The club's page and its records read the game (its best hand is Ann and Bob's 2 505).
    page = client.get(f"/clubs/{club['id']}")
    assert page.status_code == 200
    assert "2,505" in page.get_data(as_text=True)
    exported = client.get(f"/api/clubs/{club['id']}/export").json
    assert exported["family"] == family
    assert (
        exported["games"][0]["hands"][0]["sides"][0]["sequences"] == (OUT["sides"][0]["sequences"])
    )
    imported = client.post("/api/clubs/import", json=exported)
    assert imported.status_code == 201, imported.json
    assert imported.json["family"] == family


@pytest.mark.parametrize("family", ["samba", "bolivia"])
def test_a_clubs_night_seats_its_tables_in_its_game(client: FlaskClient, family: str) -> None:
    club = new_club(client, family)
    body = {"players": EIGHT, "rounds": 1, "ranking": "match_points", "round": {"fixed_hands": 1}}
    night = client.post(f"/api/clubs/{club['id']}/nights", json=body)
    assert night.status_code == 201, night.json
    url = f"/api/nights/{night.json['id']}"
    drawn = client.post(f"{url}/rounds", headers={"If-Match": client.get(url).headers["ETag"]})
    assert drawn.status_code == 201, drawn.json
    tables = drawn.json["rounds"][0]["tables"]
    for table in tables:
        game = client.get(f"/api/games/{table['game']}").json
        assert (game["family"], game["profile"]) == (family, family)
    # The second table's absent side forfeits: the present side takes the family's 4 000.
    forfeit = client.put(
        f"{url}/rounds/1/tables/2/forfeit",
        json={"absent": 1},
        headers={"If-Match": client.get(url).headers["ETag"]},
    )
    assert forfeit.status_code == 200, forfeit.json
    standings = client.get(url).json["standings"]
    card_points = sorted(line["card_points"] for line in standings)
    assert card_points[-1] == 4000 and card_points[0] == -4000
