"""The rule book is in the repository (docs/rules.md), and what cites it finds its sections.

Code, templates and tests cite the rule book by section ("§2b") and rule ("rule 6" of §2); a
clone must hold the book they cite, and every section cited must exist.
"""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BOOK = ROOT / "docs" / "rules.md"
CITING = ("scorer", "templates", "static", "tests", "bench")
SUFFIXES = {".py", ".html", ".js", ".css", ".md", ".txt"}
SECTION = re.compile(r"§(\d+[a-z]?)")
HEADING = re.compile(r"^#{2,3} (\d+[a-z]?)\. ", re.M)


def citing_files() -> list[Path]:
    return [
        path
        for folder in CITING
        for path in sorted((ROOT / folder).rglob("*"))
        if path.suffix in SUFFIXES and path.is_file() and "corpus" not in path.parts
    ]


def test_the_rule_book_is_in_the_repository_with_its_sections() -> None:
    headings = set(HEADING.findall(BOOK.read_text()))
    assert {"1", "2", "2b", "2c", "3", "4", "5", "5a", "5b", "5c", "5d", "6"} <= headings


def test_every_section_cited_is_in_the_rule_book() -> None:
    headings = set(HEADING.findall(BOOK.read_text()))
    missing = sorted(
        f"{path.relative_to(ROOT)}: §{section}"
        for path in citing_files()
        for section in SECTION.findall(path.read_text(errors="replace"))
        if section not in headings
    )
    assert missing == []
    assert len(citing_files()) > 100


def test_nothing_cites_a_rule_book_outside_the_repository() -> None:
    outside = [
        str(path.relative_to(ROOT))
        for path in citing_files()
        if "RULES.md" in path.read_text(errors="replace") and path.name != Path(__file__).name
    ]
    assert outside == []
