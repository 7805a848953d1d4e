"""Security: headers on every response, no 500 ever, the secret key, CSRF, unguessable ids."""

from __future__ import annotations

import re
import stat
import subprocess
import sys
from pathlib import Path

import pytest
from flask import Flask

from scorer import ROOT, create_app

FOUR = [{"players": ["Ann", "Bob"]}, {"players": ["Cy", "Di"]}]


def production_app(tmp_path: Path) -> Flask:
    """The app as a server runs it: not TESTING, CSRF on, key from the instance folder."""
    return create_app(
        {"DATABASE": str(tmp_path / "prod.sqlite3"), "INSTANCE_PATH": str(tmp_path / "inst")}
    )


def assert_security_headers(response) -> None:
    csp = response.headers.get("Content-Security-Policy", "")
    directives = dict(
        (part.split()[0], part.split()[1:]) for part in csp.split(";") if part.strip()
    )
    assert "'unsafe-inline'" not in csp and "'unsafe-eval'" not in csp
    assert directives["default-src"] == ["'self'"]
    assert directives["script-src"] == ["'self'"]
    assert directives["style-src"] == ["'self'"]
    assert directives["frame-ancestors"] == ["'none'"]
    assert directives["object-src"] == ["'none'"]
    assert response.headers.get("X-Content-Type-Options") == "nosniff"
    assert response.headers.get("Referrer-Policy") in ("same-origin", "no-referrer")
    assert response.headers.get("X-Frame-Options") == "DENY"


def test_security_headers_on_every_kind_of_response(tmp_path):
    app = production_app(tmp_path)
    client = app.test_client()
    created = client.post("/api/games", json={"sides": FOUR})
    game_id = created.json["id"]
    responses = [
        created,
        client.get("/"),
        client.get(f"/api/games/{game_id}"),
        client.get(f"/api/games/{game_id}/export"),
        client.get("/api/games/nope"),  # 404 JSON
        client.get("/no/such/page"),  # 404 page
        client.put("/api/games"),  # 405
        client.post("/api/games", data="x" * 100_000, content_type="application/json"),  # 413
        client.post("/api/games", data="{", content_type="application/json"),  # 400
        client.get("/static/print.css"),
    ]
    statuses = [r.status_code for r in responses]
    assert statuses == [201, 200, 200, 200, 404, 404, 405, 413, 400, 200]
    for response in responses:
        assert_security_headers(response)
        response.close()


def test_an_unexpected_error_is_a_plain_answer_never_a_stack_trace(tmp_path):
    app = production_app(tmp_path)

    def explode():
        raise RuntimeError("secret internals")

    app.add_url_rule("/api/explode", "api_explode", explode)
    app.add_url_rule("/explode", "page_explode", explode)
    client = app.test_client()
    response = client.get("/api/explode")
    assert response.status_code == 500
    assert set(response.json) == {"error", "field"}
    assert "secret internals" not in response.get_data(as_text=True)
    assert_security_headers(response)
    page = client.get("/explode")
    assert page.status_code == 500
    assert page.mimetype == "text/html"
    assert "secret internals" not in page.get_data(as_text=True)
    assert "Traceback" not in page.get_data(as_text=True)
    assert_security_headers(page)


def test_error_page_that_cannot_render_still_answers(tmp_path, monkeypatch):
    app = production_app(tmp_path)
    client = app.test_client()

    def broken(*_args, **_kwargs):
        raise RuntimeError("template missing")

    monkeypatch.setattr("scorer.web.render_template", broken)
    response = client.get("/no/such/page")
    assert response.status_code == 404
    assert "template missing" not in response.get_data(as_text=True)
    assert_security_headers(response)


# --- the secret key --------------------------------------------------------------------------


def test_secret_key_is_generated_in_the_instance_folder_owner_only(tmp_path):
    instance = tmp_path / "instance"
    app = create_app({"DATABASE": str(tmp_path / "db.sqlite3"), "INSTANCE_PATH": str(instance)})
    key_file = instance / "secret_key"
    assert key_file.is_file()
    assert stat.S_IMODE(key_file.stat().st_mode) == 0o600
    assert stat.S_IMODE(instance.stat().st_mode) & 0o077 == 0
    key = key_file.read_text().strip()
    assert re.fullmatch(r"[0-9a-f]{64}", key)
    assert app.config["SECRET_KEY"] == key
    # The next start keeps it (sessions and form tokens survive a restart).
    again = create_app({"DATABASE": str(tmp_path / "db.sqlite3"), "INSTANCE_PATH": str(instance)})
    assert again.config["SECRET_KEY"] == key
    # Another installation gets its own.
    other = create_app(
        {"DATABASE": str(tmp_path / "db2.sqlite3"), "INSTANCE_PATH": str(tmp_path / "other")}
    )
    assert other.config["SECRET_KEY"] != key


def test_a_key_file_others_can_read_is_tightened(tmp_path):
    instance = tmp_path / "instance"
    instance.mkdir()
    (instance / "secret_key").write_text("a" * 64)
    (instance / "secret_key").chmod(0o644)
    app = create_app({"DATABASE": str(tmp_path / "db.sqlite3"), "INSTANCE_PATH": str(instance)})
    assert app.config["SECRET_KEY"] == "a" * 64
    assert stat.S_IMODE((instance / "secret_key").stat().st_mode) == 0o600


def test_processes_starting_together_agree_on_one_key(tmp_path):
    instance = tmp_path / "instance"
    script = (
        "import sys; from scorer import load_secret_key; from pathlib import Path; "
        "print(load_secret_key(Path(sys.argv[1])))"
    )
    processes = [
        subprocess.Popen(
            [sys.executable, "-c", script, str(instance)], stdout=subprocess.PIPE, text=True
        )
        for _ in range(4)
    ]
    keys = {p.communicate(timeout=60)[0].strip() for p in processes}
    assert all(p.returncode == 0 for p in processes)
    assert keys == {(instance / "secret_key").read_text().strip()}
    assert list(instance.iterdir()) == [instance / "secret_key"]  # no temporary left over


def test_the_secret_key_and_the_database_are_never_committed():
    # What the app writes in the checkout's instance folder, git leaves out.
    paths = ["instance/secret_key", "instance/scorer.sqlite3", "instance/scorer.sqlite3-wal"]
    ignored = subprocess.run(
        ["git", "check-ignore", "--no-index", *paths], cwd=ROOT, capture_output=True, text=True
    )
    assert ignored.stdout.split() == paths, ignored.stderr


# --- CSRF and the JSON API -------------------------------------------------------------------


def test_forms_refuse_a_post_without_a_csrf_token(tmp_path):
    app = production_app(tmp_path)
    client = app.test_client()
    response = client.post("/games/new", data={"name": "x"})
    assert response.status_code == 400
    game = client.post("/api/games", json={"sides": FOUR}).json
    response = client.post(f"/games/{game['id']}/hands/new", data={"went_out": ""})
    assert response.status_code == 400
    assert client.get(f"/api/games/{game['id']}").json["hands"] == []


@pytest.mark.parametrize(
    "content_type", ["application/x-www-form-urlencoded", "multipart/form-data", "text/plain"]
)
def test_the_api_takes_no_body_a_cross_site_form_can_send(tmp_path, content_type):
    app = production_app(tmp_path)
    client = app.test_client()
    game = client.post("/api/games", json={"sides": FOUR}).json
    body = '{"went_out": null, "sides": [{"meld_points": 50}, {"meld_points": 50}]}'
    response = client.post(f"/api/games/{game['id']}/hands", data=body, content_type=content_type)
    assert response.status_code == 400
    assert client.get(f"/api/games/{game['id']}").json["hands"] == []


def test_names_come_back_in_json_exactly_as_typed_not_as_markup(client):
    name = "<script>alert(1)</script>"
    game = client.post(
        "/api/games", json={"name": name, "sides": [{"players": [name, "Bob"]}, FOUR[1]]}
    )
    assert game.status_code == 201
    assert game.mimetype == "application/json"
    assert game.json["name"] == name and game.json["sides"][0]["players"][0] == name
    # JSON is never sniffed as HTML, so the name cannot run as a script here.
    assert game.headers["X-Content-Type-Options"] == "nosniff"
