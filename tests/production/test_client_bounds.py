"""Issue 35: a client's flood is refused by nginx, before any worker, through `make run`'s
front and the generated router alike (scorer.front's per-client bounds).

Five clients that ignored Retry-After and asked again at once kept every gunicorn worker busy
refusing them; nginx now refuses a client's excess itself: heavy and costly reads past their
burst, any request past the client's rate, connections past their number. The client is who the
app's budgets count: an IPv4 address or an IPv6 /64. This machine (127.0.0.1) is never
limited, so the tests' clients here ask from 127.0.0.2 and up, all on loopback.
"""

from __future__ import annotations

import http.client
import ipaddress
import itertools
import json
import math
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


def flood(client: Client, path: str, asks: int) -> list[tuple[int, dict, bytes]]:
    return [client.ask("GET", path) for _ in range(asks)]


Answer = tuple[int, dict, bytes, float]


def together(client_of: Callable[[int], Client], path: str, asks: int) -> list[Answer]:
    """`asks` GETs of `path` sent at once (a thread each, the nth from `client_of(n)`), each
    answer with the moment it came: nginx paces a client's requests past those it lets
    through at once, so only requests sent together meet its refusals."""

    def one(number: int) -> Answer:
        status, headers, body = client_of(number).ask("GET", path)
        return status, headers, body, time.monotonic()

    with ThreadPoolExecutor(max_workers=asks) as pool:
        return list(pool.map(one, range(asks)))


def served_and_refused(answers: list[Answer]) -> tuple[list[float], list[Answer]]:
    """When each answer nginx passed on came, in order (200, or the app's 503 when its heavy
    slots are taken); and nginx's own 429s."""
    served = sorted(at for status, _h, _b, at in answers if status in (200, 503))
    refused = [answer for answer in answers if answer[0] == 429]
    assert len(served) + len(refused) == len(answers), [answer[0] for answer in answers]
    assert all(refused_by_nginx(headers) for _s, headers, _b, _at in refused)
    return served, refused


def at_most_let_through(seconds: float, bound: front.ReadRate = front.WEIGHTED[HEAVY]) -> int:
    """The requests `bound` lets one client have in `seconds`: its burst, then its rate a
    second (and one more for the edges)."""
    return bound.burst + 1 + math.ceil(seconds * bound.rate) + 1


def port_of(base: str) -> int:
    return int(base.rsplit(":", 1)[1])


def test_make_runs_front_refuses_a_clients_flood_of_heavy_reads_itself(tmp_path: Path):
    if not front.available():
        pytest.fail("nginx with Nchan is missing: `make test` installs libnginx-mod-nchan")
    database = tmp_path / "scorer.sqlite3"
    bound = front.WEIGHTED[HEAVY]
    with push.served(tmp_path, database) as server:  # the app's own budgets off
        port = port_of(server.base)
        status, _, club = Client(port, "127.0.0.1").ask("POST", "/api/clubs", ROSTER)
        assert status == 201
        club_id = json.loads(club)["id"]
        flooder = Client(port, "127.0.0.2")
        started = time.monotonic()
        served, refused = served_and_refused(
            together(lambda _: flooder, f"/api/clubs/{club_id}", 3 * bound.burst)
        )
        assert len(served) <= at_most_let_through(served[-1] - started)
        assert refused, "past its burst, a client's heavy reads are refused"
        status, headers, body, _at = refused[0]
        assert headers["content-type"].startswith("application/json")
        assert json.loads(body) == {"error": str(API_429), "field": None}
        # A page gets a page that asks again; another client and this machine go on.
        _served, refused = served_and_refused(
            together(lambda _: flooder, f"/clubs/{club_id}", 3 * bound.burst)
        )
        status, headers, body, _at = refused[0]
        assert headers["content-type"].startswith("text/html") and b"refresh" in body
        assert Client(port, "127.0.0.3").ask("GET", f"/clubs/{club_id}")[0] == 200
        assert all(status == 200 for status, _, _ in flood(Client(port, "127.0.0.1"), "/", 80))
        # Light routes keep their own, larger rate: the table's page is not a heavy read.
        assert flooder.ask("GET", "/clubs/new")[0] == 200


@pytest.mark.parametrize("weight", [ORDINARY, COSTLY, HEAVY])
def test_make_runs_front_paces_a_clients_burst(tmp_path: Path, weight: str):
    """A client asking for many pages at once gets a few at once, the next ones paced at the
    rate (waiting in nginx, not in a worker), the rest refused: a club's page (a heavy read)
    at the heavy reads' rate, a hand's form (a costly read, tens of milliseconds of a worker)
    at the costly ones', any page at the client's (scorer.front.rate_of). Its other pages
    and another client's go on."""
    if not front.available():
        pytest.fail("nginx with Nchan is missing: `make test` installs libnginx-mod-nchan")
    bound = front.rate_of(weight)
    assert bound.at_once is not None
    with push.served(tmp_path, tmp_path / "scorer.sqlite3") as server:  # no app budgets
        port = port_of(server.base)
        here = Client(port, "127.0.0.1")
        status, _, game = here.ask("POST", "/api/games", {"sides": SIDES})
        assert status == 201, game
        game_id = json.loads(game)["id"]
        status, _, club = here.ask("POST", "/api/clubs", ROSTER)
        assert status == 201, club
        page = {
            ORDINARY: f"/games/{game_id}",
            COSTLY: f"/games/{game_id}/hands/new",
            HEAVY: f"/clubs/{json.loads(club)['id']}",
        }[weight]
        asker = Client(port, "127.0.0.2")
        asks = min(2 * bound.burst, 120)  # within CLIENT_CONNECTIONS
        started = time.monotonic()
        served, refused = served_and_refused(together(lambda _: asker, page, asks))
        assert 1 + bound.at_once <= len(served) <= at_most_let_through(served[-1] - started, bound)
        assert bool(refused) == (asks > 1 + bound.burst)
        # The ones past those let through at once waited their turn, at the rate.
        paced = len(served) - 1 - bound.at_once
        assert served[-1] - started >= 0.8 * paced / bound.rate
        # Its other pages go on (an ordinary one at worst waits its turn), another client's too.
        other = "/" if weight == ORDINARY else f"/games/{game_id}"
        assert asker.ask("GET", other)[0] == 200
        assert Client(port, "127.0.0.3").ask("GET", page)[0] == 200


def test_make_runs_front_bounds_a_clients_open_connections(tmp_path: Path):
    """Idle screens and slow readers hold an nginx connection each: one client holds at most
    CLIENT_CONNECTIONS of them, so it cannot take every connection nginx has."""
    if not front.available():
        pytest.fail("nginx with Nchan is missing: `make test` installs libnginx-mod-nchan")
    database = tmp_path / "scorer.sqlite3"
    with push.served(tmp_path, database) as server, ExitStack() as held:
        port = port_of(server.base)
        channel = "0" * 48
        request = (
            f"GET /push/{channel} HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n\r\n"
        ).encode()
        for _ in range(front.CLIENT_CONNECTIONS):
            address = ("127.0.0.1", port)
            sock = held.enter_context(socket.create_connection(address, 30, ("127.0.0.4", 0)))
            sock.sendall(request)
            assert sock.recv(64).startswith(b"HTTP/1.1 200"), "a screen's channel is held"
        status, headers, _ = Client(port, "127.0.0.4").ask("GET", "/")
        assert status == 429 and refused_by_nginx(headers)
        assert Client(port, "127.0.0.5").ask("GET", "/")[0] == 200


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
        # One /64, written every way: its addresses share one burst.
        spellings = [
            "2001:db8:1:2::a",
            "2001:db8:1:2:ffff::b",
            "2001:db8:1:2:3:4:5:6",
            "2001:db8:1:2::",
        ]
        started = time.monotonic()
        asks = 3 * front.WEIGHTED[HEAVY].burst
        served, refused = served_and_refused(
            together(lambda number: named(spellings[number % 4]), path, asks)
        )
        assert len(served) <= at_most_let_through(served[-1] - started)
        assert refused, "one /64's addresses share one burst"
        assert named("2001:db8:1:3::a").ask("GET", path)[0] == 200  # the next /64
        assert named("198.51.100.7, 2001:db8:1:4::1").ask("GET", path)[0] == 200
        # Nothing named: this machine (a health check, a host's own script), not limited.
        here = Client(router_port, "127.0.0.1")
        assert all(status == 200 for status, _, _ in flood(here, path, 40))
