"""WeasyPrint's HTML for score sheets: a lighter user-agent style sheet, the grid's columns.

WeasyPrint's own user-agent sheet has rules for six pseudo-elements of *every* element
(`::marker`, `::footnote-call`, `::footnote-marker`, `::note-call`, `::note-marker`,
`::note-callback`). Their styles are computed element by element, never shared, so on a score
sheet (17 cells a row) they were about a third of the layout's time. Our sheets have no lists,
footnotes nor notes: `::marker` is kept for list items only and the others are left out.
Everything else of the user-agent sheet is WeasyPrint's, unchanged.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import weasyprint
from markupsafe import Markup, escape
from weasyprint import html as weasy_html

# The user-agent rules kept out: one per line in WeasyPrint's html5_ua.css.
UNUSED_PSEUDO = re.compile(
    r"^::(footnote-call|footnote-marker|note-call|note-marker|note-callback)\b.*$", re.MULTILINE
)
EVERY_MARKER = re.compile(r"^::marker\b", re.MULTILINE)


@functools.cache
def light_ua_sheet() -> weasyprint.CSS:
    """The user-agent sheet without the pseudo-element rules score sheets never use."""
    text = UNUSED_PSEUDO.sub("", weasy_html.UA)
    text = EVERY_MARKER.sub("li::marker", text)
    return weasyprint.CSS(string=text, counter_style=weasy_html.UA_COUNTER_STYLE)


class SheetHTML(weasyprint.HTML):
    """`weasyprint.HTML` styled with `light_ua_sheet` (forms keep WeasyPrint's own sheets)."""

    def _ua_stylesheets(self, forms: bool = False) -> list[weasyprint.CSS]:
        if forms:
            return super()._ua_stylesheets(forms)
        return [light_ua_sheet()]


# --- the grid of a paged sheet: one cell per column, one line per hand ----------------------
#
# A table cell costs WeasyPrint about as much as a paragraph (a style, a box, a block layout,
# a line, its text, its collapsed borders): at 17 cells a row that was most of a sheet's cost.
# A page's rows are therefore laid out as columns: one cell per column holding one line per
# hand (`white-space: pre`), every line as high as a row of the one-document layout. The
# rules between rows and the shading of every other row are one SVG drawing behind them.

# Marks after a hand's number: irregular (§2b), played after the end (§2c).
IRREGULAR_MARK = "*"
AFTER_END_MARK = "†"
CONCEALED_MARK = "C"
ADJUSTED_MARK = "±"
# Widths at 8 pt of DejaVu Sans Condensed Bold (the sheet's font), in mm: hand numbers and
# their marks are right-aligned in a column as wide as the page's widest label needs.
DIGIT_MM = 1.77
MARK_MM = 1.33
HAND_NUMBER_MIN_MM = 5.0
# The cell's padding, and half the table's 0.4 pt left border (0.07 mm) inside the column.
CELL_PADDING_MM = 0.67
# CSS px (WeasyPrint's layout unit, 96 an inch) in a point.
PX = 96 / 72
# The rules between rows: 0.4 pt.
RULE_PX = 0.4 * PX
# The height of a row, as sheet.css sets it: 8pt × 1.15 + 2 × 0.7mm of padding + 0.4pt of rule.
ROW_PITCH_PT = 13.5685
# A blank sheet's row, room to write by hand: 7.2mm + 0.4pt of rule.
BLANK_ROW_PITCH_PT = 20.8094


@dataclass(frozen=True)
class SideCells:
    """One side's part of a hand row on the sheet."""

    minimum: int
    cards: int
    canastas: int
    red_threes: int
    going_out: int | None  # None: this side did not go out
    concealed: bool
    hand: int
    score: int
    total: int
    adjustment: int = 0  # the table's penalty or correction, inside `score`
    adjustment_note: str = ""


@dataclass(frozen=True)
class SheetRow:
    number: int
    dealer: str
    stock_ran_out: bool
    sides: tuple[SideCells, ...]
    irregular: bool = False  # confirmed by the table (§2b): a footnote mark
    after_end: bool = False  # played after the end, counts for nothing (§2c)


@dataclass(frozen=True)
class GridColumn:
    """One column of a page's rows: its cell's classes and its lines (HTML)."""

    css: str
    lines: Markup


Number = Callable[[int], str]


def _marks(row: SheetRow) -> str:
    return IRREGULAR_MARK * row.irregular + AFTER_END_MARK * row.after_end


def _going_out(row: SheetRow, cell: SideCells, points: Number) -> Markup:
    if cell.going_out is not None:
        mark = Markup("<sup>{}</sup>").format(CONCEALED_MARK) if cell.concealed else ""
        return escape(points(cell.going_out)) + mark
    return Markup("–") if row.stock_ran_out else Markup("")


def _side_values(row: SheetRow, cell: SideCells, points: Number) -> list[Markup]:
    """The 8 cells of a side in a row, in the order of the grid's columns."""
    return [
        escape(points(cell.minimum)),
        escape(points(cell.cards)),
        escape(points(cell.canastas)),
        escape(points(cell.red_threes)),
        _going_out(row, cell, points),
        escape(points(cell.hand)),
        _score(cell, points),
        escape(points(cell.total)),
    ]


def _score(cell: SideCells, points: Number) -> Markup:
    mark = Markup("<sup>{}</sup>").format(ADJUSTED_MARK) if cell.adjustment else ""
    return escape(points(cell.score)) + mark


SIDE_CLASSES = ("n min first", "n", "n", "n", "n out", "n", "n score", "n total")


def _row_values(row: SheetRow, group: Sequence[int], points: Number) -> list[Markup]:
    marks = Markup("").join(Markup("<sup>{}</sup>").format(mark) for mark in _marks(row))
    dealer = " ".join(row.dealer.splitlines())  # one line a hand, whatever the name holds
    values = [escape(str(row.number)) + marks, escape(dealer)]
    for side in group:
        values.extend(_side_values(row, row.sides[side], points))
    if row.after_end:  # counts for nothing: the whole row in grey
        values = [Markup('<span class="late">{}</span>').format(v) if v else v for v in values]
    return values


def grid_columns(
    rows: Sequence[SheetRow], group: Sequence[int], points: Number
) -> list[GridColumn]:
    """The columns of `rows` for the sides in `group`: hand and dealer, then 8 per side."""
    classes = ["hn", "dealer"] + [css for _side in group for css in SIDE_CLASSES]
    lines: list[list[Markup]] = [[] for _css in classes]
    for row in rows:
        for column, value in zip(lines, _row_values(row, group, points), strict=True):
            column.append(value)
    return [
        GridColumn(css, Markup("\n").join(column))
        for css, column in zip(classes, lines, strict=True)
    ]


def hand_number_width(rows: Sequence[SheetRow]) -> str:
    """The hand-number column's CSS width on a page: its widest label, 5 mm at least."""
    digits = len(str(max((row.number for row in rows), default=1)))
    marks = max((len(_marks(row)) for row in rows), default=0)
    label = max(HAND_NUMBER_MIN_MM, digits * DIGIT_MM + marks * MARK_MM)
    return f"{CELL_PADDING_MM + label:.2f}mm"


def ruling(count: int, pitch_pt: float = ROW_PITCH_PT, shaded: bool = True) -> Markup:
    """The rules between `count` rows `pitch_pt` high, every other row shaded, as an SVG.

    Drawn from the top of the first line, half a rule below the row's top (collapsed borders
    are centred on the grid line), and stretched across the table's width (x runs from 0 to
    1000). The rule above the first row is the table's; the one below the last is drawn here
    (the cells have none), so the grid is as high as a grid of one table row per hand.
    """
    pitch = pitch_pt * PX
    height = count * pitch
    top = -RULE_PX / 2
    shade = "".join(f"M0 {top + k * pitch:.3f}h1000v{pitch:.3f}H0z" for k in range(1, count, 2))
    rules = "".join(f"M0 {top + k * pitch:.3f}H1000" for k in range(1, count + 1))
    return Markup(
        f'<svg class="ruling" viewBox="0 0 1000 {height:.3f}" preserveAspectRatio="none" '
        f'style="height: {height:.3f}px">'
        + (f'<path d="{shade}" fill="#f7f7f7"/>' if shaded and shade else "")
        + f'<path d="{rules}" fill="none" stroke="#777" stroke-width="{RULE_PX:.4f}"/>'
        "</svg>"
    )
