"""The meld checker and the rules of play on a 360 px phone, in English and French."""

from __future__ import annotations

import pytest
from phone import no_sideways_scroll

ANCHORS = (
    "deal",
    "turn",
    "discard-pile",
    "wild-cards",
    "red-threes",
    "black-threes",
    "canastas",
    "going-out",
    "end-of-hand",
    "scoring",
    "minimums",
    "variants",
)


def fill_row(page, index, rank, naturals, jokers="", twos=""):
    page.select_option(f"select[name=rank-{index}]", rank)
    page.fill(f"input[name=naturals-{index}]", naturals)
    page.fill(f"input[name=jokers-{index}]", jokers)
    page.fill(f"input[name=twos-{index}]", twos)


def test_typing_melds_updates_the_verdict_and_the_server_agrees(make_page, live_server):
    page = make_page(width=360, height=780)
    page.goto(live_server + "/check-meld?minimum=90")
    verdict = page.locator("#verdict")
    fill_row(page, 0, "K", "3", twos="1")
    fill_row(page, 1, "7", "3")
    fill_row(page, 2, "4", "4")
    assert verdict.inner_text() == "85 of 90: 5 short"
    assert no_sideways_scroll(page)
    fill_row(page, 3, "Q", "1", jokers="1")  # refused: it adds nothing
    assert verdict.inner_text() == "85 of 90: 5 short"
    row = page.locator("[data-row='3']")
    assert "a meld needs at least two natural cards" in row.inner_text()
    page.fill("input[name=naturals-3]", "2")
    assert verdict.inner_text() == "155: you can open"
    assert row.locator(".field-error").count() == 0
    # The same form sent to the server, as a phone without JavaScript would.
    page.fill("input[name=naturals-3]", "1")
    page.get_by_role("button", name="Count").tap()
    page.wait_for_load_state()
    assert page.locator("#verdict").inner_text() == "85 of 90: 5 short"
    assert "a meld needs at least two natural cards" in page.locator("[data-row='3']").inner_text()


def test_the_no_javascript_form_gives_the_same_verdict(make_page, live_server):
    page = make_page(width=360, height=780, javascript=False)
    page.goto(live_server + "/check-meld?minimum=90")
    assert page.locator("#verdict").inner_text() == ""
    fill_row(page, 0, "K", "3", twos="1")
    fill_row(page, 1, "7", "3")
    fill_row(page, 2, "4", "4")
    page.get_by_role("button", name="Count").tap()
    page.wait_for_load_state()
    assert page.locator("#verdict").inner_text() == "85 of 90: 5 short"
    assert no_sideways_scroll(page)


def test_the_black_threes_and_the_pile_in_the_browser(make_page, live_server):
    page = make_page(width=360, height=780)
    page.goto(live_server + "/check-meld?minimum=50")
    fill_row(page, 0, "A", "3")
    fill_row(page, 1, "3", "3")
    assert page.locator("#verdict").inner_text() == "60: you can open"
    page.check("input[name=going_out]")
    assert page.locator("#verdict").inner_text() == "75: you can open"
    page.select_option("#discard_top", "K")
    assert "no planned meld" in page.locator("[data-top-error]").inner_text()
    page.select_option("#discard_top", "A")
    assert page.locator("[data-top-error]").is_hidden()


@pytest.mark.parametrize(
    ("locale", "title"), [("en-GB", "How to play Canasta"), ("fr-FR", "Comment jouer à la canasta")]
)
def test_every_rules_of_play_anchor_exists(make_page, live_server, locale, title):
    page = make_page(width=360, height=780, locale=locale)
    page.goto(live_server + "/rules/play")
    assert page.locator("h1").inner_text() == title
    for anchor in ANCHORS:
        assert page.locator(f"section#{anchor} h2").count() == 1, anchor
        page.locator(f"a[href='#{anchor}']").first.click()
        assert page.evaluate("location.hash") == f"#{anchor}"
    assert no_sideways_scroll(page)
