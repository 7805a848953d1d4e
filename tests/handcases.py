"""One table of hands, typed into the hand form and scored by the engine (scorer.core).

Each case: what each side calls out, as typed in the form's boxes, who went out and whether
concealed. `Case.form(sides)` gives the boxes and chips as typed (names without the
"sides-N-" prefix), `Case.hand(sides)` the same hand as the engine takes it. A game with more
sides than the case names gives the others an empty side; the browser test
(tests/browser/test_hand_preview.py) compares the preview's figures with `score_hand`.
"""

from __future__ import annotations

from dataclasses import dataclass

from scorer.core.hands import CardCounts, Hand, SideHand
from scorer.core.meld import PlannedMeld

Counts = tuple[int, int, int, int]  # jokers, twenty, ten, five
Meld = tuple[str, int, int, int]  # rank, naturals, jokers, twos
GROUPS = ("jokers", "twenty", "ten", "five")


@dataclass(frozen=True)
class Side:
    """One side's call. `adjustment` is the signed points; `typed` what was typed for it
    when not simply its size (a sign typed in the box wins over the chip)."""

    meld_points: int | None = None
    natural: int = 0
    mixed: int = 0
    red_threes: int = 0
    hand_points: int | None = None
    meld_cards: Counts | None = None
    hand_cards: Counts | None = None
    adjustment: int = 0
    typed: str | None = None
    chip: str | None = None
    melds: tuple[Meld, ...] = ()

    def boxes(self) -> dict[str, str]:
        """Every box of the side as typed (an empty string: left empty)."""
        typed = {
            "meld_points": "" if self.meld_points is None else str(self.meld_points),
            "natural_canastas": str(self.natural) if self.natural else "",
            "mixed_canastas": str(self.mixed) if self.mixed else "",
            "hand_points": "" if self.hand_points is None else str(self.hand_points),
            "adjustment": self.typed or (str(abs(self.adjustment)) if self.adjustment else ""),
        }
        for part, counts in (("meld", self.meld_cards), ("hand", self.hand_cards)):
            for group, count in zip(GROUPS, counts or ("",) * 4, strict=True):
                typed[f"{part}_{group}"] = str(count)
        for i, (rank, naturals, jokers, twos) in enumerate(self.melds):
            typed |= {f"melds-{i}-rank": rank, f"melds-{i}-naturals": str(naturals)}
            typed |= {f"melds-{i}-jokers": str(jokers), f"melds-{i}-twos": str(twos)}
        return typed

    def chips(self) -> dict[str, str]:
        """The chips tapped: red threes, and the adjustment's sign."""
        sign = self.chip or ("+" if self.adjustment > 0 else "-")
        return {"red_threes": str(self.red_threes), "adjustment_sign": sign}

    def engine(self) -> SideHand:
        """The same call as the engine takes it."""

        def counts(given: Counts | None) -> CardCounts | None:
            return None if given is None else CardCounts(*given)

        return SideHand(
            meld_points=self.meld_points or 0,
            natural_canastas=self.natural,
            mixed_canastas=self.mixed,
            red_threes=self.red_threes,
            hand_points=self.hand_points or 0,
            meld_cards=counts(self.meld_cards),
            hand_cards=counts(self.hand_cards),
            adjustment=self.adjustment,
            melds=tuple(PlannedMeld(*meld) for meld in self.melds) or None,
        )


@dataclass(frozen=True)
class Case:
    name: str
    sides: tuple[Side, ...]
    went_out: int | None = None  # None: nobody, the stock ran out
    concealed: bool = False

    def side(self, index: int) -> Side:
        return self.sides[index] if index < len(self.sides) else Side()

    def hand(self, count: int) -> Hand:
        """The hand for a game of `count` sides, as the engine scores it."""
        sides = tuple(self.side(i).engine() for i in range(count))
        return Hand(sides=sides, went_out=self.went_out, concealed=self.concealed)


A_GOOD_HAND = Side(meld_points=820, natural=1, red_threes=1, hand_points=0)
CAUGHT = Side(meld_points=60, hand_points=35)

CASES = (
    Case("nothing typed", ()),
    Case("a plain hand, nobody out", (Side(meld_points=120, hand_points=15), CAUGHT)),
    Case("out, with a natural canasta", (A_GOOD_HAND, CAUGHT), went_out=0),
    Case("out concealed", (Side(meld_points=250, natural=1), CAUGHT), went_out=0, concealed=True),
    Case("the second side out", (CAUGHT, Side(meld_points=400, mixed=2)), went_out=1),
    Case("red threes alone: against", (Side(red_threes=1, hand_points=40), CAUGHT)),
    Case("two red threes, melded", (Side(meld_points=90, red_threes=2, hand_points=10), CAUGHT)),
    Case("all four red threes with melds", (Side(meld_points=300, red_threes=4, mixed=1),)),
    Case("all four red threes, no meld", (Side(red_threes=4, hand_points=75),)),
    Case("three red threes without a canasta", (Side(meld_points=45, red_threes=3), CAUGHT)),
    Case("a negative total", (Side(meld_points=0, hand_points=245, red_threes=2), CAUGHT)),
    Case("cards counted", (Side(meld_cards=(1, 2, 5, 6), hand_cards=(0, 1, 2, 3)), CAUGHT)),
    Case(
        "counted cards decide over points",
        (Side(meld_points=999, meld_cards=(0, 0, 3, 0), hand_points=5, hand_cards=(1, 0, 0, 0)),),
    ),
    Case("a penalty", (Side(meld_points=200, hand_points=20, adjustment=-100), CAUGHT)),
    Case("a correction added", (Side(meld_points=200, adjustment=50), CAUGHT), went_out=0),
    Case(
        "a typed sign wins over the chip",
        (Side(meld_points=150, adjustment=-40, typed="\u221240", chip="+"), CAUGHT),
    ),
    Case("a plus typed", (Side(meld_points=150, adjustment=25, typed="+25", chip="-"), CAUGHT)),
    Case(
        "melds rank by rank",
        (Side(melds=(("K", 7, 0, 0), ("7", 5, 1, 1), ("A", 3, 0, 0)), red_threes=1), CAUGHT),
        went_out=0,
    ),
    Case(
        "melds decide over typed canastas and points",
        (Side(meld_points=500, natural=2, melds=(("Q", 4, 1, 2), ("8", 3, 0, 0))), CAUGHT),
    ),
    Case(
        "every rank's group, a canasta of aces with wild cards",
        (
            Side(
                melds=(("A", 5, 2, 0), ("10", 3, 0, 0), ("5", 4, 0, 1), ("3", 3, 0, 0)),
                hand_cards=(0, 0, 1, 1),
            ),
            CAUGHT,
        ),
        went_out=0,
    ),
    Case(
        "rank by rank beside counted hand cards, a penalty",
        (Side(melds=(("J", 8, 0, 0),), hand_cards=(1, 1, 0, 0), adjustment=-500), CAUGHT),
    ),
    Case(
        "red threes with melds and no canasta",
        (Side(melds=(("9", 3, 0, 0),), red_threes=2), Side(meld_points=600, natural=1)),
        went_out=1,
    ),
    Case(
        "three sides typed",
        (CAUGHT, A_GOOD_HAND, Side(meld_points=70, red_threes=1, hand_points=25)),
        went_out=1,
    ),
    Case(
        "five or six red threes",
        (Side(meld_points=200, red_threes=5), Side(red_threes=6, hand_points=10)),
    ),
)
