"""The record of corrections of a club game's hands (issue 33): each correction and removal,
from the API and from the pages (JavaScript off), what the hand was and what it became, when,
from which screen; shown on the game's page. A game outside a club keeps no record."""

from __future__ import annotations

import re

from flask.testing import FlaskClient

from scorer.store.corrections import corrections_of
from scorer.store.db import connect


def club_game(client: FlaskClient) -> str:
    club = client.post("/api/clubs", json={"name": "Thursday", "players": ["Ann", "Bob"]})
    game = client.post(
        f"/api/clubs/{club.json['id']}/games",
        json={
            "name": "Table 1",
            "sides": [{"players": ["Ann"]}, {"players": ["Bob"]}],
            "profile": "two-player",
        },
    )
    assert game.status_code == 201, game.json
    return game.json["id"]


def hand(first: int, second: int) -> dict:
    return {"sides": [{"meld_points": first}, {"meld_points": second}]}


def game_with_hand_1_corrected(client: FlaskClient) -> tuple[str, str]:
    """A club game of three hands, hand 1 corrected through the API: its id and ETag."""
    game_id = club_game(client)
    for first, second in ((300, 100), (150, 200), (50, 50)):
        assert (
            client.post(f"/api/games/{game_id}/hands", json=hand(first, second)).status_code == 201
        )
    etag = client.get(f"/api/games/{game_id}").headers["ETag"]
    fixed = client.put(
        f"/api/games/{game_id}/hands/1", json=hand(350, 100), headers={"If-Match": etag}
    )
    assert fixed.status_code == 200, fixed.json
    return game_id, fixed.headers["ETag"]


def test_corrections_and_removals_are_kept_and_shown(app, client):
    game_id, _etag = game_with_hand_1_corrected(client)
    # Removed from the scoreboard's pages (a form, JavaScript off).
    version = client.get(f"/api/games/{game_id}").json["version"]
    removed = client.post(f"/games/{game_id}/hands/2/delete", data={"version": str(version)})
    assert removed.status_code in (302, 303)
    db = connect(app.config["DATABASE"])
    record = corrections_of(db, game_id)
    db.close()
    assert [(c.hand, c.kind, c.before, c.after, c.screen) for c in record] == [
        (1, "corrected", (300, 100), (350, 100), "api"),
        (2, "removed", (150, 200), None, "remove"),
    ]
    page = re.sub(
        r"\s+", " ", re.sub(r"<[^>]+>", " ", client.get(f"/games/{game_id}").get_data(as_text=True))
    )
    assert "Record of corrections" in page
    assert "Hand 1 corrected" in page and "from the API" in page
    assert "was Ann 300 · Bob 100 ; became Ann 350 · Bob 100".replace(" ;", ";") in page
    assert "Hand 2 removed" in page and "from Remove this hand" in page


def test_a_game_outside_a_club_keeps_no_record(app, client):
    game = client.post(
        "/api/games",
        json={"sides": [{"players": ["Ann"]}, {"players": ["Bob"]}], "profile": "two-player"},
    )
    game_id = game.json["id"]
    client.post(f"/api/games/{game_id}/hands", json=hand(300, 100))
    etag = client.get(f"/api/games/{game_id}").headers["ETag"]
    client.put(f"/api/games/{game_id}/hands/1", json=hand(350, 100), headers={"If-Match": etag})
    db = connect(app.config["DATABASE"])
    assert corrections_of(db, game_id) == []
    db.close()
    assert "Record of corrections" not in client.get(f"/games/{game_id}").get_data(as_text=True)
