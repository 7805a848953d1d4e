"""A client is an IPv4 address or an IPv6 /64, in every budget and every key scope (issue 35)."""

from __future__ import annotations

from pathlib import Path

import pytest
from flask import Flask

from scorer import create_app
from scorer.web.clients import client_of

GAME = {"sides": [{"players": ["Ann", "Bob"]}, {"players": ["Cy", "Di"]}]}


@pytest.mark.parametrize(
    ("address", "client"),
    [
        ("192.0.2.7", "192.0.2.7"),
        ("2001:db8:1:2::1", "2001:db8:1:2::/64"),
        ("2001:db8:1:2:ffff:ffff:ffff:ffff", "2001:db8:1:2::/64"),
        ("2001:DB8:1:2:0:0:0:9", "2001:db8:1:2::/64"),
        ("2001:db8:1:3::1", "2001:db8:1:3::/64"),
        ("::ffff:192.0.2.7", "192.0.2.7"),  # IPv4 through an IPv6 socket: the IPv4 client
        ("fe80::1%eth0", "fe80::/64"),
        ("::1", "::/64"),
        ("", "unknown"),
        (None, "unknown"),
        ("not an address", "not an address"),
    ],
)
def test_the_client_of_an_address(address: str | None, client: str) -> None:
    assert client_of(address) == client


def make_app(tmp_path: Path, **config: object) -> Flask:
    return create_app(
        {"TESTING": True, "DATABASE": str(tmp_path / "db.sqlite3"), "SECRET_KEY": "s", **config}
    )


def from_address(address: str) -> dict[str, str]:
    return {"REMOTE_ADDR": address}


def test_forty_addresses_of_one_64_share_one_budget(tmp_path: Path) -> None:
    client = make_app(tmp_path, RATELIMIT_CREATE_GAME="2/hour").test_client()
    answers = [
        client.post(
            "/api/games", json=GAME, environ_base=from_address(f"2001:db8:0:7::{n:x}")
        ).status_code
        for n in range(1, 41)
    ]
    assert answers == [201, 201] + [429] * 38
    other = client.post("/api/games", json=GAME, environ_base=from_address("2001:db8:0:8::1"))
    assert other.status_code == 201  # the next /64 is another client


def test_the_heavy_reads_count_by_64_too(tmp_path: Path) -> None:
    client = make_app(tmp_path, RATELIMIT_HEAVY_READ="1/hour").test_client()
    game = client.post("/api/games", json=GAME).get_json()["id"]
    first = client.get(f"/games/{game}/hands.csv", environ_base=from_address("2001:db8::a"))
    again = client.get(f"/games/{game}/hands.csv", environ_base=from_address("2001:db8::b"))
    assert (first.status_code, again.status_code) == (200, 429)


def test_an_idempotency_key_belongs_to_the_64(tmp_path: Path) -> None:
    client = make_app(tmp_path).test_client()
    key = {"Idempotency-Key": "one-game-please"}

    def create(address: str) -> str:
        answer = client.post(
            "/api/games", json=GAME, headers=key, environ_base=from_address(address)
        )
        assert answer.status_code in (200, 201)
        return answer.headers["Location"]

    first = create("2001:db8:5:5::1")
    assert create("2001:db8:5:5::2") == first  # the same phone on a new privacy address
    assert create("2001:db8:5:6::1") != first  # another network: another key
    assert create("192.0.2.1") != first
