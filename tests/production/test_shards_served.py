"""Shards behind a real nginx (issue 24): every address reaches the shard its id names.

Two scorer servers (gunicorn), each with its own database, and Debian's nginx with the
router that `python -m scorer.deploy` generates, all on 127.0.0.1. Fails where nginx is
missing (`make test` installs it).
"""

from __future__ import annotations

import getpass
import http.client
import os
import re
import sqlite3
import time
from collections.abc import Callable, Iterator
from contextlib import ExitStack, closing, contextmanager
from pathlib import Path

import pytest
from apidata import EIGHT
from pageforms import Phone
from serving import Server, call, free_port, gunicorn_command, running, server_env

from bench.router import NGINX, nginx_config
from scorer import ENV_SECRET_KEY_FILE, deploy
from scorer.store import ids
from scorer.web import push


@pytest.fixture(autouse=True)
def nginx_is_there() -> None:
    # `make test` installs it (nginx-light): a router test that cannot run must say so.
    assert Path(NGINX).exists(), f"{NGINX} is missing: run `make test`"


FOUR = [{"players": ["Ann", "Bob"]}, {"players": ["Cy", "Di"]}]
ROSTER = ["Ann", "Bob", "Cy", "Di"]
UNKNOWN_TOKEN = "q" * ids.TOKEN_LENGTH


def every_shard_answers(shards: int) -> Callable[[Server], bool]:
    """The router is ready when each shard answers through it, on its own addresses: an
    unknown game of shard n gets shard n's 404, not the router's 503 for a shard it cannot
    reach (its probe alone could be answered by any shard)."""

    def ready(router: Server) -> bool:
        paths = (f"/api/games/s{shard}-{UNKNOWN_TOKEN}" for shard in range(1, shards + 1))
        return all(router.status(path) == 404 for path in paths)

    return ready


def stored(database: Path) -> list[str]:
    """Every id a database holds: games, clubs, watch links."""
    with closing(sqlite3.connect(database)) as conn:
        rows = conn.execute(
            "select id from games union all select id from clubs "
            "union all select watch_id from watch_ids "
            "union all select id from nights union all select watch_id from nights"
        ).fetchall()
    return [row[0] for row in rows]


def created_on_each_shard(
    base: str, path: str, body: dict, count: int, shards: dict[int, Server]
) -> list[dict]:
    """`count` creations through the router (each answered 201 with its Location), then more
    until each shard has made one.

    Round robin alternates, but a shard whose connection failed once (a loaded machine) is
    set aside for `fail_timeout` (10 s) by design: keep creating a little past it before
    saying creation is unbalanced.
    """
    made: list[dict] = []
    deadline = time.monotonic() + 15
    while len(made) < count or {ids.shard_of(one["id"]) for one in made} != {1, 2}:
        if len(made) >= count:
            assert time.monotonic() < deadline, (
                f"creation never reached both shards: {[one['id'] for one in made]}; "
                + ", ".join(  # the shards' logs and nginx's are shown below
                    f"shard {n}: exit status {shard.process.poll()}, probed directly "
                    f"{shard.status('/api/games/probe') or 'no answer'}"
                    for n, shard in shards.items()
                )
            )
            time.sleep(2)  # a few more, well inside the shard's creation budgets
        status, answer, headers = call("POST", base + path, body)
        assert status == 201, answer
        assert headers["Location"] == f"{path}/{answer['id']}"
        made.append(answer)
    return made


@contextmanager
def fleet(tmp_path: Path) -> Iterator[tuple[str, dict[int, Server], dict[int, Path]]]:
    """Two shards (gunicorn, each its own database, one fleet key made by the generator)
    behind the generated router on loopback: (the router's base, the shards, databases)."""
    ports = (free_port(), free_port())
    router_port = free_port()
    publisher = f"127.0.0.1:{free_port()}"
    plan = deploy.Plan(
        shards=2, ports=ports, router=f"127.0.0.1:{router_port}", publisher=publisher
    )
    site = tmp_path / "scorer-shards.conf"
    site.write_text(deploy.files(plan)["scorer-shards.conf"])
    (tmp_path / "nginx").mkdir()
    main = nginx_config(tmp_path / "nginx", site)
    key = tmp_path / "secret_key"
    deploy.main(["--key", str(key), "--user", getpass.getuser()])
    databases = {shard: tmp_path / f"shard-{shard}" / "scorer.sqlite3" for shard in (1, 2)}
    with ExitStack() as stack:
        shards = {}
        for shard, port in zip((1, 2), ports, strict=True):
            env = server_env(databases[shard], tmp_path / f"shard-{shard}")
            env[ids.ENV_SHARD] = str(shard)
            env[push.ENV_PUSH_URL] = f"http://{publisher}{push.PUBLISH_PREFIX}"  # as deployed
            env[ENV_SECRET_KEY_FILE] = str(key)
            command = gunicorn_command(port, ["--workers", "2", "--worker-class", "sync"])
            log = tmp_path / f"shard-{shard}.log"
            shards[shard] = stack.enter_context(running(command, env, port, log))
        proxy = stack.enter_context(
            running(
                [NGINX, "-p", str(tmp_path / "nginx"), "-c", str(main)],
                dict(os.environ),
                router_port,
                tmp_path / "nginx.log",
                cwd=tmp_path,
                ready=every_shard_answers(2),
            )
        )
        yield proxy.base, shards, databases


def test_every_address_reaches_the_shard_its_id_names(tmp_path):
    with fleet(tmp_path) as (base, shards, databases):
        # Creation is balanced: both shards make games and clubs.
        games = created_on_each_shard(base, "/api/games", {"sides": FOUR}, 6, shards)
        roster = {"name": "Sun", "players": ROSTER}
        made = created_on_each_shard(base, "/api/clubs", roster, 4, shards)
        clubs = [club["id"] for club in made]
        # A club's games are made by the shard that holds the club.
        for club in clubs:
            status, body, _ = call("POST", f"{base}/api/clubs/{club}/games", {"sides": FOUR})
            assert status == 201, body
            assert ids.shard_of(body["id"]) == ids.shard_of(club)
            status, game, _ = call("GET", f"{base}/api/games/{body['id']}")
            assert status == 200
            games.append(game)
        # A club's night, and the games of its round, are made by the club's shard too.
        nights = []
        for club in (next(c for c in clubs if ids.shard_of(c) == n) for n in (1, 2)):
            body = {"players": EIGHT, "rounds": 2, "round": {"fixed_hands": 1}}
            status, night, headers = call("POST", f"{base}/api/clubs/{club}/nights", body)
            assert status == 201, night
            status, drawn, _ = call(
                "POST", f"{base}/api/nights/{night['id']}/rounds", {}, {"If-Match": headers["ETag"]}
            )
            assert status == 201, drawn
            for table in drawn["rounds"][0]["tables"]:
                assert ids.shard_of(table["game"]) == ids.shard_of(club)
                games.append(call("GET", f"{base}/api/games/{table['game']}")[1])
            assert ids.shard_of(night["id"]) == ids.shard_of(club)
            nights.append(night)
        for night in nights:
            for path in (
                f"/nights/{night['id']}",
                f"/api/nights/{night['id']}",
                night["watch_url"],
            ):
                assert call("GET", base + path)[0] == 200, path
        # Every address with an id reaches its shard, whichever shard the last request hit.
        for game in games:
            for path in (
                f"/api/games/{game['id']}",
                f"/games/{game['id']}",
                f"/games/{game['id']}/hands.csv",
                game["watch_url"],
            ):
                assert call("GET", base + path)[0] == 200, path
            assert ids.shard_of(game["watch_url"].rsplit("/", 1)[1]) == ids.shard_of(game["id"])
        for club in clubs:
            for path in (f"/api/clubs/{club}", f"/clubs/{club}"):
                assert call("GET", base + path)[0] == 200, path
        # Each database holds only its own ids.
        for shard, database in databases.items():
            held = stored(database)
            assert held and all(ids.shard_of(value) == shard for value in held), held

        # A live poll through the proxy: nothing new is 304.
        game = games[0]
        status, _, headers = call("GET", f"{base}/api/games/{game['id']}")
        assert status == 200
        again = call(
            "GET", f"{base}/api/games/{game['id']}", None, {"If-None-Match": headers["ETag"]}
        )
        assert again[0] == 304

        # Push through the router: a screen's channel hears a hand saved on either shard.
        for game in (next(g for g in games if ids.shard_of(g["id"]) == n) for n in (1, 2)):
            assert pushed_version(base, game["id"]) == game["version"] + 1

        # Health through the router: any shard, and each by its number.
        for path, shard in (("/healthz", None), ("/healthz/1", 1), ("/healthz/2", 2)):
            status, health, headers = call("GET", base + path)
            assert status == 200 and health["status"] == "ok", (path, health)
            assert health["migrations"] == "current" and health["database"] == "ok"
            assert shard is None or health["shard"] == shard
            assert headers["Cache-Control"] == "no-store"

        # Shard 2 stops: only its addresses fail, plainly; shard 1 keeps serving.
        shards[2].stop()
        status, health, headers = call("GET", f"{base}/healthz/2")
        assert status == 503 and headers["Content-Type"] == "application/json", health
        assert call("GET", f"{base}/healthz/1")[0] == 200
        for game in games:
            status, text, headers = call("GET", f"{base}/games/{game['id']}")
            if ids.shard_of(game["id"]) == 2:
                assert status == 503
                assert "not answering" in text and "scores are safe" in text
                assert headers["Retry-After"] == "60"
            else:
                assert status == 200
            # A program gets JSON in the scorer's own error shape, never the page.
            status, body, headers = call("GET", f"{base}/api/games/{game['id']}")
            if ids.shard_of(game["id"]) == 2:
                assert status == 503
                assert headers["Content-Type"] == "application/json"
                assert headers["Retry-After"] == "60"
                assert set(body) == {"error", "field"} and body["field"] is None
                assert "not answering" in body["error"]
            else:
                assert status == 200 and body["id"] == game["id"]
        shard_2_club = next(club for club in clubs if ids.shard_of(club) == 2)
        status, body, headers = call(
            "POST", f"{base}/api/clubs/{shard_2_club}/players", {"name": "Ed"}
        )
        assert status == 503 and headers["Content-Type"] == "application/json", body
        assert body["field"] is None and headers["Retry-After"] == "60"
        for _ in range(3):  # creation still works: the stopped shard is skipped
            status, body, _ = call("POST", f"{base}/api/games", {"sides": FOUR})
            assert status == 201 and ids.shard_of(body["id"]) == 1
        assert call("GET", f"{base}/")[0] == 200


def pushed_version(base: str, game_id: str, meanwhile: Callable[[str], None] | None = None) -> int:
    """Open the board's EventSource channel through `base` (the router, or any front), let
    `meanwhile` try what it likes with the channel's address, save a hand: the first
    version the channel says after it opened."""
    _, page, _ = call("GET", f"{base}/games/{game_id}")
    (channel,) = set(re.findall(r'data-live-push="(/push/[0-9a-f]+)"', page))
    host, port = base.removeprefix("http://").split(":")
    with closing(http.client.HTTPConnection(host, int(port), timeout=10)) as stream:
        stream.request("GET", channel, headers={"Accept": "text/event-stream"})
        answer = stream.getresponse()
        assert answer.status == 200
        assert answer.headers["Content-Type"].startswith("text/event-stream")
        if meanwhile is not None:
            meanwhile(channel)
        hand = {"sides": [{"meld_points": 90}, {"meld_points": 50}]}
        status, body, _ = call("POST", f"{base}/api/games/{game_id}/hands", hand)
        assert status == 201, body
        while not (line := answer.readline().decode()).startswith("data:"):
            assert line, "the channel closed before any message"
        return int(line.removeprefix("data:").strip())


def test_every_page_form_loaded_and_posted_through_the_router_lands(tmp_path):
    """One phone, its cookies kept, fills every creating form and the hand form as a page
    gives them (no JavaScript) and posts them through the router: each lands, whichever
    shard served the page and whichever serves the post (issue 34: 2 of 6 new games did,
    each shard signing with its own key)."""
    phone = Phone()
    landed: list[str] = []

    def post(url: str, form_index: int = 0, **values: str | list[str]) -> str:
        form = phone.forms(url)[form_index]
        status, page, headers = phone.request(form.action, form.filled(**values))
        assert status == 303, (url, status, page[:800])
        landed.append(url)
        return headers["Location"]

    with fleet(tmp_path) as (base, _shards, databases):
        games, clubs = [], []
        for round_number in range(6):
            # Round robin alternates over the addresses without an id (a page and its post
            # each count): one more page every other round, so posts land on both shards.
            if round_number % 2:
                assert phone.request(f"{base}/")[0] == 200
            names = {"sides-0-players-0": "Ann", "sides-0-players-1": "Bob",
                     "sides-1-players-0": "Cy", "sides-1-players-1": "Di"}  # fmt: skip
            game = post(f"{base}/games/new", **names).split("?")[0].rstrip("/")
            games.append(game.rsplit("/", 1)[1])
            hand = {"went_out": "0", "sides-0-meld_points": "120",
                    "sides-0-natural_canastas": "1", "sides-1-meld_points": "90",
                    "sides-1-hand_points": "15"}  # fmt: skip
            post(f"{base}{game}/hands/new", **hand)
            club = post(f"{base}/clubs/new", name="Sun", players=ROSTER).split("?")[0]
            club_id = club.rstrip("/").rsplit("/", 1)[1]
            clubs.append(club_id)
            post(f"{base}{club}", -2, name="Ed")  # the club page's "add a player"
            seats = {"side-0-player-0": "Ann", "side-0-player-1": "Bob",
                     "side-1-player-0": "Cy", "side-1-player-1": "Di"}  # fmt: skip
            post(f"{base}{club}/games/new", **seats)
            post(f"{base}{club}/nights/new")
        # Both shards served creations: the posts crossed shards.
        assert {ids.shard_of(one) for one in games + clubs} == {1, 2}, games + clubs
        for game_id in games:
            status, game, _ = call("GET", f"{base}/api/games/{game_id}")
            assert status == 200 and len(game["hands"]) == 1, game
        for club_id in clubs:
            status, club, _ = call("GET", f"{base}/api/clubs/{club_id}")
            assert status == 200 and "Ed" in str(club), club
        # Each shard keeps the fleet's key in its database: its replica carries it.
        key = (tmp_path / "secret_key").read_text().strip()
        for database in databases.values():
            with closing(sqlite3.connect(database)) as conn:
                assert conn.execute("select key from fleet_key").fetchall() == [(key,)]
    assert len(landed) == 6 * 6
