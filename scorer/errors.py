"""Domain errors: each names the field at fault and says why in plain words."""

from __future__ import annotations

from typing import Any


def N_(template: str) -> str:
    """Mark a message for translation without translating it (the domain knows no locale)."""
    return template


class RuleError(ValueError):
    """A game or a hand breaks a rule of the rule book.

    ``template`` is an English sentence with ``{name}`` placeholders filled from ``params``;
    the web layer translates the template, then fills it, so the domain stays locale-free.
    """

    def __init__(self, field: str | None, template: str, **params: Any) -> None:
        self.field = field
        self.template = template
        self.params = params
        self.reason = template.format(**params)
        super().__init__(f"{field}: {self.reason}" if field else self.reason)


class GameFinished(RuleError):
    """The game already has a winner: it takes no further hands."""
