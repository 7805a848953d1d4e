"""Each player's running total over the club's games, as SVG drawn by the server.

Pure: numbers in, the geometry of a small line chart out; the template writes the SVG
(classes only, no style attribute: the pages' CSP allows no inline style).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from scorer.core.stats import SeriesPoint

WIDTH = 320
HEIGHT = 120
PAD_X = 4
PAD_Y = 10
# A polyline of more points than this is no clearer, only heavier: longer series are thinned.
MAX_POINTS = 120


@dataclass(frozen=True)
class Chart:
    """One player's line: the points attribute of a polyline and the axis' extremes."""

    player: str
    points: str
    zero_y: float  # where the total 0 lies (a base line)
    low: int
    high: int
    last: int
    games: int
    width: int = WIDTH
    height: int = HEIGHT


def thinned(values: Sequence[int], most: int = MAX_POINTS) -> list[tuple[int, int]]:
    """(index, value) pairs, every one when few, else evenly spaced ones and the last."""
    count = len(values)
    if count <= most:
        return list(enumerate(values))
    step = (count - 1) / (most - 1)
    picked = sorted({round(i * step) for i in range(most)})
    return [(i, values[i]) for i in picked]


def chart(player: str, series: Sequence[SeriesPoint]) -> Chart:
    """The running total of `player` game after game, starting at 0 before the first."""
    values = [0] + [point.total_points for point in series]
    low, high = min(values), max(values)
    span = (high - low) or 1
    last_index = max(len(values) - 1, 1)

    def x(index: int) -> float:
        return PAD_X + (WIDTH - 2 * PAD_X) * index / last_index

    def y(value: int) -> float:
        return HEIGHT - PAD_Y - (HEIGHT - 2 * PAD_Y) * (value - low) / span

    coords = " ".join(f"{x(i):.1f},{y(v):.1f}" for i, v in thinned(values))
    return Chart(player, coords, round(y(0), 1), low, high, values[-1], len(series))


def charts(series: dict[str, tuple[SeriesPoint, ...]], players: Sequence[str]) -> list[Chart]:
    """A chart per roster player who has played, in the roster's order."""
    return [chart(player, series[player]) for player in players if series.get(player)]
