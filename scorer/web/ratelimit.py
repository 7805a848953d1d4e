"""Per-client rate limits on the writes that cost disk: creating games, importing, recording.

One table says which endpoint spends which budget. The numbers are far above what a real
table does (an evening is one or two games and a few dozen hands), so only a script meets
them; each is configurable through the app's config (`RATELIMIT_<NAME>`, a Flask-Limiter
limit string such as "60/hour;300/day").

Counters live in the worker's memory (`memory://`): with several gunicorn workers each keeps
its own, so a client gets at most workers × the limit. That still stops a flood long before
the disk fills; set RATELIMIT_STORAGE_URI (e.g. "redis://...") for one shared count.
Flask-Limiter's own RATELIMIT_ENABLED=False turns every limit off.
"""

from __future__ import annotations

from collections.abc import Callable

from flask import Flask, current_app
from flask_limiter import Limiter
from flask_limiter.util import get_remote_address

# Budget name -> default limit. Why these numbers:
# - create_game: a club night starts a handful of games; 60 an hour is one a minute, all hour.
# - import_game: imports restore exports, a few at a time; 30 an hour, 100 a day.
# - record_hand: recording, correcting or removing a hand. A hand takes minutes to play; 600
#   an hour is ten a minute for a whole hour, enough for a club scoring every table from one
#   phone.
LIMITS: dict[str, str] = {
    "create_game": "60/hour;300/day",
    "import_game": "30/hour;100/day",
    "record_hand": "600/hour;3000/day",
}

# Endpoint -> (budget, methods counted). The pages and the API spend the same budget: a
# client gains nothing by switching door.
ENDPOINTS: dict[str, tuple[str, list[str]]] = {
    "api.create_game": ("create_game", ["POST"]),
    "pages.new_game": ("create_game", ["POST"]),
    "api.import_game": ("import_game", ["POST"]),
    "api.add_hand": ("record_hand", ["POST"]),
    "pages.new_hand": ("record_hand", ["POST"]),
    # Corrections and removals are writes too, and on a long game the dearest ones.
    "api.replace_hand": ("record_hand", ["PUT"]),
    "api.delete_hand": ("record_hand", ["DELETE"]),
    "api.delete_after_end": ("record_hand", ["DELETE"]),
    "pages.edit_hand": ("record_hand", ["POST"]),
    "pages.delete_hand": ("record_hand", ["POST"]),
    "pages.undo": ("record_hand", ["POST"]),
    "pages.delete_after_end": ("record_hand", ["POST"]),
}


def config_key(budget: str) -> str:
    return f"RATELIMIT_{budget.upper()}"


def limit_of(budget: str) -> Callable[[], str]:
    """The budget's limit string, read from the app's config at each request."""
    return lambda: current_app.config.get(config_key(budget)) or LIMITS[budget]


def init_app(app: Flask) -> Limiter:
    """Attach this app's own limiter and put the table's limits on its endpoints.

    Call after the blueprints are registered: the limits wrap the registered views, so the
    route modules carry no decorator. A missing endpoint fails loudly at start-up rather
    than leaving a door unlimited.
    """
    app.config.setdefault("RATELIMIT_STORAGE_URI", "memory://")
    app.config.setdefault("RATELIMIT_HEADERS_ENABLED", True)  # Retry-After on every 429
    limiter = Limiter(get_remote_address, app=app)  # the address ProxyFix vouched for, if any
    app.extensions["scorer.limiter"] = limiter
    for endpoint, (budget, methods) in ENDPOINTS.items():
        if endpoint not in app.view_functions:
            raise RuntimeError(f"rate limit table names a missing endpoint: {endpoint}")
        limit = limiter.shared_limit(limit_of(budget), scope=budget, methods=methods)
        app.view_functions[endpoint] = limit(app.view_functions[endpoint])
    return limiter
