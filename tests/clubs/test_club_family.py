"""A club's game of the Canasta family (issue 31): its games' default, its nights' tables,
its export; a club from before families plays Classic. Modern American is made choosable
here as the family model allows (FAMILIES), the step the API's helper takes for good."""

from __future__ import annotations

from typing import Any

import pytest
from flask.testing import FlaskClient

from scorer.core import families
from scorer.core.families import MODERN_AMERICAN

FOUR = ["Ann", "Bob", "Cy", "Di"]
EIGHT = [*FOUR, "Ed", "Flo", "Gus", "Hal"]


@pytest.fixture
def american(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(families.FAMILIES, MODERN_AMERICAN.key, MODERN_AMERICAN)


def new_club(client: FlaskClient, **fields: Any) -> dict[str, Any]:
    response = client.post("/api/clubs", json={"name": "Tuesday", "players": FOUR, **fields})
    assert response.status_code == 201, response.json
    return response.json


def club_game(client: FlaskClient, club_id: str, **fields: Any) -> dict[str, Any]:
    body = {"sides": [{"players": FOUR[:2]}, {"players": FOUR[2:]}], **fields}
    response = client.post(f"/api/clubs/{club_id}/games", json=body)
    assert response.status_code == 201, response.json
    return response.json


def test_a_club_plays_classic_unless_it_names_its_game(client: FlaskClient) -> None:
    club = new_club(client)
    assert club["family"] == "classic"
    game = club_game(client, club["id"])
    assert (game["family"], game["profile"]) == ("classic", "classic")


def test_an_unknown_game_is_refused_at_its_field(client: FlaskClient) -> None:
    for family in ("bridge", 7):
        response = client.post("/api/clubs", json={"name": "T", "family": family})
        assert response.status_code in (400, 422), response.json
        assert response.json["field"] == "family"


def test_a_modern_american_club_starts_its_games_in_its_game(
    client: FlaskClient, american: None
) -> None:
    club = new_club(client, family="modern-american", settings={"target": 8500})
    assert club["family"] == "modern-american"
    game = club_game(client, club["id"])
    assert (game["family"], game["profile"], game["target"]) == (
        "modern-american",
        "four-player",
        8500,
    )
    # A game of another family keeps its own variant and target, not the club's.
    classic = club_game(client, club["id"], family="classic")
    assert (classic["family"], classic["profile"], classic["target"]) == (
        "classic",
        "classic",
        5000,
    )


def test_a_modern_american_clubs_settings_are_of_its_game(
    client: FlaskClient, american: None
) -> None:
    response = client.post(
        "/api/clubs",
        json={"name": "T", "family": "modern-american", "settings": {"profile": "classic"}},
    )
    assert response.status_code in (400, 422)
    assert response.json["field"] == "settings.profile"


def test_a_modern_american_clubs_night_seats_its_tables_in_its_game(
    client: FlaskClient, american: None
) -> None:
    club = new_club(client, family="modern-american")
    body = {"players": EIGHT, "rounds": 2, "round": {"fixed_hands": 1}}
    night = client.post(f"/api/clubs/{club['id']}/nights", json=body).json
    etag = client.get(f"/api/nights/{night['id']}").headers["ETag"]
    drawn = client.post(f"/api/nights/{night['id']}/rounds", headers={"If-Match": etag})
    assert drawn.status_code == 201, drawn.json
    for table in drawn.json["rounds"][0]["tables"]:
        game = client.get(f"/api/games/{table['game']}").json
        assert (game["family"], game["profile"]) == ("modern-american", "four-player")


def test_an_odd_table_the_game_cannot_seat_is_refused(client: FlaskClient, american: None) -> None:
    club = new_club(client, family="modern-american")
    body = {"players": EIGHT[:6], "rounds": 1, "odd": "variants"}
    night = client.post(f"/api/clubs/{club['id']}/nights", json=body)
    assert night.status_code == 201, night.json
    etag = client.get(f"/api/nights/{night.json['id']}").headers["ETag"]
    drawn = client.post(f"/api/nights/{night.json['id']}/rounds", headers={"If-Match": etag})
    assert drawn.status_code in (400, 409, 422)
    assert drawn.json["field"] == "odd"
    assert client.get(f"/api/clubs/{club['id']}").json["games"] == []  # nothing stored


def test_the_export_carries_the_game_and_the_import_keeps_it(
    client: FlaskClient, american: None
) -> None:
    club = new_club(client, family="modern-american")
    club_game(client, club["id"])
    exported = client.get(f"/api/clubs/{club['id']}/export").json
    assert exported["family"] == "modern-american"
    imported = client.post("/api/clubs/import", json=exported)
    assert imported.status_code == 201, imported.json
    assert imported.json["family"] == "modern-american"
    older = {key: value for key, value in exported.items() if key != "family"}
    older["games"] = []
    assert client.post("/api/clubs/import", json=older).json["family"] == "classic"


def test_a_club_that_names_no_game_plays_its_usual_variants(
    client: FlaskClient, american: None
) -> None:
    club = new_club(client, settings={"profile": "four-player"})
    assert club["family"] == "modern-american"
    assert new_club(client, settings={"profile": "six-player"})["family"] == "classic"


def test_the_new_club_form_keeps_the_game_of_its_usual_variant(
    client: FlaskClient, american: None
) -> None:
    form = {"name": "Tuesday", "players": FOUR, "profile": "four-player", "target": "8500"}
    answer = client.post("/clubs/new", data=form)
    assert answer.status_code in (302, 303), answer.get_data(as_text=True)[:500]
    club_id = answer.headers["Location"].rstrip("/").rsplit("/", 1)[-1]
    club = client.get(f"/api/clubs/{club_id}").json
    assert (club["family"], club["settings"]["profile"]) == ("modern-american", "four-player")
