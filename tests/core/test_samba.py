"""Samba's pure core (docs/rules.md, "Samba"; issue 32): its numbers, sequences meld by
meld, the red threes' sign, the counted-cards check with sequences, and what it refuses at
which field. Every total below is added up by hand from the rule book, in its comment."""

from __future__ import annotations

import pytest
from three_packs import QUIET, assert_refused, book_profile, meld, run, two_sides

from scorer.core.canastas import counted_melds_problem
from scorer.core.errors import RuleError
from scorer.core.families import ALL_FAMILIES, BOLIVIA, CLASSIC, FAMILIES, SAMBA, get_family
from scorer.core.game import Side, make_table, play
from scorer.core.hand_schema import field_names, side_fields, side_hand, side_values
from scorer.core.hands import CardCounts, Hand, SideHand, validate_hand
from scorer.core.meld import PlannedSequence, check_opening, sequence_value
from scorer.core.rules import house_rule_choices, profile_of, with_house_rules

PROFILE = book_profile(SAMBA)
CLASSIC_PROFILE = profile_of(CLASSIC, CLASSIC.seatings[0])


# (what the side called, did it go out, its total): every line a sum of §5b.
TOTALS = [
    pytest.param(
        # A samba of hearts 4 to 10 (4+5+6+7 = 4 x 5, 8+9+10 = 3 x 10: 50) + 1 500, seven
        # kings (70) + 500, two red threes 200, went out 200, the partner holds a 7 and a
        # 10 (15): 50 + 1 500 + 70 + 500 + 200 + 200 - 15 = 2 505.
        dict(
            melds=(meld("K", 7),),
            sequences=(run("hearts", "4", "10"),),
            red_threes=2,
            hand_points=15,
        ),
        True,
        2505,
        id="samba-and-kings-went-out",
    ),
    pytest.param(
        # The same typed as points: 120 melded, one natural canasta, one samba.
        dict(meld_points=120, natural_canastas=1, samba_canastas=1, red_threes=2, hand_points=15),
        True,
        2505,
        id="samba-and-kings-typed",
    ),
    pytest.param(
        # All six red threes 1 000 with two canastas: natural kings (70 + 500) and mixed
        # queens, five queens, a joker and a two (50 + 50 + 20 = 120) + 300;
        # 70 + 500 + 120 + 300 + 1 000 = 1 990.
        dict(melds=(meld("K", 7), meld("Q", 5, jokers=1, twos=1)), red_threes=6),
        False,
        1990,
        id="all-six-red-threes",
    ),
    pytest.param(
        # Five red threes are 5 x 100 (only all six make a set value): two natural canastas
        # of kings and of tens (140 + 1 000), 500 for the threes: 1 640.
        dict(meld_points=140, natural_canastas=2, red_threes=5),
        False,
        1640,
        id="five-red-threes",
    ),
    pytest.param(
        # One canasta only: the red threes count against the side (the book's rule):
        # kings 70 + 500, two red threes -200, 20 in hand: 70 + 500 - 200 - 20 = 350.
        dict(meld_points=70, natural_canastas=1, red_threes=2, hand_points=20),
        False,
        350,
        id="red-threes-against-one-canasta",
    ),
    pytest.param(
        # Melded nothing: three red threes -300, 45 in hand: -345.
        dict(red_threes=3, hand_points=45),
        False,
        -345,
        id="red-threes-against-nothing-melded",
    ),
    pytest.param(
        # A group grows past seven: nine natural kings (90) are a natural canasta, + 500; a
        # meld of eight queens with two twos (6 x 10 + 2 x 20 = 100) a mixed one, + 300:
        # 90 + 500 + 100 + 300 = 990.
        dict(melds=(meld("K", 9), meld("Q", 6, twos=2))),
        False,
        990,
        id="groups-past-seven",
    ),
    pytest.param(
        # Sequences shorter than seven are melds, no canasta: clubs 4-5-6 (15) and spades
        # J-Q-K-A (30 + 20 = 50), with a samba of diamonds 8 to ace (6 x 10 + 20 = 80) and
        # seven fives (35): 15 + 50 + 80 + 1 500 + 35 + 500 = 2 180.
        dict(
            melds=(meld("5", 7),),
            sequences=(
                run("clubs", "4", "6"),
                run("spades", "J", "A"),
                run("diamonds", "8", "A"),
            ),
        ),
        False,
        2180,
        id="short-sequences-and-a-samba",
    ),
    pytest.param(
        # Two sambas make the two canastas going out needs: hearts 5 to J (3 x 5 + 4 x 10 =
        # 55) and spades 7 to K (5 + 6 x 10 = 65), each + 1 500, went out 200:
        # 55 + 65 + 3 000 + 200 = 3 320.
        dict(sequences=(run("hearts", "5", "J"), run("spades", "7", "K"))),
        True,
        3320,
        id="two-sambas-go-out",
    ),
]


@pytest.mark.parametrize(("side", "went_out", "total"), TOTALS)
def test_a_side_scores_as_the_rule_book_adds_it(side: dict, went_out: bool, total: int) -> None:
    ours, _theirs = two_sides(PROFILE, side, went_out=0 if went_out else None)
    assert ours.total == total


def test_the_other_side_keeps_its_red_threes_against_it() -> None:
    # No canasta: 70 melded, one red three -100, 30 in hand: -60.
    _ours, theirs = two_sides(PROFILE, {"meld_points": 40}, {**QUIET, "red_threes": 1})
    assert (theirs.red_threes, theirs.total) == (-100, 70 - 100 - 30)


def test_house_rule_red_threes_against_a_side_that_melded_nothing() -> None:
    house = with_house_rules(PROFILE, {"red_threes_count_against": "no_meld"})
    side = dict(meld_points=70, natural_canastas=1, red_threes=2, hand_points=20)
    ours, _ = two_sides(house, side)
    assert ours.total == 70 + 500 + 200 - 20
    assert house.house_rules == ("red_threes_count_against",)
    assert house_rule_choices(SAMBA)["red_threes_count_against"] == ("too_few_canastas", "no_meld")


def test_classic_keeps_its_red_threes_choices() -> None:
    assert CLASSIC_PROFILE.red_threes_count_against == "no_meld"
    assert house_rule_choices(CLASSIC)["red_threes_count_against"] == ("no_meld", "no_canasta")
    with pytest.raises(RuleError) as refused:
        with_house_rules(CLASSIC_PROFILE, {"red_threes_count_against": "too_few_canastas"})
    assert refused.value.field == "rules.red_threes_count_against"


def test_no_concealed_bonus() -> None:
    side = dict(meld_points=140, natural_canastas=2)
    plain, _ = two_sides(PROFILE, side, went_out=0)
    concealed, _ = two_sides(PROFILE, side, went_out=0, concealed=True)
    assert plain.going_out == concealed.going_out == 200


@pytest.mark.parametrize(
    ("total", "minimum"),
    [
        (-5, 15),
        (0, 50),
        (1495, 50),
        (1500, 90),
        (2995, 90),
        (3000, 120),
        (6995, 120),
        (7000, 150),
        (9995, 150),
    ],
)
def test_the_minimum_table(total: int, minimum: int) -> None:
    assert PROFILE.opening_minimum(total) == minimum


def test_the_house_minimum_of_160() -> None:
    house = with_house_rules(PROFILE, SAMBA.house_preset("bicycle_minimums"))
    assert [house.opening_minimum(t) for t in (6995, 7000, 12000)] == [120, 160, 160]
    assert house.house_rules == ("minimums",)


def test_the_table_and_the_numbers() -> None:
    (seating,) = SAMBA.seatings
    assert (seating.players, seating.layouts[0].team_sizes) == (4, (2, 2))
    assert (seating.packs, seating.cards_dealt, SAMBA.draws) == (3, 15, 2)
    assert (seating.target, seating.canastas_to_go_out) == (10000, 2)
    # 162 cards: 590 points a pack, 6 jokers, 6 red threes.
    assert PROFILE.card_value_of_packs == 3 * 590
    assert (PROFILE.cards_in_packs("jokers"), PROFILE.red_threes_in_packs) == (6, 6)
    assert [PROFILE.canasta_bonus(k) for k in ("natural", "mixed", "samba")] == [500, 300, 1500]
    assert PROFILE.all_red_threes() == 1000
    assert PROFILE.layout_for((2, 2)).target == 10000


@pytest.mark.parametrize(
    ("sequence", "cards", "points", "kind"),
    [
        # 4 to 10: four cards worth 5, three worth 10.
        (run("hearts", "4", "10"), 7, 50, "samba"),
        # 8 to ace: six cards worth 10, the ace 20.
        (run("spades", "8", "A"), 7, 80, "samba"),
        (run("clubs", "4", "6"), 3, 15, None),
        (run("diamonds", "J", "A"), 4, 50, None),
    ],
)
def test_a_sequence_is_derived_from_its_suit_first_and_last(
    sequence: PlannedSequence, cards: int, points: int, kind: str | None
) -> None:
    assert SAMBA.sequences is not None
    assert len(sequence.ranks(SAMBA.sequences)) == cards
    assert sequence_value(sequence, SAMBA) == points
    assert sequence.canasta(SAMBA) == kind


@pytest.mark.parametrize(
    ("counts", "canastas", "problem"),
    [
        # Samba 4 to 10 counted: four 5s, three 10s.
        (CardCounts(five=4, ten=3), {"samba": 1}, None),
        # 7-8-9 of a suit: one five-point card and two ten-point ones, no wild card (a
        # group could not hold the lone 7).
        (CardCounts(five=1, ten=2), {}, None),
        # Seven aces are no samba (a sequence has one ace at most).
        (CardCounts(twenty=7), {"samba": 1}, "melds"),
        # Two sambas need fourteen cards.
        (CardCounts(five=4, ten=6), {"samba": 2}, "cards"),
        # A samba and a natural canasta: 4 to 10 and seven kings.
        (CardCounts(five=4, ten=10), {"samba": 1, "natural": 1}, None),
        # Three jokers alone are no meld in Samba.
        (CardCounts(jokers=3), {}, "melds"),
        # Groups hold two wild cards at most: three kings and three jokers cannot be laid.
        (CardCounts(jokers=3, ten=3), {}, "melds"),
    ],
)
def test_counted_cards_are_laid_as_groups_and_sequences(
    counts: CardCounts, canastas: dict[str, int], problem: str | None
) -> None:
    found = counted_melds_problem(
        SAMBA,
        counts,
        canastas.get("natural", 0),
        canastas.get("mixed", 0),
        packs=3,
        sequences=canastas.get("samba", 0),
    )
    assert found == problem


def test_a_counted_side_with_a_samba_is_scored() -> None:
    # Counted: four 5s and ten 10s = 20 + 100 = 120; a samba and a natural canasta, went
    # out: 120 + 1 500 + 500 + 200 = 2 320.
    side = dict(meld_cards=CardCounts(five=4, ten=10), samba_canastas=1, natural_canastas=1)
    ours, _ = two_sides(PROFILE, side, went_out=0)
    assert ours.total == 2320


# (our side, theirs, went out, the field refused, a word of its reason).
REFUSED = [
    pytest.param(
        dict(sequences=(run("hearts", "4", "9", jokers=1),)),
        QUIET,
        None,
        "sides[0].sequences[0].jokers",
        "no wild card",
        id="sequence-with-a-joker",
    ),
    pytest.param(
        dict(sequences=(run("hearts", "4", "9", twos=1),)),
        QUIET,
        None,
        "sides[0].sequences[0].twos",
        "no wild card",
        id="sequence-with-a-two",
    ),
    pytest.param(
        dict(sequences=(run("hearts", "2", "7"),)),
        QUIET,
        None,
        "sides[0].sequences[0].first",
        "from 4 up to the ace",
        id="sequence-from-a-two",
    ),
    pytest.param(
        dict(sequences=(run("hearts", "3", "7"),)),
        QUIET,
        None,
        "sides[0].sequences[0].first",
        "from 4 up to the ace",
        id="sequence-from-a-three",
    ),
    pytest.param(
        dict(sequences=(run("hearts", "4", "J"),)),
        QUIET,
        None,
        "sides[0].sequences[0].last",
        "at most seven cards",
        id="an-eighth-card-on-a-samba",
    ),
    pytest.param(
        dict(sequences=(run("hearts", "9", "5"),)),
        QUIET,
        None,
        "sides[0].sequences[0].last",
        "goes up",
        id="sequence-going-down",
    ),
    pytest.param(
        dict(sequences=(run("hearts", "9", "10"),)),
        QUIET,
        None,
        "sides[0].sequences[0].last",
        "at least three cards",
        id="sequence-of-two",
    ),
    pytest.param(
        dict(sequences=(run("stars", "4", "6"),)),
        QUIET,
        None,
        "sides[0].sequences[0].suit",
        "of one suit",
        id="sequence-of-no-suit",
    ),
    pytest.param(
        # Four hearts from 4 to 6: the three packs hold three 4 of hearts.
        dict(sequences=tuple(run("hearts", "4", "6") for _ in range(4))),
        QUIET,
        None,
        "sides[0].sequences[3].suit",
        "hold only 3",
        id="a-fourth-four-of-hearts",
    ),
    pytest.param(
        # Three sequences 4 to 6 of hearts here, one more over there.
        dict(sequences=tuple(run("hearts", "4", "6") for _ in range(3))),
        dict(sequences=(run("hearts", "5", "7"),)),
        None,
        "sides[1].sequences[0].suit",
        "hold only 3",
        id="a-fourth-five-of-hearts-over-both-sides",
    ),
    pytest.param(
        # Twelve 9s in groups, one more in a sequence: thirteen of a rank.
        dict(melds=(meld("9", 12),), sequences=(run("hearts", "7", "9"),)),
        QUIET,
        None,
        "sides[0].melds[0].naturals",
        "hold only 12",
        id="thirteen-nines",
    ),
    pytest.param(
        dict(meld_points=40, red_threes=4),
        dict(meld_points=40, red_threes=3),
        None,
        "sides[1].red_threes",
        "at most 6 red threes",
        id="seven-red-threes",
    ),
    pytest.param(
        dict(melds=(meld("K", 4, jokers=2, twos=1),)),
        QUIET,
        None,
        "sides[0].melds[0].jokers",
        "at most two wild cards",
        id="three-wild-cards-in-a-group",
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
        dict(melds=(meld("K", 7),), sequences=(run("clubs", "4", "6"),)),
        QUIET,
        0,
        "sides[0].melds",
        "at least 2 canastas",
        id="going-out-with-one-canasta-meld-by-meld",
    ),
    pytest.param(
        dict(melds=(meld("wild", 0, jokers=3),)),
        QUIET,
        None,
        "sides[0].melds[0].rank",
        "no meld of wild cards",
        id="wild-cards-alone",
    ),
    pytest.param(
        dict(meld_points=40, black_threes_in_hand=1),
        QUIET,
        None,
        "sides[0].black_threes_in_hand",
        "not asked",
        id="black-threes-in-hand-are-bolivia-s",
    ),
    pytest.param(
        dict(meld_points=45, samba_canastas=1),
        QUIET,
        None,
        "sides[0].meld_points",
        "at least 50 points",
        id="samba-below-its-cheapest-cards",
    ),
    pytest.param(
        dict(meld_points=13 * 80, samba_canastas=13),
        QUIET,
        None,
        "sides[0].canastas.samba",
        "at most 12",
        id="thirteen-sambas",
    ),
    pytest.param(
        dict(meld_points=80, escalera_canastas=1),
        QUIET,
        None,
        "sides[0].canastas.escalera",
        "not a kind of canasta",
        id="an-escalera-is-bolivia-s",
    ),
    pytest.param(
        dict(meld_cards=CardCounts(twenty=7), samba_canastas=1),
        QUIET,
        None,
        "sides[0].meld_cards",
        "cannot all be laid down",
        id="counted-aces-as-a-samba",
    ),
]


@pytest.mark.parametrize(("us", "them", "went_out", "field", "reason"), REFUSED)
def test_refused_at_its_field(us: dict, them: dict, went_out: int | None, field: str, reason: str):
    assert_refused(PROFILE, us, them, went_out, field, reason)


def test_classic_has_no_sequences() -> None:
    side = SideHand(melds=(meld("K", 3),), sequences=(run("hearts", "4", "6"),))
    hand = Hand(sides=(side, SideHand(**QUIET)), went_out=None)
    with pytest.raises(RuleError) as refused:
        validate_hand(CLASSIC_PROFILE, hand, 2)
    assert refused.value.field == "sides[0].sequences"
    assert "sequences" not in field_names(CLASSIC)


def test_the_hand_schema_names_samba_s_fields() -> None:
    names = [field.name for field in side_fields(SAMBA)]
    # The API's names of every family after Classic: one object of canastas by kind.
    assert {"canastas.natural", "canastas.mixed", "canastas.samba", "red_threes"} <= set(names)
    assert "sequences" in names and "black_threes_in_hand" not in names
    kinds = [field.canasta for field in side_fields(SAMBA) if field.canasta]
    assert kinds == ["natural", "mixed", "samba"]
    typed = SideHand(meld_points=120, natural_canastas=1, samba_canastas=1, family=SAMBA)
    written = side_values(typed, SAMBA)
    assert written["canastas"] == {"natural": 1, "mixed": 0, "samba": 1}
    assert "samba_canastas" not in written and side_hand(written, SAMBA) == typed


def test_a_samba_side_reads_back_as_written() -> None:
    side = SideHand(
        melds=(meld("K", 7), meld("Q", 4, twos=1)),
        sequences=(run("hearts", "4", "10"), run("clubs", "J", "A")),
        red_threes=1,
        hand_points=25,
        family=SAMBA,
    )
    values = side_values(side, SAMBA)
    assert values["sequences"][0] == {"suit": "hearts", "first": "4", "last": "10"}
    assert side_hand(values, SAMBA) == side
    assert (side.samba_canastas, side.natural_canastas, side.mixed_canastas) == (1, 1, 0)


def test_sequences_alone_are_melds_given_meld_by_meld() -> None:
    side = SideHand(sequences=(run("hearts", "4", "10"),), family=SAMBA)
    assert side.melds == () and side.samba_canastas == 1
    assert side.melded(PROFILE) == 50


def test_choosable() -> None:
    # The API, the store and the pages accept the families in FAMILIES (issue 32), in the
    # order the new-game form offers them.
    assert FAMILIES["samba"] is SAMBA is get_family("samba")
    assert list(FAMILIES) == ["classic", "modern-american", "samba", "bolivia"]
    assert tuple(FAMILIES.values()) == ALL_FAMILIES
    with pytest.raises(RuleError) as refused:
        get_family("bridge")
    assert refused.value.field == "family"


def test_a_game_of_samba_plays_to_10_000() -> None:
    # Four hands of two sambas, a natural canasta, all six red threes and going out:
    # 55 + 65 + 70 + 3 000 + 500 + 1 000 + 200 = 4 890 a hand; the other side -30 each.
    table = make_table(PROFILE, (Side("us", ("a", "c")), Side("them", ("b", "d"))))
    big = SideHand(
        melds=(meld("K", 7),),
        sequences=(run("hearts", "5", "J"), run("spades", "7", "K")),
        red_threes=6,
        family=SAMBA,
    )
    hand = Hand(sides=(big, SideHand(hand_points=30, family=SAMBA)), went_out=0)
    state = play(table, [hand, hand])
    assert state.totals == (9780, -60) and state.winner is None
    # The minimum of 7 000 and more: 150.
    assert state.minimums == (150, 15)
    state = play(table, [hand, hand, hand])
    assert state.totals == (3 * 4890, -90) and state.winner == 0


def test_an_opening_counts_its_sequences_beside_its_groups() -> None:
    # Three kings (30) and hearts 4 to 6 (15): 45 of Samba's 50 at 0.
    check = check_opening(50, [meld("K", 3)], family=SAMBA, sequences=[run("hearts", "4", "6")])
    assert (check.points, check.short, check.problems) == (45, 5, ())
    assert (check.sequence_points, check.sequences_counted) == ((15,), (True,))
    # A wild card in a sequence: refused at its field, its cards not counted.
    wild = run("hearts", "4", "6", jokers=1)
    clubs = run("clubs", "8", "A")  # 8 to king 10 each, the ace 20: 80
    check = check_opening(50, [meld("K", 3)], family=SAMBA, sequences=[clubs, wild])
    assert check.points == 30 + 80
    assert check.sequences_counted == (True, False)
    assert [(p.field, p.code, p.meld, p.sequence) for p in check.problems] == [
        ("sequences[1].jokers", "sequence-wild", None, 1)
    ]
    # Classic has none: the same sequence is refused there.
    classic = check_opening(50, [], sequences=[run("hearts", "4", "6")])
    assert [p.code for p in classic.problems] == ["no-sequences"] and classic.points == 0


def test_the_minimum_table_s_7000_row() -> None:
    assert [PROFILE.opening_minimum(total) for total in (-5, 0, 1500, 6995, 7000, 9995)] == [
        15, 50, 90, 120, 150, 150
    ]  # fmt: skip
    house = with_house_rules(PROFILE, SAMBA.house_preset("bicycle_minimums"))
    assert (house.opening_minimum(6995), house.opening_minimum(7000)) == (120, 160)
    bolivia = profile_of(BOLIVIA, BOLIVIA.seatings[0])
    assert (bolivia.opening_minimum(7000), bolivia.opening_minimum(14995)) == (150, 150)
