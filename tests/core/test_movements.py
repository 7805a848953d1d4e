"""Movements (docs/rules.md §6): a Mitchell of three tables over three rounds, and a final table."""

from __future__ import annotations

from itertools import product

import pytest

from scorer.core.errors import RuleError
from scorer.core.movements import final_table, mitchell, qualifiers

AB, CD, EF = ("Ann", "Bob"), ("Cy", "Di"), ("Eve", "Fay")
GH, IJ, KL = ("Gus", "Hal"), ("Ida", "Jo"), ("Kim", "Lou")
PAIRS = [AB, CD, EF, GH, IJ, KL]  # the first half sits North-South


def seating(round_):
    return [table.sides for table in round_.tables]


def test_mitchell_of_three_tables_over_three_rounds():
    rounds = mitchell(PAIRS)
    # North-South stay at their table; East-West move up one table (the last to the first).
    assert [seating(r) for r in rounds] == [
        [(AB, GH), (CD, IJ), (EF, KL)],
        [(AB, KL), (CD, GH), (EF, IJ)],
        [(AB, IJ), (CD, KL), (EF, GH)],
    ]
    assert all(table.profile == "classic" for r in rounds for table in r.tables)
    assert all(r.bye == () for r in rounds)


def test_each_east_west_pair_meets_each_north_south_pair_once():
    for tables in range(3, 9):
        pairs = [(f"N{k}a", f"N{k}b") for k in range(tables)]
        pairs += [(f"E{k}a", f"E{k}b") for k in range(tables)]
        met = [table.sides for r in mitchell(pairs) for table in r.tables]
        assert sorted(met) == sorted(product(pairs[:tables], pairs[tables:]))


def test_an_odd_pair_count_gives_a_bye_in_turn():
    rounds = mitchell([AB, CD, EF, GH, IJ])  # three North-South, two East-West and a phantom
    # The phantom sits at the third table, then moves up (to the first, then the second).
    assert [r.bye for r in rounds] == [EF, AB, CD]
    assert all(len(r.tables) == 2 for r in rounds)


@pytest.mark.parametrize(
    ("pairs", "rounds", "field"),
    [
        ([AB, CD], None, "pairs"),
        ([AB, CD, ("Ann", "Zed"), GH], None, "pairs[2]"),
        ([AB, CD, ("Ann",), GH], None, "pairs[2]"),
        ([AB, CD, EF, "Gus"], None, "pairs[3]"),
        (PAIRS, 4, "rounds"),
        ("Ann", None, "pairs"),
    ],
)
def test_mitchell_refusals_name_the_field(pairs, rounds, field):
    with pytest.raises(RuleError) as caught:
        mitchell(pairs, rounds)
    assert caught.value.field == field


# The night of tests/core/test_match_points.py, ranked; its last round's two tables.
RANKING = ["Ann", "Di", "Gus", "Eve", "Bob", "Fay", "Hal", "Cy"]
LAST_ROUND = [["Ann", "Di", "Bob", "Fay"], ["Cy", "Eve", "Gus", "Hal"]]


def test_the_top_two_of_each_table_play_the_final_table():
    assert qualifiers(RANKING, per_table=2, tables=LAST_ROUND) == ("Ann", "Di", "Gus", "Eve")
    table = final_table(RANKING, per_table=2, tables=LAST_ROUND)
    assert table.profile == "classic"
    assert table.sides == (("Ann", "Eve"), ("Di", "Gus"))


@pytest.mark.parametrize(
    ("per_table", "tables", "profile", "sides"),
    [
        (3, None, "three-player", (("Ann",), ("Di",), ("Gus",))),
        (5, None, "five-player", (("Ann", "Eve", "Bob"), ("Di", "Gus"))),
        (3, LAST_ROUND, "six-player", (("Ann", "Hal"), ("Di", "Bob"), ("Gus", "Eve"))),
    ],
)
def test_final_tables_of_other_sizes(per_table, tables, profile, sides):
    table = final_table(RANKING, per_table=per_table, tables=tables)
    assert (table.profile, table.sides) == (profile, sides)


@pytest.mark.parametrize(
    ("per_table", "tables", "field"),
    [
        (4, LAST_ROUND, "per_table"),
        (0, LAST_ROUND, "per_table"),
        (True, LAST_ROUND, "per_table"),
        (2, [["Ann", "Zed"]], "tables[0]"),
        (1, LAST_ROUND, "per_table"),
    ],
)
def test_final_table_refusals_name_the_field(per_table, tables, field):
    with pytest.raises(RuleError) as caught:
        final_table(RANKING, per_table=per_table, tables=tables)
    assert caught.value.field == field
