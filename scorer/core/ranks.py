"""Ranks from 1, shared by lines level on what ranks them (players level listed by name)."""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable
from dataclasses import replace
from typing import Any, TypeVar

L = TypeVar("L", bound=Any)  # a frozen dataclass with ``player`` and ``rank``


def ranked(lines: Iterable[L], order: Callable[[L], Hashable]) -> list[L]:
    """The lines sorted by ``order`` (lowest first), each a copy with its ``rank``."""
    ordered = sorted(lines, key=lambda line: (order(line), line.player.casefold(), line.player))
    result: list[L] = []
    for position, line in enumerate(ordered, 1):
        level = bool(result) and order(line) == order(result[-1])
        result.append(replace(line, rank=result[-1].rank if level else position))
    return result
