"""A client cannot publish (issue 29): only the app tells the screens to look.

Through the real nginx with Nchan, as `make run` serves (scorer.front: the publisher on a
Unix socket in a private folder) and as the hosted router does (scorer-shards.conf: the
publisher on a loopback port of its own, behind the public one), a client with a screen's
channel in hand tries to publish to it every way it could guess: POST, PUT and DELETE
(Nchan's publisher's methods) to the channel's own address and to publisher-like addresses
naming it. Each is refused (4xx) and a screen listening on the channel hears none of them:
the first version it hears is the one a real save published. Everything on 127.0.0.1.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest
from serving import call
from test_shards_served import fleet, pushed_version

from bench import push
from scorer import front
from scorer.web.push import PUBLISH_PREFIX, SUBSCRIBE_PREFIX

FOUR = [{"players": ["Ann", "Bob"]}, {"players": ["Cy", "Di"]}]
FORGED = 9999  # a version no game of these tests reaches: what a forger would push
# Nchan's publisher's methods: POST and PUT publish (PUT makes the channel), DELETE closes it
# and every subscriber with it.
METHODS = ("POST", "PUT", "DELETE")


def guessed_addresses(channel: str) -> list[str]:
    """Where a client would try to publish, given the channel's address (/push/<name>)."""
    name = channel.removeprefix(SUBSCRIBE_PREFIX)
    return [
        channel,  # the subscriber's own address (a pub/sub location would take it)
        f"{PUBLISH_PREFIX}{name}",  # the publisher's path, as the app uses it
        f"{SUBSCRIBE_PREFIX}{PUBLISH_PREFIX.strip('/')}/{name}",
        f"/publish/{name}",
        f"{PUBLISH_PREFIX}?id={name}",
    ]


def every_publish_refused(base: str) -> Callable[[str], None]:
    """What a client tries once it holds a channel's address: each answer a refusal."""

    def attempt(channel: str) -> None:
        for path in guessed_addresses(channel):
            for method in METHODS:
                status, answer, _ = call(method, base + path, FORGED)
                assert 400 <= status < 500, (method, path, status, answer)

    return attempt


def only_the_save_is_heard(base: str) -> None:
    """A game's screen on its channel: the forgeries refused, then a real save; the first
    version the channel says is the save's."""
    status, game, _ = call("POST", f"{base}/api/games", {"sides": FOUR})
    assert status == 201, game
    heard = pushed_version(base, game["id"], meanwhile=every_publish_refused(base))
    assert heard == game["version"] + 1


def test_a_client_cannot_publish_through_make_runs_front(tmp_path):
    if not front.available():
        pytest.fail("nginx with Nchan is missing: `make test` installs libnginx-mod-nchan")
    with push.served(tmp_path, tmp_path / "scorer.sqlite3") as server:
        only_the_save_is_heard(server.base)


def test_a_client_cannot_publish_through_the_router(tmp_path):
    with fleet(tmp_path) as (base, _shards, _databases):
        only_the_save_is_heard(base)
