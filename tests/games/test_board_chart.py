"""The scoreboard's chart of running totals: every hand of a game up to CHART_POINTS, then a
line of bounded length that keeps each run of hands' lowest and highest totals."""

from __future__ import annotations

from scorer.games.pages.board import CHART_POINTS, drawn


def test_a_line_within_the_points_is_drawn_whole():
    line = [5 * k for k in range(CHART_POINTS)]
    assert drawn(line) == list(range(CHART_POINTS))


def test_a_long_line_keeps_its_ends_peaks_and_dips_within_the_points():
    # 1 001 totals (a game at the cap on hands and its start at 0), a peak and a dip inside.
    line = [(k % 7) * 10 for k in range(1001)]
    line[333], line[667] = 9_000, -4_000
    kept = drawn(line)
    assert len(kept) <= CHART_POINTS + 2
    assert kept == sorted(set(kept))
    assert {0, 333, 667, 1000} <= set(kept)
    # Each run of hands (CHART_POINTS / 2 runs) keeps its own lowest and highest total.
    size = -(-len(line) // (CHART_POINTS // 2))
    for start in range(0, len(line), size):
        run = line[start : start + size]
        shown = [line[k] for k in kept if start <= k < start + size]
        assert min(run) in shown and max(run) in shown
