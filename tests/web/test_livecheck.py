"""The cheap live check (scorer.web.livecheck): right answers, fresh across workers, same
headers."""

from __future__ import annotations

import json
import sqlite3
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from apidata import hand, side
from flask import Flask
from flask.testing import FlaskClient

from scorer import create_app
from scorer.web import SECURITY_HEADERS
from scorer.web.livecheck import version_reader

FOUR = [{"players": ["Ann", "Bob"]}, {"players": ["Cy", "Di"]}]
HAND = hand(side(meld=130, natural=1), side(meld=50, left=85), went_out=0)


def worker(database: Path) -> Flask:
    """One gunicorn worker's app: its own process state, the shared SQLite file."""
    return create_app(
        {
            "TESTING": True,
            "DATABASE": str(database),
            "SECRET_KEY": "test-secret",
            "WTF_CSRF_ENABLED": False,
        }
    )


def new_game(client: FlaskClient) -> tuple[str, str, str]:
    """A game's id, its current ETag and its watch address."""
    game_id = client.post("/api/games", json={"sides": FOUR}).get_json()["id"]
    response = client.get(f"/api/games/{game_id}")
    return game_id, response.headers["ETag"], response.get_json()["watch_url"]


def check(client: FlaskClient, url: str, etag: str, **headers: str):
    return client.get(url, headers={"If-None-Match": etag, **headers})


def test_a_hand_recorded_by_another_worker_is_seen_by_the_next_check(tmp_path: Path) -> None:
    one, two = worker(tmp_path / "db.sqlite3"), worker(tmp_path / "db.sqlite3")
    table, phone = one.test_client(), two.test_client()
    game_id, etag, _ = new_game(table)
    url = f"/api/games/{game_id}"
    # The phone's worker has read the version once (its thread's connection is open now).
    assert check(phone, url, etag).status_code == 304
    assert table.post(f"{url}/hands", json=HAND).status_code == 201
    fresh = check(phone, url, etag)
    assert fresh.status_code == 200
    assert fresh.get_json()["version"] == 2 and len(fresh.get_json()["hands"]) == 1
    assert fresh.headers["ETag"] == f'"{game_id}.2"'
    assert check(phone, url, fresh.headers["ETag"]).status_code == 304


def test_a_check_thread_keeps_no_old_snapshot_between_requests(tmp_path: Path) -> None:
    # The same server thread answers check after check: its reused connection must see
    # each commit made meanwhile by another thread of another worker.
    one, two = worker(tmp_path / "db.sqlite3"), worker(tmp_path / "db.sqlite3")
    table, phone = one.test_client(), two.test_client()
    game_id, etag, watch_url = new_game(table)
    url = f"/api/games/{game_id}"
    watch_tag = phone.get(watch_url, headers={"Accept": "application/json"}).headers["ETag"]
    with ThreadPoolExecutor(max_workers=1) as server_thread:
        for number in range(1, 4):
            assert server_thread.submit(check, phone, url, etag).result().status_code == 304
            watched = server_thread.submit(
                check, phone, watch_url, watch_tag, Accept="application/json"
            ).result()
            assert watched.status_code == 304
            assert table.post(f"{url}/hands", json=HAND).status_code == 201
            fresh = server_thread.submit(check, phone, url, etag).result()
            assert fresh.status_code == 200 and len(fresh.get_json()["hands"]) == number
            watched = server_thread.submit(
                check, phone, watch_url, watch_tag, Accept="application/json"
            ).result()
            assert watched.status_code == 200 and len(watched.get_json()["hands"]) == number
            etag, watch_tag = fresh.headers["ETag"], watched.headers["ETag"]


def test_the_304_keeps_the_headers_of_every_answer(client: FlaskClient) -> None:
    game_id, etag, watch_url = new_game(client)
    answer = check(client, f"/api/games/{game_id}", etag)
    assert answer.status_code == 304 and answer.get_data() == b""
    assert answer.headers["ETag"] == etag
    assert answer.headers["Cache-Control"] == "no-cache"
    for name, value in SECURITY_HEADERS.items():
        assert answer.headers[name] == value
    assert {"Accept-Language", "Cookie"} <= set(answer.vary)
    watch_tag = client.get(watch_url, headers={"Accept": "application/json"}).headers["ETag"]
    watched = check(client, watch_url, watch_tag, Accept="application/json")
    assert watched.status_code == 304 and watched.headers["ETag"] == watch_tag
    assert {"Accept", "Accept-Language", "Cookie"} <= set(watched.vary)
    assert watched.headers["Content-Security-Policy"] == SECURITY_HEADERS["Content-Security-Policy"]


def test_the_check_answers_nothing_it_is_unsure_of(client: FlaskClient) -> None:
    game_id, etag, watch_url = new_game(client)
    url = f"/api/games/{game_id}"
    # The watch page as HTML, whatever the tag: a browser opening it gets the page.
    watch_tag = client.get(watch_url, headers={"Accept": "application/json"}).headers["ETag"]
    page = check(client, watch_url, watch_tag, Accept="text/html")
    assert page.status_code == 200 and page.mimetype == "text/html"
    # A tag of another game, the game's tag on the watch address, an unknown game.
    other_id, other_etag, _ = new_game(client)
    assert check(client, url, other_etag).status_code == 200
    assert check(client, watch_url, etag, Accept="application/json").status_code == 200
    missing = check(client, "/api/games/nope", '"nope.1"')
    assert missing.status_code == 404 and missing.get_json()["error"]
    assert check(client, "/watch/nope", '"w.nope.1"', Accept="application/json").status_code == 404
    # A write is never answered by the check, whatever it sends.
    posted = client.post(f"{url}/hands", json=HAND, headers={"If-None-Match": etag})
    assert posted.status_code == 201
    # `*` matches any current version, as Werkzeug's own If-None-Match reading does.
    assert check(client, f"/api/games/{other_id}", "*").status_code == 304


def test_a_game_that_no_longer_replays_still_answers_409_on_a_change(
    app: Flask, client: FlaskClient
) -> None:
    game_id, etag, _ = new_game(client)
    assert client.post(f"/api/games/{game_id}/hands", json=HAND).status_code == 201
    conn = sqlite3.connect(app.config["DATABASE"])
    with conn:  # a rules change would no longer accept this hand (raw SQL, as tests/test_failures)
        sides = json.dumps([dict(side(meld=133, natural=1)), dict(side(meld=50))])
        conn.execute("update hands set sides = ? where game_id = ?", [sides, game_id])
        conn.execute("update games set version = version + 1 where id = ?", [game_id])
    conn.close()
    answer = check(client, f"/api/games/{game_id}", etag)
    assert answer.status_code == 409
    assert "no longer fit the rules" in answer.get_json()["error"]


def test_the_check_reads_without_writing(app: Flask, client: FlaskClient) -> None:
    game_id, etag, _ = new_game(client)
    assert check(client, f"/api/games/{game_id}", etag).status_code == 304
    with pytest.raises(sqlite3.OperationalError, match="readonly"):
        version_reader(app).connection().execute("delete from games")
    assert client.get(f"/api/games/{game_id}").status_code == 200


# --- gzip clients (every browser): one tag per version whatever the encoding -----------------

GZIP = {"Accept-Encoding": "gzip, deflate, br"}


def app_hits(app: Flask) -> list[str]:
    """Paths that reached the app (past the live check), to tell the cheap path apart."""
    hits: list[str] = []
    check_layer = app.wsgi_app  # scorer.web.livecheck.LiveCheck, the outermost layer
    inner = check_layer.wsgi_app

    def counted(environ, start_response):
        hits.append(environ["PATH_INFO"])
        return inner(environ, start_response)

    check_layer.wsgi_app = counted
    return hits


def test_a_gzip_client_polls_the_cheap_path_and_writes_with_its_tag(app: Flask) -> None:
    """As static/live.js does: keep the tag of the last 200 and send it with each check."""
    client = app.test_client()
    game_id = client.post("/api/games", json={"sides": FOUR}).get_json()["id"]
    url = f"/api/games/{game_id}"
    assert client.post(f"{url}/hands", json=HAND).status_code == 201
    first = client.get(url, headers=GZIP)
    assert first.headers["Content-Encoding"] == "gzip"
    assert first.headers["ETag"] == f'"{game_id}.2"'  # the same tag as without gzip
    hits = app_hits(app)
    checked = check(client, url, first.headers["ETag"], **GZIP)
    assert checked.status_code == 304 and hits == []  # answered before the app
    # A correction sent with the tag a gzip answer carried is taken, not refused with 412.
    corrected = client.put(
        f"{url}/hands/1", json=HAND, headers={"If-Match": first.headers["ETag"], **GZIP}
    )
    assert corrected.status_code == 200, corrected.get_data()
    assert corrected.headers["ETag"] == f'"{game_id}.3"'
    fresh = check(client, url, first.headers["ETag"], **GZIP)
    assert fresh.status_code == 200 and fresh.headers["ETag"] == f'"{game_id}.3"'
    hits.clear()
    assert check(client, url, fresh.headers["ETag"], **GZIP).status_code == 304
    assert hits == []
    # The watch screen's JSON too.
    watch_url = client.get(url).get_json()["watch_url"]
    watched = client.get(watch_url, headers={"Accept": "application/json", **GZIP})
    assert watched.headers["Content-Encoding"] == "gzip"
    assert not watched.headers["ETag"].endswith(':gzip"')
    hits.clear()
    again = check(client, watch_url, watched.headers["ETag"], Accept="application/json", **GZIP)
    assert again.status_code == 304 and hits == []


def test_a_tag_a_compressor_suffixed_still_counts(app: Flask) -> None:
    """A phone may hold a tag given before the fix (`"<id>.<v>:gzip"`): it still matches."""
    client = app.test_client()
    game_id, etag, _ = new_game(client)
    url = f"/api/games/{game_id}"
    suffixed = etag[:-1] + ':gzip"'
    hits = app_hits(app)
    assert check(client, url, suffixed, **GZIP).status_code == 304 and hits == []
    assert client.post(f"{url}/hands", json=HAND).status_code == 201
    stale = client.delete(f"{url}/hands/1", headers={"If-Match": suffixed})
    assert stale.status_code == 412  # an old version's tag, suffixed or not, is still old
    current = client.get(url).headers["ETag"][:-1] + ':gzip"'
    assert client.delete(f"{url}/hands/1", headers={"If-Match": current}).status_code == 200


def test_club_tags_survive_gzip_too(client: FlaskClient) -> None:
    created = client.post(
        "/api/clubs", json={"name": "Tuesday", "players": ["Ann", "Bob", "Cy", "Di"]}
    )
    url = created.headers["Location"]
    first = client.get(url, headers=GZIP)
    assert not first.headers["ETag"].endswith(':gzip"')
    assert check(client, url, first.headers["ETag"], **GZIP).status_code == 304
    added = client.post(
        f"{url}/players", json={"name": "Eve"}, headers={"If-Match": first.headers["ETag"]}
    )
    assert added.status_code == 201, added.get_data()
