"""Languages: French and English, from the browser or the visible switch."""

from __future__ import annotations

import re

from flask import Flask, request
from flask_babel import Babel, get_locale, gettext
from flask_babel import lazy_gettext as _l

from scorer.errors import RuleError

LANGUAGES = ("en", "fr")
LANGUAGE_COOKIE = "lang"


def select_locale() -> str:
    chosen = request.cookies.get(LANGUAGE_COOKIE)
    if chosen in LANGUAGES:
        return chosen
    return request.accept_languages.best_match(LANGUAGES) or "en"


def init_app(app: Flask) -> None:
    Babel(app, locale_selector=select_locale, default_translation_directories="translations")
    app.jinja_env.globals.update(error_text=error_text, get_locale=get_locale)


def error_text(error: RuleError) -> str:
    """A domain refusal in the reader's language (the domain speaks English templates)."""
    return gettext(error.template).format(**error.params)


FIELD_LABELS = {
    "meld_points": _l("Meld points"),
    "natural_canastas": _l("Natural canastas"),
    "mixed_canastas": _l("Mixed canastas"),
    "red_threes": _l("Red threes"),
    "hand_points": _l("Points left in hand"),
    "meld_cards": _l("Melded cards"),
    "hand_cards": _l("Cards left in hand"),
    "went_out": _l("Went out"),
    "concealed": _l("Concealed"),
}

_SIDE_FIELD = re.compile(r"^sides\[(\d+)\]\.(\w+)")


def side_field(field: str | None) -> tuple[int, str] | None:
    """(side index, input name) of a field path like sides[1].red_threes, else None."""
    match = _SIDE_FIELD.match(field or "")
    return (int(match.group(1)), match.group(2)) if match else None
