"""Every write refuses a body over its cap before it acts, whether it reads a body or not
(issue 35): 413, the app's page or its JSON, and nothing stored. The writes come from the
app's URL map, so a write added later is tried too."""

from __future__ import annotations

import io
import json
from typing import Any

import pytest
from apidata import dump
from flask import Flask
from flask.testing import FlaskClient
from routeargs import one_of_each, path_of
from werkzeug.test import TestResponse

from scorer.core.limits import CLUB_IMPORT_MAX_BYTES, GAME_IMPORT_MAX_BYTES
from scorer.web.routes import WRITES, body_cap_of

MEBIBYTE = 1024 * 1024


def write_routes(app: Flask) -> list[tuple[str, Any]]:
    """(method, rule) of every write the app serves."""
    return sorted(
        ((method, rule) for rule in app.url_map.iter_rules() for method in WRITES
         if method in (rule.methods or ())),
        key=lambda found: (found[1].rule, found[0]),
    )  # fmt: skip


def cap_of(app: Flask, endpoint: str) -> int:
    return body_cap_of(app.view_functions[endpoint]) or app.config["MAX_CONTENT_LENGTH"]


def send(client: FlaskClient, method: str, path: str, body: bytes, *, chunked: bool) -> Any:
    """The body as a browser's form or the API's JSON, with its length or in chunks."""
    kind = "application/json" if path.startswith("/api/") else "application/x-www-form-urlencoded"
    if not chunked:
        return client.open(path, method=method, data=body, content_type=kind)
    return client.open(
        path,
        method=method,
        input_stream=io.BytesIO(body),
        headers={"Content-Type": kind, "Transfer-Encoding": "chunked"},
        environ_overrides={"wsgi.input_terminated": True, "CONTENT_LENGTH": ""},
    )


def refused_as_too_large(answer: TestResponse, path: str) -> bool:
    if answer.status_code != 413:
        return False
    if path.startswith("/api/"):
        return answer.get_json() == {"error": "the request is too large", "field": None}
    return answer.mimetype == "text/html" and "413" in answer.get_data(as_text=True)


@pytest.mark.parametrize("chunked", [False, True], ids=["content-length", "chunked"])
def test_every_write_refuses_a_body_over_its_cap_and_stores_nothing(
    app: Flask, client: FlaskClient, chunked: bool
) -> None:
    ids = one_of_each(client)
    routes = write_routes(app)
    assert len(routes) >= 40
    wrong, stored = {}, []
    for method, rule in routes:
        path = path_of(rule, ids)
        before = dump(app)
        body = b"x" * (cap_of(app, rule.endpoint) + 1)
        answer = send(client, method, path, body, chunked=chunked)
        if not refused_as_too_large(answer, path):
            wrong[f"{method} {rule.rule}"] = answer.status_code
        if dump(app) != before:
            stored.append(f"{method} {rule.rule}")
    assert wrong == {}
    assert stored == []


def padded_export(client: FlaskClient, address: str, size: int) -> bytes:
    """An export read from `address`, blank space inside it up to `size` bytes: JSON still."""
    exported = client.get(address).get_data()
    return exported[:-1] + b" " * (size - len(exported)) + exported[-1:]


@pytest.mark.parametrize("chunked", [False, True], ids=["content-length", "chunked"])
def test_an_import_past_the_usual_cap_is_taken_within_its_own(
    app: Flask, client: FlaskClient, chunked: bool
) -> None:
    ids = one_of_each(client)
    assert app.config["MAX_CONTENT_LENGTH"] < MEBIBYTE < GAME_IMPORT_MAX_BYTES
    game = padded_export(client, f"/api/games/{ids['game_id']}/export", MEBIBYTE)
    made = send(client, "POST", "/api/games/import", game, chunked=chunked)
    assert made.status_code == 201, made.get_data()[:300]
    assert MEBIBYTE < CLUB_IMPORT_MAX_BYTES
    club = padded_export(client, f"/api/clubs/{ids['club_id']}/export", MEBIBYTE)
    made = send(client, "POST", "/api/clubs/import", club, chunked=chunked)
    assert made.status_code == 201, made.get_data()[:300]
    assert json.loads(club)["name"] == made.get_json()["name"]


def test_the_imports_declare_their_caps(app: Flask) -> None:
    caps = {endpoint: body_cap_of(view) for endpoint, view in app.view_functions.items()}
    assert {endpoint: cap for endpoint, cap in caps.items() if cap is not None} == {
        "api.import_game": GAME_IMPORT_MAX_BYTES,
        "api_clubs.import_club": CLUB_IMPORT_MAX_BYTES,
        "api_clubs.import_into_club": CLUB_IMPORT_MAX_BYTES,
    }
