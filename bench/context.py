"""What the sections share: repeat counts, the in-process site and the served app."""

from __future__ import annotations

import time
from functools import cached_property

from bench.served import Server
from bench.site import Site


class Bench:
    """Built lazily, closed once at the end (temporary folders, the gunicorn server)."""

    def __init__(self, quick: bool) -> None:
        self.quick = quick
        self.repeat = 3 if quick else 7
        self.started = time.perf_counter()

    def elapsed(self) -> float:
        """Seconds since the benchmark started (late sections run fewer repeats)."""
        return time.perf_counter() - self.started

    @cached_property
    def site(self) -> Site:
        return Site()

    @cached_property
    def server(self) -> Server:
        return Server.start()

    def close(self) -> None:
        if "server" in self.__dict__:
            self.server.stop()
        if "site" in self.__dict__:
            self.site.close()
