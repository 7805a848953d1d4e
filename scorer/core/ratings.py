"""Players' ratings from every finished game of a club, with the openskill library.

Pure core: games in, ratings out (openskill's Plackett-Luce model is deterministic). Each
finished game is one match: its sides are the teams (a player alone is a team of one), ranked
by the result: the winner first, the others by their final totals (equal totals share a
place). A rating is a skill ``mu`` and its uncertainty ``sigma``; the games are rated in the
order they were played, so each player's history is their rating after each of their games.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from openskill.models import PlackettLuce

# openskill's own starting point: mu 25, sigma 25/3.
MODEL = PlackettLuce()


@dataclass(frozen=True)
class Rating:
    """A player's rating: skill ``mu`` give or take ``sigma``, after ``games`` games."""

    mu: float
    sigma: float
    games: int

    @property
    def ordinal(self) -> float:
        """A cautious single number (mu - 3 sigma): what a ranking by rating sorts on."""
        return self.mu - 3 * self.sigma


@dataclass(frozen=True)
class RatedGame:
    """What a rating needs from one game: its sides' players, final totals and winner."""

    sides: tuple[tuple[str, ...], ...]
    totals: tuple[int, ...]
    winner: int | None


@dataclass(frozen=True)
class Ratings:
    """Everyone's rating now, and each player's history (rating after each of their games)."""

    current: dict[str, Rating]
    history: dict[str, tuple[Rating, ...]]


def places(game: RatedGame) -> list[int]:
    """Each side's place (0 first): the winner, then the others by total; equal share."""
    order = sorted(range(len(game.sides)), key=lambda k: (k != game.winner, -game.totals[k]))
    ranks = [0] * len(game.sides)
    for position, side in enumerate(order):
        previous = order[position - 1] if position else None
        same = (
            previous is not None
            and previous != game.winner
            and game.totals[previous] == game.totals[side]
        )
        ranks[side] = ranks[previous] if same and previous is not None else position
    return ranks


def rate(games: Iterable[RatedGame]) -> Ratings:
    """The ratings after these games, oldest first; unfinished games count for nothing."""
    state: dict[str, object] = {}
    history: dict[str, list[Rating]] = {}
    played: dict[str, int] = {}
    for game in games:
        if game.winner is None or len(game.sides) < 2:
            continue
        teams = [[_rating(state, player) for player in side] for side in game.sides]
        rated = MODEL.rate(teams, ranks=places(game))
        for side, new_team in zip(game.sides, rated, strict=True):
            for player, new in zip(side, new_team, strict=True):
                state[player] = new
                played[player] = played.get(player, 0) + 1
                history.setdefault(player, []).append(Rating(new.mu, new.sigma, played[player]))
    return Ratings(
        {player: line[-1] for player, line in history.items()},
        {player: tuple(line) for player, line in history.items()},
    )


def rating_json(rating: Rating | None) -> dict[str, float | int] | None:
    """A rating as the APIs give it, with its uncertainty (None before a first finished game)."""
    if rating is None:
        return None
    return {
        "mu": round(rating.mu, 3),
        "sigma": round(rating.sigma, 3),
        "ordinal": round(rating.ordinal, 3),
        "games": rating.games,
    }


def _rating(state: dict[str, object], player: str) -> object:
    found = state.get(player)
    return found if found is not None else MODEL.rating()
