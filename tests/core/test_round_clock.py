"""A timed round with an injected clock (docs/rules.md §6): 50 minutes and a 10-minute warning;
time is called, the hand under way is recorded, the next one is refused."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from scorer.core.errors import RuleError
from scorer.core.round_clock import (
    RoundClock,
    TimeCalled,
    check_new_hand,
    over_by_time,
    read_clock,
    winner_at_time,
)

START = datetime(2026, 3, 5, 19, 30, tzinfo=UTC)
CLOCK = RoundClock(START, 50, 10)


def at(minutes: float) -> datetime:
    return START + timedelta(minutes=minutes)


@pytest.mark.parametrize(
    ("minutes", "phase", "shown"),
    [
        (0, "playing", "50:00"),
        (0.99 / 60, "playing", "50:00"),
        (39.5, "playing", "10:30"),
        (40, "warning", "10:00"),
        (49 + 59.5 / 60, "warning", "0:01"),
        (50, "time", "0:00"),
        (75, "time", "0:00"),
    ],
)
def test_the_clock_on_the_wall(minutes, phase, shown):
    reading = read_clock(CLOCK, at(minutes))
    assert (reading.phase, reading.minutes_seconds) == (phase, shown)


def test_no_warning_when_none_is_set():
    assert read_clock(RoundClock(START, 50), at(49)).phase == "playing"


@pytest.mark.parametrize(
    ("minutes", "to_warning", "next_phase_in"),
    [
        (0, 2400, 2400),
        (39.5, 30, 30),
        (40 - 0.5 / 60, 1, 1),  # half a second: rounded up, never early
        (40, 0, 600),  # the warning shown: the next phase is time
        (49 + 59.5 / 60, 0, 1),
        (50, 0, None),
    ],
)
def test_how_long_until_the_phase_changes(minutes, to_warning, next_phase_in):
    """What a page counts down to without asking the server again (and how soon a page
    without JavaScript reloads)."""
    reading = read_clock(CLOCK, at(minutes))
    assert (reading.seconds_to_warning, reading.next_phase_in) == (to_warning, next_phase_in)


def test_a_round_without_warning_changes_phase_only_at_time():
    reading = read_clock(RoundClock(START, 50), at(45))
    assert (reading.seconds_to_warning, reading.next_phase_in) == (0, 300)


def test_after_time_the_hand_under_way_is_recorded_then_no_new_hand():
    hands = [at(12), at(31), at(47)]
    check_new_hand(CLOCK, at(49), hands)  # before time: as usual
    hands.append(at(49))
    check_new_hand(CLOCK, at(53), hands)  # time called at 50: the hand under way is recorded
    assert not over_by_time(CLOCK, at(52), hands)
    hands.append(at(53))
    assert over_by_time(CLOCK, at(53), hands)
    with pytest.raises(TimeCalled) as caught:
        check_new_hand(CLOCK, at(58), hands)
    assert caught.value.field == "hand"
    assert caught.value.reason.startswith("time was called in this round")


def test_a_game_with_no_hand_yet_at_time_records_the_hand_under_way():
    check_new_hand(CLOCK, at(60), [])
    with pytest.raises(TimeCalled):
        check_new_hand(CLOCK, at(61), [at(60)])


@pytest.mark.parametrize(
    ("totals", "winner"), [((3100, 2950), 0), ((800, 1200), 1), ((900, 900), None)]
)
def test_the_higher_total_wins_at_time(totals, winner):
    assert winner_at_time(totals) == winner


@pytest.mark.parametrize(
    ("make", "field"),
    [
        (lambda: RoundClock(START, 4), "round.minutes"),
        (lambda: RoundClock(START, 241), "round.minutes"),
        (lambda: RoundClock(START, True), "round.minutes"),
        (lambda: RoundClock(START, 50, 50), "round.warning_minutes"),
        (lambda: RoundClock(START, 50, -1), "round.warning_minutes"),
        (lambda: RoundClock(datetime(2026, 3, 5, 19, 30), 50), "started_at"),
    ],
)
def test_refusals_name_the_field(make, field):
    with pytest.raises(RuleError) as caught:
        make()
    assert caught.value.field == field
