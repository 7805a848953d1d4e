"""One hand schema: the fields of a side's hand in a family, read and written in one place
(the API, the form, the stored rows and the CSV all go through it)."""

from __future__ import annotations

from dataclasses import replace

from scorer.core.families import CLASSIC, MODERN_AMERICAN, CanastaKind
from scorer.core.hand_schema import (
    boxes_of,
    count_boxes,
    decided_by_melds,
    field_names,
    side_fields,
    side_hand,
    side_values,
    values_from_boxes,
)
from scorer.core.hands import CardCounts, SideHand
from scorer.core.meld import PlannedMeld

# The fields of a Classic side, as the API has always taken them.
CLASSIC_FIELDS = {
    "meld_points",
    "natural_canastas",
    "mixed_canastas",
    "red_threes",
    "hand_points",
    "meld_cards",
    "hand_cards",
    "adjustment",
    "adjustment_note",
    "melds",
}
SIDES = (
    SideHand(),
    SideHand(meld_points=300, natural_canastas=1, red_threes=2, hand_points=15),
    SideHand(
        meld_cards=CardCounts(jokers=1, twenty=2, ten=6, five=2),
        mixed_canastas=1,
        hand_cards=CardCounts(five=3),
        adjustment=-50,
        adjustment_note="pile taken",
    ),
    SideHand(melds=(PlannedMeld("K", 7), PlannedMeld("5", 4, 1, 2)), hand_points=10),
)


def test_classic_sides_have_the_fields_the_api_always_took() -> None:
    assert field_names(CLASSIC) == CLASSIC_FIELDS
    assert decided_by_melds(CLASSIC) == (
        "meld_points",
        "natural_canastas",
        "mixed_canastas",
        "meld_cards",
    )


def test_a_side_reads_back_what_it_wrote() -> None:
    for side in SIDES:
        written = side_values(side, CLASSIC)
        assert side_hand(written, CLASSIC) == side
    assert side_values(SIDES[1], CLASSIC) == {
        "meld_points": 300,
        "natural_canastas": 1,
        "mixed_canastas": 0,
        "red_threes": 2,
        "hand_points": 15,
    }


def test_a_family_with_another_kind_of_canasta_has_its_field() -> None:
    samba = CanastaKind("samba", bonus=1500, fewest_wild=0, most_wild=0)
    family = replace(CLASSIC, key="test-samba", canastas=(*CLASSIC.canastas, samba))
    names = [field.name for field in side_fields(family)]
    assert names[1:4] == ["natural_canastas", "mixed_canastas", "samba_canastas"]
    side = side_hand({"meld_points": 400, "samba_canastas": 1}, family)
    assert side.canastas == (("samba", 1),)
    assert side_values(side, family)["samba_canastas"] == 1
    assert "samba_canastas" not in side_values(side, CLASSIC)


def test_a_form_column_reads_and_shows_a_side_through_the_schema() -> None:
    assert [box.name for box in count_boxes(CLASSIC)] == [
        "natural_canastas",
        "mixed_canastas",
        "red_threes",
    ]
    names = [box.name for box in count_boxes(MODERN_AMERICAN)]
    assert names[:3] == ["canastas_natural", "canastas_mixed", "canastas_sevens"]
    assert {"black_threes", "unfinished_sevens", "players_holding_aces"} <= set(names)
    typed = {"canastas_sevens": 1, "unfinished_aces": 1, "players_holding_sevens": 2}
    values = values_from_boxes(MODERN_AMERICAN, typed.get)
    side = side_hand({**values, "meld_points": 200}, MODERN_AMERICAN)
    assert side == SideHand(
        meld_points=200,
        canastas={"sevens": 1},
        unfinished={"aces": 1},
        players_holding={"sevens": 2},
    )
    shown = boxes_of(side, MODERN_AMERICAN)
    assert {name: n for name, n in shown.items() if n} == typed
    chosen = values_from_boxes(MODERN_AMERICAN, {"special_hand": "pairs"}.get)
    special = side_hand(chosen, MODERN_AMERICAN)
    assert special.special_hand == "pairs"
