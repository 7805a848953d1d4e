"""A season of six nights, best four of six (docs/rules.md §6), worked out by hand."""

from __future__ import annotations

import pytest

from scorer.core.errors import RuleError
from scorer.core.seasons import NightScore, champions, season_standings

S = NightScore
# (match points, card points) of each player who played each night.
NIGHTS = [
    {"Ann": S(4, 500), "Bob": S(2, 600), "Cy": S(0, -600)},
    {"Ann": S(6, 900), "Bob": S(4, 300), "Di": S(2, -1200)},
    {"Ann": S(0, -800), "Bob": S(6, 1000), "Cy": S(4, 200), "Di": S(2, -400)},
    {"Ann": S(2, 100), "Bob": S(2, -50), "Cy": S(6, 700)},
    {"Ann": S(4, 200), "Bob": S(0, -1500), "Cy": S(6, 600), "Di": S(6, 100)},
    {"Ann": S(2, 300), "Bob": S(4, 400), "Cy": S(6, 800)},
]
# Best four of six, by hand (nights numbered from 1), match points; card points:
#   Cy  played 5: nights 3-6 (night 1's 0 dropped)       6+6+6+4 = 22; 800+700+600+200 = 2300
#   Bob played 6: nights 1, 2, 3, 6 (4's 2/-50 dropped)  6+4+4+2 = 16; 600+300+1000+400 = 2300
#   Ann played 6: nights 1, 2, 5, 6 (6's 2/300 beats 4's) 6+4+4+2 = 16; 500+900+200+300 = 1900
#   Di  played 3: all three                                         10; -1500
# Counting all six nights, Ann (18; 1200) would be ahead of Bob (18; 750).


def lines(result):
    return [(s.rank, s.player, s.played, s.counted, s.match_points, s.card_points) for s in result]


def test_best_four_of_six():
    result = season_standings(NIGHTS, 4)
    assert lines(result) == [
        (1, "Cy", 5, (2, 3, 4, 5), 22, 2300),
        (2, "Bob", 6, (0, 1, 2, 5), 16, 2300),
        (3, "Ann", 6, (0, 1, 4, 5), 16, 1900),
        (4, "Di", 3, (1, 2, 4), 10, -1500),
    ]
    assert champions(result) == ("Cy",)


def test_every_night_counted_puts_ann_before_bob():
    result = season_standings(NIGHTS, 6)
    assert [(s.player, s.match_points, s.card_points) for s in result] == [
        ("Cy", 22, 1700),
        ("Ann", 18, 1200),
        ("Bob", 18, 750),
        ("Di", 10, -1500),
    ]


def test_players_level_share_the_title():
    result = season_standings([{"Ann": S(2, 100), "Bob": S(2, 100)}, {}], 1)
    assert [(s.rank, s.player) for s in result] == [(1, "Ann"), (1, "Bob")]
    assert champions(result) == ("Ann", "Bob")
    assert champions(season_standings([], 4)) == ()


@pytest.mark.parametrize("best_of", [0, -1, True, 2.5, "4", None])
def test_best_of_is_a_whole_number_of_nights(best_of):
    with pytest.raises(RuleError) as caught:
        season_standings(NIGHTS, best_of)
    assert caught.value.field == "best_of"
