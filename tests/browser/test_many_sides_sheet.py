"""The hand sheet of three to six sides at 360 x 780 (issue 28: "three to six sides <= 1
swipe"): each player a side of their own, the longest names the form allows, English and
French, JavaScript on and off. No box, chip or total may cover another, none may leave the
screen, and no question or name may break inside a word."""

from __future__ import annotations

import pytest
from phone import on_screen, shoot, split_words, too_wide
from test_table import api_game

WIDTH, HEIGHT = 360, 780
# A name of 40 characters (the form's limit) whose longest word has 11 letters, as the
# board's three-side totals are held to.
NAMES = ["Jean-Baptiste Apollinaire de la Fontaine", "Bob", "Cy", "Dee", "Eve", "Fay"]

# Every box, chip and total of the sheet that sits on screen: two that overlap by more than a
# pixel (the five-side sheet's went-out chips once covered the boxes beside them).
OVERLAPS = """() => {
  const parts = Array.from(document.querySelectorAll(
    '.hand-grid input:not([type=radio]), .hand-grid .went-chip span, .hand-grid output, '
    + '.hand-grid .side-head, .hand-grid .grid-q'))
    .filter(el => el.getClientRects().length)
    .map(el => [el, el.getBoundingClientRect()]);
  const found = [];
  for (let i = 0; i < parts.length; i++) {
    for (let j = i + 1; j < parts.length; j++) {
      const [a, r] = parts[i], [b, s] = parts[j];
      if (a.contains(b) || b.contains(a)) continue;
      const x = Math.min(r.right, s.right) - Math.max(r.left, s.left);
      const y = Math.min(r.bottom, s.bottom) - Math.max(r.top, s.top);
      if (x > 1 && y > 1) found.push((a.id || a.className) + ' / ' + (b.id || b.className));
    }
  }
  return found.slice(0, 10);
}"""
# A number typed that its box cannot show whole.
CUT_BOXES = """() => Array.from(document.querySelectorAll('.hand-grid input[inputmode]'))
  .filter(b => b.scrollWidth > b.clientWidth + 1).map(b => b.id)"""


@pytest.mark.parametrize("sides", [3, 4, 5, 6])
@pytest.mark.parametrize("locale", ["en-GB", "fr-FR"])
@pytest.mark.parametrize("javascript", [True, False], ids=["js", "nojs"])
def test_the_sheet_of_many_sides_fits_a_phone(
    make_page, live_server, live_app, tmp_path, sides: int, locale: str, javascript: bool
) -> None:
    game_id = api_game(live_app, [[name] for name in NAMES[:sides]])
    page = make_page(width=WIDTH, height=HEIGHT, locale=locale, javascript=javascript)
    page.goto(f"{live_server}/games/{game_id}/hands/new?out=0")
    page.wait_for_selector("form[data-preview] .hand-grid")
    for i in range(sides):
        page.fill(f"#sides-{i}-meld_points", "1350")
        page.fill(f"#sides-{i}-hand_points", "1055")
    shoot(page, tmp_path, f"sheet_{sides}_{locale}_{'js' if javascript else 'nojs'}")
    assert page.evaluate(OVERLAPS) == []
    assert page.evaluate(CUT_BOXES) == []
    assert too_wide(page) == []
    assert split_words(page) == []
    # Every side's name and boxes come whole to the screen as the thumb scrolls.
    for box in page.locator(".hand-grid input:not([type=radio])").all():
        box.scroll_into_view_if_needed()
        assert on_screen(page, box)
