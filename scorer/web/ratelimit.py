"""Per-client budgets on everything that stores, and on the checker as a read.

Each route declares the budgets it spends where it is defined (scorer.web.routes: `@budget`,
`@heavy_read`); this module holds the budgets themselves (`LIMITS`) and how much one request
costs (`COSTS`): most cost 1, an import costs what it stores (its body in KiB),
so one 23 MiB club import spends what twenty-three thousand small ones would. The numbers are far
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

from flask import Flask, Response, current_app, g, request
from flask_limiter import Limiter

from scorer.core.limits import LARGEST_BODY
from scorer.web.clients import request_client
from scorer.web.routes import READS, declared, is_heavy

ENV_PREFIX = "RATELIMIT_"
# Budget name -> default limit. Why these numbers:
# - create_game: every game made, whatever the door (new game, play again, a club's new
#   game): a club night starts a handful; 60 an hour is one a minute, all hour.
# - import_kib: KiB imported (games and clubs). Restoring exports is rare: 24 MiB an hour (the
#   largest import, a part of a club's export at CLUB_IMPORT_MAX_BYTES, fits it; a game's
#   cap is about 14 MiB, a real game's export a few KiB), 32 MiB a day.
#   An import is stored as about 1.7 times its body, and each worker counts on its own:
#   the day's 32 MiB keep a client's growth of the database near 0.3 GiB a day at every
#   budget (BENCHMARKS.md, section 11; 100 MiB a day let it reach 0.9 GiB).
# - record_hand: recording, correcting or removing a hand. A hand takes minutes to play; 600
#   an hour is ten a minute for a whole hour, enough for a club scoring every table from one
#   phone.
# - create_club: a club is made once and kept for years; 20 an hour is plenty for a
#   federation setting up its clubs.
# - club_roster: players added, renamed or removed, games filed: a club's first evening
#   enters its 60 players at most.
# - check_meld: the opening checker, a read: a person taps a few times a minute.
# - preview_hand: the hand form's dry run (the preview), a read asked as a hand is typed:
#   a few a hand at every table, and a club's tables often share one address (its Wi-Fi's).
# - heavy_read: what a route marked @heavy_read costs (a club's page, API, export and CSV
#   parts, a game's export and CSV, a season's page, API and CSV, every PDF): each can
#   hold a core for a second or more. A club night's organiser prints a seating per round
#   and the standings, browses the club's pages of games: a few a minute. Twenty a minute
#   lets a person page through a club quickly; a loop meets the hour's bound within ten
#   minutes.
LIMITS: dict[str, str] = {
    "create_game": "60/hour;300/day",
    "import_kib": "24576/hour;32768/day",
    "record_hand": "600/hour;3000/day",
    "create_club": "20/hour;60/day",
    "club_roster": "300/hour;1500/day",
    "check_meld": "60/minute;1200/hour",
    "preview_hand": "300/minute;6000/hour",
    "heavy_read": "20/minute;200/hour;1000/day",
}


def body_kib() -> int:
    """What an import stores, roughly: its body, in KiB (at least 1). A body over the largest
    cap stores nothing (413 at once) and costs what any refusal does: it must meet its 413,
    not a 429 for the size it was refused for."""
    length = request.content_length or 0
    if length > LARGEST_BODY:
        return 1
    return max(1, math.ceil(length / 1024))


# Budget -> what one request costs, when it is not 1.
COSTS: dict[str, Callable[[], int]] = {"import_kib": body_kib}

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

    Call after the blueprints are registered: the limits wrap the registered views, as
    each declared (scorer.web.routes). A budget no table holds fails loudly at start-up
    rather than leaving a door unlimited.
    """
    for key, value in settings_from(os.environ).items():
        app.config.setdefault(key, value)  # the config given to create_app wins
    app.config.setdefault("RATELIMIT_STORAGE_URI", "memory://")
    app.config.setdefault("RATELIMIT_HEADERS_ENABLED", True)  # Retry-After on every 429
    app.after_request(keep_own_retry_after)  # registered first: runs after the limiter's
    limiter = Limiter(request_client, app=app)  # an IPv4 address or an IPv6 /64
    app.extensions["scorer.limiter"] = limiter
    for endpoint, view in list(app.view_functions.items()):
        wrapped = view
        for budget, methods, cost in declared_budgets(view):
            if budget not in LIMITS:
                raise RuntimeError(f"{endpoint} declares an unknown budget: {budget}")
            limit = limiter.shared_limit(
                limit_of(budget),
                scope=budget,
                methods=list(methods),
                cost=cost or COSTS.get(budget, 1),
                deduct_when=spends,
            )
            wrapped = limit(wrapped)
        app.view_functions[endpoint] = wrapped
    return limiter


def keep_own_retry_after(response: Response) -> Response:
    """A busy answer's own Retry-After (a sheet rendering: 5 s), not the budget's window.

    Flask-Limiter sets Retry-After on every answer of a limited route to its window's end;
    a 503 that asks again in a few seconds must keep saying so.
    """
    own = g.get("scorer_retry_after")
    if own is not None and response.status_code != 429:
        response.headers["Retry-After"] = own
    return response


def declared_budgets(view: Callable[..., Any]) -> list[tuple[str, tuple[str, ...], Any]]:
    """What a view spends: the budgets it declared (each with its methods and its own cost,
    or None), and the heavy-read budget if it is one."""
    spent = list(declared(view))
    if is_heavy(view):
        spent.append(("heavy_read", READS, None))
    return spent


def settings_from(env: Mapping[str, str]) -> dict[str, Any]:
    """The RATELIMIT_* settings of a server's environment, switches read as booleans."""
    settings: dict[str, Any] = {}
    for key, value in env.items():
        if not key.startswith(ENV_PREFIX) or not value.strip():
            continue
        settings[key] = value.strip().lower() not in _FALSE if key in _SWITCHES else value
    return settings
