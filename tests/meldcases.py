"""One table of opening-meld cases, run through the form, the script and the JSON endpoint.

Each case: the minimum, the rows typed (rank, naturals, jokers, twos), the options ticked,
then what every way of asking must answer: the English verdict and the reasons, row by row.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

Row = tuple[str, str, str, str]

# The sections of the rules of play (/rules/play), which the checker and the form link to.
ANCHORS = (
    "deal",
    "turn",
    "discard-pile",
    "wild-cards",
    "red-threes",
    "black-threes",
    "canastas",
    "going-out",
    "end-of-hand",
    "scoring",
    "minimums",
    "variants",
)


@dataclass(frozen=True)
class Case:
    name: str
    minimum: int
    rows: tuple[Row, ...]
    verdict: str
    reasons: dict[int, tuple[str, ...]] = field(default_factory=dict)
    going_out: bool = False
    wild_rule: bool = False
    discard_top: str | None = None
    top_reason: str | None = None

    def form(self) -> dict[str, str]:
        """The plain form as a browser without JavaScript sends it."""
        data = {"minimum": str(self.minimum)}
        for i, (rank, naturals, jokers, twos) in enumerate(self.rows):
            data |= {f"rank-{i}": rank, f"naturals-{i}": naturals}
            data |= {f"jokers-{i}": jokers, f"twos-{i}": twos}
        if self.going_out:
            data["going_out"] = "1"
        if self.wild_rule:
            data["wild_rule"] = "1"
        if self.discard_top:
            data["discard_top"] = self.discard_top
        return data

    def json(self) -> dict[str, Any]:
        """The same question for the endpoint."""
        body: dict[str, Any] = {
            "minimum": self.minimum,
            "melds": [
                {"rank": r, "naturals": int(n or 0), "jokers": int(j or 0), "twos": int(t or 0)}
                for r, n, j, t in self.rows
            ],
            "going_out": self.going_out,
        }
        if self.wild_rule:
            body["house_rules"] = {"wild_never_outnumber_naturals": True}
        if self.discard_top:
            body["discard_top"] = self.discard_top
        return body


EIGHTY_FIVE: tuple[Row, ...] = (("K", "3", "", "1"), ("7", "3", "", ""), ("4", "4", "0", ""))
TOO_FEW_NATURALS = "a meld needs at least two natural cards"

CASES = (
    Case("85 of 90", 90, EIGHTY_FIVE, "85 of 90: 5 short"),
    Case("90 of 90", 90, (("A", "3", "", ""), ("K", "3", "", "")), "90: you can open"),
    Case("a negative total's 15", 15, (("4", "3", "", ""),), "15: you can open"),
    Case(
        "two fours against 15",
        15,
        (("4", "2", "", ""),),
        "0 of 15: 15 short",
        {0: ("a meld needs at least three cards",)},
    ),
    Case(
        "one natural",
        90,
        (*EIGHTY_FIVE, ("Q", "1", "1", "1")),
        "85 of 90: 5 short",
        {3: (TOO_FEW_NATURALS,)},
    ),
    Case(
        "two cards",
        50,
        (("A", "2", "", ""), ("K", "3", "1", "")),
        "80: you can open",
        {0: ("a meld needs at least three cards",)},
    ),
    Case(
        "four wild cards",
        50,
        (("K", "3", "2", "2"),),
        "0 of 50: 50 short",
        {0: ("a meld holds at most three wild cards",)},
    ),
    Case(
        "wild cards outnumber, house rule",
        50,
        (("K", "2", "2", "1"),),
        "0 of 50: 50 short",
        {0: ("house rule: wild cards may not outnumber natural cards",)},
        wild_rule=True,
    ),
    Case("wild cards outnumber, classic", 50, (("K", "2", "2", "1"),), "140: you can open"),
    Case(
        "red threes",
        50,
        (("A", "3", "", ""), ("red-3", "3", "", "")),
        "60: you can open",
        {1: ("red threes are never melded: each one is laid down alone, as a bonus",)},
    ),
    Case(
        "black threes, staying in",
        50,
        (("A", "3", "", ""), ("3", "3", "", "")),
        "60: you can open",
        {1: ("black threes are melded only by the player going out",)},
    ),
    Case(
        "black threes, going out",
        50,
        (("A", "3", "", ""), ("3", "3", "", "")),
        "75: you can open",
        going_out=True,
    ),
    Case(
        "black threes with a wild card",
        50,
        (("A", "3", "", ""), ("3", "3", "1", "")),
        "60: you can open",
        {1: ("no wild card goes with black threes",)},
        going_out=True,
    ),
    Case(
        "the pile's top card without its pair",
        50,
        (("K", "2", "1", ""), ("A", "3", "", "")),
        "130: you can open",
        {
            0: (
                "to open with the pile, its top card needs two natural cards of its rank"
                " from the hand: this meld needs at least three natural cards",
            )
        },
        discard_top="K",
    ),
    Case(
        "the pile's top card in no meld",
        50,
        (("A", "3", "", ""),),
        "60: you can open",
        discard_top="Q",
        top_reason="no planned meld has the rank of the pile's top card",
    ),
)
