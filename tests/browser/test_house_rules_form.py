"""A game with the house rules of issue 22, created through the form on a 360 px phone; a
club's house rules (issue 31), which follow its variant as the new-game form's do."""

from __future__ import annotations

from typing import Any

import pytest
from phone import BOARD_URL, Thumb, no_sideways_scroll, wait_for_hand_form
from playwright.sync_api import expect


def start_and_read_house_rules(page: Any, thumb: Thumb) -> str:
    """Type four players' names, start the game and give the board's list of house rules."""
    for box, name in (
        ("#sides-0-players-0", "Ann"),
        ("#sides-0-players-1", "Bob"),
        ("#sides-1-players-0", "Cy"),
        ("#sides-1-players-1", "Di"),
    ):
        thumb.tap(page.locator(box))
        thumb.type(name)
    thumb.tap(page.get_by_role("button", name="Start the game"))
    page.wait_for_url(BOARD_URL)
    return page.locator(".house-rules dl").inner_text()


def test_a_game_with_house_rules_through_the_form_at_360_px(make_page, live_server, tmp_path):
    page, thumb, errors = phone_at(make_page, live_server + "/games/new", True)
    thumb.tap(page.locator("summary", has_text="House rules"))
    rules = page.locator("details.house-rules-form")
    # The rule book's ways are chosen until a chip is tapped.
    assert rules.locator("input[name=tie]:checked").input_value() == "play_on"
    assert rules.locator("input[name=red_threes_count_against]:checked").input_value() == "no_meld"
    thumb.tap(rules.locator("label.chip", has_text="the side that went out wins"))
    thumb.tap(rules.locator("label.chip", has_text="a side without a canasta"))
    assert rules.locator("input[name=tie]:checked").input_value() == "went_out_wins"
    assert no_sideways_scroll(page)
    page.screenshot(path=str(tmp_path / "house-rules-form.png"), full_page=True)
    # At 200 % text (the phone's font size setting) the long chips wrap, nothing overflows.
    page.evaluate("document.documentElement.style.fontSize = '200%'")
    assert no_sideways_scroll(page)
    rules.screenshot(path=str(tmp_path / "house-rules-form-200.png"))
    page.evaluate("document.documentElement.style.fontSize = ''")
    shown = start_and_read_house_rules(page, thumb)
    assert "A tie at the top" in shown and "the side that went out wins" in shown
    assert "Red threes count against" in shown and "a side without a canasta" in shown
    assert no_sideways_scroll(page)
    page.screenshot(path=str(tmp_path / "house-rules-board.png"), full_page=True)
    assert errors == []


@pytest.mark.parametrize("javascript", [True, False])
def test_modern_americans_canasta_bonuses_through_the_form(make_page, live_server, javascript):
    """ "Every wild canasta 2 000" on a 360 px phone: the boxes of Modern American's canastas
    come with its variant (at once with the script; with "Show the boxes" without it), hold
    its bonuses, and the board names the rules changed in words, not by their keys."""
    page, thumb, errors = phone_at(make_page, live_server + "/games/new", javascript)
    thumb.tap(page.locator("summary", has_text="House rules"))
    assert page.locator("#natural_canasta").is_visible()
    assert not page.locator("#sevens_canasta").is_visible()
    page.select_option("#profile", "four-player")
    if not javascript:
        # The server's page with the chosen variant's boxes: read once it has come (a loaded
        # machine can still show the old page right after the tap).
        with page.expect_navigation():
            thumb.tap(page.get_by_role("button", name="Show the boxes for this seating"))
        details = page.locator("details.house-rules-form")
        if details.get_attribute("open") is None:
            thumb.tap(page.locator("summary", has_text="House rules"))
    for box, value in (("sevens", "2500"), ("wild", "2000"), ("deuces", "3000")):
        assert page.locator(f"#{box}_canasta").is_visible(), box
        assert page.locator(f"#{box}_canasta").input_value() == value, box
    if javascript:  # back to Classic and again: the boxes follow the variant
        page.select_option("#profile", "classic")
        assert not page.locator("#sevens_canasta").is_visible()
        assert page.locator("#sevens_canasta").is_disabled()
        page.select_option("#profile", "four-player")
        assert page.locator("#sevens_canasta").input_value() == "2500"
    assert no_sideways_scroll(page)
    for box in ("#wild_four_jokers_canasta", "#deuces_canasta"):
        thumb.tap(page.locator(box))
        page.locator(box).fill("")
        thumb.type("2000")
    shown = start_and_read_house_rules(page, thumb)
    assert "Wild canasta bonus, all four jokers" in shown and "2,000" in shown
    assert "Canasta of seven twos bonus" in shown
    assert "_canasta" not in shown
    assert errors == []


@pytest.mark.parametrize("javascript", [True, False], ids=["js", "no-js"])
def test_the_tournament_minimum_by_hand_number_through_the_form(make_page, live_server, javascript):
    """Modern American's tournament rule chosen on the new-game form at 360 x 780: after a
    hand that leaves both sides far below 3 000, the board asks 155 of both (hand 2), not
    the 125 their totals would."""
    page, thumb, errors = phone_at(make_page, live_server + "/games/new", javascript)
    thumb.tap(page.locator("summary", has_text="House rules"))
    by_hand = page.locator("label.chip", has_text="the hand's number (tournament rule)")
    assert not by_hand.is_visible()  # Classic has no such rule
    page.select_option("#profile", "four-player")
    if not javascript:
        with page.expect_navigation():
            thumb.tap(page.get_by_role("button", name="Show the boxes for this seating"))
        if page.locator("details.house-rules-form").get_attribute("open") is None:
            thumb.tap(page.locator("summary", has_text="House rules"))
    rule = page.locator("input[name=minimum_by]:checked")
    assert rule.input_value() == "total"  # the book's way until tapped
    by_hand.scroll_into_view_if_needed()
    thumb.tap(by_hand)
    assert rule.input_value() == "hand_number"
    assert no_sideways_scroll(page)
    shown = start_and_read_house_rules(page, thumb)
    assert "Opening minimum by" in shown and "the hand's number" in shown
    minimums = page.locator(".side-total .minimum strong")
    assert minimums.all_inner_texts() == ["125", "125"]
    thumb.tap(page.locator(".record-buttons a", has_text="Nobody"))
    page.wait_for_url("**/hands/new?out=*")
    if javascript:
        wait_for_hand_form(page)
    # 300 and a natural canasta (+800); 130 melded and 30 held, no canasta (-160).
    for box, text in (
        ("#sides-0-meld_points", "300"),
        ("#sides-0-canastas_natural", "1"),
        ("#sides-1-meld_points", "130"),
        ("#sides-1-hand_points", "30"),
    ):
        page.locator(box).scroll_into_view_if_needed()
        thumb.tap(page.locator(box))
        thumb.type(text)
    thumb.tap(page.get_by_role("button", name="Save hand"))
    page.wait_for_url(BOARD_URL)
    assert page.locator(".side-total .total").all_inner_texts() == ["800", "−160"]
    assert minimums.all_inner_texts() == ["155", "155"]
    assert no_sideways_scroll(page)


# Modern American's own values in the house-rules editor, box by box (Classic's are 200, 1,
# 800, 15 / 0: 50 / 1 500: 90 / 3 000: 120).
AMERICAN_VALUES = {
    "#concealed_going_out": "100",
    "#sevens_canasta": "2500",
    "#all_red_threes": "1000",
    "#canastas_to_go_out": "2",
    "#minimums-0-minimum": "125",
    "#minimums-1-start": "3000",
    "#minimums-1-minimum": "155",
    "#minimums-2-start": "5000",
    "#minimums-2-minimum": "180",
    "#minimums-3-start": "",
    "#minimums-3-minimum": "",
}


def phone_at(make_page: Any, url: str, javascript: bool) -> tuple[Any, Thumb, list[str]]:
    """A 360 x 780 phone opened at url, a person's thumb on it, its script errors gathered."""
    page: Any = make_page(width=360, height=780, javascript=javascript)
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(url)
    return page, Thumb(page), errors


def type_in(page: Any, thumb: Thumb, boxes: dict[str, str]) -> None:
    """Tap each box and type its text."""
    for box, text in boxes.items():
        thumb.tap(page.locator(box))
        thumb.type(text)


def open_house_rules(page: Any, thumb: Thumb) -> Any:
    details = page.locator("details.house-rules-form")
    if details.get_attribute("open") is None:
        thumb.tap(page.locator("summary", has_text="House rules"))
    return details


def retype(page: Any, thumb: Thumb, box: str, text: str) -> None:
    """Tap a box holding a value, clear it and type another, as a person does."""
    thumb.tap(page.locator(box))
    page.locator(box).fill("")
    thumb.type(text)


@pytest.mark.parametrize("javascript", [True, False], ids=["js", "nojs"])
def test_a_modern_american_clubs_house_rules_are_its_own(make_page, live_server, javascript):
    """The new-club form's editor shows the chosen game's values and boxes (at once with the
    script; with "Show this variant's house rules" without it, all that was typed kept), and a
    club that changes one of them keeps only that change as its preset."""
    page, thumb, errors = phone_at(make_page, live_server + "/clubs/new", javascript)
    roster = {f"#players-{i}": name for i, name in enumerate(("Ann", "Bob", "Cy", "Di"))}
    type_in(page, thumb, {"#club-name": "Tuesday", **roster})
    details = open_house_rules(page, thumb)
    assert page.locator("#minimums-0-minimum").input_value() == "15"  # Classic's, at first
    assert not page.locator("#sevens_canasta").is_visible()
    page.select_option("#club-profile", label="Modern American (2 teams)")
    show = page.get_by_role("button", name="Show this variant's house rules")
    if javascript:
        assert not show.is_visible()  # the values follow the variant at once
    else:
        with page.expect_navigation():
            thumb.tap(show)
        details = open_house_rules(page, thumb)
        # Nothing saved, all that was typed kept.
        assert page.locator("#club-name").input_value() == "Tuesday"
        assert {box: page.locator(box).input_value() for box in roster} == roster
        assert page.locator("#club-profile").input_value() == "four-player"
    assert {box: page.locator(box).input_value() for box in AMERICAN_VALUES} == AMERICAN_VALUES
    assert page.locator("#sevens_canasta").is_visible()
    assert "Modern American (2 teams)" in details.locator(".rules-variant").inner_text()
    assert no_sideways_scroll(page)
    # The house rule "every wild canasta 2 000": two boxes changed, nothing else.
    retype(page, thumb, "#wild_four_jokers_canasta", "2000")
    retype(page, thumb, "#deuces_canasta", "2000")
    thumb.tap(page.get_by_role("button", name="Create the club"))
    expect(page.locator("h1.club-name")).to_have_text("Tuesday")
    club_id = page.url.split("#")[0].rstrip("/").rsplit("/", 1)[-1]
    club = page.request.get(f"{live_server}/api/clubs/{club_id}").json()
    assert club["family"] == "modern-american"
    assert club["settings"]["rules"] == {"wild_four_jokers_canasta": 2000, "deuces_canasta": 2000}
    assert errors == []


@pytest.mark.parametrize("javascript", [True, False], ids=["js", "nojs"])
def test_the_new_game_forms_house_rules_follow_the_variant_alike(
    make_page, live_server, javascript
):
    """The new-game form's editor behaves as the new-club form's: another variant brings its
    own values, a value the table typed stays (with the script and without it alike)."""
    page, thumb, errors = phone_at(make_page, live_server + "/games/new", javascript)
    type_in(page, thumb, {"#sides-0-players-0": "Ann"})
    open_house_rules(page, thumb)
    retype(page, thumb, "#going_out", "150")  # Classic's 100, and Modern American's
    page.select_option("#profile", label="Modern American (2 teams)")
    if not javascript:
        with page.expect_navigation():
            thumb.tap(page.get_by_role("button", name="Show the boxes for this seating"))
        assert page.locator("#sides-0-players-0").input_value() == "Ann"
    assert page.locator("#going_out").input_value() == "150"
    assert {box: page.locator(box).input_value() for box in AMERICAN_VALUES} == AMERICAN_VALUES
    details = page.locator("details.house-rules-form")
    # Open by itself without the script too: it holds a change.
    assert details.get_attribute("open") is not None
    assert "Modern American (2 teams)" in details.locator(".rules-variant").inner_text()
    others = {"#sides-0-players-1": "Bob", "#sides-1-players-0": "Cy", "#sides-1-players-1": "Di"}
    type_in(page, thumb, others)
    thumb.tap(page.get_by_role("button", name="Start the game"))
    page.wait_for_url(BOARD_URL)
    game_id = page.url.split("#")[0].rstrip("/").rsplit("/", 1)[-1]
    game = page.request.get(f"{live_server}/api/games/{game_id}").json()
    assert game["family"] == "modern-american"
    assert (game["house_rules"], game["rules"]["going_out"]) == (["going_out"], 150)
    assert errors == []
