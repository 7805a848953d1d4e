"""Section 13: the hands of an evening at the table, counted in taps, keys and swipes.

The app runs on loopback (werkzeug in a thread, its own SQLite file); Debian's Chromium is a
360 x 780 phone. Each hand is played from the scoreboard the last save led to, as the table
does all evening, both sides filled: a tap on who went out (the board's record bar), the
boxes typed in the sheet's reading order (Enter, the keyboard's "Next", to the next box
when it is one or two away, else a tap on it), Save. A tap on something not wholly on
screen costs a swipe first (bench/phone.py's Thumb), so swipes are counted too.

Entries: points typed (two sides, a set of four hands); three to six sides; cards counted
by value; meld by meld (three melds a side); points typed at 200 % text.
"""

from __future__ import annotations

import logging
import tempfile
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from playwright.sync_api import sync_playwright
from werkzeug.serving import make_server

from bench.context import Bench
from bench.measure import Row, Section
from bench.phone import BOARD_URL, Thumb, on_screen, settled, wait_for_hand_form
from scorer import create_app

CHROMIUM = "/usr/bin/chromium"
NOBODY = "none"

# The ids of the boxes Enter walks, as hand.js walks them: visible, open, not locked.
TYPABLE = """() => Array.from(document.querySelectorAll('form[data-preview] [inputmode]'))
  .filter(b => b.getClientRects().length && !b.closest('details:not([open])')
    && !b.readOnly && !b.disabled).map(b => b.id)"""
# Every box of the sheet, who went out, concealed and Save: on screen at once?
WHOLE_SHEET = "form[data-preview] .hand-grid input, .went-more input, .form-actions .big"


@dataclass
class Hand:
    """One hand as the table calls it: who went out, and what to type or tap, in order.

    ``steps`` are ("type", box id, text), or ("tap", selector)."""

    out: int | str
    steps: list[tuple[str, ...]]
    concealed: bool = False


@dataclass
class Count:
    taps: int = 0
    keys: int = 0
    swipes: int = 0
    seen: list[tuple[int, int, int]] = field(default_factory=list)

    def add(self, taps: int, keys: int, swipes: int) -> None:
        self.seen.append((taps, keys, swipes))
        self.taps, self.keys, self.swipes = (max(v) for v in zip(*self.seen, strict=True))


def typed(out: int | str, *sides: dict[str, str], concealed: bool = False) -> Hand:
    """A hand typed in the sheet: each side's boxes by name (meld_points, natural_canastas...)."""
    steps = [
        ("type", f"sides-{i}-{name}", text)
        for i, boxes in enumerate(sides)
        for name, text in boxes.items()
    ]
    return Hand(out, steps, concealed)


# An evening's typed hands, both sides filled (the first one as the evening opens).
TWO_SIDES = [
    typed(
        0,
        {"meld_points": "130", "natural_canastas": "1", "red_threes": "2"},
        {"meld_points": "50", "hand_points": "85"},
    ),
    typed(
        1,
        {"meld_points": "90", "red_threes": "1", "hand_points": "45"},
        {"meld_points": "240", "natural_canastas": "1", "mixed_canastas": "1"},
    ),
    typed(
        0,
        {"meld_points": "315", "natural_canastas": "2", "mixed_canastas": "1", "red_threes": "1"},
        {"meld_points": "120", "mixed_canastas": "1", "hand_points": "30"},
    ),
    typed(
        1,
        {"hand_points": "155"},
        {"meld_points": "190", "natural_canastas": "1", "mixed_canastas": "1"},
        concealed=True,
    ),
]


def many_sides(count: int) -> Hand:
    """Side 0 goes out with two canastas (as three players need); every other side melds
    and holds cards."""
    sides = [{"meld_points": "150", "natural_canastas": "2", "red_threes": "1"}]
    sides += [{"meld_points": str(60 + 10 * i), "hand_points": "35"} for i in range(1, count)]
    return typed(0, *sides)


def counted_cards() -> Hand:
    """Side 0 types its canasta and counts its melded cards by value; side 1 types its melds
    and counts the cards left in its hand (the sheet first, as it is on screen)."""
    tools = "form[data-preview] .other-ways > summary"
    return Hand(
        0,
        [
            ("type", "sides-0-natural_canastas", "1"),
            ("type", "sides-1-meld_points", "70"),
            ("tap", tools),
            ("tap", '[data-tools="0"] [data-counter="meld"] > summary'),
            ("type", "sides-0-meld_jokers", "1"),
            ("type", "sides-0-meld_twenty", "0"),
            ("type", "sides-0-meld_ten", "8"),
            ("type", "sides-0-meld_five", "4"),
            ("tap", '[data-tools="1"] [data-counter="hand"] > summary'),
            ("type", "sides-1-hand_jokers", "0"),
            ("type", "sides-1-hand_twenty", "1"),
            ("type", "sides-1-hand_ten", "2"),
            ("type", "sides-1-hand_five", "3"),
        ],
    )


def meld_by_meld() -> Hand:
    """Three melds a side, rank by rank: side 0 a natural canasta of kings, side 1 a mixed
    canasta of eights; each rank typed (one key) in the three rows the form offers."""
    tools = "form[data-preview] .other-ways > summary"
    steps: list[tuple[str, ...]] = [("type", "sides-1-hand_points", "40"), ("tap", tools)]
    melds = {
        0: [("K", "7", "", ""), ("Q", "3", "", ""), ("7", "3", "1", "")],
        1: [("8", "5", "", "2"), ("A", "3", "", ""), ("5", "3", "", "")],
    }
    for side, rows in melds.items():
        steps.append(("tap", f'[data-tools="{side}"] [data-counter="melds"] > summary'))
        for j, row in enumerate(rows):
            prefix = f"sides-{side}-melds-{j}-"
            for name, text in zip(("rank", "naturals", "jokers", "twos"), row, strict=True):
                if text:
                    steps.append(("type", prefix + name, text))
    return Hand(0, steps)


class Table:
    """A phone at the table: the page, its thumb, the app behind it."""

    def __init__(self, page: Any, base: str, app: Any) -> None:
        self.page, self.base, self.app = page, base, app

    def new_game(self, players: list[list[str]], profile: str | None = None) -> None:
        body: dict[str, Any] = {"sides": [{"players": p} for p in players]}
        if profile:
            body["profile"] = profile
        response = self.app.test_client().post("/api/games", json=body)
        assert response.status_code == 201, response.json
        self.page.goto(f"{self.base}/games/{response.json['id']}")

    def play(self, hand: Hand) -> tuple[int, int, int, bool]:
        """(taps, keys, swipes, whole sheet on screen on arrival) of one hand, board to board."""
        page = self.page
        thumb = Thumb(page)
        keys = 0
        buttons = page.locator(".record-buttons a")
        target = buttons.nth(hand.out) if isinstance(hand.out, int) else buttons.last
        thumb.tap(target)
        wait_for_hand_form(page)
        whole = all(on_screen(page, box) for box in page.locator(WHOLE_SHEET).all())
        for step in hand.steps:
            settled(page)
            if step[0] == "tap":
                thumb.tap(page.locator(step[1]))
            else:
                keys += self._reach(thumb, step[1])
                before = thumb.count
                thumb.type(step[2])
                keys += thumb.count - before
                thumb.count = before
        if hand.concealed:
            thumb.tap(page.locator('input[name="concealed"]'))
        save = page.locator(".form-actions button.big")
        settled(page)
        thumb.tap(save)
        try:
            page.wait_for_url(BOARD_URL, timeout=15_000)
        except Exception as error:  # a hand the bench typed wrong: say what the page said
            said = page.locator("#form-error, [data-verdict]").all_inner_texts()
            raise AssertionError(f"not saved: {said}") from error
        return thumb.count, keys, thumb.scrolls, whole

    def _reach(self, thumb: Thumb, box: str) -> int:
        """Bring the cursor to `box`: Enter when it is the next box or the one after (keys
        spent), else a tap on it (counted by the thumb)."""
        page = self.page
        focused = page.evaluate("document.activeElement && document.activeElement.id")
        if focused == box:
            return 0
        order = page.evaluate(TYPABLE)
        if focused in order and box in order and 1 <= order.index(box) - order.index(focused) <= 2:
            presses = order.index(box) - order.index(focused)
            for _ in range(presses):
                page.keyboard.press("Enter")
            return presses
        thumb.tap(page.locator(f"#{box}"))
        return 0


@contextmanager
def phone_table(*, large: bool = False) -> Iterator[Table]:
    logging.getLogger("werkzeug").setLevel(logging.ERROR)  # the bench prints its table only
    with tempfile.TemporaryDirectory() as folder:
        app = create_app(
            {
                "DATABASE": str(Path(folder) / "scorer.sqlite3"),
                "SECRET_KEY": "bench-taps",
                "INSTANCE_PATH": str(Path(folder) / "instance"),
                "RATELIMIT_ENABLED": False,
            }
        )
        server = make_server("127.0.0.1", 0, app, threaded=True)
        thread = threading.Thread(target=server.serve_forever, daemon=True)
        thread.start()
        try:
            with sync_playwright() as playwright:
                browser = playwright.chromium.launch(
                    executable_path=CHROMIUM, args=["--no-sandbox", "--disable-gpu"]
                )
                context = browser.new_context(
                    viewport={"width": 360, "height": 780},
                    has_touch=True,
                    is_mobile=True,
                    device_scale_factor=2,
                    locale="en-GB",
                )
                page = context.new_page()
                if large:  # the phone's own text size, as tests/browser/phone.py sets it
                    session = context.new_cdp_session(page)
                    session.send("Page.enable")
                    session.send("Page.setFontSizes", {"fontSizes": {"standard": 32, "fixed": 26}})
                yield Table(page, f"http://127.0.0.1:{server.server_port}", app)
                browser.close()
        finally:
            server.shutdown()
            thread.join()
            server.server_close()


TEAMS = [["Agnès Moreau", "Bill O'Connor"], ["Cy", "Dee"]]
SOLO = ["Ann", "Bob", "Cy", "Dee", "Eve", "Fay"]
# Each player on their own: the variant that seats that many.
SOLO_PROFILE = {3: "three-player", 4: "classic", 5: "five-player", 6: "six-player"}


def count() -> dict[str, Count]:
    """Each entry's worst hand (taps, keys, swipes) and whether the sheet showed whole."""
    found: dict[str, Count] = {}
    whole_sheet = True
    with phone_table() as table:
        table.new_game(TEAMS)
        two = found.setdefault("two sides, points typed", Count())
        for hand in TWO_SIDES:
            taps, keys, swipes, whole = table.play(hand)
            two.add(taps, keys, swipes)
            whole_sheet = whole_sheet and whole
        many = found.setdefault("three to six sides", Count())
        for sides in (3, 4, 5, 6):
            table.new_game([[name] for name in SOLO[:sides]], SOLO_PROFILE[sides])
            taps, keys, swipes, _ = table.play(many_sides(sides))
            many.add(taps, keys, swipes)
        table.new_game(TEAMS)
        cards = found.setdefault("cards counted", Count())
        cards.add(*table.play(counted_cards())[:3])
        table.new_game(TEAMS)
        melds = found.setdefault("meld by meld, three melds a side", Count())
        melds.add(*table.play(meld_by_meld())[:3])
    with phone_table(large=True) as table:
        table.new_game(TEAMS)
        large = found.setdefault("200 % text, points typed", Count())
        for hand in TWO_SIDES[:2]:
            large.add(*table.play(hand)[:3])
    found["two sides, points typed"].seen.append((int(whole_sheet), 0, 0))
    return found


GOALS = {
    # entry: (most taps the digits and Enter apart, most swipes)
    "two sides, points typed": (4, 0),
    "three to six sides": (None, 1),
    "cards counted": (12, 1),
    "meld by meld, three melds a side": (14, 2),
    "200 % text, points typed": (None, 2),
}


def run(section: Section, bench: Bench) -> None:
    section.columns = ("Count", "What it is")
    if not Path(CHROMIUM).exists():
        section.missing = f"{CHROMIUM} is missing"
        return
    found = count()
    whole = bool(found["two sides, points typed"].seen.pop()[0])
    section.rows.append(
        Row("two sides at 100 %: every box, who went out and Save on screen at once",
            "yes" if whole else "no", "on arriving from the board", "yes", whole)
    )  # fmt: skip
    for entry, tally in found.items():
        taps_goal, swipes_goal = GOALS[entry]
        section.rows += [
            Row(f"{entry}: taps", str(tally.taps), "the worst hand, keys apart",
                f"≤ {taps_goal}" if taps_goal else "",
                tally.taps <= taps_goal if taps_goal else None),
            Row(f"{entry}: keys", str(tally.keys), "digits and Enter (Next)"),
            Row(f"{entry}: swipes", str(tally.swipes), "to reach something to tap",
                f"≤ {swipes_goal}", tally.swipes <= swipes_goal),
        ]  # fmt: skip
    section.notes.append(
        "Taps count from the board's record button to Save; a meld's rank is one key typed "
        "(K, or R in French). Keys are digits, rank letters and Enter."
    )
