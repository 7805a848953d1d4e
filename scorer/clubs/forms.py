"""The clubs' own forms: the new-club form's house rules, the club's preset for its games."""

from __future__ import annotations

from typing import Any

from wtforms import Form

from scorer.web.game_setup import HouseRulesFields


class ClubRulesForm(HouseRulesFields, Form):
    """The new-club form's house rules: the club's own preset for its new games (the page
    checks the CSRF token itself)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.set_rule_choices()
