"""Languages: English, French and Spanish, from the browser or the visible switch."""

from __future__ import annotations

import re
from datetime import UTC, date, datetime
from functools import lru_cache
from numbers import Number
from urllib.parse import urlsplit

from babel import Locale, UnknownLocaleError
from babel import dates as babel_dates
from babel import numbers as babel_numbers
from flask import (
    Blueprint,
    Flask,
    Response,
    abort,
    has_request_context,
    redirect,
    request,
    url_for,
)
from flask_babel import (
    Babel,
    format_decimal,
    get_locale,
    gettext,
    ngettext,
    to_user_timezone,
)
from flask_babel import lazy_gettext as _l

from scorer.core.errors import ScorerError
from scorer.core.families import ALL_FAMILIES
from scorer.core.hand_schema import box_name, count_boxes

LANGUAGES = ("en", "fr", "es")
LANGUAGE_COOKIE = "lang"
LANGUAGE_COOKIE_MAX_AGE = 365 * 24 * 60 * 60  # a year: the table's choice outlives the evening
# Each language names itself, in its own words, whatever the page's language.
LANGUAGE_NAMES = {"en": "English", "fr": "Français", "es": "Español"}

bp = Blueprint("i18n", __name__)


def select_locale() -> str:
    """The switch's cookie first, then the browser's Accept-Language, else English."""
    if not has_request_context():
        return "en"  # a command or a background job: no reader to ask
    chosen = request.cookies.get(LANGUAGE_COOKIE)
    if chosen in LANGUAGES:
        return chosen
    return browser_language() or "en"


def browser_language() -> str | None:
    """The first language of Accept-Language, by quality, that the scorer speaks.

    Matched on the primary subtag: "es-UY,en;q=0.5" is Spanish. (Werkzeug's best_match
    prefers any exact tag, so it would answer English there.)
    """
    ranked = sorted(request.accept_languages, key=lambda item: -item[1])  # stable: ties keep order
    for tag, quality in ranked:
        primary = tag.replace("_", "-").split("-")[0].lower()
        if quality > 0 and primary in LANGUAGES:
            return primary
    return None


def init_app(app: Flask) -> None:
    Babel(app, locale_selector=select_locale, default_translation_directories="translations")
    app.jinja_env.globals.update(
        error_text=error_text,
        get_locale=get_locale,
        current_language=current_language,
        language_links=language_links,
    )
    app.jinja_env.filters.update(number=number, date=date_text, datetime=datetime_text)
    app.after_request(vary_by_language)
    app.register_blueprint(bp)


def vary_by_language(response: Response) -> Response:
    """A page's words depend on the switch's cookie and on Accept-Language: tell caches."""
    if request.endpoint != "static":
        response.vary.add("Accept-Language")
        response.vary.add("Cookie")
        response.headers.setdefault("Content-Language", current_language())
    return response


def current_language() -> str:
    """The code of the language this response is written in ("en", "fr" or "es")."""
    return str(get_locale() or "en")


# --- the switch ------------------------------------------------------------------------------


def safe_next(target: str | None) -> str:
    """A local path to go back to; anything that could leave the site becomes "/"."""
    if not target or not target.startswith("/") or target.startswith("//"):
        return "/"
    # Browsers read a backslash as a slash ("/\\evil.example") and drop control characters.
    if "\\" in target or any(ord(char) < 32 or ord(char) == 127 for char in target):
        return "/"
    parts = urlsplit(target)
    if parts.scheme or parts.netloc:
        return "/"
    return target


def here() -> str:
    """The current page's local path with its query string (where a switch link returns)."""
    query = request.query_string.decode("utf-8", "replace")
    return request.path + (f"?{query}" if query else "")


def language_links() -> list[dict[str, object]]:
    """One link per language for templates/_lang_switch.html."""
    back = here()
    return [
        {
            "code": code,
            "label": code.upper(),
            "name": LANGUAGE_NAMES[code],
            "url": url_for("i18n.switch", code=code, next=back),
            "current": code == current_language(),
        }
        for code in LANGUAGES
    ]


@bp.get("/lang/<code>")
def switch(code: str) -> Response:
    """Remember the chosen language for a year and go back to the page it was chosen on."""
    if code not in LANGUAGES:
        abort(404)
    response = redirect(safe_next(request.args.get("next")), code=303)
    response.set_cookie(
        LANGUAGE_COOKIE,
        code,
        max_age=LANGUAGE_COOKIE_MAX_AGE,
        samesite="Lax",
        httponly=True,
        secure=request.is_secure,
    )
    return response


# --- numbers and dates -----------------------------------------------------------------------


def number(value: object) -> str:
    """A number in the reader's locale: 5 000 in French, 5.000 in Spanish, 5,000 in English,
    −35 with the minus sign (U+2212)."""
    if value is None or value == "":
        return ""
    if isinstance(value, bool) or not isinstance(value, Number):
        return str(value)
    if isinstance(value, int):
        # Scores are whole numbers, and a scoreboard shows hundreds of them: group the
        # digits with the locale's symbols directly (Babel's general formatter is ~20x slower).
        group = _group_symbol(str(get_locale() or "en"))
        digits = f"{abs(value):,}".replace(",", group)
        return MINUS + digits if value < 0 else digits
    return str(format_decimal(value)).replace("-", MINUS)


# One minus sign everywhere, pages and sheets: the true one, never a hyphen.
MINUS = "\u2212"


@lru_cache(maxsize=8)
def _group_symbol(locale: str) -> str:
    """The locale's digit-group separator (every locale here groups by three)."""
    return babel_numbers.get_group_symbol(locale)


def _as_datetime(value: object) -> datetime | date | None:
    if isinstance(value, datetime | date):
        return value
    if isinstance(value, str) and value:
        try:
            return datetime.fromisoformat(value)
        except ValueError:
            return None
    return None


@lru_cache(maxsize=64)
def _regional(tag: str, language: str) -> str | None:
    """A browser's tag ("en-GB") as a Babel locale of `language` ("en_GB"), if Babel has it."""
    try:
        found = Locale.parse(tag.replace("_", "-"), sep="-")
    except (ValueError, UnknownLocaleError):
        return None
    return str(found) if found.language == language else None


def format_locale() -> str:
    """The locale dates are written in: the page's language, with the browser's region when
    the browser asks for that language ("en-GB" writes 1 December 2026 as 01/12/2026)."""
    language = str(get_locale() or "en")
    if has_request_context():
        ranked = sorted(request.accept_languages, key=lambda item: -item[1])
        for tag, quality in ranked:
            regional = _regional(tag, language) if quality > 0 else None
            if regional:
                return regional
    return language


# French writes the first of a month as an ordinal: "1er décembre", never "1 décembre".
_FIRST_DAY = re.compile(r"^1(?=[\s\u00a0\u202f])")


def first_of_month(text: str, moment: date, locale: str) -> str:
    if moment.day == 1 and locale.startswith("fr"):
        return _FIRST_DAY.sub("1er", text, count=1)
    return text


def date_text(value: object, style: str = "medium") -> str:
    """A date in the reader's locale: 29 nov. 2026 in French, 29 Nov 2026 in en-GB."""
    moment = _as_datetime(value)
    if moment is None:
        return "" if value is None else str(value)
    locale = format_locale()
    return first_of_month(babel_dates.format_date(moment, style, locale=locale), moment, locale)


def day_month_text(moment: date) -> str:
    """ "30 November" (or "November 30") in the reader's locale; "1er décembre" in French."""
    locale = format_locale()
    return first_of_month(
        babel_dates.format_skeleton("MMMMd", moment, locale=locale), moment, locale
    )


def datetime_text(value: object, style: str = "short") -> str:
    """A date and time in the reader's locale (and time zone)."""
    moment = _as_datetime(value)
    if moment is None:
        return "" if value is None else str(value)
    if not isinstance(moment, datetime):
        return date_text(moment, style)
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    local = to_user_timezone(moment)
    return babel_dates.format_datetime(local, style, tzinfo=local.tzinfo, locale=format_locale())


# --- messages --------------------------------------------------------------------------------


def error_text(error: ScorerError) -> str:
    """A domain refusal in the reader's language (the domain speaks English templates)."""
    params = {
        name: number(value) if _is_amount(value) else value for name, value in error.params.items()
    }
    plural = getattr(error, "plural", None)
    if plural:
        return ngettext(*plural, num=error.params["count"]).format(**params)
    return gettext(error.template).format(**params)


def _is_amount(value: object) -> bool:
    # Only amounts that need a thousands separator change: counts stay plain digits.
    return isinstance(value, int) and not isinstance(value, bool) and abs(value) >= 1000


FIELD_LABELS = {
    "meld_points": _l("Meld points"),
    "natural_canastas": _l("Natural canastas"),
    "mixed_canastas": _l("Mixed canastas"),
    "red_threes": _l("Red threes"),
    "hand_points": _l("Left in hand"),  # the form's label: a 400 and a 422 read the same
    "meld_cards": _l("Melded cards"),
    "hand_cards": _l("Cards left in hand"),
    "melds": _l("Melds"),
    "adjustment": _l("Penalty or correction"),
    "adjustment_note": _l("Why"),
    "went_out": _l("Went out"),
    "concealed": _l("Concealed"),
    "canastas": _l("Canastas"),
    "black_threes": _l("Black threes"),
    "unfinished": _l("Unfinished melds"),
    "players_holding": _l("Players holding 3+"),
    "special_hand": _l("Special hand"),
    "sequences": _l("Sequences"),
    "black_threes_in_hand": _l("Black threes left in hand"),
    # The hand form's boxes of the families that count canastas in one object.
    "canastas_natural": _l("Natural canastas"),
    "canastas_mixed": _l("Mixed canastas"),
    "canastas_sevens": _l("Canastas of sevens"),
    "canastas_aces": _l("Canastas of natural aces"),
    "canastas_wild": _l("Wild canastas (1 to 3 jokers)"),
    "canastas_wild_four_jokers": _l("Wild canastas, all four jokers"),
    "canastas_deuces": _l("Canastas of seven twos"),
    "canastas_samba": _l("Sambas"),
    "canastas_escalera": _l("Escaleras"),
    "canastas_bolivia": _l("Bolivias"),
    "unfinished_sevens": _l("Unfinished sevens"),
    "unfinished_aces": _l("Unfinished aces"),
    "unfinished_wild": _l("Unfinished wild meld"),
    "unfinished_wild_four_jokers": _l("Unfinished wild meld, four jokers"),
    "players_holding_sevens": _l("Players holding 3+ sevens"),
    "players_holding_aces": _l("Players holding 3+ aces"),
}

# The variants, by profile key: the name the new-game form, the board and the sheets give
# it, and the short one of the rules page's table of variants. The one table of their names.
VARIANT_LABELS = {
    "classic": (_l("Classic (4 players, 2 teams)"), _l("Classic")),
    "two-player": (_l("Two players"), _l("Two players")),
    "three-player": (_l("Three players"), _l("Three players")),
    "five-player": (_l("Five players (teams of 3 and 2)"), _l("Five players")),
    "six-player": (_l("Six players (3 packs)"), _l("Six players")),
    "four-player": (_l("Modern American (2 teams)"), _l("Modern American")),
    "samba": (_l("Samba (2 teams, 3 packs)"), _l("Samba")),
    "bolivia": (_l("Bolivia (2 teams, 3 packs)"), _l("Bolivia")),
}
# The games of the family a game may be played in, by family key (the new-game form's choice,
# the rules pages and the checker).
FAMILY_LABELS = {
    "classic": _l("Classic Canasta"),
    "modern-american": _l("Modern American Canasta"),
    "samba": _l("Samba"),
    "bolivia": _l("Bolivia"),
}
PROFILE_LABELS = {key: long for key, (long, _short) in VARIANT_LABELS.items()}
SHORT_PROFILE_LABELS = {key: short for key, (_long, short) in VARIANT_LABELS.items()}
# Each kind of canasta a family has, by kind (a game's bonus list and its hand form).
CANASTA_LABELS = {
    "natural": _l("Natural canasta"),
    "mixed": _l("Mixed canasta"),
    "sevens": _l("Canasta of sevens"),
    "aces": _l("Canasta of natural aces"),
    "wild": _l("Wild canasta (1 to 3 jokers)"),
    "wild_four_jokers": _l("Wild canasta with all four jokers"),
    "deuces": _l("Canasta of seven twos"),
    "samba": _l("Samba (seven of one suit in sequence)"),
    "escalera": _l("Escalera (seven of one suit in sequence)"),
    "bolivia": _l("Bolivia (seven wild cards)"),
}
# The suits a sequence is of (Samba, Bolivia), by the API's name (scorer.core.families.SUITS).
SUIT_LABELS = {
    "clubs": _l("♣ Clubs"),
    "diamonds": _l("♦ Diamonds"),
    "hearts": _l("♥ Hearts"),
    "spades": _l("♠ Spades"),
}
# What a sequence is entered by, meld by meld (scorer.core.hand_schema.PLANNED_SEQUENCE_FIELDS).
SEQUENCE_FIELD_LABELS = {
    "suit": _l("Suit"),
    "first": _l("First card"),
    "last": _l("Last card"),
}
# A special hand, by key (the hand form's choice, the board and the rules pages).
SPECIAL_HAND_LABELS = {
    "straight": _l("Straight"),
    "pairs": _l("Pairs without wild cards"),
    "wild_pairs": _l("Pairs with wild cards"),
    "garbage": _l("Garbage hand"),
    # The League's list (scorer.core.families.LEAGUE_SPECIAL_HANDS), besides pagat's four.
    "natural_straight": _l("Straight without wild cards"),
    "natural_garbage": _l("Garbage hand without wild cards"),
    "triples": _l("Four triples and a pair"),
    "natural_triples": _l("Four triples and a pair, no wild cards"),
    "quads": _l("Three fours of a kind and a pair"),
    "dream_straight": _l("Dream hand: straight"),
    "dream_pairs": _l("Dream hand: pairs"),
}
# A list of special hands a club may choose (scorer.core.families: special_hand_presets).
SPECIAL_HAND_PRESET_LABELS = {
    "pagat": _l("pagat's four"),
    "league": _l("the League's list"),
}
# A family's own penalty at the end of a hand, by key (scorer.core.families: the rules pages
# and the blank sheets).
PENALTY_LABELS = {
    "unfinished_sevens": _l("An unfinished meld of sevens"),
    "unfinished_aces": _l("An unfinished meld of natural aces"),
    "unfinished_wild": _l("An unfinished meld of wild cards"),
    "unfinished_wild_four_jokers": _l("An unfinished meld of wild cards holding all four jokers"),
    "holding_sevens": _l("Each player holding three sevens or more"),
    "holding_aces": _l("Each player holding three aces or more"),
    "black_threes_in_hand": _l("Each black three left in a hand"),
}
# The same, as short as a blank sheet's reference box needs them.
SHORT_PENALTY_LABELS = {
    "unfinished_sevens": _l("Unfinished sevens"),
    "unfinished_aces": _l("Unfinished natural aces"),
    "unfinished_wild": _l("Unfinished wild meld"),
    "unfinished_wild_four_jokers": _l("Unfinished wild meld, 4 jokers"),
    "holding_sevens": _l("Each player with 3+ sevens"),
    "holding_aces": _l("Each player with 3+ aces"),
    "black_threes_in_hand": _l("Each black three in hand"),
}
# A side's score part by part (scorer.core.hands.score_parts), as the board and the preview
# name them.
SCORE_PART_LABELS = {
    "cards": _l("Cards"),
    "canastas": _l("Canastas"),
    "red_threes": _l("Red threes"),
    "going_out": _l("Going out"),
    "hand": _l("In hand"),
    "adjustment": _l("Penalty or correction"),
    "black_threes": _l("Black threes"),
    "penalties": _l("Penalties"),
    "special": _l("Special hand"),
}

# The house rules a table may change, by the API's key: every family's (each kind of canasta's
# bonus among them; tests/web/test_i18n.py holds every choosable family to its words).
HOUSE_RULE_LABELS = {
    "going_out": _l("Going-out bonus"),
    "concealed_going_out": _l("Concealed going-out bonus"),
    "natural_canasta": _l("Natural canasta bonus"),
    "mixed_canasta": _l("Mixed canasta bonus"),
    "sevens_canasta": _l("Canasta of sevens bonus"),
    "aces_canasta": _l("Canasta of natural aces bonus"),
    "wild_canasta": _l("Wild canasta bonus (1 to 3 jokers)"),
    "wild_four_jokers_canasta": _l("Wild canasta bonus, all four jokers"),
    "deuces_canasta": _l("Canasta of seven twos bonus"),
    "samba_canasta": _l("Samba bonus"),
    "escalera_canasta": _l("Escalera bonus"),
    "bolivia_canasta": _l("Bolivia bonus"),
    "red_three": _l("Each red three"),
    "all_red_threes": _l("All the red threes"),
    "canastas_to_go_out": _l("Canastas needed to go out"),
    "minimums": _l("Opening minimums"),
    "tie": _l("A tie at the top"),
    "red_threes_count_against": _l("Red threes count against"),
    "minimum_by": _l("Opening minimum by"),
    "special_hands": _l("Special hands"),
}

# The ways of playing a chosen house rule offers, by the API's key and value.
HOUSE_RULE_CHOICE_LABELS = {
    "tie": {
        "play_on": _l("one more hand"),
        "went_out_wins": _l("the side that went out wins"),
        "shared": _l("the game ends, a shared win"),
    },
    "red_threes_count_against": {
        "no_meld": _l("a side that melded nothing"),
        "no_canasta": _l("a side without a canasta"),
        # Samba's and Bolivia's book: a side short of the canastas going out needs.
        "too_few_canastas": _l("a side without the canastas to go out"),
    },
    "minimum_by": {
        "total": _l("the side's running total"),
        "hand_number": _l("the hand's number (tournament rule)"),
    },
}

_SIDE_FIELD = re.compile(r"^sides\[(\d+)\]\.(\w+)(?:\.(\w+))?")
# Every count box of every family's hand form ("canastas_sevens", "unfinished_aces").
_BOXES = frozenset(box.name for family in ALL_FAMILIES for box in count_boxes(family))


def side_field(field: str | None) -> tuple[int, str] | None:
    """(side index, input name) of a field path like sides[1].red_threes, else None; a count
    inside an object is its own box (sides[0].canastas.sevens -> canastas_sevens)."""
    match = _SIDE_FIELD.match(field or "")
    if not match:
        return None
    name, inner = match.group(2), match.group(3)
    if inner and box_name(f"{name}.{inner}") in _BOXES:
        name = box_name(f"{name}.{inner}")
    return int(match.group(1)), name
