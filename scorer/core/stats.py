"""A club's statistics from its games' replays (pure core: no Flask, no SQL, no clock).

Everything is derived from the engine's GameState of each game: per hand and per side the
inputs (canastas, red threes, who went out) and the scores, the running totals and the
winner. A player's numbers are those of the side they sat on; a player who sits a hand out
in a side of three still shares that hand's numbers with the side (the side is who scores).

Each game is first boiled down to a GameSummary (a few numbers per side, whatever the number
of hands): the club's numbers are sums over summaries, so a caller can keep each game's
summary by its version and recompute a big club after one new hand without replaying it all.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field

from scorer.core.families import DEFAULT_FAMILY
from scorer.core.game import GameState
from scorer.core.ratings import RatedGame, Ratings, rate


@dataclass(frozen=True)
class ClubGame:
    """One game of the club: its id, its date (ISO 8601) and its replayed state."""

    id: str
    date: str
    state: GameState


@dataclass(frozen=True)
class HandRef:
    """One side's hand, to show it and link to it."""

    score: int
    game_id: str
    hand_number: int
    side: int
    players: tuple[str, ...]
    date: str


@dataclass(frozen=True)
class Comeback:
    """A won game where the winners were behind: the largest deficit they overcame."""

    deficit: int
    game_id: str
    side: int
    players: tuple[str, ...]
    date: str


@dataclass(frozen=True)
class Standing:
    """The numbers of one player (one name) or one partnership (its names, sorted)."""

    players: tuple[str, ...]
    games: int
    finished: int
    wins: int
    hands: int
    points: int  # the sum of the side's hand scores: its final totals added up
    natural_canastas: int
    mixed_canastas: int
    red_threes: int
    went_out: int
    concealed: int
    best_hand: HandRef | None
    comeback: Comeback | None
    streak: int  # +n: won the last n finished games; -n: lost them; 0: none finished

    @property
    def name(self) -> str:
        return " & ".join(self.players)

    @property
    def losses(self) -> int:
        return self.finished - self.wins

    @property
    def win_rate(self) -> float:
        """Wins over finished games (a game still being played is neither)."""
        return self.wins / self.finished if self.finished else 0.0

    def _per_hand(self, count: int) -> float:
        return count / self.hands if self.hands else 0.0

    @property
    def average_hand(self) -> float:
        return self._per_hand(self.points)

    @property
    def natural_per_hand(self) -> float:
        return self._per_hand(self.natural_canastas)

    @property
    def mixed_per_hand(self) -> float:
        return self._per_hand(self.mixed_canastas)

    @property
    def red_threes_per_hand(self) -> float:
        return self._per_hand(self.red_threes)

    @property
    def going_out_rate(self) -> float:
        return self._per_hand(self.went_out)

    @property
    def concealed_rate(self) -> float:
        return self._per_hand(self.concealed)


@dataclass(frozen=True)
class HeadToHead:
    """Finished games where `player` and `opponent` sat on different sides."""

    player: str
    opponent: str
    games: int
    wins: int  # games `player`'s side won
    losses: int  # games `opponent`'s side won


@dataclass(frozen=True)
class SeriesPoint:
    """A player's running numbers after one more game (for the charts)."""

    game_id: str
    date: str
    points: int  # the final total of the player's side in this game
    won: bool
    games: int
    total_points: int
    total_wins: int


@dataclass(frozen=True)
class ClubRecords:
    """The club's records over the games of one year."""

    year: str
    best_hand: HandRef | None  # of the club's own family's games
    best_game: HandRef | None  # hand_number is the game's last hand; score its final total
    comeback: Comeback | None
    # The best hand and game of each family the club played that year, by family key (the
    # club's own is best_hand and best_game): a family's scores are not another's.
    by_family: tuple[tuple[str, HandRef | None, HandRef | None], ...] = ()


@dataclass(frozen=True)
class ClubStats:
    players: tuple[Standing, ...]
    partnerships: tuple[Standing, ...]
    head_to_head: tuple[HeadToHead, ...]
    series: dict[str, tuple[SeriesPoint, ...]]
    records: ClubRecords
    # Each player's rating (openskill) from every finished game: scorer.core.ratings.
    ratings: Ratings = field(default_factory=lambda: Ratings({}, {}))


# --- summaries ------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class SideSummary:
    """One side of one game, its hands added up."""

    players: tuple[str, ...]
    total: int  # its final total
    hands: int
    points: int  # the sum of its hand scores
    natural: int
    mixed: int
    reds: int
    went_out: int
    concealed: int
    best_score: int | None  # its best hand (None before the first hand) ...
    best_number: int  # ... and that hand's number, the earliest of equal scores


@dataclass(frozen=True, slots=True)
class GameSummary:
    """What the club's numbers need from one game: small, and the same size for any length."""

    id: str
    date: str
    sides: tuple[SideSummary, ...]
    winner: int | None
    hands: int
    deficit: int  # the largest lead an opponent held over the winner (0: none or no winner)
    # The game of the Canasta family it plays: a best hand or game is compared only with
    # those of its own family (a summary stored before families: Classic).
    family: str = DEFAULT_FAMILY.key

    @property
    def finished(self) -> bool:
        return self.winner is not None

    @property
    def totals(self) -> tuple[int, ...]:
        return tuple(side.total for side in self.sides)


def deficit_overcome(state: GameState, side: int) -> int:
    """The largest lead an opponent held over `side` after any hand (0 if never behind)."""
    worst = 0
    for result in state.results:
        others = [t for i, t in enumerate(result.totals) if i != side]
        if others:
            worst = max(worst, max(others) - result.totals[side])
    return worst


def _side_summary(state: GameState, side: int) -> SideSummary:
    points = natural = mixed = reds = went_out = concealed = 0
    best_score: int | None = None
    best_number = 0
    for result in state.results:
        call = result.hand.sides[side]
        points += result.scores[side].total
        # A record is what the cards made: the table's penalties and corrections stay out.
        score = result.scores[side].played
        natural += call.natural_canastas
        mixed += call.mixed_canastas
        reds += call.red_threes
        if result.hand.went_out == side:
            went_out += 1
            concealed += int(result.hand.concealed)
        # Ties keep the earlier hand: the record was set first.
        if best_score is None or score > best_score:
            best_score, best_number = score, result.number
    return SideSummary(
        players=state.table.sides[side].players,
        total=state.totals[side],
        hands=len(state.results),
        points=points,
        natural=natural,
        mixed=mixed,
        reds=reds,
        went_out=went_out,
        concealed=concealed,
        best_score=best_score,
        best_number=best_number,
    )


def summarize(game_id: str, date: str, state: GameState) -> GameSummary:
    """A replayed game boiled down to what the club's numbers use."""
    winner = state.winner
    return GameSummary(
        id=game_id,
        date=date,
        sides=tuple(_side_summary(state, i) for i in range(len(state.table.sides))),
        winner=winner,
        hands=len(state.results),
        deficit=0 if winner is None else deficit_overcome(state, winner),
        family=state.table.profile.family.key,
    )


def _summary(game: ClubGame | GameSummary) -> GameSummary:
    if isinstance(game, GameSummary):
        return game
    return summarize(game.id, game.date, game.state)


# --- tallies ---------------------------------------------------------------------------------


@dataclass
class _Tally:
    players: tuple[str, ...]
    games: int = 0
    finished: int = 0
    wins: int = 0
    hands: int = 0
    points: int = 0
    natural: int = 0
    mixed: int = 0
    reds: int = 0
    went_out: int = 0
    concealed: int = 0
    # The best hand in each family's games: a family's scores are compared only among them.
    best_hands: dict[str, HandRef | None] = field(default_factory=dict)
    comeback: Comeback | None = None
    results: list[bool] = field(default_factory=list)

    def freeze(self, family: str = DEFAULT_FAMILY.key) -> Standing:
        return Standing(
            players=self.players,
            games=self.games,
            finished=self.finished,
            wins=self.wins,
            hands=self.hands,
            points=self.points,
            natural_canastas=self.natural,
            mixed_canastas=self.mixed,
            red_threes=self.reds,
            went_out=self.went_out,
            concealed=self.concealed,
            best_hand=self.best_hands.get(family),
            comeback=self.comeback,
            streak=streak(self.results),
        )


def streak(results: Sequence[bool]) -> int:
    """The run at the end of a list of results: +n wins in a row, -n losses in a row."""
    if not results:
        return 0
    last = results[-1]
    run = 0
    for result in reversed(results):
        if result != last:
            break
        run += 1
    return run if last else -run


def best_hand_of(game: GameSummary, side: int) -> HandRef | None:
    """The side's best hand in this game (None before the first hand)."""
    summary = game.sides[side]
    if summary.best_score is None:
        return None
    return HandRef(
        summary.best_score, game.id, summary.best_number, side, summary.players, game.date
    )


def comeback_of(game: GameSummary) -> Comeback | None:
    """The winners' comeback in this game, if they were ever behind."""
    if game.winner is None or game.deficit <= 0:
        return None
    players = game.sides[game.winner].players
    return Comeback(game.deficit, game.id, game.winner, players, game.date)


def _better_hand(best: HandRef | None, game: GameSummary, side: int) -> HandRef | None:
    """The side's best hand of this game if it beats `best` (built only then: 500 games)."""
    score = game.sides[side].best_score
    # Ties keep the earlier hand: the record was set first.
    if score is None or (best is not None and score <= best.score):
        return best
    return best_hand_of(game, side)


def _better_game(best: HandRef | None, candidate: HandRef) -> HandRef:
    return candidate if best is None or candidate.score > best.score else best


def _better_comeback(best: Comeback | None, candidate: Comeback | None) -> Comeback | None:
    if candidate is None:
        return best
    return candidate if best is None or candidate.deficit > best.deficit else best


def _add_side(tally: _Tally, game: GameSummary, side: int) -> None:
    summary = game.sides[side]
    tally.games += 1
    if game.finished:
        tally.finished += 1
        won = game.winner == side
        tally.wins += int(won)
        tally.results.append(won)
        if won:
            tally.comeback = _better_comeback(tally.comeback, comeback_of(game))
    tally.hands += summary.hands
    tally.points += summary.points
    tally.natural += summary.natural
    tally.mixed += summary.mixed
    tally.reds += summary.reds
    tally.went_out += summary.went_out
    tally.concealed += summary.concealed
    best = tally.best_hands
    best[game.family] = _better_hand(best.get(game.family), game, side)


def _standings(
    games: Sequence[GameSummary],
    keys: Callable[[tuple[str, ...]], list[tuple[str, ...]]],
    family: str = DEFAULT_FAMILY.key,
) -> tuple[Standing, ...]:
    tallies: dict[tuple[str, ...], _Tally] = {}
    for game in games:
        for index, side in enumerate(game.sides):
            for key in keys(side.players):
                tally = tallies.setdefault(key, _Tally(key))
                _add_side(tally, game, index)
    standings = [tally.freeze(family) for tally in tallies.values()]
    standings.sort(key=lambda s: (-s.wins, -s.win_rate, -s.points, s.name.casefold()))
    return tuple(standings)


def chronological(games: Iterable[GameSummary]) -> list[GameSummary]:
    """Games by date; games of the same date keep their given order."""
    return sorted(games, key=lambda game: game.date)


def player_standings(
    games: Sequence[GameSummary], family: str = DEFAULT_FAMILY.key
) -> tuple[Standing, ...]:
    return _standings(chronological(games), lambda players: [(name,) for name in players], family)


def partnership_standings(
    games: Sequence[GameSummary], family: str = DEFAULT_FAMILY.key
) -> tuple[Standing, ...]:
    """Sides of two or more players; the same partners in any seating order are one."""

    def keys(players: tuple[str, ...]) -> list[tuple[str, ...]]:
        if len(players) < 2:
            return []
        return [tuple(sorted(players, key=str.casefold))]

    return _standings(chronological(games), keys, family)


def head_to_head(games: Sequence[GameSummary]) -> tuple[HeadToHead, ...]:
    """Every ordered pair of players who met on different sides in a finished game."""
    counts: dict[tuple[str, str], list[int]] = {}
    for game in games:
        if not game.finished:
            continue
        sides = game.sides
        for i, side in enumerate(sides):
            for j, other in enumerate(sides):
                if i == j:
                    continue
                for player in side.players:
                    for opponent in other.players:
                        row = counts.setdefault((player, opponent), [0, 0, 0])
                        row[0] += 1
                        row[1] += int(game.winner == i)
                        row[2] += int(game.winner == j)
    rows = [HeadToHead(p, o, g, w, lost) for (p, o), (g, w, lost) in counts.items()]
    rows.sort(key=lambda row: (row.player.casefold(), row.opponent.casefold()))
    return tuple(rows)


def series(games: Sequence[GameSummary]) -> dict[str, tuple[SeriesPoint, ...]]:
    """Each player's running games, points and wins, game after game."""
    points: dict[str, list[SeriesPoint]] = {}
    for game in chronological(games):
        for index, side in enumerate(game.sides):
            won = game.winner == index
            for player in side.players:
                line = points.setdefault(player, [])
                before = line[-1] if line else None
                line.append(
                    SeriesPoint(
                        game_id=game.id,
                        date=game.date,
                        points=side.total,
                        won=won,
                        games=(before.games if before else 0) + 1,
                        total_points=(before.total_points if before else 0) + side.total,
                        total_wins=(before.total_wins if before else 0) + int(won),
                    )
                )
    return {player: tuple(line) for player, line in points.items()}


def records(
    games: Sequence[GameSummary], year: str, family: str = DEFAULT_FAMILY.key
) -> ClubRecords:
    """The best hand, the best game total and the biggest comeback of `year` ("2024"); the
    best hand and game of the club's own `family`, and of each family apart."""
    best: dict[str, tuple[HandRef | None, HandRef | None]] = {}
    comeback: Comeback | None = None
    for game in chronological(games):
        if not game.date.startswith(year):
            continue
        best_hand, best_game = best.get(game.family, (None, None))
        for index, side in enumerate(game.sides):
            best_hand = _better_hand(best_hand, game, index)
            if game.hands:
                final = HandRef(side.total, game.id, game.hands, index, side.players, game.date)
                best_game = _better_game(best_game, final)
        best[game.family] = (best_hand, best_game)
        comeback = _better_comeback(comeback, comeback_of(game))
    own_hand, own_game = best.get(family, (None, None))
    by_family = tuple((key, hand, total) for key, (hand, total) in sorted(best.items()))
    return ClubRecords(year, own_hand, own_game, comeback, by_family)


def club_stats(
    games: Sequence[ClubGame | GameSummary], year: str, family: str = DEFAULT_FAMILY.key
) -> ClubStats:
    """Everything the club page shows, from its games or their summaries (`year`: the
    records' year; `family`: the club's game, whose best hands its records compare)."""
    summaries = [_summary(game) for game in games]
    return ClubStats(
        players=player_standings(summaries, family),
        partnerships=partnership_standings(summaries, family),
        head_to_head=head_to_head(summaries),
        series=series(summaries),
        records=records(summaries, year, family),
        ratings=rate(
            RatedGame(tuple(side.players for side in game.sides), game.totals, game.winner)
            for game in chronological(summaries)
        ),
    )
