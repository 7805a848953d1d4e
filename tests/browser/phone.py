"""What browser tests do with a phone page: tap, type, count, look."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

SHOTS = Path("/work/notes/shots")
BOARD_URL = re.compile(r".*/games/(?!new$)[^/?#]+$")


def no_sideways_scroll(page: Any) -> bool:
    """Nothing on the page is wider than the screen."""
    return bool(page.evaluate("document.documentElement.scrollWidth <= window.innerWidth"))


def shoot(page: Any, name: str) -> Path:
    """A full-page screenshot into /work/notes/shots/ (for a human to look at)."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    path = SHOTS / f"{name}.png"
    page.screenshot(path=str(path), full_page=True)
    return path


class Thumb:
    """Taps and key presses on a page, counted: one tap = 1, one key = 1 ("130" = 3)."""

    def __init__(self, page: Any) -> None:
        self.page = page
        self.count = 0

    def tap(self, locator: Any) -> None:
        locator.tap()
        self.count += 1

    def type(self, text: str) -> None:
        """Type into whatever has the focus, one key at a time."""
        for key in text:
            self.page.keyboard.press(key)
            self.count += 1


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
