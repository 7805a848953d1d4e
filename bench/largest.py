"""The largest game the limits allow, as an export: six players alone (the most sides a game
seats) playing hands that hold all a hand can, and a full record of corrections.

Each hand: every meld rank by rank the three packs allow (four sides meld three naturals of
a rank, and two ranks are melded by all six with a wild card each: 50 melds), the side that
goes out its black threes too, the others' cards left in hand counted by group, each side's
red three, and each side's adjustment noted in 60 emoji (a note's longest, each written
\\ud83d\\ude00 in JSON). The hands score nothing in total (every adjustment is -5 000 and
the melds are few points), so a game of 1 000 of them is still in play.
"""

from __future__ import annotations

from typing import Any

from scorer.core.meld import RANKS

SIDES = 6
NOTE = "\U0001f600" * 60  # 60 characters, 12 bytes each once escaped
PLAYERS = [f"Player {letter}" for letter in "ABCDEF"]
SHARED_RANKS = RANKS[:3]  # melded by all six sides, two naturals and a wild card each


def _melds(side: int) -> list[dict[str, Any]]:
    melds = []
    for r, rank in enumerate(RANKS):
        if rank in SHARED_RANKS:
            wild = {"jokers": 1} if side < 6 and r == 0 else {"twos": 1}
            melds.append({"rank": rank, "naturals": 2, **wild})
        elif (r + side) % SIDES < 4:
            melds.append({"rank": rank, "naturals": 3})
    return melds


def largest_hand() -> dict[str, Any]:
    """A hand as the API takes it, as large as a six-sided hand can legally be."""
    sides = []
    for side in range(SIDES):
        values: dict[str, Any] = {
            "melds": _melds(side),
            "red_threes": 1,
            "adjustment": -5000,
            "adjustment_note": NOTE,
        }
        if side:
            values["hand_cards"] = {"jokers": 0, "twenty": 0, "ten": 0, "five": 1}  # a black three
        sides.append(values)
    return {"went_out": None, "concealed": False, "sides": sides, "confirm": ["opening_minimum"]}


def largest_game(hands: int, corrections: int = 0) -> dict[str, Any]:
    """An exported six-player game of `hands` largest hands and `corrections` entries of its
    record (each correcting hand 1 to itself)."""
    hand = largest_hand()
    del hand["confirm"]
    recorded = {
        **hand,
        "sides": [{**side, "score": {"total": -5000}} for side in hand["sides"]],
    }
    entry = {
        "hand": 1,
        "kind": "correction",
        "before": recorded,
        "after": recorded,
        "at": "2026-12-02T20:30:00+00:00",
        "screen": "after_end",
    }
    return {
        "format": "scorer-game",
        "format_version": 1,
        "name": "Six at the long table",
        "profile": "six-player",
        "target": 20000,
        "sides": [{"players": [player]} for player in PLAYERS],
        "hands": [hand] * hands,
        **({"corrections": [entry] * corrections} if corrections else {}),
    }
