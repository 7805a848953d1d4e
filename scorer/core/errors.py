"""Domain errors: each names the field at fault and says why in plain words."""

from __future__ import annotations

from typing import Any, TypeVar

E = TypeVar("E", bound="ScorerError")


def N_(template: str) -> str:
    """Mark a message for translation without translating it (the domain knows no locale)."""
    return template


def N_plural(singular: str, plural: str) -> tuple[str, str]:
    """Mark a message with a plural form (the web layer picks one by the ``count`` param)."""
    return singular, plural


class ScorerError(Exception):
    """Anything the scorer refuses, with the field at fault and the reason.

    ``template`` is an English sentence with ``{name}`` placeholders filled from ``params``;
    the web layer translates the template, then fills it, so the domain stays locale-free.
    ``hand_number`` says which hand of a replay the refusal came from (None: not a replay).
    """

    def __init__(
        self,
        field: str | None,
        template: str | tuple[str, str],
        *,
        hand_number: int | None = None,
        **params: Any,
    ) -> None:
        # A (singular, plural) pair from N_plural: English picks by count here, the web
        # layer asks the reader's language (ngettext).
        self.plural = template if isinstance(template, tuple) else None
        if self.plural:
            template = self.plural[0] if params.get("count") == 1 else self.plural[1]
        self.field = field
        self.template = template
        self.params = params
        self.hand_number = hand_number
        self.reason = template.format(**params)
        super().__init__(f"{field}: {self.reason}" if field else self.reason)

    def recast(self, kind: type[E]) -> E:
        """The same refusal (field, words, params) as another kind, so it gets that kind's
        status: e.g. the checker answers every unreadable request as a PayloadError (400)."""
        return kind(
            self.field, self.plural or self.template, hand_number=self.hand_number, **self.params
        )


class RuleError(ScorerError, ValueError):
    """A game or a hand breaks a rule of the rule book."""


class GameFinished(RuleError):
    """The game already has a winner: it takes no further hands."""
