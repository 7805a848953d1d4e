"""Issue 20, point 10: the smaller things a newcomer met, each on a 360 px phone (the
server-side ones are in tests/games/test_newcomer_pages.py)."""

from __future__ import annotations

from datetime import date
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
    assert (
        page.eval_on_selector_all(".side-head .side-name, .went-more .chip span", SPLIT_WORDS) == []
    )
    page.screenshot(path=str(tmp_path / "six-hand.png"), full_page=True)


# The widest option of each select, as drawn in the select's own font, fits inside it.
CUT_OPTIONS = """els => {
  const ctx = document.createElement("canvas").getContext("2d");
  const cut = [];
  for (const select of els) {
    if (!select.offsetParent) continue;
    const style = getComputedStyle(select);
    ctx.font = style.font;
    const pad = parseFloat(style.paddingLeft) + parseFloat(style.paddingRight);
    const room = select.clientWidth - pad - 24;  // the arrow
    for (const option of select.options) {
      if (ctx.measureText(option.text).width > room) cut.push(option.text);
    }
  }
  return cut;
}"""


@pytest.mark.parametrize("locale", ["en-GB", "fr-FR", "es-ES"])
def test_select_options_are_not_cut(make_page, live_server, locale):
    page = make_page(width=360, height=780, locale=locale)
    made = page.request.post(
        f"{live_server}/api/clubs", data={"name": "Sunday", "players": ["Ann", "Bob"]}
    )
    for path in ("/games/new", f"/clubs/{made.json()['id']}/games/new"):
        page.goto(live_server + path)
        page.select_option("#game-profile" if "clubs" in path else "#profile", "six-player")
        assert page.eval_on_selector_all("select", CUT_OPTIONS) == [], path


def test_en_gb_dates_are_day_first(make_page, live_server):
    gb = make_page(width=360, height=780, locale="en-GB")
    start = gb.request.post(f"{live_server}/api/games", data={"sides": [
        {"players": ["Ann", "Bob"]}, {"players": ["Cy", "Di"]}]})  # fmt: skip
    gid = start.json()["id"]
    today = date.today()
    gb.goto(f"{live_server}/games/{gid}")  # the home page lists the games this browser opened
    gb.goto(f"{live_server}/")
    status = gb.locator(".game-card .game-status").first.inner_text()
    assert today.strftime("%d/%m/%Y") in status, status
    us = make_page(width=360, height=780, locale="en-US")
    us.goto(f"{live_server}/games/{gid}")
    us.goto(f"{live_server}/")
    status = us.locator(".game-card .game-status").first.inner_text()
    assert f"{today.month}/{today.day}/{today:%y}" in status, status


@pytest.mark.parametrize("javascript", [True, False], ids=["js", "no-js"])
def test_two_players_hear_nothing_of_partners(make_page, live_server, javascript):
    page = make_page(width=360, height=780, javascript=javascript)
    page.goto(f"{live_server}/games/new")
    assert page.get_by_text("Partners sit in the same team").is_visible()
    page.select_option("#profile", "two-player")
    if not javascript:
        page.get_by_role("button", name="Show the boxes for this seating").click()
    assert not page.get_by_text("Partners sit in the same team").is_visible()


@pytest.mark.parametrize("javascript", [True, False], ids=["js", "no-js"])
def test_a_long_name_is_not_cut_without_a_word(make_page, live_server, javascript):
    page = make_page(width=360, height=780, javascript=javascript)
    page.goto(f"{live_server}/games/new")
    long = "Bernadette-Marie-Christine de la Tourvieille"
    assert len(long) == 44
    page.fill("#sides-0-players-0", long)
    assert page.input_value("#sides-0-players-0") == long  # the box keeps every character
    assert page.get_by_text("A name has at most 40 characters.").is_visible()
    for box, name in (("0-players-1", "Bob"), ("1-players-0", "Cy"), ("1-players-1", "Di")):
        page.fill(f"#sides-{box}", name)
    page.get_by_role("button", name="Start the game").click()
    page.wait_for_load_state("load")
    assert "must be 1 to 40 characters" in page.inner_text("main")
    assert page.input_value("#sides-0-players-0") == long
