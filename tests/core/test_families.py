"""A family of rules as data: a game's profile is a family x a seating, and every number the
engine reads comes from them (docs/rules.md, "Other games of the family")."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from scorer.core.canastas import cheapest_canastas, cheapest_kind, costs_of
from scorer.core.errors import RuleError
from scorer.core.families import CLASSIC, DEFAULT_FAMILY, FAMILIES, CardValues, get_family
from scorer.core.hands import Hand, SideHand, score_hand, validate_hand
from scorer.core.meld import PlannedMeld
from scorer.core.rules import (
    PROFILES,
    effective_rules,
    get_profile,
    house_rule_fields,
    profile_of,
    with_house_rules,
)

SCORER = Path(__file__).resolve().parents[2] / "scorer"


def test_classic_is_the_default_family_and_each_profile_is_one_of_its_seatings() -> None:
    assert get_family(None) is DEFAULT_FAMILY is CLASSIC is FAMILIES["classic"]
    assert list(PROFILES) == [seating.key for seating in CLASSIC.seatings]
    for seating in CLASSIC.seatings:
        profile = PROFILES[seating.key]
        assert profile.family is CLASSIC
        assert (profile.packs, profile.cards_dealt, profile.target) == (
            seating.packs,
            seating.cards_dealt,
            seating.target,
        )
        assert profile.canasta_bonuses == (("natural", 500), ("mixed", 300))
    assert PROFILES["six-player"].red_three_sets == ((5, 1000), (6, 1200))
    assert PROFILES["classic"].red_three_sets == ((4, 800),)


def test_an_unknown_family_or_seating_is_refused_by_name() -> None:
    with pytest.raises(RuleError) as error:
        get_family("bridge")
    assert error.value.field == "family"
    with pytest.raises(RuleError) as error:
        get_profile("seven-player")
    assert error.value.field == "profile"


def test_classic_canastas_cost_what_the_rule_book_says() -> None:
    costs = costs_of(CLASSIC)
    assert [(g.group, g.ranks, g.natural, g.mixed) for g in costs.groups] == [
        ("five", 4, 35, 50),
        ("ten", 6, 70, 80),
        ("twenty", 1, 140, 140),
    ]
    assert costs.meldable_ranks == 11
    assert (cheapest_kind(CLASSIC, "natural"), cheapest_kind(CLASSIC, "mixed")) == (35, 50)
    assert cheapest_canastas(CLASSIC, 5, 0) == 4 * 35 + 70


def test_canasta_costs_derive_from_the_familys_card_values() -> None:
    dearer = replace(CLASSIC, card_values=CardValues(jokers=50, twenty=30, ten=10, five=10))
    costs = costs_of(dearer)
    # The 5 group now worth 10; a mixed canasta: six naturals and the cheapest wild card, a
    # two worth 30.
    assert [(g.natural, g.mixed) for g in costs.groups] == [(70, 90), (70, 90), (210, 210)]
    assert cheapest_canastas(dearer, 1, 0) == 70


def test_the_kinds_of_canasta_are_data_with_their_bonuses() -> None:
    richer = replace(
        CLASSIC, canastas=tuple(replace(kind, bonus=kind.bonus * 2) for kind in CLASSIC.canastas)
    )
    profile = profile_of(richer, richer.seating("classic"))
    side = SideHand(meld_points=200, natural_canastas=1, mixed_canastas=1)
    hand = Hand((side, SideHand(meld_points=60, hand_points=10)), went_out=0)
    validate_hand(profile, hand, 2)
    assert score_hand(profile, hand)[0].canastas == 1000 + 600
    assert effective_rules(profile)["natural_canasta"] == 1000
    assert house_rule_fields(richer)[2:4] == ("natural_canasta", "mixed_canasta")


def test_a_house_rule_changes_one_kind_of_canastas_bonus() -> None:
    profile = with_house_rules(PROFILES["classic"], {"mixed_canasta": 250})
    assert profile.canasta_bonuses == (("natural", 500), ("mixed", 250))
    assert profile.house_rules == ("mixed_canasta",)


def test_a_side_stores_its_canastas_by_kind() -> None:
    side = SideHand(meld_points=300, natural_canastas=2, mixed_canastas=1)
    assert side.canastas == (("mixed", 1), ("natural", 2))
    assert side == SideHand(meld_points=300, canastas={"natural": 2, "mixed": 1})
    assert (side.natural_canastas, side.mixed_canastas, side.canasta_total) == (2, 1, 3)
    assert SideHand(natural_canastas=0) == SideHand()
    melds = (PlannedMeld("K", 7), PlannedMeld("5", 5, 1, 1), PlannedMeld("A", 3))
    assert SideHand(melds=melds, natural_canastas=4).canastas == (("mixed", 1), ("natural", 1))
    with pytest.raises(TypeError):
        SideHand(natural=1)


def test_a_kind_the_family_does_not_have_is_refused_at_its_field() -> None:
    hand = Hand((SideHand(meld_points=200, canastas={"samba": 1}), SideHand()))
    with pytest.raises(RuleError) as error:
        validate_hand(PROFILES["classic"], hand, 2)
    assert error.value.field == "sides[0].samba_canastas"


def test_nothing_outside_the_families_file_names_a_family() -> None:
    """A family is data: no branch on a family's name anywhere else."""
    found = []
    for path in sorted(SCORER.rglob("*.py")):
        if path.name == "families.py":
            continue
        for number, line in enumerate(path.read_text().splitlines(), 1):
            code = line.split("#", 1)[0]
            if "family ==" in code or "family.key ==" in code or "family !=" in code:
                found.append(f"{path.relative_to(SCORER)}:{number}")
    assert found == []
