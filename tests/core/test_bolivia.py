"""Bolivia's pure core (docs/rules.md, "Bolivia"; issue 32): Samba with melds of wild cards
(seven: a bolivia), the escalera going out needs, black threes costly in hand, a target of
15 000. Every total below is added up by hand from the rule book, in its comment."""

from __future__ import annotations

import pytest
from three_packs import QUIET, assert_refused, book_profile, meld, two_sides

from scorer.core.canastas import counted_melds_problem
from scorer.core.families import (
    ALL_FAMILIES,
    BOLIVIA,
    CLASSIC,
    FAMILIES,
    MODERN_AMERICAN,
    SAMBA,
    get_family,
)
from scorer.core.hand_schema import side_fields, side_hand, side_values
from scorer.core.hands import CardCounts, SideHand, score_parts
from scorer.core.meld import PlannedMeld, PlannedSequence

PROFILE = book_profile(BOLIVIA)
# An escalera of spades 8 to ace: six cards worth 10 and the ace, 80.
ESCALERA = PlannedSequence(suit="spades", first="8", last="A")


def wild(jokers: int, twos: int) -> PlannedMeld:
    return meld("wild", 0, jokers=jokers, twos=twos)


TOTALS = [
    pytest.param(
        # An escalera (80) + 1 500, a bolivia of three jokers and four twos (150 + 80 = 230)
        # + 2 500, all six red threes 1 000, went out 200, the partner holds two black threes
        # (-200) and 25 in other cards: 80 + 1 500 + 230 + 2 500 + 1 000 + 200 - 200 - 25
        # = 5 285.
        dict(
            melds=(wild(3, 4),),
            sequences=(ESCALERA,),
            red_threes=6,
            black_threes_in_hand=2,
            hand_points=25,
        ),
        True,
        5285,
        id="escalera-and-bolivia-went-out",
    ),
    pytest.param(
        # The same typed: 310 melded, an escalera, a bolivia.
        dict(
            meld_points=310,
            escalera_canastas=1,
            bolivia_canastas=1,
            red_threes=6,
            black_threes_in_hand=2,
            hand_points=25,
        ),
        True,
        5285,
        id="escalera-and-bolivia-typed",
    ),
    pytest.param(
        # An escalera and seven kings go out: 80 + 1 500 + 70 + 500 + 200 = 2 350.
        dict(melds=(meld("K", 7),), sequences=(ESCALERA,)),
        True,
        2350,
        id="escalera-and-kings-went-out",
    ),
    pytest.param(
        # A meld of wild cards short of seven is a meld, no canasta: two jokers and a two
        # (120), with seven kings (70 + 500); one canasta only, so a red three counts
        # against (-100); three black threes held (-300) and 10 in hand:
        # 120 + 70 + 500 - 100 - 300 - 10 = 280.
        dict(
            melds=(wild(2, 1), meld("K", 7)),
            red_threes=1,
            black_threes_in_hand=3,
            hand_points=10,
        ),
        False,
        280,
        id="short-wild-meld-and-black-threes",
    ),
    pytest.param(
        # Two melds of wild cards, both bolivias: four jokers and three twos (200 + 60) and
        # two jokers and five twos (100 + 100): 260 + 200 + 2 x 2 500 = 5 460.
        dict(melds=(wild(4, 3), wild(2, 5))),
        False,
        5460,
        id="two-bolivias",
    ),
    pytest.param(
        # Black threes melded by the side going out count 5 each: three of them (15), an
        # escalera and a natural canasta of tens: 15 + 80 + 1 500 + 70 + 500 + 200 = 2 365.
        dict(melds=(meld("3", 3), meld("10", 7)), sequences=(ESCALERA,)),
        True,
        2365,
        id="black-threes-melded-going-out",
    ),
]


@pytest.mark.parametrize(("side", "went_out", "total"), TOTALS)
def test_a_side_scores_as_the_rule_book_adds_it(side: dict, went_out: bool, total: int) -> None:
    ours, _theirs = two_sides(PROFILE, side, went_out=0 if went_out else None)
    assert ours.total == total
    # The parts the API, the board and the preview show add up to it (black threes in hand too).
    assert sum(getattr(ours, part) for part in score_parts(BOLIVIA)) == total


def test_black_threes_in_hand_are_apart_from_the_other_cards() -> None:
    # The stock ran out: 70 melded, two black threes held -200, 30 other points: -160.
    ours, _ = two_sides(PROFILE, {"meld_points": 70, "black_threes_in_hand": 2, "hand_points": 30})
    assert (ours.hand, ours.penalties, ours.total) == (-30, -200, 70 - 200 - 30)


def test_the_table_and_the_numbers() -> None:
    (seating,) = BOLIVIA.seatings
    assert (seating.players, seating.packs, seating.cards_dealt) == (4, 3, 15)
    assert (seating.target, seating.canastas_to_go_out) == (15000, 2)
    assert BOLIVIA.going_out_needs == ("escalera",)
    kinds = ("natural", "mixed", "escalera", "bolivia")
    assert [PROFILE.canasta_bonus(k) for k in kinds] == [500, 300, 1500, 2500]
    assert [PROFILE.opening_minimum(t) for t in (-5, 0, 1500, 3000, 7000, 14000)] == [
        15,
        50,
        90,
        120,
        150,
        150,
    ]
    assert PROFILE.all_red_threes() == 1000


@pytest.mark.parametrize(
    ("melded", "kind"),
    [
        (wild(3, 4), "bolivia"),
        (wild(6, 1), "bolivia"),
        (wild(0, 7), "bolivia"),
        (wild(2, 2), None),
        (meld("K", 5, jokers=1, twos=1), "mixed"),
    ],
)
def test_a_meld_of_wild_cards_is_a_bolivia_at_seven(melded: PlannedMeld, kind: str) -> None:
    assert melded.canasta(BOLIVIA) == kind
    assert wild(3, 4).canasta(SAMBA) is None


@pytest.mark.parametrize(
    ("counts", "canastas", "problem"),
    [
        # A bolivia counted: three jokers, four twos.
        (CardCounts(jokers=3, twenty=4), {"bolivia": 1}, None),
        # Three jokers alone are a meld in Bolivia.
        (CardCounts(jokers=3), {}, None),
        # Seven cards, six of them wild: no bolivia.
        (CardCounts(jokers=2, twenty=4, ten=1), {"bolivia": 1}, "wild"),
        # An escalera 8 to ace and a bolivia of seven twos: six 10s, an ace and seven twos.
        (CardCounts(ten=6, twenty=8), {"escalera": 1, "bolivia": 1}, None),
    ],
)
def test_counted_cards_know_wild_melds(
    counts: CardCounts, canastas: dict[str, int], problem: str | None
) -> None:
    found = counted_melds_problem(
        BOLIVIA,
        counts,
        0,
        0,
        packs=3,
        sequences=canastas.get("escalera", 0),
        wild_melds=canastas.get("bolivia", 0),
    )
    assert found == problem


REFUSED = [
    pytest.param(
        dict(meld_points=140, natural_canastas=2),
        QUIET,
        0,
        "sides[0].canastas.escalera",
        "takes an escalera",
        id="going-out-without-an-escalera-typed",
    ),
    pytest.param(
        dict(melds=(meld("K", 7), wild(3, 4))),
        QUIET,
        0,
        "sides[0].sequences",
        "takes an escalera",
        id="going-out-without-an-escalera-meld-by-meld",
    ),
    pytest.param(
        dict(melds=(wild(4, 4),)),
        QUIET,
        None,
        "sides[0].melds[0].jokers",
        "at most seven cards",
        id="an-eighth-wild-card-on-a-bolivia",
    ),
    pytest.param(
        dict(melds=(meld("wild", 1, jokers=3),)),
        QUIET,
        None,
        "sides[0].melds[0].naturals",
        "no natural card",
        id="a-natural-card-in-a-wild-meld",
    ),
    pytest.param(
        dict(melds=(wild(1, 1),)),
        QUIET,
        None,
        "sides[0].melds[0].jokers",
        "at least three cards",
        id="two-wild-cards",
    ),
    pytest.param(
        dict(sequences=(PlannedSequence(suit="hearts", first="4", last="J"),)),
        QUIET,
        None,
        "sides[0].sequences[0].last",
        "at most seven cards",
        id="an-eighth-card-on-an-escalera",
    ),
    pytest.param(
        dict(meld_points=70, black_threes_in_hand=4),
        dict(meld_points=70, black_threes_in_hand=3),
        None,
        "sides[1].black_threes_in_hand",
        "at most 6 black threes",
        id="seven-black-threes-held",
    ),
    pytest.param(
        # Four black threes melded going out, three more held over there.
        dict(melds=(meld("3", 4), meld("K", 7)), sequences=(ESCALERA,)),
        dict(meld_points=70, black_threes_in_hand=3),
        0,
        "sides[1].black_threes_in_hand",
        "at most 6 black threes",
        id="seven-black-threes-melded-and-held",
    ),
    pytest.param(
        dict(meld_points=3 * 140, bolivia_canastas=3),
        QUIET,
        None,
        "sides[0].canastas.bolivia",
        "at most 2",
        id="three-bolivias-from-eighteen-wild-cards",
    ),
    pytest.param(
        dict(meld_points=100, bolivia_canastas=1),
        QUIET,
        None,
        "sides[0].meld_points",
        "at least 140 points",
        id="bolivia-below-seven-twos",
    ),
    pytest.param(
        dict(meld_points=80, samba_canastas=1),
        QUIET,
        None,
        "sides[0].canastas.samba",
        "not a kind of canasta",
        id="a-samba-is-samba-s",
    ),
    pytest.param(
        dict(meld_points=40, red_threes=7),
        QUIET,
        None,
        "sides[0].red_threes",
        "at most 6 red threes",
        id="seven-red-threes",
    ),
]


@pytest.mark.parametrize(("us", "them", "went_out", "field", "reason"), REFUSED)
def test_refused_at_its_field(us: dict, them: dict, went_out: int | None, field: str, reason: str):
    assert_refused(PROFILE, us, them, went_out, field, reason)


def test_the_hand_schema_names_bolivia_s_fields() -> None:
    kinds = [field.canasta for field in side_fields(BOLIVIA) if field.canasta]
    assert kinds == ["natural", "mixed", "escalera", "bolivia"]
    names = {field.name for field in side_fields(BOLIVIA)}
    assert {"red_threes", "black_threes_in_hand", "hand_points", "sequences"} <= names


def test_a_bolivia_side_reads_back_as_written() -> None:
    side = SideHand(
        melds=(wild(3, 4), meld("K", 3)),
        sequences=(ESCALERA,),
        red_threes=2,
        black_threes_in_hand=1,
        hand_points=15,
        family=BOLIVIA,
    )
    values = side_values(side, BOLIVIA)
    assert values["black_threes_in_hand"] == 1
    assert side_hand(values, BOLIVIA) == side
    assert (side.escalera_canastas, side.bolivia_canastas) == (1, 1)


def test_choosable() -> None:
    assert FAMILIES["bolivia"] is BOLIVIA is get_family("bolivia")


def test_a_side_may_meld_every_rank_and_its_wild_cards_beside() -> None:
    # Eleven groups of three (4 to ace), three black threes going out, and three melds of
    # wild cards (a bolivia and two of three cards: 7 + 3 + 3 = 13 of the 18): 15 melds,
    # more than Classic's twelve (one per rank), and an escalera to go out.
    groups = tuple(
        meld(rank, 3) for rank in ("4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
    )
    side = dict(
        melds=(*groups, meld("3", 3), wild(3, 4), wild(0, 3), wild(0, 3)),
        sequences=(ESCALERA,),
    )
    ours, _ = two_sides(PROFILE, side, went_out=0)
    # Groups: 4 x 15 + 6 x 30 + 60 = 300; threes 15; wild 230 + 60 + 60; escalera 80.
    cards = 300 + 15 + 230 + 60 + 60 + 80
    assert ours.total == cards + 2500 + 1500 + 200


def test_no_two_families_share_a_seating_s_key() -> None:
    # A game's variant ("profile") names its family too, once every family is choosable.
    keys = [seating.key for family in ALL_FAMILIES for seating in family.seatings]
    assert len(keys) == len(set(keys))
    assert (SAMBA.seatings[0].key, BOLIVIA.seatings[0].key) == ("samba", "bolivia")


def test_black_threes_in_hand_are_among_the_penalties_the_family_takes() -> None:
    """The rules page and the blank sheet list what a family takes at the end of a hand: in
    Bolivia, 100 for each black three left in hand."""
    assert BOLIVIA.penalties_taken == (("black_threes_in_hand", 100),)
    assert SAMBA.penalties_taken == () and CLASSIC.penalties_taken == ()
    assert MODERN_AMERICAN.penalties_taken == MODERN_AMERICAN.penalties
