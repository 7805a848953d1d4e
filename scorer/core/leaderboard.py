"""The standings of a club night: per player, rounds played, rounds won and points.

Pure core: the tables' sides and totals in, the ranked lines out. A player's points at a
table are their side's total minus the opponents' (at a table of three sides, minus the
average of the other two, rounded half to even, so a table's points still add up to about 0).
Points count live, hand by hand, from every table; rounds and wins count once a table's game
is over; a win shared by the top sides (a house rule) counts as a win for each of them. A
round sat out (a bye) counts for nothing.

Ties are broken in this order: by "wins_then_points" (the default), wins, then points, then
the points scored (the side's own totals), then shared; by "points", points, then wins, then
the points scored, then shared. Players still level share a rank and are listed by name.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from typing import Literal

Ranking = Literal["wins_then_points", "points"]
RANKINGS: tuple[str, ...] = ("wins_then_points", "points")


@dataclass(frozen=True)
class TableResult:
    """One table of a round as it stands: its sides' players and totals, and its winner (or
    the sides sharing the win, when a house rule shares a tie at the top)."""

    sides: tuple[tuple[str, ...], ...]
    totals: tuple[int, ...]
    winner: int | None = None
    shared_by: tuple[int, ...] = ()

    @property
    def finished(self) -> bool:
        return self.winner is not None or bool(self.shared_by)

    def won(self, index: int) -> bool:
        """Side ``index`` won the table, alone or sharing the win."""
        return self.winner == index or index in self.shared_by


@dataclass(frozen=True)
class Standing:
    """A player's line on the leaderboard; ``rank`` from 1, shared by players level."""

    player: str
    rounds: int
    wins: int
    points: int
    scored: int
    rank: int = 0


def margins(totals: Sequence[int]) -> tuple[int, ...]:
    """Each side's total minus its opponents' (their average when there are several)."""
    count = len(totals)
    if count < 2:
        return tuple(0 for _ in totals)
    whole = sum(totals)
    return tuple(round(total - (whole - total) / (count - 1)) for total in totals)


def standings(
    players: Iterable[str], tables: Iterable[TableResult], ranking: Ranking = "wins_then_points"
) -> list[Standing]:
    """The night's leaderboard, best first (every player of the night, even with no round)."""
    lines: dict[str, list[int]] = {player: [0, 0, 0, 0] for player in players}
    for table in tables:
        for index, (side, margin) in enumerate(
            zip(table.sides, margins(table.totals), strict=True)
        ):
            for player in side:
                line = lines.setdefault(player, [0, 0, 0, 0])
                line[0] += table.finished
                line[1] += table.won(index)
                line[2] += margin
                line[3] += table.totals[index]

    unranked = [Standing(player, *line) for player, line in lines.items()]
    order = _by_wins if ranking == "wins_then_points" else _by_points
    unranked.sort(key=lambda line: (order(line), line.player.casefold(), line.player))
    result: list[Standing] = []
    for position, line in enumerate(unranked, 1):
        level = bool(result) and order(line) == order(result[-1])
        result.append(replace(line, rank=result[-1].rank if level else position))
    return result


def _by_wins(line: Standing) -> tuple[int, int, int]:
    return (-line.wins, -line.points, -line.scored)


def _by_points(line: Standing) -> tuple[int, int, int]:
    return (-line.points, -line.wins, -line.scored)
