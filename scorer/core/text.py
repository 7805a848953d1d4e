"""A line of text a person typed (a name, a note, a club's name for a special hand), checked
by one rule: trimmed, within its length, nothing unprintable, nothing that reverses the text,
something visible. Pure core; scorer.core.limits reads it with every other limit.
"""

from __future__ import annotations

import unicodedata

from scorer.core.errors import N_, RuleError

# Characters that reorder the text around them: a name could make a score read backwards.
BIDI_CONTROLS = frozenset(chr(c) for c in [*range(0x202A, 0x202F), *range(0x2066, 0x206A)])
# Letters that show as nothing (Hangul fillers), besides the format characters (Cf).
_BLANK_LETTERS = frozenset("\u115f\u1160\u3164\uffa0")
# Control characters and lone surrogates cannot be shown (or even stored as UTF-8).
_UNPRINTABLE = frozenset({"Cc", "Cs"})


def _invisible(char: str) -> bool:
    return char.isspace() or char in _BLANK_LETTERS or unicodedata.category(char) == "Cf"


def check_text(value: str, field: str, *, required: bool, longest: int) -> str:
    """A trimmed line of text a person typed (a name, a note); "" for one left empty."""
    value = value.strip()
    if not value and not required:
        return ""
    if not 1 <= len(value) <= longest:
        raise RuleError(field, N_("must be 1 to {max} characters"), max=longest)
    if any(unicodedata.category(char) in _UNPRINTABLE for char in value):
        raise RuleError(field, N_("must not contain control characters"))
    if any(char in BIDI_CONTROLS for char in value):
        raise RuleError(field, N_("must not contain characters that reverse the text"))
    if all(_invisible(char) for char in value):
        raise RuleError(field, N_("must contain visible characters"))
    return value


def same_name(a: str, b: str) -> bool:
    """Two names a table would take for the same person (case and width folded)."""
    return name_key(a) == name_key(b)


def name_key(name: str) -> str:
    return unicodedata.normalize("NFKC", name).casefold()
