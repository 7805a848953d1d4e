"""A club night ranked by match points, the Finnish federation's rule (docs/rules.md §6).

Pure core: the tables' results (and the forfeits) in, the ranked lines out.

Each finished game gives its winning side **2** match points, a draw **1** to each side level
at the top, the loser **0**. The game's card-point difference (the side's total minus the
opponents', their average at a table of three sides: scorer.core.leaderboard.margins) goes to
each player's **card points**, the first tie-break: added to the winner's, taken from the
loser's. A game counts once it is over; a game still being played counts for nothing yet.

With draws switched off, a finished game level at the top and without a winner counts for
nothing: the table plays on by its tie rule until one side wins (a draw is not a result).

A **forfeit** (a side absent) gives the present side 2 match points and the family's forfeit
card points (2 000, 4 000 in Samba and Bolivia); the absent side scores 0 and loses the same
card points, so the night's card points still add up to 0.

Ties are broken by card points, then games won, then shared: players still level share a
rank and are listed by name.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from scorer.core.errors import N_, RuleError
from scorer.core.leaderboard import margins
from scorer.core.ranks import ranked

WIN, DRAW, LOSS = 2, 1, 0
# A forfeit's card points, by rule family; any family not named here plays Classic's.
FORFEIT_CARD_POINTS: dict[str, int] = {"classic": 2000, "samba": 4000, "bolivia": 4000}
DEFAULT_FAMILY = "classic"


def forfeit_card_points(family: str = DEFAULT_FAMILY) -> int:
    """The card points a forfeit gives the present side in that family."""
    return FORFEIT_CARD_POINTS.get(family, FORFEIT_CARD_POINTS[DEFAULT_FAMILY])


@dataclass(frozen=True)
class Match:
    """One game of a round as it stands: its sides' players and totals, and how it ended.

    ``finished`` with ``winner`` None is a draw (the sides level at the top shared it)."""

    sides: tuple[tuple[str, ...], ...]
    totals: tuple[int, ...]
    finished: bool = False
    winner: int | None = None

    def __post_init__(self) -> None:
        if len(self.sides) != len(self.totals):
            raise RuleError("totals", N_("a game needs one total for each side"))
        if len(self.sides) < 2:
            raise RuleError("sides", N_("a game needs at least 2 sides"))
        if self.winner is not None and not 0 <= self.winner < len(self.sides):
            raise RuleError("winner", N_("must be the number of one of the game's sides"))
        if self.winner is not None and not self.finished:
            raise RuleError("winner", N_("a game with a winner is finished"))


@dataclass(frozen=True)
class Forfeit:
    """A game not played: ``absent`` did not come, ``present`` wins it by forfeit."""

    present: tuple[str, ...]
    absent: tuple[str, ...]
    family: str = DEFAULT_FAMILY

    def __post_init__(self) -> None:
        if not self.present:
            raise RuleError("present", N_("a forfeit needs the side that was there"))
        if set(self.present) & set(self.absent):
            raise RuleError("absent", N_("a player cannot be both present and absent"))


@dataclass(frozen=True)
class MatchStanding:
    """A player's line: games counted, won, drawn; match points, card points; rank from 1."""

    player: str
    games: int
    wins: int
    draws: int
    match_points: int
    card_points: int
    forfeits: int = 0  # games won by forfeit (counted in games and wins too)
    rank: int = 0


def match_points_of(match: Match, *, draws: bool = True) -> tuple[int, ...] | None:
    """Each side's match points for a game, or None while it counts for nothing."""
    if not match.finished:
        return None
    if match.winner is not None:
        return tuple(WIN if k == match.winner else LOSS for k in range(len(match.sides)))
    if not draws:
        return None
    top = max(match.totals)
    return tuple(DRAW if total == top else LOSS for total in match.totals)


def match_standings(
    players: Iterable[str],
    matches: Iterable[Match],
    forfeits: Iterable[Forfeit] = (),
    *,
    draws: bool = True,
) -> list[MatchStanding]:
    """The night ranked by match points, best first (every player of the night listed)."""
    lines: dict[str, list[int]] = {player: [0, 0, 0, 0, 0, 0] for player in players}

    def add(player: str, won: int, drew: int, points: int, cards: int, forfeit: int) -> None:
        line = lines.setdefault(player, [0, 0, 0, 0, 0, 0])
        for k, value in enumerate((1, won, drew, points, cards, forfeit)):
            line[k] += value

    for match in matches:
        points = match_points_of(match, draws=draws)
        if points is None:
            continue
        for side, score, margin in zip(match.sides, points, margins(match.totals), strict=True):
            for player in side:
                add(player, score == WIN, score == DRAW, score, margin, 0)
    for forfeit in forfeits:
        cards = forfeit_card_points(forfeit.family)
        for player in forfeit.present:
            add(player, 1, 0, WIN, cards, 1)
        for player in forfeit.absent:
            add(player, 0, 0, LOSS, -cards, 0)
    return rank_lines([MatchStanding(player, *line) for player, line in lines.items()])


def _order(line: MatchStanding) -> tuple[int, int, int]:
    return (-line.match_points, -line.card_points, -line.wins)


def rank_lines(lines: Sequence[MatchStanding]) -> list[MatchStanding]:
    """The lines sorted best first, each with its rank (shared by players level)."""
    return ranked(lines, _order)
