"""A game's progression: running totals, opening minimums, dealer, winner.

Nothing here is stored: a game's state is always derived from its table and its hands, so a
correction anywhere recomputes everything after it.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

from scorer.errors import N_, GameFinished, RuleError
from scorer.hands import Hand, SideScore, score_hand, validate_hand
from scorer.rules import RuleProfile


@dataclass(frozen=True)
class Side:
    """A team (or a player alone) with its players in seating order."""

    name: str
    players: tuple[str, ...]


@dataclass(frozen=True)
class Table:
    """Who plays, under which rules, and who deals the first hand (an index into seating)."""

    profile: RuleProfile
    sides: tuple[Side, ...]
    first_dealer: int = 0

    @cached_property
    def seating(self) -> tuple[str, ...]:
        return seating(self.sides)


def seating(sides: tuple[Side, ...]) -> tuple[str, ...]:
    """Players around the table: partners alternate with opponents (A1, B1, A2, B2...)."""
    seats: list[str] = []
    for seat in range(max((len(side.players) for side in sides), default=0)):
        seats.extend(side.players[seat] for side in sides if seat < len(side.players))
    return tuple(seats)


def make_table(
    profile: RuleProfile, sides: tuple[Side, ...], first_dealer: str | None = None
) -> Table:
    """A validated table: the sides fit the profile and the first dealer sits at it."""
    team_sizes = tuple(len(side.players) for side in sides)
    profile.layout_for(team_sizes)
    names = seating(sides)
    if len(set(names)) != len(names):
        raise RuleError("sides", N_("each player needs a different name"))
    if first_dealer is None:
        return Table(profile, sides, 0)
    if first_dealer not in names:
        raise RuleError("first_dealer", N_("must be one of the players"))
    return Table(profile, sides, names.index(first_dealer))


def sitting_out(table: Table, hand_index: int) -> tuple[str, ...]:
    """Players who sit this hand out: in a side too large to play whole, one in turn."""
    # The side's first player sits out the first hand, then the next one (RULES.md only
    # says "in turn").
    out = []
    for side in table.sides:
        extra = len(side.players) - table.profile.playing_side_size
        if extra > 0:
            start = hand_index * extra
            out.extend(side.players[(start + k) % len(side.players)] for k in range(extra))
    return tuple(out)


def dealer(table: Table, hand_index: int) -> str:
    """The deal passes to the left each hand, skipping a player who sits that hand out."""
    # RULES.md is silent at five players. Our choice: the deal moves one seat to the left
    # each hand around all seats, sitters-out included; when that seat's player sits the
    # hand out, the next playing player on the left deals in their place. Every seat thus
    # gets its turn equally, but that next player may deal two hands in a row.
    seats = table.seating
    resting = sitting_out(table, hand_index)
    for step in range(len(seats)):
        player = seats[(table.first_dealer + hand_index + step) % len(seats)]
        if player not in resting:
            return player
    return seats[0]  # pragma: no cover - a table always has a playing seat


@dataclass(frozen=True)
class HandResult:
    """One recorded hand with its scores, the minimums that applied and the totals after."""

    number: int
    hand: Hand
    scores: tuple[SideScore, ...]
    minimums: tuple[int, ...]
    totals: tuple[int, ...]
    dealer: str


@dataclass(frozen=True)
class GameState:
    """Everything the scoreboard shows, derived from the table and its hands."""

    table: Table
    results: tuple[HandResult, ...]
    totals: tuple[int, ...]
    winner: int | None

    @property
    def finished(self) -> bool:
        return self.winner is not None

    @property
    def tied(self) -> bool:
        """Someone reached the target but the top is shared: one more hand."""
        return self.winner is None and _reached(self.table.profile, self.totals)

    @property
    def minimums(self) -> tuple[int, ...]:
        """Each side's opening minimum for the next hand."""
        return tuple(self.table.profile.opening_minimum(total) for total in self.totals)

    @property
    def dealer_next(self) -> str:
        return dealer(self.table, len(self.results))

    @property
    def sitting_out_next(self) -> tuple[str, ...]:
        return sitting_out(self.table, len(self.results))


def new_game(table: Table) -> GameState:
    return GameState(table, (), tuple(0 for _ in table.sides), None)


def add_hand(state: GameState, hand: Hand) -> GameState:
    """The game after one more hand; GameFinished once the game has a winner."""
    if state.finished:
        raise GameFinished(None, N_("this game is over: it takes no further hands"))
    profile = state.table.profile
    validate_hand(profile, hand, len(state.table.sides))
    scores = score_hand(profile, hand)
    totals = tuple(total + score.total for total, score in zip(state.totals, scores, strict=True))
    result = HandResult(
        number=len(state.results) + 1,
        hand=hand,
        scores=scores,
        minimums=state.minimums,
        totals=totals,
        dealer=state.dealer_next,
    )
    return GameState(state.table, state.results + (result,), totals, winner(profile, totals))


def play(table: Table, hands: tuple[Hand, ...] | list[Hand]) -> GameState:
    """Replay a game from its hands; a hand after the winning one is refused."""
    state = new_game(table)
    for index, hand in enumerate(hands):
        if state.finished:
            raise GameFinished(
                "hands",
                N_("the game would be won at hand {won}, before its last hand {last}"),
                won=index,
                last=len(hands),
            )
        try:
            state = add_hand(state, hand)
        except GameFinished:  # pragma: no cover - checked just above
            raise
        except RuleError as error:
            raise _in_hand(error, index) from error
    return state


def _in_hand(error: RuleError, index: int) -> RuleError:
    """The same refusal, saying which hand of a replay it came from."""
    return RuleError(error.field, error.template, hand_number=index + 1, **error.params)


def _reached(profile: RuleProfile, totals: tuple[int, ...]) -> bool:
    return any(total >= profile.target for total in totals)


def winner(profile: RuleProfile, totals: tuple[int, ...]) -> int | None:
    """The side that won, checked after a complete hand; None while playing or tied on top."""
    if not _reached(profile, totals):
        return None
    top = max(totals)
    leaders = [i for i, total in enumerate(totals) if total == top]
    return leaders[0] if len(leaders) == 1 else None
