"""Real hands of Canasta, dealt from shuffled packs: the rule book's second statement.

A hand is played out from a seeded ``random.Random``: the packs of the profile are shuffled,
each player is dealt the profile's cards, red threes are laid and replaced, players draw and
discard turn by turn, and the hand ends when a player goes out (their side holding the
canastas it needs) or when the stock runs out. Every side's melds are then built from its own
players' cards by the rules of docs/rules.md §1, and every player who did not go out keeps at
least one card. Nothing here reads the engine's numbers: the profiles, card values and
bonuses are typed in again from docs/rules.md §1 and §3.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass, field

from scorer.core.hands import CardCounts, Hand, SideHand

# --- the cards (docs/rules.md §1) --------------------------------------------------------------

NATURAL_RANKS = ("4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")  # ranks that meld
WILD = ("joker", "2")
RED_THREE, BLACK_THREE = "red3", "black3"
VALUE = {"joker": 50, "2": 20, "A": 20, BLACK_THREE: 5}
VALUE.update({rank: 10 for rank in ("8", "9", "10", "J", "Q", "K")})
VALUE.update({rank: 5 for rank in ("4", "5", "6", "7")})
GROUP_OF_VALUE = {50: "jokers", 20: "twenty", 10: "ten", 5: "five"}  # CardCounts fields
CANASTA, MELD, MOST_WILD = 7, 3, 3
NATURAL_CANASTA, MIXED_CANASTA, GOING_OUT, CONCEALED = 500, 300, 100, 200
# How often a table lays melds below its opening minimum all the same (§2b: asked, recorded).
SLIPS = 0.25


@dataclass(frozen=True)
class Book:
    """One profile as docs/rules.md §3 states it."""

    profile: str
    players: int
    packs: int
    dealt: int
    to_go_out: int
    draws: int = 1  # cards drawn a turn (two and three players draw 2, discard 1)
    playing_side_size: int = 2  # the team of 3 at five players plays 2 a hand
    target: int = 5000

    def red_threes_score(self, count: int) -> int:
        """100 each; all four 800 (two packs); five 1 000 and all six 1 200 (three packs)."""
        sets = {5: 1000, 6: 1200} if self.packs == 3 else {4: 800}
        return sets.get(count, 100 * count)


BOOKS = {
    book.profile: book
    for book in (
        Book("classic", 4, 2, 11, 1),
        Book("two-player", 2, 2, 15, 2, draws=2),
        Book("three-player", 3, 2, 13, 1, draws=2, target=7500),
        Book("five-player", 5, 2, 11, 1),
        Book("six-player", 6, 3, 13, 2, playing_side_size=3, target=7500),
    )
}


def opening_minimum(total: int, target: int) -> int:
    """docs/rules.md §1's minimum table, with the fifth row at targets of 10 000 and more."""
    if total >= 7500 and target >= 10000:
        return 150
    for start, minimum in ((3000, 120), (1500, 90), (0, 50)):
        if total >= start:
            return minimum
    return 15


# --- the end of a hand ----------------------------------------------------------------------


@dataclass(frozen=True)
class Meld:
    """Cards of one rank (or black threes) laid by a side."""

    rank: str
    cards: tuple[str, ...]

    @property
    def wild(self) -> int:
        return sum(card in WILD for card in self.cards)

    @property
    def is_natural_canasta(self) -> bool:
        return len(self.cards) >= CANASTA and self.wild == 0

    @property
    def is_mixed_canasta(self) -> bool:
        return len(self.cards) >= CANASTA and self.wild > 0


@dataclass(frozen=True)
class SideEnd:
    """What a side has at the end of the hand: melds, cards in each hand, red threes."""

    melds: tuple[Meld, ...]
    hands: tuple[tuple[str, ...], ...]
    red_threes: int

    @property
    def melded(self) -> tuple[str, ...]:
        return tuple(card for meld in self.melds for card in meld.cards)

    @property
    def held(self) -> tuple[str, ...]:
        return tuple(card for hand in self.hands for card in hand)


@dataclass(frozen=True)
class EndOfHand:
    """A played-out hand; ``irregular`` lists sides melding below their minimum (§2b)."""

    sides: tuple[SideEnd, ...]
    went_out: int | None
    concealed: bool
    irregular: tuple[int, ...] = ()


@dataclass
class Seat:
    """A player during the hand: their side and the cards in their hand."""

    side: int
    cards: list[str] = field(default_factory=list)


# --- playing the hand -----------------------------------------------------------------------


def shuffled_packs(book: Book, rng: random.Random) -> list[str]:
    """The profile's packs: 52 cards and 2 jokers each (108 with two, 162 with three)."""
    pack = ["joker"] * 2 + [RED_THREE] * 2 + [BLACK_THREE] * 2
    pack += [rank for rank in ("2", *NATURAL_RANKS) for _suit in range(4)]
    stock = pack * book.packs
    rng.shuffle(stock)
    return stock


def seat_players(book: Book, team_sizes: tuple[int, ...]) -> list[Seat]:
    """Who plays the hand: in a side too large to play whole, one sits out (five players)."""
    playing = [min(size, book.playing_side_size) if size > 1 else 1 for size in team_sizes]
    most = max(playing)
    return [Seat(side) for seat in range(most) for side, n in enumerate(playing) if seat < n]


def draw(seat: Seat, stock: list[str], red_threes: list[int], count: int = 1) -> None:
    """Draw from the stock; a red three drawn is laid at once and replaced."""
    for _ in range(count):
        if stock:
            seat.cards.append(stock.pop())
    lay_red_threes(seat, stock, red_threes)


def lay_red_threes(seat: Seat, stock: list[str], red_threes: list[int]) -> None:
    """Each red three is laid in front of the side and replaced from the stock (§1)."""
    while RED_THREE in seat.cards:
        seat.cards.remove(RED_THREE)
        red_threes[seat.side] += 1
        if stock:
            seat.cards.append(stock.pop())


def deal(book: Book, seats: list[Seat], stock: list[str], red_threes: list[int]) -> None:
    """Each player is dealt the profile's number of cards, then lays their red threes."""
    for seat in seats:
        seat.cards = [stock.pop() for _ in range(book.dealt)]
    for seat in seats:
        lay_red_threes(seat, stock, red_threes)


def discard(seat: Seat, rng: random.Random) -> None:
    """Throw the card least use to the player: the rank they hold fewest of, never a wild."""
    if len(seat.cards) <= 1:
        return
    held = Counter(seat.cards)
    plain = [card for card in seat.cards if card not in WILD] or seat.cards
    fewest = min(held[card] for card in plain)
    seat.cards.remove(rng.choice([card for card in plain if held[card] == fewest]))


def build_melds(cards: list[str], rng: random.Random, *, eager: bool) -> list[Meld]:
    """Melds from a side's cards: one meld per rank, each of 3+ cards with 2+ naturals and at
    most 3 wild cards; wild cards first complete canastas (7+ cards), then join pairs.

    ``eager`` (the side going out) melds every rank it can; other sides leave some in hand.
    """
    naturals = Counter(card for card in cards if card in NATURAL_RANKS)
    wilds = [card for card in cards if card in WILD]
    rng.shuffle(wilds)
    ranks = {r: [r] * n for r, n in naturals.items() if n >= 2 and (eager or rng.random() < 0.8)}
    for meld in ranks.values():  # make mixed canastas: 4 to 6 naturals and wild cards
        missing = CANASTA - len(meld)
        if 0 < missing <= min(MOST_WILD, len(wilds)) and (eager or rng.random() < 0.7):
            meld += [wilds.pop() for _ in range(missing)]
    for meld in ranks.values():  # a pair needs a wild card to make a meld
        if len(meld) == 2 and wilds:
            meld.append(wilds.pop())
    for meld in ranks.values():  # spare wild cards join melds, never a natural canasta
        room = MOST_WILD - sum(card in WILD for card in meld)
        if len(meld) < MELD or (len(meld) >= CANASTA and room == MOST_WILD):
            continue
        while wilds and room > 0 and (eager or rng.random() < 0.5):
            meld.append(wilds.pop())
            room -= 1
    return [Meld(rank, tuple(meld)) for rank, meld in ranks.items() if len(meld) >= MELD]


def meld_black_threes(cards: list[str]) -> list[Meld]:
    """The player going out may meld 3 or 4 black threes, with no wild card (§1)."""
    count = min(cards.count(BLACK_THREE), 4)
    return [Meld(BLACK_THREE, (BLACK_THREE,) * count)] if count >= MELD else []


def take(melds: list[Meld], seats: list[Seat]) -> None:
    """Remove the melded cards from the hands, the first seat's (the one going out) first."""
    for card in (card for meld in melds for card in meld.cards):
        holder = next(seat for seat in seats if card in seat.cards)
        holder.cards.remove(card)


def canastas(melds: list[Meld]) -> int:
    return sum(meld.is_natural_canasta or meld.is_mixed_canasta for meld in melds)


def meld_value(melds: list[Meld]) -> int:
    return sum(VALUE[card] for meld in melds for card in meld.cards)


def go_out(
    book: Book, seat: Seat, seats: list[Seat], minimum: int, rng: random.Random
) -> tuple[list[Meld], bool, bool] | None:
    """The melds with which ``seat`` goes out, whether concealed and whether irregular.

    Going out needs the profile's canastas, every card of the player melded but one discard,
    and (unless concealed: the whole hand melded in one turn, the partners melding nothing)
    melds reaching the side's opening minimum; a table sometimes slips (§2b).
    """
    concealed = rng.random() < 0.3
    mates = [] if concealed else [s for s in seats if s.side == seat.side and s is not seat]
    # Each partner keeps a card: a player who did not go out always holds one.
    pooled = seat.cards + [card for mate in mates for card in mate.cards[1:]]
    melds = build_melds(pooled, rng, eager=True) + meld_black_threes(seat.cards)
    left = Counter(seat.cards)
    left.subtract(card for meld in melds for card in meld.cards)
    if canastas(melds) < book.to_go_out or sum(max(n, 0) for n in left.values()) > 1:
        return None
    irregular = not concealed and meld_value(melds) < minimum
    if irregular and rng.random() > SLIPS:
        return None
    return melds, concealed, irregular


def end_side(
    side: int, seats: list[Seat], minimum: int, rng: random.Random, *, melds_allowed: bool
) -> tuple[list[Meld], bool]:
    """A side that did not go out lays what it can, keeping a card in each hand; melds below
    its minimum are not laid (it could not open), unless the table slipped (§2b)."""
    mine = [seat for seat in seats if seat.side == side]
    if not melds_allowed:
        return [], False
    melds = build_melds([card for seat in mine for card in seat.cards[1:]], rng, eager=False)
    irregular = bool(melds) and meld_value(melds) < minimum
    if irregular and rng.random() > SLIPS:
        return [], False
    return melds, irregular


def play_hand(
    book: Book, team_sizes: tuple[int, ...], minimums: tuple[int, ...], rng: random.Random
) -> EndOfHand:
    """Deal, play turns until a player goes out or the stock runs out, then count."""
    stock = shuffled_packs(book, rng)
    seats = seat_players(book, team_sizes)
    red_threes = [0] * len(team_sizes)
    deal(book, seats, stock, red_threes)
    keep_rate = rng.uniform(0.2, 0.9)  # how often a turn picks up cards (the discard pile)
    melds: dict[int, list[Meld]] = {}
    went_out, concealed, irregular = None, False, []
    while went_out is None and stock:
        for seat in seats:
            draw(seat, stock, red_threes, book.draws)
            outcome = go_out(book, seat, seats, minimums[seat.side], rng)
            if outcome is not None and rng.random() < 0.7:
                found, concealed, slipped = outcome
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
    for side in range(len(team_sizes)):
        if side == went_out:
            continue
        # A side that went out concealed had not melded before; the others may have.
        found, slipped = end_side(side, seats, minimums[side], rng, melds_allowed=True)
        melds[side] = found
        irregular += [side] if slipped else []
        take(found, [seat for seat in seats if seat.side == side])
    return EndOfHand(
        sides=tuple(
            SideEnd(
                tuple(melds[side]),
                tuple(tuple(s.cards) for s in seats if s.side == side),
                red_threes[side],
            )
            for side in range(len(team_sizes))
        ),
        went_out=went_out,
        concealed=concealed and went_out is not None,
        irregular=tuple(sorted(irregular)),
    )


# --- what the table calls out, and what it scores ------------------------------------------


def points(cards: tuple[str, ...]) -> int:
    return sum(VALUE[card] for card in cards)


def count(cards: tuple[str, ...]) -> CardCounts:
    """Cards counted by value group: jokers, the 20 group, the 10 group, the 5 group."""
    groups = Counter(GROUP_OF_VALUE[VALUE[card]] for card in cards)
    return CardCounts(**groups)


def _canasta_counts(side: SideEnd) -> dict[str, int]:
    return {
        "natural_canastas": sum(meld.is_natural_canasta for meld in side.melds),
        "mixed_canastas": sum(meld.is_mixed_canasta for meld in side.melds),
        "red_threes": side.red_threes,
    }


def typed_hand(end: EndOfHand) -> Hand:
    """The hand as points typed in: meld points and points left in hand."""
    sides = tuple(
        SideHand(meld_points=points(s.melded), hand_points=points(s.held), **_canasta_counts(s))
        for s in end.sides
    )
    return Hand(sides, end.went_out, end.concealed)


def counted_hand(end: EndOfHand) -> Hand:
    """The hand as cards counted by value group, melded and left in hand."""
    sides = tuple(
        SideHand(meld_cards=count(s.melded), hand_cards=count(s.held), **_canasta_counts(s))
        for s in end.sides
    )
    return Hand(sides, end.went_out, end.concealed)


def expected_scores(book: Book, end: EndOfHand) -> tuple[int, ...]:
    """Each side's hand score, from the cards, as docs/rules.md §1 says."""
    scores = []
    for index, side in enumerate(end.sides):
        score = points(side.melded) - points(side.held)
        score += sum(
            NATURAL_CANASTA if meld.is_natural_canasta else MIXED_CANASTA
            for meld in side.melds
            if len(meld.cards) >= CANASTA
        )
        red = book.red_threes_score(side.red_threes)
        score += red if side.melds else -red  # against a side that melded nothing
        if end.went_out == index:
            score += CONCEALED if end.concealed else GOING_OUT
        scores.append(score)
    return tuple(scores)
