"""The work of one request as the app handles it, counted rather than timed: the Python calls
cProfile sees (the same for the same request on the same data, where a time is not). The
guards against reads that grow (tests/web/test_read_growth.py with the club,
tests/web/test_game_length_growth.py with a game's length) compare such counts."""

from __future__ import annotations

import cProfile
from pathlib import Path

from flask import Flask

from scorer import create_app, front

# What a read may cost, by its weight (tests/web/test_read_cost.py): one client looping on it
# at the front's rate for that weight (scorer.front) may take at most SHARE of a core.
# A quarter: in bench section 11, a loop at a sixth of a core (the six-sided correction
# form, 5 a second) kept a small game's writes at 1.2x alone, one at a third (the new-game
# form, 50 a second) did not (2.2x, 3.8x).
SHARE = 0.25
# Python calls a millisecond of a worker makes on the app's reads, cProfile off (measured
# here: 6 000 to 9 500 on the pages; a read that is mostly SQL makes fewer).
CALLS_A_MS = 7_500


def ceiling(weight: str) -> int:
    """The most Python calls one warmed read of `weight` may make: SHARE of a core at its
    rate (an ordinary read 10 ms, a costly one 50 ms)."""
    return int(SHARE * 1000 / front.rate_of(weight).rate * CALLS_A_MS)


def calls(app: Flask, path: str, headers: dict[str, str]) -> tuple[int, int, str | None, int]:
    """The status, the Python calls, the tag and the body's bytes of one GET as the app
    handles it, after two that warm every cache. Dispatched in this thread: a heavy read's
    own thread (scorer.web.priority) would hide its work from the count."""
    for counted in (False, False, True):
        profile = cProfile.Profile()
        with app.test_request_context(path, headers=headers):
            if counted:
                profile.enable()
            answer = app.full_dispatch_request()
            profile.disable()
            read = not (answer.is_streamed or answer.direct_passthrough)
            size = len(answer.get_data()) if read else 0  # (a file or a stream: not read)
            answer.close()
    count = sum(entry.callcount for entry in profile.getstats())
    return answer.status_code, count, answer.get_etag()[0], size


def counting_app(folder: Path) -> Flask:
    """An app on its own database in `folder`, every read answered: no rate limit, no CSRF."""
    return create_app(
        {
            "TESTING": True,
            "DATABASE": str(folder / "scorer.sqlite3"),
            "SECRET_KEY": "test-secret",
            "WTF_CSRF_ENABLED": False,
            "RATELIMIT_ENABLED": False,
        }
    )
