"""Issue 35: a client's flood is held by nginx, before any worker, through `make run`'s
front and the generated router alike (scorer.front's per-client bounds).

Five clients that ignored Retry-After and asked again at once kept every gunicorn worker busy
refusing them; nginx now keeps a client's excess itself: heavy and costly reads past their
rate, any request past the client's, wait their turn in nginx; connections past their number
are refused there. The client is who the app's budgets count: an IPv4 address or an IPv6 /64.
This machine (127.0.0.1) is never limited, so the tests' clients here ask from 127.0.0.2 and
up, all on loopback.
"""

from __future__ import annotations

import http.client
import ipaddress
import itertools
import json
import re
import socket
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from contextlib import ExitStack
from pathlib import Path

import pytest
from serving import free_port, gunicorn_command, running, server_env

from bench import push, router
from scorer import create_app, front
from scorer.web.clients import client_of
from scorer.web.routes import COSTLY, HEAVY, ORDINARY, weight_of

ENTRY = re.compile(r'^"(?P<key>.*)" (?P<value>\S+);$')
ROSTER = {"name": "Sun", "players": ["Ann", "Bob", "Cy", "Di"]}
SIDES = [{"players": ["Ann", "Bob"]}, {"players": ["Cy", "Di"]}]
TOKEN = "s1-" + "A" * 22
API_429 = json.loads(front.api_refusal(429))["error"]


def nginx_map(entries: list[str], value: str, default: str) -> str:
    """What an nginx `map` of `entries` gives `value`: an exact key first (nginx ignores
    case there), then the first regular expression that matches, its first group where the
    entry's value is $1."""
    exact: dict[str, str] = {}
    patterns: list[tuple[str, str]] = []
    for entry in entries:
        found = ENTRY.match(entry.strip())
        assert found, entry
        key, result = found["key"], found["value"].strip('"')
        if key.startswith("~"):
            patterns.append((key[1:], result))
        else:
            exact[key.lower()] = result
    if value.lower() in exact:
        return exact[value.lower()]
    for pattern, result in patterns:
        if matched := re.search(pattern, value):
            return matched.group(1) if result == "$1" else result
    return default


def client_key(address: str) -> str:
    """nginx's $scorer_client for an address as nginx writes it."""
    entries = [f'"{unlimited}" "";' for unlimited in front.UNLIMITED_CLIENTS]
    entries += [f'"~{pattern}" $1;' for pattern in front.CLIENT_KEY_PATTERNS]
    return nginx_map(entries, address, address)


def test_a_client_is_its_ipv4_address_or_its_ipv6_64_as_the_apps_budgets_count_it():
    """Every way nginx can write an address whose groups are 0, 1 or abcd (the zeros folded
    anywhere): two addresses share a key only if they share a /64, and a /64 has a few keys
    at most (its zeros written out or folded), never one per address."""
    keys_of: dict[str, set[str]] = {}
    owner: dict[str, str] = {}
    for groups in itertools.product((0, 1, 0xABCD), repeat=8):
        number = sum(group << (16 * (7 - place)) for place, group in enumerate(groups))
        address = ipaddress.IPv6Address(number)
        if address.ipv4_mapped is not None or address == ipaddress.IPv6Address("::1"):
            continue
        client, key = client_of(str(address)), client_key(address.compressed)
        assert owner.setdefault(key, client) == client, (address, key)
        keys_of.setdefault(client, set()).add(key)
    assert len(keys_of) == 3**4
    assert max(len(keys) for keys in keys_of.values()) <= 3
    assert client_key("192.0.2.7") == "192.0.2.7"
    assert client_key("::ffff:192.0.2.7") == "192.0.2.7"
    assert client_key("127.0.0.1") == client_key("::1") == ""
    assert client_key("127.0.0.2") == "127.0.0.2"


def sample_path(rule: str) -> str:
    return front.RULE_ARGUMENT.sub(TOKEN, rule)


@pytest.mark.parametrize("weight", list(front.WEIGHTED))
def test_each_weight_of_read_has_nginx_bounds_on_the_apps_routes_of_that_weight_and_only_them(
    tmp_path: Path, weight: str
):
    app = create_app({"DATABASE": str(tmp_path / "s.sqlite3"), "INSTANCE_PATH": str(tmp_path)})
    rules = front.app_rules()
    entries = front.weighted_paths(rules, weight)
    marked = 0
    for rule in app.url_map.iter_rules():
        its = weight_of(app.view_functions[rule.endpoint]) == weight
        marked += its
        path = sample_path(rule.rule)
        for method in ("GET", "HEAD", "POST"):
            expected = "1" if its and method != "POST" else "0"
            assert nginx_map(entries, f"{method} {path}", "0") == expected, (method, rule)
    assert marked >= {HEAVY: 13, COSTLY: 2}[weight]
    assert nginx_map(front.weighted_paths(rules, HEAVY), "GET /clubs/new", "0") == "0"


class Client:
    """HTTP from one loopback address of our choosing (127.0.0.2 and up: not this machine's
    own 127.0.0.1, which nginx never limits)."""

    def __init__(self, port: int, source: str, headers: dict[str, str] | None = None):
        self.port, self.source, self.headers = port, source, headers or {}

    def ask(self, method: str, path: str, body: object = None) -> tuple[int, dict, bytes]:
        connection = http.client.HTTPConnection(
            "127.0.0.1", self.port, timeout=60, source_address=(self.source, 0)
        )
        try:
            headers = {"Content-Type": "application/json", **self.headers}
            data = None if body is None else json.dumps(body)
            connection.request(method, path, body=data, headers=headers)
            answer = connection.getresponse()
            return answer.status, {k.lower(): v for k, v in answer.getheaders()}, answer.read()
        finally:
            connection.close()


def refused_by_nginx(headers: dict[str, str]) -> bool:
    """nginx's own 429 (the app's carries its budget's X-RateLimit headers)."""
    return "x-ratelimit-limit" not in headers and headers.get("retry-after") == str(
        front.LIMITED_RETRY_AFTER
    )


Answer = tuple[int, dict, bytes, float]


def together(client_of: Callable[[int], Client], path: str, asks: int) -> list[Answer]:
    """`asks` GETs of `path` sent at once (a thread each, the nth from `client_of(n)`), each
    answer with the moment it came: nginx paces a client's requests past those it lets
    through at once, so only requests sent together are paced."""

    def one(number: int) -> Answer:
        status, headers, body = client_of(number).ask("GET", path)
        return status, headers, body, time.monotonic()

    with ThreadPoolExecutor(max_workers=asks) as pool:
        return list(pool.map(one, range(asks)))


def served(answers: list[Answer]) -> list[float]:
    """When each answer came, in order: every one passed on (200, or the app's 503 when its
    heavy slots are taken), none refused by nginx."""
    assert all(status in (200, 503) for status, *_ in answers), [a[0] for a in answers]
    return sorted(at for *_, at in answers)


def assert_paced(moments: list[float], started: float, bound: front.ReadRate) -> None:
    """The first `bound.at_once` past the rate came at once, each one after them no sooner
    than its turn at the rate (a fifth early for the edges)."""
    for number, moment in enumerate(moments):
        turn = max(0, number - bound.at_once) / bound.rate
        assert moment - started >= 0.8 * turn, (number, moment - started, turn)


def asks_for(bound: front.ReadRate, seconds: int) -> int:
    """Requests sent together that `bound` passes over about `seconds`."""
    return 1 + bound.at_once + seconds * bound.rate


def assert_not_paced(here: Client, path: str) -> None:
    """This machine (127.0.0.1: a health check, a host's own script) is not limited: twelve
    heavy reads sent together all come within 3 s (paced, at 1 a second past 4, 7 s)."""
    started = time.monotonic()
    moments = served(together(lambda _: here, path, 12))
    assert moments[-1] - started < 3


def port_of(base: str) -> int:
    return int(base.rsplit(":", 1)[1])


def test_every_zone_holds_what_one_client_may_hold_open_waiting_not_refused():
    """A smaller waiting room refused a loop's requests past it at once, and each came back
    at once: thousands of refusals a second (bench section 11). Past the connections one
    client may hold open, limit_conn refuses."""
    for bound in (front.CLIENT, *front.WEIGHTED.values()):
        assert f" burst={front.CLIENT_CONNECTIONS} delay={bound.at_once};" in bound.limit_req()
    assert len({bound.zone for bound in (front.CLIENT, *front.WEIGHTED.values())}) == 3


@pytest.mark.parametrize("weight", [ORDINARY, COSTLY, HEAVY], ids=["ordinary", "costly", "heavy"])
def test_make_runs_front_paces_a_clients_burst(tmp_path: Path, weight: str):
    """A client asking for many pages at once gets a few at once and the next ones paced at
    the rate, waiting in nginx, not in a worker, none refused: a club's page (a heavy read)
    at the heavy reads' rate, a hand's form (a costly read, tens of milliseconds of a worker)
    at the costly ones', any page at the client's (scorer.front.rate_of). More of them than
    the old waiting rooms held (250 requests, 10 heavy reads, 20 hand forms) all wait their
    turn. Its other pages and another client's go on."""
    if not front.available():
        pytest.fail("nginx with Nchan is missing: `make test` installs libnginx-mod-nchan")
    bound = front.rate_of(weight)
    with push.served(tmp_path, tmp_path / "scorer.sqlite3") as server:  # no app budgets
        port = port_of(server.base)
        here = Client(port, "127.0.0.1")
        status, _, game = here.ask("POST", "/api/games", {"sides": SIDES})
        assert status == 201, game
        game_id = json.loads(game)["id"]
        status, _, club = here.ask("POST", "/api/clubs", ROSTER)
        assert status == 201, club
        page, asks = {
            ORDINARY: (f"/games/{game_id}", asks_for(bound, 4)),
            COSTLY: (f"/games/{game_id}/hands/new", 26),  # past the old 1 + 20
            HEAVY: (f"/clubs/{json.loads(club)['id']}", 12),  # past the old 1 + 10
        }[weight]
        asker = Client(port, "127.0.0.2")
        started = time.monotonic()
        assert_paced(served(together(lambda _: asker, page, asks)), started, bound)
        # Its other pages go on (an ordinary one at worst waits its turn), another client's too.
        other = "/" if weight == ORDINARY else f"/games/{game_id}"
        assert asker.ask("GET", other)[0] == 200
        assert Client(port, "127.0.0.3").ask("GET", page)[0] == 200


def test_make_runs_front_bounds_a_clients_open_connections_and_says_so_as_the_app_would(
    tmp_path: Path,
):
    """Idle screens and slow readers hold an nginx connection each: one client holds at most
    CLIENT_CONNECTIONS of them, so it cannot take every connection nginx has. Past them,
    nginx's own 429: JSON in the app's shape under /api, elsewhere a page that asks again.
    Another client and this machine go on."""
    if not front.available():
        pytest.fail("nginx with Nchan is missing: `make test` installs libnginx-mod-nchan")
    database = tmp_path / "scorer.sqlite3"
    with push.served(tmp_path, database) as server, ExitStack() as held:
        port = port_of(server.base)
        status, _, club = Client(port, "127.0.0.1").ask("POST", "/api/clubs", ROSTER)
        assert status == 201
        club_id = json.loads(club)["id"]
        channel = "0" * 48
        request = (
            f"GET /push/{channel} HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n\r\n"
        ).encode()
        for _ in range(front.CLIENT_CONNECTIONS):
            address = ("127.0.0.1", port)
            sock = held.enter_context(socket.create_connection(address, 30, ("127.0.0.4", 0)))
            sock.sendall(request)
            assert sock.recv(64).startswith(b"HTTP/1.1 200"), "a screen's channel is held"
        holder = Client(port, "127.0.0.4")
        status, headers, body = holder.ask("GET", f"/api/clubs/{club_id}")
        assert status == 429 and refused_by_nginx(headers)
        assert headers["content-type"].startswith("application/json")
        assert json.loads(body) == {"error": str(API_429), "field": None}
        status, headers, body = holder.ask("GET", f"/clubs/{club_id}")
        assert status == 429 and refused_by_nginx(headers)
        assert headers["content-type"].startswith("text/html") and b"refresh" in body
        assert Client(port, "127.0.0.5").ask("GET", f"/clubs/{club_id}")[0] == 200
        assert_not_paced(Client(port, "127.0.0.1"), f"/api/clubs/{club_id}")


def test_the_router_bounds_the_client_its_tls_front_names_by_its_64(tmp_path: Path):
    """Behind Caddy every request comes from 127.0.0.1: the router counts the client Caddy
    names in X-Forwarded-For (the last address), an IPv6 one by its /64, as the app does."""
    port = free_port()
    with ExitStack() as stack:
        env = server_env(tmp_path / "scorer.sqlite3", tmp_path / "instance")
        env["RATELIMIT_ENABLED"] = "False"  # only the router's bounds
        command = gunicorn_command(port, ["--workers", "2", "--worker-class", "sync"])
        stack.enter_context(running(command, env, port, tmp_path / "shard.log"))
        routed = router.router(tmp_path / "router", (port,))
        stack.callback(routed.stop)
        router_port = port_of(routed.base)

        def named(address: str) -> Client:
            return Client(router_port, "127.0.0.1", {"X-Forwarded-For": address})

        status, _, club = Client(router_port, "127.0.0.1").ask("POST", "/api/clubs", ROSTER)
        assert status == 201
        path = f"/api/clubs/{json.loads(club)['id']}"
        # One /64, written every way: its addresses share one waiting room, paced together.
        spellings = [
            "2001:db8:1:2::a",
            "2001:db8:1:2:ffff::b",
            "2001:db8:1:2:3:4:5:6",
            "2001:db8:1:2::",
        ]
        bound = front.WEIGHTED[HEAVY]
        with ThreadPoolExecutor(max_workers=1) as first:
            started = time.monotonic()
            waiting = first.submit(
                together, lambda number: named(spellings[number % 4]), path, asks_for(bound, 3)
            )
            time.sleep(0.3)  # sent, and the last of them waiting their turn
            # The next /64, and a client named after a proxy's address, are their own: what
            # they may have at once they get at once, while the first /64's requests wait.
            for other in ("2001:db8:1:3::a", "198.51.100.7, 2001:db8:1:4::1"):
                sent = time.monotonic()
                moments = served(together(lambda _, o=other: named(o), path, 1 + bound.at_once))
                assert moments[-1] - sent < 1, other
            assert_paced(served(waiting.result()), started, bound)
        # Nothing named: this machine, not limited.
        assert_not_paced(Client(router_port, "127.0.0.1"), path)
