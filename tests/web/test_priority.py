"""Heavy reads are served by a thread that gives way to the tables' hands (issue 25)."""

from __future__ import annotations

import os
import re
import threading
import time
from collections.abc import Iterator

import pytest
from flask import Flask
from werkzeug.test import Client, EnvironBuilder, run_wsgi_app

from scorer.web import priority

FOUR = [{"players": ["Ann", "Bob"]}, {"players": ["Cy", "Di"]}]


def request() -> dict:
    return EnvironBuilder(path="/").get_environ()


def own_nice() -> int:
    return os.getpriority(os.PRIO_PROCESS, threading.get_native_id())


def unsigned(page: bytes) -> bytes:
    """A page without its CSRF tokens: they are signed with the second they were made."""
    return re.sub(rb'name="csrf_token" value="[^"]*"', b'name="csrf_token"', page)


def tiny_app() -> Flask:
    """Two views that tell the nice value of the thread serving them."""
    app = Flask(__name__)

    @app.get("/heavy")
    def heavy() -> str:
        return str(own_nice())

    @app.get("/light")
    def light() -> str:
        return str(own_nice())

    @app.post("/heavy")
    def heavy_write() -> str:
        return str(own_nice())

    app.wsgi_app = priority.Yielding(  # type: ignore[method-assign]
        app.wsgi_app,
        lambda environ: environ["PATH_INFO"] == "/heavy" and environ["REQUEST_METHOD"] == "GET",
    )
    return app


def test_a_heavy_read_is_served_by_a_thread_that_yields_and_a_light_one_is_not():
    client = tiny_app().test_client()
    before = own_nice()
    assert int(client.get("/heavy").text) == max(before, priority.HEAVY_NICE)
    assert int(client.get("/light").text) == before
    assert int(client.post("/heavy").text) == before
    assert own_nice() == before  # the worker's own thread keeps its priority


def test_which_requests_are_heavy(app):
    heavy = priority.heavy_requests(app)

    def environ(path: str, method: str = "GET") -> dict[str, str]:
        return {
            "PATH_INFO": path,
            "REQUEST_METHOD": method,
            "SERVER_NAME": "localhost",
            "SERVER_PORT": "80",
            "wsgi.url_scheme": "http",
        }

    for path in (
        "/clubs/abc",
        "/api/clubs/abc",
        "/api/clubs/abc/export",
        "/clubs/abc/hands.csv",
        "/clubs/abc/night.pdf",
        "/games/abc/sheet.pdf",
        "/games/abc/hands.csv",
        "/api/games/abc/export",
        "/sheets/blank.pdf",
        "/nights/abc/seating.pdf",
        "/nights/abc/standings.pdf",
    ):
        assert heavy(environ(path)), path
        assert heavy(environ(path, "HEAD")), path
    for path in ("/", "/games/abc", "/api/games/abc", "/watch/abc", "/nowhere", "/static/app.css"):
        assert not heavy(environ(path)), path
    assert not heavy(environ("/api/clubs/abc", "POST"))
    assert not heavy(environ("/clubs/abc", "PUT"))


def test_heavy_answers_are_the_same_through_the_thread(app, client, monkeypatch):
    club = client.post("/api/clubs", json={"name": "Sun", "players": ["Ann", "Bob", "Cy", "Di"]})
    club_id = club.get_json()["id"]
    game = client.post(f"/api/clubs/{club_id}/games", json={"sides": FOUR}).get_json()
    paths = (
        f"/clubs/{club_id}",
        f"/api/clubs/{club_id}",
        f"/api/clubs/{club_id}/export",
        f"/clubs/{club_id}/hands.csv",
        f"/games/{game['id']}/hands.csv",
        "/api/clubs/nobody-here",  # a refusal goes through the thread too
    )
    threads = []
    monkeypatch.setattr(priority, "yield_cores", lambda: threads.append(threading.get_ident()))
    through = {path: client.get(path) for path in paths}
    assert len(threads) == len(paths) and threading.get_ident() not in threads
    monkeypatch.setattr(priority, "is_heavy", lambda view: False)  # the same without it
    for path, answer in through.items():
        alone = client.get(path)  # served by this thread
        assert (answer.status_code, unsigned(answer.data)) == (
            alone.status_code,
            unsigned(alone.data),
        ), path
        assert answer.headers.get("ETag") == alone.headers.get("ETag"), path
    assert len(threads) == len(paths)
    assert through["/api/clubs/nobody-here"].status_code == 404


def test_a_streamed_answer_stops_being_made_when_the_sender_goes():
    made: list[int] = []
    closed = threading.Event()

    def endless() -> Iterator[bytes]:
        try:
            for number in range(10_000_000):
                made.append(number)
                yield b"x" * 100
        finally:
            closed.set()

    def app(environ, start_response):
        start_response("200 OK", [("Content-Type", "text/plain")])
        return endless()

    body, status, _ = run_wsgi_app(priority.Yielding(app, lambda environ: True), request())
    assert status == "200 OK"
    first = next(iter(body))
    assert first == b"x" * 100
    body.close()  # the client went away after one chunk
    assert closed.wait(5)
    count = len(made)
    time.sleep(0.2)
    assert len(made) == count < 100  # no more made than the queue holds ahead


def test_an_error_in_the_thread_reaches_the_worker():
    def broken(environ, start_response):
        raise RuntimeError("the view failed")

    with pytest.raises(RuntimeError, match="the view failed"):
        Client(priority.Yielding(broken, lambda environ: True)).get("/")

    def broken_after_its_head(environ, start_response):
        start_response("200 OK", [("Content-Type", "text/plain")])
        raise RuntimeError("failed after the head")

    yielding = priority.Yielding(broken_after_its_head, lambda environ: True)
    with pytest.raises(RuntimeError, match="failed after the head"):
        run_wsgi_app(yielding, request(), buffered=True)

    def broken_midway(environ, start_response):
        start_response("200 OK", [("Content-Type", "text/plain")])

        def body() -> Iterator[bytes]:
            yield b"first"
            raise RuntimeError("the body failed")

        return body()

    body, _, _ = run_wsgi_app(priority.Yielding(broken_midway, lambda environ: True), request())
    chunks = iter(body)
    assert next(chunks) == b"first"
    with pytest.raises(RuntimeError, match="the body failed"):
        next(chunks)


def test_a_heavy_answer_is_handed_on_at_its_pace_past_its_burst(monkeypatch):
    """Unpaced, five clients looping on a club's export at loopback speed drew hundreds of
    MiB/s of socket copies from the workers' own threads (issue 35): past its first
    HEAVY_BURST bytes a heavy answer goes at HEAVY_SEND_RATE; a page or a sheet never waits."""
    assert priority.ahead_of_pace(priority.HEAVY_BURST, 0.0) == 0.0
    assert priority.ahead_of_pace(200 * 1024, 0.0) < 0  # a club page or a sheet: at once
    assert priority.ahead_of_pace(
        priority.HEAVY_BURST + priority.HEAVY_SEND_RATE, 0.25
    ) == pytest.approx(0.75)
    monkeypatch.setattr(priority, "HEAVY_SEND_RATE", 1024 * 1024)
    monkeypatch.setattr(priority, "HEAVY_BURST", 64 * 1024)

    def big(environ, start_response):
        start_response("200 OK", [("Content-Type", "application/json")])
        return (b"x" * (64 * 1024) for _ in range(9))  # the burst and half a second more

    started = time.monotonic()
    body, _, _ = run_wsgi_app(priority.Yielding(big, lambda environ: True), request())
    assert sum(len(chunk) for chunk in body) == 9 * 64 * 1024
    assert time.monotonic() - started >= 0.45  # a lower bound: a loaded machine only adds
