"""Issue 32: an evening of Samba and one of Bolivia typed by a person on a phone at 360 x 780,
JavaScript on and off: the game chosen on the new-game form (a side named with 40
characters), a hand typed in the one-screen grid (its canastas by kind, red threes, Bolivia's
black threes in hand), a hand typed meld by meld with sequences (each by its suit, its first
and its last card; "Add a sequence" for a third), the preview's figures and the board's
totals checked against the core's own scoring of the same hands. Then the impossible hands
refused at their box, the form keeping what was typed, and the hand form at 200 % text.
"""

from __future__ import annotations

from typing import Any

import pytest
from phone import (
    BOARD_URL,
    Thumb,
    large_text,
    no_sideways_scroll,
    shoot,
    split_words,
    too_wide,
    wait_for_hand_form,
)
from playwright.sync_api import expect

from scorer.core.families import BOLIVIA, SAMBA, RuleFamily
from scorer.core.game import Side, Table, play
from scorer.core.hand_schema import box_name
from scorer.core.hands import Hand, SideHand
from scorer.core.meld import PlannedMeld, PlannedSequence
from scorer.core.rules import get_profile

WIDTH, HEIGHT = 360, 780
VARIANTS = {"samba": "Samba (2 teams, 3 packs)", "bolivia": "Bolivia (2 teams, 3 packs)"}
FAMILY = {"samba": SAMBA, "bolivia": BOLIVIA}
TARGET = {"samba": "10,000", "bolivia": "15,000"}
# A side's name as long as a name may be (40 characters).
LONG_NAME = "The Old Friends of the Thursday Canasta"[:39] + "s"
assert len(LONG_NAME) == 40


def canasta_box(family: RuleFamily, kind: str) -> str:
    """The hand form's box of a kind of canasta, as the family's hand schema names it."""
    return box_name(family.canasta_field(kind))


# Hand 1, typed in the grid: the side that went out made a natural canasta and a samba (an
# escalera in Bolivia), one red three; the other side melded 90 and holds 25 (and, in
# Bolivia, a black three: -100).
def grid_hand(key: str) -> tuple[dict[int, dict[str, str]], Hand]:
    family = FAMILY[key]
    seq = family.sequences.canasta if family.sequences else ""
    us = {"meld_points": "250", canasta_box(family, "natural"): "1", canasta_box(family, seq): "1"}
    us["red_threes"] = "1"
    them = {"meld_points": "90", "hand_points": "25"}
    black = {"black_threes_in_hand": 1} if family.black_three_in_hand else {}
    if black:
        them["black_threes_in_hand"] = "1"
    hand = Hand(
        sides=(
            SideHand(meld_points=250, canastas={"natural": 1, seq: 1}, red_threes=1, family=family),
            SideHand(meld_points=90, hand_points=25, family=family, **black),
        ),
        went_out=0,
    )
    return {0: us, 1: them}, hand


# Hand 2, meld by meld. Samba: hearts 4 to 10 (a samba), spades 9 to Q, diamonds 5 to 7 (the
# third row added), seven kings, three queens and a two, one red three, out; the other side
# eights 8 to J of spades, five nines and a joker, 30 in hand. Bolivia: clubs 5 to J (an
# escalera), a bolivia of two jokers and five twos (typed W), four aces, two red threes, out;
# the other side seven eights, diamonds 9 to K, two black threes in hand, 45 in hand, a red
# three.
MELD_HANDS: dict[str, dict[int, dict[str, Any]]] = {
    "samba": {
        0: {
            "sequences": [("H", "4", "10"), ("S", "9", "Q"), ("D", "5", "7")],
            "melds": [("K", "7", "", ""), ("Q", "3", "", "1")],
            "boxes": {"red_threes": "1"},
        },
        1: {
            "sequences": [("S", "8", "J")],
            "melds": [("9", "5", "1", "")],
            "boxes": {"hand_points": "30"},
        },
    },
    "bolivia": {
        0: {
            "sequences": [("C", "5", "J")],
            "melds": [("W", "", "2", "5"), ("A", "4", "", "")],
            "boxes": {"red_threes": "2"},
        },
        1: {
            "sequences": [("D", "9", "K")],
            "melds": [("8", "7", "", "")],
            "boxes": {"hand_points": "45", "black_threes_in_hand": "2", "red_threes": "1"},
        },
    },
}
SUITS = {"C": "clubs", "D": "diamonds", "H": "hearts", "S": "spades"}
RANKS = {"W": "wild"}


def meld_hand(key: str) -> Hand:
    """Hand 2 as the core reads it: what the form should send."""
    family = FAMILY[key]
    sides = []
    for side in (0, 1):
        typed = MELD_HANDS[key][side]
        melds = tuple(
            PlannedMeld(RANKS.get(rank, rank), int(n or 0), int(j or 0), int(t or 0))
            for rank, n, j, t in typed["melds"]
        )
        sequences = tuple(PlannedSequence(SUITS[s], a, b) for s, a, b in typed["sequences"])
        boxes = {name: int(value) for name, value in typed["boxes"].items()}
        sides.append(SideHand(melds=melds, sequences=sequences, family=family, **boxes))
    return Hand(sides=tuple(sides), went_out=0)


def core_totals(key: str, hands: list[Hand]) -> list[int]:
    """The totals the core gives these hands in a game of the family."""
    profile = get_profile(None, key)
    table = Table(
        sides=(Side(LONG_NAME, ("Ann", "Bob")), Side("Cy & Dee", ("Cy", "Dee"))),
        profile=profile,
    )
    return list(play(table, hands).totals)


def start(page: Any, thumb: Thumb, live_server: str, key: str, javascript: bool) -> None:
    """The new-game form as a person fills it: the variant, four players, a long side name."""
    page.goto(live_server + "/games/new")
    page.select_option("#profile", label=VARIANTS[key])
    if not javascript:  # the seats and house rules of the chosen variant, shown by the server
        with page.expect_navigation():
            thumb.tap(page.get_by_role("button", name="Show the boxes for this seating"))
    for box, name in (
        ("#sides-0-players-0", "Ann"),
        ("#sides-0-players-1", "Bob"),
        ("#sides-0-name", LONG_NAME),
        ("#sides-1-players-0", "Cy"),
        ("#sides-1-players-1", "Dee"),
    ):
        thumb.tap(page.locator(box))
        thumb.type(name)
    assert no_sideways_scroll(page)
    thumb.tap(page.get_by_role("button", name="Start the game"))
    page.wait_for_url(BOARD_URL)


def open_hand(page: Any, thumb: Thumb, javascript: bool) -> None:
    """The first side's record button: it went out."""
    thumb.tap(page.locator(".record-buttons a", has_text=LONG_NAME))
    page.wait_for_url("**/hands/new?out=*")
    if javascript:
        wait_for_hand_form(page)


def fill(page: Any, thumb: Thumb, side: int, boxes: dict[str, str]) -> None:
    """Tap each box and type its keys; a tap that met the page still scrolling (a box the
    preview just locked moves the rows under it) is tapped again, as a person would."""
    for name, text in boxes.items():
        box = page.locator(f"#sides-{side}-{name}")
        box.scroll_into_view_if_needed()
        for _attempt in range(3):
            thumb.tap(box)
            if box.evaluate("el => el === document.activeElement"):
                break
        expect(box).to_be_focused()
        thumb.type(text)
        if box.input_value() != text:  # the keys met the page busy: a person types again
            page.wait_for_timeout(500)
            box.fill("")
            thumb.tap(box)
            thumb.type(text)
        expect(box).to_have_value(text)


def type_melds(page: Any, thumb: Thumb, key: str, javascript: bool) -> None:
    """Each side's sequences and melds, row by row, in the meld-by-meld counter."""
    thumb.tap(page.locator("[data-other-ways] > summary"))
    for side, typed in MELD_HANDS[key].items():
        tools = page.locator(f'[data-tools="{side}"]')
        thumb.tap(tools.locator('[data-counter="melds"] > summary'))
        # Two sequence rows are offered; "Add a sequence" brings a third.
        assert tools.locator("[data-sequence-row]").count() == 2
        for j, (rank, naturals, jokers, twos) in enumerate(typed["melds"]):
            prefix = f"melds-{j}-"
            boxes = {"rank": rank, "naturals": naturals, "jokers": jokers, "twos": twos}
            fill(page, thumb, side, {prefix + k: v for k, v in boxes.items() if v})
        for j, (suit, first, last) in enumerate(typed["sequences"]):
            if j >= 2:
                add = tools.get_by_role("button", name="Add a sequence")
                if javascript:
                    thumb.tap(add)
                else:
                    with page.expect_navigation():
                        thumb.tap(add)
                    page.wait_for_load_state("load")
            prefix = f"sequences-{j}-"
            fill(page, thumb, side, {prefix + "suit": suit, prefix + "first": first})
            fill(page, thumb, side, {prefix + "last": last})
    for side, typed in MELD_HANDS[key].items():
        fill(page, thumb, side, typed["boxes"])


def board_totals(page: Any) -> list[str]:
    return page.locator(".side-total .total").all_inner_texts()


def shown(total: int) -> str:
    return f"{total:,}".replace("-", "\u2212")


def preview(hand_totals: list[int]) -> str:
    return "|".join(("+" if t > 0 else "") + shown(t) for t in hand_totals)


def wait_for_preview(page: Any, hand_totals: list[int]) -> None:
    """The preview shows the hand's totals (the server's dry run of what was typed)."""
    want = preview(hand_totals)
    try:
        page.wait_for_function(
            """(want) => [...document.querySelectorAll('output[data-preview-for]')]
                .map(o => o.textContent).join('|') === want""",
            arg=want,
        )
    except Exception:  # say what the preview showed instead
        outputs = page.locator("output[data-preview-for]").all_text_contents()
        verdict = page.locator("[data-verdict]").text_content()
        typed = page.locator("#hand-form input:not([type=hidden])").evaluate_all(
            "els => els.filter(e => e.value && e.type !== 'radio').map(e => e.id + '=' + e.value)"
        )
        shoot(page, None, "preview-refused")
        raise AssertionError(f"preview {outputs} ({verdict}), not {want}; {typed}") from None


@pytest.mark.parametrize("javascript", [True, False], ids=["js", "no-js"])
@pytest.mark.parametrize("key", ["samba", "bolivia"])
def test_an_evening_typed_on_a_phone(
    make_page: Any, live_server: str, key: str, javascript: bool
) -> None:
    page = make_page(width=WIDTH, height=HEIGHT, javascript=javascript)
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    thumb = Thumb(page)
    family = FAMILY[key]
    start(page, thumb, live_server, key, javascript)
    head = page.locator(".page-head").inner_text()
    assert VARIANTS[key].split(" (")[0] in head and TARGET[key] in head
    assert page.locator(".side-total .minimum strong").all_inner_texts() == ["50", "50"]

    # Hand 1: the family's rows of the grid, from its hand schema.
    open_hand(page, thumb, javascript)
    for kind in family.kinds:
        assert page.locator(f"#sides-0-{canasta_box(family, kind)}").count() == 1, kind
    assert page.locator("#sides-0-black_threes_in_hand").count() == (key == "bolivia")
    typed, first = grid_hand(key)
    for side, boxes in typed.items():
        fill(page, thumb, side, boxes)
    assert no_sideways_scroll(page)
    after_one = core_totals(key, [first])
    if javascript:
        wait_for_preview(page, after_one)
    shoot(page, None, f"{key}-grid-{'js' if javascript else 'no-js'}")
    thumb.tap(page.get_by_role("button", name="Save hand"))
    page.wait_for_url(BOARD_URL)
    assert board_totals(page) == [shown(t) for t in after_one]

    # Hand 2: meld by meld, sequences by suit and their first and last card.
    open_hand(page, thumb, javascript)
    type_melds(page, thumb, key, javascript)
    assert no_sideways_scroll(page)
    second = meld_hand(key)
    after_two = core_totals(key, [first, second])
    if javascript:
        wait_for_preview(page, [b - a for a, b in zip(after_one, after_two, strict=True)])
    shoot(page, None, f"{key}-melds-{'js' if javascript else 'no-js'}")
    thumb.tap(page.locator(".form-actions button.big"))
    page.wait_for_url(BOARD_URL)
    assert board_totals(page) == [shown(t) for t in after_two]
    assert no_sideways_scroll(page)
    shoot(page, None, f"{key}-board-{'js' if javascript else 'no-js'}")
    assert errors == []


def bolivia_game(page: Any, live_server: str, key: str = "bolivia") -> str:
    sides = [{"name": LONG_NAME, "players": ["Ann", "Bob"]}, {"players": ["Cy", "Dee"]}]
    made = page.request.post(f"{live_server}/api/games", data={"sides": sides, "family": key})
    assert made.status == 201, made.text()
    return made.json()["id"]


def save_refused(page: Any, thumb: Thumb, box: str, words: str) -> None:
    """Save; the page comes back with the refusal under ``box`` (in the grid's list of
    refusals for a box of the grid), nothing saved."""
    with page.expect_navigation():
        thumb.tap(page.get_by_role("button", name="Save hand"))
    page.wait_for_load_state("load")
    assert "/hands/new" in page.url
    error = page.locator(f"#{box}-error")
    expect(error).to_contain_text(words)
    assert page.locator(f"#{box}").get_attribute("aria-invalid") == "true"


@pytest.mark.parametrize("javascript", [True, False], ids=["js", "no-js"])
def test_impossible_hands_are_refused_at_their_box(
    make_page: Any, live_server: str, javascript: bool
) -> None:
    page = make_page(width=WIDTH, height=HEIGHT, javascript=javascript)
    thumb = Thumb(page)
    game_id = bolivia_game(page, live_server)
    new_hand = f"{live_server}/games/{game_id}/hands/new?out=0"

    def fresh() -> None:
        page.goto(new_hand)
        if javascript:
            wait_for_hand_form(page)
        fill(page, thumb, 1, {"meld_points": "90", "hand_points": "25"})

    def melds_open(side: int = 0) -> None:
        ways = page.locator("[data-other-ways]")
        if ways.get_attribute("open") is None:
            thumb.tap(ways.locator("> summary"))
        counter = page.locator(f'[data-tools="{side}"] [data-counter="melds"]')
        if counter.get_attribute("open") is None:
            thumb.tap(counter.locator("> summary"))

    # A sequence with a wild card: refused at its wild-card box, the row kept as typed.
    fresh()
    melds_open()
    fill(page, thumb, 0, {"melds-0-rank": "K", "melds-0-naturals": "7"})
    row = {"sequences-0-suit": "H", "sequences-0-first": "4", "sequences-0-last": "10"}
    fill(page, thumb, 0, {**row, "sequences-0-jokers": "1"})
    save_refused(page, thumb, "sides-0-sequences-0-jokers", "no wild card")
    for name, text in {**row, "sequences-0-jokers": "1"}.items():
        assert page.locator(f"#sides-0-{name}").input_value() == text, name
    assert no_sideways_scroll(page)

    # An eighth card on an escalera: 4 up to the jack is eight cards.
    page.locator("#sides-0-sequences-0-jokers").fill("")
    page.locator("#sides-0-sequences-0-last").fill("")
    fill(page, thumb, 0, {"sequences-0-last": "J"})
    save_refused(page, thumb, "sides-0-sequences-0-last", "at most seven cards")
    assert page.locator("#sides-0-sequences-0-last").input_value() == "J"

    # Going out in Bolivia without an escalera: two natural canastas are not enough.
    fresh()
    natural = canasta_box(BOLIVIA, "natural")
    fill(page, thumb, 0, {"meld_points": "200", natural: "2"})
    save_refused(page, thumb, f"sides-0-{canasta_box(BOLIVIA, 'escalera')}", "escalera")
    assert page.locator(f"#sides-0-{natural}").input_value() == "2"

    # More than six red threes (three packs hold six).
    fresh()
    escalera = canasta_box(BOLIVIA, "escalera")
    fill(page, thumb, 0, {"meld_points": "200", natural: "1", escalera: "1", "red_threes": "7"})
    save_refused(page, thumb, "sides-0-red_threes", "6")
    assert page.locator("#sides-0-red_threes").input_value() == "7"
    assert no_sideways_scroll(page)
    shoot(page, None, f"bolivia-refused-{'js' if javascript else 'no-js'}")
    # Nothing was saved.
    assert page.request.get(f"{live_server}/api/games/{game_id}/export").json()["hands"] == []


@pytest.mark.parametrize("key", ["samba", "bolivia"])
def test_the_hand_form_of_a_family_with_sequences_at_200_percent(
    make_page: Any, live_server: str, key: str
) -> None:
    """Both sides filled, meld by meld open, a 40-character side name: at 200 % text nothing
    is wider than the screen and no word or number is split."""
    page = make_page(width=WIDTH, height=HEIGHT, javascript=False)
    large_text(page)
    thumb = Thumb(page)
    game_id = bolivia_game(page, live_server, key)
    page.goto(f"{live_server}/games/{game_id}/hands/new?out=0")
    type_melds(page, thumb, key, javascript=False)
    page.locator("details").evaluate_all("els => els.forEach(d => d.open = true)")
    shoot(page, None, f"{key}-hand-200")
    assert too_wide(page) == []
    assert split_words(page) == []


@pytest.mark.parametrize("javascript", [True, False], ids=["js", "no-js"])
def test_samba_house_rules_on_the_new_game_form(
    make_page: Any, live_server: str, javascript: bool
) -> None:
    """Samba chosen: its ways of playing (red threes against a side short of its canastas)
    and its minimum table come with it, and Bicycle's 160 for the 7 000 row is typed there."""
    page = make_page(width=WIDTH, height=HEIGHT, javascript=javascript)
    thumb = Thumb(page)
    page.goto(live_server + "/games/new")
    page.select_option("#profile", label=VARIANTS["samba"])
    if not javascript:
        with page.expect_navigation():
            thumb.tap(page.get_by_role("button", name="Show the boxes for this seating"))
    rules = page.locator("details.house-rules-form")
    if rules.get_attribute("open") is None:
        thumb.tap(rules.locator("> summary"))
    chips = rules.locator("label.chip:visible", has=page.locator("[name=red_threes_count_against]"))
    assert [t.strip() for t in chips.all_inner_texts()] == [
        "a side that melded nothing",
        "a side without the canastas to go out",
    ]
    checked = rules.locator("input[name=red_threes_count_against]:checked")
    assert checked.input_value() == "too_few_canastas"
    assert page.locator("#samba_canasta").input_value() == "1500"
    assert page.locator("#minimums-4-start").input_value() == "7000"
    assert page.locator("#minimums-4-minimum").input_value() == "150"
    page.locator("#minimums-4-minimum").fill("")
    thumb.tap(page.locator("#minimums-4-minimum"))
    thumb.type("160")
    assert no_sideways_scroll(page)
    for box, name in (
        ("#sides-0-players-0", "Ann"),
        ("#sides-0-players-1", "Bob"),
        ("#sides-1-players-0", "Cy"),
        ("#sides-1-players-1", "Dee"),
    ):
        thumb.tap(page.locator(box))
        thumb.type(name)
    thumb.tap(page.get_by_role("button", name="Start the game"))
    page.wait_for_url(BOARD_URL)
    shown_rules = page.locator(".house-rules dl").inner_text()
    assert "Opening minimums" in shown_rules and "from 7,000: 160" in shown_rules
    assert "Red threes count against" not in shown_rules  # the book's own way
