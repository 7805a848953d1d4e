"""A body over the cap gets 413, sent chunked or not, and the connection stays usable."""

from __future__ import annotations

import io
import json
import socket
from pathlib import Path

import pytest
from flask.testing import FlaskClient
from serving import THREADED, free_port, gunicorn_command, running, server_env

from scorer.core.limits import CLUB_IMPORT_MAX_BYTES, GAME_IMPORT_MAX_BYTES

CAP = 64 * 1024
OVER = 20 * 1024 * 1024  # the 20 MB


def test_chunked_body_over_the_cap_is_refused_in_process(client: FlaskClient) -> None:
    # Valid JSON in the first 64 KiB, then padding: the old code parsed the prefix.
    body = json.dumps({"sides": [{"players": ["A", "B"]}, {"players": ["C", "D"]}]}).encode()
    body += b" " * (2 * CAP)
    response = client.post(
        "/api/games",
        input_stream=io.BytesIO(body),
        headers={"Content-Type": "application/json", "Transfer-Encoding": "chunked"},
        environ_overrides={"wsgi.input_terminated": True, "CONTENT_LENGTH": ""},
    )
    assert response.status_code == 413
    assert response.get_json()["error"] == "the request is too large"


def test_chunked_import_over_its_larger_cap_is_refused(client: FlaskClient) -> None:
    response = client.post(
        "/api/games/import",
        input_stream=io.BytesIO(b"{" + b" " * (GAME_IMPORT_MAX_BYTES + 1024) + b"}"),
        headers={"Content-Type": "application/json", "Transfer-Encoding": "chunked"},
        environ_overrides={"wsgi.input_terminated": True, "CONTENT_LENGTH": ""},
    )
    assert response.status_code == 413


def test_chunked_body_under_the_cap_is_read_whole(client: FlaskClient) -> None:
    body = json.dumps({"sides": [{"players": ["A", "B"]}, {"players": ["C", "D"]}]}).encode()
    response = client.post(
        "/api/games",
        input_stream=io.BytesIO(body),
        headers={"Content-Type": "application/json", "Transfer-Encoding": "chunked"},
        environ_overrides={"wsgi.input_terminated": True, "CONTENT_LENGTH": ""},
    )
    assert response.status_code == 201


def chunked(payload: bytes, size: int = 64 * 1024) -> bytes:
    parts = [b"%x\r\n%s\r\n" % (len(payload[i : i + size]), payload[i : i + size])
             for i in range(0, len(payload), size)]  # fmt: skip
    return b"".join(parts) + b"0\r\n\r\n"


def read_response(sock: socket.socket) -> tuple[int, dict[str, str], bytes]:
    """One whole HTTP/1.1 response with a Content-Length (raises if the peer resets)."""
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = sock.recv(65536)
        assert chunk, f"connection closed before the headers: {data!r}"
        data += chunk
    head, rest = data.split(b"\r\n\r\n", 1)
    lines = head.decode("latin-1").split("\r\n")
    status = int(lines[0].split()[1])
    headers = {k.strip().lower(): v.strip() for k, v in (x.split(":", 1) for x in lines[1:])}
    length = int(headers["content-length"])
    while len(rest) < length:
        chunk = sock.recv(65536)
        assert chunk, "connection closed in the middle of the answer"
        rest += chunk
    return status, headers, rest[:length]


def request_bytes(path: str, body: bytes, *, chunked_body: bool) -> bytes:
    head = f"POST {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
    if chunked_body:
        return (head + "Transfer-Encoding: chunked\r\n\r\n").encode() + chunked(body)
    return (head + f"Content-Length: {len(body)}\r\n\r\n").encode() + body


@pytest.mark.parametrize("chunked_body", [True, False], ids=["chunked", "content-length"])
def test_flood_gets_413_from_gunicorn_and_the_connection_stays_usable(
    tmp_path: Path, chunked_body: bool
) -> None:
    port = free_port()
    env = server_env(tmp_path / "db.sqlite3", tmp_path / "instance")
    game = json.dumps({"sides": [{"players": ["A", "B"]}, {"players": ["C", "D"]}]}).encode()
    flood = game + b" " * (OVER - len(game))
    with (
        running(gunicorn_command(port, THREADED), env, port, tmp_path / "gunicorn.log"),
        socket.create_connection(("127.0.0.1", port), timeout=30) as sock,
    ):
        sock.sendall(request_bytes("/api/games", flood, chunked_body=chunked_body))
        status, headers, body = read_response(sock)
        assert status == 413
        assert json.loads(body)["error"] == "the request is too large"
        if headers.get("connection", "").lower() != "close":
            sock.sendall(request_bytes("/api/games", game, chunked_body=False))
            assert read_response(sock)[0] == 201
        with socket.create_connection(("127.0.0.1", port), timeout=30) as again:
            again.sendall(request_bytes("/api/games", game, chunked_body=True))
            assert read_response(again)[0] == 201


def post_club_import(client: FlaskClient, body: bytes, *, chunked_body: bool):  # noqa: ANN201
    if not chunked_body:
        return client.post("/api/clubs/import", data=body, content_type="application/json")
    return client.post(
        "/api/clubs/import",
        input_stream=io.BytesIO(body),
        headers={"Content-Type": "application/json", "Transfer-Encoding": "chunked"},
        environ_overrides={"wsgi.input_terminated": True, "CONTENT_LENGTH": ""},
    )


@pytest.mark.parametrize("chunked_body", [True, False], ids=["chunked", "content-length"])
def test_a_club_import_over_a_mebibyte_is_taken_however_it_is_sent(
    client: FlaskClient, chunked_body: bool
) -> None:
    """The club import's cap (scorer.core.limits) holds for a chunked body as for any."""
    club = client.post("/api/clubs", json={"name": "Big", "players": ["Ann", "Bob"]}).get_json()
    exported = client.get(f"/api/clubs/{club['id']}/export").get_data()
    body = exported[:-1] + b" " * (2 * 1024 * 1024) + exported[-1:]  # 2 MiB: JSON still
    response = post_club_import(client, body, chunked_body=chunked_body)
    assert response.status_code == 201, response.get_data()[:300]
    over = exported[:-1] + b" " * (CLUB_IMPORT_MAX_BYTES + 1024) + exported[-1:]
    assert post_club_import(client, over, chunked_body=chunked_body).status_code == 413
