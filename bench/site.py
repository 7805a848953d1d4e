"""The app under test, in process: a real SQLite file in a temporary folder, games seeded."""

from __future__ import annotations

import tempfile
from functools import cached_property
from pathlib import Path

from flask import Flask
from flask.testing import FlaskClient
from werkzeug.exceptions import MethodNotAllowed, NotFound
from werkzeug.test import TestResponse

from bench import fixtures
from scorer import create_app

# The pages the benchmark measures, by the address the README gives them.
HOME = "/"
SCOREBOARD = "/games/{id}"
HAND_FORM = "/games/{id}/hands/new"
SHEET = "/games/{id}/sheet.pdf"
RECORD = "/api/games/{id}/hands"


class Site:
    """One app, one database and the games every in-process section uses."""

    def __init__(self) -> None:
        self._tmp = tempfile.TemporaryDirectory(prefix="scorer-bench-")
        self.folder = Path(self._tmp.name)
        self.database = self.folder / "bench.sqlite3"
        self.db = fixtures.open_db(self.database)
        self._games: dict[int, str] = {}

    @cached_property
    def app(self) -> Flask:
        return create_app(
            {
                "TESTING": True,  # an error raises here instead of becoming a 500 page
                "DATABASE": str(self.database),
                "SECRET_KEY": "bench-secret",
                "WTF_CSRF_ENABLED": False,
                "INSTANCE_PATH": str(self.folder),
                **fixtures.CEILINGS,
            }
        )

    @cached_property
    def client(self) -> FlaskClient:
        return self.app.test_client()

    def game(self, length: int) -> str:
        """The shared game of `length` hands (pages only read it)."""
        if length not in self._games:
            self._games[length] = fixtures.make_game(self.db, length)
            fixtures.check_game(self.db, self._games[length], length)
        return self._games[length]

    def fresh_games(self, length: int, count: int) -> list[str]:
        """Games of `length` hands that a benchmark may add hands to."""
        return [fixtures.make_game(self.db, length) for _ in range(count)]

    def has_page(self, path: str, method: str = "GET") -> bool:
        """Whether the app has a route for this address yet (pages land while we work)."""
        adapter = self.app.url_map.bind("localhost")
        try:
            adapter.match(path, method=method)
        except (NotFound, MethodNotAllowed):
            return False
        return True

    def get(self, path: str, status: int = 200) -> TestResponse:
        return checked(self.client.get(path), status, path)

    def close(self) -> None:
        self.db.close()
        self._tmp.cleanup()


def checked(response: TestResponse, status: int, what: str) -> TestResponse:
    """The response, or an error saying what came back instead of `status`."""
    if response.status_code != status:
        body = response.get_data(as_text=True)[:200]
        raise RuntimeError(f"{what}: HTTP {response.status_code} (wanted {status}): {body}")
    return response


def tiny_app() -> Flask:
    """The framework's floor: a bare Flask app with one route returning a fixed string."""
    app = Flask("bench_bare")

    @app.get("/")
    def bare() -> str:
        return "ok"

    return app
