"""A game's progression: running totals, opening minimums, dealer, winner.

Nothing here is stored: a game's state is always derived from its table and its hands, so a
correction anywhere recomputes everything after it.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, replace
from functools import cached_property

from scorer.core.errors import N_, GameFinished, RuleError
from scorer.core.hand_schema import check_hand_size
from scorer.core.hands import Hand, SideScore, score_hand, validate_hand
from scorer.core.irregular import Irregularity, ask, irregularities
from scorer.core.limits import NAME_MAX
from scorer.core.rules import RuleProfile


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


def game_title(name: str, sides: Sequence[Side]) -> str:
    """A game's name, or its sides' names when it has none."""
    return name or " / ".join(side.name for side in sides)


# "Friday #2": the number of the game in a row of Play again (no words: stored names are not
# translated, and "#" reads the same in every language).
_NUMBERED = re.compile(r"^(.*\S) #(\d{1,4})$")


def next_name(name: str | None, sides: Sequence[Side]) -> str:
    """The name of a game played again: "Friday" is followed by "Friday #2", then
    "Friday #3"; a game without a name is called by its sides. Within the name limit, the
    number kept whole."""
    base = game_title(name or "", sides)
    number = 2
    found = _NUMBERED.match(base)
    if found:
        base, number = found.group(1), int(found.group(2)) + 1
    suffix = f" #{number}"
    return base[: NAME_MAX - len(suffix)].rstrip() + suffix


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
    """Players who sit this hand out: in a side too large to play whole, one in turn.

    The turn passes through the side from each player to the teammate before them, which
    (with the deal passing left) lets every player of the table deal in turn.
    """
    out = []
    for side in table.sides:
        size = len(side.players)
        extra = size - table.profile.playing_side_size
        if extra > 0:
            start = _first_to_sit_out(table, side) - hand_index * extra
            out.extend(side.players[(start - k) % size] for k in range(extra))
    return tuple(out)


def _first_to_sit_out(table: Table, side: Side) -> int:
    """The first dealer deals the first hand: the teammate before them sits it out."""
    first = table.seating[table.first_dealer]
    return side.players.index(first) - 1 if first in side.players else 0


def dealer(table: Table, hand_index: int) -> str:
    """Who deals a hand: the first dealer chosen, then the deal passes left each hand.

    It passes to the next player on the left among those who play that hand, so a player who
    sits a hand out is skipped and nobody deals twice in a row.
    """
    seats = table.seating
    if all(len(side.players) <= table.profile.playing_side_size for side in table.sides):
        # Nobody ever sits out: one seat left each hand (and a replay stays linear).
        return seats[(table.first_dealer + hand_index) % len(seats)]
    position = table.first_dealer
    for index in range(1, hand_index + 1):
        resting = sitting_out(table, index)
        position = next(
            seat
            for step in range(1, len(seats) + 1)
            if seats[seat := (position + step) % len(seats)] not in resting
        )
    return seats[position]


@dataclass(frozen=True)
class HandResult:
    """One recorded hand with its scores, the minimums that applied and the totals after.

    ``irregular`` lists what the table confirmed (§2b); a hand ``after_end`` was recorded
    after the game's winning hand (§2c): it is kept, and counts for nothing.
    """

    number: int
    hand: Hand
    scores: tuple[SideScore, ...]
    minimums: tuple[int, ...]
    totals: tuple[int, ...]
    dealer: str
    irregular: tuple[Irregularity, ...] = ()
    after_end: bool = False


@dataclass(frozen=True)
class GameState:
    """Everything the scoreboard shows, derived from the table and its hands."""

    table: Table
    results: tuple[HandResult, ...]
    totals: tuple[int, ...]
    winner: int | None
    # The number of the hand that decided the winner (None while the game goes on).
    ended_at: int | None = None
    # The sides that share the win (the house rule "shared" on a tie at the top), else ().
    shared_by: tuple[int, ...] = ()

    @property
    def finished(self) -> bool:
        return self.winner is not None or bool(self.shared_by)

    @property
    def after_end(self) -> tuple[int, ...]:
        """Numbers of the hands played after the end, which count for nothing (§2c)."""
        return tuple(result.number for result in self.results if result.after_end)

    @property
    def hands_played(self) -> int:
        """The hands that count: those up to the end (any played after it count for nothing)."""
        return len(self.results) - len(self.after_end)

    @property
    def tied(self) -> bool:
        """Someone reached the target but the top is shared: one more hand."""
        # (While nobody has won, every recorded hand counts: none came after the end.)
        return not self.finished and _reached(self.table.profile, self.totals, len(self.results))

    @property
    def minimums(self) -> tuple[int, ...]:
        """Each side's opening minimum for the next hand (by its number under the tournament
        rule, else from the side's total)."""
        number = len(self.results) + 1
        return tuple(self.table.profile.minimum_for(total, number) for total in self.totals)

    @property
    def dealer_next(self) -> str:
        return dealer(self.table, len(self.results))

    @property
    def sitting_out_next(self) -> tuple[str, ...]:
        return sitting_out(self.table, len(self.results))


def new_game(table: Table) -> GameState:
    return GameState(table, (), tuple(0 for _ in table.sides), None)


def check_hand(
    state: GameState, hand: Hand, confirmed: frozenset[str] | set[str] = frozenset()
) -> tuple[Irregularity, ...]:
    """Check a new or corrected hand against the game before it; its irregular items.

    RuleError for a hand that breaks a rule of §2 (never confirmable); NeedsConfirmation
    for an irregular item (§2b) whose kind is not in ``confirmed``. A ``confirmed`` kind the
    hand does not need is ignored.
    """
    profile = state.table.profile
    check_new_hand(profile, hand, len(state.table.sides))
    found = irregularities(profile, state.minimums, hand)
    ask(found, confirmed)
    return found


def check_new_hand(profile: RuleProfile, hand: Hand, sides: int) -> None:
    """A hand about to be stored: every rule of §2, and its size (a stored one is replayed
    as it is: the bound holds from the hand's way in)."""
    validate_hand(profile, hand, sides)
    check_hand_size(hand, profile.family)


def add_hand(
    state: GameState, hand: Hand, *, confirmed: frozenset[str] | set[str] | None = None
) -> GameState:
    """The game after one more hand; GameFinished once the game has a winner.

    With ``confirmed`` (a set, maybe empty) an irregular hand is asked about first, as
    :func:`check_hand` does; without it the hand is checked against §2 only.
    """
    if state.finished:
        raise GameFinished(None, N_("this game is over: it takes no further hands"))
    if confirmed is None:
        check_new_hand(state.table.profile, hand, len(state.table.sides))
    else:
        check_hand(state, hand, confirmed)
    return _advance(state, hand)


def _advance(state: GameState, hand: Hand) -> GameState:
    """The game after a hand already checked; after the end it counts for nothing."""
    profile = state.table.profile
    scores = score_hand(profile, hand)
    number = len(state.results) + 1
    after_end = state.finished
    totals = state.totals
    if not after_end:
        totals = tuple(t + score.total for t, score in zip(totals, scores, strict=True))
    minimums = state.minimums
    result = HandResult(
        number=number,
        hand=hand,
        scores=scores,
        minimums=minimums,
        totals=totals,
        dealer=state.dealer_next,
        irregular=irregularities(profile, minimums, hand),
        after_end=after_end,
    )
    if after_end:
        return replace(state, results=state.results + (result,))
    won, shared = outcome(profile, totals, number, hand.went_out)
    dream = special_winner(profile, hand)
    if dream is not None:
        won, shared = dream, ()  # a dream hand wins outright, whatever the totals
    ended = won is not None or bool(shared)
    return GameState(
        state.table,
        state.results + (result,),
        totals,
        won,
        number if ended else None,
        shared,
    )


def play(table: Table, hands: tuple[Hand, ...] | list[Hand], *, strict: bool = False) -> GameState:
    """Replay a game from its stored hands; RuleError (with ``hand_number``) for a bad one.

    Stored hands are replayed as they were recorded: irregular items are not asked again, and
    (unless ``strict``) only the rules of §2 that held when they were stored are checked.
    Hands after the one that decided the winner are kept, counting for nothing (§2c).
    """
    state = new_game(table)
    profile, sides = table.profile, len(table.sides)
    for index, hand in enumerate(hands):
        try:
            if strict:
                check_new_hand(profile, hand, sides)
            else:
                validate_hand(profile, hand, sides, stored=True)
        except RuleError as error:
            raise _in_hand(error, index) from error
        state = _advance(state, hand)
    return state


def correct(
    state: GameState,
    number: int,
    hand: Hand,
    *,
    confirmed: frozenset[str] | set[str] = frozenset(),
) -> GameState:
    """The game with hand ``number`` (from 1) replaced by a corrected hand.

    ``state`` is a replayed game. The corrected hand is checked as a new one (§2 and §2b,
    against the game before it); a refusal names its own field. The others are re-scored in
    order, and the hands after it may now come after the end (§2c).
    """
    hands = _hands_numbered(state, number)
    before = _before(state, number)
    check_hand(before, hand, confirmed)
    return rescore(state.table, hands[number:], _advance(before, hand))


def remove(state: GameState, number: int) -> GameState:
    """The replayed game without hand ``number`` (from 1): later hands renumbered, re-scored."""
    hands = _hands_numbered(state, number)
    return rescore(state.table, hands[number:], _before(state, number))


def _before(state: GameState, number: int) -> GameState:
    """The game as it stood before hand ``number`` (from 1), cut from its results.

    The usual correction is of the last hand or so: nothing before it is worked out again.
    """
    results = state.results[: number - 1]
    if not results:
        return new_game(state.table)
    ended = state.ended_at is not None and state.ended_at < number
    return GameState(
        state.table,
        results,
        results[-1].totals,  # after the end the totals stay those of the winning hand
        state.winner if ended else None,
        state.ended_at if ended else None,
        state.shared_by if ended else (),
    )


def rescore(table: Table, hands: list[Hand], state: GameState | None = None) -> GameState:
    """The game after hands taken from a replayed game, in a new order or after a change.

    They passed §2 when that game was replayed, and §2 looks at each hand alone, so only
    what depends on their order is worked out again: totals, minimums, irregular items, the
    dealer and the end. (A long game is corrected in a fraction of a full replay's time.)
    """
    state = state or new_game(table)
    for hand in hands:
        state = _advance(state, hand)
    return state


def _hands_numbered(state: GameState, number: int) -> list[Hand]:
    """The game's hands; RuleError unless it has a hand ``number`` (from 1)."""
    if not 1 <= number <= len(state.results):
        raise RuleError("hands", N_("there is no hand {number}"), number=number)
    return [result.hand for result in state.results]


def without_after_end(state: GameState) -> tuple[Hand, ...]:
    """The game's hands without those played after its end (the one-step removal of §2c)."""
    return tuple(result.hand for result in state.results if not result.after_end)


def _in_hand(error: RuleError, index: int) -> RuleError:
    """The same refusal, saying which hand of a replay it came from."""
    return RuleError(error.field, error.template, hand_number=index + 1, **error.params)


def _reached(profile: RuleProfile, totals: tuple[int, ...], hands: int) -> bool:
    """The end of the game is due: the target reached, or (a game of N hands) hand N played."""
    if profile.fixed_hands is not None:
        return hands >= profile.fixed_hands
    return any(total >= profile.target for total in totals)


def special_winner(profile: RuleProfile, hand: Hand) -> int | None:
    """The side whose special hand wins the game outright (the League's dream hands), if any."""
    for index, side in enumerate(hand.sides):
        if side.special_hand is not None:
            special = profile.special_hand(side.special_hand)
            if special is not None and special.wins_game:
                return index
    return None


def winner(
    profile: RuleProfile, totals: tuple[int, ...], hands: int = 0, went_out: int | None = None
) -> int | None:
    """The side that won, checked after a complete hand (``hands`` of them so far); None
    while playing or tied on top (or when the top sides share the win)."""
    return outcome(profile, totals, hands, went_out)[0]


def outcome(
    profile: RuleProfile, totals: tuple[int, ...], hands: int = 0, went_out: int | None = None
) -> tuple[int | None, tuple[int, ...]]:
    """(the winner, the sides sharing the win) after a complete hand (``hands`` of them so
    far); (None, ()) while the game goes on. A tie at the top plays on (the rule book; in a
    game of N hands too) unless a house rule says that the side that went out in that hand
    wins, or that the top sides share the win."""
    if not _reached(profile, totals, hands):
        return None, ()
    top = max(totals)
    leaders = tuple(i for i, total in enumerate(totals) if total == top)
    if len(leaders) == 1:
        return leaders[0], ()
    if profile.tie == "went_out_wins" and went_out in leaders:
        return went_out, ()
    if profile.tie == "shared":
        return None, leaders
    return None, ()
