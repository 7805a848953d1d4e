"""The forms' toolkit of the pages (Flask-WTF: CSRF on every POST).

Numbers are typed on a phone keypad, so every number is a :class:`NumberField`: empty means
"nothing typed" and text that is not a whole number is refused at the field, in our words.
The rules engine judges everything else (multiples of 5, red threes in the packs...).
A feature's own forms live in it (scorer.games.forms, scorer.clubs.forms); what a game's
setup shares across features (the house rules, the seats) is scorer.web.game_setup's.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from flask import Response, abort, request
from flask_babel import gettext
from flask_babel import lazy_gettext as _l
from flask_wtf import FlaskForm
from wtforms import StringField
from wtforms.validators import Optional

# A number longer than this is no score anybody typed on purpose.
NUMBER_MAX_DIGITS = 7
# The methods by which a browser submits a form (as Flask-WTF counts them).
SUBMIT_METHODS = frozenset({"POST", "PUT", "PATCH", "DELETE"})


def is_index(text: str | None) -> bool:
    """Plain ASCII digits, short enough to be a side, a version or a target."""
    return bool(text) and text.isascii() and text.isdigit() and len(text) < 12


def number_arg(field: str, most: int) -> int:
    """?field= as a whole number from 1 to `most` (1 when absent): a page of a list, a part
    of a download. Otherwise 400, in plain words naming the parameter."""
    raw = request.args.get(field, "1").strip()
    if not (is_index(raw) and 1 <= int(raw) <= most):
        message = gettext("%(field)s must be a number from 1 to %(most)s", field=field, most=most)
        abort(Response(message, 400, mimetype="text/plain"))
    return int(raw)


@dataclass(frozen=True)
class ListPage:
    """One page of a long list (a club's games, its nights): which, of how many, and where
    it starts (0-based)."""

    page: int
    pages: int
    first: int
    per_page: int

    @property
    def end(self) -> int:
        return self.first + self.per_page


def list_page(count: int, per_page: int) -> ListPage:
    """?page= of a list of `count` items, `per_page` a page; at least one page, even empty
    (400 past the last, as number_arg answers)."""
    pages = max(1, -(-count // per_page))
    page = number_arg("page", pages)
    return ListPage(page, pages, (page - 1) * per_page, per_page)


class NumberField(StringField):
    """A whole number; ``data`` is None when nothing was typed."""

    def process_formdata(self, valuelist: list[Any]) -> None:
        self.data = None
        if not valuelist:
            return
        text = str(valuelist[0]).strip().replace("\u2212", "-")
        if not text:
            return
        digits = text[1:] if text[:1] in "+-" else text
        if not digits.isascii() or not digits.isdigit() or len(digits) > NUMBER_MAX_DIGITS:
            raise ValueError(_l("enter a whole number"))
        self.data = int(text)

    def _value(self) -> str:
        if self.raw_data:
            return str(self.raw_data[0])
        return "" if self.data is None else str(self.data)


def stripped(value: Any) -> Any:
    return value.strip() if isinstance(value, str) else value


def name_field(label: Any) -> StringField:
    """A name; its limits are scorer.core.limits', checked with the game (as the API does)."""
    return StringField(label, validators=[Optional()], filters=[stripped])


class PageForm(FlaskForm):
    """A form of the pages: it reads what a browser posts, never a JSON body.

    Flask-WTF reads a JSON body as the form's fields, and one that is not an object
    (`false`, a list) made a 500. A page's form comes from a browser; JSON is the API's.
    """

    class Meta(FlaskForm.Meta):
        def wrap_formdata(self, form: Any, formdata: Any) -> Any:
            if request.is_json and request.method in SUBMIT_METHODS:
                formdata = request.form  # empty: the form is refused as not filled in
            return super().wrap_formdata(form, formdata)
