"""A score sheet laid out page by page, so a render costs a few pages' memory at a time.

WeasyPrint keeps the layout of every page of a document until the PDF is written: a
1 000-hand sheet as one document holds hundreds of MB. Rows have a fixed height (every hand
is one line of each column, see scorer/sheets/html.py), so the pages can be planned in
advance: one small measuring render gives the heights of the header block, of each table's
head and rows and of the result box; then the planned pages are rendered a few to a document
(with "page N of M" printed as text) and the documents are joined. A short sheet is first
tried on one page, unmeasured.
"""

from __future__ import annotations

import io
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

from pypdf import PdfReader, PdfWriter

# CSS px kept free at the bottom of each page, against rounding: the heights are WeasyPrint's
# own, so a page holds the rows WeasyPrint would put on it (each page is checked anyway, see
# `Overflow`).
SLACK = 0.05
# Rows measured per table by the measuring render (the pitch is the distance between two).
MEASURED_ROWS = 2
# A sheet of at most this many rows (hands × tables) is first tried on one page, unmeasured:
# short games, the ones printed most, skip the measuring render. One that does not fit on one
# page after all is measured and planned as any other. An upright A4 or Letter page holds
# about 34 rows below the game's header and above its result; a turned one about 20.
ONE_PAGE_ROWS = {"portrait": 30, "landscape": 16}
# Planned pages laid out together in one WeasyPrint document: a document's own cost (its
# fonts, its PDF) is shared, and its memory stays a few pages' worth.
PAGES_PER_DOCUMENT = 4


@dataclass(frozen=True)
class Piece:
    """Rows start..stop (0-based, stop excluded) of one side group's table, on one page."""

    group: int
    start: int
    stop: int
    first: bool  # the first table on its page: no gap above it


@dataclass(frozen=True)
class SheetPage:
    """What one printed page holds: the game's header, table pieces, the result box."""

    number: int
    pieces: tuple[Piece, ...]
    top: bool
    tail: bool
    whole: bool = False  # the whole sheet as one document: one table row per hand
    sample: bool = False  # measured only: its rows are one cell wide (their height is all)


@dataclass(frozen=True)
class Fit:
    """Heights in CSS px, measured by WeasyPrint on a sample page of this very sheet."""

    height: float  # the page's content area
    top: float  # title, facts and sides, above the first table
    tail: float  # the result box and the legend, below the last table
    heads: tuple[float, ...]  # per group: from the table's top (gap included) to its 1st row
    pitches: tuple[float, ...]  # per group: the height of one row
    ends: tuple[float, ...]  # per group: below the last row (the bottom border)


class Overflow(Exception):
    """A planned page did not fit on one sheet of paper (the plan was wrong)."""


def whole_sheet(count: int, groups: int) -> SheetPage:
    """Everything on one "page": the sheet as one document, paginated by WeasyPrint."""
    pieces = tuple(Piece(g, 0, count, first=g == 0) for g in range(groups))
    return SheetPage(1, pieces, top=True, tail=True, whole=True)


def one_page(count: int, groups: int, orientation: str) -> SheetPage | None:
    """Every row on one page, when there are so few that they should fit (else None)."""
    if count * groups > ONE_PAGE_ROWS[orientation]:
        return None
    pieces = tuple(Piece(g, 0, count, first=g == 0) for g in range(groups))
    return SheetPage(1, pieces, top=True, tail=True)


def sample_page(count: int, groups: int) -> SheetPage:
    """The page measured by `measure`: the header, a few rows of every table, the result."""
    rows = min(count, MEASURED_ROWS)
    pieces = tuple(Piece(g, 0, rows, first=g == 0) for g in range(groups))
    return SheetPage(1, pieces, top=True, tail=True, sample=True)


def plan_pages(count: int, fit: Fit) -> list[SheetPage]:
    """Pages filled with whole rows: header on the first, the result box on the last."""
    pages: list[SheetPage] = []
    pieces: list[Piece] = []
    used = fit.top
    groups = len(fit.heads)
    for group in range(groups):
        start = 0
        last = group == groups - 1
        while start < count:
            head, pitch, end = fit.heads[group], fit.pitches[group], fit.ends[group]
            room = fit.height - SLACK - used - head - end
            fits = int(room // pitch)
            left = count - start
            if last and left * pitch + fit.tail <= room:
                take = left
            else:
                take = min(fits, left - 1) if last else min(fits, left)
            if take < 1:
                if not pieces and used == 0.0:
                    raise Overflow("not even one row fits on a page")
                pages.append(SheetPage(len(pages) + 1, tuple(pieces), not pages, tail=False))
                pieces, used = [], 0.0
                continue
            pieces.append(Piece(group, start, start + take, first=not pieces))
            used += head + take * pitch + end
            start += take
            if start < count:
                pages.append(SheetPage(len(pages) + 1, tuple(pieces), not pages, tail=False))
                pieces, used = [], 0.0
    pages.append(SheetPage(len(pages) + 1, tuple(pieces), not pages, tail=True))
    return pages


def _boxes(box: Any) -> Iterator[Any]:
    yield box
    for child in getattr(box, "children", ()):
        yield from _boxes(child)


def _bottom(box: Any) -> float:
    return box.position_y + box.margin_height()


def measure(document: Any) -> Fit:
    """The heights of a rendered `sample_page` (a WeasyPrint Document of one page)."""
    if len(document.pages) != 1:
        raise Overflow("the sample page does not fit on one page")
    page = document.pages[0]._page_box
    wrappers = [
        box
        for box in _boxes(page)
        if getattr(box, "is_table_wrapper", False) and _attr(box, "data-group") is not None
    ]
    body = next(box for box in _boxes(page) if getattr(box, "element_tag", None) == "body")
    heads, pitches, ends = [], [], []
    for wrapper in wrappers:
        row = next(box for box in _boxes(wrapper) if _attr(box, "data-rows") is not None)
        lines = [box for box in _boxes(row.children[0]) if type(box).__name__ == "LineBox"]
        # A row's pitch: the distance between two hands' lines (one line when one hand).
        pitch = lines[1].position_y - lines[0].position_y if len(lines) > 1 else lines[0].height
        heads.append(row.position_y - wrapper.position_y)
        pitches.append(pitch)
        ends.append(_bottom(wrapper) - (row.position_y + int(_attr(row, "data-rows")) * pitch))
    return Fit(
        height=page.height,
        top=wrappers[0].position_y - page.content_box_y(),
        tail=_bottom(body) - _bottom(wrappers[-1]),
        heads=tuple(heads),
        pitches=tuple(pitches),
        ends=tuple(ends),
    )


def _attr(box: Any, name: str) -> str | None:
    element = getattr(box, "element", None)
    return None if element is None else element.get(name)


def render_pages(pages: list[SheetPage], render: Callable[[list[SheetPage]], Any]) -> bytes:
    """The pages rendered `PAGES_PER_DOCUMENT` at a time (`render` gives their Document), then
    joined into one PDF."""
    writer = PdfWriter()
    metadata = None
    for start in range(0, len(pages), PAGES_PER_DOCUMENT):
        some = pages[start : start + PAGES_PER_DOCUMENT]
        document = render(some)
        if len(document.pages) != len(some):
            raise Overflow(f"pages {some[0].number}-{some[-1].number} do not fit as planned")
        chunk = document.write_pdf()
        del document  # the pages' layout: the memory this whole module is about
        if len(some) == len(pages):
            return chunk
        reader = PdfReader(io.BytesIO(chunk))
        metadata = metadata or reader.metadata
        writer.append(reader)
    if metadata:
        writer.add_metadata(dict(metadata))
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue()
