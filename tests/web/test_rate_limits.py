"""Rate limits, the proxy setting and HTTPS cookies (issue #11)."""

from __future__ import annotations

from pathlib import Path

import pytest
from flask import Flask
from flask.testing import FlaskClient
from limits import parse

from scorer import create_app

GAME = {"sides": [{"players": ["Ann", "Bob"]}, {"players": ["Cy", "Di"]}]}


def make_app(tmp_path: Path, **config: object) -> Flask:
    return create_app(
        {
            "TESTING": True,
            "DATABASE": str(tmp_path / "scorer.sqlite3"),
            "SECRET_KEY": "test-secret",
            "WTF_CSRF_ENABLED": False,
            **config,
        }
    )


def create(client: FlaskClient, **headers: str) -> int:
    return client.post("/api/games", json=GAME, headers=headers).status_code


def test_limits_are_on_by_default(app: Flask) -> None:
    assert app.extensions["scorer.limiter"].enabled


def test_api_creation_past_the_limit_gets_429_with_retry_after(tmp_path: Path) -> None:
    client = make_app(tmp_path, RATELIMIT_CREATE_GAME="2/hour").test_client()
    assert [create(client), create(client)] == [201, 201]
    refused = client.post("/api/games", json=GAME)
    assert refused.status_code == 429
    assert int(refused.headers["Retry-After"]) > 0
    assert refused.get_json() == {
        "error": "too many requests from this address; wait and try again",
        "field": None,
    }


def test_pages_and_api_spend_the_same_budget(tmp_path: Path) -> None:
    client = make_app(tmp_path, RATELIMIT_CREATE_GAME="1/hour").test_client()
    assert create(client) == 201
    page = client.post("/games/new", data={})
    assert page.status_code == 429
    assert page.mimetype == "text/html"
    assert "Retry-After" in page.headers
    assert "more games or hands than any card table" in page.get_data(as_text=True)
    assert client.get("/games/new").status_code == 200  # only the POST is counted


def test_recording_hands_and_imports_are_limited(tmp_path: Path) -> None:
    client = make_app(
        tmp_path, RATELIMIT_RECORD_HAND="1/hour", RATELIMIT_IMPORT_KIB="1/hour"
    ).test_client()
    game = client.post("/api/games", json=GAME).get_json()["id"]
    hand = {"went_out": 0, "sides": [{}, {}]}
    assert client.post(f"/api/games/{game}/hands", json=hand).status_code != 429
    assert client.post(f"/api/games/{game}/hands", json=hand).status_code == 429
    assert client.post(f"/games/{game}/hands/new", data={}).status_code == 429
    # Correcting and removing spend the same budget: a long game's corrections are dear.
    assert client.put(f"/api/games/{game}/hands/1", json=hand).status_code == 429
    assert client.delete(f"/api/games/{game}/hands/1").status_code == 429
    assert client.post(f"/games/{game}/hands/1/edit", data={}).status_code == 429
    assert client.post(f"/games/{game}/undo", data={}).status_code == 429
    assert client.post("/api/games/import", json={}).status_code != 429
    assert client.post("/api/games/import", json={}).status_code == 429


def test_the_library_setting_turns_limits_off(tmp_path: Path) -> None:
    client = make_app(
        tmp_path, RATELIMIT_CREATE_GAME="1/hour", RATELIMIT_ENABLED=False
    ).test_client()
    assert [create(client) for _ in range(3)] == [201, 201, 201]


def test_forwarded_address_counts_only_behind_a_proxy(tmp_path: Path) -> None:
    behind = make_app(tmp_path, RATELIMIT_CREATE_GAME="1/hour", BEHIND_PROXY=True)
    client = behind.test_client()
    assert create(client, **{"X-Forwarded-For": "203.0.113.1"}) == 201
    assert create(client, **{"X-Forwarded-For": "203.0.113.1"}) == 429
    assert create(client, **{"X-Forwarded-For": "203.0.113.2"}) == 201

    direct = make_app(tmp_path, RATELIMIT_CREATE_GAME="1/hour").test_client()
    assert create(direct, **{"X-Forwarded-For": "203.0.113.1"}) == 201
    # Without the setting the header is anyone's to forge: the socket's address counts.
    assert create(direct, **{"X-Forwarded-For": "203.0.113.2"}) == 429


def test_proxy_setting_from_the_environment(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("SCORER_BEHIND_PROXY", "1")
    client = make_app(tmp_path).test_client()
    response = client.get("/lang/fr", headers={"X-Forwarded-Proto": "https"})
    assert "Secure" in response.headers["Set-Cookie"]


def set_cookies(response: object) -> dict[str, str]:
    cookies = {}
    for header in response.headers.getlist("Set-Cookie"):  # type: ignore[attr-defined]
        cookies[header.split("=", 1)[0]] = header
    return cookies


@pytest.mark.parametrize(
    ("behind_proxy", "secure"), [(True, True), (False, False)], ids=["proxy", "direct"]
)
def test_cookies_are_secure_over_https_behind_the_proxy(
    tmp_path: Path, behind_proxy: bool, secure: bool
) -> None:
    app = make_app(tmp_path, BEHIND_PROXY=behind_proxy, WTF_CSRF_ENABLED=True)
    client = app.test_client()
    https = {"X-Forwarded-Proto": "https"}
    language = set_cookies(client.get("/lang/fr", headers=https))["lang"]
    session = set_cookies(client.get("/games/new", headers=https))["session"]
    assert ("; Secure" in language) is secure
    assert ("; Secure" in session) is secure


def test_cookies_over_plain_http_behind_the_proxy_are_not_secure(tmp_path: Path) -> None:
    client = make_app(tmp_path, BEHIND_PROXY=True, WTF_CSRF_ENABLED=True).test_client()
    http = {"X-Forwarded-Proto": "http"}
    assert "; Secure" not in set_cookies(client.get("/lang/fr", headers=http))["lang"]
    assert "; Secure" not in set_cookies(client.get("/games/new", headers=http))["session"]


def test_sessions_are_secure_over_https_without_a_proxy(tmp_path: Path) -> None:
    client = make_app(tmp_path, WTF_CSRF_ENABLED=True).test_client()
    response = client.get("/games/new", base_url="https://localhost")
    assert "; Secure" in set_cookies(response)["session"]


# --- one budget per client for everything that stores (issue 25) -----------------------------

FINISHED = {
    "went_out": 0,
    "sides": [
        {"meld_points": 300, "natural_canastas": 1, "red_threes": 2},
        {"meld_points": 50},
    ],
}
CLUB = {"name": "Tuesday", "players": ["Ann", "Bob", "Cy", "Di"]}


def test_every_door_to_a_new_game_spends_the_same_budget(tmp_path: Path) -> None:
    client = make_app(tmp_path, RATELIMIT_CREATE_GAME="4/hour").test_client()
    game = client.post("/api/games", json={**GAME, "target": 1000}).get_json()["id"]
    assert client.post(f"/api/games/{game}/hands", json=FINISHED).status_code == 201
    club = client.post("/api/clubs", json=CLUB).get_json()["id"]
    assert client.post(f"/api/games/{game}/again").status_code == 201
    assert client.post(f"/api/clubs/{club}/games", json=GAME).status_code == 201
    assert create(client) == 201  # four games made: the budget is spent
    assert client.post(f"/api/games/{game}/again").status_code == 429
    assert client.post(f"/games/{game}/again").status_code == 429
    assert client.post(f"/api/clubs/{club}/games", json=GAME).status_code == 429
    assert client.post(f"/clubs/{club}/games/new", data={}).status_code == 429


def test_clubs_and_their_rosters_have_budgets(tmp_path: Path) -> None:
    client = make_app(
        tmp_path, RATELIMIT_CREATE_CLUB="1/hour", RATELIMIT_CLUB_ROSTER="2/hour"
    ).test_client()
    club = client.post("/api/clubs", json=CLUB).get_json()["id"]
    assert client.post("/api/clubs", json=CLUB).status_code == 429
    assert client.post("/clubs/new", data={"name": "Page"}).status_code == 429
    assert client.post(f"/api/clubs/{club}/players", json={"name": "Eve"}).status_code == 201
    assert client.post(f"/clubs/{club}/players", data={"name": "Fay"}).status_code != 429
    assert client.post(f"/api/clubs/{club}/players", json={"name": "Gus"}).status_code == 429
    assert client.post(f"/api/clubs/{club}/games/file", json={"game": "x"}).status_code == 429


def test_an_import_spends_its_size(tmp_path: Path) -> None:
    """A budget of 64 KiB takes many small imports but not one large one."""
    client = make_app(tmp_path, RATELIMIT_IMPORT_KIB="64/hour").test_client()
    game = client.post("/api/games", json=GAME).get_json()["id"]
    export = client.get(f"/api/games/{game}/export").get_json()
    for _ in range(3):  # under 1 KiB each
        assert client.post("/api/games/import", json=export).status_code == 201
    large = {**export, "name": "x" * 70_000}  # 69 KiB: over what is left of the budget
    assert client.post("/api/games/import", json=large).status_code == 429
    fresh = make_app(tmp_path / "club", RATELIMIT_IMPORT_KIB="64/hour").test_client()
    club = fresh.post("/api/clubs", json=CLUB).get_json()["id"]
    exported_club = fresh.get(f"/api/clubs/{club}/export").get_json()
    big_club = {**exported_club, "padding": "x" * 80_000}
    assert fresh.post("/api/clubs/import", json=big_club).status_code == 429


def test_club_import_also_makes_a_club(tmp_path: Path) -> None:
    client = make_app(tmp_path, RATELIMIT_CREATE_CLUB="1/hour").test_client()
    club = client.post("/api/clubs", json=CLUB).get_json()["id"]
    exported = client.get(f"/api/clubs/{club}/export").get_json()
    assert client.post("/api/clubs/import", json=exported).status_code == 429


def test_the_checker_is_limited_as_a_read(tmp_path: Path) -> None:
    client = make_app(tmp_path, RATELIMIT_CHECK_MELD="2/minute").test_client()
    body = {"minimum": 50, "melds": [{"rank": "K", "naturals": 3}]}
    assert client.post("/api/opening-meld", json=body).status_code == 200
    assert client.get("/check-meld").status_code == 200
    assert client.post("/api/opening-meld", json=body).status_code == 429
    assert client.get("/check-meld").status_code == 429
    assert client.get("/rules/play").status_code == 200  # the rules page is not the checker


def spent(app: Flask, limit: str, budget: str, address: str = "127.0.0.1") -> int:
    """What the client at `address` has spent of one window of a budget, as counted."""
    limiter = app.extensions["scorer.limiter"]
    return limiter.storage.get(parse(limit).key_for(address, budget))


def test_a_request_refused_for_its_budget_spends_nothing(tmp_path: Path) -> None:
    """Refusals by the day's window must not fill the hour's: else, when the day's opens
    again, the client is still refused for an hour it never used."""
    app = make_app(tmp_path, RATELIMIT_CREATE_CLUB="5/hour;2/day")
    client = app.test_client()
    club = {"name": "Sun", "players": ["Ann", "Bob"]}
    assert [client.post("/api/clubs", json=club).status_code for _ in range(2)] == [201, 201]
    refused = [client.post("/api/clubs", json=club).status_code for _ in range(4)]
    assert refused == [429] * 4
    assert spent(app, "2/day", "create_club") == 2
    assert spent(app, "5/hour", "create_club") == 2
    # A refusal of bad input still spends: it cost the server a request.
    app2 = make_app(tmp_path / "other", RATELIMIT_CREATE_CLUB="5/hour")
    bad = app2.test_client().post("/api/clubs", json={"name": 5})
    assert bad.status_code == 400 and spent(app2, "5/hour", "create_club") == 1


def test_an_import_refused_for_its_size_spends_none_of_it(tmp_path: Path) -> None:
    app = make_app(tmp_path, RATELIMIT_IMPORT_KIB="8/hour")
    client = app.test_client()
    big = {"name": "x" * 20_000}  # about 20 KiB: more than the hour holds
    assert client.post("/api/games/import", json=big).status_code == 429
    assert not spent(app, "8/hour", "import_kib")
