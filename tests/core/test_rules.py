"""The classic profile holds every number of docs/rules.md section 1; the minimum table; targets."""

from __future__ import annotations

import pytest

from scorer.core.errors import RuleError
from scorer.core.rules import PROFILES, RuleProfile, get_profile, validate_target, with_target

CLASSIC = get_profile("classic")


def test_classic_is_the_default_profile():
    assert get_profile(None) is PROFILES["classic"]
    assert get_profile(None).key == "classic"


@pytest.mark.parametrize(
    ("number", "expected"),
    [
        pytest.param(lambda p: p.players, 4, id="four-players"),
        pytest.param(lambda p: [x.team_sizes for x in p.layouts], [(2, 2)], id="2-teams-of-2"),
        pytest.param(lambda p: p.packs, 2, id="two-packs"),
        pytest.param(lambda p: p.cards_dealt, 11, id="eleven-cards-each"),
        pytest.param(lambda p: p.card_values.jokers, 50, id="joker-50"),
        pytest.param(lambda p: p.card_values.twenty, 20, id="ace-two-20"),
        pytest.param(lambda p: p.card_values.ten, 10, id="king-to-eight-10"),
        pytest.param(lambda p: p.card_values.five, 5, id="seven-to-four-black-three-5"),
        pytest.param(lambda p: p.canasta_bonus("natural"), 500, id="natural-canasta-500"),
        pytest.param(lambda p: p.canasta_bonus("mixed"), 300, id="mixed-canasta-300"),
        pytest.param(lambda p: p.red_three, 100, id="red-three-100"),
        pytest.param(lambda p: p.all_red_threes(), 800, id="all-four-red-threes-800"),
        pytest.param(lambda p: p.going_out, 100, id="going-out-100"),
        pytest.param(lambda p: p.concealed_going_out, 200, id="concealed-200-in-total"),
        pytest.param(lambda p: p.canastas_to_go_out, 1, id="one-canasta-to-go-out"),
        pytest.param(lambda p: p.target, 5000, id="target-5000"),
        pytest.param(lambda p: p.red_threes_in_packs, 4, id="four-red-threes-in-two-packs"),
        pytest.param(lambda p: p.card_value_of_packs, 1180, id="two-packs-worth-1180"),
    ],
)  # fmt: skip
def test_classic_profile_holds_the_rule_book_numbers(number, expected):
    assert number(CLASSIC) == expected


@pytest.mark.parametrize(
    ("group", "cards"),
    [
        pytest.param("jokers", 4, id="4-jokers"),
        pytest.param("twenty", 16, id="16-aces-and-twos"),
        pytest.param("ten", 48, id="48-kings-to-eights"),
        pytest.param("five", 36, id="36-sevens-to-fours-and-black-threes"),
    ],
)
def test_two_packs_hold_these_cards_of_each_value(group, cards):
    assert CLASSIC.cards_in_packs(group) == cards


def test_one_pack_is_worth_590_in_cards():
    # 2 x 50 + 8 x 20 + 24 x 10 + 18 x 5 = 100 + 160 + 240 + 90.
    assert CLASSIC.card_value_of_packs // CLASSIC.packs == 590


def test_profiles_are_frozen_data():
    with pytest.raises(AttributeError):
        CLASSIC.going_out = 0  # type: ignore[misc]


def test_an_unknown_variant_is_refused_naming_the_profile():
    with pytest.raises(RuleError) as caught:
        get_profile("seven-player")
    assert caught.value.field == "profile"
    assert "seven-player" in caught.value.reason
    assert "classic" in caught.value.reason


# --- minimum table ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("total", "minimum"),
    [
        pytest.param(-5000, 15, id="far-below-0-is-15"),
        pytest.param(-5, 15, id="minus-5-is-15"),
        pytest.param(0, 50, id="0-is-50"),
        pytest.param(5, 50, id="5-is-50"),
        pytest.param(1495, 50, id="1495-is-50"),
        pytest.param(1500, 90, id="1500-is-90"),
        pytest.param(2995, 90, id="2995-is-90"),
        pytest.param(3000, 120, id="3000-is-120"),
        pytest.param(4995, 120, id="4995-is-120"),
        pytest.param(7500, 120, id="7500-is-still-120-with-a-5000-target"),
        pytest.param(12000, 120, id="12000-is-120-with-a-5000-target"),
    ],
)
def test_opening_minimum_follows_the_running_total_before_the_hand(total, minimum):
    assert CLASSIC.opening_minimum(total) == minimum


@pytest.mark.parametrize(
    ("total", "minimum"),
    [
        pytest.param(-5, 15, id="minus-5-is-15"),
        pytest.param(0, 50, id="0-is-50"),
        pytest.param(1495, 50, id="1495-is-50"),
        pytest.param(1500, 90, id="1500-is-90"),
        pytest.param(2995, 90, id="2995-is-90"),
        pytest.param(3000, 120, id="3000-is-120"),
        pytest.param(7495, 120, id="7495-is-120"),
        pytest.param(7500, 150, id="7500-is-150"),
        pytest.param(9995, 150, id="9995-is-150"),
    ],
)
@pytest.mark.parametrize("target", [10000, 15000, 20000], ids=lambda t: f"target-{t}")
def test_a_target_of_10000_or_more_adds_the_150_row_from_7500(target, total, minimum):
    assert with_target(CLASSIC, target).opening_minimum(total) == minimum


@pytest.mark.parametrize("target", [1000, 5000, 7500, 9500], ids=lambda t: f"target-{t}")
def test_a_target_below_10000_has_no_150_row(target):
    profile = with_target(CLASSIC, target)
    assert profile.minimum_table() == ((None, 15), (0, 50), (1500, 90), (3000, 120))
    assert 150 not in {minimum for _start, minimum in profile.minimum_table()}
    assert profile.opening_minimum(9995) == 120


def test_the_10000_minimum_table_has_five_rows_in_order():
    table = with_target(CLASSIC, 10000).minimum_table()
    assert table == ((None, 15), (0, 50), (1500, 90), (3000, 120), (7500, 150))


@pytest.mark.parametrize(
    ("total", "row"),
    [
        pytest.param(-5, 0, id="below-0-first-row"),
        pytest.param(0, 1, id="0-second-row"),
        pytest.param(1495, 1, id="1495-second-row"),
        pytest.param(1500, 2, id="1500-third-row"),
        pytest.param(3000, 3, id="3000-fourth-row"),
        pytest.param(7500, 3, id="7500-fourth-row-with-5000-target"),
    ],
)
def test_the_row_to_highlight_is_the_one_that_applies(total, row):
    assert CLASSIC.minimum_row_index(total) == row


def test_the_150_row_is_highlighted_from_7500_with_a_10000_target():
    assert with_target(CLASSIC, 10000).minimum_row_index(7500) == 4
    assert with_target(CLASSIC, 10000).minimum_row_index(7495) == 3


# --- targets ------------------------------------------------------------------------------


@pytest.mark.parametrize("target", [1000, 1500, 5000, 7500, 10000, 19500, 20000])
def test_any_multiple_of_500_from_1000_to_20000_is_a_target(target):
    assert validate_target(target) == target
    assert with_target(CLASSIC, target).target == target


@pytest.mark.parametrize(
    "target",
    [
        pytest.param(500, id="below-1000"),
        pytest.param(0, id="zero"),
        pytest.param(-5000, id="negative"),
        pytest.param(20500, id="above-20000"),
        pytest.param(5250, id="not-a-multiple-of-500"),
        pytest.param(5001, id="odd"),
        pytest.param(5000.0, id="not-whole"),
        pytest.param(True, id="boolean"),
        pytest.param("5000", id="text"),
    ],
)
def test_a_target_outside_the_accepted_ones_is_refused_naming_the_target(target):
    with pytest.raises(RuleError) as caught:
        with_target(CLASSIC, target)
    assert caught.value.field == "target"
    assert "500" in caught.value.reason


def test_changing_the_target_keeps_every_other_number():
    changed = with_target(CLASSIC, 10000)
    assert isinstance(changed, RuleProfile)
    assert changed.going_out == CLASSIC.going_out
    assert changed.canasta_bonuses == CLASSIC.canasta_bonuses
    assert CLASSIC.target == 5000  # the shared profile is untouched
