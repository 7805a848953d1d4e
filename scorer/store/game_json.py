"""The export format of a game: its table and each hand's inputs, as stored.

What the games API's export answers, what a club's export holds for each game, and what an
import reads back (scorer.web.api_contract parses it).
"""

from __future__ import annotations

from typing import Any

from scorer.core.families import get_family
from scorer.store.games import StoredGame, side_to_dict

EXPORT_FORMAT = "scorer-game"
EXPORT_VERSION = 1


def game_to_export(
    game: StoredGame, corrections: list[dict[str, Any]] | None = None
) -> dict[str, Any]:
    """Everything needed to rebuild the game elsewhere: its table and each hand's inputs,
    and a club game's record of corrections when it has one (scorer.store.corrections)."""
    family = get_family(game.family_key)
    return {
        "format": EXPORT_FORMAT,
        "format_version": EXPORT_VERSION,
        "id": game.id,
        "name": game.name,
        "family": game.family_key,
        "profile": game.profile_key,
        "target": game.target,
        **({"fixed_hands": game.fixed_hands} if game.fixed_hands is not None else {}),
        "rules": game.house_rules,
        "first_dealer": game.first_dealer,
        "created_at": game.created_at,
        "sides": [{"name": side.name, "players": list(side.players)} for side in game.sides],
        "hands": [
            {
                "went_out": hand.went_out,
                "concealed": hand.concealed,
                "sides": [side_to_dict(side, family) for side in hand.sides],
            }
            for hand in game.hands
        ],
        **({"corrections": corrections} if corrections else {}),
    }
