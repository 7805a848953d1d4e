"""The watch link: a second, read-only address per game, and the cheap live check."""

from __future__ import annotations

import re
import sqlite3
from contextlib import closing

import pytest
import sqlite_utils
from flask import Flask
from flask.testing import FlaskClient
from qrsvg import expected_modules, svg_modules

from scorer.store import db as scorer_db
from scorer.web import addresses

FOUR = [{"players": ["Ann", "Bob"]}, {"players": ["Cy", "Di"]}]
HAND = {
    "went_out": 0,
    "concealed": False,
    "sides": [
        {
            "meld_points": 120,
            "natural_canastas": 1,
            "mixed_canastas": 0,
            "red_threes": 0,
            "hand_points": 0,
        },
        {
            "meld_points": 60,
            "natural_canastas": 0,
            "mixed_canastas": 0,
            "red_threes": 0,
            "hand_points": 30,
        },
    ],
}


@pytest.fixture
def client(app: Flask) -> FlaskClient:
    addresses.init_app(app)
    return app.test_client()


def new_game(client: FlaskClient) -> tuple[str, str]:
    game_id = client.post("/api/games", json={"sides": FOUR}).json["id"]
    return game_id, client.get(f"/api/games/{game_id}").json["watch_url"]


def as_json(client: FlaskClient, url: str, **headers: str):
    return client.get(url, headers={"Accept": "application/json", **headers})


def stored_hands(app: Flask, game_id: str) -> int:
    with closing(sqlite3.connect(app.config["DATABASE"])) as conn:
        return conn.execute("select count(*) from hands where game_id = ?", [game_id]).fetchone()[0]


def test_the_game_json_names_its_watch_url(client):
    game_id, watch_url = new_game(client)
    assert re.fullmatch(r"/watch/[\w-]{22}", watch_url)
    assert game_id not in watch_url
    # Stable: asked again, the same address.
    assert client.get(f"/api/games/{game_id}").json["watch_url"] == watch_url


def test_two_games_have_unrelated_watch_ids(client):
    urls = {new_game(client)[1] for _ in range(5)}
    assert len(urls) == 5


def test_watch_json_is_the_game_without_its_id(client):
    game_id, watch_url = new_game(client)
    client.post(f"/api/games/{game_id}/hands", json=HAND)
    game = client.get(f"/api/games/{game_id}").json
    response = as_json(client, watch_url)
    assert response.status_code == 200
    watched = response.json
    assert "id" not in watched and "watch_url" not in watched
    assert watched == {k: v for k, v in game.items() if k not in ("id", "watch_url")}
    # Nothing in the answer carries the game's id: body and headers.
    assert game_id not in response.get_data(as_text=True)
    assert all(game_id not in value for _, value in response.headers.items())


def test_watch_page_has_no_way_to_write(client):
    game_id, watch_url = new_game(client)
    client.post(f"/api/games/{game_id}/hands", json=HAND)
    response = client.get(watch_url)
    assert response.status_code == 200
    page = response.get_data(as_text=True)
    assert game_id not in page
    assert "<form" not in page
    assert "Ann" in page and "Correct hand" not in page and "Undo" not in page
    assert f'data-live-url="{watch_url}"' in page
    hrefs = re.findall(r'href="([^"]+)"', page)
    assert not [h for h in hrefs if "/games/" in h or "/hands" in h or "/undo" in h]


@pytest.mark.parametrize("method", ["POST", "PUT", "PATCH", "DELETE"])
@pytest.mark.parametrize("suffix", ["", "/hands", "/hands/1", "/undo", "/qr.svg", "/delete"])
def test_every_write_through_the_watch_address_is_refused(client, app, method, suffix):
    game_id, watch_url = new_game(client)
    client.post(f"/api/games/{game_id}/hands", json=HAND)
    before = client.get(f"/api/games/{game_id}").json
    response = client.open(watch_url + suffix, method=method, json=HAND)
    # The watch page and its QR code are GET-only addresses (405); nothing else lives there.
    assert response.status_code == (405 if suffix in ("", "/qr.svg") else 404)
    assert client.get(f"/api/games/{game_id}").json == before
    assert stored_hands(app, game_id) == 1


def test_an_unknown_watch_id_is_404(client):
    assert client.get("/watch/not-a-watch-id").status_code == 404
    assert client.get("/watch/not-a-watch-id/qr.svg").status_code == 404


def test_the_game_id_is_not_a_watch_id(client):
    game_id, _ = new_game(client)
    assert client.get(f"/watch/{game_id}").status_code == 404


def test_watch_live_check_answers_304_with_its_own_etag(client):
    game_id, watch_url = new_game(client)
    first = as_json(client, watch_url)
    etag = first.headers["ETag"]
    assert game_id not in etag
    assert as_json(client, watch_url, **{"If-None-Match": etag}).status_code == 304
    client.post(f"/api/games/{game_id}/hands", json=HAND)
    again = as_json(client, watch_url, **{"If-None-Match": etag})
    assert again.status_code == 200 and len(again.json["hands"]) == 1
    # The game's own tag means nothing on the watch address.
    game_etag = client.get(f"/api/games/{game_id}").headers["ETag"]
    assert as_json(client, watch_url, **{"If-None-Match": game_etag}).status_code == 200


def test_watch_qr_draws_the_watch_address(client, monkeypatch):
    monkeypatch.setenv("SCORER_LAN_ADDRESS", "192.168.1.23")
    _, watch_url = new_game(client)
    response = client.get(f"{watch_url}/qr.svg", base_url="http://localhost:5000")
    assert response.status_code == 200
    assert svg_modules(response.get_data(as_text=True)) == expected_modules(
        f"http://192.168.1.23:5000{watch_url}"
    )


def test_game_live_check_is_304_without_replaying(client, app, monkeypatch):
    game_id, _ = new_game(client)
    etag = client.get(f"/api/games/{game_id}").headers["ETag"]
    from scorer import store

    real = store.load_game
    loads = []
    monkeypatch.setattr(store, "load_game", lambda *a, **k: loads.append(1) or real(*a, **k))
    response = client.get(f"/api/games/{game_id}", headers={"If-None-Match": etag})
    assert response.status_code == 304 and response.headers["ETag"] == etag
    assert loads == []  # the version alone answered: no game loaded, nothing replayed
    client.post(f"/api/games/{game_id}/hands", json=HAND)
    assert client.get(f"/api/games/{game_id}", headers={"If-None-Match": etag}).status_code == 200


def test_scoreboard_offers_add_a_phone(client, monkeypatch):
    monkeypatch.setenv("SCORER_LAN_ADDRESS", "192.168.1.23")
    game_id, watch_url = new_game(client)
    page = client.get(f"/games/{game_id}", base_url="http://localhost:5000").get_data(as_text=True)
    assert "Add a phone" in page
    assert f'<img class="qr" src="/games/{game_id}/qr.svg"' in page
    assert f'href="http://192.168.1.23:5000/games/{game_id}"' in page
    assert f'href="http://192.168.1.23:5000{watch_url}"' in page
    assert f'src="{watch_url}/qr.svg"' in page


def test_migration_gives_existing_games_a_watch_id(tmp_path):
    path = tmp_path / "old.db"
    db = scorer_db.connect(path)
    # A database as it was before m006: every migration but the watch one.
    kept = [m for m in scorer_db.migrations._migrations if m.name != "m006_watch_ids"]
    old = sqlite_utils.Migrations("scorer")
    old._migrations = kept
    old.apply(db)
    db["games"].insert_all(
        {
            "id": f"g{i}",
            "name": "",
            "profile": "classic",
            "target": 5000,
            "rules": "{}",
            "first_dealer": "Ann",
            "version": 1,
            "created_at": "x",
            "updated_at": "x",
        }
        for i in range(3)
    )
    db.close()
    scorer_db.prepare(path)
    db = scorer_db.connect(path)
    rows = list(db.query("select game_id, watch_id from watch_ids order by game_id"))
    assert [r["game_id"] for r in rows] == ["g0", "g1", "g2"]
    assert len({r["watch_id"] for r in rows}) == 3
    db.execute("delete from games where id = 'g1'")
    assert db.execute("select count(*) from watch_ids").fetchone()[0] == 2
