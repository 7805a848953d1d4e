"""Modern American Canasta's pure core (docs/rules.md, "Modern American Canasta"; issue 31):
its numbers, the swing, its penalties and special hands, and what it refuses at which field."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from scorer.core.errors import RuleError
from scorer.core.families import ALL_FAMILIES, CLASSIC, FAMILIES, MODERN_AMERICAN, get_family
from scorer.core.hand_schema import field_names, side_hand, side_values
from scorer.core.hands import Hand, SideHand, score_hand, validate_hand
from scorer.core.meld import PlannedMeld
from scorer.core.rules import PROFILES, VARIANTS, family_of_variant, profile_of, with_house_rules

PROFILE = profile_of(MODERN_AMERICAN, MODERN_AMERICAN.seatings[0])
CLASSIC_PROFILE = profile_of(CLASSIC, CLASSIC.seatings[0])
# The other side of most hands below: melded one meld of kings, holds 30.
QUIET = {"meld_points": 40, "hand_points": 30}


def scores(us: dict[str, Any], them: dict[str, Any] = QUIET, **hand: Any) -> Any:
    """Validate and score a hand of two sides in Modern American; our side's score."""
    sides = (SideHand(**us, family=MODERN_AMERICAN), SideHand(**them, family=MODERN_AMERICAN))
    played = Hand(sides=sides, **hand)
    validate_hand(PROFILE, played, 2)
    return score_hand(PROFILE, played)


# (what the side called, did it go out, its total): every line a sum §5a spells out.
TOTALS = [
    pytest.param(
        # The first example: kings (70 + 500), sevens (35 + 2 500), two red threes
        # (300), one black (100), went out (100), the partner holding a queen (-10).
        dict(
            meld_points=105,
            natural_canastas=1,
            sevens_canastas=1,
            red_threes=2,
            black_threes=1,
            hand_points=10,
        ),
        True,
        3595,
        id="issue-two-canastas-went-out",
    ),
    pytest.param(
        # The second example: no canasta, melded 90, two red threes, holding 40.
        dict(meld_points=90, red_threes=2, hand_points=40),
        False,
        -430,
        id="issue-no-canasta",
    ),
    pytest.param(
        # One canasta: cards and bonus added, threes not counted at all.
        dict(meld_points=100, natural_canastas=1, red_threes=2, black_threes=1, hand_points=15),
        False,
        100 + 500 - 15,
        id="one-canasta-threes-not-counted",
    ),
    pytest.param(
        # Nothing melded, a red three laid down: subtracted.
        dict(red_threes=1, hand_points=50),
        False,
        -100 - 50,
        id="nothing-melded-red-three",
    ),
    pytest.param(
        # Four threes of a colour 1 000, three of the other 500, with two canastas.
        dict(meld_points=140, natural_canastas=1, mixed_canastas=1, red_threes=4, black_threes=3),
        False,
        140 + 500 + 300 + 1000 + 500,
        id="threes-by-colour",
    ),
    pytest.param(
        # Natural aces 2 500 and a wild canasta of one to three jokers 2 000.
        dict(meld_points=140 + 190, aces_canastas=1, wild_canastas=1),
        False,
        330 + 2500 + 2000,
        id="aces-and-wild",
    ),
    pytest.param(
        # All four jokers and three twos 2 500, beside natural kings. (With seven twos as
        # well it could not be: two packs hold eight twos, and a side one wild meld.)
        dict(meld_points=260 + 70, wild_four_jokers_canastas=1, natural_canastas=1),
        True,
        330 + 2500 + 500 + 100,
        id="four-jokers-went-out",
    ),
    pytest.param(
        # Seven twos 3 000, beside natural kings.
        dict(meld_points=140 + 70, deuces_canastas=1, natural_canastas=1),
        True,
        210 + 3000 + 500 + 100,
        id="deuces-went-out",
    ),
    pytest.param(
        # Penalties stack and are always subtracted: an unfinished meld of sevens and one of
        # wild cards with all four jokers, two players holding three aces or more.
        dict(
            meld_points=150,
            natural_canastas=2,
            unfinished={"sevens": 1, "wild_four_jokers": 1},
            players_holding={"aces": 2},
            hand_points=120,
        ),
        False,
        150 + 1000 - 2500 - 2500 - 2 * 1500 - 120,
        id="penalties-stack",
    ),
    pytest.param(
        # Without a canasta the penalties are subtracted as well, beside the melded cards.
        dict(meld_points=60, unfinished={"aces": 1, "wild": 1}, players_holding={"sevens": 1}),
        False,
        -60 - 2500 - 2000 - 1500,
        id="penalties-no-canasta",
    ),
    pytest.param(
        # A special hand replaces the side's whole score: pagat's straight is 3 000.
        dict(special_hand="straight", red_threes=1, hand_points=0),
        True,
        3000,
        id="special-straight",
    ),
    pytest.param(
        dict(special_hand="wild_pairs"),
        True,
        2000,
        id="special-wild-pairs",
    ),
]


@pytest.mark.parametrize(("side", "went_out", "total"), TOTALS)
def test_a_side_scores_as_the_rule_book_adds_it(side: dict, went_out: bool, total: int) -> None:
    ours, _theirs = scores(side, went_out=0 if went_out else None)
    assert ours.total == total


def test_the_other_side_scores_normally_beside_a_special_hand() -> None:
    _ours, theirs = scores({"special_hand": "garbage"}, QUIET, went_out=0)
    assert theirs.total == -40 - 30  # no canasta: the melded kings count against them


def test_the_parts_show_the_swing() -> None:
    ours, _ = scores(
        dict(meld_points=90, red_threes=2, black_threes=1, hand_points=40, unfinished={"aces": 1})
    )
    assert (ours.cards, ours.canastas, ours.red_threes, ours.black_threes) == (-90, 0, -300, -100)
    assert (ours.hand, ours.penalties, ours.special) == (-40, -2500, 0)


def test_no_concealed_bonus() -> None:
    side = dict(meld_points=105, natural_canastas=1, sevens_canastas=1)
    plain, _ = scores(side, went_out=0)
    concealed, _ = scores(side, went_out=0, concealed=True)
    assert plain.going_out == concealed.going_out == 100


def test_house_rule_every_wild_canasta_2000() -> None:
    house = with_house_rules(PROFILE, MODERN_AMERICAN.house_preset("every_wild_canasta_2000"))
    bonuses = [house.canasta_bonus(kind) for kind in ("wild", "wild_four_jokers", "deuces")]
    assert bonuses == [2000, 2000, 2000]
    assert [PROFILE.canasta_bonus(k) for k in ("wild", "wild_four_jokers", "deuces")] == [
        2000,
        2500,
        3000,
    ]


@pytest.mark.parametrize(
    ("total", "minimum"),
    [(-800, 125), (0, 125), (2995, 125), (3000, 155), (4995, 155), (5000, 180), (8000, 180)],
)
def test_the_minimum_table(total: int, minimum: int) -> None:
    assert PROFILE.opening_minimum(total) == minimum
    # No higher row, whatever the target.
    assert replace(PROFILE, target=20000).opening_minimum(total) == minimum


@pytest.mark.parametrize(("number", "minimum"), [(1, 125), (2, 155), (3, 180)])
def test_the_tournament_minimum_by_hand(number: int, minimum: int) -> None:
    assert MODERN_AMERICAN.minimum_for_hand(number) == minimum
    assert CLASSIC.minimum_for_hand(number) is None


@pytest.mark.parametrize("family", ["modern-american", "samba", "bolivia"])
def test_partnership_games_are_never_played_alone(family: str) -> None:
    """docs/rules.md §3 "Every player alone" is Classic's; §5's books seat partnerships."""
    rules = next(f for f in ALL_FAMILIES if f.key == family)
    profile = profile_of(rules, rules.seatings[0])
    assert profile.allowed_layouts() == profile.layouts
    with pytest.raises(RuleError) as refused:
        profile.layout_for((1, 1, 1, 1))
    assert refused.value.field == "sides"


def test_the_table_and_the_numbers() -> None:
    (seating,) = MODERN_AMERICAN.seatings
    assert (seating.players, seating.layouts[0].team_sizes) == (4, (2, 2))
    assert (seating.target, seating.cards_dealt, seating.canastas_to_go_out) == (8500, 13, 2)
    assert PROFILE.card_value_of_packs == CLASSIC_PROFILE.card_value_of_packs
    assert PROFILE.red_threes_in_packs == 4
    assert {hand.key: hand.value for hand in MODERN_AMERICAN.special_hands} == {
        "straight": 3000,
        "pairs": 2500,
        "wild_pairs": 2000,
        "garbage": 2000,
    }


def meld(rank: str, naturals: int, jokers: int = 0, twos: int = 0) -> PlannedMeld:
    return PlannedMeld(rank=rank, naturals=naturals, jokers=jokers, twos=twos)


# (our side, theirs, went out, the field refused, a word of its reason).
REFUSED = [
    pytest.param(
        dict(meld_points=40, black_threes=3),
        dict(meld_points=40, black_threes=2),
        None,
        "sides[1].black_threes",
        "at most 4 black threes",
        id="five-black-threes",
    ),
    pytest.param(
        dict(meld_points=40, red_threes=4),
        dict(meld_points=40, red_threes=1),
        None,
        "sides[1].red_threes",
        "at most 4 red threes",
        id="five-red-threes",
    ),
    pytest.param(
        dict(melds=(meld("7", 6, twos=1),)),
        QUIET,
        None,
        "sides[0].melds[0].twos",
        "no wild card",
        id="sevens-with-a-wild-card",
    ),
    pytest.param(
        dict(melds=(meld("K", 4, jokers=3),)),
        QUIET,
        None,
        "sides[0].melds[0].jokers",
        "at most two wild cards",
        id="three-wild-cards",
    ),
    pytest.param(
        dict(meld_points=70, natural_canastas=1),
        QUIET,
        0,
        "sides[0].canastas.mixed",
        "at least 2 canastas",
        id="going-out-with-one-canasta",
    ),
    pytest.param(
        dict(meld_points=40, special_hand="straight"),
        QUIET,
        0,
        "sides[0].special_hand",
        "melded nothing",
        id="special-hand-from-a-side-that-melded",
    ),
    pytest.param(
        dict(special_hand="pairs"),
        QUIET,
        None,
        "sides[0].special_hand",
        "went out",
        id="special-hand-that-did-not-go-out",
    ),
    pytest.param(
        dict(special_hand="dream"),
        QUIET,
        0,
        "sides[0].special_hand",
        "not a special hand",
        id="unknown-special-hand",
    ),
    pytest.param(
        dict(meld_points=40, players_holding={"sevens": 3}),
        QUIET,
        None,
        "sides[0].players_holding.sevens",
        "at most 2 players",
        id="three-players-of-two",
    ),
    pytest.param(
        dict(meld_points=40, unfinished={"kings": 1}),
        QUIET,
        None,
        "sides[0].unfinished.kings",
        "not asked",
        id="unfinished-kings-take-nothing",
    ),
    pytest.param(
        dict(meld_points=40, samba_canastas=1),
        QUIET,
        None,
        "sides[0].canastas.samba",
        "not a kind of canasta",
        id="a-kind-the-family-lacks",
    ),
]


@pytest.mark.parametrize(("us", "them", "went_out", "field", "reason"), REFUSED)
def test_refused_at_its_field(us: dict, them: dict, went_out: int | None, field: str, reason: str):
    with pytest.raises(RuleError) as refused:
        scores(us, them, went_out=went_out)
    assert refused.value.field == field
    assert reason in str(refused.value)


@pytest.mark.parametrize(
    ("side", "field"),
    [
        (dict(meld_points=40, black_threes=1), "sides[0].black_threes"),
        (dict(meld_points=40, unfinished={"sevens": 1}), "sides[0].unfinished.sevens"),
        (dict(meld_points=40, players_holding={"aces": 1}), "sides[0].players_holding.aces"),
        (dict(special_hand="straight"), "sides[0].special_hand"),
    ],
)
def test_classic_asks_none_of_it(side: dict, field: str) -> None:
    hand = Hand(sides=(SideHand(**side), SideHand(**QUIET)), went_out=None)
    with pytest.raises(RuleError) as refused:
        validate_hand(CLASSIC_PROFILE, hand, 2)
    assert refused.value.field == field


def test_classic_hands_keep_their_fields_and_shape() -> None:
    assert not field_names(CLASSIC) & {
        "black_threes",
        "unfinished",
        "players_holding",
        "special_hand",
    }
    side = SideHand(meld_points=120, natural_canastas=1, red_threes=1, hand_points=15)
    assert set(side_values(side, CLASSIC)) == {
        "meld_points",
        "natural_canastas",
        "mixed_canastas",
        "red_threes",
        "hand_points",
    }


def test_a_modern_american_side_reads_back_as_written() -> None:
    assert {"black_threes", "unfinished", "players_holding", "special_hand"} <= field_names(
        MODERN_AMERICAN
    )
    side = SideHand(
        meld_points=105,
        natural_canastas=1,
        sevens_canastas=1,
        red_threes=2,
        black_threes=1,
        unfinished={"aces": 1},
        players_holding={"sevens": 1},
        hand_points=10,
    )
    values = side_values(side, MODERN_AMERICAN)
    assert values["unfinished"] == {"aces": 1}
    assert side_hand(values, MODERN_AMERICAN) == side


def test_choosable() -> None:
    # The API, the store and the pages accept the families in FAMILIES.
    assert FAMILIES["modern-american"] is MODERN_AMERICAN is get_family("modern-american")
    assert list(FAMILIES)[:2] == ["classic", "modern-american"]
    with pytest.raises(RuleError) as refused:
        get_family("bridge")
    assert refused.value.field == "family"


def test_its_canastas_are_counted_in_one_object() -> None:
    # The API's names (issue 31): "canastas": {"sevens": 1}; Classic keeps a field a kind.
    assert MODERN_AMERICAN.canasta_field("sevens") == "canastas.sevens"
    assert CLASSIC.canasta_field("natural") == "natural_canastas"
    side = side_hand({"meld_points": 105, "canastas": {"sevens": 1}}, MODERN_AMERICAN)
    assert side.canastas == (("sevens", 1),)
    assert side_values(side, MODERN_AMERICAN)["canastas"] == {
        "natural": 0,
        "mixed": 0,
        "sevens": 1,
        "aces": 0,
        "wild": 0,
        "wild_four_jokers": 0,
        "deuces": 0,
    }


@pytest.mark.parametrize(
    ("melded", "kind"),
    [
        (meld("7", 7), "sevens"),
        (meld("A", 7), "aces"),
        (meld("A", 5, twos=2), "mixed"),  # mixed aces: an ordinary mixed canasta
        (meld("K", 7), "natural"),
        (meld("K", 6, jokers=1), "mixed"),
        (meld("7", 6), None),
    ],
)
def test_a_meld_given_rank_by_rank_is_its_kind_of_canasta(melded: PlannedMeld, kind: str) -> None:
    assert melded.canasta(MODERN_AMERICAN) == kind
    assert meld("7", 7).canasta(CLASSIC) == "natural"  # Classic has no sevens' kind


def test_melds_rank_by_rank_score_their_kinds() -> None:
    side = {"melds": (meld("7", 7), meld("K", 7), meld("Q", 3)), "red_threes": 1}
    ours, _ = scores(side, went_out=0)
    assert ours.canastas == 2500 + 500
    assert ours.total == 35 + 70 + 30 + 2500 + 500 + 100 + 100


# The swing as §5a's table has it, by completed canastas: (bonuses and going out, melded
# cards, threes); penalties and cards in hand always subtracted.
SWING = {0: (0, -1, -1), 1: (1, 1, 0), 2: (1, 1, 1), 3: (1, 1, 1)}


@pytest.mark.parametrize("canastas", sorted(SWING))
def test_the_swing_row_by_row(canastas: int) -> None:
    bonuses, cards, threes = SWING[canastas]
    melded = 70 * canastas + 40  # natural canastas of tens, and a meld of four tens
    side = dict(
        meld_points=melded,
        natural_canastas=canastas,
        red_threes=1,
        black_threes=2,
        unfinished={"wild": 1},
        hand_points=25,
    )
    went_out = 0 if canastas >= 2 else None
    ours, _ = scores(side, went_out=went_out)
    going_out = 100 if went_out == 0 else 0
    expected = (
        bonuses * (500 * canastas + going_out) + cards * melded + threes * (100 + 300) - 2000 - 25
    )
    assert ours.total == expected


def test_its_seating_is_a_variant_a_game_may_choose() -> None:
    # One choice of variant names the family too: Classic's keep their keys.
    assert {key: VARIANTS[key] for key in PROFILES} == PROFILES
    assert VARIANTS["four-player"].family is MODERN_AMERICAN
    assert VARIANTS["four-player"].target == 8500
    assert family_of_variant("four-player") == "modern-american"
    assert family_of_variant("classic") == "classic"
    assert family_of_variant("bridge") is None
