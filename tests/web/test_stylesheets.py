"""The stylesheets style what exists: every class and id a selector names is written somewhere
the pages come from (templates, the scripts that add classes, the Python that builds HTML)."""

from __future__ import annotations

import re
from collections.abc import Iterator

import tinycss2

from scorer import ROOT

SOURCES = ("templates/**/*.html", "static/*.js", "scorer/**/*.py")
# A class or id in a selector: .name or #name (not inside an attribute's quoted value).
NAME = re.compile(r"[.#](-?[A-Za-z_][\w-]*)")


def selectors(rules: list, where: str) -> Iterator[tuple[str, str]]:
    """(where, selector) for every selector of these rules, inside @media and the like too."""
    for rule in rules:
        if rule.type == "qualified-rule":
            for one in tinycss2.serialize(rule.prelude).split(","):
                yield where, one.strip()
        elif rule.type == "at-rule" and rule.content is not None:
            inner = tinycss2.parse_rule_list(rule.content, skip_whitespace=True, skip_comments=True)
            yield from selectors(inner, f"{where} @{rule.at_keyword}")


def written(name: str, text: str) -> bool:
    """The name as a whole word, or, for "cols-3", "s0", "c5", its stem followed by a
    template's number ("cols-{{", "s{{")."""
    if re.search(rf"(?<![\w-]){re.escape(name)}(?![\w-])", text):
        return True
    stem = re.fullmatch(r"(.*?)\d+", name)
    return bool(stem) and re.search(rf"(?<![\w-]){re.escape(stem[1])}\{{\{{", text) is not None


def test_every_class_and_id_a_stylesheet_names_is_used():
    text = "\n".join(p.read_text() for pattern in SOURCES for p in ROOT.glob(pattern))
    unused = [
        f"{where}: {selector} ({name})"
        for css in sorted((ROOT / "static").glob("*.css"))
        for where, selector in selectors(
            tinycss2.parse_stylesheet(css.read_text(), skip_whitespace=True, skip_comments=True),
            css.name,
        )
        for name in NAME.findall(selector)
        if not written(name, text)
    ]
    assert unused == []
