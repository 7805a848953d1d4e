"""Phones at the table: the LAN address, the QR codes, the service worker and the manifest."""

from __future__ import annotations

import json
import re

import pytest
from flask import Flask
from flask.testing import FlaskClient
from qrsvg import expected_modules, svg_modules

from scorer import ROOT, create_app
from scorer.network import (
    choose_lan_address,
    is_private_ipv4,
    lan_address,
    public_base_url,
    split_host,
)
from scorer.qr import qr_svg, qr_terminal
from scorer.web import addresses

FOUR = [{"players": ["Ann", "Bob"]}, {"players": ["Cy", "Di"]}]


@pytest.fixture
def client(app: Flask) -> FlaskClient:
    addresses.init_app(app)  # idempotent: harmless once the app factory registers it too
    return app.test_client()


# --- the LAN address -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("addresses", "chosen"),
    [
        (["127.0.1.1", "192.168.1.23"], "192.168.1.23"),
        (["10.0.0.7"], "10.0.0.7"),
        (["172.16.4.2", "192.168.0.2"], "172.16.4.2"),  # the first private one wins
        (["172.31.255.1"], "172.31.255.1"),
        (["172.32.0.1", "172.15.0.1", "192.168.8.1"], "192.168.8.1"),  # outside 172.16/12
        (["8.8.4.4", "100.64.0.1", "169.254.3.3"], "127.0.0.1"),  # public, CGNAT, link-local
        (["fe80::1", "fd00::5", "::1"], "127.0.0.1"),  # IPv6 is not offered
        (["not an address", ""], "127.0.0.1"),
        ([], "127.0.0.1"),
    ],
)
def test_choose_lan_address(addresses, chosen):
    assert choose_lan_address(addresses) == chosen


def test_private_means_rfc_1918_ipv4_only():
    assert is_private_ipv4("192.168.255.255")
    assert not is_private_ipv4("127.0.0.1")
    assert not is_private_ipv4("192.169.0.1")
    assert not is_private_ipv4("fd12::1")


def test_lan_address_is_the_one_the_launcher_chose(monkeypatch):
    # The launcher sets it for its workers; nothing is looked up then.
    monkeypatch.setenv("SCORER_LAN_ADDRESS", "192.168.5.9")
    assert lan_address() == "192.168.5.9"


@pytest.mark.parametrize(
    ("host", "split"),
    [
        ("localhost:5000", ("localhost", 5000)),
        ("LOCALHOST", ("localhost", None)),
        ("[::1]:5001", ("::1", 5001)),
        ("::1", ("::1", None)),
        ("192.168.1.4:5000", ("192.168.1.4", 5000)),
        ("cards.example.org", ("cards.example.org", None)),
    ],
)
def test_split_host(host, split):
    assert split_host(host) == split


@pytest.mark.parametrize(
    ("host", "port", "url"),
    [
        ("localhost:5000", 5000, "http://192.168.1.23:5000"),
        ("127.0.0.1:5001", 5001, "http://192.168.1.23:5001"),
        ("[::1]:5000", 5000, "http://192.168.1.23:5000"),
        ("127.0.1.1:5000", 5000, "http://192.168.1.23:5000"),
        ("192.168.1.23:5000", 5000, "http://192.168.1.23:5000"),  # a phone's own view: kept
        ("10.1.2.3:8080", 8080, "http://10.1.2.3:8080"),
    ],
)
def test_public_base_url_never_hands_out_localhost(host, port, url):
    assert public_base_url(host, port, lan="192.168.1.23") == url


def test_public_base_url_keeps_a_hosted_name_and_its_scheme():
    url = public_base_url("cards.example.org", 443, scheme="https", lan="192.168.1.23")
    assert url == "https://cards.example.org"


# --- the QR codes ----------------------------------------------------------------------------


def test_qr_svg_draws_exactly_the_url():
    url = "http://192.168.1.23:5000/games/abc"
    assert svg_modules(qr_svg(url)) == expected_modules(url)
    assert svg_modules(qr_svg(url)) != expected_modules(url.replace("23", "24"))


def test_qr_svg_is_inline_safe():
    svg = qr_svg("http://10.0.0.2:5000/")
    assert svg.startswith("<svg ") and svg.endswith("</svg>")
    assert "style=" not in svg  # the CSP's style-src 'self' would block it
    assert "<?xml" not in svg and "\n" not in svg
    assert 'width="' not in svg  # sized by the page's CSS


def test_qr_terminal_is_text_blocks():
    drawn = qr_terminal("http://10.0.0.2:5000/")
    lines = drawn.splitlines()
    assert len(lines) > 10 and set("".join(lines)) <= set("█▀▄ ")


def new_game(client: FlaskClient) -> str:
    response = client.post("/api/games", json={"sides": FOUR})
    assert response.status_code == 201
    return response.json["id"]


def test_game_qr_carries_the_network_address_when_opened_on_localhost(client, monkeypatch):
    monkeypatch.setenv("SCORER_LAN_ADDRESS", "192.168.1.23")
    game_id = new_game(client)
    response = client.get(f"/games/{game_id}/qr.svg", base_url="http://localhost:5000")
    assert response.status_code == 200
    assert response.mimetype == "image/svg+xml"
    assert "Content-Security-Policy" in response.headers
    svg = response.get_data(as_text=True)
    assert svg_modules(svg) == expected_modules(f"http://192.168.1.23:5000/games/{game_id}")


def test_game_qr_on_a_phone_carries_the_address_the_phone_used(client, monkeypatch):
    monkeypatch.setenv("SCORER_LAN_ADDRESS", "192.168.1.23")
    game_id = new_game(client)
    response = client.get(f"/games/{game_id}/qr.svg", base_url="http://10.9.8.7:5001")
    url = f"http://10.9.8.7:5001/games/{game_id}"
    assert svg_modules(response.get_data(as_text=True)) == expected_modules(url)


def test_qr_of_an_unknown_game_is_404(client):
    assert client.get("/games/no-such-game/qr.svg").status_code == 404


# --- installable: service worker, manifest, icons --------------------------------------------


def fetched(client: FlaskClient, path: str):
    """A GET whose file is read and closed at once (static files are streamed)."""
    response = client.get(path)
    response.get_data()
    response.close()
    return response


def test_service_worker_is_served_from_the_root(client):
    response = fetched(client, "/sw.js")
    assert response.status_code == 200
    assert response.mimetype in {"text/javascript", "application/javascript"}
    assert response.headers["Service-Worker-Allowed"] == "/"
    assert "no-cache" in response.headers["Cache-Control"]
    body = response.get_data(as_text=True)
    assert 'addEventListener("fetch"' in body


def test_service_worker_precaches_files_that_exist(client):
    body = (ROOT / "static" / "sw.js").read_text()
    start = body.index("PRECACHE = [") + len("PRECACHE = ")
    listed = json.loads(body[start : body.index("]", start) + 1].replace("'", '"'))
    assert "/static/app.css" in listed
    for path in listed:
        assert fetched(client, path).status_code == 200, path


def test_every_script_a_page_loads_is_precached():
    """Offline, a page kept by the service worker still finds its scripts (util.js first)."""
    body = (ROOT / "static" / "sw.js").read_text()
    loaded = {
        f"/static/{name}"
        for template in (ROOT / "templates").rglob("*.html")
        for name in re.findall(r"filename='([\w-]+\.js)'", template.read_text())
    }
    assert "/static/util.js" in loaded
    assert {path for path in loaded if f'"{path}"' not in body} == set()


def test_manifest_is_installable(client):
    response = fetched(client, "/static/manifest.webmanifest")
    assert response.status_code == 200
    assert response.mimetype == "application/manifest+json"
    manifest = json.loads(response.get_data(as_text=True))
    assert manifest["start_url"] == "/"
    assert manifest["display"] == "standalone"
    assert manifest["name"] and manifest["short_name"]
    sizes = {(icon["sizes"], icon.get("purpose", "any")) for icon in manifest["icons"]}
    assert {("192x192", "any"), ("512x512", "any")} <= sizes
    assert any(purpose == "maskable" for _, purpose in sizes)
    for icon in manifest["icons"]:
        got = fetched(client, icon["src"])
        assert got.status_code == 200 and got.mimetype == "image/png", icon["src"]
        width = int.from_bytes(got.data[16:20], "big")  # the PNG header's width
        assert f"{width}x{width}" == icon["sizes"]


# --- links and codes never carry a forged Host (issue 25) ------------------------------------

FORGED = {"Host": "evil.example:5000"}


def test_a_forged_host_never_reaches_a_link_or_a_code(client, monkeypatch):
    monkeypatch.setenv("SCORER_LAN_ADDRESS", "192.168.1.23")
    game_id = new_game(client)
    # The request reached this machine on localhost:5000, whatever its Host header says.
    page = client.get(f"/games/{game_id}", base_url="http://localhost:5000", headers=FORGED)
    assert "evil.example" not in page.get_data(as_text=True)
    assert f'href="http://192.168.1.23:5000/games/{game_id}"' in page.get_data(as_text=True)
    code = client.get(f"/games/{game_id}/qr.svg", base_url="http://localhost:5000", headers=FORGED)
    url = f"http://192.168.1.23:5000/games/{game_id}"
    assert svg_modules(code.get_data(as_text=True)) == expected_modules(url)
    watch_url = client.get(f"/api/games/{game_id}").json["watch_url"]
    watch_code = client.get(f"{watch_url}/qr.svg", base_url="http://localhost:5000", headers=FORGED)
    expected = expected_modules(f"http://192.168.1.23:5000{watch_url}")
    assert svg_modules(watch_code.get_data(as_text=True)) == expected


def test_a_configured_public_address_builds_every_link(tmp_path, monkeypatch):
    monkeypatch.setenv("SCORER_PUBLIC_URL", "https://cards.example.org/")
    app = create_app({"TESTING": True, "DATABASE": str(tmp_path / "db.sqlite3"), "SECRET_KEY": "s"})
    client = app.test_client()
    game_id = new_game(client)
    page = client.get(f"/games/{game_id}", headers=FORGED).get_data(as_text=True)
    assert f'href="https://cards.example.org/games/{game_id}"' in page
    code = client.get(f"/games/{game_id}/qr.svg", headers=FORGED).get_data(as_text=True)
    assert svg_modules(code) == expected_modules(f"https://cards.example.org/games/{game_id}")


def test_trusted_hosts_keep_a_hosted_name_and_refuse_others(tmp_path):
    app = create_app(
        {
            "TESTING": True,
            "DATABASE": str(tmp_path / "db.sqlite3"),
            "SECRET_KEY": "s",
            "TRUSTED_HOSTS": ["cards.example.org"],
        }
    )
    client = app.test_client()
    hosted = {"base_url": "https://cards.example.org"}
    game_id = client.post("/api/games", json={"sides": FOUR}, **hosted).json["id"]
    page = client.get(f"/games/{game_id}", **hosted).get_data(as_text=True)
    assert f'href="https://cards.example.org/games/{game_id}"' in page
    assert client.get(f"/games/{game_id}/qr.svg", headers=FORGED, **hosted).status_code == 400
