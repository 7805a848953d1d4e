"""Clubs as JSON: the standings, records and club the API returns (and pages may reuse)."""

from __future__ import annotations

from typing import Any

from scorer.core.ratings import Rating, rating_json
from scorer.core.stats import ClubRecords, Comeback, HandRef, Standing
from scorer.store import ClubView


def hand_json(hand: HandRef | None) -> dict[str, Any] | None:
    if hand is None:
        return None
    return {
        "score": hand.score,
        "game": hand.game_id,
        "hand": hand.hand_number,
        "side": hand.side,
        "players": list(hand.players),
        "date": hand.date,
    }


def comeback_json(comeback: Comeback | None) -> dict[str, Any] | None:
    if comeback is None:
        return None
    return {
        "deficit": comeback.deficit,
        "game": comeback.game_id,
        "side": comeback.side,
        "players": list(comeback.players),
        "date": comeback.date,
    }


def standing_json(standing: Standing, rating: Rating | None = None) -> dict[str, Any]:
    return {
        "name": standing.name,
        "players": list(standing.players),
        "games": standing.games,
        "finished": standing.finished,
        "wins": standing.wins,
        "losses": standing.losses,
        "win_rate": round(standing.win_rate, 4),
        "hands": standing.hands,
        "points": standing.points,
        "average_hand": round(standing.average_hand, 2),
        "natural_canastas_per_hand": round(standing.natural_per_hand, 4),
        "mixed_canastas_per_hand": round(standing.mixed_per_hand, 4),
        "red_threes_per_hand": round(standing.red_threes_per_hand, 4),
        "going_out_rate": round(standing.going_out_rate, 4),
        "concealed_rate": round(standing.concealed_rate, 4),
        "best_hand": hand_json(standing.best_hand),
        "biggest_comeback": comeback_json(standing.comeback),
        "streak": standing.streak,
        "rating": rating_json(rating),
    }


def records_json(records: ClubRecords) -> dict[str, Any]:
    return {
        "year": records.year,
        "best_hand": hand_json(records.best_hand),
        "best_game": hand_json(records.best_game),
        "biggest_comeback": comeback_json(records.comeback),
    }


def empty_standing(name: str) -> Standing:
    return Standing((name,), 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, None, None, 0)


def club_json(view: ClubView) -> dict[str, Any]:
    stats = view.stats
    by_name = {standing.name: standing for standing in stats.players}
    ratings = stats.ratings.current
    return {
        "id": view.club.id,
        "name": view.club.name,
        "settings": view.club.settings,
        "version": view.club.version,
        "created_at": view.club.created_at,
        "players": [
            standing_json(by_name.get(name) or empty_standing(name), ratings.get(name))
            for name in view.club.players
        ],
        "games": list(view.club.game_ids),
        "standings": {
            "players": [standing_json(s, ratings.get(s.name)) for s in stats.players],
            "partnerships": [standing_json(s) for s in stats.partnerships],
            "head_to_head": [
                {
                    "player": h.player,
                    "opponent": h.opponent,
                    "games": h.games,
                    "wins": h.wins,
                    "losses": h.losses,
                }
                for h in stats.head_to_head
            ],
            "records": records_json(stats.records),
        },
    }
