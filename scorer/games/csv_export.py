"""Every hand of a game as CSV rows: one row per side per hand, each input and each score part.

Headers are in English and numbers unformatted, so any spreadsheet reads them as numbers.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable, Iterator
from functools import cache
from typing import Any

from scorer.core.families import CANASTAS_FIELD, DEFAULT_FAMILY, RuleFamily
from scorer.core.hand_schema import CHOICE, COUNT, COUNTS_BY_KIND, canasta_fields, side_fields
from scorer.core.hands import SideHand, SideScore, score_parts
from scorer.store import ReplayedGame


def canasta_columns(family: RuleFamily) -> tuple[str, ...]:
    """A column per kind of canasta of the family's hand schema ("natural canastas")."""
    return tuple(_canasta_column(field.canasta or "") for field in canasta_fields(family))


def _canasta_column(kind: str) -> str:
    return CANASTAS_FIELD.format(kind=kind).replace("_", " ")


# The score parts only some families have, by the column that shows them.
FAMILY_SCORE_COLUMNS = {
    "black three score": "black_threes",
    "penalties": "penalties",
    "special hand score": "special",
}


@cache
def family_columns(family: RuleFamily) -> tuple[str, ...]:
    """The columns of the fields only some families ask, by the hand schema (none in
    Classic): "black threes", "unfinished sevens", "players holding aces", "special hand",
    Bolivia's "black threes in hand"; then the score parts only some families have."""
    columns: list[str] = []
    for field in side_fields(family):
        if field.name in FAMILY_FIELDS:
            if field.kind == COUNTS_BY_KIND:
                columns.extend(_spaced(f"{field.name} {kind}") for kind in field.kinds)
            else:
                columns.append(_spaced(field.name))
    parts = score_parts(family)
    columns.extend(column for column, part in FAMILY_SCORE_COLUMNS.items() if part in parts)
    return tuple(columns)


# The fields of a side's hand that only some families ask (the others have columns of their own).
FAMILY_FIELDS = frozenset(
    {"black_threes", "unfinished", "players_holding", "special_hand", "black_threes_in_hand"}
)


def _spaced(name: str) -> str:
    return name.replace("_", " ")


def columns_of(families: Iterable[RuleFamily]) -> tuple[str, ...]:
    """The header of a CSV of games of these families: Classic's columns, then each kind of
    canasta and each field another family adds, once."""
    extra: dict[str, None] = {}
    for family in families:
        for column in (*canasta_columns(family), *family_columns(family)):
            if column not in COLUMNS:
                extra[column] = None
    return (*COLUMNS, *extra)


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
                **_family_cells(profile.family, call, score),
            }


def _family_cells(family: RuleFamily, call: SideHand, score: SideScore) -> dict[str, Any]:
    """The cells of what only some families ask, read through the hand schema."""
    if not family_columns(family):
        return {}  # Classic: its columns are the fixed ones
    cells: dict[str, Any] = {}
    for field in side_fields(family):
        if field.name not in FAMILY_FIELDS:
            continue
        value = getattr(call, field.name)
        if field.kind == COUNTS_BY_KIND:
            counts = dict(value)
            for kind in field.kinds:
                cells[_spaced(f"{field.name} {kind}")] = counts.get(kind, 0)
        elif field.kind == CHOICE:
            cells[_spaced(field.name)] = value or ""
        elif field.kind == COUNT:
            cells[_spaced(field.name)] = value
    for column in family_columns(family):
        if column in FAMILY_SCORE_COLUMNS:
            cells[column] = getattr(score, FAMILY_SCORE_COLUMNS[column])
    return cells


def to_csv(games: Iterable[ReplayedGame]) -> str:
    """The CSV text of these games' hands, with a header row (columns by their families: a
    cell a game's family does not ask stays empty)."""
    games = list(games)
    columns = columns_of(dict.fromkeys(game.table.profile.family for game in games))
    out = io.StringIO()
    writer = csv.DictWriter(out, fieldnames=columns, lineterminator="\r\n")
    writer.writeheader()
    for game in games:
        writer.writerows(hand_rows(game))
    return out.getvalue()
