"""A club's nights are bounded (per club, per day), listed in pages, their keys pruned, and a
draw spends a new game per table it makes (issue 35)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from apidata import EIGHT
from flask import Flask
from flask.testing import FlaskClient

from scorer import create_app
from scorer.core import limits
from scorer.nights import pages
from scorer.store.db import connect
from scorer.store.housekeeping import cutoff, prune_abandoned

NIGHT = {"players": EIGHT, "rounds": 3, "round": {"fixed_hands": 1}}


def new_club(client: FlaskClient) -> str:
    response = client.post("/api/clubs", json={"name": "Thursday", "players": ["Ann"]})
    assert response.status_code == 201
    return response.get_json()["id"]


def new_night(client: FlaskClient, club: str, **headers: str) -> Any:
    return client.post(f"/api/clubs/{club}/nights", json=NIGHT, headers=headers)


def test_a_club_starts_a_bounded_number_of_nights_a_day(client: FlaskClient) -> None:
    club = new_club(client)
    made = [new_night(client, club).status_code for _ in range(limits.NIGHTS_PER_CLUB_PER_DAY)]
    assert made == [201] * limits.NIGHTS_PER_CLUB_PER_DAY
    refused = new_night(client, club)
    assert refused.status_code == 422
    assert refused.get_json()["field"] == "nights"
    page = client.post(f"/clubs/{club}/nights/new", data={"present": EIGHT, "rounds": "2"})
    assert page.status_code == 422 and "nights a day" in page.get_data(as_text=True)
    assert new_night(client, new_club(client)).status_code == 201  # another club: its own


def test_a_club_keeps_a_bounded_number_of_nights(
    client: FlaskClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(limits, "NIGHTS_PER_CLUB", 2)
    club = new_club(client)
    assert [new_night(client, club).status_code for _ in range(3)] == [201, 201, 422]
    assert "at most 2 nights" in new_night(client, club).get_json()["error"]


def test_the_clubs_nights_come_in_pages(
    client: FlaskClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(pages, "NIGHTS_PER_PAGE", 2)
    club = new_club(client)
    made = [new_night(client, club).get_json()["id"] for _ in range(5)]
    shown = []
    for number in (1, 2, 3):
        page = client.get(f"/clubs/{club}/nights?page={number}").get_data(as_text=True)
        shown.append({night for night in made if f"/nights/{night}" in page})
        assert ("Older nights" in page) is (number < 3)
        assert ("Newer nights" in page) is (number > 1)
    assert shown == [set(made[3:]), set(made[1:3]), set(made[:1])]  # newest first
    assert client.get(f"/clubs/{club}/nights?page=4").status_code == 400
    assert "Older nights" not in client.get(f"/clubs/{new_club(client)}/nights").text


def test_night_keys_are_pruned_with_the_others(app: Flask, client: FlaskClient) -> None:
    club = new_club(client)
    assert new_night(client, club, **{"Idempotency-Key": "old"}).status_code == 201
    assert new_night(client, club, **{"Idempotency-Key": "new"}).status_code == 201
    db = connect(app.config["DATABASE"])
    try:
        with db.conn:
            db.execute("update night_keys set created_at = ? where rowid = 1", [cutoff(10)])
        pruned = prune_abandoned(db)
        assert pruned.keys == 1
        assert db.execute("select count(*) from night_keys").fetchone() == (1,)
    finally:
        db.close()


def draw(client: FlaskClient, night: str) -> Any:
    tag = client.get(f"/api/nights/{night}").headers["ETag"]
    return client.post(f"/api/nights/{night}/rounds", headers={"If-Match": tag})


def test_a_draw_spends_a_new_game_per_table(tmp_path: Path) -> None:
    app = create_app(
        {
            "TESTING": True,
            "DATABASE": str(tmp_path / "db.sqlite3"),
            "SECRET_KEY": "s",
            "WTF_CSRF_ENABLED": False,
            "RATELIMIT_CREATE_GAME": "3/hour",
        }
    )
    client = app.test_client()
    night = new_night(client, new_club(client)).get_json()["id"]
    first = draw(client, night)
    assert first.status_code == 201 and len(first.get_json()["rounds"][0]["tables"]) == 2
    # Two of three games spent: the next round's two tables are more than is left.
    assert draw(client, night).status_code == 429
    tag = client.get(f"/api/nights/{night}").headers["ETag"]
    redraw = client.post(f"/api/nights/{night}/rounds/last/redraw", headers={"If-Match": tag})
    assert redraw.status_code == 429
    assert client.post(f"/nights/{night}/draw", data={}).status_code == 429
    games = connect(app.config["DATABASE"]).execute("select count(*) from games").fetchone()
    assert games == (2,)
