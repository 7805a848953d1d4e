"""Every hand of a game as CSV rows: one row per side per hand, each input and each score part.

Headers are in English and numbers unformatted, so any spreadsheet reads them as numbers.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable, Iterator
from typing import Any

from scorer.core.families import DEFAULT_FAMILY, RuleFamily
from scorer.core.hand_schema import canasta_fields
from scorer.store import ReplayedGame


def canasta_columns(family: RuleFamily) -> tuple[str, ...]:
    """A column per kind of canasta of the family's hand schema ("natural canastas")."""
    return tuple(field.name.replace("_", " ") for field in canasta_fields(family))


COLUMNS = (
    "game id",
    "date",
    "hand",
    "side",
    "side name",
    "players",
    "meld points",
    *canasta_columns(DEFAULT_FAMILY),
    "red threes",
    "went out",
    "concealed",
    "points in hand",
    "melded cards score",
    "canasta bonus",
    "red three score",
    "going out bonus",
    "cards in hand score",
    "adjustment",
    "adjustment note",
    "hand score",
    "running total",
)

# A cell a spreadsheet would run as a formula (a name typed as "=HYPERLINK(...)").
_FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def text_cell(value: str) -> str:
    """Text kept as text: a leading quote stops a spreadsheet from reading a formula."""
    return "'" + value if value.startswith(_FORMULA_STARTS) else value


def hand_rows(game: ReplayedGame) -> Iterator[dict[str, Any]]:
    """The game's rows: hands in order, sides in order (side numbers from 1)."""
    profile = game.table.profile
    kinds = tuple(zip(canasta_columns(profile.family), canasta_fields(profile.family), strict=True))
    for result in game.state.results:
        for index, (call, score) in enumerate(zip(result.hand.sides, result.scores, strict=True)):
            side = game.table.sides[index]
            went_out = result.hand.went_out == index
            yield {
                "game id": game.id,
                "date": game.created_at,
                "hand": result.number,
                "side": index + 1,
                "side name": text_cell(side.name),
                "players": text_cell(" & ".join(side.players)),
                "meld points": call.melded(profile),
                **{column: call.canastas_of(field.canasta) for column, field in kinds},
                "red threes": call.red_threes,
                "went out": int(went_out),
                "concealed": int(went_out and result.hand.concealed),
                "points in hand": call.left_in_hand(profile),
                "melded cards score": score.cards,
                "canasta bonus": score.canastas,
                "red three score": score.red_threes,
                "going out bonus": score.going_out,
                "cards in hand score": score.hand,
                "adjustment": score.adjustment,
                "adjustment note": text_cell(call.adjustment_note),
                "hand score": score.total,
                "running total": result.totals[index],
            }


def to_csv(games: Iterable[ReplayedGame]) -> str:
    """The CSV text of these games' hands, with a header row."""
    out = io.StringIO()
    writer = csv.DictWriter(out, fieldnames=COLUMNS, lineterminator="\r\n")
    writer.writeheader()
    for game in games:
        writer.writerows(hand_rows(game))
    return out.getvalue()
