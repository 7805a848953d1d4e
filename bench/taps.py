"""Section 13: a typical hand at the table, counted in taps, keys and scrolls.

The app runs on loopback (werkzeug in a thread, its own SQLite file); Debian's Chromium is a
360 x 780 phone. A hand is saved first, then the next one is played from the scoreboard the
save leads to, as the table does all evening: Ann & Bob go out with 130, a natural canasta
and two red threes; Cy & Dee meld 50 and hold 85. A tap on something not wholly on screen
costs a scroll first (tests/browser/phone.py's Thumb), so the scroll is counted too.
"""

from __future__ import annotations

import tempfile
import threading
from pathlib import Path

from playwright.sync_api import sync_playwright
from werkzeug.serving import make_server

from bench.context import Bench
from bench.measure import Row, Section
from bench.phone import BOARD_URL, Thumb, start_game, wait_for_hand_form
from scorer import create_app

CHROMIUM = "/usr/bin/chromium"
TAP_GOAL = 5  # taps, the digits apart


def typical_hand(page: object, thumb: Thumb) -> None:
    """Tap who went out, type the hand, save: what the table does for each hand."""
    thumb.tap(page.locator(".record-buttons a", has_text="Ann & Bob"))  # type: ignore[attr-defined]
    wait_for_hand_form(page)
    thumb.type("130")
    side_a = page.locator('[data-column="0"]')  # type: ignore[attr-defined]
    thumb.tap(side_a.get_by_role("button", name="One more: Natural canastas"))
    thumb.tap(side_a.locator("label.chip", has_text="2"))
    thumb.type("50")  # the cursor has moved to Cy & Dee's meld points
    thumb.tap(page.locator("#sides-1-hand_points"))  # type: ignore[attr-defined]
    thumb.type("85")
    thumb.tap(page.get_by_role("button", name="Save hand"))  # type: ignore[attr-defined]
    page.wait_for_url(BOARD_URL)  # type: ignore[attr-defined]


def count() -> tuple[int, int, int]:
    """(taps, keys, scrolls) of the second hand of a game, played at 360 x 780."""
    with tempfile.TemporaryDirectory() as folder:
        app = create_app(
            {
                "DATABASE": str(Path(folder) / "scorer.sqlite3"),
                "SECRET_KEY": "bench-taps",
                "INSTANCE_PATH": str(Path(folder) / "instance"),
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
                start_game(
                    page, f"http://127.0.0.1:{server.server_port}", ("Ann", "Bob", "Cy", "Dee")
                )
                typical_hand(page, Thumb(page))  # the first hand: the board after a save follows
                thumb = Thumb(page)
                typical_hand(page, thumb)
                keys = 3 + 2 + 2
                browser.close()
                return thumb.count - keys, keys, thumb.scrolls
        finally:
            server.shutdown()
            thread.join()
            server.server_close()


def run(section: Section, bench: Bench) -> None:
    section.columns = ("Count", "What it is")
    if not Path(CHROMIUM).exists():
        section.missing = f"{CHROMIUM} is missing"
        return
    taps, keys, scrolls = count()
    section.rows += [
        Row("typical hand after a save: taps", str(taps), "the digits apart",
            f"≤ {TAP_GOAL}", taps <= TAP_GOAL),
        Row("typical hand after a save: keys (digits)", str(keys), "130, 50 and 85"),
        Row("typical hand after a save: scrolls", str(scrolls),
            "to reach something to tap", "none", scrolls == 0),
    ]  # fmt: skip
