"""What a game's setup shares across features: the house-rules editor and the seats.

The new-game form (scorer.games.forms), the new-club form's preset (scorer.clubs.forms), a
club's new game and a night's rounds lay out the same variants, seatings, targets and house
rules; features never import one another, so the shared part sits here, in the toolkit.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from flask_babel import gettext
from flask_babel import lazy_gettext as _l
from wtforms import FieldList, Form, FormField, HiddenField, StringField

from scorer.core.families import FAMILIES
from scorer.core.limits import ALLOWED_TARGETS
from scorer.core.rules import (
    DEFAULT_PROFILE,
    GOING_OUT_RULES,
    HOUSE_RULE_CHOICES,
    OTHER_RULES,
    PROFILES,
    VARIANTS,
    RuleProfile,
    effective_rules,
    family_of_variant,
    get_profile,
    house_rule_choices,
    house_rule_fields,
)
from scorer.core.seatings import Seating, blank_seatings, seatings_of
from scorer.web.display import seating_label
from scorer.web.forms import NumberField
from scorer.web.i18n import HOUSE_RULE_CHOICE_LABELS, HOUSE_RULE_LABELS, PROFILE_LABELS, number

# The new-game form seats up to this many sides of this many players (six alone, 3+3).
FORM_SIDES = 6
FORM_PLAYERS = 3
# Rows of the opening-minimum table a table may write (the rule book has 4, or 5).
MINIMUM_ROWS = 5


class MinimumRowForm(Form):
    start = NumberField(_l("From a total of"))
    minimum = NumberField(_l("Minimum"))


# The house rules the form offers, in order: numbers, then ways of playing (chosen among a
# few), and the minimums as their own table. The numbers are every choosable family's (each
# kind of canasta's bonus after the going-out bonuses); the editor shows the boxes of the
# chosen variant's family (HouseRulesFields.shown_rules).
_EVERY_RULE = dict.fromkeys(
    key
    for family in FAMILIES.values()
    for key in (*GOING_OUT_RULES, *(kind.bonus_rule for kind in family.canastas))
)
_EVERY_RULE.update(dict.fromkeys(OTHER_RULES))
RULE_NUMBERS = tuple(
    key for key in _EVERY_RULE if key != "minimums" and key not in HOUSE_RULE_CHOICES
)
RULE_CHOICES = tuple(HOUSE_RULE_CHOICES)


# --- the seats of the new-game forms (a plain game's and a club's lay them out alike) ------


def seat_boxes() -> list[int]:
    """How many player boxes each team of the form holds: its most in any seating."""
    return [
        max(s.team_sizes[i] for s in blank_seatings() if s.sides > i) for i in range(FORM_SIDES)
    ]


def usual_target(seating: Seating) -> str:
    return gettext("%(target)s (usual target)", target=number(seating.target))


def seating_choices(
    variants: Mapping[str, RuleProfile] = PROFILES,
) -> dict[str, list[dict[str, object]]]:
    """Each variant's seatings for the form's JavaScript: key, words, sizes, usual target
    (Classic's, or every family's with ``VARIANTS``)."""
    return {
        key: [
            {
                "key": s.key,
                "label": seating_label(s),
                "sizes": s.team_sizes,
                "target": number(s.target),
            }
            for s in seatings_of(profile)
        ]
        for key, profile in variants.items()
    }


def profile_choices(variants: Mapping[str, RuleProfile] = PROFILES) -> list[tuple[str, Any]]:
    return [(key, PROFILE_LABELS.get(key, key)) for key in variants]


def target_choices() -> list[tuple[str, Any]]:
    return [("", _l("The variant's usual target"))] + [
        (str(target), number(target)) for target in ALLOWED_TARGETS
    ]


class HouseRulesFields:
    """The house-rules editor, shared by the new-game and the new-club forms.

    Which variant's values the inputs showed is kept in ``rules_for``: only what the user
    changed from them counts as a house rule.
    """

    rules_for = HiddenField(default=DEFAULT_PROFILE)
    # The numbers, in the order the editor shows them (each kind of canasta's bonus is
    # added below, from the family).
    rule_numbers = RULE_NUMBERS
    going_out = NumberField(_l("Going-out bonus"))
    concealed_going_out = NumberField(_l("Concealed going-out bonus"))
    red_three = NumberField(_l("Each red three"))
    all_red_threes = NumberField(_l("All the red threes"))
    canastas_to_go_out = NumberField(_l("Canastas needed to go out"))
    # Ways of playing, one tap each (chips): the rule book's is the default. The engine
    # checks the value, so that a refusal names the rule as the API's does.
    tie = StringField(_l("A tie at the top"), default="play_on")
    red_threes_count_against = StringField(_l("Red threes count against"), default="no_meld")
    # Only in a family with a tournament rule (Modern American): no default, so that a
    # family without it sends nothing (its chips are disabled, the book's one checked).
    minimum_by = StringField(_l("Opening minimum by"))
    minimums = FieldList(
        FormField(MinimumRowForm), min_entries=MINIMUM_ROWS, max_entries=MINIMUM_ROWS
    )

    def set_rule_choices(self) -> None:
        """The chips of each way of playing: (value, label) in the reader's language, every
        family's (choice_options says which the family shown offers)."""
        for key in RULE_CHOICES:
            self[key].choices = list(HOUSE_RULE_CHOICE_LABELS[key].items())

    def choice_options(self, key: str) -> list[tuple[str, Any, bool]]:
        """A way of playing's chips as (value, label, hidden): the family shown offers some
        (Samba's red threes count against a side short of its canastas, not Classic's side
        without a canasta); the script shows another family's with its variant."""
        offered = house_rule_choices(self.shown_profile().family)[key]
        return [(value, label, value not in offered) for value, label in self[key].choices]

    def choice_default(self, key: str) -> str:
        """The book's way of playing in the family shown: the chip checked when none is."""
        return house_rule_choices(self.shown_profile().family)[key][0]

    def shown_profile(self) -> RuleProfile:
        """The profile whose values the house-rule inputs were rendered with."""
        return VARIANTS.get(self.rules_for.data or "", PROFILES[DEFAULT_PROFILE])

    def shown_label(self) -> str:
        """The name of the variant whose values the editor shows, in the reader's words."""
        key = self.shown_profile().key
        return str(PROFILE_LABELS.get(key, key))

    def variant_defaults(self) -> dict[str, dict[str, Any]]:
        """Every variant's house-rule values, for the script to swap them when the variant
        changes (the editor's ``data-rule-defaults``)."""
        return {key: rules_defaults(profile) for key, profile in VARIANTS.items()}

    def show_variant(self, variant: str | None) -> None:
        """Show another variant's values without JavaScript (a refusal drawn again, a "show"
        button): each house-rule box still holding the shown variant's value takes the new
        variant's, what was typed stays, errors too; as the script does (static/new-game.js)."""
        if variant not in VARIANTS or variant == self.rules_for.data:
            return
        before, after = rules_defaults(self.shown_profile()), rules_defaults(VARIANTS[variant])
        boxes = [(self[key], before[key], after[key]) for key in RULE_NUMBERS + RULE_CHOICES]
        for entry, old, new in zip(
            self.minimums.entries, before["minimums"], after["minimums"], strict=True
        ):
            boxes += [(entry.form.start, old[0], new[0]), (entry.form.minimum, old[1], new[1])]
        for field, old, new in boxes:
            if str(_typed(field, old)).strip() == _box_text(old):
                field.data, field.raw_data = new, [_box_text(new)]
        self.rules_for.data = variant

    def shown_rules(self) -> frozenset[str]:
        """The house rules of the family whose values the editor shows: its boxes are the ones
        shown (Modern American's canastas of sevens, not Classic's; the script swaps them)."""
        return frozenset(house_rule_fields(self.shown_profile().family))

    def house_rules(self) -> dict[str, Any]:
        """Only the rules the user changed from the values the form showed (a box of another
        family left empty is no rule)."""
        shown = effective_rules(self.shown_profile())
        rules: dict[str, Any] = {}
        for key in RULE_NUMBERS + RULE_CHOICES:
            if key not in shown:
                continue  # another family's box (sent empty, or its chips disabled)
            value = self[key].data
            if isinstance(value, str):
                value = value.strip()
            if value not in (None, "") and value != shown.get(key):
                rules[key] = value
        rows = self.minimum_rows()
        if rows and rows != [list(row) for row in shown["minimums"]]:
            rules["minimums"] = rows
        return rules

    def changed(self) -> bool:
        """Some house rule differs from the values shown (the editor opens to show it)."""
        return bool(self.house_rules())

    def minimum_rows(self) -> list[list[int | None]]:
        """The minimum table as typed: the first row covers every total below the second."""
        rows: list[list[int | None]] = []
        for index, entry in enumerate(self.minimums.entries):
            start, minimum = entry.form.start.data, entry.form.minimum.data
            if minimum is None:
                continue
            rows.append([None if index == 0 else start, minimum])
        return rows


# A bonus box per kind of canasta of every choosable family ("natural_canasta",
# "sevens_canasta").
for _key in RULE_NUMBERS:
    if not hasattr(HouseRulesFields, _key):
        setattr(HouseRulesFields, _key, NumberField(HOUSE_RULE_LABELS[_key]))


def _box_text(value: Any) -> str:
    """A house rule's value as its box holds it ("" for none)."""
    return "" if value is None else str(value)


def _typed(field: Any, shown: Any) -> str:
    """What a house-rule box holds: as typed; its value when the form was drawn from data; the
    value shown when the browser did not send it (a disabled box of another family)."""
    if field.raw_data is None:
        return _box_text(field.data)
    return field.raw_data[0] if field.raw_data else _box_text(shown)


def rules_defaults(profile: RuleProfile) -> dict[str, Any]:
    """The house-rule inputs' values for a profile (also given to JS to switch variants)."""
    rules = effective_rules(profile)
    # A box of another family's has no value in this one (the script hides it).
    values: dict[str, Any] = {key: rules.get(key) for key in RULE_NUMBERS + RULE_CHOICES}
    rows = list(rules["minimums"]) + [[None, None]] * MINIMUM_ROWS
    values["minimums"] = [list(row) for row in rows[:MINIMUM_ROWS]]
    # The ways of playing the family offers (the script shows their chips only).
    values["choices"] = {
        key: list(offered) for key, offered in house_rule_choices(profile.family).items()
    }
    return values


def house_rules_data(profile_key: str = DEFAULT_PROFILE) -> dict[str, Any]:
    """The house-rule inputs' starting values: the variant's own rules (of any family)."""
    profile = get_profile(profile_key, family_of_variant(profile_key))
    defaults = rules_defaults(profile)
    data: dict[str, Any] = {key: defaults[key] for key in RULE_NUMBERS + RULE_CHOICES}
    data["minimums"] = [
        {"start": start, "minimum": minimum} for start, minimum in defaults["minimums"]
    ]
    data["rules_for"] = profile.key
    return data
