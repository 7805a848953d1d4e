"""Push (issue 29): what a write publishes, once, through scorer.web.push, and what a page
reveals of its channel. A real HTTP publisher on loopback stands in for Nchan's."""

from __future__ import annotations

import re
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from scorer.web import push

FOUR = ["Ann", "Bob", "Cy", "Di"]
HAND = {"sides": [{"meld_points": 90}, {"meld_points": 50}]}
PUSH_ATTRIBUTE = re.compile(r'data-live-push="/push/([0-9a-f]+)"')


class Publisher:
    """What the app POSTed: (channel, body) in order."""

    def __init__(self) -> None:
        self.published: list[tuple[str, str]] = []
        received = self.published

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:  # noqa: N802  # http.server's name
                body = self.rfile.read(int(self.headers["Content-Length"])).decode()
                received.append((self.path.removeprefix(push.PUBLISH_PREFIX), body))
                self.send_response(201)
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, *args: Any) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_port}{push.PUBLISH_PREFIX}"


@pytest.fixture
def publisher(app: Flask) -> Iterator[Publisher]:
    found = Publisher()
    thread = threading.Thread(target=found.server.serve_forever, daemon=True)
    thread.start()
    app.config["PUSH_URL"] = found.url
    yield found
    found.server.shutdown()
    found.server.server_close()


def new_game(client: FlaskClient) -> str:
    made = client.post("/api/games", json={"sides": [{"players": FOUR[:2]}, {"players": FOUR[2:]}]})
    assert made.status_code == 201
    return made.json["id"]


def night_table(client: FlaskClient) -> tuple[str, str, str]:
    """(night id, its wall id, the game of its one table)."""
    return club_night_table(client)[1:]


def club_night_table(client: FlaskClient) -> tuple[str, str, str, str]:
    """(club id, night id, its wall id, the game of its one table)."""
    club = client.post("/api/clubs", json={"name": "Thursday", "players": FOUR}).json["id"]
    night = client.post(
        f"/api/clubs/{club}/nights",
        json={"players": FOUR, "rounds": 2, "round": {"fixed_hands": 3}},
    )
    assert night.status_code == 201, night.json
    drawn = client.post(
        f"/api/nights/{night.json['id']}/rounds", headers={"If-Match": night.headers["ETag"]}
    )
    assert drawn.status_code == 201, drawn.json
    game_id = drawn.json["rounds"][0]["tables"][0]["game"]
    return club, night.json["id"], drawn.json["watch_url"].rsplit("/", 1)[1], game_id


def test_a_channel_is_an_hmac_of_the_id_with_the_secret_key(app):
    with app.app_context():
        game = push.channel(push.GAME, "abc")
        assert re.fullmatch(push.CHANNEL_PATTERN, game)
        assert "abc" not in game
        assert game != push.channel(push.NIGHT, "abc")
        assert game != push.channel(push.GAME, "abc", secret="another key")
        assert game == push.channel(push.GAME, "abc", secret="test-secret")


def test_without_a_push_server_pages_poll_and_publish_is_a_no_op(app, client):
    game_id = new_game(client)
    assert "data-live-push" not in client.get(f"/games/{game_id}").text
    with app.app_context():
        assert push.publish("0" * 48, 1) is False
    assert client.post(f"/api/games/{game_id}/hands", json=HAND).status_code == 201


def test_a_hand_publishes_its_game_version_once(client, publisher, app):
    game_id = new_game(client)
    page = client.get(f"/games/{game_id}").text
    (channel,) = set(PUSH_ATTRIBUTE.findall(page))
    assert publisher.published == []  # reads publish nothing
    assert client.post(f"/api/games/{game_id}/hands", json=HAND).status_code == 201
    assert publisher.published == [(channel, "2")]
    # A refused write changes nothing and says nothing.
    assert client.post(f"/api/games/{game_id}/hands", json={"sides": []}).status_code == 422
    assert publisher.published == [(channel, "2")]


def test_a_deleted_game_tells_its_screens(client, publisher):
    game_id = new_game(client)
    (channel,) = set(PUSH_ATTRIBUTE.findall(client.get(f"/games/{game_id}").text))
    assert client.post(f"/games/{game_id}/delete").status_code in (302, 303)
    assert publisher.published == [(channel, push.GONE)]


def test_a_table_of_a_night_publishes_to_the_night_too(client, publisher, app):
    night_id, wall_id, game_id = night_table(client)
    night_channels = set(PUSH_ATTRIBUTE.findall(client.get(f"/nights/{night_id}").text))
    wall_channels = set(PUSH_ATTRIBUTE.findall(client.get(f"/nights/watch/{wall_id}").text))
    assert night_channels == wall_channels and len(night_channels) == 1
    publisher.published.clear()
    assert client.post(f"/api/games/{game_id}/hands", json=HAND).status_code == 201
    (night_channel,) = night_channels
    assert [name for name, _ in publisher.published] == [
        push.channel(push.GAME, game_id, secret="test-secret"),
        night_channel,
    ]


def test_a_watch_link_or_a_wall_names_no_id_in_its_channel(client, publisher):
    night_id, wall_id, game_id = night_table(client)
    watch = client.get(f"/api/games/{game_id}").json["watch_url"].rsplit("/", 1)[1]
    watch_page = client.get(f"/watch/{watch}").text
    wall_page = client.get(f"/nights/watch/{wall_id}").text
    for page, secret_id in ((watch_page, game_id), (wall_page, night_id)):
        (channel,) = set(PUSH_ATTRIBUTE.findall(page))
        assert secret_id not in page and secret_id not in channel


def test_a_publish_that_fails_never_fails_the_write(app, client):
    app.config["PUSH_URL"] = "http://127.0.0.1:9/pub/"  # the discard port: nothing listens
    game_id = new_game(client)
    assert client.post(f"/api/games/{game_id}/hands", json=HAND).status_code == 201
    assert len(client.get(f"/api/games/{game_id}").json["hands"]) == 1
    app.config["PUSH_URL"] = "unix:/nonexistent/publish.sock"
    assert client.post(f"/api/games/{game_id}/hands", json=HAND).status_code == 201


@pytest.mark.parametrize("way", ["api", "page"])
def test_a_roster_rename_reaches_the_open_boards_of_the_clubs_games(client, publisher, way):
    club_id, night_id, _, game_id = club_night_table(client)
    (board,) = set(PUSH_ATTRIBUTE.findall(client.get(f"/games/{game_id}").text))
    (night_channel,) = set(PUSH_ATTRIBUTE.findall(client.get(f"/nights/{night_id}").text))
    before = client.get(f"/api/games/{game_id}").json["version"]
    publisher.published.clear()
    if way == "api":
        renamed = client.patch(f"/api/clubs/{club_id}/players/Ann", json={"name": "Anne"})
        assert renamed.status_code == 200, renamed.json
    else:
        renamed = client.post(
            f"/clubs/{club_id}/players/rename", data={"old": "Ann", "name": "Anne"}
        )
        assert renamed.status_code in (302, 303)
    game = client.get(f"/api/games/{game_id}").json
    assert game["version"] == before + 1
    assert "Anne" in client.get(f"/games/{game_id}").text
    published = dict(publisher.published)
    assert published[board] == str(game["version"])  # the board hears the new name
    assert night_channel in published  # and the night, as before
    assert len(publisher.published) == len(published)  # each once
    # A refused rename (a name already in the club) moves nothing and says nothing.
    publisher.published.clear()
    clash = client.patch(f"/api/clubs/{club_id}/players/Anne", json={"name": "Bob"})
    assert clash.status_code == 409
    assert publisher.published == []
