"""Time stamps as stored: RFC 3339 in UTC when written, and read back whatever is there."""

from __future__ import annotations

import re
from datetime import UTC, datetime

# RFC 3339 (section 5.6): a full date, a full time and an offset; nothing else, so no week
# dates (2024-W01), no ordinal dates and no missing offset, which ISO 8601 would allow.
_RFC3339 = re.compile(
    r"\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}:\d{2}(\.\d{1,9})?([Zz]|[+-]\d{2}:\d{2})", re.ASCII
)


def now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


def is_rfc3339(value: str) -> bool:
    """True for a real moment written as RFC 3339 (the month and day must exist too)."""
    if not _RFC3339.fullmatch(value):
        return False
    try:
        datetime.fromisoformat(value[:19] + _offset(value[19:]))
    except ValueError:
        return False
    return True


def _offset(tail: str) -> str:
    """The offset of a stamp's tail without its fraction ('Z' as +00:00)."""
    tail = tail.lstrip(".0123456789")
    return "+00:00" if tail in ("Z", "z") else tail


def readable(value: str | None, fallback: str) -> str:
    """A stored stamp as pages can format it: RFC 3339 kept, anything else made so.

    Rows written before imports were checked may hold any text; a page must not fail on it.
    """
    if value and is_rfc3339(value):
        return value
    try:
        moment = datetime.fromisoformat(value or "")
    except ValueError:
        return fallback
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    return moment.isoformat(timespec="seconds")
