"""A JSON request's body and its Idempotency-Key, read the same way by every API."""

from __future__ import annotations

import json
import re
from typing import Any

from flask import request

from scorer.core.errors import N_
from scorer.store.payloads import PayloadError

IDEMPOTENCY_HEADER = "Idempotency-Key"
# Visible ASCII only, and short: the key is stored with what it made.
_KEY_PATTERN = re.compile(r"[\x21-\x7e]{1,200}")


def json_body() -> Any:
    """The request's JSON; 400 unless the body is application/json and parses."""
    if not request.is_json:
        raise PayloadError(None, N_("send the body as application/json"))
    raw = request.get_data(cache=True)  # 413 past MAX_CONTENT_LENGTH
    try:
        return json.loads(raw)
    except (ValueError, RecursionError):  # RecursionError: absurdly deep nesting
        raise PayloadError(None, N_("the body is not valid JSON")) from None


def idempotency_key() -> str | None:
    key = request.headers.get(IDEMPOTENCY_HEADER)
    if key is None:
        return None
    if not _KEY_PATTERN.fullmatch(key):
        raise PayloadError(IDEMPOTENCY_HEADER, N_("must be 1 to 200 visible ASCII characters"))
    return key
