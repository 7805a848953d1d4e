"""Score sheets as PDF: real games in SQLite, real WeasyPrint PDFs read back with pdfplumber.

Expected scores are computed here from the rule book (docs/rules.md), not taken from the engine.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass
from io import BytesIO
from pathlib import Path

import pdfplumber
import pytest
from flask import Flask
from flask.testing import FlaskClient

from scorer import ROOT, store
from scorer.core.game import Side
from scorer.core.hands import Hand, SideHand
from scorer.sheets.render import LocalOnlyFetcher
from scorer.store.db import get_db

A4 = (595.3, 841.9)  # points
LETTER = (612.0, 792.0)
GROUP_SEPARATORS = ("\u202f", "\xa0", " ")
# Cells from ruled lines only: shaded backgrounds would add phantom columns.
STRICT = {"vertical_strategy": "lines_strict", "horizontal_strategy": "lines_strict"}

US_THEM = [Side("Us", ("Ann", "Bob")), Side("Them", ("Cat", "Dan"))]
SOLO_3 = [Side("Eve", ("Eve",)), Side("Fay", ("Fay",)), Side("Gus", ("Gus",))]


# --- the rule book, computed independently -------------------------------------------------


def red_threes_points(count: int, melded: int) -> int:
    """100 each, 800 for all four; against a side that melded nothing."""
    value = 800 if count == 4 else 100 * count
    return -value if melded == 0 else value


def opening_minimum(total: int, target: int) -> int:
    """The minimum table; a target of 10 000 or more adds "7 500 and more: 150"."""
    if target >= 10000 and total >= 7500:
        return 150
    if total < 0:
        return 15
    if total < 1500:
        return 50
    if total < 3000:
        return 90
    return 120


@dataclass(frozen=True)
class Expected:
    minimum: int
    cards: int
    canastas: int
    red_threes: int
    going_out: int | None
    concealed: bool
    hand: int
    score: int
    total: int


def expected_sheet(hands: list[Hand], target: int = 5000) -> list[list[Expected]]:
    """Every hand's line for every side, as the rule book scores it."""
    totals = [0] * len(hands[0].sides)
    lines = []
    for hand in hands:
        line = []
        for i, side in enumerate(hand.sides):
            going_out = None
            if hand.went_out == i:
                going_out = 200 if hand.concealed else 100
            canastas = 500 * side.natural_canastas + 300 * side.mixed_canastas
            red = red_threes_points(side.red_threes, side.meld_points)
            score = side.meld_points + canastas + red + (going_out or 0) - side.hand_points
            minimum = opening_minimum(totals[i], target)
            totals[i] += score
            line.append(
                Expected(
                    minimum,
                    side.meld_points,
                    canastas,
                    red,
                    going_out,
                    hand.concealed and going_out is not None,
                    -side.hand_points,
                    score,
                    totals[i],
                )
            )
        lines.append(line)
    return lines


def varied_hand(sides: int, i: int, *, out_every: int = 1) -> Hand:
    """A valid hand that changes with i: going out, concealed, stock out, red-three penalty."""
    went = i % sides if i % out_every == 0 and i % 7 != 3 else None
    concealed = went is not None and i % 6 == 1
    calls = []
    for s in range(sides):
        if s == went:
            mixed = i % 2
            calls.append(
                SideHand(
                    meld_points=90 + 5 * (i % 9) if mixed else 40 + 5 * (i % 9),
                    natural_canastas=1,
                    mixed_canastas=mixed,
                    red_threes=4 if i % 10 == 5 else (1 if i % 4 == 0 else 0),
                    hand_points=0,
                )
            )
        elif (i + s) % 5 == 2 and i % 10 != 5:
            calls.append(SideHand(meld_points=0, red_threes=1, hand_points=45))
        else:
            calls.append(SideHand(meld_points=30 + 5 * ((i + s) % 6), hand_points=5 * (i * s % 8)))
    return Hand(tuple(calls), went_out=went, concealed=concealed)


CRAFTED = [
    # Natural canasta, a red three, out normally: 120 + 500 + 100 + 100 = 820; 85 - 40 = 45.
    Hand(
        (
            SideHand(meld_points=120, natural_canastas=1, red_threes=1),
            SideHand(meld_points=85, hand_points=40),
        ),
        went_out=0,
    ),
    # Nothing melded: two red threes count against (-200 - 65); concealed out scores 200.
    Hand(
        (
            SideHand(meld_points=0, red_threes=2, hand_points=65),
            SideHand(meld_points=200, natural_canastas=1, mixed_canastas=1, red_threes=1),
        ),
        went_out=1,
        concealed=True,
    ),
    # Stock out, all four red threes (800) for a side with melds but no canasta.
    Hand(
        (
            SideHand(meld_points=150, red_threes=4, hand_points=15),
            SideHand(meld_points=90, hand_points=30),
        )
    ),
    Hand(
        (
            SideHand(meld_points=70, hand_points=120),
            SideHand(meld_points=310, natural_canastas=2, red_threes=0),
        ),
        went_out=1,
    ),
    Hand(
        (
            SideHand(meld_points=455, natural_canastas=1, mixed_canastas=2, red_threes=1),
            SideHand(meld_points=0, hand_points=230),
        ),
        went_out=0,
    ),
]


# --- helpers ---------------------------------------------------------------------------------


def new_game(
    app: Flask,
    hands: list[Hand],
    *,
    sides: list[Side] = US_THEM,
    profile: str = "classic",
    target: int | None = None,
    name: str = "Friday at the club",
    house_rules: dict | None = None,
) -> str:
    with app.app_context():
        db = get_db()
        game_id = store.create_game(
            db, name=name, profile_key=profile, target=target, sides=sides, house_rules=house_rules
        )
        for hand in hands:
            store.record_hand(db, game_id, hand)
        return game_id


def get_pdf(client: FlaskClient, url: str, **headers: str) -> bytes:
    response = client.get(url, headers=headers)
    assert response.status_code == 200, response.data[:500]
    assert response.mimetype == "application/pdf"
    assert response.data.startswith(b"%PDF")
    return response.data


def pages_text(data: bytes) -> list[str]:
    with pdfplumber.open(BytesIO(data)) as pdf:
        return [page.extract_text() or "" for page in pdf.pages]


def page_sizes(data: bytes) -> list[tuple[float, float]]:
    with pdfplumber.open(BytesIO(data)) as pdf:
        return [(float(page.width), float(page.height)) for page in pdf.pages]


Row = list[str | None]


@functools.lru_cache(maxsize=8)
def page_rows(data: bytes) -> tuple[tuple[Row, ...], ...]:
    """Each page's table rows (every ruled table on it), read once per PDF."""
    with pdfplumber.open(BytesIO(data)) as pdf:
        return tuple(
            tuple(row for table in page.extract_tables(STRICT) for row in table)
            for page in pdf.pages
        )


def grid_rows(data: bytes, sides: int) -> dict[int, list[list[str]]]:
    """Hand number -> each side's 8 cells, from every score table on every page."""
    rows: dict[int, list[list[str]]] = {}
    for page in page_rows(data):
        for row in page:
            match = re.match(r"(\d+)", row[0] or "")
            if match and len(row) == 1 + 8 * sides:
                cells = [cell or "" for cell in row[1:]]
                number = int(match.group(1))
                assert number not in rows, f"hand {number} printed twice"
                rows[number] = [cells[8 * s : 8 * s + 8] for s in range(sides)]
    return rows


def dealers(data: bytes) -> dict[int, str]:
    """Hand number -> the dealer's name printed next to it."""
    found = {}
    for page in page_rows(data):
        for row in page:
            match = re.match(r"(\d+)[*†]*\s*(.*)", (row[0] or "").replace("\n", " "))
            if match and len(row) > 8:
                found[int(match.group(1))] = match.group(2).strip()
    return found


def number(text: str) -> int:
    """A printed score back to an int: grouping in either language, true or ASCII minus."""
    cleaned = text.strip().replace("\u2212", "-").replace(",", "")
    for separator in GROUP_SEPARATORS:
        cleaned = cleaned.replace(separator, "")
    return int(cleaned)


def check_rows(printed: dict[int, list[list[str]]], expected: list[list[Expected]]) -> None:
    assert sorted(printed) == list(range(1, len(expected) + 1))
    for hand_number, line in enumerate(expected, start=1):
        stock_out = all(side.going_out is None for side in line)
        for cells, want in zip(printed[hand_number], line, strict=True):
            where = f"hand {hand_number}: {cells}"
            minimum, cards, canastas, red, out, hand, score, total = cells
            assert number(minimum) == want.minimum, where
            assert number(cards) == want.cards, where
            assert number(canastas) == want.canastas, where
            assert number(red) == want.red_threes, where
            assert number(hand) == want.hand, where
            assert number(score) == want.score, where
            assert number(total) == want.total, where
            out = out.replace("\n", "").strip()
            if want.going_out is None:
                assert out == ("–" if stock_out else ""), where
            else:
                assert out == f"{want.going_out}{'C' if want.concealed else ''}", where


# --- the game's sheet ------------------------------------------------------------------------


def test_every_hand_and_running_total_matches_the_rule_book(app, client):
    game_id = new_game(app, CRAFTED)
    data = get_pdf(client, f"/games/{game_id}/sheet.pdf")
    expected = expected_sheet(CRAFTED)
    check_rows(grid_rows(data, 2), expected)
    # Hand by hand the totals are: 820/45, 555/1345, 1490/1405, 1440/2815, 3195/2585.
    assert [side.total for side in expected[-1]] == [3195, 2585]
    assert [side.minimum for side in expected[-1]] == [50, 90]
    # Dealing passes to the left around Ann, Cat, Bob, Dan (partners sit apart).
    assert dealers(data) == {1: "Ann", 2: "Cat", 3: "Bob", 4: "Dan", 5: "Ann"}


def test_sheet_shows_the_game_the_sides_and_the_outcome(app, client):
    game_id = new_game(app, CRAFTED, house_rules={"going_out": 150}, target=10000)
    text = "\n".join(pages_text(get_pdf(client, f"/games/{game_id}/sheet.pdf")))
    assert "Friday at the club" in text
    for player in ("Ann", "Bob", "Cat", "Dan"):
        assert player in text
    assert "10,000" in text
    assert "Going-out bonus 150" in text
    assert "In progress" in text
    # Next hand: Cat deals; minimums from 3 195 and 2 585.
    assert "Cat deals" in text
    assert "Us 120, Them 90" in text


def test_winner_and_tie_are_stated(app, client):
    big = Hand(
        (
            SideHand(meld_points=500, natural_canastas=2, mixed_canastas=2, red_threes=4),
            SideHand(meld_points=560, hand_points=20),
        ),
        went_out=0,
    )
    # 500 + 1000 + 600 + 800 + 100 = 3000 and 540 a hand: 5 000 is reached at hand 2.
    game_id = new_game(app, [big, big], name="Won")
    text = "\n".join(pages_text(get_pdf(client, f"/games/{game_id}/sheet.pdf")))
    assert "Winner: Us with 6,000 points" in text

    mirror = Hand(tuple(reversed(big.sides)), went_out=1)
    # 3000 + 540 each after two hands, with a target of 3 500: tied on top.
    tied = new_game(app, [big, mirror], name="Tied", target=3500)
    text = "\n".join(pages_text(get_pdf(client, f"/games/{tied}/sheet.pdf")))
    assert "one more hand" in text
    assert "Winner" not in text


def test_three_sides_fit_across_landscape_paper(app, client):
    """24 columns of 8pt numbers need more than portrait's 186 mm: the paper is turned."""
    hands = [varied_hand(3, i) for i in range(12)]
    game_id = new_game(app, hands, sides=SOLO_3, profile="three-player")
    data = get_pdf(client, f"/games/{game_id}/sheet.pdf")
    width, height = page_sizes(data)[0]
    assert (width, height) == pytest.approx(tuple(reversed(A4)), abs=1)
    expected = expected_sheet(hands)
    assert any(side.minimum == 15 for line in expected for side in line)  # a negative total
    check_rows(grid_rows(data, 3), expected)
    with pdfplumber.open(BytesIO(data)) as pdf:
        for page in pdf.pages:
            for char in page.chars:
                assert char["x1"] <= page.width - 15, "text runs into the right margin"
                if char["text"] != "C":  # the concealed mark is a superscript
                    assert char["size"] >= 7.9, f"{char['text']!r} smaller than 8pt"


def test_page_count_grows_and_every_page_has_header_and_page_number(app, client, caplog):
    short = new_game(app, [varied_hand(2, i) for i in range(5)])
    assert len(pages_text(get_pdf(client, f"/games/{short}/sheet.pdf"))) == 1

    hands = [varied_hand(2, i, out_every=4) for i in range(60)]
    long_game = new_game(app, hands, target=20000, name="Marathon")
    data = get_pdf(client, f"/games/{long_game}/sheet.pdf")
    # Rows with a mark (C) are as high as the others: the pages came out as planned.
    assert "paged wrongly" not in caplog.text
    texts = pages_text(data)
    assert len(texts) >= 2
    for index, text in enumerate(texts, start=1):
        assert f"page {index} of {len(texts)}" in text
        assert "Marathon" in text  # the footer names the game on every page
    for number, rows in enumerate(page_rows(data), start=1):
        labels = [row for row in rows if row[1] == "Min"]
        assert labels, f"no column header on page {number}"
        assert "Score" in labels[0] and "Total" in labels[0]
        assert any("Them" in row for row in rows), f"no side names on page {number}"
    # No hand is lost or split between pages: every row is whole, once.
    check_rows(grid_rows(data, 2), expected_sheet(hands, target=20000))


def test_paper_size_a4_by_default_and_letter_on_request(app, client):
    game_id = new_game(app, CRAFTED)
    a4 = page_sizes(get_pdf(client, f"/games/{game_id}/sheet.pdf"))[0]
    letter = page_sizes(get_pdf(client, f"/games/{game_id}/sheet.pdf?paper=letter"))[0]
    assert a4 == pytest.approx(A4, abs=1)
    assert letter == pytest.approx(LETTER, abs=1)
    response = client.get(f"/games/{game_id}/sheet.pdf?paper=a3")
    assert response.status_code == 400
    assert b"paper" in response.data


def test_thousands_grouped_as_the_language_does(app, client):
    game_id = new_game(app, CRAFTED)
    english = grid_rows(get_pdf(client, f"/games/{game_id}/sheet.pdf"), 2)
    assert english[5][0][7] == "3,195"
    french = grid_rows(
        get_pdf(client, f"/games/{game_id}/sheet.pdf", **{"Accept-Language": "fr"}), 2
    )
    total = french[5][0][7]
    assert "," not in total
    assert total in {f"3{sep}195" for sep in GROUP_SEPARATORS}
    assert number(french[2][0][6]) == -265


def test_download_name_has_the_game_name_and_date(app, client):
    game_id = new_game(app, CRAFTED, name="Jeudi à l'Étoile!")
    with app.app_context():
        day = store.load_game(get_db(), game_id).created_at[:10]
    response = client.get(f"/games/{game_id}/sheet.pdf")
    disposition = response.headers["Content-Disposition"]
    assert f'filename="canasta-jeudi-a-l-etoile-{day}.pdf"' in disposition


def test_names_are_printed_as_text_never_as_markup(app, client):
    sides = [Side("<i>Us</i>", ("<script>x()</script>", "Bob")), Side("Them", ("Cat", "Dan"))]
    game_id = new_game(app, CRAFTED[:2], sides=sides, name="<script>alert(1)</script>")
    text = "\n".join(pages_text(get_pdf(client, f"/games/{game_id}/sheet.pdf")))
    assert "<script>alert(1)</script>" in text
    assert "<i>Us</i>" in text
    assert "<script>x()</script>" in text


def test_unknown_game_is_404(client):
    response = client.get("/games/no-such-game/sheet.pdf")
    assert response.status_code == 404
    assert response.mimetype == "text/html"


def test_four_sides_print_as_two_tables_of_two(app, client):
    sides = [Side(name, (name,)) for name in ("Hal", "Ida", "Jo", "Kim")]
    hands = [varied_hand(4, i) for i in range(3)]
    game_id = new_game(app, hands, sides=sides)
    data = get_pdf(client, f"/games/{game_id}/sheet.pdf")
    assert "every player for themselves" in "".join(pages_text(data))
    rows = [
        row for page in page_rows(data) for row in page if re.fullmatch(r"\d+\D*", row[0] or "")
    ]
    assert all(len(row) == 1 + 8 * 2 for row in rows)
    expected = expected_sheet(hands)
    # Hal and Ida's table first, then Jo and Kim's, each with every hand.
    for row, line, (left, right) in zip(
        rows, expected + expected, [(0, 1)] * 3 + [(2, 3)] * 3, strict=True
    ):
        assert [number(row[8]), number(row[16])] == [line[left].total, line[right].total]


# --- the blank sheet -------------------------------------------------------------------------


def test_blank_sheet_prints_the_reference_box_and_an_empty_grid(client):
    data = get_pdf(client, "/sheets/blank.pdf?sides=2&names=Us,Them")
    texts = pages_text(data)
    assert len(texts) == 1
    text = texts[0]
    # The opening-minimum table of the rule book, row by row.
    for line in ("below 0 15", "0 to 1,495 50", "1,500 to 2,995 90", "3,000 and more 120"):
        assert line in text
    for line in ("Jokers 50", "Aces, twos 20", "K to 8 10", "7 to 3 5"):
        assert line in text
    for line in ("Natural canasta 500", "Mixed canasta 300", "All 4 red threes 800"):
        assert line in text
    assert "Us" in text and "Them" in text
    with pdfplumber.open(BytesIO(data)) as pdf:
        rows = [
            r
            for t in pdf.pages[0].extract_tables(STRICT)
            for r in t
            if re.fullmatch(r"\d+", r[0] or "") and len(r) == 2 + 6 * 2
        ]
    assert len(rows) >= 20
    assert all(cell in ("", None) for row in rows for cell in row[1:])


def test_blank_sheet_for_three_sides_on_letter(client):
    data = get_pdf(client, "/sheets/blank.pdf?sides=3&paper=letter")
    assert page_sizes(data) == [pytest.approx(tuple(reversed(LETTER)), abs=1)]  # landscape
    with pdfplumber.open(BytesIO(data)) as pdf:
        rows = [r for t in pdf.pages[0].extract_tables(STRICT) for r in t if len(r) == 2 + 6 * 3]
    assert len(rows) >= 12
    assert "7,500" in pages_text(data)[0]  # the three-player target


BLANK_SEATINGS = [
    # sides, seating, players named, red threes, target, minimum row from 7 500, going out
    (2, "", "4 players in 2 teams of 2", "All 4 red threes 800", "5,000", False, 1),
    (2, "alone", "2 players, each on their own", "All 4 red threes 800", "5,000", False, 2),
    (2, "3-2", "5 players: a team of 3 and a team of 2", "All 4 red threes 800", "5,000", False, 1),
    (2, "3-3", "6 players in 2 teams of 3", "All 6 red threes 1,200", "10,000", True, 2),
    (3, "", "3 players, each on their own", "All 4 red threes 800", "7,500", False, 1),
    (3, "teams", "6 players in 3 teams of 2", "All 6 red threes 1,200", "7,500", False, 2),
    (4, "", "4 players, each on their own", "All 4 red threes 800", "5,000", False, 1),
    (5, "alone", "5 players, each on their own", "All 4 red threes 800", "5,000", False, 1),
    (6, "", "6 players, each on their own", "All 6 red threes 1,200", "7,500", False, 2),
]


@pytest.mark.parametrize(
    ("sides", "seating", "seats", "reds", "target", "high", "canastas"), BLANK_SEATINGS
)
def test_blank_sheets_for_every_seating(
    client, sides, seating, seats, reds, target, high, canastas
):
    """2 to 6 sides, each seating with its variant's red threes, minimums and target."""
    paper = "letter" if sides % 2 else "a4"
    data = get_pdf(client, f"/sheets/blank.pdf?sides={sides}&seating={seating}&paper={paper}")
    text = " ".join(pages_text(data)[0].split())
    assert len(pages_text(data)) == 1
    assert seats in text and reds in text and f"target {target}" in text
    assert ("7,500 and more 150" in text) is high
    assert f"Going out takes {canastas} canasta" in text
    per_side = 6 if sides <= 3 else 3
    with pdfplumber.open(BytesIO(data)) as pdf:
        rows = [
            r
            for t in pdf.pages[0].extract_tables(STRICT)
            for r in t
            if re.fullmatch(r"\d+", r[0] or "") and len(r) == 2 + per_side * sides
        ]
    assert len(rows) >= 12


# The seatings of every other game (docs/rules.md §5a-§5c): two teams of two only, no one
# alone, each under its family's name.
OTHER_SEATINGS = {
    "modern-american": ("Modern American Canasta", [(2, "2-2")]),
    "samba": ("Samba", [(2, "2-2")]),
    "bolivia": ("Bolivia", [(2, "2-2")]),
}


def test_blank_sheets_page_links_every_seating_on_a4_and_letter(client):
    page = client.get("/sheets").get_data(as_text=True)
    for _sides, _seating, seats, *_rest in BLANK_SEATINGS:
        assert seats in page
    links = re.findall(r'href="(/sheets/blank\.pdf\?[^"]+)"', page)
    every = len(BLANK_SEATINGS) + sum(len(seats) for _name, seats in OTHER_SEATINGS.values())
    assert len(links) == 2 * every
    assert sum("paper=letter" in link for link in links) == every
    for link in links[:4]:
        assert client.get(link.replace("&amp;", "&")).status_code == 200
    # Every game a table may choose has its sheets, under its name.
    for family, (name, seatings) in OTHER_SEATINGS.items():
        assert "<h2 id=" in page and f">{name}</h2>" in page, family
        own = [link for link in links if f"family={family}" in link]
        expected = [
            f"/sheets/blank.pdf?sides={sides}&amp;seating={key}&amp;family={family}{paper}"
            for sides, key in seatings
            for paper in ("", "&amp;paper=letter")
        ]
        assert own == expected, family
        for link in own:
            assert client.get(link.replace("&amp;", "&")).status_code == 200
    for path in ("/", "/games/new"):
        assert 'href="/sheets"' in client.get(path).get_data(as_text=True)


@pytest.mark.parametrize(
    ("family", "words"),
    [
        (
            "samba",
            (
                "Samba (2 teams, 3 packs): 4 players in 2 teams of 2",
                "target 10,000",
                "7,000 and more 150",
                "Samba (seven of one suit in sequence) 1,500",
                "All 6 red threes 1,000",
                "Going out 200",
            ),
        ),
        (
            "bolivia",
            (
                "target 15,000",
                "Escalera (seven of one suit in sequence) 1,500",
                "Bolivia (seven wild cards) 2,500",
                "Each black three in hand −100",
            ),
        ),
    ],
)
def test_a_three_pack_blank_sheet(client, family, words):
    """Samba's and Bolivia's numbers (§5b, §5c) on one page: the kinds of canasta, the
    minimum table's 7 000 row, and Bolivia's black threes left in hand."""
    texts = pages_text(get_pdf(client, f"/sheets/blank.pdf?family={family}&names=Us,Them"))
    assert len(texts) == 1
    text = " ".join(texts[0].split())
    for expected in words:
        assert expected in text, expected
    assert "Canasta of sevens" not in text


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_a_modern_american_blank_sheet(client, paper):
    """Its own numbers (§5a) and the columns of its game's filled sheet: the threes of both
    colours apart, the penalties with the cards in hand; one page, nothing of Classic's."""
    url = f"/sheets/blank.pdf?family=modern-american&names=Us,Them&paper={paper}"
    data = get_pdf(client, url)
    texts = pages_text(data)
    assert len(texts) == 1
    text = " ".join(texts[0].split())
    for words in (
        "Modern American (2 teams): 4 players in 2 teams of 2",
        "target 8,500",
        "below 3,000 125",
        "3,000 to 4,995 155",
        "5,000 and more 180",
        "Canasta of sevens 2,500",
        "Canasta of seven twos 3,000",
        "Threes of one colour: 1, 2, 3, 4 100, 300, 500, 1,000",
        "Going out 100",
        "Going out takes 2 canastas.",
        "Unfinished sevens −2,500",
        "Unfinished wild meld −2,000",
        "Each player with 3+ aces −1,500",
        "3s: the threes of both colours laid down.",
        "the game's penalties (unfinished melds, sevens or aces held)",
    ):
        assert words in text, words
    for classic in ("All 4 red threes", "concealed", "Red threes count against"):
        assert classic not in text, classic
    with pdfplumber.open(BytesIO(data)) as pdf:
        tables = [r for t in pdf.pages[0].extract_tables(STRICT) for r in t]
    heads = [[re.sub("\u2010\n", "", c or "").replace("\n", " ") for c in r] for r in tables]
    heads = [r for r in heads if "3s" in r]  # a narrow head is hyphenated: Bo-nuses
    assert heads and heads[0][2:9] == ["Min", "Cards", "Bonuses", "3s", "In hand", "Score", "Total"]
    rows = [r for r in tables if re.fullmatch(r"\d+", r[0] or "") and len(r) == 2 + 7 * 2]
    assert len(rows) >= 12
    assert all(cell in ("", None) for row in rows for cell in row[1:])


@pytest.mark.parametrize("language", ["fr", "es"])
def test_a_modern_american_blank_sheet_in_every_language_is_one_page(client, language):
    url = "/sheets/blank.pdf?family=modern-american&names=Marie-Claire,Guillaume"
    assert len(pages_text(get_pdf(client, url, **{"Accept-Language": language}))) == 1


def test_blank_sheet_names_are_text(client):
    text = pages_text(get_pdf(client, "/sheets/blank.pdf?names=<b>Us</b>,Them"))[0]
    assert "<b>Us</b>" in text


@pytest.mark.parametrize(
    ("query", "field"),
    [
        ("sides=7", b"sides"),
        ("sides=1", b"sides"),
        ("sides=3&seating=3-3", b"seating"),
        ("sides=5&seating=teams", b"seating"),
        ("sides=two", b"sides"),
        ("sides=2&names=A,B,C", b"names"),
        ("names=" + "x" * 41, b"names"),
        ("paper=tabloid", b"paper"),
        ("family=bridge", b"family"),
        ("family=modern-american&sides=3", b"sides"),
        ("family=modern-american&sides=2&seating=3-3", b"seating"),
    ],
)
def test_blank_sheet_refuses_bad_parameters_with_a_page(client, query, field):
    response = client.get(f"/sheets/blank.pdf?{query}")
    assert response.status_code == 400
    assert response.mimetype == "text/html"
    assert field in response.data


# --- rendering reads only local files --------------------------------------------------------


def test_fetcher_refuses_the_network_and_files_outside_the_app(tmp_path: Path):
    fetcher = LocalOnlyFetcher((ROOT / "static",))
    for url in ("http://example.com/a.css", "https://example.com/a.css", "file:///etc/passwd"):
        with pytest.raises(ValueError):
            fetcher.fetch(url)
    outside = (ROOT / "static" / ".." / "pyproject.toml").as_uri()
    with pytest.raises(ValueError):
        fetcher.fetch(outside)
    response = fetcher.fetch((ROOT / "static" / "print.css").as_uri())
    try:
        assert b"@page" in response.read()
    finally:
        response.close()


def test_a_game_without_hands_prints_an_empty_sheet_in_the_machine_font(app, client):
    game_id = new_game(app, [], name="Fresh")
    data = get_pdf(client, f"/games/{game_id}/sheet.pdf")
    text = "\n".join(pages_text(data))
    assert "No hand recorded yet." in text
    assert "In progress" in text
    assert "Ann deals" in text
    with pdfplumber.open(BytesIO(data)) as pdf:
        fonts = {char["fontname"].split("+")[-1] for char in pdf.pages[0].chars}
    # Every glyph comes from the DejaVu faces declared for the sheet, embedded as subsets.
    assert fonts and all(name.startswith("Sheet-Sans") for name in fonts), fonts


def test_house_minimum_table_is_printed_with_the_ranges_it_covers(app, client):
    game_id = new_game(app, CRAFTED[:1], house_rules={"minimums": [[0, 50], [1500, 90]]})
    text = " ".join(pages_text(get_pdf(client, f"/games/{game_id}/sheet.pdf"))).replace("\n", " ")
    # The first row covers every total below it too; the last one every total above.
    assert "up to 1,495: 50" in text
    assert "1,500 and more: 90" in text
