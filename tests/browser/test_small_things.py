"""Issue 20, point 10: the smaller things a newcomer met, each on a 360 px phone."""

from __future__ import annotations

from typing import Any

import pytest
from phone import wait_for_hand_form

SIX = ("Bernadette", "Maximilien", "Gwendoline", "Jean-Claude", "Apollinaire", "Wilhelmina")

# Each word of the element's text sits on one line (no "Bernadet-te"); a hyphen the name
# has ("Jean-Claude") is a place it may break.
SPLIT_WORDS = """els => {
  const split = [];
  for (const el of els) {
    const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const re = /[^\\s\\-\u2010]+/g;
      let m;
      while ((m = re.exec(node.data))) {
        const range = document.createRange();
        range.setStart(node, m.index);
        range.setEnd(node, m.index + m[0].length);
        const tops = new Set([...range.getClientRects()].map(r => Math.round(r.top)));
        if (tops.size > 1) split.push(m[0]);
      }
    }
  }
  return split;
}"""


def six_alone(page: Any, base: str, teams: bool) -> str:
    sides = [SIX[i : i + 2] for i in range(0, 6, 2)] if teams else [[name] for name in SIX]
    body = {"profile": "six-player", "sides": [{"players": list(p)} for p in sides]}
    made = page.request.post(f"{base}/api/games", data=body)
    assert made.status == 201, made.text()
    return made.json()["id"]


@pytest.mark.parametrize("teams", [False, True], ids=["alone", "teams"])
def test_six_player_names_do_not_break_mid_word(make_page, live_server, teams, tmp_path):
    page = make_page(width=360, height=780)
    game_id = six_alone(page, live_server, teams)
    page.goto(f"{live_server}/games/{game_id}")
    names = ".side-total .side-name, .side-total .side-players, .record-buttons a"
    assert page.eval_on_selector_all(names, SPLIT_WORDS) == []
    page.goto(f"{live_server}/games/{game_id}/hands/new")
    wait_for_hand_form(page)
    assert page.eval_on_selector_all(".column .side-name, .went-out .chip span", SPLIT_WORDS) == []
    page.screenshot(path=str(tmp_path / "six-hand.png"), full_page=True)
