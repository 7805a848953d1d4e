"""A game's rules: a family x a seating (scorer.core.families), with house rules on top.

A profile never branches on its own name, nor on its family's: the variants differ only in
the values of their fields. House rules are applied with :func:`with_house_rules`, which
returns a new profile.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, replace
from functools import cache, cached_property
from typing import Any

from scorer.core.errors import N_, RuleError
from scorer.core.families import (
    ALL_FAMILIES,
    CANASTA_BONUS_RULE,
    DEFAULT_FAMILY,
    FAMILIES,
    VALUE_GROUPS,
    CardValues,
    Layout,
    MinimumRow,
    PackContents,
    RuleFamily,
    SeatingRules,
    SpecialHand,
    get_family,
)
from scorer.core.text import check_text, same_name

# The family's shapes are read from here too (a game's rules are where a reader looks).
__all__ = [
    "VALUE_GROUPS",
    "CardValues",
    "Layout",
    "MinimumRow",
    "PackContents",
    "RuleProfile",
    "get_profile",
    "profile_of",
]


# House rules chosen among a few ways of playing; the first of each is the rule book's.
# The tie at the top: play another hand, the side that went out in that hand wins, or the
# game ends with the win shared.
TIE_RULES: tuple[str, ...] = ("play_on", "went_out_wins", "shared")
# Red threes count against a side that melded nothing, or against a side without a canasta.
RED_THREES_AGAINST: tuple[str, ...] = ("no_meld", "no_canasta")
# The opening minimum follows the side's total, or (Modern American's tournament rule, in a
# family that has one) the hand's number.
MINIMUM_BY: tuple[str, ...] = ("total", "hand_number")
HOUSE_RULE_CHOICES: dict[str, tuple[str, ...]] = {
    "tie": TIE_RULES,
    "red_threes_count_against": RED_THREES_AGAINST,
    "minimum_by": MINIMUM_BY,
}


def house_rule_choices(family: RuleFamily) -> dict[str, tuple[str, ...]]:
    """The choices of each house rule chosen among a few, in a family (the book's first):
    Samba's red threes count against a side without the canastas going out needs; the
    minimum by hand number only where the family's book has it."""
    choices = {**HOUSE_RULE_CHOICES, "red_threes_count_against": family.red_threes_against}
    if not family.minimums_by_hand:
        del choices["minimum_by"]
    return choices


@dataclass(frozen=True)
class RuleProfile:
    """A game's rules: a family x one of its seatings, with the table's house rules applied.

    Every number is a field, copied from the family and the seating by :func:`profile_of`
    and changed only by house rules; the engine reads these fields, never a family's name.
    """

    key: str  # the seating's key: the game's "profile" in the API
    family: RuleFamily
    players: int
    layouts: tuple[Layout, ...]
    packs: int
    cards_dealt: int
    canastas_to_go_out: int
    target: int
    # Each kind of canasta's bonus, in the family's order: (("natural", 500), ("mixed", 300)).
    canasta_bonuses: tuple[tuple[str, int], ...]
    red_three: int
    # Counts of red threes that score a set value instead of count x red_three.
    red_three_sets: tuple[tuple[int, int], ...]
    going_out: int
    concealed_going_out: int
    minimums: tuple[MinimumRow, ...]
    # With a target at or above high_target, the minimum table gains high_minimum_row.
    high_target: int
    high_minimum_row: MinimumRow
    card_values: CardValues
    pack: PackContents
    custom_minimums: bool = False
    # Sitting out in turn happens in a side larger than this (the team of 3 at five players).
    playing_side_size: int = 2
    tie: str = TIE_RULES[0]
    red_threes_count_against: str = RED_THREES_AGAINST[0]
    # A game of N hands (a tournament round): it ends after hand N, not at the target (§3).
    fixed_hands: int | None = None
    # "hand_number": the family's tournament rule, the minimum by the hand's number
    # (RuleFamily.minimums_by_hand) instead of the minimum table.
    minimum_by: str = MINIMUM_BY[0]
    # The special hands a side may go out with (the family's, or a club's own list).
    special_hands: tuple[SpecialHand, ...] = ()
    house_rules: tuple[str, ...] = ()

    def canasta_bonus(self, kind: str) -> int:
        return self._canasta_bonuses[kind]

    def special_hand(self, key: str) -> SpecialHand | None:
        """The game's special hand of this key (None: the game has none of it)."""
        return self._special_hands.get(key)

    @cached_property
    def _special_hands(self) -> dict[str, SpecialHand]:
        return {hand.key: hand for hand in self.special_hands}

    @cached_property
    def _canasta_bonuses(self) -> dict[str, int]:
        return dict(self.canasta_bonuses)

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
        # totals under it: docs/rules.md is silent, and the lowest row is the kindest reading.
        table = self._minimum_table
        minimum = table[0][1]
        for start, value in table:
            if start is None or total >= start:
                minimum = value
        return minimum

    @property
    def minimum_follows_hand(self) -> bool:
        """The tournament rule is played: the minimum goes by the hand's number."""
        return self.minimum_by == "hand_number" and bool(self.family.minimums_by_hand)

    def minimum_for(self, total: int, number: int) -> int:
        """A side's opening minimum in hand ``number`` (from 1) from its total before it: by
        the hand's number under the tournament rule (hands past its last row keep that row's
        value), else from the minimum table."""
        by_hand = self.family.minimum_for_hand(number) if self.minimum_follows_hand else None
        return self.opening_minimum(total) if by_hand is None else by_hand

    def minimum_row_index(self, total: int) -> int:
        """Which row of the minimum table applies to a total (for highlighting it)."""
        index = 0
        for i, (start, _value) in enumerate(self.minimum_table()):
            if start is None or total >= start:
                index = i
        return index

    def layout_for(self, team_sizes: tuple[int, ...]) -> Layout:
        """The layout matching these side sizes; every player alone is allowed from 3 up
        where the family allows it."""
        for layout in self.layouts:
            # Sides may come in any order (at five players, the pair may be listed first).
            if sorted(layout.team_sizes) == sorted(team_sizes):
                return layout
        solo = (1,) * self.players
        if self._alone_allowed() and team_sizes == solo:
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

    def _alone_allowed(self) -> bool:
        return self.players >= 3 and self.family.players_alone

    def allowed_layouts(self) -> tuple[Layout, ...]:
        solo = (1,) * self.players
        if self._alone_allowed() and all(x.team_sizes != solo for x in self.layouts):
            return self.layouts + (Layout(solo, self.layouts[0].target),)
        return self.layouts


def _bonus_of(kind: str) -> property:
    return property(lambda profile: profile.canasta_bonus(kind), doc=f"The {kind} canasta bonus.")


# ``profile.natural_canasta``: each kind of every family's bonus by its house rule's name (as
# the templates and the house-rule keys name it). Properties, not a __getattr__, which would
# slow every attribute of a profile in a replay.
for _kind in sorted({kind for family in ALL_FAMILIES for kind in family.kinds}):
    setattr(RuleProfile, CANASTA_BONUS_RULE.format(kind=_kind), _bonus_of(_kind))


def _row_order(row: MinimumRow) -> float:
    return float("-inf") if row[0] is None else row[0]


def profile_of(family: RuleFamily, seating: SeatingRules) -> RuleProfile:
    """A game's rules as the book has them: the family's numbers at this seating."""
    return RuleProfile(
        key=seating.key,
        family=family,
        players=seating.players,
        layouts=seating.layouts,
        packs=seating.packs,
        cards_dealt=seating.cards_dealt,
        canastas_to_go_out=seating.canastas_to_go_out,
        target=seating.target,
        canasta_bonuses=tuple((kind.key, kind.bonus) for kind in family.canastas),
        red_three=family.red_three_value,
        red_three_sets=family.red_three_sets_for(seating.packs),
        going_out=family.going_out,
        concealed_going_out=family.concealed_going_out,
        minimums=family.minimums,
        high_target=family.high_target,
        high_minimum_row=family.high_minimum_row,
        card_values=family.card_values,
        pack=family.pack,
        playing_side_size=seating.playing_side_size,
        red_threes_count_against=family.red_threes_against[0],
        special_hands=family.special_hands,
    )


@cache
def profiles_of(family: RuleFamily) -> dict[str, RuleProfile]:
    """Every seating of a family, by its key, as the book has it (made once a family)."""
    return {seating.key: profile_of(family, seating) for seating in family.seatings}


# The seatings of the default family (the only one so far), by key: what the API's
# "profile" names.
PROFILES: dict[str, RuleProfile] = profiles_of(DEFAULT_FAMILY)

DEFAULT_PROFILE = DEFAULT_FAMILY.seatings[0].key


def _variants() -> dict[str, RuleProfile]:
    found: dict[str, RuleProfile] = {}
    for family in FAMILIES.values():
        for key, profile in profiles_of(family).items():
            assert key not in found, f"two families name a seating {key!r}"
            found[key] = profile
    return found


# Every seating of every family a game may be created in, by its profile key (no two
# families share one): the new-game form's one choice of variant names the family too.
VARIANTS: dict[str, RuleProfile] = _variants()


def family_of_variant(key: str | None) -> str | None:
    """The family of the variant named key (None for an unknown key: the default's)."""
    profile = VARIANTS.get(key or "")
    return None if profile is None else profile.family.key


# docs/rules.md, "House rules": multiples of 500 from 1 000 to 20 000.
TARGET_MIN = 1000
TARGET_MAX = 20000
TARGET_STEP = 500
ALLOWED_TARGETS: tuple[int, ...] = tuple(range(TARGET_MIN, TARGET_MAX + 1, TARGET_STEP))
# A game of N hands (docs/rules.md §3, tournament rounds): a round of a club night, or any game.
FIXED_HANDS_MIN = 1
FIXED_HANDS_MAX = 50


def get_profile(key: str | None, family: str | None = None) -> RuleProfile:
    """The seating named key of a family (its first when None; the default family when no
    family is named); RuleError for an unknown name."""
    rules = get_family(family)
    seating = rules.seatings[0] if key is None else rules.seating(key)
    return profiles_of(rules)[seating.key]


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
# Each kind of canasta's bonus is one more, after the going-out bonuses ("natural_canasta").
GOING_OUT_RULES: tuple[str, ...] = ("going_out", "concealed_going_out")
OTHER_RULES: tuple[str, ...] = (
    "red_three",
    "all_red_threes",
    "canastas_to_go_out",
    "minimums",
    "tie",
    "red_threes_count_against",
)


def house_rule_fields(family: RuleFamily) -> tuple[str, ...]:
    """The house rules a game of this family may change, in the order the API lists them
    (the minimum by hand number last, where the family has it)."""
    kinds = tuple(kind.bonus_rule for kind in family.canastas)
    by_hand = ("minimum_by",) if family.minimums_by_hand else ()
    special = ("special_hands",) if family.special_hands else ()
    return GOING_OUT_RULES + kinds + OTHER_RULES + by_hand + special


HOUSE_RULE_FIELDS: tuple[str, ...] = house_rule_fields(DEFAULT_FAMILY)


def effective_rules(profile: RuleProfile) -> dict[str, Any]:
    """The house-rule keys with this profile's values (what the API returns as "rules")."""
    return {
        "going_out": profile.going_out,
        "concealed_going_out": profile.concealed_going_out,
        **{kind.bonus_rule: profile.canasta_bonus(kind.key) for kind in profile.family.canastas},
        "red_three": profile.red_three,
        "all_red_threes": profile.all_red_threes(),
        "canastas_to_go_out": profile.canastas_to_go_out,
        "minimums": [list(row) for row in profile.minimum_table()],
        "tie": profile.tie,
        "red_threes_count_against": profile.red_threes_count_against,
        # Only where the family has the tournament rule: Classic's rules keep their shape.
        **({"minimum_by": profile.minimum_by} if profile.family.minimums_by_hand else {}),
        **(
            {"special_hands": [special_hand_json(hand) for hand in profile.special_hands]}
            if profile.family.special_hands
            else {}
        ),
    }


def special_hand_json(hand: SpecialHand) -> dict[str, Any]:
    """A special hand as the API and a game's rules write it: its key and value, its name
    when a club gave one, and "wins_game" when it wins the game outright."""
    data: dict[str, Any] = {"key": hand.key, "value": hand.value}
    if hand.name:
        data["name"] = hand.name
    if hand.wins_game:
        data["wins_game"] = True
    return data


def with_target(profile: RuleProfile, target: int) -> RuleProfile:
    return replace(profile, target=validate_target(target))


def with_fixed_hands(profile: RuleProfile, hands: int | None) -> RuleProfile:
    """A game of ``hands`` hands (None: played to the target as usual)."""
    return replace(profile, fixed_hands=None if hands is None else check_fixed_hands(hands))


def with_house_rules(profile: RuleProfile, rules: dict[str, Any]) -> RuleProfile:
    """A new profile with the table's house rules applied; RuleError names a bad rule."""
    changes: dict[str, Any] = {}
    fields = house_rule_fields(profile.family)
    bonus_rules = {kind.bonus_rule: kind.key for kind in profile.family.canastas}
    bonuses = dict(profile.canasta_bonuses)
    choices = house_rule_choices(profile.family)
    for key, value in rules.items():
        if key not in fields:
            raise RuleError(f"rules.{key}", N_("is not a house rule this scorer knows"))
        if key in bonus_rules:
            bonuses[bonus_rules[key]] = _points(f"rules.{key}", value)
            changes["canasta_bonuses"] = tuple(bonuses.items())
        elif key == "minimums":
            changes["minimums"] = _parse_minimums(value)
        elif key == "special_hands":
            changes["special_hands"] = parse_special_hands(value)
        elif key == "all_red_threes":
            count = profile.red_threes_in_packs
            sets = tuple(row for row in profile.red_three_sets if row[0] != count)
            changes["red_three_sets"] = sets + ((count, _points(f"rules.{key}", value)),)
        elif key in choices:
            changes[key] = _choice(f"rules.{key}", value, choices[key])
        elif key == "canastas_to_go_out":
            changes[key] = _count(f"rules.{key}", value, low=0, high=5)
        else:
            changes[key] = _points(f"rules.{key}", value)
    if "minimums" in changes:
        changes["custom_minimums"] = True
    result = replace(profile, **changes)
    # Compare with the profile as the rule book has it (at this target), so that house rules
    # applied in two steps are all reported, and one set back to the book's value is not.
    base = profiles_of(profile.family).get(profile.key)
    reference = profile if base is None else replace(base, target=profile.target)
    before, after = effective_rules(reference), effective_rules(result)
    changed = {key for key in fields if before[key] != after[key]}
    return replace(result, house_rules=tuple(k for k in fields if k in changed))


def _points(name: str, value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise RuleError(name, N_("must be a whole number of points"))
    if not 0 <= value <= 10000 or value % 5:
        raise RuleError(name, N_("must be a multiple of 5 from 0 to 10 000"))
    return value


def _choice(name: str, value: Any, choices: tuple[str, ...]) -> str:
    if not isinstance(value, str) or value not in choices:
        raise RuleError(name, N_("must be one of {choices}"), choices=", ".join(choices))
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


# A game's (a club's) own list of special hands (docs/rules.md §5a): bounded like every list a
# person types (scorer.core.limits reads these bounds).
SPECIAL_HANDS_MAX = 20
SPECIAL_HAND_KEY_MAX = 30
SPECIAL_HAND_NAME_MAX = 40
SPECIAL_HAND_VALUE_MIN = 5
SPECIAL_HAND_VALUE_MAX = 10000
SPECIAL_HAND_FIELDS = frozenset({"key", "value", "name", "wins_game"})
_SPECIAL_HAND_KEY = re.compile(r"[a-z0-9_]+")


def parse_special_hands(value: Any) -> tuple[SpecialHand, ...]:
    """A list of special hands [{"key", "value", "name", "wins_game"}], each refused at its
    field: keys of small letters, digits and _, names and keys never twice."""
    name = "rules.special_hands"
    if not isinstance(value, list | tuple) or len(value) > SPECIAL_HANDS_MAX:
        raise RuleError(
            name, N_("must be a list of at most {max} special hands"), max=SPECIAL_HANDS_MAX
        )
    hands: list[SpecialHand] = []
    for index, item in enumerate(value):
        hand = _special_hand(f"{name}[{index}]", item)
        if any(other.key == hand.key for other in hands):
            raise RuleError(f"{name}[{index}].key", N_("this special hand is already in the list"))
        if hand.name and any(same_name(other.name, hand.name) for other in hands):
            raise RuleError(f"{name}[{index}].name", N_("this name is already in the list"))
        hands.append(hand)
    return tuple(hands)


def _special_hand(path: str, item: Any) -> SpecialHand:
    if not isinstance(item, dict):
        raise RuleError(path, N_("must be an object with a key and a value"))
    for key in item:
        if key not in SPECIAL_HAND_FIELDS:
            raise RuleError(f"{path}.{key}"[:100], N_("is not a field of a special hand"))
    key = item.get("key")
    if (
        not isinstance(key, str)
        or len(key) > SPECIAL_HAND_KEY_MAX
        or not _SPECIAL_HAND_KEY.fullmatch(key)
    ):
        raise RuleError(
            f"{path}.key",
            N_("must be 1 to {max} small letters, digits or _"),
            max=SPECIAL_HAND_KEY_MAX,
        )
    value = item.get("value")
    if (
        isinstance(value, bool)
        or not isinstance(value, int)
        or not SPECIAL_HAND_VALUE_MIN <= value <= SPECIAL_HAND_VALUE_MAX
        or value % 5
    ):
        raise RuleError(
            f"{path}.value",
            N_("must be a multiple of 5 from {low} to {high}"),
            low=SPECIAL_HAND_VALUE_MIN,
            high=SPECIAL_HAND_VALUE_MAX,
        )
    name = item.get("name", "")
    if not isinstance(name, str):
        raise RuleError(f"{path}.name", N_("must be text"))
    name = check_text(name, f"{path}.name", required=False, longest=SPECIAL_HAND_NAME_MAX)
    wins = item.get("wins_game", False)
    if not isinstance(wins, bool):
        raise RuleError(f"{path}.wins_game", N_("must be true or false"))
    return SpecialHand(key, value, name, wins)


def special_hand_key(name: str, taken: set[str] | frozenset[str]) -> str:
    """A key for a special hand a club names ("Royal flush" -> "royal_flush"): its name in
    small letters without accents, and a number after it when the list has it already."""
    plain = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode().lower()
    base = re.sub(r"[^a-z0-9]+", "_", plain).strip("_")[: SPECIAL_HAND_KEY_MAX - 3] or "hand"
    key, number = base, 2
    while key in taken:
        key, number = f"{base}_{number}", number + 1
    return key
