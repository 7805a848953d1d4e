"""Limits and name rules of clubs (pure core; to be merged into scorer/limits.py)."""

from __future__ import annotations

import unicodedata
from typing import Any

from scorer.errors import N_, RuleError

NAME_MAX = 40
PLAYERS_PER_CLUB = 60
GAMES_PER_CLUB = 2000
# A club export holds every game of the club: at most GAMES_PER_CLUB games of a few KiB.
IMPORT_MAX_BYTES = 16 * 1024 * 1024

# Control characters, lone surrogates, and the bidi overrides and isolates that can make a
# name display as another one.
_UNPRINTABLE = frozenset({"Cc", "Cs"})
_BIDI_CONTROLS = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")
# Characters that show nothing: a name made only of these looks empty.
_INVISIBLE = frozenset({"Cf", "Zs", "Zl", "Zp", "Mn", "Me"})


def check_name(value: Any, field: str) -> str:
    """A name of 1 to 40 characters, trimmed, that can be shown and told apart."""
    if not isinstance(value, str):
        raise RuleError(field, N_("must be text"))
    value = value.strip()
    if not 1 <= len(value) <= NAME_MAX:
        raise RuleError(field, N_("must be 1 to {max} characters"), max=NAME_MAX)
    if any(unicodedata.category(char) in _UNPRINTABLE for char in value):
        raise RuleError(field, N_("must not contain control characters"))
    if any(char in _BIDI_CONTROLS for char in value):
        raise RuleError(field, N_("must not contain text direction controls"))
    if all(unicodedata.category(char) in _INVISIBLE for char in value):
        raise RuleError(field, N_("must contain a visible character"))
    return value


def same_name(a: str, b: str) -> bool:
    """Two names a table would take for the same person (case and width folded)."""
    return name_key(a) == name_key(b)


def name_key(name: str) -> str:
    return unicodedata.normalize("NFKC", name).casefold()
