"""Section 1: the rules engine alone (no Flask, no SQL)."""

from __future__ import annotations

from bench import fixtures
from bench.context import Bench
from bench.measure import Row, Section, compare, fmt_count, fmt_ratio, fmt_time
from scorer.game import play
from scorer.hands import Hand, SideHand, score_hand, validate_hand

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
    first_ratio = 0.0
    for length in LENGTHS:
        game = fixtures.hands(length)
        replay, base = compare(lambda game=game: play(table, game), _build_cycle, repeat, BUDGET)
        per_hand = replay / length
        # Growth compares ratios, not times: a slow patch of the machine moves both sides.
        ratio = per_hand / (base / cycle)
        first_ratio = first_ratio or ratio
        growth = ratio / first_ratio
        section.rows.append(
            Row(
                f"replay {fmt_count(length)} hands, per hand",
                fmt_time(per_hand),
                f"{ratio:.1f}× {base_name}; {growth:.2f}× the 10-hand ratio",
                "flat per hand (≤ 1.5× the 10-hand ratio)",
                growth <= 1.5,
            )
        )
    section.notes.append(
        "Replaying includes validation, scoring, running totals, opening minimums, the dealer "
        "and the winner check for every hand: what every page load and every API call does."
    )
