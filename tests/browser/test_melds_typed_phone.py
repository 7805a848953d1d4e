"""Meld by meld at 360 px, three melds a side, each rank typed in one key (issue 28).

The table calls out its melds; the phone keeps it in one screen's reach: the three rows are
already there, the rank is a letter of the reader's language (K or R for the king), and the
saved hand is read back through the API. JavaScript on and off, English and French.

Scores worked out by hand. Side 0 (went out): kings 7 naturals 70 + 500 (natural canasta),
queens 30, sevens 3 + a joker 15 + 50: 665 + 100 going out = 765. Side 1: eights 5 + two
twos 50 + 40 + 300 (mixed canasta), aces 60, fives 15: 465, 40 left in hand: 425.
"""

from __future__ import annotations

from typing import Any

import pytest
from phone import BOARD_URL, no_sideways_scroll, wait_for_hand_form
from playwright.sync_api import expect

# Each side's three melds: (rank as typed in English, in French, naturals, jokers, twos).
MELDS = {
    0: [("K", "R", "7", "", ""), ("q", "d", "3", "", ""), ("7", "7", "3", "1", "")],
    1: [("8", "8", "5", "", "2"), ("A", "A", "3", "", ""), ("5", "5", "3", "", "")],
}
SAVED = {
    0: [("K", 7, 0, 0), ("Q", 3, 0, 0), ("7", 3, 1, 0)],
    1: [("8", 5, 0, 2), ("A", 3, 0, 0), ("5", 3, 0, 0)],
}
LOCALES = {"en": "en-GB", "fr": "fr-FR"}


def new_game(page: Any, base: str) -> str:
    sides = [{"players": ["Ann", "Bob"]}, {"players": ["Cy", "Dee"]}]
    made = page.request.post(f"{base}/api/games", data={"sides": sides})
    assert made.status == 201
    return made.json()["id"]


def type_in(page: Any, box: str, text: str) -> None:
    """A tap on the box, then its keys, as a thumb does."""
    page.locator(f"#{box}").tap()
    page.keyboard.type(text)


def saved_melds_and_totals(page: Any, live_server: str, game_id: str, saved: dict) -> list[int]:
    """Save, check each side's melds read back through the export as `saved`, and give the
    sides' totals the API then shows."""
    page.locator(".form-actions button.big").tap()
    page.wait_for_url(BOARD_URL)
    hand = page.request.get(f"{live_server}/api/games/{game_id}/export").json()["hands"][0]
    fields = ("rank", "naturals", "jokers", "twos")
    for side, melds in saved.items():
        assert [tuple(m[k] for k in fields) for m in hand["sides"][side]["melds"]] == melds
    game = page.request.get(f"{live_server}/api/games/{game_id}").json()
    return [side["total"] for side in game["sides"]]


@pytest.mark.parametrize("javascript", [True, False], ids=["js", "nojs"])
@pytest.mark.parametrize("lang", ["en", "fr"])
def test_three_melds_a_side_typed_rank_by_rank(make_page, live_server, tmp_path, lang, javascript):
    page = make_page(width=360, height=780, locale=LOCALES[lang], javascript=javascript)
    game_id = new_game(page, live_server)
    page.goto(f"{live_server}/games/{game_id}")
    page.locator(".record-buttons a").first.tap()
    if javascript:
        wait_for_hand_form(page)
    else:
        page.wait_for_load_state("load")
    type_in(page, "sides-1-hand_points", "40")
    page.locator("[data-other-ways] > summary").tap()
    for side, rows in MELDS.items():
        page.locator(f'[data-tools="{side}"] [data-counter="melds"] > summary').tap()
        # Three empty rows are offered: no "Add a meld" for a usual side.
        assert page.locator(f'[data-tools="{side}"] [data-meld-row]').count() == 3
        for j, (english, french, naturals, jokers, twos) in enumerate(rows):
            prefix = f"sides-{side}-melds-{j}-"
            if javascript and j == 0:
                # The counter opened waits in the first rank; Enter goes on to its cards.
                # (the focus moves on the details' toggle event: waited for, not raced)
                expect(page.locator(f"#{prefix}rank")).to_be_focused()
                page.keyboard.type(english if lang == "en" else french)
                page.keyboard.press("Enter")
                expect(page.locator(f"#{prefix}naturals")).to_be_focused()
                page.keyboard.type(naturals)
            else:
                type_in(page, prefix + "rank", english if lang == "en" else french)
                type_in(page, prefix + "naturals", naturals)
            for name, text in (("jokers", jokers), ("twos", twos)):
                if text:
                    type_in(page, prefix + name, text)
    assert no_sideways_scroll(page)
    page.screenshot(path=str(tmp_path / f"melds-{lang}-{javascript}.png"), full_page=True)
    assert saved_melds_and_totals(page, live_server, game_id, SAVED) == [765, 425]


# Modern American (§5a): a meld of wild cards only is typed as its letter, W (L in French, for
# "libre"). Side 0 went out: a joker and six twos close a wild canasta (50 + 120 + 2 000),
# seven kings a natural one (70 + 500), out 100: 2 840. Side 1: three twos left unfinished
# cost their cards and 2 000, seven queens (70 + 500), three fives (15), 10 in hand:
# 60 + 70 + 15 + 500 - 2 000 - 10 = -1 365.
WILD_MELDS = {
    0: [("W", "L", "", "1", "6"), ("K", "R", "7", "", "")],
    1: [("w", "l", "", "", "3"), ("Q", "D", "7", "", ""), ("5", "5", "3", "", "")],
}
WILD_SAVED = {
    0: [("wild", 0, 1, 6), ("K", 7, 0, 0)],
    1: [("wild", 0, 0, 3), ("Q", 7, 0, 0), ("5", 3, 0, 0)],
}


@pytest.mark.parametrize("javascript", [True, False], ids=["js", "nojs"])
@pytest.mark.parametrize("lang", ["en", "fr"])
def test_a_meld_of_wild_cards_typed_in_a_modern_american_game(
    make_page, live_server, tmp_path, lang, javascript
):
    page = make_page(width=360, height=780, locale=LOCALES[lang], javascript=javascript)
    sides = [{"players": ["Ann", "Bob"]}, {"players": ["Cy", "Dee"]}]
    made = page.request.post(
        f"{live_server}/api/games", data={"sides": sides, "family": "modern-american"}
    )
    assert made.status == 201
    game_id = made.json()["id"]
    page.goto(f"{live_server}/games/{game_id}")
    page.locator(".record-buttons a").first.tap()
    if javascript:
        wait_for_hand_form(page)
    else:
        page.wait_for_load_state("load")
    type_in(page, "sides-1-hand_points", "10")
    page.locator("[data-other-ways] > summary").tap()
    for side, rows in WILD_MELDS.items():
        page.locator(f'[data-tools="{side}"] [data-counter="melds"] > summary').tap()
        # The hint names the letter of a meld of wild cards.
        hint = page.locator(f'[data-tools="{side}"] [data-counter="melds"] .hint')
        expect(hint).to_contain_text("W" if lang == "en" else "L")
        for j, (english, french, naturals, jokers, twos) in enumerate(rows):
            prefix = f"sides-{side}-melds-{j}-"
            type_in(page, prefix + "rank", english if lang == "en" else french)
            for name, text in (("naturals", naturals), ("jokers", jokers), ("twos", twos)):
                if text:
                    type_in(page, prefix + name, text)
    assert no_sideways_scroll(page)
    page.screenshot(path=str(tmp_path / f"wild-{lang}-{javascript}.png"), full_page=True)
    assert saved_melds_and_totals(page, live_server, game_id, WILD_SAVED) == [2840, -1365]
