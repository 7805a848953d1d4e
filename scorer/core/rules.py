"""Rule profiles of Canasta: every number of the rule book, as data.

A profile never branches on its own name: the variants differ only in the values of their
fields. House rules are applied with :func:`with_house_rules`, which returns a new profile.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from functools import cached_property
from typing import Any

from scorer.core.errors import N_, RuleError

# Card value groups a player can count at the table (red threes are bonuses, not cards).
VALUE_GROUPS: tuple[str, ...] = ("jokers", "twenty", "ten", "five")


@dataclass(frozen=True)
class CardValues:
    """Points of each value group: jokers, aces and twos, K to 8, 7 to 4 and black threes."""

    jokers: int = 50
    twenty: int = 20
    ten: int = 10
    five: int = 5

    def of(self, group: str) -> int:
        return int(getattr(self, group))


@dataclass(frozen=True)
class PackContents:
    """How many cards of each value group one pack (52 cards + 2 jokers) holds."""

    jokers: int = 2
    twenty: int = 8
    ten: int = 24
    five: int = 18
    red_threes: int = 2

    def of(self, group: str) -> int:
        return int(getattr(self, group))


@dataclass(frozen=True)
class Layout:
    """One way to seat a table: the size of each side, and the target it plays to."""

    team_sizes: tuple[int, ...]
    target: int

    @property
    def players(self) -> int:
        return sum(self.team_sizes)


# A minimum table row: (from_total, minimum). The first row's from_total is None: it covers
# every total below the second row ("below 0").
MinimumRow = tuple[int | None, int]


@dataclass(frozen=True)
class RuleProfile:
    """Everything the scorer needs to know about one way of playing Canasta."""

    key: str
    players: int
    layouts: tuple[Layout, ...]
    packs: int = 2
    cards_dealt: int = 11
    canastas_to_go_out: int = 1
    target: int = 5000
    natural_canasta: int = 500
    mixed_canasta: int = 300
    red_three: int = 100
    # Counts of red threes that score a set value instead of count x red_three.
    red_three_sets: tuple[tuple[int, int], ...] = ((4, 800),)
    going_out: int = 100
    concealed_going_out: int = 200
    minimums: tuple[MinimumRow, ...] = ((None, 15), (0, 50), (1500, 90), (3000, 120))
    # With a target at or above high_target, the minimum table gains high_minimum_row.
    high_target: int = 10000
    high_minimum_row: MinimumRow = (7500, 150)
    custom_minimums: bool = False
    # Sitting out in turn happens in a side larger than this (the team of 3 at five players).
    playing_side_size: int = 2
    # A game of N hands (a tournament round): it ends after hand N, not at the target (§3).
    fixed_hands: int | None = None
    card_values: CardValues = field(default_factory=CardValues)
    pack: PackContents = field(default_factory=PackContents)
    house_rules: tuple[str, ...] = ()

    @property
    def red_threes_in_packs(self) -> int:
        return self.pack.red_threes * self.packs

    @cached_property
    def card_value_of_packs(self) -> int:
        """Total card value of every card in the packs (590 a pack)."""
        per_pack = sum(self.card_values.of(g) * self.pack.of(g) for g in VALUE_GROUPS)
        return per_pack * self.packs

    def cards_in_packs(self, group: str) -> int:
        return self.pack.of(group) * self.packs

    def red_threes_score(self, count: int) -> int:
        """Score of a side's red threes (before the penalty for melding nothing)."""
        return self._red_three_sets.get(count, count * self.red_three)

    # Worked out once per profile: a long game's replay asks for each hand.
    @cached_property
    def _red_three_sets(self) -> dict[int, int]:
        return dict(self.red_three_sets)

    @cached_property
    def _minimum_table(self) -> tuple[MinimumRow, ...]:
        # A table that wrote its own minimum table keeps it as written.
        if self.target >= self.high_target and not self.custom_minimums:
            return tuple(sorted(self.minimums + (self.high_minimum_row,), key=_row_order))
        return self.minimums

    def all_red_threes(self) -> int:
        return self.red_threes_score(self.red_threes_in_packs)

    def minimum_table(self) -> tuple[MinimumRow, ...]:
        return self._minimum_table

    def opening_minimum(self, total: int) -> int:
        """The minimum card value of a side's first meld, from its total before the hand."""
        # A house table whose first row starts at a total (not "below") also covers the
        # totals under it: RULES.md is silent, and the lowest row is the kindest reading.
        table = self._minimum_table
        minimum = table[0][1]
        for start, value in table:
            if start is None or total >= start:
                minimum = value
        return minimum

    def minimum_row_index(self, total: int) -> int:
        """Which row of the minimum table applies to a total (for highlighting it)."""
        index = 0
        for i, (start, _value) in enumerate(self.minimum_table()):
            if start is None or total >= start:
                index = i
        return index

    def layout_for(self, team_sizes: tuple[int, ...]) -> Layout:
        """The layout matching these side sizes; every player alone is allowed from 3 up."""
        for layout in self.layouts:
            # Sides may come in any order (at five players, the pair may be listed first).
            if sorted(layout.team_sizes) == sorted(team_sizes):
                return layout
        solo = (1,) * self.players
        if self.players >= 3 and team_sizes == solo:
            return Layout(solo, self.layouts[0].target)
        teams = [x.team_sizes for x in self.allowed_layouts() if max(x.team_sizes) > 1]
        if not teams:
            raise RuleError(
                "sides",
                N_("this variant seats {players} players, each on their own"),
                players=self.players,
            )
        raise RuleError(
            "sides",
            N_("this variant seats {players} players: in teams of {allowed}, or each on their own"),
            players=self.players,
            allowed=" or ".join("+".join(map(str, sizes)) for sizes in teams),
        )

    def allowed_layouts(self) -> tuple[Layout, ...]:
        solo = (1,) * self.players
        if self.players >= 3 and all(x.team_sizes != solo for x in self.layouts):
            return self.layouts + (Layout(solo, self.layouts[0].target),)
        return self.layouts


def _row_order(row: MinimumRow) -> float:
    return float("-inf") if row[0] is None else row[0]


PROFILES: dict[str, RuleProfile] = {
    profile.key: profile
    for profile in (
        RuleProfile(key="classic", players=4, layouts=(Layout((2, 2), 5000),)),
        RuleProfile(
            key="two-player",
            players=2,
            layouts=(Layout((1, 1), 5000),),
            cards_dealt=15,
            canastas_to_go_out=2,
        ),
        RuleProfile(
            key="three-player",
            players=3,
            layouts=(Layout((1, 1, 1), 7500),),
            cards_dealt=13,
            target=7500,
        ),
        RuleProfile(key="five-player", players=5, layouts=(Layout((3, 2), 5000),)),
        RuleProfile(
            key="six-player",
            players=6,
            layouts=(Layout((2, 2, 2), 7500), Layout((3, 3), 10000)),
            packs=3,
            cards_dealt=13,
            canastas_to_go_out=2,
            target=7500,
            red_three_sets=((5, 1000), (6, 1200)),
            playing_side_size=3,
        ),
    )
}

DEFAULT_PROFILE = "classic"
# RULES.md §3: multiples of 500 from 1 000 to 20 000.
TARGET_MIN = 1000
TARGET_MAX = 20000
TARGET_STEP = 500
ALLOWED_TARGETS: tuple[int, ...] = tuple(range(TARGET_MIN, TARGET_MAX + 1, TARGET_STEP))
# A game of N hands (RULES.md §3, tournament rounds): a round of a club night, or any game.
FIXED_HANDS_MIN = 1
FIXED_HANDS_MAX = 50


def get_profile(key: str | None) -> RuleProfile:
    """The profile named key (classic when None); RuleError for an unknown name."""
    if key is None:
        return PROFILES[DEFAULT_PROFILE]
    try:
        return PROFILES[key]
    except KeyError:
        names = ", ".join(PROFILES)
        raise RuleError(
            "profile", N_("unknown variant {key}; choose one of {names}"), key=key, names=names
        ) from None


def check_target(target: Any) -> int:
    """A target the rule book allows (RuleError otherwise)."""
    if isinstance(target, bool) or not isinstance(target, int) or target not in ALLOWED_TARGETS:
        raise RuleError("target", N_("must be a multiple of 500 from 1 000 to 20 000"))
    return target


def check_fixed_hands(hands: Any, field: str = "fixed_hands") -> int:
    """A number of hands a game of N hands may have (RuleError otherwise)."""
    if (
        isinstance(hands, bool)
        or not isinstance(hands, int)
        or not FIXED_HANDS_MIN <= hands <= FIXED_HANDS_MAX
    ):
        raise RuleError(
            field,
            N_("must be a number of hands from {min} to {max}"),
            min=FIXED_HANDS_MIN,
            max=FIXED_HANDS_MAX,
        )
    return hands


def validate_target(target: int) -> int:
    """Targets are multiples of 500 from 1 000 to 20 000 (scorer.core.limits reads them here)."""
    return check_target(target)


# House rules a table may change when it creates a game: the API key -> the profile field.
HOUSE_RULE_FIELDS: tuple[str, ...] = (
    "going_out",
    "concealed_going_out",
    "natural_canasta",
    "mixed_canasta",
    "red_three",
    "all_red_threes",
    "canastas_to_go_out",
    "minimums",
)


def effective_rules(profile: RuleProfile) -> dict[str, Any]:
    """The house-rule keys with this profile's values (what the API returns as "rules")."""
    return {
        "going_out": profile.going_out,
        "concealed_going_out": profile.concealed_going_out,
        "natural_canasta": profile.natural_canasta,
        "mixed_canasta": profile.mixed_canasta,
        "red_three": profile.red_three,
        "all_red_threes": profile.all_red_threes(),
        "canastas_to_go_out": profile.canastas_to_go_out,
        "minimums": [list(row) for row in profile.minimum_table()],
    }


def with_target(profile: RuleProfile, target: int) -> RuleProfile:
    return replace(profile, target=validate_target(target))


def with_fixed_hands(profile: RuleProfile, hands: int | None) -> RuleProfile:
    """A game of ``hands`` hands (None: played to the target as usual)."""
    return replace(profile, fixed_hands=None if hands is None else check_fixed_hands(hands))


def with_house_rules(profile: RuleProfile, rules: dict[str, Any]) -> RuleProfile:
    """A new profile with the table's house rules applied; RuleError names a bad rule."""
    changes: dict[str, Any] = {}
    for key, value in rules.items():
        if key not in HOUSE_RULE_FIELDS:
            raise RuleError(f"rules.{key}", N_("is not a house rule this scorer knows"))
        if key == "minimums":
            changes["minimums"] = _parse_minimums(value)
        elif key == "all_red_threes":
            count = profile.red_threes_in_packs
            sets = tuple(row for row in profile.red_three_sets if row[0] != count)
            changes["red_three_sets"] = sets + ((count, _points(f"rules.{key}", value)),)
        elif key == "canastas_to_go_out":
            changes[key] = _count(f"rules.{key}", value, low=0, high=5)
        else:
            changes[key] = _points(f"rules.{key}", value)
    if "minimums" in changes:
        changes["custom_minimums"] = True
    result = replace(profile, **changes)
    # Compare with the profile as the rule book has it (at this target), so that house rules
    # applied in two steps are all reported, and one set back to the book's value is not.
    base = PROFILES.get(profile.key)
    reference = profile if base is None else replace(base, target=profile.target)
    before, after = effective_rules(reference), effective_rules(result)
    changed = {key for key in HOUSE_RULE_FIELDS if before[key] != after[key]}
    return replace(result, house_rules=tuple(k for k in HOUSE_RULE_FIELDS if k in changed))


def _points(name: str, value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise RuleError(name, N_("must be a whole number of points"))
    if not 0 <= value <= 10000 or value % 5:
        raise RuleError(name, N_("must be a multiple of 5 from 0 to 10 000"))
    return value


def _count(name: str, value: Any, *, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise RuleError(name, N_("must be a whole number from {low} to {high}"), low=low, high=high)
    return value


def _parse_minimums(value: Any) -> tuple[MinimumRow, ...]:
    """Rows [from_total, minimum], ascending; the first row's from_total may be null."""
    name = "rules.minimums"
    if not isinstance(value, list | tuple) or not 1 <= len(value) <= 8:
        raise RuleError(name, N_("must be a list of 1 to 8 rows [from_total, minimum]"))
    rows: list[MinimumRow] = []
    for i, row in enumerate(value):
        if not isinstance(row, list | tuple) or len(row) != 2:
            raise RuleError(f"{name}[{i}]", N_("must be a pair [from_total, minimum]"))
        start, minimum = row
        if i == 0 and start is None:
            rows.append((None, _points(f"{name}[{i}]", minimum)))
            continue
        if isinstance(start, bool) or not isinstance(start, int) or abs(start) > 100000:
            raise RuleError(f"{name}[{i}]", N_("the running total must be a whole number"))
        if rows and rows[-1][0] is not None and start <= rows[-1][0]:
            raise RuleError(f"{name}[{i}]", N_("rows must go up by running total"))
        rows.append((start, _points(f"{name}[{i}]", minimum)))
    return tuple(rows)
