"""The standings of a club night (issue 23 point 4), worked out by hand on a small night."""

from __future__ import annotations

import pytest

from scorer.core.leaderboard import TableResult, margins, standings

ANN_BOB, CY_DI = ("Ann", "Bob"), ("Cy", "Di")
EVE_FAY, GUS_HAL = ("Eve", "Fay"), ("Gus", "Hal")
PLAYERS = ["Ann", "Bob", "Cy", "Di", "Eve", "Fay", "Gus", "Hal"]

# Round 1: Ann & Bob beat Cy & Di 820 to 600 (+220); Eve & Fay beat Gus & Hal 900 to 100 (+800).
# Round 2: Ann & Cy beat Bob & Eve 500 to 450 (+50); Di & Gus beat Fay & Hal 700 to 300 (+400),
# Round 3 under way: Ann & Di lead Bob & Fay 200 to -50 (+250, live, not yet a round).
NIGHT = [
    TableResult((ANN_BOB, CY_DI), (820, 600), 0),
    TableResult((EVE_FAY, GUS_HAL), (900, 100), 0),
    TableResult((("Ann", "Cy"), ("Bob", "Eve")), (500, 450), 0),
    TableResult((("Di", "Gus"), ("Fay", "Hal")), (700, 300), 0),
    TableResult((("Ann", "Di"), ("Bob", "Fay")), (200, -50)),
]
# By hand:   rounds wins points        scored
#   Ann      2      2    220+50+250=520 820+500+200=1520
#   Bob      2      1    220-50-250=-80 820+450-50=1220
#   Cy       2      1    -220+50=-170   600+500=1100
#   Di       2      1    -220+400+250=430 600+700+200=1500
#   Eve      2      1    800-50=750     900+450=1350
#   Fay      2      1    800-400-250=150 900+300-50=1150
#   Gus      2      1    -800+400=-400  100+700=800
#   Hal      2      0    -800-400=-1200 100+300=400


def lines(result):
    return [(s.rank, s.player, s.rounds, s.wins, s.points) for s in result]


def test_wins_then_points():
    assert lines(standings(PLAYERS, NIGHT)) == [
        (1, "Ann", 2, 2, 520),
        (2, "Eve", 2, 1, 750),
        (3, "Di", 2, 1, 430),
        (4, "Fay", 2, 1, 150),
        (5, "Bob", 2, 1, -80),
        (6, "Cy", 2, 1, -170),
        (7, "Gus", 2, 1, -400),
        (8, "Hal", 2, 0, -1200),
    ]


def test_points():
    assert lines(standings(PLAYERS, NIGHT, "points")) == [
        (1, "Eve", 2, 1, 750),
        (2, "Ann", 2, 2, 520),
        (3, "Di", 2, 1, 430),
        (4, "Fay", 2, 1, 150),
        (5, "Bob", 2, 1, -80),
        (6, "Cy", 2, 1, -170),
        (7, "Gus", 2, 1, -400),
        (8, "Hal", 2, 0, -1200),
    ]


def test_ties_are_broken_by_points_scored_then_shared():
    # Ann and Cy: one win, +100 each, Ann's side scored more; Bob and Di likewise at -100.
    # Eve and Fay have a game under way at 0-0: level with Zoe, who has no round yet.
    night = [
        TableResult((("Ann",), ("Bob",)), (600, 500), 0),
        TableResult((("Cy",), ("Di",)), (300, 200), 0),
        TableResult((("Eve",), ("Fay",)), (0, 0)),
    ]
    result = standings(["Zoe", "Fay", "Eve", "Di", "Cy", "Bob", "Ann"], night)
    assert lines(result) == [
        (1, "Ann", 1, 1, 100),
        (2, "Cy", 1, 1, 100),
        (3, "Eve", 0, 0, 0),
        (3, "Fay", 0, 0, 0),
        (3, "Zoe", 0, 0, 0),
        (6, "Bob", 1, 0, -100),
        (7, "Di", 1, 0, -100),
    ]
    assert [line.scored for line in result] == [600, 300, 0, 0, 0, 500, 200]
    # By points the order is the same here: the wins come second, the points scored third.
    assert lines(standings(["Ann", "Cy"], night[:2], "points"))[:2] == [
        (1, "Ann", 1, 1, 100),
        (2, "Cy", 1, 1, 100),
    ]


@pytest.mark.parametrize(
    ("totals", "expected"),
    [((820, 600), (220, -220)), ((900, 300, 0), (750, -150, -600)), ((5, 5, 5), (0, 0, 0))],
)
def test_margins_against_the_opponents_average(totals, expected):
    assert margins(totals) == expected
