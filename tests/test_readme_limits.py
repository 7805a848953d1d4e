"""The README's numbers for the limits are the code's (issue 35: it said 5 000 hands a CSV
part where the code cut at 2 000)."""

from __future__ import annotations

import re
from pathlib import Path

from scorer.core import limits
from scorer.web import priority

README = (Path(__file__).parent.parent / "README.md").read_text()


def spelled(number: int) -> str:
    """A number as the README writes it: thousands apart by a space (2 000)."""
    return f"{number:,}".replace(",", " ")


def said(pattern: str) -> list[str]:
    found = re.findall(pattern, re.sub(r"\s+", " ", README))
    assert found, f"the README no longer says {pattern!r}"
    return found


def test_the_club_csv_part_size() -> None:
    assert said(r"parts of whole games of at most (\d[\d ]*?) hands") == [
        spelled(limits.HANDS_PER_CSV_PART)
    ]


def test_the_club_limits() -> None:
    assert said(r"(\d[\d ]*?) games a club") == [spelled(limits.GAMES_PER_CLUB)]
    assert said(r"(\d[\d ]*?) nights a club") == [spelled(limits.NIGHTS_PER_CLUB)]
    assert said(r"(\d+) started a day") == [str(limits.NIGHTS_PER_CLUB_PER_DAY)]


def test_the_heavy_reads_at_once() -> None:
    words = {1: "one", 2: "two", 3: "three", 4: "four"}
    assert said(r"at most (\w+) at once on the whole server") == [
        words[priority.HEAVY_READS_AT_ONCE]
    ]


def test_the_record_of_corrections_cap() -> None:
    assert said(r"A record keeps at most (\d[\d ]*?) entries") == [
        spelled(limits.CORRECTIONS_PER_GAME)
    ]
