"""The generated router takes what the scorer takes (issue 35): its body cap comes from the
app's caps, so a club's import of several MiB reaches the scorer, and past it the router's
413 under /api is the scorer's JSON. A real nginx and gunicorn, on 127.0.0.1."""

from __future__ import annotations

import json
import os
import socket
import urllib.error
import urllib.request
from contextlib import ExitStack
from pathlib import Path

from serving import call, free_port, gunicorn_command, running, server_env

from bench import launcher
from bench.router import NGINX, nginx_config
from scorer import deploy, front
from scorer.core.limits import CLUB_IMPORT_MAX_BYTES, GAME_IMPORT_MAX_BYTES, LARGEST_BODY

ROSTER = {"name": "Sun", "players": ["Ann", "Bob", "Cy", "Di"]}


def post_bytes(url: str, body: bytes) -> tuple[int, bytes]:
    request = urllib.request.Request(url, data=body, method="POST")
    request.add_header("Content-Type", "application/json")
    try:
        with urllib.request.urlopen(request, timeout=60) as response:
            return response.status, response.read()
    except urllib.error.HTTPError as error:
        with error:
            return error.code, error.read()


def announced(port: int, path: str, length: int) -> tuple[str, dict[str, str], bytes]:
    """The router's answer to a request announcing a body of `length` bytes (none sent)."""
    with socket.create_connection(("127.0.0.1", port), timeout=30) as sock:
        sock.sendall(
            f"POST {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
            f"Content-Length: {length}\r\nConnection: close\r\n\r\n".encode()
        )
        raw = b""
        while chunk := sock.recv(65536):
            raw += chunk
    head, _, body = raw.partition(b"\r\n\r\n")
    status, *lines = head.decode().split("\r\n")
    headers = dict(line.split(": ", 1) for line in lines)
    return status, {k.lower(): v for k, v in headers.items()}, body


def test_the_router_takes_what_the_scorer_takes_and_refuses_past_it_in_json(tmp_path: Path):
    assert front.body_limit_mib() * 1024 * 1024 > LARGEST_BODY
    assert max(CLUB_IMPORT_MAX_BYTES, GAME_IMPORT_MAX_BYTES) == LARGEST_BODY
    port, router_port = free_port(), free_port()
    plan = deploy.Plan(shards=1, ports=(port,), router=f"127.0.0.1:{router_port}")
    site = tmp_path / "scorer-shards.conf"
    site.write_text(deploy.files(plan)["scorer-shards.conf"])
    (tmp_path / "nginx").mkdir()
    main = nginx_config(tmp_path / "nginx", site)
    with ExitStack() as stack:
        env = server_env(tmp_path / "scorer.sqlite3", tmp_path / "instance")
        command = gunicorn_command(port, ["--workers", "2", "--worker-class", "sync"])
        stack.enter_context(running(command, env, port, tmp_path / "shard.log"))
        proxy = stack.enter_context(
            launcher.running(
                [NGINX, "-p", str(tmp_path / "nginx"), "-c", str(main)],
                dict(os.environ),
                router_port,
                tmp_path / "nginx.log",
                tmp_path,
            )
        )
        status, club, _ = call("POST", f"{proxy.base}/api/clubs", ROSTER)
        assert status == 201, club
        status, exported, _ = call("GET", f"{proxy.base}/api/clubs/{club['id']}/export")
        assert status == 200
        text = json.dumps(exported).encode()
        padded = text[:-1] + b" " * (3 * 1024 * 1024) + text[-1:]  # 3 MiB, still JSON
        status, body = post_bytes(f"{proxy.base}/api/clubs/import", padded)
        assert status == 201, body[:300]

        over = front.body_limit_mib() * 1024 * 1024 + 1
        status, headers, body = announced(router_port, "/api/clubs/import", over)
        assert status.split()[1] == "413"
        assert headers["content-type"].startswith("application/json")
        assert json.loads(body) == {"error": "the request is too large", "field": None}
