"""Movements besides the draw (docs/rules.md §6): a Mitchell movement of fixed pairs, and the final
table of the night's best players.

Pure core; the rounds come out as scorer.core.draw's ``Round`` and ``DrawnTable``, so the store
makes their tables' games the way it makes a drawn round's.

**Mitchell.** The pairs are fixed; the first half sit North-South, the second East-West, one
North-South pair per table. North-South pairs never move; after each round every East-West pair
moves up one table (from the last table back to the first). Over as many rounds as tables, each
East-West pair meets each North-South pair exactly once. With an odd number of pairs, a phantom
East-West pair makes the count even: the pair it meets sits that round out (a bye).

**Final table.** The best players by the night's ranking: the organiser says how many come
from each table (e.g. the top two of each table of the last round) or, with no tables named,
how many in all. They play one table; partners are paired best with weakest (first and fourth
against second and third), so the sides are as even as the ranking says.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from scorer.core.draw import SHAPES, DrawnTable, Round
from scorer.core.errors import N_, RuleError
from scorer.core.limits import check_mitchell_pairs

PAIR_SIZE = 2
# A final table seats one table: three to six players (scorer.core.draw.SHAPES).
FINAL_SHAPES: dict[int, tuple[int, ...]] = {3: (1, 1, 1), 4: (2, 2), 5: (3, 2), 6: (2, 2, 2)}


@dataclass(frozen=True)
class Mitchell:
    """The pairs of a Mitchell movement: North-South (staying) and East-West (moving)."""

    north_south: tuple[tuple[str, str], ...]
    east_west: tuple[tuple[str, str] | None, ...]  # None: the phantom pair (a bye)

    @property
    def tables(self) -> int:
        return len(self.north_south)


def mitchell_pairs(pairs: Sequence[Sequence[str]], field: str = "pairs") -> Mitchell:
    """The movement's pairs from a list of pairs, the first half North-South; RuleError
    naming the pair at fault otherwise."""
    if isinstance(pairs, str) or not isinstance(pairs, Sequence):
        raise RuleError(field, N_("must be a list of pairs of names"))
    check_mitchell_pairs(len(pairs), field)
    seen: set[str] = set()
    checked: list[tuple[str, str]] = []
    for k, pair in enumerate(pairs):
        if isinstance(pair, str) or not isinstance(pair, Sequence) or len(pair) != PAIR_SIZE:
            raise RuleError(f"{field}[{k}]", N_("must be a pair: two names"))
        for name in pair:
            if not isinstance(name, str) or not name.strip():
                raise RuleError(f"{field}[{k}]", N_("must be a pair: two names"))
            key = name.casefold()
            if key in seen:
                raise RuleError(f"{field}[{k}]", N_("each player needs a different name"))
            seen.add(key)
        checked.append((pair[0], pair[1]))
    half = (len(checked) + 1) // 2
    east_west: list[tuple[str, str] | None] = list(checked[half:])
    east_west += [None] * (half - len(east_west))
    return Mitchell(tuple(checked[:half]), tuple(east_west))


def mitchell_round(movement: Mitchell, number: int) -> Round:
    """Round ``number`` (from 1) of the movement: East-West pair j sits at table j + number - 1.

    RuleError past the last round: one more would repeat a meeting."""
    tables = movement.tables
    if not 1 <= number <= tables:
        raise RuleError(
            "rounds",
            N_("a Mitchell movement of {tables} tables has {tables} rounds at most"),
            tables=tables,
        )
    shift = number - 1
    seated: list[DrawnTable] = []
    bye: tuple[str, ...] = ()
    for table, north_south in enumerate(movement.north_south):
        east_west = movement.east_west[(table - shift) % tables]
        if east_west is None:
            bye = north_south
            continue
        seated.append(DrawnTable(SHAPES[(2, 2)], (north_south, east_west)))
    return Round(tuple(seated), tuple(sorted(bye)))


def mitchell(pairs: Sequence[Sequence[str]], rounds: int | None = None) -> tuple[Round, ...]:
    """Every round of a Mitchell movement (as many as tables unless ``rounds`` says fewer)."""
    movement = mitchell_pairs(pairs)
    count = movement.tables if rounds is None else rounds
    return tuple(mitchell_round(movement, number) for number in range(1, count + 1))


def qualifiers(
    ranking: Sequence[str],
    *,
    per_table: int,
    tables: Sequence[Sequence[str]] | None = None,
) -> tuple[str, ...]:
    """The final table's players, best first: the ``per_table`` best of each table by the
    night's ``ranking`` (best first), or with no tables the ``per_table`` best in all."""
    if isinstance(per_table, bool) or not isinstance(per_table, int) or per_table < 1:
        raise RuleError("per_table", N_("must be a whole number, 1 or more"))
    place = {player: k for k, player in enumerate(ranking)}
    if tables is None:
        chosen = list(ranking[:per_table])
    else:
        chosen = []
        for k, table in enumerate(tables):
            unranked = [player for player in table if player not in place]
            if unranked:
                raise RuleError(
                    f"tables[{k}]", N_("{player} is not in the night's ranking"), player=unranked[0]
                )
            chosen += sorted(table, key=place.__getitem__)[:per_table]
    chosen.sort(key=place.__getitem__)
    if len(chosen) not in FINAL_SHAPES:
        raise RuleError(
            "per_table",
            N_("a final table seats 3 to 6 players: these numbers bring {count}"),
            count=len(chosen),
        )
    return tuple(chosen)


def final_table(
    ranking: Sequence[str],
    *,
    per_table: int,
    tables: Sequence[Sequence[str]] | None = None,
) -> DrawnTable:
    """The final table, seated: partners best with weakest (1 and 4 against 2 and 3)."""
    chosen = qualifiers(ranking, per_table=per_table, tables=tables)
    shape = FINAL_SHAPES[len(chosen)]
    if shape == (1, 1, 1):
        sides = tuple((player,) for player in chosen)
    elif shape == (2, 2):
        first, second, third, fourth = chosen
        sides = ((first, fourth), (second, third))
    elif shape == (3, 2):
        first, second, third, fourth, fifth = chosen
        sides = ((first, fourth, fifth), (second, third))
    else:
        first, second, third, fourth, fifth, sixth = chosen
        sides = ((first, sixth), (second, fifth), (third, fourth))
    return DrawnTable(SHAPES[shape], sides)
