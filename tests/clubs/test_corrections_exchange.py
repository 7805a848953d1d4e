"""A club game's record of corrections (issue 33) through the API: `GET /api/games/<id>`
names it, the game's and the club's exports carry it and their imports restore it exactly;
an export from before the record imports; a malformed entry is refused at its field and
nothing is stored."""

from __future__ import annotations

import copy

import pytest
from flask.testing import FlaskClient

from scorer.store.db import connect
from tests.clubs.test_corrections_record import game_with_hand_1_corrected, hand
from tests.games.test_modern_american_api import LOSERS, WINNERS, WORKED


def corrected_game(client: FlaskClient) -> str:
    """A club game with hand 1 corrected and hand 2 removed, both through the API."""
    game_id, etag = game_with_hand_1_corrected(client)
    removed = client.delete(f"/api/games/{game_id}/hands/2", headers={"If-Match": etag})
    assert removed.status_code == 200, removed.json
    return game_id


def test_the_games_answer_names_its_record(client):
    game_id = corrected_game(client)
    record = client.get(f"/api/games/{game_id}").json["corrections"]
    assert [(c["hand"], c["kind"], c["screen"]) for c in record] == [
        (1, "correction", "api"),
        (2, "removal", "api"),
    ]
    first, second = record
    assert [side["meld_points"] for side in first["before"]["sides"]] == [300, 100]
    assert [side["meld_points"] for side in first["after"]["sides"]] == [350, 100]
    assert [side["score"]["total"] for side in first["after"]["sides"]] == [350, 100]
    assert second["after"] is None
    assert [side["score"]["total"] for side in second["before"]["sides"]] == [150, 200]
    assert first["at"].endswith("+00:00") and "T" in first["at"]
    # The write's own answer says the same as the next read.
    assert client.get(f"/api/games/{game_id}").json["corrections"] == record


def test_a_game_export_keeps_its_record_through_an_import(client):
    game_id = corrected_game(client)
    exported = client.get(f"/api/games/{game_id}/export").json
    assert [c["kind"] for c in exported["corrections"]] == ["correction", "removal"]
    imported = client.post("/api/games/import", json=exported)
    assert imported.status_code == 201, imported.json
    new_id = imported.json["id"]
    again = client.get(f"/api/games/{new_id}/export").json
    assert again["corrections"] == exported["corrections"]
    assert (
        client.get(f"/api/games/{new_id}").json["corrections"]
        == client.get(f"/api/games/{game_id}").json["corrections"]
    )


def test_a_club_export_keeps_every_record_through_an_import(client):
    game_id = corrected_game(client)
    club_id = _club_of(client, game_id)
    exported = client.get(f"/api/clubs/{club_id}/export").json
    (game,) = exported["games"]
    assert [c["hand"] for c in game["corrections"]] == [1, 2]
    imported = client.post("/api/clubs/import", json=exported)
    assert imported.status_code == 201, imported.json
    again = client.get(f"/api/clubs/{imported.json['id']}/export").json
    assert again["games"][0]["corrections"] == game["corrections"]
    new_game = again["games"][0]["id"]
    assert client.get(f"/api/games/{new_game}").json["corrections"] == game["corrections"]


def test_an_export_from_before_the_record_imports(client):
    game_id = corrected_game(client)
    exported = client.get(f"/api/games/{game_id}/export").json
    del exported["corrections"]
    imported = client.post("/api/games/import", json=exported)
    assert imported.status_code == 201, imported.json
    assert client.get(f"/api/games/{imported.json['id']}").json["corrections"] == []


def _count(client: FlaskClient, table: str) -> int:
    db = connect(client.application.config["DATABASE"])
    try:
        return db.execute(f"select count(*) from {table}").fetchone()[0]
    finally:
        db.close()


@pytest.mark.parametrize(
    ("spoil", "field", "status"),
    [
        (lambda c: c[0].update(kind="undone"), "corrections[0].kind", 400),
        (lambda c: c[0].update(hand=0), "corrections[0].hand", 400),
        (lambda c: c[1].update(screen="fax"), "corrections[1].screen", 400),
        (lambda c: c[0].update(at="yesterday"), "corrections[0].at", 400),
        (lambda c: c[0].update(after=None), "corrections[0].after", 400),
        (lambda c: c[1].update(after=c[0]["after"]), "corrections[1].after", 400),
        (lambda c: c[0].update(signed_by="Ann"), "corrections[0].signed_by", 400),
        (lambda c: c[0]["before"]["sides"].pop(), "corrections[0].before.sides", 400),
        (
            lambda c: c[0]["before"]["sides"][0].update(meld_point=5),
            "corrections[0].before.sides[0].meld_point",
            400,
        ),
        (
            lambda c: c[0]["after"]["sides"][1]["score"].update(total="lots"),
            "corrections[0].after.sides[1].score.total",
            400,
        ),
        (lambda c: c.extend([c[0]] * 199), "corrections", 422),
    ],
)
def test_a_malformed_entry_is_refused_at_its_field(client, spoil, field, status):
    game_id = corrected_game(client)
    exported = client.get(f"/api/games/{game_id}/export").json
    db_id = client.get(f"/api/clubs/{_club_of(client, game_id)}/export").json
    games, records = _count(client, "games"), _count(client, "hand_corrections")
    bad = copy.deepcopy(exported)
    spoil(bad["corrections"])
    answer = client.post("/api/games/import", json=bad)
    assert (answer.status_code, answer.json["field"]) == (status, field), answer.json
    club = copy.deepcopy(db_id)
    spoil(club["games"][0]["corrections"])
    answer = client.post("/api/clubs/import", json=club)
    assert (answer.status_code, answer.json["field"]) == (status, f"games[0].{field}"), answer.json
    assert (_count(client, "games"), _count(client, "hand_corrections")) == (games, records)


def _club_of(client: FlaskClient, game_id: str) -> str:
    db = connect(client.application.config["DATABASE"])
    try:
        return db.execute("select club_id from club_games where game_id = ?", [game_id]).fetchone()[
            0
        ]
    finally:
        db.close()


def test_a_full_record_refuses_the_next_correction(client, monkeypatch):
    monkeypatch.setattr("scorer.core.limits.CORRECTIONS_PER_GAME", 2)
    game_id = corrected_game(client)  # two entries: the record is full
    answer = client.get(f"/api/games/{game_id}")
    refused = client.put(
        f"/api/games/{game_id}/hands/1",
        json=hand(400, 100),
        headers={"If-Match": answer.headers["ETag"]},
    )
    assert (refused.status_code, refused.json["field"]) == (422, "corrections"), refused.json
    after = client.get(f"/api/games/{game_id}").json
    assert after["version"] == answer.json["version"]
    assert [side["meld_points"] for side in after["hands"][0]["sides"]] == [350, 100]
    assert len(after["corrections"]) == 2


def test_an_imported_time_reads_in_utc(client):
    exported = client.get(f"/api/games/{corrected_game(client)}/export").json
    exported["corrections"][0]["at"] = "2026-12-02T22:30:00+02:00"
    imported = client.post("/api/games/import", json=exported)
    assert imported.status_code == 201, imported.json
    record = client.get(f"/api/games/{imported.json['id']}").json["corrections"]
    assert record[0]["at"] == "2026-12-02T20:30:00+00:00"


def test_a_modern_american_record_keeps_its_canastas_by_kind(client):
    """The record is written in the game's family's fields: a canasta of sevens stays one."""
    players = ["Ann", "Bob", "Cy", "Di"]
    club = client.post(
        "/api/clubs", json={"name": "T", "players": players, "family": "modern-american"}
    )
    sides = [{"players": ["Ann", "Bob"]}, {"players": ["Cy", "Di"]}]
    game = client.post(
        f"/api/clubs/{club.json['id']}/games", json={"sides": sides, "family": "modern-american"}
    )
    assert game.status_code == 201, game.json
    game_id = game.json["id"]
    saved = client.post(f"/api/games/{game_id}/hands", json=WORKED)
    body = {**WORKED, "sides": [{**WINNERS, "black_threes": 0}, LOSERS]}
    fixed = client.put(
        f"/api/games/{game_id}/hands/1", json=body, headers={"If-Match": saved.headers["ETag"]}
    )
    assert fixed.status_code == 200, fixed.json
    (entry,) = client.get(f"/api/games/{game_id}").json["corrections"]
    us_before, us_after = entry["before"]["sides"][0], entry["after"]["sides"][0]
    assert us_before["canastas"] == us_after["canastas"] == WINNERS["canastas"]
    assert (us_before["black_threes"], us_before["score"]["total"]) == (1, 3595)
    assert us_after["score"]["total"] == 3495
    exported = client.get(f"/api/clubs/{club.json['id']}/export").json
    imported = client.post("/api/clubs/import", json=exported)
    assert imported.status_code == 201, imported.json
    again = client.get(f"/api/clubs/{imported.json['id']}/export").json
    assert again["games"][0]["corrections"] == exported["games"][0]["corrections"] == [entry]
