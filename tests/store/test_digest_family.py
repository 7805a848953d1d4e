"""A game's digest stored before families (issue 31) reads back as a Classic game."""

from __future__ import annotations

from scorer.core.stats import GameSummary, SideSummary
from scorer.store.club_digest import GameDigest, from_json, to_json


def test_a_summary_stored_before_families_is_classic() -> None:
    sides = (SideSummary(("Ann",), 500, 1, 500, 0, 0, 0, 0, 0, 500, 1),)
    text = to_json(GameDigest(None, GameSummary("x", "2026-03-01", sides, None, 1, 0)))
    old = text.replace(',"family":"classic"', "")
    assert '"family"' not in old and '"family"' in text
    read = from_json(old).summary
    assert read is not None and read.family == "classic"
