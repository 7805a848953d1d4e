"""Domain errors: each names the field at fault and says why in plain words."""

from __future__ import annotations

from typing import Any


def N_(template: str) -> str:
    """Mark a message for translation without translating it (the domain knows no locale)."""
    return template


class ScorerError(Exception):
    """Anything the scorer refuses, with the field at fault and the reason.

    ``template`` is an English sentence with ``{name}`` placeholders filled from ``params``;
    the web layer translates the template, then fills it, so the domain stays locale-free.
    ``hand_number`` says which hand of a replay the refusal came from (None: not a replay).
    """

    def __init__(
        self, field: str | None, template: str, *, hand_number: int | None = None, **params: Any
    ) -> None:
        self.field = field
        self.template = template
        self.params = params
        self.hand_number = hand_number
        self.reason = template.format(**params)
        super().__init__(f"{field}: {self.reason}" if field else self.reason)


class RuleError(ScorerError, ValueError):
    """A game or a hand breaks a rule of the rule book."""


class GameFinished(RuleError):
    """The game already has a winner: it takes no further hands."""
