"""Long sheets rendered page by page: same pages, every row once, header and page numbers.

Games are made by import (the way a 1 000-hand game arrives); PDFs are read back with
pdfplumber and compared with WeasyPrint's own pagination of the sheet as one document.
"""

from __future__ import annotations

import re
from io import BytesIO

import pdfplumber
import pytest
from flask.testing import FlaskClient

from scorer.sheets import game_sheet, paging
from scorer.sheets.cache import sheet_cache
from scorer.sheets.html import SheetRow, SideCells, grid_columns
from scorer.sheets.paging import Fit, plan_pages
from scorer.web.display import points

TWO = [{"name": "Us", "players": ["Ann", "Bob"]}, {"name": "Them", "players": ["Cat", "Dan"]}]
FOUR = [{"name": n, "players": [n]} for n in ("Eve", "Fay", "Gus", "Hal")]
HAND_ROW = re.compile(r"^(\d+) ?(Ann|Bob|Cat|Dan|Eve|Fay|Gus|Hal)\b", re.MULTILINE)


def stock_out(i: int, sides: int) -> dict:
    """Nobody goes out; one side gains what another loses, so no game ever ends."""
    gain = 50 + 5 * (i % 10)
    cells = [{"meld_points": 50, "hand_points": 50} for _ in range(sides)]
    cells[i % sides] = {"meld_points": gain + 50, "hand_points": 50}
    cells[(i + 1) % sides] = {"meld_points": 50, "hand_points": 50 + gain}
    return {"went_out": None, "concealed": False, "sides": cells}


def imported(client: FlaskClient, hands: int, sides: list[dict], name: str) -> str:
    game = {
        "format": "scorer-game",
        "format_version": 1,
        "name": name,
        "profile": "classic",
        "target": 20000,
        "sides": sides,
        "hands": [stock_out(i, len(sides)) for i in range(hands)],
    }
    response = client.post("/api/games/import", json=game)
    assert response.status_code == 201, response.get_data(as_text=True)
    return response.get_json()["id"]


def sheet(client: FlaskClient, game: str, query: str = "") -> list[str]:
    response = client.get(f"/games/{game}/sheet.pdf{query}")
    assert response.status_code == 200
    with pdfplumber.open(BytesIO(response.data)) as document:
        return [page.extract_text() or "" for page in document.pages]


def hands_on(text: str) -> list[int]:
    return [int(number) for number, _dealer in HAND_ROW.findall(text)]


def check_every_page(pages: list[str], name: str, sides: list[str]) -> None:
    for index, text in enumerate(pages, start=1):
        assert f"page {index} of {len(pages)}" in text
        assert name in text, f"no footer on page {index}"
        assert "Min Cards" in text and "Total" in text, f"no column header on page {index}"
        assert all(side in text for side in sides), f"no side names on page {index}"


def test_a_long_sheet_has_the_pages_weasyprint_would_make(client, monkeypatch, caplog):
    game = imported(client, 120, TWO, "Marathon")
    pages = sheet(client, game)
    assert "paged wrongly" not in caplog.text  # planned, not the slow way
    assert len(pages) >= 3
    check_every_page(pages, "Marathon", ["Us", "Them"])
    printed = [hands_on(text) for text in pages]
    assert [n for page in printed for n in page] == list(range(1, 121))
    assert "In progress" in pages[-1] and "In progress" not in "".join(pages[:-1])
    # The same sheet as one document, paginated by WeasyPrint itself: the same rows per page.
    monkeypatch.setattr(game_sheet, "PAGED_FROM_HANDS", 10_000)
    sheet_cache(client.application).clear()  # else the paged sheet comes back
    whole = sheet(client, game)
    assert [hands_on(text) for text in whole] == printed


def test_pages_rendered_a_few_to_a_document_join_into_the_same_sheet(client, monkeypatch, caplog):
    game = imported(client, 220, TWO, "Joined")
    together = sheet(client, game)
    assert len(together) > paging.PAGES_PER_DOCUMENT  # two documents, joined
    monkeypatch.setattr(paging, "PAGES_PER_DOCUMENT", 1)
    sheet_cache(client.application).clear()
    apart = sheet(client, game)
    assert "paged wrongly" not in caplog.text
    assert apart == together
    check_every_page(apart, "Joined", ["Us", "Them"])
    assert [n for text in apart for n in hands_on(text)] == list(range(1, 221))


def test_a_sheet_tried_on_one_page_that_does_not_fit_is_planned(client, monkeypatch, caplog):
    game = imported(client, 70, TWO, "Tried")
    planned = sheet(client, game)
    assert len(planned) == 2
    tried = {"portrait": 10_000, "landscape": 10_000}  # tried on one page first
    monkeypatch.setattr(paging, "ONE_PAGE_ROWS", tried)
    sheet_cache(client.application).clear()
    assert sheet(client, game) == planned
    assert "paged wrongly" not in caplog.text


def test_four_sides_on_letter_paper_print_every_hand_once_in_each_table(client):
    game = imported(client, 70, FOUR, "Four")
    pages = sheet(client, game, "?paper=letter")
    check_every_page(pages, "Four", ["Eve", "Hal"])
    numbers = [n for text in pages for n in hands_on(text)]
    assert numbers == list(range(1, 71)) * 2  # two tables of two sides, one after the other


def test_a_page_that_does_not_fit_falls_back_to_one_document(client, monkeypatch):
    game = imported(client, 70, TWO, "Squeezed")

    def everything_on_one_page(count: int, fit: Fit) -> list:
        return plan_pages(count, Fit(fit.height * 10, *list(vars(fit).values())[1:]))

    monkeypatch.setattr(paging, "plan_pages", everything_on_one_page)
    pages = sheet(client, game)
    assert len(pages) == 2
    check_every_page(pages, "Squeezed", ["Us", "Them"])
    assert [n for text in pages for n in hands_on(text)] == list(range(1, 71))


FIT = Fit(height=700, top=100, tail=80, heads=(30, 40), pitches=(12, 14), ends=(1, 1))


@pytest.mark.parametrize("count", [2, 30, 47, 48, 120, 1000])
def test_planned_pages_hold_every_row_once_and_fit(count):
    pages = plan_pages(count, FIT)
    assert pages[0].top and not any(page.top for page in pages[1:])
    assert pages[-1].tail and not any(page.tail for page in pages[:-1])
    assert [page.number for page in pages] == list(range(1, len(pages) + 1))
    for group in (0, 1):
        pieces = [piece for page in pages for piece in page.pieces if piece.group == group]
        assert [piece.start for piece in pieces] == [0] + [piece.stop for piece in pieces[:-1]]
        assert pieces[-1].stop == count
    for page in pages:
        used = FIT.top if page.top else 0
        used += FIT.tail if page.tail else 0
        for piece in page.pieces:
            g = piece.group
            used += FIT.heads[g] + FIT.ends[g] + (piece.stop - piece.start) * FIT.pitches[g]
        assert used <= FIT.height
        assert page.pieces and page.pieces[0].first


def test_every_hand_is_one_line_of_every_column_whatever_the_names_hold():
    cells = SideCells(50, 120, 500, 100, 100, True, 0, 820, 820)
    other = SideCells(50, 85, 0, 0, None, False, -40, 45, 45)
    rows = [
        SheetRow(1, "Ann\u2028<b>Bob</b>", False, (cells, other), irregular=True),
        SheetRow(2, "Cat", True, (other, cells), after_end=True),
    ]
    columns = grid_columns(rows, [0, 1], points)
    assert len(columns) == 2 + 8 * 2
    assert all(len(column.lines.split("\n")) == 2 for column in columns)
    hand, dealer, out = columns[0].lines, columns[1].lines, columns[6].lines
    assert hand.startswith("1<sup>*</sup>\n") and "†" in hand
    assert dealer.startswith("Ann &lt;b&gt;Bob&lt;/b&gt;\n")
    assert out.startswith("100<sup>C</sup>\n") and "–" in out
