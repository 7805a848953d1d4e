"""The clubs' own forms: the new-club form's house rules, the club's preset for its games, and
its list of special hands."""

from __future__ import annotations

from typing import Any

from flask_babel import lazy_gettext as _l
from wtforms import BooleanField, FieldList, Form, FormField, HiddenField, StringField

from scorer.core.families import SpecialHand
from scorer.core.limits import SPECIAL_HANDS_MAX
from scorer.web.display import special_hand_label
from scorer.web.forms import NumberField, stripped
from scorer.web.game_setup import HouseRulesFields


class ClubRulesForm(HouseRulesFields, Form):
    """The new-club form's house rules: the club's own preset for its new games (the page
    checks the CSRF token itself)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.set_rule_choices()


class SpecialHandRowForm(Form):
    """One special hand of the club's list: its name and value, kept, renamed or removed."""

    key = HiddenField()
    name = StringField(_l("Name"), filters=[stripped])
    value = NumberField(_l("Points"))
    wins_game = BooleanField(_l("Wins the game outright"))
    remove = BooleanField(_l("Remove"))


class SpecialHandsForm(Form):
    """The club's special hands, each editable, and one more to add (the page checks the
    CSRF token itself)."""

    hands = FieldList(FormField(SpecialHandRowForm), max_entries=SPECIAL_HANDS_MAX)
    new_name = StringField(_l("A new hand's name"), filters=[stripped])
    new_value = NumberField(_l("Its points"))
    new_wins_game = BooleanField(_l("Wins the game outright"))


def special_hands_data(hands: tuple[SpecialHand, ...]) -> dict[str, Any]:
    """The form's starting values: each hand by its name as the reader reads it."""
    return {
        "hands": [
            {
                "key": hand.key,
                "name": special_hand_label(hand),
                "value": hand.value,
                "wins_game": hand.wins_game,
            }
            for hand in hands
        ]
    }
