"""How numbers, rules and names are shown: the one home of display logic.

Pages, score sheets (PDF) and the rules page all use these functions (the templates through
the Jinja filters registered by :func:`init_app`), so a number or a label reads the same
everywhere. Negative numbers carry the true minus sign U+2212, never a hyphen.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from flask import Flask
from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l
from flask_babel import ngettext, pgettext
from markupsafe import Markup, escape

from scorer.core import limits
from scorer.core.errors import N_
from scorer.core.families import SUITS, WILD_RANK, RuleFamily, SpecialHand
from scorer.core.game import GameState, Side, game_title  # noqa: F401  (game_title: core's)
from scorer.core.hands import score_parts
from scorer.core.limits import NAME_MAX
from scorer.core.rules import VALUE_GROUPS, MinimumRow, RuleProfile, effective_rules
from scorer.core.seatings import Seating
from scorer.web.i18n import (
    HOUSE_RULE_CHOICE_LABELS,
    HOUSE_RULE_LABELS,
    SCORE_PART_LABELS,
    SPECIAL_HAND_LABELS,
    number,
)

# The cards of each value group, one wording for the hand form, the sheets and the rules.
CARD_GROUP_LABELS = {
    "jokers": _l("Jokers"),
    "twenty": _l("Aces, twos"),
    "ten": _l("K to 8"),
    "five": _l("7 to 3"),
}


# How the forms name each rank (the values stay those of the JSON: "K", "3", "red-3").
RANK_LABELS = {
    "J": N_("Jack"),
    "Q": N_("Queen"),
    "K": N_("King"),
    "A": N_("Ace (A)"),
    "3": N_("Black three"),
    "red-3": N_("Red three"),
    # A meld of wild cards only (Modern American's), as a meld row's box also reads it.
    WILD_RANK: N_("Wild"),
}


def rank_letters() -> dict[str, str]:
    """The letter a rank is typed with in the reader's language ("R" for the king in French),
    and a meld of wild cards only ("W", "L" for libre in French); digits stay digits, the
    black three is "3"."""
    return {
        "J": pgettext("letter of the jack", "J"),
        "Q": pgettext("letter of the queen", "Q"),
        "K": pgettext("letter of the king", "K"),
        "A": pgettext("letter of the ace", "A"),
        WILD_RANK: pgettext("letter of a meld of wild cards only", "W"),
    }


def rank_letter(rank: str) -> str:
    """How a meld row shows a stored rank: its letter in the reader's language."""
    return rank_letters().get(rank, rank)


def typed_rank(text: str, ranks: Sequence[str]) -> str | None:
    """The core's rank a meld row's box means, or None: the core's own value (K, 10, 3), the
    letter of the reader's language (R, D, V in French) or the rank's name (Roi, Dame), in
    any case. The letters of the reader's language win over the core's (none clash today)."""
    typed = text.strip().casefold()
    for rank, letter in rank_letters().items():
        if typed == letter.casefold():
            return rank
    for rank in ranks:
        name = _(RANK_LABELS[rank]) if rank in RANK_LABELS else rank
        if typed in (rank.casefold(), name.casefold()):
            return rank
    return None


# Each suit's sign, read in any language.
SUIT_SIGNS = {"clubs": "\u2663", "diamonds": "\u2666", "hearts": "\u2665", "spades": "\u2660"}


def suit_letters() -> dict[str, str]:
    """The letter a sequence's suit is typed with in the reader's language (C, D, H, S; T,
    K, C, P in French for trèfle, carreau, cœur, pique)."""
    return {
        "clubs": pgettext("letter of clubs", "C"),
        "diamonds": pgettext("letter of diamonds", "D"),
        "hearts": pgettext("letter of hearts", "H"),
        "spades": pgettext("letter of spades", "S"),
    }


def suit_letter(suit: str) -> str:
    """How a sequence row shows a stored suit: its letter in the reader's language."""
    return suit_letters().get(suit, suit)


def typed_suit(text: str) -> str | None:
    """The core's suit a sequence row's box means, or None: the letter of the reader's
    language, the suit's sign (♥) or the core's own value (hearts), in any case."""
    typed = text.strip().casefold()
    for suit, letter in suit_letters().items():
        if typed == letter.casefold():
            return suit
    for suit in SUITS:
        sign = SUIT_SIGNS[suit]
        if typed in (suit, sign, sign + "\ufe0f"):
            return suit
    return None


def rank_choices(ranks: Sequence[str]) -> list[tuple[str, str]]:
    """(value, label) of each rank, in the reader's language (digits stay digits)."""
    return [(rank, _(RANK_LABELS[rank]) if rank in RANK_LABELS else rank) for rank in ranks]


def card_group_label(group: str) -> str:
    return str(CARD_GROUP_LABELS[group])


def card_values(profile: RuleProfile) -> list[tuple[str, int]]:
    """(label, points of each card) per value group, in the rule book's order."""
    return [(card_group_label(group), profile.card_values.of(group)) for group in VALUE_GROUPS]


def points(value: int) -> str:
    """A number in the reader's locale, a negative one with the true minus sign."""
    return number(value)


def signed(value: int) -> str:
    """A hand score with its sign: +1,200, −35, 0 (locale digits)."""
    return "+" + number(value) if value > 0 else number(value)


def spoken(value: int) -> str:
    """A number as a screen reader should say it: "minus 35" rather than a dash."""
    return _("minus %(n)s", n=number(-value)) if value < 0 else number(value)


def signed_html(value: int) -> Markup:
    """A signed score whose accessible name says "minus" for a negative one."""
    if value >= 0:
        return Markup(escape(signed(value)))
    return Markup('<span aria-label="{}">{}</span>').format(spoken(value), signed(value))


def side_label(side: Side, index: int) -> str:
    return side.name or _("Side %(n)s", n=index + 1)


def minimum_row_text(rows: Sequence[Sequence[int | None]], index: int) -> str:
    """One row of a minimum table: "from 1,500: 90", or "below 0: 15" for the first."""
    start, minimum = rows[index]
    if start is not None:
        return _("from %(start)s: %(minimum)s", start=number(start), minimum=number(minimum))
    if index + 1 < len(rows):
        return _(
            "below %(start)s: %(minimum)s",
            start=number(rows[index + 1][0]),
            minimum=number(minimum),
        )
    return _("any total: %(minimum)s", minimum=number(minimum))


def minimum_range(table: Sequence[MinimumRow], index: int) -> str:
    """The running totals a minimum-table row covers, e.g. "1 500 to 2 995".

    The first row also covers every total below it, whatever its own start.
    """
    start = None if index == 0 else table[index][0]
    following = table[index + 1][0] if index + 1 < len(table) else None
    if start is None and following is None:
        return _("any total")
    if start is None:
        if table[0][0] is None:
            return _("below %(total)s", total=number(following))
        return _("up to %(total)s", total=number(following - 5))
    if following is None:
        return _("%(total)s and more", total=number(start))
    # Scores are multiples of 5: the row ends one step before the next one starts.
    return _("%(low)s to %(high)s", low=number(start), high=number(following - 5))


def minimum_ranges(profile: RuleProfile) -> list[tuple[str, str]]:
    """The opening-minimum table as (running totals, minimum) texts."""
    table = profile.minimum_table()
    return [(minimum_range(table, i), number(row[1])) for i, row in enumerate(table)]


def special_hand_label(hand: SpecialHand) -> str:
    """A special hand's name: the club's own, else the scorer's words for its key (the key
    itself for one sent through the API without a name)."""
    return hand.name or str(SPECIAL_HAND_LABELS.get(hand.key, hand.key))


def special_hands_text(hands: Sequence[SpecialHand], separator: str = ", ") -> str:
    """A game's special hands in a line: "Straight 3,000, Pairs without wild cards 2,500"."""
    return separator.join(f"{special_hand_label(hand)} {number(hand.value)}" for hand in hands)


def house_rule_lines(
    profile: RuleProfile, *, minimums: str = "rows", separator: str = ", "
) -> list[tuple[str, str]]:
    """(label, value) of each rule a game changed from its variant.

    The minimum table is shown as its rows ("from 1,500: 90"), as ranges ("1 500 to 2 995:
    90") or left out (``minimums=None``: a page that shows the whole table instead).
    """
    rules = effective_rules(profile)
    lines = []
    for key in profile.house_rules:
        value = rules[key]
        if key == "minimums":
            if minimums is None:
                continue
            if minimums == "ranges":
                shown = separator.join(f"{low}: {m}" for low, m in minimum_ranges(profile))
            else:
                shown = separator.join(minimum_row_text(value, i) for i in range(len(value)))
        elif key in HOUSE_RULE_CHOICE_LABELS:
            shown = str(HOUSE_RULE_CHOICE_LABELS[key].get(value, value))
        elif key == "special_hands":
            shown = special_hands_text(profile.special_hands, separator) or _("none")
        else:
            shown = number(value)
        lines.append((str(HOUSE_RULE_LABELS.get(key, key)), shown))
    return lines


def game_status(winner: str | None, tied: bool, hands: int | None = None) -> str:
    """A game's result in a few words, for a list of games: "Won by Ann", "Tied: one more
    hand", else how many hands were played ("In progress" when the count is not shown)."""
    if winner is not None:
        return _("Won by %(name)s", name=winner)
    if tied:
        return _("Tied: one more hand")
    if hands is None:
        return _("In progress")
    return ngettext("%(num)s hand played", "%(num)s hands played", hands)


def result_line(state: GameState) -> str:
    """The game's outcome in one sentence (a score sheet's foot)."""
    sides = state.table.sides
    if state.winner is not None:
        return _(
            "Winner: %(side)s with %(total)s points",
            side=side_label(sides[state.winner], state.winner),
            total=points(state.totals[state.winner]),
        )
    if state.shared_by:
        return _(
            "Shared win: %(sides)s with %(total)s points",
            sides=", ".join(side_label(sides[i], i) for i in state.shared_by),
            total=points(state.totals[state.shared_by[0]]),
        )
    if state.tied:
        return _("Tied at the top: one more hand")
    return _("In progress")


# Hands a game's page shows with their breakdowns, newest first, as a club's page shows its
# games (50 at a time): a page costs the same, and weighs the same, whatever the game's length.
# Earlier hands are a plain link away (?hands=2, 3...).
HANDS_PER_PAGE = 50


@dataclass(frozen=True)
class HandBlock:
    """The hands one page of a game shows: its `page` (1, the newest) of `pages`, hands
    `first` to `last` (numbers from 1; none, first > last, in a game without hands) of the
    game's `count`."""

    page: int
    pages: int
    first: int
    last: int
    count: int

    @property
    def newest(self) -> bool:
        return self.page == 1


def hand_pages(count: int) -> int:
    """How many pages a game of `count` hands takes (one even without hands)."""
    return max(1, -(-count // HANDS_PER_PAGE))


def hand_block(count: int, page: int = 1) -> HandBlock:
    """Page `page` of a game of `count` hands, newest first; a page past the last is the last
    (a page kept open while hands were removed on another phone still shows the oldest)."""
    pages = hand_pages(count)
    page = min(page, pages)
    last = count - (page - 1) * HANDS_PER_PAGE
    return HandBlock(page, pages, max(1, last - HANDS_PER_PAGE + 1), last, count)


def page_of_hand(count: int, number: int) -> int:
    """The page of a game of `count` hands that shows hand `number`."""
    return min(hand_pages(count), max(1, (count - number) // HANDS_PER_PAGE + 1))


# The parts every game's breakdown shows, whatever the hand.
CLASSIC_PARTS = frozenset({"cards", "canastas", "red_threes", "going_out", "hand"})


def score_rows(family: RuleFamily) -> list[tuple[str, str, bool]]:
    """A breakdown's rows in a game of this family: (part, label, always shown); the parts
    only some families have are shown when a side has them (a special hand, a penalty), and
    the table's adjustment is left out (a breakdown shows it only when made)."""
    return [
        (part, str(SCORE_PART_LABELS[part]), part in CLASSIC_PARTS)
        for part in score_parts(family)
        if part != "adjustment"
    ]


def wait_words(seconds: int) -> str:
    """How long to wait, as a person says it: seconds under a minute, minutes up to an hour
    and a half, else hours; always rounded up (asking again early meets the same refusal)."""
    if seconds < 60:
        return ngettext("%(num)s second", "%(num)s seconds", max(1, seconds))
    if seconds <= 90 * 60:
        return ngettext("%(num)s minute", "%(num)s minutes", -(-seconds // 60))
    return ngettext("%(num)s hour", "%(num)s hours", -(-seconds // 3600))


def init_app(app: Flask) -> None:
    app.jinja_env.filters.update(signed_html=signed_html)
    # limits: the templates' maxlength and ranges come from the one table the server enforces;
    # name_max: each form says the longest name it takes (the box never cuts what is typed).
    app.jinja_env.globals.update(
        points=points,
        game_status=game_status,
        limits=limits,
        name_max=NAME_MAX,
        score_rows=score_rows,
        wait_words=wait_words,
    )


def seating_label(seating: Seating) -> str:
    """How a seating sits the table, in plain words: "3 players, each on their own"."""
    sizes = seating.team_sizes
    if seating.alone:
        return _("%(num)s players, each on their own", num=seating.players)
    if len(set(sizes)) == 1:
        return _(
            "%(players)s players in %(sides)s teams of %(size)s",
            players=seating.players,
            sides=len(sizes),
            size=sizes[0],
        )
    return _(
        "%(players)s players: a team of %(big)s and a team of %(small)s",
        players=seating.players,
        big=max(sizes),
        small=min(sizes),
    )
