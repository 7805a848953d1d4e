"""The variants of docs/rules.md section 3 and house rules, in the engine (issue 7).

Expected numbers are the rule book's, worked out by hand.
"""

from __future__ import annotations

import pytest

from scorer.core.errors import RuleError
from scorer.core.game import (
    Side,
    add_hand,
    dealer,
    make_table,
    new_game,
    play,
    seating,
    sitting_out,
    winner,
)
from scorer.core.hands import CardCounts, Hand, SideHand, score_hand, validate_hand
from scorer.core.rules import (
    HOUSE_RULE_FIELDS,
    PROFILES,
    effective_rules,
    get_profile,
    with_house_rules,
    with_target,
)

CLASSIC = get_profile("classic")
TWO = get_profile("two-player")
THREE = get_profile("three-player")
FIVE = get_profile("five-player")
SIX = get_profile("six-player")


def players(prefix: str, count: int) -> tuple[str, ...]:
    return tuple(f"{prefix}{n}" for n in range(1, count + 1))


def sides_of(*sizes: int) -> tuple[Side, ...]:
    names = "ABCDEF"[: len(sizes)]
    return tuple(
        Side(name, players(name.lower(), size)) for name, size in zip(names, sizes, strict=True)
    )


def refused(profile, hand: Hand, sides: int) -> RuleError:
    with pytest.raises(RuleError) as caught:
        validate_hand(profile, hand, sides)
    return caught.value


MELDED = SideHand(meld_points=60)


# --- the table of section 3 ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("key", "players_", "layouts", "packs", "dealt", "to_go_out", "target"),
    [
        pytest.param("classic", 4, [((2, 2), 5000)], 2, 11, 1, 5000, id="classic"),
        pytest.param("two-player", 2, [((1, 1), 5000)], 2, 15, 2, 5000, id="two-player"),
        pytest.param("three-player", 3, [((1, 1, 1), 7500)], 2, 13, 1, 7500, id="three-player"),
        pytest.param("five-player", 5, [((3, 2), 5000)], 2, 11, 1, 5000, id="five-player"),
        pytest.param(
            "six-player", 6, [((2, 2, 2), 7500), ((3, 3), 10000)], 3, 13, 2, 7500, id="six-player"
        ),
    ],
)
def test_each_profile_holds_its_row_of_the_variants_table(
    key, players_, layouts, packs, dealt, to_go_out, target
):
    profile = get_profile(key)
    assert profile.players == players_
    assert [(layout.team_sizes, layout.target) for layout in profile.layouts] == layouts
    assert profile.packs == packs
    assert profile.cards_dealt == dealt
    assert profile.canastas_to_go_out == to_go_out
    assert profile.target == target


def test_the_scorer_offers_exactly_the_five_profiles():
    assert set(PROFILES) == {"classic", "two-player", "three-player", "five-player", "six-player"}


@pytest.mark.parametrize("key", ["two-player", "three-player", "five-player", "six-player"])
def test_variants_keep_the_card_values_bonuses_and_minimums(key):
    profile = get_profile(key)
    values = profile.card_values
    assert (values.jokers, values.twenty, values.ten, values.five) == (50, 20, 10, 5)
    assert (profile.canasta_bonus("natural"), profile.canasta_bonus("mixed")) == (500, 300)
    assert (profile.going_out, profile.concealed_going_out) == (100, 200)
    assert [profile.opening_minimum(t) for t in (-5, 0, 1495, 1500, 2995, 3000)] == [
        15,
        50,
        50,
        90,
        90,
        120,
    ]


# --- two-player ---------------------------------------------------------------------------


def test_two_player_needs_two_canastas_to_go_out():
    error = refused(TWO, Hand((SideHand(meld_points=300, natural_canastas=1), MELDED), 0), 2)
    # A natural canasta and too few in all: the missing one is most likely mixed.
    assert error.field == "sides[0].mixed_canastas"
    assert error.reason == (
        "going out takes at least 2 canastas: the table takes the cards back and play goes on"
    )
    none = refused(TWO, Hand((SideHand(meld_points=300), MELDED), 0), 2)
    assert none.field == "sides[0].natural_canastas"


def test_two_player_goes_out_with_a_natural_and_a_mixed_canasta():
    hand = Hand((MELDED, SideHand(meld_points=300, natural_canastas=1, mixed_canastas=1)), 1)
    validate_hand(TWO, hand, 2)
    # 300 + 500 + 300 + 100
    assert score_hand(TWO, hand)[1].total == 1200


def test_two_player_seats_two_players_each_alone():
    table = make_table(TWO, (Side("Ann", ("Ann",)), Side("Bob", ("Bob",))))
    assert table.seating == ("Ann", "Bob")
    assert [dealer(table, k) for k in range(4)] == ["Ann", "Bob", "Ann", "Bob"]
    with pytest.raises(RuleError) as caught:
        make_table(TWO, sides_of(2))
    assert caught.value.field == "sides"


# --- three-player -------------------------------------------------------------------------


def test_three_player_plays_to_7500_each_alone():
    table = make_table(THREE, sides_of(1, 1, 1))
    assert table.seating == ("a1", "b1", "c1")
    big = SideHand(meld_points=400, natural_canastas=4)  # 400 + 2 000 = 2 400 a hand
    hands = [Hand((big, MELDED, SideHand()))] * 3
    state = play(table, hands)
    assert state.totals == (7200, 180, 0)
    assert state.winner is None  # 7 200 would have won at 5 000
    assert state.minimums == (120, 50, 50)  # each player keeps a personal minimum
    state = add_hand(state, Hand((SideHand(meld_points=300), SideHand(), SideHand())))
    assert state.totals == (7500, 180, 0)
    assert state.winner == 0


def test_three_player_has_no_150_row_at_7500():
    assert THREE.opening_minimum(7500) == 120


def test_three_player_validates_three_sides_and_any_one_may_go_out():
    hand = Hand((MELDED, MELDED, SideHand(meld_points=100, natural_canastas=1)), went_out=2)
    validate_hand(THREE, hand, 3)
    assert [score.going_out for score in score_hand(THREE, hand)] == [0, 0, 100]
    error = refused(THREE, Hand((MELDED, MELDED, MELDED), went_out=3), 3)
    assert error.field == "went_out"


def test_three_player_red_threes_over_three_players_stay_at_four():
    hand = Hand((SideHand(meld_points=60, red_threes=2), SideHand(red_threes=2), MELDED))
    validate_hand(THREE, hand, 3)
    assert [score.red_threes for score in score_hand(THREE, hand)] == [200, -200, 0]
    error = refused(THREE, Hand((MELDED, SideHand(red_threes=2), SideHand(red_threes=3))), 3)
    assert error.field == "sides[2].red_threes"


# --- five-player --------------------------------------------------------------------------

FIVE_TABLE = make_table(FIVE, sides_of(3, 2))


def test_five_player_seats_a_team_of_three_and_a_team_of_two():
    assert FIVE_TABLE.seating == ("a1", "b1", "a2", "b2", "a3")


def test_five_player_accepts_the_pair_listed_first():
    table = make_table(FIVE, sides_of(2, 3))
    assert table.seating == ("a1", "b1", "a2", "b2", "b3")
    # a1 (of the pair) deals first; the team of three sits out b1, b3, b2, then again.
    assert [sitting_out(table, k) for k in range(4)] == [("b1",), ("b3",), ("b2",), ("b1",)]
    assert [dealer(table, k) for k in range(4)] == ["a1", "b1", "a2", "b2"]


@pytest.mark.parametrize(
    ("hand_index", "resting"),
    [(0, "a3"), (1, "a2"), (2, "a1"), (3, "a3"), (4, "a2"), (5, "a1")],
)
def test_five_player_team_of_three_sits_one_out_in_turn(hand_index, resting):
    # a1 deals first, so a1 plays the first hand; the turn to sit out goes a3, a2, a1...
    assert sitting_out(FIVE_TABLE, hand_index) == (resting,)


def test_five_player_pair_never_sits_out():
    resting = {name for k in range(12) for name in sitting_out(FIVE_TABLE, k)}
    assert resting == {"a1", "a2", "a3"}


def test_five_player_scoreboard_says_who_sits_out_next():
    state = new_game(FIVE_TABLE)
    assert state.sitting_out_next == ("a3",)
    assert state.dealer_next == "a1"
    state = add_hand(state, Hand((MELDED, MELDED)))
    assert state.sitting_out_next == ("a2",)
    assert state.dealer_next == "b1"
    assert state.results[0].dealer == "a1"


# Seats a1 b1 a2 b2 a3. Each row: the first dealer chosen, then who deals hands 1 to 12.
FIVE_DEALS = [
    ("a1", "a1 b1 a2 b2 a3 b1 a2 b2 a3 a1 b1 a2"),
    ("b1", "b1 a2 b2 a3 a1 b1 a2 b2 a3 b1 a2 b2"),
    ("a2", "a2 b2 a3 b1 a2 b2 a3 a1 b1 a2 b2 a3"),
    ("b2", None),
    ("a3", None),
]


@pytest.mark.parametrize(("first", "deals"), FIVE_DEALS)
def test_five_player_deal_passes_left_among_who_plays_and_never_twice(first, deals):
    table = make_table(FIVE, sides_of(3, 2), first_dealer=first)
    seats = table.seating
    dealt = [dealer(table, k) for k in range(12)]
    if deals is not None:
        assert dealt == deals.split()
    assert dealt[0] == first  # the first dealer chosen deals the first hand
    for k in range(12):
        resting = sitting_out(table, k)
        assert len(resting) == 1 and resting[0].startswith("a")
        assert dealt[k] not in resting
        if k:
            assert dealt[k] != dealt[k - 1]  # nobody deals twice in a row
            # the next player on the left of the last dealer among this hand's players
            step = 1
            while seats[(seats.index(dealt[k - 1]) + step) % 5] in resting:
                step += 1
            assert dealt[k] == seats[(seats.index(dealt[k - 1]) + step) % 5]
    # the team of three sits out in turn: each once every three hands
    assert {sitting_out(table, k)[0] for k in range(3)} == {"a1", "a2", "a3"}
    # everybody deals over a dozen hands
    assert set(dealt) == set(seats)


def test_five_player_scores_two_sides():
    hand = Hand((SideHand(meld_points=100, natural_canastas=1), MELDED), went_out=0)
    validate_hand(FIVE, hand, 2)
    assert [score.total for score in score_hand(FIVE, hand)] == [700, 60]


# --- six-player ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("count", "points"),
    [
        pytest.param(1, 100, id="one-100"),
        pytest.param(3, 300, id="three-300"),
        pytest.param(4, 400, id="four-400-not-800"),
        pytest.param(5, 1000, id="five-1000"),
        pytest.param(6, 1200, id="all-six-1200"),
    ],
)
def test_six_player_red_threes(count, points):
    hand = Hand((SideHand(meld_points=60, red_threes=count), MELDED, MELDED))
    validate_hand(SIX, hand, 3)
    assert score_hand(SIX, hand)[0].red_threes == points


@pytest.mark.parametrize(("count", "points"), [(5, -1000), (6, -1200), (4, -400)])
def test_six_player_red_threes_count_against_a_side_that_melded_nothing(count, points):
    hand = Hand((SideHand(red_threes=count), MELDED, MELDED))
    assert score_hand(SIX, hand)[0].red_threes == points


def test_six_player_allows_at_most_six_red_threes():
    validate_hand(SIX, Hand((SideHand(meld_points=60, red_threes=4), SideHand(red_threes=2))), 2)
    error = refused(SIX, Hand((SideHand(meld_points=60, red_threes=4), SideHand(red_threes=3))), 2)
    assert error.field == "sides[1].red_threes"
    assert "6" in error.reason


def test_six_player_three_packs_hold_1770_points_of_cards():
    validate_hand(SIX, Hand((SideHand(meld_points=1000), SideHand(meld_points=770))), 2)
    error = refused(SIX, Hand((SideHand(meld_points=1000), SideHand(meld_points=775))), 2)
    assert error.field == "sides[1].meld_points"
    assert "1770" in error.reason


@pytest.mark.parametrize(
    ("group", "limit"), [("jokers", 6), ("twenty", 24), ("ten", 72), ("five", 54)]
)
def test_six_player_three_packs_hold_these_cards(group, limit):
    # Held in hand: every card of a group alone could not all be melded (three jokers alone
    # are no meld, rule 12), but any cards can be left in hand.
    fits = Hand((SideHand(meld_points=100, hand_cards=CardCounts(**{group: limit})), SideHand()))
    validate_hand(SIX, fits, 2)
    over = Hand(
        (
            SideHand(meld_points=100, hand_cards=CardCounts(**{group: limit})),
            SideHand(hand_cards=CardCounts(**{group: 1})),
        )
    )
    assert refused(SIX, over, 2).field == f"sides[1].hand_cards.{group}"


def test_six_player_needs_two_canastas_to_go_out():
    one = Hand((SideHand(meld_points=100, natural_canastas=1), MELDED, MELDED), went_out=0)
    assert refused(SIX, one, 3).field == "sides[0].mixed_canastas"
    two = Hand((SideHand(meld_points=100, natural_canastas=2), MELDED, MELDED), went_out=0)
    validate_hand(SIX, two, 3)


def test_six_player_three_teams_of_two_play_to_7500():
    assert SIX.layout_for((2, 2, 2)).target == 7500
    table = make_table(SIX, sides_of(2, 2, 2))
    assert table.seating == ("a1", "b1", "c1", "a2", "b2", "c2")
    assert all(sitting_out(table, k) == () for k in range(6))
    assert SIX.opening_minimum(7500) == 120


def test_six_player_two_teams_of_three_play_to_10000_with_the_150_row():
    layout = SIX.layout_for((3, 3))
    assert layout.target == 10000
    profile = with_target(SIX, layout.target)
    assert profile.opening_minimum(7495) == 120
    assert profile.opening_minimum(7500) == 150
    table = make_table(profile, sides_of(3, 3))
    assert table.seating == ("a1", "b1", "a2", "b2", "a3", "b3")
    assert all(sitting_out(table, k) == () for k in range(6))  # all six play each hand
    assert [dealer(table, k) for k in range(7)] == [*table.seating, "a1"]


def test_six_player_refuses_other_layouts():
    with pytest.raises(RuleError) as caught:
        make_table(SIX, sides_of(4, 2))
    assert caught.value.field == "sides"
    assert "2+2+2" in caught.value.reason and "3+3" in caught.value.reason


# --- every player for themselves ----------------------------------------------------------


@pytest.mark.parametrize(
    ("key", "count", "target", "red_threes"),
    [
        pytest.param("three-player", 3, 7500, 4, id="three"),
        pytest.param("classic", 4, 5000, 4, id="four"),
        pytest.param("five-player", 5, 5000, 4, id="five"),
        pytest.param("six-player", 6, 7500, 6, id="six"),
    ],
)
def test_every_player_for_themselves(key, count, target, red_threes):
    profile = get_profile(key)
    assert profile.layout_for((1,) * count).target == target
    table = make_table(profile, sides_of(*(1,) * count))
    assert len(table.seating) == count
    assert all(sitting_out(table, k) == () for k in range(count))
    assert [dealer(table, k) for k in range(count)] == list(table.seating)
    # Red threes over all sides stay within the packs' count.
    others = (MELDED,) * (count - 1)
    validate_hand(profile, Hand(others + (SideHand(meld_points=60, red_threes=red_threes),)), count)
    over = (SideHand(meld_points=60, red_threes=1),) + others[1:]
    over += (SideHand(meld_points=60, red_threes=red_threes),)
    assert refused(profile, Hand(over), count).field == f"sides[{count - 1}].red_threes"


def test_four_players_each_alone_keep_their_own_totals_and_minimums():
    table = make_table(CLASSIC, sides_of(1, 1, 1, 1))
    hand = Hand(
        (
            SideHand(meld_points=150, natural_canastas=3),  # 1 650
            MELDED,  # 60
            SideHand(hand_points=20),  # -20
            SideHand(meld_points=100, natural_canastas=1, red_threes=1),  # 700
        )
    )
    state = add_hand(new_game(table), hand)
    assert state.totals == (1650, 60, -20, 700)
    assert state.minimums == (90, 50, 15, 50)


def test_two_players_cannot_play_each_for_themselves_at_a_table_of_four():
    with pytest.raises(RuleError):
        make_table(CLASSIC, sides_of(1, 1))


# --- targets ------------------------------------------------------------------------------


@pytest.mark.parametrize("key", list(PROFILES))
@pytest.mark.parametrize("target", [1000, 5000, 10000, 20000])
def test_any_profile_plays_to_any_accepted_target(key, target):
    profile = with_target(get_profile(key), target)
    assert profile.target == target
    totals = (target, target - 5) + (0,) * (len(profile.layouts[0].team_sizes) - 2)
    table = make_table(profile, sides_of(*profile.layouts[0].team_sizes))
    assert new_game(table).table.profile.target == target
    assert winner(profile, totals) == 0
    assert winner(profile, (target - 5,) + totals[1:]) is None
    assert (profile.opening_minimum(7500) == 150) == (target >= 10000)


# --- house rules --------------------------------------------------------------------------


def one_hand(profile, hand: Hand, side: int = 0):
    validate_hand(profile, hand, len(hand.sides))
    return score_hand(profile, hand)[side]


OUT_WITH_CANASTA = Hand((SideHand(meld_points=100, natural_canastas=1), MELDED), went_out=0)


@pytest.mark.parametrize(
    ("rules", "hand", "part", "points"),
    [
        pytest.param({"going_out": 150}, OUT_WITH_CANASTA, "going_out", 150, id="going-out"),
        pytest.param(
            {"concealed_going_out": 300},
            Hand(OUT_WITH_CANASTA.sides, went_out=0, concealed=True),
            "going_out",
            300,
            id="concealed",
        ),
        pytest.param({"natural_canasta": 600}, OUT_WITH_CANASTA, "canastas", 600, id="natural"),
        pytest.param(
            {"mixed_canasta": 250},
            Hand((SideHand(meld_points=100, mixed_canastas=2), MELDED)),
            "canastas",
            500,
            id="mixed",
        ),
        pytest.param(
            {"red_three": 150},
            Hand((SideHand(meld_points=60, red_threes=3), MELDED)),
            "red_threes",
            450,
            id="red-three",
        ),
        pytest.param(
            {"all_red_threes": 1000},
            Hand((SideHand(meld_points=60, red_threes=4), MELDED)),
            "red_threes",
            1000,
            id="all-red-threes",
        ),
        pytest.param(
            {"all_red_threes": 1000},
            Hand((SideHand(red_threes=4), MELDED)),
            "red_threes",
            -1000,
            id="all-red-threes-against-no-melds",
        ),
    ],
)
def test_house_rules_change_the_scoring(rules, hand, part, points):
    profile = with_house_rules(CLASSIC, rules)
    assert getattr(one_hand(profile, hand), part) == points
    assert profile.house_rules == tuple(rules)
    assert getattr(one_hand(CLASSIC, hand), part) != points  # classic scores it otherwise


def test_house_rule_red_three_leaves_the_value_of_all_four():
    profile = with_house_rules(CLASSIC, {"red_three": 150})
    assert (
        one_hand(profile, Hand((SideHand(meld_points=60, red_threes=4), MELDED))).red_threes == 800
    )


def test_house_rule_canastas_to_go_out():
    profile = with_house_rules(CLASSIC, {"canastas_to_go_out": 2})
    assert refused(profile, OUT_WITH_CANASTA, 2).field == "sides[0].mixed_canastas"
    relaxed = with_house_rules(TWO, {"canastas_to_go_out": 1})
    validate_hand(relaxed, OUT_WITH_CANASTA, 2)


def test_house_rule_six_player_all_red_threes_is_the_set_of_six():
    profile = with_house_rules(SIX, {"all_red_threes": 1500})
    hand = Hand((SideHand(meld_points=60, red_threes=6), MELDED))
    assert one_hand(profile, hand).red_threes == 1500
    five = Hand((SideHand(meld_points=60, red_threes=5), MELDED))
    assert one_hand(profile, five).red_threes == 1000


def test_house_rule_minimum_table():
    profile = with_house_rules(CLASSIC, {"minimums": [[None, 10], [0, 40], [2000, 100]]})
    assert [profile.opening_minimum(t) for t in (-5, 0, 1995, 2000, 9000)] == [10, 40, 40, 100, 100]
    assert profile.house_rules == ("minimums",)
    state = play(make_table(profile, sides_of(2, 2)), [Hand((SideHand(meld_points=100), MELDED))])
    assert state.minimums == (40, 40)


def test_a_house_minimum_table_is_kept_as_written_with_a_10000_target():
    rules = {"minimums": [[None, 15], [0, 50], [1500, 90], [3000, 120]]}
    before = with_house_rules(with_target(CLASSIC, 10000), rules)
    after = with_target(with_house_rules(CLASSIC, rules), 10000)
    for profile in (before, after):
        assert profile.opening_minimum(7500) == 120
    assert before.house_rules == ("minimums",)  # the 150 row was taken away


def test_a_house_table_without_a_below_row_covers_lower_totals_with_its_first_row():
    profile = with_house_rules(CLASSIC, {"minimums": [[0, 50], [1500, 90]]})
    assert profile.opening_minimum(-100) == 50


def test_house_rules_report_only_what_changed_in_the_rule_book_order():
    profile = with_house_rules(
        CLASSIC, {"canastas_to_go_out": 2, "going_out": 100, "natural_canasta": 550}
    )
    assert profile.house_rules == ("natural_canasta", "canastas_to_go_out")
    assert with_house_rules(CLASSIC, {}).house_rules == ()
    assert CLASSIC.house_rules == ()


def test_effective_rules_show_every_house_rule_key():
    rules = effective_rules(with_house_rules(CLASSIC, {"going_out": 150}))
    assert tuple(rules) == HOUSE_RULE_FIELDS
    assert rules == {
        "going_out": 150,
        "concealed_going_out": 200,
        "natural_canasta": 500,
        "mixed_canasta": 300,
        "red_three": 100,
        "all_red_threes": 800,
        "canastas_to_go_out": 1,
        "minimums": [[None, 15], [0, 50], [1500, 90], [3000, 120]],
        "tie": "play_on",
        "red_threes_count_against": "no_meld",
    }
    assert effective_rules(SIX)["all_red_threes"] == 1200
    assert effective_rules(with_target(CLASSIC, 10000))["minimums"][-1] == [7500, 150]


@pytest.mark.parametrize(
    ("rules", "field"),
    [
        pytest.param({"bonus": 5}, "rules.bonus", id="unknown-rule"),
        pytest.param({"going_out": -5}, "rules.going_out", id="negative"),
        pytest.param({"going_out": 7}, "rules.going_out", id="not-multiple-of-5"),
        pytest.param({"going_out": "100"}, "rules.going_out", id="text"),
        pytest.param({"going_out": True}, "rules.going_out", id="boolean"),
        pytest.param({"going_out": 100.0}, "rules.going_out", id="not-whole"),
        pytest.param({"concealed_going_out": 10005}, "rules.concealed_going_out", id="too-big"),
        pytest.param({"natural_canasta": None}, "rules.natural_canasta", id="null"),
        pytest.param({"mixed_canasta": -300}, "rules.mixed_canasta", id="mixed-negative"),
        pytest.param({"red_three": 101}, "rules.red_three", id="red-three-odd"),
        pytest.param({"all_red_threes": "800"}, "rules.all_red_threes", id="all-red-text"),
        pytest.param({"canastas_to_go_out": 6}, "rules.canastas_to_go_out", id="six-canastas"),
        pytest.param({"canastas_to_go_out": -1}, "rules.canastas_to_go_out", id="neg-canastas"),
        pytest.param({"canastas_to_go_out": 1.5}, "rules.canastas_to_go_out", id="half"),
        pytest.param({"minimums": 50}, "rules.minimums", id="minimums-not-a-list"),
        pytest.param({"minimums": []}, "rules.minimums", id="minimums-empty"),
        pytest.param({"minimums": [[None, 15]] * 9}, "rules.minimums", id="minimums-too-many"),
        pytest.param({"minimums": [[None, 15], [0]]}, "rules.minimums[1]", id="row-not-a-pair"),
        pytest.param({"minimums": [[None, 15], [0, 52]]}, "rules.minimums[1]", id="row-odd"),
        pytest.param(
            {"minimums": [[None, 15], [1500, 90], [0, 50]]}, "rules.minimums[2]", id="rows-down"
        ),
        pytest.param({"minimums": [[0, 50], [0, 90]]}, "rules.minimums[1]", id="rows-same-total"),
        pytest.param(
            {"minimums": [[None, 15], [None, 50]]}, "rules.minimums[1]", id="null-after-first"
        ),
        pytest.param({"minimums": [[None, -5]]}, "rules.minimums[0]", id="negative-minimum"),
        pytest.param({"minimums": [["0", 50]]}, "rules.minimums[0]", id="total-as-text"),
    ],
)
def test_a_bad_house_rule_is_refused_naming_it(rules, field):
    with pytest.raises(RuleError) as caught:
        with_house_rules(CLASSIC, rules)
    assert caught.value.field == field
    # Words, not a Python message (the minimums' shape names the API's [from_total, minimum]).
    assert len(caught.value.reason.split()) >= 3
    assert "{" not in caught.value.reason and "Error" not in caught.value.reason


def test_house_rules_leave_the_shared_profile_untouched():
    with_house_rules(CLASSIC, {"going_out": 150, "minimums": [[None, 10]]})
    assert CLASSIC.going_out == 100
    assert CLASSIC.minimum_table() == ((None, 15), (0, 50), (1500, 90), (3000, 120))


def test_seating_of_two_teams_of_three():
    assert seating(sides_of(3, 3)) == ("a1", "b1", "a2", "b2", "a3", "b3")


def test_house_rules_applied_in_two_steps_are_all_reported():
    twice = with_house_rules(with_house_rules(CLASSIC, {"going_out": 150}), {"red_three": 200})
    assert twice.house_rules == ("going_out", "red_three")
    assert (twice.going_out, twice.red_three) == (150, 200)


def test_a_house_rule_set_back_to_the_rule_book_is_not_reported():
    back = with_house_rules(with_house_rules(CLASSIC, {"going_out": 150}), {"going_out": 100})
    assert back.house_rules == ()


def test_a_chosen_target_is_not_a_house_rule():
    assert with_house_rules(with_target(CLASSIC, 10000), {}).house_rules == ()
    six_by_three = with_house_rules(with_target(SIX, 10000), {"going_out": 150})
    assert six_by_three.house_rules == ("going_out",)
