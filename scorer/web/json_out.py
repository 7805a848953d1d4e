"""The app's JSON out through orjson.

A game at the cap on hands is about 600 KB of JSON, written on every read and write of it;
the standard library's encoder takes about 10 ms for that, orjson about one. What orjson
would write differently from Flask's own provider (dates, dataclasses) is passed through to
Flask's `default`, so every answer reads as before. Reading JSON stays with the standard
library, whose errors the API already words.
"""

from __future__ import annotations

from typing import Any

import orjson
from flask.json.provider import DefaultJSONProvider

OPTIONS = (
    orjson.OPT_NON_STR_KEYS | orjson.OPT_PASSTHROUGH_DATETIME | orjson.OPT_PASSTHROUGH_DATACLASS
)


class JSONProvider(DefaultJSONProvider):
    """Flask's provider, compact output written by orjson; keys keep the contract's order."""

    sort_keys = False

    def dumps(self, obj: Any, **kwargs: Any) -> str:
        if "indent" not in kwargs and not kwargs.get("sort_keys"):
            try:
                return orjson.dumps(obj, default=self.default, option=OPTIONS).decode()
            except TypeError:  # what orjson cannot write (an integer past 64 bits, echoed back)
                pass
        return super().dumps(obj, **kwargs)
