"""The app as gunicorn serves it for the benchmark: a temporary database and a bare route.

gunicorn cannot hand create_app a config dict, so `bench.wsgi:create()` builds the app from
BENCH_DATABASE and mounts /bench/bare (a fixed string) on the same app: the floor of the
same server, the same workers and the same after-request hooks.
"""

from __future__ import annotations

import os

from flask import Flask

from scorer import create_app

BARE_PATH = "/bench/bare"
BARE_BODY = "ok"


def bare() -> str:
    return BARE_BODY


def create() -> Flask:
    app = create_app(
        {
            "DATABASE": os.environ["BENCH_DATABASE"],
            "SECRET_KEY": os.environ.get("BENCH_SECRET_KEY", "bench-secret"),
            "INSTANCE_PATH": os.path.dirname(os.environ["BENCH_DATABASE"]),
        }
    )
    app.add_url_rule(BARE_PATH, "bench_bare", bare)
    return app
