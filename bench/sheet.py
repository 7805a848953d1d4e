"""Section 4: the PDF score sheet of a 60-hand game against a trivial one-page document."""

from __future__ import annotations

import io

import weasyprint

from bench import sheet_cost
from bench.context import Bench
from bench.measure import Row, Section, compare, fmt_bytes, fmt_time
from bench.site import SHEET, Site
from scorer.sheets.cache import sheet_cache

LENGTH = 60
LIMIT = 1.5  # seconds
TRIVIAL = "<!doctype html><html><body><p>Canasta</p></body></html>"
BLANK = "/sheets/blank.pdf?sides=2"
FLOOR = "the trivial document"


def trivial_pdf() -> bytes:
    """The engine's floor: WeasyPrint laying out one short paragraph on one page."""
    return weasyprint.HTML(string=TRIVIAL).write_pdf()


def run(section: Section, bench: Bench) -> None:
    site = bench.site
    path = SHEET.format(id=site.game(LENGTH))
    if not site.has_page(path):
        section.rows.append(Row(f"score sheet, {LENGTH}-hand game", "not available yet"))
        return
    repeat = 3 if bench.quick else 5  # each sample is a whole render: keep the run short
    took, floor = compare(lambda: rendered(site, path), trivial_pdf, repeat, budget=0, warmup=1)
    section.rows.append(Row("baseline: one-page trivial WeasyPrint document", fmt_time(floor)))
    ratio = took / floor
    name = f"score sheet, {LENGTH}-hand game"
    section.rows.append(
        Row(name, fmt_time(took), f"{ratio:.1f}× {FLOOR}", f"< {LIMIT} s", took < LIMIT)
    )
    # Information, no longer a goal (retired by issue 21): the floor is a one-line document,
    # so the ratio says how much a real sheet has to draw, not what a player waits for (the
    # row above, with its goal, does).
    section.rows.append(Row(f"{name}, against the floor", f"{ratio:.1f}×", f"{ratio:.1f}× {FLOOR}"))
    # Where the time goes: the sheet's fixed cost (no hands) and its growth per hand.
    for label, other in (
        ("score sheet, 10-hand game", SHEET.format(id=site.game(10))),
        ("blank sheet (no hands; same fonts and grid)", BLANK),
    ):
        _extra(section, site, label, other, repeat)
    reprint, _floor = compare(lambda: site.get(path), trivial_pdf, repeat, budget=0.02, warmup=1)
    section.rows.append(
        Row(f"reprint of the {LENGTH}-hand sheet (from the cache)", fmt_time(reprint))
    )
    _cost_rows(section)
    pdf = site.get(path).data
    section.notes.append(
        f"The {LENGTH}-hand sheet is {fmt_bytes(len(pdf))} in {_pages(pdf)}; each sample is one "
        "whole request (template, WeasyPrint layout, PDF) with the sheet cache emptied first, "
        "in alternation with the floor; the reprint rows are requests answered from the cache."
    )


LONG = 1000  # the longest game an import accepts
PER_HAND_GROWTH = 1.5  # a long sheet's cost per hand against a 60-hand one
MEMORY_LIMIT_MB = 250
# Issue 11: a sheet cost 13–30 ms a hand on this machine; "well below" taken as half the low end.
PER_HAND_MS = 6.5


def _cost_rows(section: Section) -> None:
    """Cost per hand at 60 and 1 000 hands, peak memory, and the reprint from the cache.

    Each length renders in its own process (bench/sheet_cost.py) so that peak memory is
    that sheet's alone; times are CPU time, in a worker that has printed other sheets before
    (bench/sheet_cost.py). A sheet's pages are planned and rendered a few at a time
    (scorer/sheets/paging.py), so its peak is about that many pages' worth.
    """
    try:
        short, long = sheet_cost.measure_apart([LENGTH, LONG])
    except Exception as error:  # noqa: BLE001 - the section still reports the rest
        section.unavailable("sheet cost by length", error)
        return
    growth = long["ms_per_hand"] / short["ms_per_hand"]
    for run in (short, long):
        section.rows.append(
            Row(
                f"score sheet cost per hand, {run['hands']} hands",
                f"{run['ms_per_hand']} ms",
                goal=f"≤ {PER_HAND_MS} ms (well below 13–30 ms)",
                met=run["ms_per_hand"] <= PER_HAND_MS,
            )
        )
    section.rows.append(
        Row(
            f"per-hand cost, {LONG} against {LENGTH} hands",
            f"{growth:.2f}×",
            goal=f"≤ {PER_HAND_GROWTH}×",
            met=growth <= PER_HAND_GROWTH,
        )
    )
    section.rows.append(
        Row(
            f"worker peak memory, {LONG}-hand sheet",
            f"{long['peak_rss_mb']} MB",
            f"{long['rss_after_mb']} MB after, {long['rss_before_mb']} MB before",
            f"< {MEMORY_LIMIT_MB} MB",
            long["peak_rss_mb"] < MEMORY_LIMIT_MB,
        )
    )
    section.rows.append(
        Row(f"reprint of the {LONG}-hand sheet (from the cache)", f"{long['reprint_ms']} ms")
    )


def rendered(site: Site, path: str) -> object:
    """A real render of the sheet at `path`: the worker's sheet cache is emptied first."""
    sheet_cache(site.app).clear()
    return site.get(path)


def _extra(section: Section, site: Site, label: str, path: str, repeat: int) -> None:
    if not site.has_page(path.split("?")[0]):
        section.rows.append(Row(label, "not available yet"))
        return
    try:
        took, floor = compare(lambda: rendered(site, path), trivial_pdf, max(3, repeat - 2), 0, 1)
    except Exception as error:  # noqa: BLE001 - a sheet still being built must not stop us
        section.unavailable(label, error)
        return
    section.rows.append(Row(label, fmt_time(took), f"{took / floor:.1f}× {FLOOR}"))


def _pages(pdf: bytes) -> str:
    try:
        import pdfplumber
    except ImportError:  # a test dependency: the count is only a nicety
        return "pages not counted"
    with pdfplumber.open(io.BytesIO(pdf)) as document:
        return f"{len(document.pages)} page(s)"
