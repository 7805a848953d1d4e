"""A person's hand on a phone page, counted: taps, keys and scrolls (Playwright pages).

Shared by the bench's tap count (section 13) and the browser tests (tests/browser/phone.py),
so both count a tap the same way.
"""

from __future__ import annotations

import re
from typing import Any

BOARD_URL = re.compile(r".*/games/(?!new$)[^/?#]+$")


class Thumb:
    """Taps, key presses and scrolls on a page, counted: one tap = 1, one key = 1 ("130" = 3).

    A tap on something that is not wholly on screen first costs a scroll, as it would a
    person; ``scrolls`` counts those apart from ``count`` (taps and keys)."""

    def __init__(self, page: Any) -> None:
        self.page = page
        self.count = 0
        self.scrolls = 0

    def tap(self, locator: Any) -> None:
        if not on_screen(self.page, locator):
            self.scrolls += 1
        locator.tap()
        self.count += 1

    def type(self, text: str) -> None:
        """Type into whatever has the focus, one key at a time."""
        for key in text:
            self.page.keyboard.press(key)
            self.count += 1


def on_screen(page: Any, locator: Any) -> bool:
    """The element is wholly inside the screen as it is now (nothing to scroll to reach it)."""
    box = locator.evaluate("el => { const r = el.getBoundingClientRect();"
                           " return [r.top, r.left, r.bottom, r.right]; }")  # fmt: skip
    size = page.viewport_size
    top, left, bottom, right = box
    return (
        top >= -0.5
        and left >= -0.5
        and bottom <= size["height"] + 0.5
        and (right <= size["width"] + 0.5)
    )


def settled(page: Any) -> None:
    """The hand form's figures are up to date (static/hand.js: no check waiting or on its
    way). A person taps the next box a moment after the last key, the page as the check left
    it; tapped sooner, the answer could move the box after it was found on screen or not."""
    page.wait_for_function("() => !document.querySelector('form[data-checking]')")


def wait_for_hand_form(page: Any) -> None:
    """The hand form is loaded and its script has run (steppers in place)."""
    page.wait_for_load_state("load")
    page.wait_for_selector("form[data-preview] .stepper", state="attached")


def start_game(page: Any, base: str, players: tuple[str, str, str, str]) -> str:
    """Create a classic game through the form; returns the scoreboard's URL."""
    page.goto(f"{base}/games/new")
    page.fill("#sides-0-players-0", players[0])
    page.fill("#sides-0-players-1", players[1])
    page.fill("#sides-1-players-0", players[2])
    page.fill("#sides-1-players-1", players[3])
    page.get_by_role("button", name="Start the game").tap()
    page.wait_for_url(BOARD_URL)
    return page.url
