"""Per-client budgets on everything that stores, and on the checker as a read.

One table (`ENDPOINTS`) says which endpoint spends which budget (`LIMITS`), and how much
one request costs (`COSTS`): most cost 1, an import costs what it stores (its body in KiB),
so one 16 MiB club import spends what sixteen thousand small ones would. The numbers are far
above what a real table does (an evening is one or two games and a few dozen hands), so only
a script meets them.

Each limit is configurable as `RATELIMIT_<BUDGET>` (a Flask-Limiter limit string such as
"60/hour;300/day"), in the app's config or in the server's environment, as are
Flask-Limiter's own settings (RATELIMIT_ENABLED=False turns every limit off,
RATELIMIT_STORAGE_URI shares the counts). The config given to create_app wins over the
environment.

A request refused for its budget (429) spends nothing: each budget is tested before the
view and spent after it (Flask-Limiter's `deduct_when`) unless the answer was that 429.
With the fixed windows in use, spending on refusal would let refusals by one window (the
day's) fill another (the hour's), still full when the day's opens again. Any other answer,
a 4xx refusal of bad input included, spends as before: it cost the server a request.

Counters live in the worker's memory (`memory://`): with several gunicorn workers each keeps
its own, so a client gets at most workers × the limit. That still stops a flood long before
the disk fills; set RATELIMIT_STORAGE_URI (e.g. "redis://...") for one shared count.
"""

from __future__ import annotations

import math
import os
from collections.abc import Callable, Mapping
from typing import Any

from flask import Flask, Response, current_app, request
from flask_limiter import Limiter
from flask_limiter.util import get_remote_address

ENV_PREFIX = "RATELIMIT_"
# Budget name -> default limit. Why these numbers:
# - create_game: every game made, whatever the door (new game, play again, a club's new
#   game): a club night starts a handful; 60 an hour is one a minute, all hour.
# - import_kib: KiB imported (games and clubs). Restoring exports is rare: 32 MiB an hour
#   (thirty games at the cap, or two clubs at theirs), 100 MiB a day.
# - record_hand: recording, correcting or removing a hand. A hand takes minutes to play; 600
#   an hour is ten a minute for a whole hour, enough for a club scoring every table from one
#   phone.
# - create_club: a club is made once and kept for years; 20 an hour is plenty for a
#   federation setting up its clubs.
# - club_roster: players added, renamed or removed, games filed: a club's first evening
#   enters its 60 players at most.
# - check_meld: the opening checker, a read: a person taps a few times a minute.
LIMITS: dict[str, str] = {
    "create_game": "60/hour;300/day",
    "import_kib": "32768/hour;102400/day",
    "record_hand": "600/hour;3000/day",
    "create_club": "20/hour;60/day",
    "club_roster": "300/hour;1500/day",
    "check_meld": "60/minute;1200/hour",
}


def body_kib() -> int:
    """What an import stores, roughly: its body, in KiB (at least 1)."""
    return max(1, math.ceil((request.content_length or 0) / 1024))


# Budget -> what one request costs, when it is not 1.
COSTS: dict[str, Callable[[], int]] = {"import_kib": body_kib}

POST = ["POST"]
# (endpoint, budget, methods counted). The pages and the API spend the same budgets: a
# client gains nothing by switching door. An endpoint may spend more than one budget.
ENDPOINTS: tuple[tuple[str, str, list[str]], ...] = (
    ("api.create_game", "create_game", POST),
    ("pages.new_game", "create_game", POST),
    ("api.play_again", "create_game", POST),
    ("pages.play_again", "create_game", POST),
    ("api_clubs.create_game", "create_game", POST),
    ("pages.new_club_game", "create_game", POST),
    ("api.import_game", "import_kib", POST),
    ("api_clubs.import_club", "import_kib", POST),
    ("api_clubs.import_club", "create_club", POST),
    ("api_clubs.create_club", "create_club", POST),
    ("pages.new_club", "create_club", POST),
    ("api_clubs.add_player", "club_roster", POST),
    ("api_clubs.rename_player", "club_roster", ["PATCH"]),
    ("api_clubs.remove_player", "club_roster", ["DELETE"]),
    ("api_clubs.file_game", "club_roster", POST),
    ("pages.add_player", "club_roster", POST),
    ("pages.rename_player", "club_roster", POST),
    ("pages.remove_player", "club_roster", POST),
    ("pages.file_game", "club_roster", POST),
    ("api.add_hand", "record_hand", POST),
    ("pages.new_hand", "record_hand", POST),
    # Corrections and removals are writes too, and on a long game the dearest ones.
    ("api.replace_hand", "record_hand", ["PUT"]),
    ("api.delete_hand", "record_hand", ["DELETE"]),
    ("api.delete_after_end", "record_hand", ["DELETE"]),
    ("pages.edit_hand", "record_hand", POST),
    ("pages.check_hand", "check_meld", POST),  # the hand form's dry run: a read
    ("pages.delete_hand", "record_hand", POST),
    ("pages.undo", "record_hand", POST),
    ("pages.delete_after_end", "record_hand", POST),
    # A club night: made once (its players join the roster); each round drawn makes its
    # tables' games, a redraw makes them again.
    ("nights_api.create_night", "club_roster", POST),
    ("nights_pages.new_night", "club_roster", POST),
    ("nights_api.add_player", "club_roster", POST),
    ("nights_pages.add_player", "club_roster", POST),
    ("nights_api.draw_round", "create_game", POST),
    ("nights_api.redraw_round", "create_game", POST),
    ("nights_pages.draw", "create_game", POST),
    ("nights_pages.redraw", "create_game", POST),
    ("checker.opening_meld_api", "check_meld", POST),
    ("checker.check_meld_page", "check_meld", ["GET", "POST"]),
)
# Flask-Limiter's settings that are switches: "False" in the environment means off.
_SWITCHES = frozenset({"RATELIMIT_ENABLED", "RATELIMIT_HEADERS_ENABLED"})
_FALSE = frozenset({"0", "false", "no", "off"})


def config_key(budget: str) -> str:
    return f"RATELIMIT_{budget.upper()}"


def spends(response: Response) -> bool:
    """Whether an answer spends its budgets: all but a refusal for a budget (429)."""
    return response.status_code != 429


def limit_of(budget: str) -> Callable[[], str]:
    """The budget's limit string, read from the app's config at each request."""
    return lambda: current_app.config.get(config_key(budget)) or LIMITS[budget]


def init_app(app: Flask) -> Limiter:
    """Attach this app's own limiter and put the table's limits on its endpoints.

    Call after the blueprints are registered: the limits wrap the registered views, so the
    route modules carry no decorator. A missing endpoint fails loudly at start-up rather
    than leaving a door unlimited.
    """
    for key, value in settings_from(os.environ).items():
        app.config.setdefault(key, value)  # the config given to create_app wins
    app.config.setdefault("RATELIMIT_STORAGE_URI", "memory://")
    app.config.setdefault("RATELIMIT_HEADERS_ENABLED", True)  # Retry-After on every 429
    limiter = Limiter(get_remote_address, app=app)  # the address ProxyFix vouched for, if any
    app.extensions["scorer.limiter"] = limiter
    for endpoint, budget, methods in ENDPOINTS:
        if endpoint not in app.view_functions:
            raise RuntimeError(f"rate limit table names a missing endpoint: {endpoint}")
        limit = limiter.shared_limit(
            limit_of(budget),
            scope=budget,
            methods=methods,
            cost=COSTS.get(budget, 1),
            deduct_when=spends,
        )
        app.view_functions[endpoint] = limit(app.view_functions[endpoint])
    return limiter


def settings_from(env: Mapping[str, str]) -> dict[str, Any]:
    """The RATELIMIT_* settings of a server's environment, switches read as booleans."""
    settings: dict[str, Any] = {}
    for key, value in env.items():
        if not key.startswith(ENV_PREFIX) or not value.strip():
            continue
        settings[key] = value.strip().lower() not in _FALSE if key in _SWITCHES else value
    return settings
