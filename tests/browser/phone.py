"""What browser tests do with a phone page: tap, type, count, look, and what a person notices.

- ``large_text(page)``: the browser's text size at 200 % (as a phone's font-size setting
  does: the default font doubles, the viewport stays), for JavaScript on and off, kept across
  navigations.
- ``Watcher(page)``: collects what a person would call broken while a test plays: a script
  error and any 5xx answer.
- ``too_wide``, ``split_words``, ``record_buttons_problems``: what is wrong on screen now, as a
  list (empty when all is well), so an assertion names what it found.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

# A person's hand on a phone page, shared with the bench's tap count (bench/taps.py).
from bench.phone import BOARD_URL, Thumb, on_screen, start_game, wait_for_hand_form  # noqa: F401


def no_sideways_scroll(page: Any) -> bool:
    """Nothing on the page is wider than the screen."""
    return bool(page.evaluate("document.documentElement.scrollWidth <= window.innerWidth"))


# The running test's tmp_path, set by tests/browser/conftest.py for each test, so helpers that
# take a screenshot need not be handed the folder.
TEST_FOLDER: list[Path] = []


def shoot(page: Any, folder: Path | None, name: str, *, full: bool = True) -> Path:
    """A screenshot into the test's own folder (pytest's tmp_path; None: the running test's),
    for a human to look at; never a fixed path."""
    folder = folder if folder is not None else TEST_FOLDER[-1]
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{name}.png"
    page.screenshot(path=str(path), full_page=full)
    if full:
        _text_size_again(page)
    return path


_SESSIONS: list[Any] = []
# 200 % text: Chromium's own default font size doubled (see large_text).
FONT_SIZES = {"fontSizes": {"standard": 32, "fixed": 26}}


def _text_size_again(page: Any) -> None:
    """A full-page screenshot overrides the device metrics for a moment, and Chromium then
    lays the page out at 100 % text until the next navigation: set 200 % again, so what a
    test checks after a screenshot is still what a 200 % phone shows."""
    for shot_page, session in _SESSIONS:
        if shot_page is page:
            session.send("Page.setFontSizes", FONT_SIZES)


def large_text(page: Any) -> None:
    """200 % text: Chromium's own default font size doubled (DevTools' Page.setFontSizes).

    Unlike a style set from a script, it holds on every page the tab opens, with JavaScript
    off too, exactly as a phone's "font size" setting."""
    session = page.context.new_cdp_session(page)
    session.send("Page.enable")
    session.send("Page.setFontSizes", FONT_SIZES)
    _SESSIONS.append((page, session))  # kept: a session let go takes its setting with it


class Watcher:
    """Script errors (uncaught, or logged as errors) and 5xx answers seen by a page."""

    def __init__(self, page: Any) -> None:
        self.problems: list[str] = []
        page.on("pageerror", lambda error: self.problems.append(f"script: {error}"))
        page.on("console", self._console)
        page.on("response", self._response)

    def _console(self, message: Any) -> None:
        # A refused save (409) or no network logs "Failed to load resource": those are
        # answers the page handles; a 5xx is caught by _response.
        if message.type == "error" and "Failed to load resource" not in message.text:
            self.problems.append(f"console: {message.text}")

    def _response(self, response: Any) -> None:
        if response.status >= 500:
            self.problems.append(f"{response.status} {response.url}")


# Elements wider than the screen, or whose content is wider than their own box (clipped
# or scrolling sideways inside it). Hidden things and the visually-hidden labels are skipped,
# and so is what the page marks as sliding sideways on purpose ([data-scrolls]: a hand's
# breakdown of six sides at 200 % text).
TOO_WIDE = """() => {
  const root = document.documentElement;
  // A phone widens its layout viewport to hold what overflows: the screen is the measure.
  const width = Math.min(root.clientWidth, screen.width);
  const found = [];
  if (root.scrollWidth > width + 1) found.push('page ' + root.scrollWidth);
  for (const el of document.querySelectorAll('body *')) {
    if (!el.getClientRects().length) continue;
    if (el.closest('.visually-hidden, [hidden], svg, .qr, [data-scrolls]')) continue;
    const r = el.getBoundingClientRect();
    const style = getComputedStyle(el);
    if (style.position === 'fixed' && r.right < 0) continue;
    const inside = el.scrollWidth <= el.clientWidth + 1 || !el.clientWidth
      || style.overflowX === 'visible' && el.tagName !== 'INPUT';
    if (r.right > width + 1 || r.left < -1 || !inside)
      found.push(el.tagName.toLowerCase() + '.' + el.className + ' '
        + (el.textContent || '').trim().slice(0, 30));
  }
  return found.slice(0, 10);
}"""


def too_wide(page: Any) -> list[str]:
    """What is wider than the screen or than its own box (empty when nothing is)."""
    return list(page.evaluate(TOO_WIDE))


# Each word and number of the visible text, measured with a Range: one that sits on two lines
# was split ("Ma/rie", "+7/5", "2,0/30"). A word longer than 24 letters may have to break,
# and so may an address shown to be copied. A hyphen ("Jean-Baptiste") is a place to break.
SPLIT_WORDS = r"""() => {
  const sign = '(?:[+\\-\\u2212](?=\\p{N}))?';
  const rest = "(?:[\\p{L}\\p{N}'\\u2019]|[,.\\u00a0\\u202f](?=\\p{N}))*";
  const token = new RegExp(sign + '[\\p{L}\\p{N}]' + rest, 'gu');
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  const found = [];
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const parent = node.parentElement;
    if (!parent || !parent.getClientRects().length) continue;
    // Links shown as addresses (to copy) break anywhere, on purpose.
    const skip = '.visually-hidden, [hidden], script, style, option, select, title, .share-link';
    if (parent.closest(skip)) continue;
    for (const match of node.data.matchAll(token)) {
      if (match[0].length > 24) continue;
      const range = document.createRange();
      range.setStart(node, match.index);
      range.setEnd(node, match.index + match[0].length);
      const tops = new Set(Array.from(range.getClientRects()).filter(r => r.width > 0)
        .map(r => Math.round(r.top / 4)));
      const where = (parent.closest('[class]') || parent).className;
      if (tops.size > 1) found.push(match[0] + ' in ' + where);
    }
  }
  return found.slice(0, 10);
}"""


def split_words(page: Any) -> list[str]:
    """Words and numbers broken over two lines (empty when none is)."""
    return list(page.evaluate(SPLIT_WORDS))


# The record buttons: each whole (its name not cut), inside the screen, and the bar holding
# them not scrolling sideways.
RECORD_BUTTONS = """() => {
  const size = [Math.min(window.innerWidth, screen.width), window.innerHeight];
  const bar = document.querySelector('.record-buttons');
  if (!bar) return ['no record buttons'];
  const found = [];
  if (bar.scrollWidth > bar.clientWidth + 1) found.push('the bar scrolls sideways');
  for (const button of bar.querySelectorAll('.button')) {
    const r = button.getBoundingClientRect();
    const name = button.textContent.trim();
    if (r.top < -0.5 || r.left < -0.5 || r.bottom > size[1] + 0.5 || r.right > size[0] + 0.5)
      found.push(name + ' off screen ' + [r.top, r.bottom, r.left, r.right].map(Math.round));
    const cut = button.scrollWidth > button.clientWidth + 1
      || button.scrollHeight > button.clientHeight + 1;
    if (cut) found.push(name + ' cut');
  }
  return found;
}"""


def record_buttons_problems(page: Any) -> list[str]:
    """Why a record button cannot be tapped as it is now (empty when all can)."""
    return list(page.evaluate(RECORD_BUTTONS))


def record_button_names(page: Any) -> list[str]:
    return [t.strip() for t in page.locator(".record-buttons .button").all_inner_texts()]
