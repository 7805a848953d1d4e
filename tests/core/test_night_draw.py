"""The draw of a club night (issue 23 point 2): a pure function of the players, the earlier
rounds and a seed."""

from __future__ import annotations

from collections import Counter
from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scorer.core.draw import Round, draw_round, shapes_for
from scorer.core.errors import RuleError


def names(count: int) -> list[str]:
    return [f"P{k:02}" for k in range(count)]


def night(players, rounds, **options):
    history: list[Round] = []
    for _ in range(rounds):
        history.append(draw_round(players, history, **options))
    return history


def partner_pairs(history):
    return Counter(
        frozenset(pair)
        for drawn in history
        for table in drawn.tables
        for side in table.sides
        for pair in combinations(side, 2)
    )


@settings(max_examples=40, deadline=None)
@given(
    count=st.integers(4, 26),
    rounds=st.integers(1, 4),
    seed=st.integers(0, 2**32),
    odd=st.sampled_from(["variants", "bye"]),
    mode=st.sampled_from(["random", "balanced"]),
)
def test_every_player_present_is_seated_or_on_bye_exactly_once_a_round(
    count, rounds, seed, odd, mode
):
    players = names(count)
    ratings = {name: float(k % 7) for k, name in enumerate(players)}
    for drawn in night(players, rounds, seed=seed, odd=odd, mode=mode, ratings=ratings):
        everyone = drawn.seated + drawn.bye
        assert sorted(everyone) == players
        for table in drawn.tables:
            shape = tuple(len(side) for side in table.sides)
            expected = {
                (2, 2): "classic",
                (3, 2): "five-player",
                (2, 2, 2): "six-player",
                (1, 1, 1): "three-player",
            }
            assert expected[shape] == table.profile
        if odd == "variants":
            assert drawn.bye == ()
        else:
            assert len(drawn.bye) == count % 4
            assert all(table.profile == "classic" for table in drawn.tables)


@settings(max_examples=12, deadline=None)
@given(
    count=st.sampled_from([8, 12, 16]),
    rounds=st.integers(3, 6),
    seed=st.integers(0, 2**32),
    mode=st.sampled_from(["random", "balanced"]),
)
def test_nobody_partners_anyone_twice_in_a_night_of_8_12_or_16(count, rounds, seed, mode):
    # Each of them has at least seven others to partner: six rounds need no repeat at all.
    players = names(count)
    ratings = {name: float(k) for k, name in enumerate(players)}
    history = night(players, rounds, seed=seed, mode=mode, ratings=ratings)
    assert max(partner_pairs(history).values()) == 1


@settings(max_examples=20, deadline=None)
@given(count=st.integers(5, 23).filter(lambda n: n % 4), seed=st.integers(0, 2**32))
def test_byes_rotate_nobody_sits_out_twice_before_everyone_once(count, seed):
    players = names(count)
    resting = count % 4
    rounds = -(-count // resting) + 1  # every player's turn, and one round more
    history = night(players, rounds, seed=seed, odd="bye")
    byes: Counter[str] = Counter()
    for drawn in history:
        byes.update(drawn.bye)
        assert max(byes.values()) - min(byes[name] for name in players) <= 1


def test_the_odd_table_passes_round_the_night():
    # Nine players: a table of five each round; four rounds seat 20 there: everyone has a
    # turn, nobody more than three (the partners come first, so not always 2 or 3 each).
    for seed in range(5):
        history = night(names(9), 4, seed=seed)
        at_five = Counter(
            player
            for drawn in history
            for table in drawn.tables
            if table.profile == "five-player"
            for player in table.players
        )
        assert all(1 <= at_five[player] <= 3 for player in names(9))


def test_the_same_seed_draws_the_same_night_and_another_seed_another():
    players = names(12)
    assert night(players, 3, seed=42) == night(players, 3, seed=42)
    assert night(players, 3, seed=42) != night(players, 3, seed=43)


def test_a_balanced_draw_evens_the_sides_as_the_ratings_allow():
    # Two strong (30), two weak (10): a balanced table pairs each strong with a weak one.
    ratings = {"Ann": 30.0, "Bob": 30.0, "Cy": 10.0, "Di": 10.0}
    for seed in range(10):
        (table,) = draw_round(list(ratings), seed=seed, mode="balanced", ratings=ratings).tables
        assert {frozenset(side) for side in table.sides} != {
            frozenset({"Ann", "Bob"}),
            frozenset({"Cy", "Di"}),
        }
        strengths = [sum(ratings[p] for p in side) for side in table.sides]
        assert strengths[0] == strengths[1]


def test_a_random_draw_ignores_the_ratings():
    ratings = {"Ann": 30.0, "Bob": 30.0, "Cy": 10.0, "Di": 10.0}
    pairs = {
        frozenset(draw_round(list(ratings), seed=seed, ratings=ratings).tables[0].sides[0])
        for seed in range(30)
    }
    assert frozenset({"Ann", "Bob"}) in pairs or frozenset({"Cy", "Di"}) in pairs


def test_a_late_arrival_is_seated_in_the_next_round():
    history = night(names(8), 2, seed=1)
    late = names(8) + ["Zoe"]
    # Zoe missed two rounds: those count as her turns to sit out.
    drawn = draw_round(late, history, seed=1, odd="bye")
    assert "Zoe" in drawn.seated and len(drawn.bye) == 1
    drawn = draw_round(late, history, seed=1)
    assert "Zoe" in drawn.seated and [t.profile for t in drawn.tables].count("five-player") == 1


@pytest.mark.parametrize(
    ("count", "odd", "shapes", "resting"),
    [
        (4, "variants", [(2, 2)], 0),
        (3, "variants", [(1, 1, 1)], 0),
        (5, "variants", [(3, 2)], 0),
        (6, "variants", [(2, 2, 2)], 0),
        (7, "variants", [(2, 2), (1, 1, 1)], 0),
        (10, "variants", [(2, 2), (2, 2, 2)], 0),
        (7, "bye", [(2, 2)], 3),
        (9, "bye", [(2, 2), (2, 2)], 1),
    ],
)
def test_the_tables_for_a_count_of_players(count, odd, shapes, resting):
    assert shapes_for(count, odd) == (shapes, resting)


@pytest.mark.parametrize(("players", "odd"), [(names(2), "variants"), (names(3), "bye")])
def test_too_few_players_for_a_round_are_refused(players, odd):
    with pytest.raises(RuleError) as error:
        draw_round(players, seed=1, odd=odd)
    assert error.value.field == "players"


def test_a_name_twice_is_refused():
    with pytest.raises(RuleError) as error:
        draw_round(["Ann", "Bob", "Cy", "Ann"], seed=1)
    assert error.value.field == "players"
