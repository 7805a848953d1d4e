"""Issue 13, print: even margins of at least 10 mm and every number inside its cell,
read back from the PDF's boxes with pdfplumber, on A4 and Letter, two and three sides."""

from __future__ import annotations

from io import BytesIO

import pdfplumber
import pytest
from test_sheets_pdf import get_pdf, new_game

from scorer.core.game import Side
from scorer.core.hands import Hand, SideHand

MM = 72 / 25.4
THREE = [Side("Ann", ("Ann",)), Side("Bob", ("Bob",)), Side("Cy", ("Cy",))]


def losing_hand(sides: int) -> Hand:
    """Cards left in hand and red threes without a meld: about -1,980 for the last side."""
    calls = [SideHand(meld_points=0, hand_points=0) for _ in range(sides - 1)]
    calls.append(SideHand(meld_points=0, hand_points=1000, red_threes=3))
    return Hand(went_out=None, concealed=False, sides=tuple(calls))


@pytest.mark.parametrize("paper", ["a4", "letter"])
@pytest.mark.parametrize("sides", [2, 3, 6])
def test_margins_and_numbers_inside_their_cells(app, client, paper, sides):
    """Twelve hands of about -1,980: five-digit negative totals, in every column."""
    kw = {}
    if sides == 3:
        kw = {"sides": THREE, "profile": "three-player"}
    elif sides == 6:
        kw = {"sides": [Side(n, (n,)) for n in "ABCDEF"], "profile": "six-player"}
    game_id = new_game(app, [losing_hand(sides)] * 12, **kw)
    data = get_pdf(client, f"/games/{game_id}/sheet.pdf?paper={paper}")
    with pdfplumber.open(BytesIO(data)) as pdf:
        for page in pdf.pages:
            things = page.chars + page.rects + page.lines
            left = min(t["x0"] for t in things)
            right = page.width - max(t["x1"] for t in things)
            top = min(t["top"] for t in things)
            assert left >= 10 * MM and right >= 10 * MM and top >= 10 * MM, (left, right, top)
            assert abs(left - right) <= 1 * MM, (left, right)  # even
            edges = [e for e in page.edges if e["orientation"] == "v"]
            assert edges
            for word in page.extract_words(x_tolerance=1):
                if not any(c.isdigit() for c in word["text"]):
                    continue
                crossed = [
                    e["x0"]
                    for e in edges
                    if word["x0"] + 0.3 < e["x0"] < word["x1"] - 0.3
                    and e["top"] < word["bottom"]
                    and e["bottom"] > word["top"]
                ]
                assert not crossed, (word["text"], word["x0"], word["x1"], crossed)
