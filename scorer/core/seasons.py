"""A club's season: its nights' results added up, each player's best N nights of M
(docs/rules.md §6, as bridge clubs count a championship).

Pure core. A night gives each player who played it a score: their match points and card points
that night (scorer.core.match_points). A player's season counts their best ``best_of`` nights
(more match points first, then more card points, then the earlier night); a player who played
fewer nights counts all they played. The season ranks by the counted match points, then the
counted card points, then nights played; players level share a rank. The champion is the
season's first (several, when they share the first rank).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from scorer.core.limits import check_best_of
from scorer.core.ranks import ranked


@dataclass(frozen=True)
class NightScore:
    """A player's result on one night of the season."""

    match_points: int
    card_points: int


@dataclass(frozen=True)
class SeasonStanding:
    """A player's season: nights played, the nights counted (indices into the season's
    nights, in order), their match points and card points, and the rank from 1."""

    player: str
    played: int
    counted: tuple[int, ...]
    match_points: int
    card_points: int
    rank: int = 0


def best_nights(scores: Sequence[tuple[int, NightScore]], best_of: int) -> tuple[int, ...]:
    """The indices of a player's ``best_of`` best nights, in the season's order."""
    ranked = sorted(scores, key=lambda item: (-item[1].match_points, -item[1].card_points, item[0]))
    return tuple(sorted(index for index, _ in ranked[:best_of]))


def season_standings(
    nights: Sequence[Mapping[str, NightScore]], best_of: int
) -> list[SeasonStanding]:
    """The season's table, best first: one line per player who played a night."""
    best_of = check_best_of(best_of)
    played: dict[str, list[tuple[int, NightScore]]] = {}
    for index, night in enumerate(nights):
        for player, score in night.items():
            played.setdefault(player, []).append((index, score))
    lines = []
    for player, scores in played.items():
        counted = best_nights(scores, best_of)
        chosen = [nights[index][player] for index in counted]
        lines.append(
            SeasonStanding(
                player,
                len(scores),
                counted,
                sum(score.match_points for score in chosen),
                sum(score.card_points for score in chosen),
            )
        )
    return ranked(lines, _order)


def _order(line: SeasonStanding) -> tuple[int, int, int]:
    return (-line.match_points, -line.card_points, -line.played)


def champions(lines: Sequence[SeasonStanding]) -> tuple[str, ...]:
    """The season's champion (several when they share the first rank; none before a night)."""
    return tuple(line.player for line in lines if line.rank == 1)
