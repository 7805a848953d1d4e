"""What a route declares where it is defined: the budgets it spends, whether it is a heavy read,
the largest body it takes.

A feature marks its own views; the toolkit reads the marks from the app's views, so `web/`
names no feature endpoint:

    @bp.post("/games/<game_id>/hands/new")
    @budget("record_hand")
    def new_hand(game_id): ...

    @bp.get("/clubs/<club_id>/hands.csv")
    @heavy_read
    def club_hands(club_id): ...

`budget` names a budget of scorer.web.ratelimit's table (LIMITS); the limits stay there. A
view may spend several budgets (an import spends its size and makes a club). By default the
writes are counted (POST, PUT, PATCH, DELETE); `methods=` counts others (the checker's page
is a read with its own budget). `heavy_read` marks a view whose cost grows with what a club
or a game has stored, or that renders a PDF: scorer.web.ratelimit gives it the heavy-read
budget, scorer.web.priority serves it at the lowest priority within a bounded number at once.
`costly_read` marks a view whose GET costs a worker tens of milliseconds whatever is stored (a
hand's form: hundreds of boxes for six sides): it spends no budget of the app's, but the
front (scorer.front) lets a client fewer of them a second than of the ordinary reads.
`body_cap` raises a view's cap on the request body above the app's MAX_CONTENT_LENGTH (an
import is larger than a hand): scorer.web.inbound refuses a larger body before any view runs.
The marks are attributes of the function, so the order of decorators does not matter.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, TypeVar

from flask import Blueprint, Flask

View = TypeVar("View", bound=Callable[..., Any])
WRITES = ("POST", "PUT", "PATCH", "DELETE")
READS = ("GET", "HEAD")
_BUDGETS = "scorer_budgets"
_HEAVY = "scorer_heavy_read"
_COSTLY = "scorer_costly_read"
# A read's weight, as the front bounds it: a heavy read, a costly one, or an ordinary one.
HEAVY, COSTLY, ORDINARY = "heavy", "costly", ""
_BODY_CAP = "scorer_body_cap"


def budget(
    *names: str, methods: Sequence[str] = WRITES, cost: Callable[[], int] | None = None
) -> Callable[[View], View]:
    """Mark a view as spending each of `names` on a request by one of `methods`; `cost`
    (called at the request) says how much, when it is not the budget's usual cost: a
    night's draw spends one new game per table it makes."""
    if not names:
        raise ValueError("budget() needs the name of at least one budget")

    def mark(view: View) -> View:
        setattr(view, _BUDGETS, (*declared(view), *((n, tuple(methods), cost) for n in names)))
        return view

    return mark


def declared(view: Callable[..., Any]) -> tuple[tuple[str, tuple[str, ...], Any], ...]:
    """The (budget, methods, cost or None) a view declared; () for none."""
    return tuple(getattr(view, _BUDGETS, ()))


def heavy_read(view: View) -> View:
    """Mark a view as a heavy read (its GET and HEAD)."""
    setattr(view, _HEAVY, True)
    return view


def costly_read(view: View) -> View:
    """Mark a view as a costly read (its GET and HEAD): a fixed cost, not a growing one."""
    setattr(view, _COSTLY, True)
    return view


def body_cap(max_bytes: int) -> Callable[[View], View]:
    """Mark a view as taking a body of up to `max_bytes` (more than the app's usual cap)."""

    def mark(view: View) -> View:
        setattr(view, _BODY_CAP, max_bytes)
        return view

    return mark


def body_cap_of(view: Callable[..., Any] | None) -> int | None:
    """The body cap a view declared; None: the app's MAX_CONTENT_LENGTH."""
    return getattr(view, _BODY_CAP, None)


def budgets_of(view: Callable[..., Any]) -> tuple[tuple[str, tuple[str, ...]], ...]:
    """The (budget, methods) a view declared; () for none."""
    return tuple((name, methods) for name, methods, _ in declared(view))


def is_heavy(view: Callable[..., Any] | None) -> bool:
    return bool(getattr(view, _HEAVY, False))


def weight_of(view: Callable[..., Any] | None) -> str:
    """HEAVY, COSTLY or ORDINARY: which of the front's per-client rates a read is counted by."""
    if is_heavy(view):
        return HEAVY
    return COSTLY if getattr(view, _COSTLY, False) else ORDINARY


def register_json_api(app: Flask, blueprint: Blueprint) -> None:
    """Register a blueprint whose writes take only application/json bodies, which no
    cross-site form can send: the pages' CSRF token is not asked of them (the app's CSRF
    protection, Flask-WTF's, is set up before the features register their routes)."""
    app.register_blueprint(blueprint)
    app.extensions["csrf"].exempt(blueprint)
