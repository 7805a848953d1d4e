"""The rules page: card values, bonuses, minimums and variants, in our own words."""

from __future__ import annotations

from dataclasses import dataclass

from flask import Blueprint, render_template, request
from flask_babel import gettext, ngettext
from flask_babel import lazy_gettext as _l

from scorer import store
from scorer.core.families import DEFAULT_FAMILY, FAMILIES, RuleFamily, SequenceRules
from scorer.core.rules import (
    PROFILES,
    Layout,
    RuleProfile,
    get_profile,
    house_rule_fields,
    profile_of,
)
from scorer.web import display
from scorer.web.failures import load_game
from scorer.web.i18n import (
    FAMILY_LABELS,
    HOUSE_RULE_CHOICE_LABELS,
    HOUSE_RULE_LABELS,
    PENALTY_LABELS,
    PROFILE_LABELS,
    SHORT_PROFILE_LABELS,
    number,
)

bp = Blueprint("rulebook", __name__)

# The rule book's words for what only some games of the family have (the games' and their
# special hands' names are scorer.web.i18n's, one table for every page).
KIND_LABELS = {
    "natural": _l("Natural canasta (no wild card)"),
    "mixed": _l("Mixed canasta (one or two wild cards)"),
    "sevens": _l("Canasta of sevens (never a wild card)"),
    "aces": _l("Canasta of natural aces"),
    "wild": _l("Canasta of seven wild cards, one to three of them jokers"),
    "wild_four_jokers": _l("Canasta of seven wild cards: all four jokers and three twos"),
    "deuces": _l("Canasta of seven twos"),
    "samba": _l("Samba: seven cards of one suit in sequence, closed"),
    "escalera": _l("Escalera: seven cards of one suit in sequence, closed"),
    "bolivia": _l("Bolivia: seven wild cards, closed"),
}
# The name of a kind of canasta going out takes one of (Bolivia's escalera), as a sentence
# names it.
GOING_OUT_KIND_NAMES = {"escalera": _l("Escalera")}
# A kind of canasta laid as a sequence, as a sentence names one ("seven make a samba").
SEQUENCE_KIND_WORDS = {"samba": _l("a samba"), "escalera": _l("an escalera")}
SIGN_WORDS = {1: _l("added"), -1: _l("taken off"), 0: _l("not counted")}
# The cards of a rank a family keeps free of wild cards, as a sentence names them ("a meld of
# sevens"); a rank without words here is named by its digit.
RANK_PLURALS = {"7": _l("sevens")}


def family_label(key: str) -> str:
    return str(FAMILY_LABELS.get(key, key))


@dataclass(frozen=True)
class FamilySummary:
    """One game of the family as the rule book shows it: every number from its data."""

    key: str
    label: str
    players: tuple[str, ...]  # each seating's words
    target: int
    packs: int
    cards_dealt: int
    card_values: tuple[tuple[str, int], ...]
    canastas: tuple[tuple[str, int], ...]  # (words, bonus)
    threes: tuple[tuple[int, int], ...]  # (count of one colour, points)
    threes_by_colour: bool
    swing: tuple[tuple[int, str, str, str], ...]  # (canastas, bonuses, cards, threes)
    penalties: tuple[tuple[str, int], ...]
    going_out: int
    concealed_going_out: int
    canastas_to_go_out: int
    minimum_rows: tuple[MinimumRow, ...]
    minimums_by_hand: tuple[int, ...]
    special_hands: tuple[tuple[str, int], ...]
    most_wild: int
    most_cards: int | None
    opening_naturals: int
    pile_top_counts: bool
    refusals: tuple[str, ...]  # what the scorer refuses in this game, sentence by sentence
    # Samba and Bolivia: sequences of (fewest, most) cards, their canasta's words; melds of
    # wild cards only up to so many (0: none); groups grow past a canasta.
    sequences: tuple[int, int] | None = None
    wild_meld_cards: int = 0
    draws: int = 1
    # Whom red threes count against in the book ("a side without the canastas to go out"),
    # where it is not Classic's side that melded nothing.
    red_threes_against: str | None = None
    # The kind going out takes one canasta of (Bolivia's escalera), in words.
    going_out_needs: str | None = None
    # Each black three left in a hand at its end, taken off (Bolivia: 100).
    black_three_in_hand: int = 0


def family_summary(
    family: RuleFamily,
    profile: RuleProfile | None = None,
    totals: list[tuple[str, int]] | None = None,
) -> FamilySummary:
    """A game of the family as the book has it at its first seating; or, given a game's
    rules (its target, seating and house rules), that game's numbers, each side's total
    marking its row of the minimum table."""
    seatings = (
        tuple(profile.layouts)
        if profile
        else tuple(layout for s in family.seatings for layout in s.layouts)
    )
    profile = profile or profile_of(family, family.seatings[0])
    threes = tuple(
        (n, profile.red_threes_score(n)) for n in range(1, profile.red_threes_in_packs + 1)
    )
    swing = tuple(
        (
            count,
            str(SIGN_WORDS[signs.bonuses]),
            str(SIGN_WORDS[signs.cards]),
            str(SIGN_WORDS[signs.threes]),
        )
        for count, signs in enumerate(family.swing)
    )
    return FamilySummary(
        key=family.key,
        label=family_label(family.key),
        players=tuple(seating_text(layout) for layout in seatings),
        target=profile.target,
        packs=profile.packs,
        cards_dealt=profile.cards_dealt,
        card_values=tuple(display.card_values(profile)),
        canastas=tuple(
            (str(KIND_LABELS.get(k.key, k.key)), profile.canasta_bonus(k.key))
            for k in family.canastas
        ),
        threes=threes,
        threes_by_colour=family.black_threes_bonus,
        swing=swing,
        penalties=tuple((str(PENALTY_LABELS.get(k, k)), v) for k, v in family.penalties_taken),
        going_out=profile.going_out,
        concealed_going_out=profile.concealed_going_out,
        canastas_to_go_out=profile.canastas_to_go_out,
        minimum_rows=tuple(minimum_rows(profile, totals)),
        minimums_by_hand=family.minimums_by_hand,
        # The game's own list (a club's) when given a game's rules, else the book's.
        special_hands=tuple(
            (display.special_hand_label(hand), hand.value) for hand in profile.special_hands
        ),
        most_wild=family.meld.max_wild,
        most_cards=family.meld.most_cards,
        opening_naturals=family.meld.opening_naturals,
        pile_top_counts=family.meld.pile_top_counts,
        refusals=family_refusals(family, profile),
        sequences=(
            None
            if family.sequences is None
            else (family.sequences.min_cards, family.sequences.max_cards)
        ),
        wild_meld_cards=family.meld.wild_meld_cards,
        draws=family.draws,
        red_threes_against=_red_threes_against(family),
        going_out_needs=(
            str(GOING_OUT_KIND_NAMES.get(family.going_out_needs[0], family.going_out_needs[0]))
            if family.going_out_needs
            else None
        ),
        black_three_in_hand=family.black_three_in_hand,
    )


def _red_threes_against(family: RuleFamily) -> str | None:
    """Whom the family's book has red threes count against, in words, where that is not the
    default game's (a side that melded nothing); None where it is, or threes swing."""
    whom = family.red_threes_against[0]
    if family.swing or whom == DEFAULT_FAMILY.red_threes_against[0]:
        return None
    return str(HOUSE_RULE_CHOICE_LABELS["red_threes_count_against"].get(whom, whom))


def family_refusals(family: RuleFamily, profile: RuleProfile) -> tuple[str, ...]:
    """What the scorer refuses in a game of this family (docs/rules.md §5a's list for Modern
    American), each sentence's numbers from the family's data and the game's packs."""
    meld, packs = family.meld, profile.packs
    if family.black_threes_bonus:
        threes = gettext(
            "Threes of one colour never outnumber those in the packs: at most %(red)s red "
            "threes and %(black)s black threes with %(packs)s packs.",
            red=profile.red_threes_in_packs,
            black=meld.black_threes_a_pack * packs,
            packs=packs,
        )
    else:
        threes = gettext(
            "Red threes never outnumber those in the packs: at most %(red)s with %(packs)s packs.",
            red=profile.red_threes_in_packs,
            packs=packs,
        )
    lines = [
        threes,
        gettext(
            "The natural cards of one rank, in every side's melds together, never outnumber "
            "those in the packs: at most %(count)s with %(packs)s packs.",
            count=meld.cards_a_rank * packs,
            packs=packs,
        ),
        *(
            gettext(
                "A meld of %(ranks)s never holds a wild card, so neither does a canasta of "
                "%(ranks)s.",
                ranks=RANK_PLURALS.get(rank, rank),
            )
            for rank in meld.natural_only_ranks
        ),
        gettext(
            "A meld or a canasta of one rank holds at least %(naturals)s natural cards and at "
            "most %(wild)s wild cards.",
            naturals=meld.min_naturals,
            wild=meld.max_wild,
        ),
        ngettext(
            "Going out takes %(num)s canasta: a hand where a side went out with none is refused.",
            "Going out takes %(num)s canastas: a hand where a side went out with fewer is refused.",
            profile.canastas_to_go_out,
        ),
    ]
    if family.going_out_needs:
        lines.append(
            gettext(
                "Going out also takes %(kind)s among them: a hand where a side went out "
                "without one is refused.",
                kind=SEQUENCE_KIND_WORDS.get(family.going_out_needs[0], family.going_out_needs[0]),
            )
        )
    if family.sequences:
        lines.append(sequences_refusal(family.sequences))
    if family.special_hands:
        lines.append(
            gettext(
                "A special hand is only for a side that melded nothing, and that side is the "
                "one that went out."
            )
        )
    lines.append(counted_melds_refusal(family))
    return tuple(lines)


def sequences_refusal(sequences: SequenceRules) -> str:
    """The sentence of a sequence's bounds (Samba, Bolivia), from the family's data."""
    return gettext(
        "A sequence is %(least)s to %(most)s cards of one suit in order, from %(low)s up to "
        "%(high)s, and never holds a wild card; %(most)s make %(kind)s, closed: no card is "
        "added to it.",
        least=sequences.min_cards,
        most=sequences.max_cards,
        low=display.rank_letter(sequences.ranks[0]),
        high=display.rank_letter(sequences.ranks[-1]),
        kind=SEQUENCE_KIND_WORDS.get(sequences.canasta, sequences.canasta),
    )


def counted_melds_refusal(family: RuleFamily) -> str:
    """The sentence of counted melded cards that cannot be laid down as the declared melds."""
    meld = family.meld
    if meld.most_cards:
        sentence = gettext(
            "Counted melded cards can be laid down as the canastas and melds declared: each "
            "meld is %(least)s to %(most)s cards of one rank, with at least %(naturals)s "
            "natural cards and at most %(wild)s wild cards.",
            least=meld.min_cards,
            most=meld.most_cards,
            naturals=meld.min_naturals,
            wild=meld.max_wild,
        )
    else:
        sentence = gettext(
            "Counted melded cards can be laid down as the canastas and melds declared: each "
            "meld is at least %(least)s cards of one rank, with at least %(naturals)s natural "
            "cards and at most %(wild)s wild cards.",
            least=meld.min_cards,
            naturals=meld.min_naturals,
            wild=meld.max_wild,
        )
    if meld.wild_never_counts_alone:
        return sentence
    most = meld.wild_meld_cards or meld.most_cards or meld.canasta_cards
    wild = gettext(
        "A meld of wild cards only is %(least)s to %(most)s jokers and twos.",
        least=meld.min_cards,
        most=most,
    )
    return f"{sentence} {wild}"


def other_families() -> list[FamilySummary]:
    """Every game a table may choose besides the default one the rule book describes in full
    (a family still only in the core, not yet choosable, has no page of its own)."""
    return [family_summary(f) for f in FAMILIES.values() if f is not DEFAULT_FAMILY]


# The targets tables choose most, whatever the variant.
COMMON_TARGETS = (5000, 10000)


@dataclass(frozen=True)
class MinimumRow:
    """One row of the minimum table, with the sides of a game whose total falls in it."""

    start: int | None
    end: int | None
    minimum: int
    sides: tuple[tuple[str, int], ...] = ()

    @property
    def current(self) -> bool:
        return bool(self.sides)


@dataclass(frozen=True)
class Variant:
    """One line of the variants table."""

    key: str
    short_label: str
    seatings: tuple[tuple[str, int], ...]
    packs: int
    cards_dealt: int
    canastas_to_go_out: int
    red_threes: tuple[str, ...]
    sits_out: bool


def minimum_rows(
    profile: RuleProfile, totals: list[tuple[str, int]] | None = None
) -> list[MinimumRow]:
    """The profile's minimum table; each side's total marks the row that applies to it."""
    table = profile.minimum_table()
    rows = []
    for index, (start, minimum) in enumerate(table):
        following = table[index + 1][0] if index + 1 < len(table) else None
        end = None if following is None else following - 5  # scores move in steps of 5
        sides = tuple(
            (name, total)
            for name, total in totals or ()
            if profile.minimum_row_index(total) == index
        )
        rows.append(MinimumRow(start, end, minimum, sides))
    return rows


def seating_text(layout: Layout) -> str:
    """How a layout seats its players: "2 teams of 2", "3 players, each alone"..."""
    sizes = layout.team_sizes
    if all(size == 1 for size in sizes):
        return gettext("%(players)s players, each alone", players=len(sizes))
    if len(set(sizes)) == 1:
        return ngettext(
            "%(num)s team of %(size)s", "%(num)s teams of %(size)s", len(sizes), size=sizes[0]
        )
    *first, last = [str(size) for size in sizes]
    return gettext("teams of %(first)s and %(last)s", first=", ".join(first), last=last)


def red_threes_text(profile: RuleProfile) -> tuple[str, ...]:
    """Each red three's value, then the counts that score a set value."""
    parts = [gettext("%(points)s each", points=number(profile.red_three))]
    for count, points in sorted(profile.red_three_sets):
        if count <= profile.red_threes_in_packs:
            parts.append(
                gettext("%(count)s of them: %(points)s", count=count, points=number(points))
            )
    return tuple(parts)


def variants() -> list[Variant]:
    return [
        Variant(
            key=profile.key,
            short_label=str(SHORT_PROFILE_LABELS.get(profile.key, profile.key)),
            seatings=tuple(
                (seating_text(layout), layout.target) for layout in profile.allowed_layouts()
            ),
            packs=profile.packs,
            cards_dealt=profile.cards_dealt,
            canastas_to_go_out=profile.canastas_to_go_out,
            red_threes=red_threes_text(profile),
            sits_out=any(
                size > profile.playing_side_size
                for layout in profile.layouts
                for size in layout.team_sizes
            ),
        )
        for profile in PROFILES.values()
    ]


def _game_from_query() -> store.ReplayedGame | None:
    game_id = request.args.get("game")
    if not game_id:
        return None
    return load_game(game_id)


@bp.get("/rules")
def rules() -> str:
    """The rule book; opened from a game, its minimum table and each side's row."""
    game = _game_from_query()
    profile = game.table.profile if game else get_profile(None)
    totals = (
        [
            (side.name, total)
            for side, total in zip(game.table.sides, game.state.totals, strict=True)
        ]
        if game
        else None
    )
    # The page tells the default game in full; a game of another family is told by its
    # family's own section, with that game's numbers, and none of the default's sentences.
    in_full = profile.family is DEFAULT_FAMILY
    families = other_families() if in_full else [family_summary(profile.family, profile, totals)]
    return render_template(
        "rules/rules.html",
        game=game,
        in_full=in_full,
        profile=profile,
        profile_label=PROFILE_LABELS.get(profile.key, profile.key),
        card_values=display.card_values(profile),
        minimum_rows=minimum_rows(profile, totals),
        high_target=profile.high_target,
        high_row=profile.high_minimum_row,
        variants=variants(),
        # Passed as data: Jinja folds a filter applied to a literal at compile time, in
        # whichever language the first reader used.
        common_targets=COMMON_TARGETS,
        house_rule_labels=[
            HOUSE_RULE_LABELS.get(key, key) for key in house_rule_fields(profile.family)
        ],
        game_house_rules=display.house_rule_lines(profile, minimums=None) if game else [],
        game_minimums_changed=bool(game and "minimums" in profile.house_rules),
        tie_rule=HOUSE_RULE_CHOICE_LABELS["tie"][profile.tie] if game else None,
        families=families,
    )
