"""Issue 20, the evening suite: whole evenings played through the pages as a table does.

Four evenings, each a few hands, cover together every dimension the issue names without
playing their full product: two, four (two teams), five and six players; English, French
and Spanish; JavaScript on and off; 100 % and 200 % text; a second phone, a watcher (the
large screen once), a dropped connection, corrections and an irregular hand.

Everything is done by tapping and typing on a 360 x 780 phone. After every step the test
checks what a person would notice: the hand stored exactly once (the API says so), nothing
wider than its box or the screen, no number or name split over two lines, the record buttons
whole and on screen after a save, no script error and no 5xx answer.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import pytest
from phone import (
    BOARD_URL,
    Thumb,
    Watcher,
    large_text,
    on_screen,
    record_buttons_problems,
    shoot,
    split_words,
    too_wide,
)
from playwright.sync_api import expect

WIDTH, HEIGHT = 360, 780


@dataclass(frozen=True)
class Evening:
    """One evening: who plays, how the phones are set, and what happens at the table."""

    name: str
    profile: str
    seating: str
    teams: tuple[tuple[str, ...], ...]
    locale: str
    javascript: bool
    large: bool
    # The hands in order: "out:N" (side N goes out), "nobody", "irregular" (a meld below the
    # minimum, recorded anyway), "offline" (saved with the Wi-Fi cut), "second" (recorded on
    # the second phone), "correct:N" (hand N corrected).
    script: tuple[str, ...]
    watcher: str = ""  # "", "phone" or "large"
    texts: dict[str, str] = field(default_factory=dict)


EVENINGS = [
    Evening(
        "two-en-js-100",
        "two-player",
        "alone",
        (("Marie-Claire",), ("Jean-Baptiste",)),
        "en-GB",
        javascript=True,
        large=False,
        script=("irregular", "out:0", "offline", "correct:1", "nobody"),
        watcher="phone",
    ),
    Evening(
        "four-teams-fr-nojs-200",
        "classic",
        "2-2",
        (("Bernadette", "Guillaume"), ("Anne-Sophie", "Maximilien")),
        "fr-FR",
        javascript=False,
        large=True,
        script=("irregular", "out:1", "second", "correct:2"),
        watcher="phone",
    ),
    Evening(
        "five-es-js-200",
        "five-player",
        "alone",
        (("Lucía",), ("Álvaro",), ("Begoña",), ("Maximiliano",), ("Concepción",)),
        "es-ES",
        javascript=True,
        large=True,
        script=("out:2", "offline", "second", "correct:1"),
        watcher="large",
    ),
    Evening(
        "six-en-nojs-100",
        "six-player",
        "alone",
        (("Ann",), ("Bernadette",), ("Cyprien",), ("Dominique",), ("Evangeline",), ("Fu",)),
        "en-GB",
        javascript=False,
        large=False,
        script=("irregular", "out:5", "second", "correct:1", "nobody"),
    ),
]


def open_phone(make_page: Any, evening: Evening, **extra: Any) -> Any:
    page = make_page(
        width=extra.get("width", WIDTH),
        height=extra.get("height", HEIGHT),
        locale=evening.locale,
        javascript=extra.get("javascript", evening.javascript),
    )
    if evening.large and extra.get("large", True):
        large_text(page)
    return page


def api(app: Any, game_id: str) -> dict[str, Any]:
    return app.test_client().get(f"/api/games/{game_id}").json


def submit(page: Any) -> Any:
    """The form's main button (whatever its language)."""
    return page.locator("form button[type=submit].primary, form button[type=submit].big").first


def start_game(page: Any, base: str, evening: Evening) -> str:
    page.goto(f"{base}/games/new")
    page.select_option("#profile", evening.profile)
    if not evening.javascript:
        page.locator("button[name=show]").tap()  # the boxes for this variant, without JS
    page.select_option("#seating", evening.seating)
    if not evening.javascript:
        page.locator("button[name=show]").tap()
    for side, team in enumerate(evening.teams):
        for seat, player in enumerate(team):
            page.locator(f"#sides-{side}-players-{seat}").tap()
            page.keyboard.type(player)
    page.locator("form.new-game-form button[type=submit]:not([name=show])").last.tap()
    page.wait_for_url(BOARD_URL)
    return page.url.rsplit("/", 1)[1]


def type_into(thumb: Thumb, page: Any, selector: str, digits: str) -> None:
    thumb.tap(page.locator(selector))
    page.locator(selector).fill("")
    thumb.type(digits)


def fill_hand(thumb: Thumb, page: Any, sides: int, out: int | None, irregular: bool) -> None:
    """What the table calls out: the side out melded 200 with two natural canastas; with
    nobody out, the first side melded 120; every other side holds 40 or 50 in hand. An
    irregular hand (the first of an evening, every minimum 50): the second side also melded
    30, below its minimum."""
    page.wait_for_selector("form.hand-form")
    if out is not None:
        type_into(thumb, page, f"#sides-{out}-meld_points", "200")
        type_into(thumb, page, f"#sides-{out}-natural_canastas", "2")
    else:
        type_into(thumb, page, "#sides-0-meld_points", "120")
    for index in range(sides):
        if index == out or (out is None and index == 0):
            continue
        if irregular and index == 1:
            type_into(thumb, page, "#sides-1-meld_points", "30")
        type_into(thumb, page, f"#sides-{index}-hand_points", "50" if out is None else "40")


def look(page: Any, watcher: Watcher, step: str, *, after_save: bool = True) -> None:
    """What a person would notice on the phone after a step."""
    page.wait_for_load_state("load")
    shoot(page, None, step.replace(":", "-"), full=False)
    assert too_wide(page) == [], step
    assert split_words(page) == [], step
    if after_save and page.locator(".record-bar").count():
        assert record_buttons_problems(page) == [], step
        flash = page.locator(".record-bar .flash")
        if flash.count():
            box = flash.bounding_box()
            assert box["y"] >= 0 and box["y"] + box["height"] <= HEIGHT, step
    assert watcher.problems == [], step


def board_totals(page: Any) -> list[int]:
    return [int(v) for v in page.locator(".side-total .total").evaluate_all(
        "els => els.map(el => el.dataset.total)")]  # fmt: skip


def record_on(page: Any, thumb: Thumb, sides: int, out: int | None, irregular: bool) -> None:
    """Tap who went out, type the hand, tap save (and confirm an irregular hand)."""
    button = page.locator(".record-buttons .button").nth(sides if out is None else out)
    assert on_screen(page, button)  # the next hand starts without a scroll
    thumb.tap(button)
    fill_hand(thumb, page, sides, out, irregular)
    thumb.tap(submit(page))
    if irregular:
        confirm = page.locator("button[name=confirm]")
        expect(confirm.or_(page.locator(".banner.error")).first).to_be_visible()
        assert confirm.count(), page.locator(".banner.error").inner_text()
        thumb.tap(confirm)
    page.wait_for_url(BOARD_URL)


@pytest.mark.parametrize("evening", EVENINGS, ids=[e.name for e in EVENINGS])
def test_an_evening_at_the_table(make_page, live_server, live_app, tmp_path, evening):
    sides = len(evening.teams)
    phone = open_phone(make_page, evening)
    watcher = Watcher(phone)
    thumb = Thumb(phone)
    game_id = start_game(phone, live_server, evening)
    board = phone.url
    lang = evening.locale[:2]
    assert phone.locator("html").get_attribute("lang") == lang
    look(phone, watcher, "new game")
    watch_page = None
    if evening.watcher:
        watch_page = open_phone(make_page, evening, width=1280 if evening.watcher == "large"
                                else WIDTH, height=720 if evening.watcher == "large" else HEIGHT,
                                large=evening.watcher != "large")  # fmt: skip
        watch_problems = Watcher(watch_page)
        url = live_server + api(live_app, game_id)["watch_url"]
        watch_page.goto(url + ("?size=large" if evening.watcher == "large" else ""))
    stored = 0
    for step in evening.script:
        kind, _, arg = step.partition(":")
        if kind in ("out", "nobody", "irregular"):
            out = int(arg) if kind == "out" else (None if kind == "nobody" else 0)
            record_on(phone, thumb, sides, out, irregular=kind == "irregular")
            stored += 1
        elif kind == "offline":
            thumb.tap(phone.locator(".record-buttons .button").first)
            fill_hand(thumb, phone, sides, 0, irregular=False)
            phone.context.set_offline(True)
            thumb.tap(submit(phone))
            note = phone.locator(".form-actions [data-outbox-note]")
            note.wait_for()
            box = note.bounding_box()
            assert box["y"] >= 0 and box["y"] + box["height"] <= HEIGHT, "the note is on screen"
            assert len(api(live_app, game_id)["hands"]) == stored  # not stored yet
            phone.context.set_offline(False)
            phone.evaluate("window.dispatchEvent(new Event('online'))")
            phone.wait_for_url(BOARD_URL)
            stored += 1
        elif kind == "second":
            other = open_phone(make_page, evening)
            other_watcher = Watcher(other)
            other.goto(board)
            record_on(other, Thumb(other), sides, sides - 1, irregular=False)
            look(other, other_watcher, "second phone")
            stored += 1
            if evening.javascript:
                expect(phone.locator(".hand-row")).to_have_count(stored, timeout=15_000)
            else:
                phone.reload()  # a page without script is refreshed by hand
        elif kind == "correct":
            number = int(arg)
            before = api(live_app, game_id)["hands"][number - 1]
            side = 1 if before["went_out"] != 1 else 0  # one that did not go out
            phone.goto(board)
            row = phone.locator(f"#hand-{number}")
            if not row.evaluate("el => el.open"):
                thumb.tap(row.locator("summary"))
            thumb.tap(row.locator(".hand-actions a"))
            phone.wait_for_selector("form.hand-form")
            type_into(thumb, phone, f"#sides-{side}-hand_points", "65")
            thumb.tap(submit(phone))
            confirm = phone.locator("button[name=confirm]")
            expect(confirm.or_(phone.locator(".record-bar")).first).to_be_visible()
            if confirm.count():  # an irregular hand is asked about again
                thumb.tap(confirm)
            phone.wait_for_url(BOARD_URL)
            hand = api(live_app, game_id)["hands"][number - 1]
            assert hand["sides"][side]["hand_points"] == 65, hand
        game = api(live_app, game_id)
        assert len(game["hands"]) == stored, step  # exactly once
        assert phone.url == board, step
        assert board_totals(phone) == [s["total"] for s in game["sides"]], step
        look(phone, watcher, step)
        if watch_page is not None:
            if not evening.javascript:
                watch_page.reload()
            first = str(game["sides"][0]["total"])
            expect(watch_page.locator(".total").first).to_have_attribute(
                "data-total", first, timeout=15_000
            )
            look(watch_page, watch_problems, f"watch after {step}", after_save=False)
    shoot(phone, tmp_path, f"{evening.name}-board", full=False)
    if watch_page is not None:
        shoot(watch_page, tmp_path, f"{evening.name}-watch", full=False)
