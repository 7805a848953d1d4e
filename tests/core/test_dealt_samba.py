"""Hands of Samba and Bolivia dealt from three shuffled packs (tests/deal_samba.py) against
the engine: every hand a table can lay down is accepted and scored as its cards say, typed
as points, counted by value group and given meld by meld (zero false refusals).
``SCORER_DEALS=3000`` deals thousands; a few run unmarked, the long run is ``slow``."""

from __future__ import annotations

import os
import random
from collections import Counter
from dataclasses import replace
from typing import Any

import pytest
from deal_samba import BOLIVIA_BOOK, FORMS, SAMBA_BOOK, expected_scores, play_hand

from scorer.core.errors import RuleError
from scorer.core.families import BOLIVIA, SAMBA, RuleFamily
from scorer.core.hand_schema import side_hand, side_values
from scorer.core.hands import Hand, score_hand, validate_hand
from scorer.core.meld import PlannedSequence
from scorer.core.rules import RuleProfile, profile_of

BOOKS = {"samba": (SAMBA_BOOK, SAMBA), "bolivia": (BOLIVIA_BOOK, BOLIVIA)}
DEALS = int(os.environ.get("SCORER_DEALS", "0")) or 300


def deal_and_check(name: str, seeds: range) -> Counter[str]:
    """Deal a hand for each seed, enter it every way; what the hands held, counted."""
    book, family = BOOKS[name]
    profile = profile_of(family, family.seatings[0])
    seen: Counter[str] = Counter()
    for seed in seeds:
        end = play_hand(book, random.Random(seed))
        expected = expected_scores(end)
        for form, make in FORMS.items():
            hand = make(end, family)
            validate_hand(profile, hand, 2)  # never refused
            found = tuple(score.total for score in score_hand(profile, hand))
            assert found == expected, (seed, form)
            # Stored and read back as the API, the store and the export write it.
            assert all(side_hand(side_values(s, family), family) == s for s in hand.sides)
        seen["hands"] += 1
        seen["went out" if end.went_out is not None else "stock ran out"] += 1
        for laid in end.laid:
            made = laid.canastas()
            seen["sequences"] += len(laid.sequences)
            seen[book.sequence_kind] += made["sequence"]
            seen["wild melds"] += len(laid.wild_melds)
            seen["bolivias"] += made["wild"]
            seen["black threes melded"] += bool(laid.black_threes)
    return seen


@pytest.mark.parametrize("name", sorted(BOOKS))
def test_a_few_dealt_hands_are_accepted_every_way(name: str) -> None:
    seen = deal_and_check(name, range(10))
    assert seen["hands"] == 10


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(BOOKS))
def test_every_dealt_hand_is_accepted_every_way(name: str) -> None:
    seen = deal_and_check(name, range(1000, 1000 + DEALS))
    print(name, dict(seen))
    # The deals reach what the rule book scores: hands gone out, sambas or escaleras,
    # shorter sequences, and in Bolivia melds of wild cards.
    assert seen["went out"] and seen["stock ran out"]
    assert seen[BOOKS[name][0].sequence_kind] and seen["sequences"]
    if name == "bolivia":
        assert seen["wild melds"] and seen["bolivias"]


def _sides(hand: Hand, family: RuleFamily, index: int, **changes: Any) -> Hand:
    """The hand with one side's fields changed, read again through the hand schema
    (dataclasses.replace would build the side again without its family)."""
    sides = list(hand.sides)
    sides[index] = side_hand({**side_values(sides[index], family), **changes}, family)
    return replace(hand, sides=tuple(sides))


def _refused_at(profile: RuleProfile, hand: Hand) -> str | None:
    with pytest.raises(RuleError) as refused:
        validate_hand(profile, hand, 2)
    return refused.value.field


@pytest.mark.parametrize("name", sorted(BOOKS))
def test_dealt_hands_made_impossible_are_refused_where_typed(name: str) -> None:
    """A wild card in a sequence, an eighth card on a samba/escalera, a seventh red three:
    each dealt hand, changed so, is refused at the field that was changed."""
    book, family = BOOKS[name]
    profile = profile_of(family, family.seatings[0])
    tried: Counter[str] = Counter()
    for seed in range(20):
        end = play_hand(book, random.Random(seed))
        hand = FORMS["meld by meld"](end, family)
        for i, side in enumerate(hand.sides):
            if side.sequences:
                wild = list(side.sequences)
                wild[0] = replace_sequence(wild[0], jokers=1)
                changed = _sides(hand, family, i, sequences=tuple(wild))
                assert _refused_at(profile, changed) == f"sides[{i}].sequences[0].jokers"
                tried["wild card"] += 1
            for j, sequence in enumerate(side.sequences):
                if sequence.canasta(family):
                    longer = list(side.sequences)
                    longer[j] = eighth_card(sequence)
                    changed = _sides(hand, family, i, sequences=tuple(longer))
                    field = _refused_at(profile, changed)
                    assert field.startswith(f"sides[{i}].sequences[{j}].")
                    tried["eighth card"] += 1
                    break
        extra = 7 - sum(side.red_threes for side in hand.sides)
        changed = _sides(hand, family, 1, red_threes=hand.sides[1].red_threes + extra)
        assert _refused_at(profile, changed) == "sides[1].red_threes"
        tried["red threes"] += 1
    assert tried["wild card"] and tried["eighth card"] and tried["red threes"] == 20


def replace_sequence(sequence: PlannedSequence, **changes: Any) -> PlannedSequence:
    return replace(sequence, **changes)


def eighth_card(sequence: PlannedSequence) -> PlannedSequence:
    """The same sequence one card longer: up when it can, else down (to a three)."""
    ranks = ("3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
    if sequence.last != "A":
        return replace_sequence(sequence, last=ranks[ranks.index(sequence.last) + 1])
    return replace_sequence(sequence, first=ranks[ranks.index(sequence.first) - 1])
