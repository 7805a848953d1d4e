"""Section 1: the rules engine alone (no Flask, no SQL)."""

from __future__ import annotations

from bench import fixtures
from bench.context import Bench
from bench.measure import Row, Section, compare, fmt_count, fmt_ratio, fmt_time
from scorer.core.game import play
from scorer.core.hands import Hand, SideHand, score_hand, validate_hand

LENGTHS = (10, 100, 1000)
BUDGET = 0.005  # seconds per sample


def _build_cycle() -> tuple[Hand, ...]:
    """The baseline: building the cycle's four hands (what parsing a request ends with)."""
    return tuple(
        Hand(
            sides=tuple(SideHand(**vars(side)) for side in hand.sides),
            went_out=hand.went_out,
            concealed=hand.concealed,
        )
        for hand in fixtures.CYCLE
    )


def run(section: Section, bench: Bench) -> None:
    # Many short samples in alternation: a busy neighbour then hits both sides alike.
    repeat = 3 * bench.repeat
    table = fixtures.table()
    profile = table.profile

    def score_cycle() -> None:
        for hand in fixtures.CYCLE:
            validate_hand(profile, hand, 2)
            score_hand(profile, hand)

    cycle = len(fixtures.CYCLE)
    one, base = compare(score_cycle, _build_cycle, repeat, BUDGET)
    base_name = "building the hand"
    section.rows.append(Row("baseline: build one hand (2 sides)", fmt_time(base / cycle)))
    section.rows.append(
        Row(
            "validate + score one hand",
            fmt_time(one / cycle),
            fmt_ratio(one, base, base_name),
        )
    )
    short = fixtures.hands(LENGTHS[0])

    def replay_short() -> None:
        play(table, short)

    for length in LENGTHS:
        game = fixtures.hands(length)
        replay, base = compare(lambda game=game: play(table, game), _build_cycle, repeat, BUDGET)
        per_hand = replay / length
        ratio = per_hand / (base / cycle)
        row = Row(f"replay {fmt_count(length)} hands, per hand", fmt_time(per_hand))
        row.ratio = f"{ratio:.1f}× {base_name}"
        section.rows.append(row)
        if length == LENGTHS[0]:
            continue
        # Flatness: the long replay against the short one, sampled in alternation.
        long_time, short_time = compare(
            lambda game=game: play(table, game), replay_short, repeat, BUDGET
        )
        growth = (long_time / length) / (short_time / LENGTHS[0])
        row.ratio += f"; {growth:.2f}× the per-hand cost of {LENGTHS[0]} hands"
        row.goal = f"flat: ≤ 1.5× the per-hand cost of {LENGTHS[0]} hands"
        row.met = growth <= 1.5
    section.notes.append(
        "Replaying includes validation, scoring, running totals, opening minimums, the dealer "
        "and the winner check for every hand: what every page load and every API call does."
    )
