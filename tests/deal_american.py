"""Real hands of Modern American Canasta, dealt from shuffled packs (docs/rules.md §5a).

As tests/deal.py does for Classic: two packs and four jokers are shuffled, each of the four
players (two partnerships) is dealt 13 cards, every three (red or black) is laid down at once
as a bonus card and replaced, players draw two and discard one turn by turn, and the hand ends
when a player goes out (their side holding two canastas) or when the stock runs out (the talon
is left out: nobody takes the pile, which only makes hands that a pile could make too). Melds
are then built from each side's cards by §5a's rules: one meld a rank, three to seven cards,
two natural at least, two wild cards at most, sevens without wild cards, seven wild cards a
canasta of their own. Now and then a side goes out at once with a special hand before anyone
melds. Nothing here reads the engine's numbers: they are typed in again from §5a.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass

# The same card names and values as Classic's (§5a): a discard, melds taken from the hands,
# cards added up and counted by value group (threes never stay in a hand here: laid at once).
import deal
from deal import count, discard, points, take

from scorer.core.hands import Hand, SideHand
from scorer.core.meld import PlannedMeld

# --- the cards (docs/rules.md §5a) ------------------------------------------------------------

NATURAL_RANKS = ("4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
WILD = ("joker", "2")
RED_THREE, BLACK_THREE = "red3", "black3"
VALUE = {"joker": 50, "2": 20, "A": 20, RED_THREE: 5, BLACK_THREE: 5}
VALUE.update({rank: 10 for rank in ("8", "9", "10", "J", "Q", "K")})
VALUE.update({rank: 5 for rank in ("4", "5", "6", "7")})
PLAYERS, DEALT, DRAWS, TO_GO_OUT, TARGET = 4, 13, 2, 2, 8500
CANASTA, MELD, MOST_WILD = 7, 3, 2
NATURAL, MIXED, SEVENS, ACES = 500, 300, 2500, 2500
WILD_CANASTA, FOUR_JOKERS, DEUCES = 2000, 2500, 3000
GOING_OUT = 100
UNFINISHED_SEVENS, UNFINISHED_ACES, UNFINISHED_WILD, UNFINISHED_FOUR_JOKERS = 2500, 2500, 2000, 2500
HOLDING = 1500  # a player holding three sevens or more; three aces or more
THREES = {0: 0, 1: 100, 2: 300, 3: 500, 4: 1000}  # per colour
SPECIAL = {"straight": 3000, "pairs": 2500, "wild_pairs": 2000, "garbage": 2000}
SLIPS = 0.25  # how often a table melds below its minimum all the same (§2b)
SPECIAL_HANDS = 0.04  # how often a hand ends at once with a special hand


def opening_minimum(total: int) -> int:
    """§5a's table: below 3 000 125, to 4 995 155, 5 000 and more 180."""
    return 180 if total >= 5000 else 155 if total >= 3000 else 125


# --- the end of a hand ----------------------------------------------------------------------


@dataclass(frozen=True)
class Meld(deal.Meld):
    """Cards of one rank laid by a side ("wild": wild cards only), as deal.py's with §5a's
    kinds."""

    @property
    def jokers(self) -> int:
        return self.cards.count("joker")

    @property
    def is_canasta(self) -> bool:
        return len(self.cards) >= CANASTA

    @property
    def kind(self) -> str | None:
        """The kind of canasta it is, by §5a; None short of seven cards."""
        if not self.is_canasta:
            return None
        if self.rank == "wild":
            return {0: "deuces", 4: "wild_four_jokers"}.get(self.jokers, "wild")
        if self.rank == "7":
            return "sevens"
        if self.wild == 0:
            return "aces" if self.rank == "A" else "natural"
        return "mixed"

    @property
    def bonus(self) -> int:
        return {
            None: 0,
            "natural": NATURAL,
            "mixed": MIXED,
            "sevens": SEVENS,
            "aces": ACES,
            "wild": WILD_CANASTA,
            "wild_four_jokers": FOUR_JOKERS,
            "deuces": DEUCES,
        }[self.kind]

    @property
    def unfinished(self) -> str | None:
        """The unfinished meld it is, by §5a's penalties; None for a canasta or a plain meld."""
        if self.is_canasta:
            return None
        if self.rank == "7":
            return "sevens"
        if self.rank == "A" and self.wild == 0:
            return "aces"
        if self.rank == "wild":
            return "wild_four_jokers" if self.jokers == 4 else "wild"
        return None


UNFINISHED = {
    "sevens": UNFINISHED_SEVENS,
    "aces": UNFINISHED_ACES,
    "wild": UNFINISHED_WILD,
    "wild_four_jokers": UNFINISHED_FOUR_JOKERS,
}


@dataclass(frozen=True)
class SideEnd(deal.SideEnd):
    """A side at the end of the hand, as deal.py's (melds, each player's cards, red threes),
    with its black threes and a special hand."""

    melds: tuple[Meld, ...]
    black_threes: int = 0
    special: str | None = None

    @property
    def canastas(self) -> dict[str, int]:
        return dict(Counter(meld.kind for meld in self.melds if meld.kind))

    @property
    def unfinished(self) -> dict[str, int]:
        return dict(Counter(meld.unfinished for meld in self.melds if meld.unfinished))

    @property
    def players_holding(self) -> dict[str, int]:
        found = {
            "sevens": sum(hand.count("7") >= 3 for hand in self.hands),
            "aces": sum(hand.count("A") >= 3 for hand in self.hands),
        }
        return {rank: n for rank, n in found.items() if n}


@dataclass(frozen=True)
class EndOfHand:
    """A played-out hand; ``irregular`` lists sides melding below their minimum (§2b)."""

    sides: tuple[SideEnd, ...]
    went_out: int | None
    irregular: tuple[int, ...] = ()


# --- playing the hand -----------------------------------------------------------------------


# Deals a shuffle gives rarely, each as possible as any other: the first player is dealt
# seven twos, all four jokers and three twos, seven sevens, seven aces... (the rare kinds of
# canasta of §5a, which plain shuffles reach too seldom to be tried often).
RARE_DEALS: tuple[tuple[str, ...], ...] = (
    ("2",) * 7,
    ("joker",) * 4 + ("2",) * 3,
    ("joker",) * 2 + ("2",) * 5,
    ("7",) * 7,
    ("A",) * 7,
    ("7",) * 4 + ("A",) * 4,
)
RARE = 0.25  # how often a deal is one of them
# Which wild cards a side saving them for a meld of their own lays first: twos, jokers, or
# as they come (a stable sort keeps the shuffle).
SAVING = (lambda card: card == "joker", lambda card: card == "2", lambda card: 0)


def shuffled_packs(rng: random.Random) -> list[str]:
    """Two packs of 52 cards and two jokers each: 108 cards, the last ones dealt first."""
    pack = ["joker"] * 2 + [RED_THREE] * 2 + [BLACK_THREE] * 2
    pack += [rank for rank in ("2", *NATURAL_RANKS) for _suit in range(4)]
    stock = pack * 2
    rng.shuffle(stock)
    if rng.random() < RARE:
        rare = list(rng.choice(RARE_DEALS))
        for card in rare:
            stock.remove(card)
        stock += rare  # on top: into the first player's hand
    return stock


@dataclass
class Seat:
    side: int
    cards: list[str]


def lay_threes(seat: Seat, stock: list[str], threes: list[Counter[str]]) -> None:
    """Every three, red or black, is laid down as a bonus card and replaced (§5a)."""
    while RED_THREE in seat.cards or BLACK_THREE in seat.cards:
        card = RED_THREE if RED_THREE in seat.cards else BLACK_THREE
        seat.cards.remove(card)
        threes[seat.side][card] += 1
        if stock:
            seat.cards.append(stock.pop())


def draw(seat: Seat, stock: list[str], threes: list[Counter[str]]) -> None:
    for _ in range(DRAWS):
        if stock:
            seat.cards.append(stock.pop())
    lay_threes(seat, stock, threes)


def build_melds(cards: list[str], rng: random.Random, *, eager: bool) -> list[Meld]:
    """Melds by §5a from a side's cards: one a rank, 3 to 7 cards, 2+ natural, at most 2 wild,
    sevens natural only; wild cards first complete canastas, then join pairs, then may make a
    meld of their own. ``eager`` (the side going out) melds all it can."""
    naturals = Counter(card for card in cards if card in NATURAL_RANKS)
    wilds = [card for card in cards if card in WILD]
    rng.shuffle(wilds)
    kept: list[str] = []
    if len(wilds) >= MELD and rng.random() < 0.35:
        # Some tables save their wild cards for a canasta of wild cards (a strategy §5a's
        # bonuses reward), melding them on their own.
        # Saving its twos, or its jokers, for the canasta they make (seven twos: 3 000).
        wilds.sort(key=rng.choice(SAVING))
        most = min(len(wilds), CANASTA)
        size = most if rng.random() < 0.5 else rng.randint(MELD, most)
        kept, wilds = wilds[:size], wilds[size:]
    ranks = {
        r: [r] * min(n, CANASTA)  # an eighth card of a rank stays in hand: a canasta is closed
        for r, n in naturals.items()
        if n >= (3 if r == "7" else 2) and (eager or rng.random() < 0.8)
    }
    mixable = [r for r in ranks if r != "7"]
    for r in mixable:  # mixed canastas: 5 or 6 naturals and wild cards
        missing = CANASTA - len(ranks[r])
        if 0 < missing <= min(MOST_WILD, len(wilds)) and (eager or rng.random() < 0.7):
            ranks[r] += [wilds.pop() for _ in range(missing)]
    for r in mixable:  # a pair needs a wild card
        if len(ranks[r]) == 2 and wilds:
            ranks[r].append(wilds.pop())
    for r in mixable:  # spare wild cards join short melds, never past two nor seven cards
        meld = ranks[r]
        while (
            wilds
            and MELD <= len(meld) < CANASTA
            and sum(card in WILD for card in meld) < MOST_WILD
            and (eager or rng.random() < 0.4)
        ):
            meld.append(wilds.pop())
    melds = [Meld(r, tuple(meld)) for r, meld in ranks.items() if len(meld) >= MELD]
    if kept:
        melds.append(Meld("wild", tuple(kept)))
    elif len(wilds) >= MELD and (eager or rng.random() < 0.5):
        size = min(len(wilds), CANASTA) if eager else rng.randint(MELD, min(len(wilds), CANASTA))
        melds.append(Meld("wild", tuple(wilds[:size])))
    return melds


def canastas(melds: list[Meld]) -> int:
    return sum(meld.is_canasta for meld in melds)


def meld_value(melds: list[Meld]) -> int:
    return sum(VALUE[card] for meld in melds for card in meld.cards)


def go_out(seat: Seat, seats: list[Seat], minimum: int, rng: random.Random):
    """The melds with which ``seat`` goes out (and whether below its minimum), or None: two
    canastas, every card of the player melded but one discard, each partner keeping one."""
    mates = [s for s in seats if s.side == seat.side and s is not seat]
    pooled = seat.cards + [card for mate in mates for card in mate.cards[1:]]
    melds = build_melds(pooled, rng, eager=True)
    left = Counter(seat.cards)
    left.subtract(card for meld in melds for card in meld.cards)
    if canastas(melds) < TO_GO_OUT or sum(max(n, 0) for n in left.values()) > 1:
        return None
    irregular = meld_value(melds) < minimum
    if irregular and rng.random() > SLIPS:
        return None
    return melds, irregular


def end_side(side: int, seats: list[Seat], minimum: int, rng: random.Random):
    """A side that did not go out lays what it can, keeping a card in each hand; melds below
    its minimum are not laid, unless the table slipped (§2b)."""
    mine = [seat for seat in seats if seat.side == side]
    melds = build_melds([card for seat in mine for card in seat.cards[1:]], rng, eager=False)
    irregular = bool(melds) and meld_value(melds) < minimum
    if irregular and rng.random() > SLIPS:
        return [], False
    return melds, irregular


def play_hand(minimums: tuple[int, int], rng: random.Random) -> EndOfHand:
    """Deal, play turns until a player goes out or the stock runs out, then count."""
    stock = shuffled_packs(rng)
    seats = [Seat(i % 2, [stock.pop() for _ in range(DEALT)]) for i in range(PLAYERS)]
    threes: list[Counter[str]] = [Counter(), Counter()]
    for seat in seats:
        lay_threes(seat, stock, threes)
    melds: dict[int, list[Meld]] = {}
    special: dict[int, str] = {}
    went_out, irregular = None, []
    if rng.random() < SPECIAL_HANDS:
        # The first player goes out at once with a special hand; nobody melded before.
        went_out = 0
        special[0] = rng.choice(sorted(SPECIAL))
        melds[0] = []
        seats[0].cards.clear()
    keep_rate = rng.uniform(0.2, 0.9)
    while went_out is None and stock:
        for seat in seats:
            draw(seat, stock, threes)
            outcome = go_out(seat, seats, minimums[seat.side], rng)
            if outcome is not None and rng.random() < 0.7:
                found, slipped = outcome
                went_out = seat.side
                melds[seat.side] = found
                irregular += [seat.side] if slipped else []
                mine = [seat] + [s for s in seats if s.side == seat.side and s is not seat]
                take(found, mine)
                seat.cards.clear()  # the last card left is the final discard
                break
            if rng.random() > keep_rate:
                discard(seat, rng)
            if not stock:
                break
    for side in range(2):
        if side == went_out:
            continue
        if special:  # the hand ended before anyone could meld
            melds[side] = []
            continue
        found, slipped = end_side(side, seats, minimums[side], rng)
        melds[side] = found
        irregular += [side] if slipped else []
        take(found, [seat for seat in seats if seat.side == side])
    return EndOfHand(
        sides=tuple(
            SideEnd(
                tuple(melds[side]),
                tuple(tuple(s.cards) for s in seats if s.side == side),
                threes[side][RED_THREE],
                threes[side][BLACK_THREE],
                special.get(side),
            )
            for side in range(2)
        ),
        went_out=went_out,
        irregular=tuple(sorted(irregular)),
    )


# --- what the table calls out, and what it scores ------------------------------------------


def planned(meld: Meld) -> PlannedMeld:
    return PlannedMeld(
        rank=meld.rank,
        naturals=sum(card not in WILD for card in meld.cards),
        jokers=meld.jokers,
        twos=meld.cards.count("2"),
    )


def _calls(side: SideEnd) -> dict[str, object]:
    """What every entry mode calls beside the melds: threes, penalties, a special hand."""
    return {
        "red_threes": side.red_threes,
        "black_threes": side.black_threes,
        "players_holding": side.players_holding,
        "special_hand": side.special,
    }


def typed_hand(end: EndOfHand) -> Hand:
    """Meld points typed, canastas and unfinished melds by kind, points left in hand."""
    return _called_hand(end, counted=False)


def counted_hand(end: EndOfHand) -> Hand:
    """Cards counted by value group, melded and left in hand."""
    return _called_hand(end, counted=True)


def _called_hand(end: EndOfHand, *, counted: bool) -> Hand:
    sides = []
    for s in end.sides:
        if counted:
            cards: dict[str, object] = {"meld_cards": count(s.melded), "hand_cards": count(s.held)}
        else:
            cards = {"meld_points": points(s.melded), "hand_points": points(s.held)}
        sides.append(SideHand(canastas=s.canastas, unfinished=s.unfinished, **cards, **_calls(s)))
    return Hand(tuple(sides), end.went_out)


def ranked_hand(end: EndOfHand, family) -> Hand:  # noqa: ANN001 (the core's RuleFamily)
    """Melds given rank by rank: they decide the canastas and the unfinished melds."""
    sides = tuple(
        SideHand(
            melds=tuple(planned(meld) for meld in s.melds),
            hand_points=points(s.held),
            family=family,
            **_calls(s),
        )
        for s in end.sides
    )
    return Hand(sides, end.went_out)


def expected_scores(end: EndOfHand) -> tuple[int, ...]:
    """Each side's hand score, from the cards, as §5a adds it (the swing included)."""
    scores = []
    for index, side in enumerate(end.sides):
        if side.special is not None:
            scores.append(SPECIAL[side.special])
            continue
        made = canastas(list(side.melds))
        bonus = sum(meld.bonus for meld in side.melds) + (GOING_OUT if end.went_out == index else 0)
        cards = points(side.melded)
        threes = THREES[side.red_threes] + THREES[side.black_threes]
        if made == 0:
            score = -cards - threes
        elif made == 1:
            score = bonus + cards
        else:
            score = bonus + cards + threes
        score -= sum(UNFINISHED[kind] * n for kind, n in side.unfinished.items())
        score -= HOLDING * sum(side.players_holding.values())
        score -= points(side.held)
        scores.append(score)
    return tuple(scores)
