"""A game's JSON and its watch JSON are gzipped once per game version (issue 35).

A long game's body is some 5 MB; Flask-Compress gzipped it again at every request (~25 ms
of a worker), so one client asking for it in a loop held a core. Both bodies are kept per
version, and now so is their gzip: a client that takes gzip gets the kept bytes, one that
does not gets the body as it is, under the same tag.
"""

from __future__ import annotations

import gzip

import flask_compress.flask_compress as compressing
import pytest
from flask.testing import FlaskClient

PLAYERS = [{"players": ["Ann", "Bob"]}, {"players": ["Cy", "Di"]}]
HAND = {"sides": [{"meld_points": 150}, {"meld_points": 130}]}
GZIP = {"Accept-Encoding": "gzip"}


@pytest.fixture
def played(client: FlaskClient) -> dict:
    game = client.post("/api/games", json={"sides": PLAYERS}).get_json()
    for _ in range(20):
        assert client.post(f"/api/games/{game['id']}/hands", json=HAND).status_code == 201
    return client.get(f"/api/games/{game['id']}").get_json()


def json_paths(played: dict) -> list[tuple[str, dict[str, str]]]:
    return [
        (f"/api/games/{played['id']}", {}),
        (played["watch_url"], {"Accept": "application/json"}),
    ]


def test_a_games_json_is_gzipped_once_per_version(client, played, monkeypatch):
    packed: list[int] = []
    real = gzip.compress

    def counted(data: bytes, *args: int) -> bytes:
        packed.append(len(data))
        return real(data, *args)

    monkeypatch.setattr(gzip, "compress", counted)
    again = []
    monkeypatch.setattr(compressing, "_compress_data", lambda *a: again.append(a) or b"")
    for path, headers in json_paths(played):
        plain = client.get(path, headers=headers)
        assert plain.status_code == 200 and "Content-Encoding" not in plain.headers
        for _ in range(3):
            zipped = client.get(path, headers={**headers, **GZIP})
            assert zipped.headers["Content-Encoding"] == "gzip"
            assert "Accept-Encoding" in zipped.headers["Vary"]
            assert zipped.headers["ETag"] == plain.headers["ETag"]
            assert gzip.decompress(zipped.get_data()) == plain.get_data()
    assert len(packed) == 2  # once for the game's JSON, once for the watch JSON
    assert again == []  # Flask-Compress compressed neither again


def test_a_new_version_is_gzipped_anew(client, played):
    path = f"/api/games/{played['id']}"
    before = gzip.decompress(client.get(path, headers=GZIP).get_data())
    assert client.post(f"{path}/hands", json=HAND).status_code == 201
    after = client.get(path, headers=GZIP)
    assert gzip.decompress(after.get_data()) == client.get(path).get_data() != before
