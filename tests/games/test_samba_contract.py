"""Samba's and Bolivia's hands in the API's words (issue 32), read by the API's contract
(scorer.web.api_contract) and judged by the engine: canastas by kind in one object, red
threes, Bolivia's black threes in hand, sequences by suit, first and last rank; what is
malformed refused with 400 at its field, what no table can lay down with 422 at its field.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from deal_samba import (
    BOLIVIA_BOOK,
    JSON_FORMS,
    SAMBA_BOOK,
    expected_scores,
    json_hand,
    play_hand,
)

from scorer.core.errors import RuleError
from scorer.core.families import BOLIVIA, CLASSIC, SAMBA, RuleFamily
from scorer.core.hand_schema import side_values
from scorer.core.hands import score_hand, validate_hand
from scorer.core.meld import PlannedSequence
from scorer.core.rules import RuleProfile, profile_of
from scorer.web.api_contract import PayloadError, parse_hand

FAMILIES = {"samba": (SAMBA_BOOK, SAMBA), "bolivia": (BOLIVIA_BOOK, BOLIVIA)}
# The other side: a group of kings and one of queens (70), 30 left in hand.
QUIET: dict[str, Any] = {"meld_points": 70, "hand_points": 30}


def book(family: RuleFamily) -> RuleProfile:
    return profile_of(family, family.seatings[0])


def body(us: dict[str, Any], them: dict[str, Any] = QUIET, went_out: int | None = None) -> dict:
    return {"went_out": went_out, "sides": [us, them]}


def refused(family: RuleFamily, sent: dict) -> tuple[str, str | None, str]:
    """("400" or "422", the field, the reason) of a body the API refuses."""
    try:
        validate_hand(book(family), parse_hand(sent, family), 2)
    except PayloadError as error:
        return "400", error.field, str(error)
    except RuleError as error:
        return "422", error.field, str(error)
    raise AssertionError("accepted")


SAMBA_OF_HEARTS = {"suit": "hearts", "first": "4", "last": "10"}  # 4 x 5 + 3 x 10 = 50


def test_samba_names_its_canastas_in_one_object() -> None:
    # The rule book's worked example: a samba of hearts (50 + 1 500), seven kings (70 + 500),
    # two red threes (200), going out (200), 15 left in hand: 2 505.
    us = {
        "meld_points": 120,
        "canastas": {"natural": 1, "mixed": 0, "samba": 1},
        "red_threes": 2,
        "hand_points": 15,
    }
    hand = parse_hand(body(us, went_out=0), SAMBA)
    validate_hand(book(SAMBA), hand, 2)
    assert score_hand(book(SAMBA), hand)[0].total == 2505
    assert side_values(hand.sides[0], SAMBA)["canastas"] == us["canastas"]


def test_sequences_are_sent_by_suit_first_and_last_rank() -> None:
    us = {
        "melds": [{"rank": "K", "naturals": 7}],
        "sequences": [{"suit": " Hearts", "first": 4, "last": "10"}],
        "red_threes": 2,
        "hand_points": 15,
    }
    hand = parse_hand(body(us, went_out=0), SAMBA)
    assert hand.sides[0].sequences == (PlannedSequence("hearts", "4", "10"),)
    validate_hand(book(SAMBA), hand, 2)
    assert score_hand(book(SAMBA), hand)[0].total == 2505
    # Read back as the API writes it, and sent back as it is.
    written = side_values(hand.sides[0], SAMBA)
    assert written["sequences"] == [SAMBA_OF_HEARTS]
    again = parse_hand(body(written, went_out=0), SAMBA)
    assert again.sides[0] == hand.sides[0]


def test_a_bolivia_side_counts_black_threes_in_hand_apart() -> None:
    # The rule book's worked example: an escalera of spades 8 to ace (80 + 1 500), a bolivia
    # of three jokers and four twos (230 + 2 500), all six red threes (1 000), going out
    # (200), the partner holding two black threes (-200) and 25 in other cards: 5 285.
    us = {
        "melds": [{"rank": "wild", "naturals": 0, "jokers": 3, "twos": 4}],
        "sequences": [{"suit": "spades", "first": "8", "last": "A"}],
        "red_threes": 6,
        "black_threes_in_hand": 2,
        "hand_points": 25,
    }
    hand = parse_hand(body(us, went_out=0), BOLIVIA)
    validate_hand(book(BOLIVIA), hand, 2)
    assert score_hand(book(BOLIVIA), hand)[0].total == 5285
    typed = {
        "meld_points": 310,
        "canastas": {"natural": 0, "mixed": 0, "escalera": 1, "bolivia": 1},
        "red_threes": 6,
        "black_threes_in_hand": 2,
        "hand_points": 25,
    }
    hand = parse_hand(body(typed, went_out=0), BOLIVIA)
    assert score_hand(book(BOLIVIA), hand)[0].total == 5285


@pytest.mark.parametrize("name", sorted(FAMILIES))
@pytest.mark.parametrize("form", JSON_FORMS)
def test_dealt_hands_in_the_apis_words_are_accepted(name: str, form: str) -> None:
    """Hands dealt from three shuffled packs, written as a client writes them: none
    refused, each scored as its cards say."""
    deal, family = FAMILIES[name]
    for seed in range(40):
        end = play_hand(deal, random.Random(seed))
        hand = parse_hand(json_hand(end, form), family)
        validate_hand(book(family), hand, 2)
        scores = tuple(score.total for score in score_hand(book(family), hand))
        assert scores == expected_scores(end), (seed, form)


def seq(**changes: Any) -> dict[str, list[dict[str, Any]]]:
    """Sequences of one: the samba of hearts, with these changes."""
    return {"sequences": [{**SAMBA_OF_HEARTS, **changes}]}


# (family, side 0's call, status, field under sides[0]).
REFUSED = [
    # A kind of canasta the family lacks, at its own field.
    ("samba", {"meld_points": 80, "canastas": {"escalera": 1}}, "422", "canastas.escalera"),
    ("samba", {"meld_points": 80, "canastas": {"sevens": 1}}, "422", "canastas.sevens"),
    ("bolivia", {"meld_points": 80, "canastas": {"samba": 1}}, "422", "canastas.samba"),
    # Classic's own fields are Classic's.
    ("samba", {"meld_points": 80, "samba_canastas": 1}, "400", "samba_canastas"),
    ("samba", {"meld_points": 80, "canastas": 1}, "400", "canastas"),
    ("samba", {"meld_points": 80, "canastas": {"samba": "1"}}, "400", "canastas.samba"),
    # A question the family does not ask.
    ("samba", {"meld_points": 80, "black_threes_in_hand": 1}, "400", "black_threes_in_hand"),
    ("bolivia", {"meld_points": 80, "black_threes_in_hand": "2"}, "400", "black_threes_in_hand"),
    # Sequences: malformed (400), or no sequence a table can lay (422).
    ("samba", {"sequences": SAMBA_OF_HEARTS}, "400", "sequences"),
    ("samba", {"sequences": [3]}, "400", "sequences[0]"),
    ("samba", seq(rank="K"), "400", "sequences[0].rank"),
    ("samba", {**seq(), "meld_points": 50}, "400", "meld_points"),
    ("samba", {**seq(), "canastas": {"samba": 1}}, "400", "canastas.samba"),
    ("samba", seq(jokers=1), "422", "sequences[0].jokers"),
    ("bolivia", seq(twos=1), "422", "sequences[0].twos"),
    ("samba", seq(jokers=9), "422", "sequences[0].jokers"),
    ("samba", seq(last="J"), "422", "sequences[0].last"),
    ("samba", seq(first="3"), "422", "sequences[0].first"),
    ("samba", seq(suit="stars"), "422", "sequences[0].suit"),
    ("samba", seq(suit=4), "422", "sequences[0].suit"),
    ("samba", seq(first="9", last="5"), "422", "sequences[0].last"),
    ("samba", seq(first=None), "422", "sequences[0].first"),
    ("samba", {"sequences": [SAMBA_OF_HEARTS] * 45}, "422", "sequences"),
    # Seven red threes: the three packs hold six.
    ("samba", {"meld_points": 70, "red_threes": 7}, "422", "red_threes"),
    ("bolivia", {"meld_points": 70, "red_threes": 7}, "422", "red_threes"),
]


@pytest.mark.parametrize(("name", "us", "status", "field"), REFUSED)
def test_refused_at_its_field(name: str, us: dict, status: str, field: str) -> None:
    family = FAMILIES[name][1]
    assert refused(family, body(us))[:2] == (status, f"sides[0].{field}")


def test_going_out_in_bolivia_without_an_escalera_is_refused_where_typed() -> None:
    typed = {"meld_points": 140, "canastas": {"natural": 2}}
    assert refused(BOLIVIA, body(typed, went_out=0))[:2] == ("422", "sides[0].canastas.escalera")
    by_meld = {
        "melds": [{"rank": "K", "naturals": 7}, {"rank": "Q", "naturals": 7}],
        "sequences": [{"suit": "clubs", "first": "4", "last": "6"}],
    }
    status, field, reason = refused(BOLIVIA, body(by_meld, went_out=0))
    assert (status, field) == ("422", "sides[0].sequences")
    assert "escalera" in reason
    # In Samba two groups go out.
    validate_hand(book(SAMBA), parse_hand(body(by_meld, went_out=0), SAMBA), 2)


def test_an_eighth_card_on_a_samba_is_refused_at_the_sequence() -> None:
    longer = {"sequences": [{"suit": "hearts", "first": "4", "last": "J"}]}
    status, field, reason = refused(SAMBA, body(longer))
    assert (status, field) == ("422", "sides[0].sequences[0].last")
    assert "at most seven" in reason


def test_a_classic_hand_has_no_sequences() -> None:
    status, field, _reason = refused(CLASSIC, body({"sequences": [SAMBA_OF_HEARTS]}))
    assert (status, field) == ("400", "sides[0].sequences")


def test_bolivia_takes_more_melds_than_one_per_rank() -> None:
    """Every rank, black threes going out and wild melds beside them: more melds than a
    Classic side may send (twelve), none refused by the API's cap."""
    groups = [{"rank": rank, "naturals": 3} for rank in ("4", "5", "6", "7", "8", "9", "10")]
    groups += [{"rank": rank, "naturals": 3} for rank in ("J", "Q", "K", "A")]
    wild = [{"rank": "wild", "naturals": 0, "jokers": 1, "twos": 2}] * 3
    us = {"melds": [*groups, {"rank": "3", "naturals": 3}, *wild], "sequences": []}
    hand = parse_hand(body(us), BOLIVIA)
    assert len(hand.sides[0].melds or ()) == 15
    status, field, _reason = refused(SAMBA, body(us))
    assert (status, field) == ("422", "sides[0].melds")
