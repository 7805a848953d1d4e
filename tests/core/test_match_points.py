"""Match points, the Finnish rule (docs/rules.md §6), worked out by hand on a night of eight."""

from __future__ import annotations

import pytest

from scorer.core.errors import RuleError
from scorer.core.match_points import (
    Forfeit,
    Match,
    forfeit_card_points,
    match_points_of,
    match_standings,
)

PLAYERS = ["Ann", "Bob", "Cy", "Di", "Eve", "Fay", "Gus", "Hal"]

# Round 1: Ann & Bob beat Cy & Di 820 to 600; Eve & Fay beat Gus & Hal 900 to 100.
# Round 2: Ann & Cy and Bob & Eve draw 500 all; Fay & Hal do not come: Di & Gus win by forfeit.
# Round 3: Ann & Di beat Bob & Fay 700 to 300; Gus & Hal beat Cy & Eve 450 to 400.
# Round 4 under way: Ann & Hal lead Bob & Cy 900 to 0 (counts for nothing yet).
MATCHES = [
    Match((("Ann", "Bob"), ("Cy", "Di")), (820, 600), True, 0),
    Match((("Eve", "Fay"), ("Gus", "Hal")), (900, 100), True, 0),
    Match((("Ann", "Cy"), ("Bob", "Eve")), (500, 500), True, None),
    Match((("Ann", "Di"), ("Bob", "Fay")), (700, 300), True, 0),
    Match((("Cy", "Eve"), ("Gus", "Hal")), (400, 450), True, 1),
    Match((("Ann", "Hal"), ("Bob", "Cy")), (900, 0)),
]
FORFEITS = [Forfeit(("Di", "Gus"), ("Fay", "Hal"))]

# By hand (match points; card points):
#   Ann  R1 2 +220  R2 1 0      R3 2 +400   -> 5;  620    (3 games, 2 won, 1 drawn)
#   Bob  R1 2 +220  R2 1 0      R3 0 -400   -> 3; -180
#   Cy   R1 0 -220  R2 1 0      R3 0 -50    -> 1; -270
#   Di   R1 0 -220  R2 2 +2000  R3 2 +400   -> 4; 2180   (forfeit)
#   Eve  R1 2 +800  R2 1 0      R3 0 -50    -> 3;  750
#   Fay  R1 2 +800  R2 0 -2000  R3 0 -400   -> 2; -1600  (absent)
#   Gus  R1 0 -800  R2 2 +2000  R3 2 +50    -> 4; 1250   (forfeit)
#   Hal  R1 0 -800  R2 0 -2000  R3 2 +50    -> 2; -2750  (absent)
# Di and Gus level on 4 points: card points put Di first; so Eve before Bob, Fay before Hal.


def lines(result):
    return [
        (s.rank, s.player, s.games, s.wins, s.draws, s.match_points, s.card_points) for s in result
    ]


def test_the_finnish_rule_on_a_night_of_eight():
    assert lines(match_standings(PLAYERS, MATCHES, FORFEITS)) == [
        (1, "Ann", 3, 2, 1, 5, 620),
        (2, "Di", 3, 2, 0, 4, 2180),
        (3, "Gus", 3, 2, 0, 4, 1250),
        (4, "Eve", 3, 1, 1, 3, 750),
        (5, "Bob", 3, 1, 1, 3, -180),
        (6, "Fay", 3, 1, 0, 2, -1600),
        (7, "Hal", 3, 1, 0, 2, -2750),
        (8, "Cy", 3, 0, 1, 1, -270),
    ]


def test_card_points_add_up_to_nothing_and_the_forfeit_is_counted():
    result = match_standings(PLAYERS, MATCHES, FORFEITS)
    assert sum(line.card_points for line in result) == 0
    assert {line.player: line.forfeits for line in result if line.forfeits} == {"Di": 1, "Gus": 1}


def test_draws_switched_off_count_a_level_game_for_nothing():
    # Round 2's draw is gone: Ann 4; 620, Bob 2; -180, Cy 0; -270, Eve 2; 750 (2 games each).
    assert lines(match_standings(PLAYERS, MATCHES, FORFEITS, draws=False)) == [
        (1, "Di", 3, 2, 0, 4, 2180),
        (2, "Gus", 3, 2, 0, 4, 1250),
        (3, "Ann", 2, 2, 0, 4, 620),
        (4, "Eve", 2, 1, 0, 2, 750),
        (5, "Bob", 2, 1, 0, 2, -180),
        (6, "Fay", 3, 1, 0, 2, -1600),
        (7, "Hal", 3, 1, 0, 2, -2750),
        (8, "Cy", 2, 0, 0, 0, -270),
    ]


def test_players_level_on_points_and_card_points_share_a_rank():
    matches = [
        Match((("Ann", "Bob"), ("Cy", "Di")), (600, 400), True, 0),
        Match((("Cy", "Di"), ("Ann", "Bob")), (600, 400), True, 0),
    ]
    assert [(s.rank, s.player) for s in match_standings(["Di", "Cy", "Bob", "Ann"], matches)] == [
        (1, "Ann"),
        (1, "Bob"),
        (1, "Cy"),
        (1, "Di"),
    ]


@pytest.mark.parametrize(
    ("family", "card_points"), [("classic", 2000), ("samba", 4000), ("bolivia", 4000)]
)
def test_a_forfeit_is_worth_the_familys_card_points(family, card_points):
    assert forfeit_card_points(family) == card_points
    result = match_standings([], [], [Forfeit(("Ann", "Bob"), ("Cy", "Di"), family)])
    assert [(s.player, s.match_points, s.card_points) for s in result] == [
        ("Ann", 2, card_points),
        ("Bob", 2, card_points),
        ("Cy", 0, -card_points),
        ("Di", 0, -card_points),
    ]


@pytest.mark.parametrize(
    ("match", "draws", "points"),
    [
        (Match((("A",), ("B",), ("C",)), (300, 300, 100), True, None), True, (1, 1, 0)),
        (Match((("A",), ("B",), ("C",)), (300, 900, 100), True, 1), True, (0, 2, 0)),
        (Match((("A",), ("B",)), (300, 300), True, None), False, None),
        (Match((("A",), ("B",)), (300, 100)), True, None),
    ],
)
def test_match_points_of_a_game(match, draws, points):
    assert match_points_of(match, draws=draws) == points


@pytest.mark.parametrize(
    ("make", "field"),
    [
        (lambda: Match((("A",), ("B",)), (1,)), "totals"),
        (lambda: Match((("A",),), (1,)), "sides"),
        (lambda: Match((("A",), ("B",)), (1, 2), True, 2), "winner"),
        (lambda: Match((("A",), ("B",)), (1, 2), False, 1), "winner"),
        (lambda: Forfeit((), ("B",)), "present"),
        (lambda: Forfeit(("A",), ("A",)), "absent"),
    ],
)
def test_refusals_name_the_field(make, field):
    with pytest.raises(RuleError) as caught:
        make()
    assert caught.value.field == field
