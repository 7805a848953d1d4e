"""The night's wall on a TV and its round's clock live (issue 33): at 1920 x 1080 and 1280 x 720
a night of four tables fits one screen, the clock and the totals large enough to read across a
room, JavaScript on or off; during a timed round the clock counts down on the wall and on a
table's board, and the warning and the call appear there at their moment without a reload
(JavaScript off: the wall reloads itself and shows the new phase). Once more at 360 px in three
languages with time called.

The server's clock is real: a test moves the round's start back (night_rounds.drawn_at), as if
it had been drawn that long ago, and the browser's clock forward (Playwright's clock), never
sleeping for the round's minutes."""

from __future__ import annotations

import re
from collections.abc import Iterator
from datetime import datetime, timedelta
from typing import Any

import pytest
from phone import Watcher, shoot, split_words, too_wide
from playwright.sync_api import expect
from test_axe import grave_violations

from scorer.store.db import connect

TV = {"width": 1920, "height": 1080}
LAPTOP = {"width": 1280, "height": 720}
SIXTEEN = [
    "Marie-Thérèse",
    "Bernadette",
    "Guillaume",
    "Jean-Baptiste",
    "Anne",
    "Paul",
    "Cyrille",
    "Dominique",
    "Évelyne",
    "Françoise",
    "Gustave",
    "Hélène",
    "Isabelle",
    "Jacqueline",
    "Kévin",
    "Léopold",
]
# The shortest round (five minutes), the warning a minute before time; the tests move its
# start back: WARNING_SOON seconds back, the warning comes in about 6 s.
SHORT = {"fixed_hands": 6, "minutes": 5, "warning_minutes": 1}
WARNING_SOON = 4 * 60 - 6


@pytest.fixture
def screen(browser: Any) -> Iterator[Any]:
    """A TV or a laptop: a landscape screen at one pixel a pixel, no touch (make_page is a
    phone)."""
    contexts: list[Any] = []

    def factory(size: dict[str, int], javascript: bool = True, locale: str = "en-GB") -> Any:
        context = browser.new_context(viewport=size, java_script_enabled=javascript, locale=locale)
        context.set_default_timeout(20_000)
        contexts.append(context)
        return context.new_page()

    yield factory
    for context in contexts:
        context.close()


def timed_night(app: Any, players: list[str], round_: dict[str, Any]) -> dict[str, Any]:
    """A club's night ranked by match points, its first round drawn (the API, as the
    organiser's phone would); its tables as the draw answered them."""
    client = app.test_client()
    club = client.post("/api/clubs", json={"name": "Thursday", "players": players}).json
    body = {"players": players, "rounds": 3, "ranking": "match_points", "round": round_}
    night = client.post(f"/api/clubs/{club['id']}/nights", json=body).json
    etag = client.get(f"/api/nights/{night['id']}").headers["ETag"]
    drawn = client.post(f"/api/nights/{night['id']}/rounds", headers={"If-Match": etag}).json
    return {**night, "tables": drawn["rounds"][0]["tables"]}


def play(app: Any, game_id: str, first: int, second: int) -> None:
    hand = {"sides": [{"meld_points": first}, {"meld_points": second}]}
    response = app.test_client().post(f"/api/games/{game_id}/hands", json=hand)
    assert response.status_code == 201, response.json


def drawn_earlier(app: Any, night_id: str, seconds: float) -> None:
    """The night's rounds drawn ``seconds`` earlier than they were."""
    db = connect(app.config["DATABASE"])
    with db.conn:
        for rowid, stamp in db.execute(
            "select rowid, drawn_at from night_rounds where night_id = ?", [night_id]
        ).fetchall():
            moved = datetime.fromisoformat(stamp) - timedelta(seconds=seconds)
            db.execute(
                "update night_rounds set drawn_at = ? where rowid = ?",
                [moved.isoformat(timespec="seconds"), rowid],
            )
    db.close()


def px(page: Any, selector: str) -> float:
    """The smallest rendered font size among what the selector finds."""
    sizes = page.locator(selector).evaluate_all(
        "els => els.map(el => parseFloat(getComputedStyle(el).fontSize))"
    )
    assert sizes, selector
    return min(sizes)


def overflow(page: Any) -> list[str]:
    """What of the wall reaches below the screen or out of its own box (empty: all shows)."""
    return list(
        page.evaluate(
            """() => {
      const found = [];
      if (document.documentElement.scrollHeight > innerHeight) found.push('the page scrolls');
      for (const el of document.querySelectorAll('#night-wall *')) {
        const r = el.getBoundingClientRect();
        if (!r.height) continue;
        if (r.bottom > innerHeight + 0.5) found.push('below the screen: ' + el.tagName + '.'
          + el.className + ' ' + el.textContent.trim().slice(0, 30));
        if (el.scrollHeight > el.clientHeight + 1 && getComputedStyle(el).overflowY !== 'visible')
          found.push('cut: ' + el.tagName + '.' + el.className);
      }
      return found.slice(0, 10);
    }"""
        )
    )


@pytest.mark.parametrize("javascript", [True, False], ids=["js", "nojs"])
@pytest.mark.parametrize("size", [TV, LAPTOP], ids=["tv", "laptop"])
def test_a_night_of_four_tables_reads_from_across_the_room(
    screen, live_server, live_app, tmp_path, size, javascript
):
    night = timed_night(live_app, SIXTEEN, {"fixed_hands": 2, "minutes": 50, "warning_minutes": 10})
    for k, table in enumerate(night["tables"]):  # tables at different points of their game
        for _hand in range(k % 3):
            play(live_app, table["game"], 300 + 120 * k, 100)
    page = screen(size, javascript)
    watcher = Watcher(page)
    page.goto(live_server + night["watch_url"])
    expect(page.locator(".night-table")).to_have_count(4)
    expect(page.locator(".leaderboard tbody tr")).to_have_count(16)
    shoot(page, tmp_path, f"wall-{size['width']}-{'js' if javascript else 'nojs'}", full=False)
    # Sizes for a 1080p screen three metres away (test_watch_screen.py: below about 32 px a
    # line is hard to read there); a 720p screen shows the same layout two thirds the size.
    scale = size["height"] / TV["height"]
    assert px(page, ".round-clock .clock-left") >= 120 * scale
    assert px(page, ".table-sides .num") >= 36 * scale  # each side's total
    assert px(page, ".table-sides .side-name") >= 30 * scale
    assert px(page, ".leaderboard tbody td, .leaderboard tbody th") >= 28 * scale
    assert px(page, ".night-table h3, .table-progress") >= 22 * scale
    # The standings beside the tables, the clock above both.
    standings = page.locator(".wall-standings").bounding_box()
    tables = page.locator(".wall-tables").bounding_box()
    clock = page.locator(".round-clock").bounding_box()
    assert standings["x"] + standings["width"] <= tables["x"]
    assert clock["y"] + clock["height"] <= min(standings["y"], tables["y"]) + 1
    assert overflow(page) == []
    assert too_wide(page) == [] and split_words(page) == []
    assert watcher.problems == []
    if javascript:  # axe runs in the page
        assert grave_violations(page) == []


def later(app: Any, night_id: str, pages: tuple[Any, ...], seconds: int) -> None:
    """Everyone's clock ``seconds`` on: the server's round drawn that much earlier, the
    browsers' clocks that much later (their timers fire as they would have)."""
    drawn_earlier(app, night_id, seconds)
    for page in pages:
        page.clock.fast_forward(seconds * 1000)


def test_the_clock_counts_down_and_changes_phase_live_on_the_wall_and_a_table(
    screen, make_page, live_server, live_app, tmp_path
):
    night = timed_night(live_app, SIXTEEN[:4], SHORT)
    game_id = night["tables"][0]["game"]
    wall = screen(TV)
    table = make_page(width=360, height=780)
    pages = (wall, table)
    for page, address in ((wall, night["watch_url"]), (table, f"/games/{game_id}")):
        page.clock.install()
        page.goto(live_server + address)
        # A reload would forget these: the wall counts the server's pages it swapped in.
        page.evaluate(
            "() => { window.stayed = true; window.swaps = 0;"
            " document.addEventListener('live:updated', () => window.swaps++); }"
        )
    watchers = [Watcher(page) for page in pages]
    for page in pages:
        expect(page.locator(".round-clock")).to_have_class(re.compile(r"\bphase-playing\b"))
    first = wall.locator(".clock-left").inner_text()
    expect(wall.locator(".clock-left")).not_to_have_text(first, timeout=3_000)  # it ticks
    # Four minutes on: the warning shows at once, without a reload; the wall then asks the
    # server, whose page (the tag carries the clock's phase) is swapped in.
    later(live_app, night["id"], pages, 4 * 60)
    for page in pages:
        expect(page.locator(".round-clock")).to_have_class(
            re.compile(r"\bphase-warning\b"), timeout=1_500
        )
        expect(page.locator(".round-clock")).to_contain_text("last minutes")
    # A screen reader on the table's phone hears it once (the timer itself stays silent).
    expect(table.get_by_role("status").filter(has_text="last minutes")).to_have_count(1)
    wall.wait_for_function("() => window.swaps >= 1")
    expect(wall.locator(".round-clock")).to_have_class(re.compile(r"\bphase-warning\b"))
    shoot(wall, tmp_path, "wall-warning", full=False)
    # A minute on: time is called on both within a second, from the browser's own count,
    # and the server's page in time's phase replaces the wall's.
    swaps = wall.evaluate("window.swaps")
    later(live_app, night["id"], pages, 60)
    for page in pages:
        expect(page.locator(".round-clock")).to_have_class(
            re.compile(r"\bphase-time\b"), timeout=1_500
        )
        expect(page.locator(".round-clock")).to_contain_text("Time is called")
        expect(page.locator(".round-clock")).to_contain_text("no new hand starts")
        expect(page.locator(".clock-left")).to_have_count(0)
    expect(table.get_by_role("status").filter(has_text="Time is called")).to_have_count(1)
    wall.wait_for_function("n => window.swaps > n", arg=swaps)
    expect(wall.locator(".round-clock")).to_have_class(re.compile(r"\bphase-time\b"))
    # The hand being played may still be recorded: the board keeps its record bar.
    expect(table.locator(".record-bar")).to_be_visible()
    shoot(wall, tmp_path, "wall-time", full=False)
    shoot(table, tmp_path, "table-time")
    for page in pages:
        assert page.evaluate("window.stayed") is True
    assert [w.problems for w in watchers] == [[], []]


def test_without_javascript_the_wall_reloads_itself_into_the_new_phase(
    screen, live_server, live_app
):
    night = timed_night(live_app, SIXTEEN[:4], SHORT)
    drawn_earlier(live_app, night["id"], WARNING_SOON)
    wall = screen(TV, javascript=False)
    wall.goto(live_server + night["watch_url"])
    expect(wall.locator(".round-clock")).to_have_class(re.compile(r"\bphase-playing\b"))
    # It reloads a second after the warning begins (then every 10 s while the clock runs).
    refresh = wall.locator("meta[http-equiv=refresh]").get_attribute("content")
    assert 2 <= int(refresh) <= 8, refresh
    with wall.expect_event("load", timeout=12_000):
        pass
    expect(wall.locator(".round-clock")).to_have_class(re.compile(r"\bphase-warning\b"))
    expect(wall.locator(".round-clock")).to_contain_text("last minutes")
    drawn_earlier(live_app, night["id"], 58)  # time is called by the next reload
    with wall.expect_event("load", timeout=13_000):
        pass
    expect(wall.locator(".round-clock")).to_have_class(re.compile(r"\bphase-time\b"))
    expect(wall.locator(".round-clock")).to_contain_text("Time is called")


CALLED = {"en-GB": "Time is called", "fr-FR": "Temps écoulé", "es-ES": "Se acabó el tiempo"}


@pytest.mark.parametrize("locale", list(CALLED))
def test_time_called_on_the_wall_and_a_table_at_360(make_page, live_server, live_app, locale):
    night = timed_night(live_app, SIXTEEN[:8], SHORT)
    drawn_earlier(live_app, night["id"], 5 * 60 + 5)
    page = make_page(width=360, height=780, locale=locale)
    for address, name in (
        (night["watch_url"], "wall"),
        (f"/games/{night['tables'][0]['game']}", "table"),
    ):
        page.goto(live_server + address)
        expect(page.locator(".round-clock.phase-time")).to_contain_text(CALLED[locale])
        shoot(page, None, f"{name}-time-{locale}")
        assert too_wide(page) == [] and split_words(page) == [], name


@pytest.mark.parametrize("size", [TV, LAPTOP], ids=["tv", "laptop"])
def test_a_timed_tables_big_screen_shows_its_clock(screen, live_server, live_app, tmp_path, size):
    """The table's own watch page on a big screen ("Follow this table" on the wall): its
    clock between the title and the next dealer, the last five hands still on the screen."""
    night = timed_night(live_app, SIXTEEN[:4], {**SHORT, "fixed_hands": 8, "minutes": 50})
    game_id = night["tables"][0]["game"]
    for meld in range(100, 170, 10):  # seven hands
        play(live_app, game_id, meld, 100)
    watch = live_app.test_client().get(f"/api/games/{game_id}").json["watch_url"]
    page = screen(size)
    page.goto(f"{live_server}{watch}?size=large")
    expect(page.locator(".round-clock")).to_contain_text("left in this round")
    shoot(page, tmp_path, f"table-watch-{size['width']}", full=False)
    scale = size["height"] / TV["height"]
    assert px(page, ".round-clock .clock-left") >= 60 * scale
    clock = page.locator(".round-clock").bounding_box()
    totals = page.locator(".totals").bounding_box()
    assert clock["y"] + clock["height"] <= totals["y"] + 1  # in the head, above the totals
    rows = page.locator(".hand-row:visible")
    assert rows.count() == 5
    for box in (row.bounding_box() for row in rows.all()):
        assert box["y"] + box["height"] <= size["height"]
    assert too_wide(page) == [] and split_words(page) == []
