"""Real hands of Samba and Bolivia, dealt from three shuffled packs (tests/deal.py is
Classic's): the rule book's promise that a hand a table can lay down is never refused.

A hand is played out from a seeded ``random.Random``: three packs and six jokers are
shuffled, four players in two partnerships are dealt fifteen cards each, red threes are laid
and replaced, each turn a player draws two and sometimes discards one, and the hand ends
when a player goes out (the side holding two canastas, in Bolivia one of them an escalera)
or when the stock runs out. Each side's melds are then built from its own players' cards:
sequences of one suit (4 to ace, no wild card, seven at most: a samba or an escalera),
groups of one rank (two natural cards at least, two wild cards at most), in Bolivia melds of
wild cards only (seven at most: a bolivia), and black threes melded by the player going out.
Nothing here reads the engine's numbers: they are typed in again from docs/rules.md §5b-c.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass, field

from scorer.core.families import RuleFamily
from scorer.core.hands import CardCounts, Hand, SideHand
from scorer.core.meld import PlannedMeld, PlannedSequence

# --- the cards (docs/rules.md §1, §5b) ------------------------------------------------------

SUITS = ("clubs", "diamonds", "hearts", "spades")
RED_SUITS = ("diamonds", "hearts")
NATURAL_RANKS = ("4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")  # in sequence order
JOKER, TWO, THREE = "joker", "2", "3"
VALUE = {JOKER: 50, TWO: 20, "A": 20, THREE: 5}
VALUE.update({rank: 10 for rank in ("8", "9", "10", "J", "Q", "K")})
VALUE.update({rank: 5 for rank in ("4", "5", "6", "7")})
GROUP_OF_VALUE = {50: "jokers", 20: "twenty", 10: "ten", 5: "five"}
PACKS, DEALT, DRAWS, TO_GO_OUT = 3, 15, 2, 2
CANASTA, MELD, MOST_WILD, LONGEST = 7, 3, 2, 7
BONUS = {"natural": 500, "mixed": 300, "sequence": 1500, "wild": 2500}
GOING_OUT, RED_THREE, ALL_RED_THREES, BLACK_THREE_HELD = 200, 100, 1000, 100


@dataclass(frozen=True)
class Card:
    rank: str
    suit: str | None = None  # a joker has none

    @property
    def wild(self) -> bool:
        return self.rank in (JOKER, TWO)

    @property
    def red_three(self) -> bool:
        return self.rank == THREE and self.suit in RED_SUITS

    @property
    def black_three(self) -> bool:
        return self.rank == THREE and self.suit not in RED_SUITS


@dataclass(frozen=True)
class Book:
    """Samba or Bolivia as docs/rules.md §5b-c states it."""

    name: str  # "samba" or "bolivia"

    @property
    def bolivia(self) -> bool:
        return self.name == "bolivia"

    @property
    def sequence_kind(self) -> str:
        return "escalera" if self.bolivia else "samba"


SAMBA_BOOK, BOLIVIA_BOOK = Book("samba"), Book("bolivia")


@dataclass(frozen=True)
class Laid:
    """What a side laid: groups by rank, sequences, melds of wild cards, black threes."""

    groups: tuple[tuple[str, tuple[Card, ...]], ...] = ()
    sequences: tuple[tuple[str, str, str], ...] = ()  # (suit, first, last)
    wild_melds: tuple[tuple[Card, ...], ...] = ()
    black_threes: int = 0

    def cards(self) -> list[Card]:
        found = [card for _rank, cards in self.groups for card in cards]
        found += [card for meld in self.wild_melds for card in meld]
        for suit, first, last in self.sequences:
            ranks = NATURAL_RANKS[NATURAL_RANKS.index(first) : NATURAL_RANKS.index(last) + 1]
            found += [Card(rank, suit) for rank in ranks]
        found += [Card(THREE, "clubs")] * self.black_threes
        return found

    def canastas(self) -> Counter[str]:
        found: Counter[str] = Counter()
        for _rank, cards in self.groups:
            if len(cards) >= CANASTA:
                found["mixed" if any(card.wild for card in cards) else "natural"] += 1
        for _suit, first, last in self.sequences:
            if NATURAL_RANKS.index(last) - NATURAL_RANKS.index(first) + 1 == LONGEST:
                found["sequence"] += 1
        found["wild"] += sum(len(meld) == LONGEST for meld in self.wild_melds)
        return found


@dataclass
class Seat:
    side: int
    cards: list[Card] = field(default_factory=list)


@dataclass(frozen=True)
class EndOfHand:
    book: Book
    laid: tuple[Laid, ...]
    hands: tuple[tuple[tuple[Card, ...], ...], ...]  # by side, by player
    red_threes: tuple[int, ...]
    went_out: int | None


# --- playing the hand ---------------------------------------------------------------------


def shuffled_packs(rng: random.Random) -> list[Card]:
    """Three packs of 52 cards and two jokers: 162 cards."""
    pack = [Card(JOKER)] * 2
    pack += [Card(rank, suit) for suit in SUITS for rank in (TWO, THREE, *NATURAL_RANKS)]
    stock = pack * PACKS
    rng.shuffle(stock)
    return stock


def lay_red_threes(seat: Seat, stock: list[Card], red_threes: list[int]) -> None:
    while any(card.red_three for card in seat.cards):
        seat.cards.remove(next(card for card in seat.cards if card.red_three))
        red_threes[seat.side] += 1
        if stock:
            seat.cards.append(stock.pop())


def take_sequences(pool: list[Card], rng: random.Random, eager: bool) -> list[tuple]:
    """Runs of one suit, 4 to ace, three to seven cards, taken out of ``pool``."""
    found = []
    for suit in rng.sample(SUITS, len(SUITS)):
        while True:
            held = Counter(card.rank for card in pool if card.suit == suit and not card.wild)
            run: list[str] = []
            best: list[str] = []
            for rank in NATURAL_RANKS:
                run = run + [rank] if held[rank] else []
                if len(run) > len(best):
                    best = run
            if len(best) < MELD or not (eager or rng.random() < 0.6):
                break
            length = min(len(best), LONGEST)
            if length < LONGEST and not eager:
                length = rng.randint(MELD, length)
            start = rng.randint(0, len(best) - length)
            chosen = best[start : start + length]
            for rank in chosen:
                pool.remove(Card(rank, suit))
            found.append((suit, chosen[0], chosen[-1]))
    return found


def take_groups(pool: list[Card], rng: random.Random, eager: bool) -> list[tuple]:
    """Groups of one rank: two natural cards at least, two wild cards at most."""
    naturals = Counter(card.rank for card in pool if card.rank in NATURAL_RANKS)
    wilds = [card for card in pool if card.wild]
    rng.shuffle(wilds)
    ranks: dict[str, list[Card]] = {}
    for rank, count in naturals.items():
        if count >= 2 and (eager or rng.random() < 0.8):
            ranks[rank] = [card for card in pool if card.rank == rank]
    for meld in ranks.values():  # complete mixed canastas: five or six naturals
        missing = CANASTA - len(meld)
        if 0 < missing <= min(MOST_WILD, len(wilds)) and (eager or rng.random() < 0.7):
            meld += [wilds.pop() for _ in range(missing)]
    for meld in ranks.values():  # a pair needs a wild card
        if len(meld) == 2 and wilds:
            meld.append(wilds.pop())
    for meld in ranks.values():  # spare wild cards join groups, never a natural canasta
        room = MOST_WILD - sum(card.wild for card in meld)
        if len(meld) < MELD or (len(meld) >= CANASTA and room == MOST_WILD):
            continue
        while wilds and room > 0 and (eager or rng.random() < 0.5):
            meld.append(wilds.pop())
            room -= 1
    found = [(rank, tuple(meld)) for rank, meld in ranks.items() if len(meld) >= MELD]
    for _rank, meld in found:
        for card in meld:
            pool.remove(card)
    return found


def take_wild_melds(pool: list[Card], rng: random.Random, eager: bool) -> list[tuple]:
    """Bolivia: wild cards alone, three to seven (seven: a bolivia)."""
    found = []
    while True:
        wilds = [card for card in pool if card.wild]
        if len(wilds) < MELD or not (eager or rng.random() < 0.7):
            return found
        meld = tuple(wilds[:LONGEST])
        for card in meld:
            pool.remove(card)
        found.append(meld)


def build(book: Book, pool: list[Card], rng: random.Random, *, eager: bool) -> Laid:
    """A side's melds out of ``pool`` (the cards it chose to lay; the rest stay there)."""
    groups_first = rng.random() < 0.5
    groups = take_groups(pool, rng, eager) if groups_first else []
    sequences = take_sequences(pool, rng, eager)
    if not groups_first:
        groups = take_groups(pool, rng, eager)
    wild = take_wild_melds(pool, rng, eager) if book.bolivia else []
    return Laid(tuple(groups), tuple(sequences), tuple(wild))


def can_go_out(book: Book, laid: Laid) -> bool:
    made = laid.canastas()
    if sum(made.values()) < TO_GO_OUT:
        return False
    return not book.bolivia or made["sequence"] >= 1


def go_out(book: Book, seat: Seat, mate: Seat, rng: random.Random) -> tuple[Laid, list] | None:
    """The melds with which ``seat`` goes out, with the partner's cards it laid, or None."""
    pool = seat.cards + mate.cards[1:]  # the partner keeps a card at least
    laid = build(book, list(pool), rng, eager=True)
    black = sum(card.black_three for card in seat.cards)
    if black >= MELD:
        laid = Laid(laid.groups, laid.sequences, laid.wild_melds, min(black, 6))
    own = Counter(seat.cards)
    melded = Counter(laid.cards())
    # Black threes laid are the seat's own; any suit of them will do.
    for card in [c for c in seat.cards if c.black_three][: laid.black_threes]:
        own[card] -= 1
    melded.pop(Card(THREE, "clubs"), None)
    left_own = own - melded
    if not can_go_out(book, laid) or sum(left_own.values()) > 1:
        return None
    return laid, pool


def remove(cards: list[Card], seats: list[Seat], laid: Laid) -> None:
    """Take the laid cards out of the seats' hands, the first seat's first."""
    wanted = Counter(laid.cards())
    blacks = laid.black_threes
    wanted.pop(Card(THREE, "clubs"), None)
    for seat in seats:
        for card in list(seat.cards):
            if wanted[card] > 0:
                wanted[card] -= 1
                seat.cards.remove(card)
            elif card.black_three and blacks:
                blacks -= 1
                seat.cards.remove(card)


def play_hand(book: Book, rng: random.Random) -> EndOfHand:
    stock = shuffled_packs(rng)
    seats = [Seat(i % 2) for i in range(4)]
    red_threes = [0, 0]
    for seat in seats:
        seat.cards = [stock.pop() for _ in range(DEALT)]
    for seat in seats:
        lay_red_threes(seat, stock, red_threes)
    keep = rng.uniform(0.3, 0.95)  # how often a turn keeps its cards (takes the pile)
    # How often a player who can go out does: some tables play on until the stock runs out.
    going = 0.0 if rng.random() < 0.2 else rng.uniform(0.05, 0.7)
    laid: dict[int, Laid] = {}
    went_out = None
    while went_out is None and stock:
        for i, seat in enumerate(seats):
            for _ in range(DRAWS):
                if stock:
                    seat.cards.append(stock.pop())
            lay_red_threes(seat, stock, red_threes)
            mate = seats[(i + 2) % 4]
            outcome = go_out(book, seat, mate, rng)
            if outcome is not None and rng.random() < going:
                laid[seat.side] = outcome[0]
                remove([], [seat, mate], outcome[0])
                seat.cards.clear()  # the last card left is the final discard
                went_out = seat.side
                break
            if rng.random() > keep and len(seat.cards) > 1:
                plain = [card for card in seat.cards if not card.wild] or seat.cards
                seat.cards.remove(rng.choice(plain))
            if not stock:
                break
    for side in (0, 1):
        if side == went_out:
            continue
        mine = [seat for seat in seats if seat.side == side]
        pool = [card for seat in mine for card in seat.cards[1:]]  # each keeps a card
        found = build(book, pool, rng, eager=False)
        laid[side] = found
        remove([], mine, found)
    return EndOfHand(
        book,
        (laid[0], laid[1]),
        tuple(tuple(tuple(s.cards) for s in seats if s.side == side) for side in (0, 1)),
        tuple(red_threes),
        went_out,
    )


# --- what the table calls out, and what it scores ------------------------------------------


def held(end: EndOfHand, side: int) -> list[Card]:
    return [card for hand in end.hands[side] for card in hand]


def counted_held(end: EndOfHand, side: int) -> list[Card]:
    """The cards left in hand that hand points count (Bolivia's black threes apart)."""
    return [c for c in held(end, side) if not (end.book.bolivia and c.black_three)]


def black_threes_held(end: EndOfHand, side: int) -> int:
    return sum(card.black_three for card in held(end, side)) if end.book.bolivia else 0


def points(cards: list[Card]) -> int:
    return sum(VALUE[card.rank] for card in cards)


def count(cards: list[Card]) -> CardCounts:
    return CardCounts(**Counter(GROUP_OF_VALUE[VALUE[card.rank]] for card in cards))


def _canasta_fields(end: EndOfHand, side: int) -> dict[str, int]:
    made = end.laid[side].canastas()
    fields = {
        "natural_canastas": made["natural"],
        "mixed_canastas": made["mixed"],
        f"{end.book.sequence_kind}_canastas": made["sequence"],
    }
    if end.book.bolivia:
        fields["bolivia_canastas"] = made["wild"]
    return fields


def _common(end: EndOfHand, side: int) -> dict:
    common: dict = {"red_threes": end.red_threes[side]}
    if end.book.bolivia:
        common["black_threes_in_hand"] = black_threes_held(end, side)
    return common


def called_hand(end: EndOfHand, family: RuleFamily, *, counted: bool) -> Hand:
    """The hand as points typed in, or (``counted``) as cards counted by value group."""
    sides = []
    for i in (0, 1):
        melded, left = end.laid[i].cards(), counted_held(end, i)
        if counted:
            cards: dict = {"meld_cards": count(melded), "hand_cards": count(left)}
        else:
            cards = {"meld_points": points(melded), "hand_points": points(left)}
        sides.append(SideHand(**cards, **_canasta_fields(end, i), **_common(end, i), family=family))
    return Hand(tuple(sides), end.went_out)


def typed_hand(end: EndOfHand, family: RuleFamily) -> Hand:
    return called_hand(end, family, counted=False)


def counted_hand(end: EndOfHand, family: RuleFamily) -> Hand:
    return called_hand(end, family, counted=True)


def meld_by_meld_hand(end: EndOfHand, family: RuleFamily) -> Hand:
    sides = []
    for i in (0, 1):
        laid = end.laid[i]
        melds = [
            PlannedMeld(
                rank=rank,
                naturals=sum(not c.wild for c in cards),
                jokers=sum(c.rank == JOKER for c in cards),
                twos=sum(c.rank == TWO for c in cards),
            )
            for rank, cards in laid.groups
        ]
        melds += [
            PlannedMeld(
                rank="wild",
                naturals=0,
                jokers=sum(c.rank == JOKER for c in meld),
                twos=sum(c.rank == TWO for c in meld),
            )
            for meld in laid.wild_melds
        ]
        if laid.black_threes:
            melds.append(PlannedMeld(rank=THREE, naturals=laid.black_threes))
        sequences = tuple(
            PlannedSequence(suit, first, last) for suit, first, last in laid.sequences
        )
        sides.append(
            SideHand(
                melds=tuple(melds),
                sequences=sequences,
                hand_points=points(counted_held(end, i)),
                **_common(end, i),
                family=family,
            )
        )
    return Hand(tuple(sides), end.went_out)


FORMS = {"typed": typed_hand, "counted": counted_hand, "meld by meld": meld_by_meld_hand}


def expected_scores(end: EndOfHand) -> tuple[int, ...]:
    """Each side's hand score from its cards, as docs/rules.md §5b-c adds it."""
    scores = []
    for side in (0, 1):
        laid = end.laid[side]
        made = laid.canastas()
        score = points(laid.cards()) + sum(BONUS[kind] * n for kind, n in made.items())
        threes = end.red_threes[side]
        red = ALL_RED_THREES if threes == 6 else RED_THREE * threes
        score += red if sum(made.values()) >= TO_GO_OUT else -red
        if end.went_out == side:
            score += GOING_OUT
        score -= points(counted_held(end, side))
        score -= BLACK_THREE_HELD * black_threes_held(end, side)
        scores.append(score)
    return tuple(scores)


# --- the same hands in the API's words (JSON), typed in again from the README ---------------


def _json_canastas(end: EndOfHand, side: int) -> dict[str, int]:
    """``"canastas"`` as the API names them: natural, mixed, samba (Samba) or escalera and
    bolivia (Bolivia)."""
    made = end.laid[side].canastas()
    canastas = {"natural": made["natural"], "mixed": made["mixed"]}
    canastas[end.book.sequence_kind] = made["sequence"]
    if end.book.bolivia:
        canastas["bolivia"] = made["wild"]
    return canastas


def _json_counts(cards: list[Card]) -> dict[str, int]:
    return dict(Counter(GROUP_OF_VALUE[VALUE[card.rank]] for card in cards))


def _json_melds(laid: Laid) -> list[dict]:
    def wild(cards: tuple[Card, ...]) -> dict[str, int]:
        return {
            "jokers": sum(c.rank == JOKER for c in cards),
            "twos": sum(c.rank == TWO for c in cards),
        }

    melds = [
        {"rank": rank, "naturals": sum(not c.wild for c in cards), **wild(cards)}
        for rank, cards in laid.groups
    ]
    melds += [{"rank": "wild", "naturals": 0, **wild(meld)} for meld in laid.wild_melds]
    if laid.black_threes:
        melds.append({"rank": THREE, "naturals": laid.black_threes})
    return melds


def json_side(end: EndOfHand, side: int, form: str) -> dict:
    """One side's call as a client sends it: ``form`` is "typed", "counted" or "meld by meld"."""
    laid, left = end.laid[side], counted_held(end, side)
    body: dict = {"red_threes": end.red_threes[side]}
    if end.book.bolivia:
        body["black_threes_in_hand"] = black_threes_held(end, side)
    if form == "typed":
        body.update(meld_points=points(laid.cards()), hand_points=points(left))
        body["canastas"] = _json_canastas(end, side)
    elif form == "counted":
        body.update(meld_cards=_json_counts(laid.cards()), hand_cards=_json_counts(left))
        body["canastas"] = _json_canastas(end, side)
    else:
        body["melds"] = _json_melds(laid)
        body["sequences"] = [
            {"suit": suit, "first": first, "last": last} for suit, first, last in laid.sequences
        ]
        body["hand_points"] = points(left)
    return body


def json_hand(end: EndOfHand, form: str) -> dict:
    """The hand as a client posts it, the opening minimum confirmed (a dealt hand does not
    look at it: the table confirms, docs/rules.md §2b)."""
    return {
        "went_out": end.went_out,
        "sides": [json_side(end, side, form) for side in (0, 1)],
        "confirm": ["opening_minimum"],
    }


JSON_FORMS = ("typed", "counted", "meld by meld")
