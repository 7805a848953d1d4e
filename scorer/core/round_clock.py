"""A timed round (docs/rules.md §6): its clock, and what time being called means for its games.

Pure core: the time is always passed in (the store reads the clock, one reading per request),
so a test moves time by handing another ``now``. Times are aware datetimes (UTC).

A round lasts ``minutes`` from the moment it was drawn; ``warning_minutes`` before its end the
wall and the tables show the warning. When time is called, the hand being played is finished
and recorded, and no new hand starts: a table may record one hand after time (the one under
way when time was called, which is the one after the last hand recorded before it), then its
game is over and the higher total wins (a tie: the house tie rule, scorer.core.game).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Literal

from scorer.core.errors import N_, GameFinished, RuleError
from scorer.core.limits import check_round_minutes, check_warning_minutes

Phase = Literal["playing", "warning", "time"]


class TimeCalled(GameFinished):
    """Time was called in this round and its last hand is recorded: no new hand starts."""


@dataclass(frozen=True)
class RoundClock:
    """When a timed round started, how long it lasts, and the warning before its end."""

    started_at: datetime
    minutes: int
    warning_minutes: int = 0

    def __post_init__(self) -> None:
        if self.started_at.tzinfo is None:
            raise RuleError("started_at", N_("must say its time zone"))
        check_round_minutes(self.minutes)
        check_warning_minutes(self.warning_minutes, self.minutes)

    @property
    def ends_at(self) -> datetime:
        return self.started_at + timedelta(minutes=self.minutes)

    @property
    def warns_at(self) -> datetime:
        return self.ends_at - timedelta(minutes=self.warning_minutes)


@dataclass(frozen=True)
class ClockReading:
    """The clock at ``now``: the round's phase, the whole seconds left (0 once time) and
    those to the warning (0 once it is shown, or in a round without one)."""

    phase: Phase
    seconds_left: int
    seconds_to_warning: int = 0

    @property
    def next_phase_in(self) -> int | None:
        """Whole seconds to the next phase (the warning, else time), None once time: how
        long a page drawn now stays right without JavaScript."""
        if self.phase == "time":
            return None
        return self.seconds_to_warning or self.seconds_left

    @property
    def minutes_seconds(self) -> str:
        """The time left as the wall shows it, e.g. "49:05"."""
        minutes, seconds = divmod(self.seconds_left, 60)
        return f"{minutes}:{seconds:02d}"


def read_clock(clock: RoundClock, now: datetime) -> ClockReading:
    """What the wall shows at ``now``."""
    left = (clock.ends_at - now).total_seconds()
    if left <= 0:
        return ClockReading("time", 0)
    # Rounded up: the wall shows 0:00 only when time is called, and a page that counts down
    # from these seconds changes phase no earlier than the server does.
    seconds = _whole_seconds(clock.ends_at - now)
    if clock.warning_minutes and now >= clock.warns_at:
        return ClockReading("warning", seconds)
    to_warning = _whole_seconds(clock.warns_at - now) if clock.warning_minutes else 0
    return ClockReading("playing", seconds, to_warning)


def _whole_seconds(span: timedelta) -> int:
    """A span rounded up to whole seconds (never early)."""
    return int(-(-span.total_seconds() // 1))


def hand_after_time(clock: RoundClock, hands_at: Sequence[datetime]) -> bool:
    """Whether a hand of this game was recorded after time (the last one it may record)."""
    return any(at >= clock.ends_at for at in hands_at)


def check_new_hand(clock: RoundClock, now: datetime, hands_at: Sequence[datetime]) -> None:
    """A hand about to be recorded at ``now`` in a game of the round whose earlier hands were
    recorded at ``hands_at``: TimeCalled once the hand under way at time is recorded."""
    if now >= clock.ends_at and hand_after_time(clock, hands_at):
        raise TimeCalled(
            "hand",
            # No time of day in the words: the server's clock is UTC, the reader's is not.
            N_("time was called in this round and its last hand is recorded: no new hand starts"),
        )


def over_by_time(clock: RoundClock, now: datetime, hands_at: Sequence[datetime]) -> bool:
    """Whether the game is over by the clock: time is called and its last hand recorded."""
    return now >= clock.ends_at and hand_after_time(clock, hands_at)


def winner_at_time(totals: Sequence[int]) -> int | None:
    """The side with the higher total when time ends the game; None on a tie at the top
    (then the house tie rule decides)."""
    top = max(totals)
    leaders = [k for k, total in enumerate(totals) if total == top]
    return leaders[0] if len(leaders) == 1 else None
