"""A club's records compare a best hand and a best game within their family (issue 31): a
Modern American hand of 3 000 is no Classic record."""

from __future__ import annotations

from scorer.core.stats import GameSummary, SideSummary, club_stats


def side(players: tuple[str, ...], total: int, best: int) -> SideSummary:
    return SideSummary(players, total, 1, total, 0, 0, 0, 0, 0, best, 1)


def summary(game_id: str, family: str, best: int) -> GameSummary:
    sides = (side(("Ann", "Bob"), best, best), side(("Cy", "Di"), 100, 100))
    return GameSummary(game_id, "2026-03-01", sides, None, 1, 0, family)


GAMES = [summary("c1", "classic", 1200), summary("m1", "modern-american", 3595)]


def test_a_classic_clubs_records_are_its_classic_games() -> None:
    records = club_stats(GAMES, "2026").records
    assert records.best_hand is not None and records.best_hand.game_id == "c1"
    assert records.best_game is not None and records.best_game.game_id == "c1"
    by_family = {family: hand.game_id for family, hand, _game in records.by_family if hand}
    assert by_family == {"classic": "c1", "modern-american": "m1"}


def test_a_modern_american_clubs_records_and_standings_are_its_own() -> None:
    stats = club_stats(GAMES, "2026", "modern-american")
    assert stats.records.best_hand is not None and stats.records.best_hand.game_id == "m1"
    ann = next(s for s in stats.players if s.name == "Ann")
    assert ann.best_hand is not None and ann.best_hand.score == 3595
    assert ann.games == 2  # both games count in the standings; only the record is by family
