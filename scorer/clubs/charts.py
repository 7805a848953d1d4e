"""Each player's running total, and their rating, over the club's games, as SVG drawn by
the server.

Pure: numbers in, the geometry of a small line chart out; the template writes the SVG
(classes only, no style attribute: the pages' CSP allows no inline style).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TypeVar

from scorer.core.ratings import MODEL, Rating
from scorer.core.stats import SeriesPoint

WIDTH = 320
HEIGHT = 120
PAD_X = 4
PAD_Y = 10
# A polyline of more points than this is no clearer, only heavier: longer series are thinned.
MAX_POINTS = 120

T = TypeVar("T")


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


def thinned(values: Sequence[T], most: int = MAX_POINTS) -> list[tuple[int, T]]:
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


@dataclass(frozen=True)
class RatingChart:
    """One player's rating game after game: the skill's line and, around it, a band of
    twice its uncertainty (the polygon's points), on an axis from ``low`` to ``high``."""

    player: str
    points: str
    band: str
    low: float
    high: float
    last: Rating
    width: int = WIDTH
    height: int = HEIGHT


def rating_chart(player: str, history: Sequence[Rating]) -> RatingChart:
    """The rating of ``player`` after each game, from the library's start before the first."""
    start = MODEL.rating()
    values = [(start.mu, start.sigma)] + [(r.mu, r.sigma) for r in history]
    low = min(mu - 2 * sigma for mu, sigma in values)
    high = max(mu + 2 * sigma for mu, sigma in values)
    span = (high - low) or 1.0
    kept = thinned(values)
    last_index = max(len(values) - 1, 1)

    def x(index: int) -> float:
        return PAD_X + (WIDTH - 2 * PAD_X) * index / last_index

    def y(value: float) -> float:
        return HEIGHT - PAD_Y - (HEIGHT - 2 * PAD_Y) * (value - low) / span

    line = " ".join(f"{x(i):.1f},{y(mu):.1f}" for i, (mu, _sigma) in kept)
    upper = [f"{x(i):.1f},{y(mu + 2 * sigma):.1f}" for i, (mu, sigma) in kept]
    lower = [f"{x(i):.1f},{y(mu - 2 * sigma):.1f}" for i, (mu, sigma) in reversed(kept)]
    return RatingChart(player, line, " ".join(upper + lower), low, high, history[-1])


def rating_charts(
    history: dict[str, tuple[Rating, ...]], players: Sequence[str]
) -> list[RatingChart]:
    """A rating chart per roster player with a finished game, in the roster's order."""
    return [rating_chart(player, history[player]) for player in players if history.get(player)]
