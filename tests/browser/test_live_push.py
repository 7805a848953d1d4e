"""Push (issue 29): every live screen hears a save at once, through `make run`'s nginx + Nchan.

The app is served as `make run` serves it (python -m scorer.serve: nginx with Nchan on a
loopback port, gunicorn behind it). A club night's table is followed by a second phone, the
hand form open on a third, the watch screen, its big-screen mode, the night's wall and the
organiser's page; the first phone saves a hand. Each screen must show it, told by push (the
poll is off while the channel is open): `live:updated` says by which way it came.
No wall-clock assertion: the time goes in the bench (bench/push.py, section 14).
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect
from serving import free_port, running, server_env

from scorer import front

FOUR = ["Ann", "Bob", "Cy", "Di"]
# Each page notes how each update came, and counts its EventSource connections.
RECORDER = """
window.__live = [];
document.addEventListener("live:updated", (e) => window.__live.push(e.detail.via));
window.__opens = 0;
if (window.EventSource) {
  const Native = window.EventSource;
  window.EventSource = function (url) {
    const source = new Native(url);
    source.addEventListener("open", () => { window.__opens += 1; });
    return source;
  };
  window.EventSource.CONNECTING = 0; window.EventSource.OPEN = 1; window.EventSource.CLOSED = 2;
}
"""
PUSHING = "html[data-live-mode=push]"
# The first side goes out: 130 + a natural canasta 500 + going out 100 = 730; the other 50 - 85.
HAND = {
    "went_out": 0,
    "sides": [{"meld_points": 130, "natural_canastas": 1}, {"meld_points": 50, "hand_points": 85}],
}


@pytest.fixture
def served(tmp_path: Path) -> Iterator[str]:
    """`make run` on a free loopback port: nginx with Nchan before gunicorn."""
    if not front.available():
        pytest.fail("nginx with Nchan is missing: `make test` installs libnginx-mod-nchan")
    port = free_port()
    env = server_env(tmp_path / "scorer.sqlite3", tmp_path / "instance")
    env |= {"HOST": "127.0.0.1", "PORT": str(port)}
    command = [sys.executable, "-m", "scorer.serve"]
    with running(command, env, port, tmp_path / "serve.log") as server:
        yield server.base


def screen(make_page: Any, url: str) -> Any:
    page = make_page(width=360, height=780)
    page.context.add_init_script(RECORDER)
    page.goto(url)
    return page


def night_table(page: Any, base: str) -> dict[str, str]:
    """A club night of four, its first round drawn: the addresses of its one table."""
    made = page.request.post(f"{base}/api/clubs", data={"name": "Thursday", "players": FOUR})
    assert made.status == 201, made.text()
    night = page.request.post(
        f"{base}/api/clubs/{made.json()['id']}/nights",
        data={"players": FOUR, "rounds": 2, "round": {"fixed_hands": 3}},
    )
    assert night.status == 201, night.text()
    night_id = night.json()["id"]
    drawn = page.request.post(
        f"{base}/api/nights/{night_id}/rounds", headers={"If-Match": night.headers["etag"]}
    )
    assert drawn.status == 201, drawn.text()
    page.goto(f"{base}/nights/{night_id}")
    board = page.get_by_role("link", name="Open table 1").get_attribute("href")
    wall = page.get_by_role("link", name="Leaderboard for the wall").get_attribute("href")
    page.goto(base + board)
    watch = page.locator(".qr[src^='/watch/']").first.get_attribute("src").removesuffix("/qr.svg")
    return {
        "organiser": f"{base}/nights/{night_id}",
        "board": base + board,
        "game": board.rstrip("/").rsplit("/", 1)[1],
        "watch": base + watch,
        "wall": base + wall,
    }


def record_on_the_phone(page: Any, board: str) -> None:
    """The first phone: tap the first side (went out), type the hand, Save."""
    page.goto(board)
    page.locator(".record-buttons a").first.tap()
    page.wait_for_selector("form.hand-form")
    page.fill("#sides-0-meld_points", "130")
    page.fill("#sides-0-natural_canastas", "1")
    page.fill("#sides-1-meld_points", "50")
    page.fill("#sides-1-hand_points", "85")
    page.get_by_role("button", name="Save hand").tap()
    page.wait_for_url(board)


def test_a_save_on_one_phone_is_pushed_to_every_other_screen(make_page, served, tmp_path):
    phone = make_page(width=360, height=780)
    table = night_table(phone, served)
    screens = {
        "second phone": screen(make_page, table["board"]),
        "watch": screen(make_page, table["watch"]),
        "big screen": screen(make_page, table["watch"] + "?size=large"),
        "wall": screen(make_page, table["wall"]),
        "organiser": screen(make_page, table["organiser"]),
    }
    form = screen(make_page, table["board"])
    form.locator(".record-buttons a").nth(1).tap()
    form.wait_for_selector("form.hand-form")
    form.fill("#sides-0-meld_points", "90")  # typed, not saved: must stay as it is
    for page in [*screens.values(), form]:
        page.wait_for_selector(PUSHING, state="attached")
    # Nothing updated before the save...
    assert all(page.evaluate("window.__live") == [] for page in screens.values())

    record_on_the_phone(phone, table["board"])

    # ...then each screen, told by push (no poll runs while the channel is open).
    for name, page in screens.items():
        page.wait_for_function("() => window.__live.length > 0")
        assert page.evaluate("window.__live") == ["push"], name
        expect(page.locator("main"), name).to_contain_text("730")
    banner = form.locator("[data-live-banner]")
    expect(banner).to_contain_text("Another phone just recorded hand 1")
    assert banner.get_attribute("data-live-via") == "push"
    assert form.input_value("#sides-0-meld_points") == "90"
    for name, page in screens.items():
        page.screenshot(path=str(tmp_path / f"{name}.png"), full_page=True)


def test_blocked_push_falls_back_to_the_poll_and_comes_back(make_page, served):
    phone = make_page(width=360, height=780)
    table = night_table(phone, served)
    page = make_page(width=360, height=780)
    page.context.add_init_script(RECORDER)
    blocked = {"on": True}

    def push_route(route: Any) -> None:
        if blocked["on"]:
            route.abort()
        else:
            route.continue_()

    page.route("**/push/**", push_route)
    page.goto(table["board"])
    posted = phone.request.post(f"{served}/api/games/{table['game']}/hands", data=HAND)
    assert posted.status == 201, posted.text()
    page.wait_for_function("() => window.__live.length > 0")
    assert page.evaluate("window.__live") == ["poll"]
    assert page.evaluate("document.documentElement.dataset.liveMode") == "poll"
    expect(page.locator("main")).to_contain_text("730")
    # The route works again: the page goes back to push by itself.
    blocked["on"] = False
    page.wait_for_selector(PUSHING, state="attached", timeout=60_000)
    posted = phone.request.post(f"{served}/api/games/{table['game']}/hands", data=HAND)
    assert posted.status == 201, posted.text()
    page.wait_for_function("() => window.__live.length > 1")
    assert page.evaluate("window.__live")[-1] == "push"


def test_a_screen_back_from_offline_reconnects_and_misses_nothing(make_page, served):
    phone = make_page(width=360, height=780)
    table = night_table(phone, served)
    page = screen(make_page, table["board"])
    page.wait_for_selector(PUSHING, state="attached")
    opens = page.evaluate("window.__opens")
    page.context.set_offline(True)
    # Saved while this screen is offline: its push message is lost to it.
    posted = phone.request.post(f"{served}/api/games/{table['game']}/hands", data=HAND)
    assert posted.status == 201, posted.text()
    page.wait_for_timeout(1000)  # the screen notices the drop (not a timed assertion)
    page.context.set_offline(False)
    expect(page.locator("main")).to_contain_text("730", timeout=30_000)
    page.wait_for_selector(PUSHING, state="attached", timeout=30_000)
    assert page.evaluate("window.__opens") > opens  # a new connection, not the old one


def test_without_javascript_the_wall_keeps_its_meta_refresh(make_page, served):
    phone = make_page(width=360, height=780)
    table = night_table(phone, served)
    page = make_page(width=360, height=780, javascript=False)
    page.goto(table["wall"])
    assert page.locator("noscript").count() >= 1
    assert 'http-equiv="refresh"' in page.content()
