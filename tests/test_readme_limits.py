"""The README's numbers for the limits are the code's (issue 35: it said 5 000 hands a CSV
part where the code cut at 2 000)."""

from __future__ import annotations

import re
from pathlib import Path

from bench.largest import largest_hand
from scorer.core import limits
from scorer.core.hand_schema import sides_json
from scorer.core.rules import get_profile
from scorer.web import priority
from scorer.web.api_contract import parse_hand

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


def test_the_import_caps_and_what_they_follow() -> None:
    """The README's arithmetic of the caps is the code's (issue 35: every export imports
    back), and the largest hand it names is the one tests/largest.py makes."""
    assert said(r"A hand's entries take at most (\d+) KiB") == [str(limits.HAND_BYTES_MAX // 1024)]
    profile = get_profile("six-player")
    hand = parse_hand(largest_hand(), profile.family)
    assert said(r"a 60-emoji note each, takes (\d[\d ]*?) bytes") == [
        spelled(len(sides_json(hand.sides, profile.family)))
    ]
    assert said(r"a game's import takes (\d[\d ]*?) bytes") == [
        spelled(limits.GAME_IMPORT_MAX_BYTES)
    ]
    assert said(r"1 000 hands of (\d[\d ]*?) bytes, 200 corrections of (\d[\d ]*?)\)") == [
        (spelled(limits.HAND_EXPORT_BYTES), spelled(limits.CORRECTION_EXPORT_BYTES))
    ]
    assert said(r"most (\d[\d ]*?) bytes of them") == [spelled(limits.CLUB_PART_BYTES)]
    assert said(r"and settings \(about ([\d.]+) MiB\)") == [
        f"{limits.CLUB_IMPORT_MAX_BYTES / 2**20:.1f}"
    ]
