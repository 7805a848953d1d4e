"""The HTTP toolkit every JSON route shares: the body, the tags, the game answer.

- `json_body`: the request's JSON (400 unless it is application/json and parses).
- Tags: a game's ETag names its version (`<id>.<version>`), whatever the encoding the
  answer travels in. Flask-Compress would make a gzip answer's strong tag
  `"<id>.<version>:gzip"`, and every browser asks for gzip: a tag that changes with the
  encoding never matches the app's own tag, so `If-Match` would answer 412 forever and the
  live check would miss its cheap path. `keep_tag` undoes that suffix after compression,
  and `tags_of` reads a client's tags without it (a phone may still hold one it was given
  before). The JSON is the same whatever its transfer encoding, and no route serves ranges,
  so one tag per version is sound.
- `answer_if_current` / `tagged` / `version_expected`: the 304 and If-Match logic of every
  route that has a tag.
- `game_response`: a game as every route answers it (with its `watch_url`), once per version.
- `JSONProvider`: the app's JSON out, written by orjson. A game at the cap on hands is about
  600 KB of JSON, written on every read and write of it; the standard library's encoder takes
  about 10 ms for that, orjson about one. What orjson would write differently from Flask's own
  provider (dates, dataclasses) is passed through to Flask's `default`, so every answer reads
  as before. Reading JSON stays with the standard library, whose errors the API already words.
"""

from __future__ import annotations

import gzip
import hashlib
import json
import re
from collections.abc import Callable
from typing import Any

import orjson
from flask import Response, current_app, jsonify, request
from flask.json.provider import DefaultJSONProvider
from werkzeug.datastructures import ETags

from scorer import store
from scorer.core.errors import N_
from scorer.store.cache import app_cache
from scorer.store.db import get_db
from scorer.web.api_contract import PayloadError, game_to_json
from scorer.web.clients import request_client

# What Flask-Compress appends to a strong tag: ":" and the content coding.
_CODING_SUFFIX = re.compile(r":(?:gzip|br|deflate|zstd)$")
IDEMPOTENCY_HEADER = "Idempotency-Key"
# Visible ASCII only, and short: the key is stored with what it made.
_KEY_PATTERN = re.compile(r"[\x21-\x7e]{1,200}")
# Game bodies kept per worker: a game at the cap on hands is about 600 KB of JSON.
GAME_BODIES = 16


def json_body() -> Any:
    """The request's JSON; 400 unless the body is application/json and parses (a body past
    the route's cap had its 413 before the view: scorer.web.inbound)."""
    if not request.is_json:
        raise PayloadError(None, N_("send the body as application/json"))
    raw = request.get_data(cache=True)
    try:
        return json.loads(raw)
    except (ValueError, RecursionError):  # RecursionError: absurdly deep nesting
        raise PayloadError(None, N_("the body is not valid JSON")) from None


def idempotency_key() -> str | None:
    """The request's Idempotency-Key as sent (400 unless 1 to 200 visible ASCII characters)."""
    key = request.headers.get(IDEMPOTENCY_HEADER)
    if key is None:
        return None
    if not _KEY_PATTERN.fullmatch(key):
        raise PayloadError(IDEMPOTENCY_HEADER, N_("must be 1 to 200 visible ASCII characters"))
    return key


def scoped(key: str) -> str:
    """A key as stored: a digest of the client (as the rate limits count it: an IPv4
    address, an IPv6 /64) and the key, so the same key replayed from elsewhere is another
    key, and a phone hopping between the addresses of its /64 keeps its keys."""
    return hashlib.sha256(f"{request_client()}\n{key}".encode()).hexdigest()


def creation_key() -> str | None:
    """A creation's Idempotency-Key, scoped to the client that sent it: a key replayed
    from elsewhere never answers with the first client's game or night."""
    key = idempotency_key()
    return None if key is None else scoped(key)


def hand_key() -> tuple[str, str] | None:
    """A hand's Idempotency-Key, scoped to the client as a creation's is, and the key as
    sent: keys stored before hands' keys were scoped are stored that way, and a retry of
    theirs is still honoured (until `prune` drops them, after a day)."""
    key = idempotency_key()
    return None if key is None else (scoped(key), key)


# --- tags ------------------------------------------------------------------------------------


def plain_tag(tag: str) -> str:
    """A tag as the app made it, whatever coding a compressor appended."""
    return _CODING_SUFFIX.sub("", tag)


def tags_of(header: ETags, *, weak: bool = True) -> set[str]:
    """The tags a client sent, each as the app made it: weak ones too for If-None-Match,
    strong ones only for If-Match (RFC 9110's strong comparison: a weak tag never
    vouches for the exact version a write expects)."""
    return {plain_tag(tag) for tag in header.as_set(include_weak=weak)}


def keep_tag(response: Response) -> Response:
    """After compression: the answer keeps the tag the route gave it (see the module)."""
    tag, weak = response.get_etag()
    if tag and plain_tag(tag) != tag:
        response.set_etag(plain_tag(tag), weak=weak)
    return response


def tagged(response: Response, tag: str) -> Response:
    """The answer carries `tag`, and is checked again before each reuse (scores change)."""
    response.set_etag(tag)
    response.headers["Cache-Control"] = "no-cache"
    return response


def is_current(tag: str) -> bool:
    """The client's If-None-Match holds `tag`: it already has this version."""
    return request.if_none_match.star_tag or tag in tags_of(request.if_none_match)


def not_modified(tag: str) -> Response:
    return tagged(Response(status=304), tag)


def version_expected(tag: str, version: int, matches: Any = None) -> int | None:
    """The version an If-Match header expects: None without the header.

    `version` when the header names `tag` (or `*`); 0, which nothing has, for any other tag
    (an old one, another's, a made-up one), so the write is refused as stale.
    `matches(sent_tag)` replaces plain equality where a tag has parts that may differ.
    """
    if "If-Match" not in request.headers:
        return None
    if request.if_match.star_tag:
        return version
    sent = tags_of(request.if_match, weak=False)
    found = any(matches(t) for t in sent) if matches else tag in sent
    return version if found else 0


# --- games -----------------------------------------------------------------------------------


def game_etag(game_id: str, version: int) -> str:
    return f"{game_id}.{version}"


def watch_etag(watch_id: str, version: int) -> str:
    # Built from the watch id, never the game's: a header must not leak the writing address.
    return f"w.{watch_id}.{version}"


def watch_url(game_id: str) -> str:
    return f"/watch/{store.watch_id_of(get_db(), game_id)}"


GZIP_FROM = 500  # bytes: Flask-Compress's own COMPRESS_MIN_SIZE, below which it sends as is
GZIP_LEVEL = 6  # as Flask-Compress's COMPRESS_LEVEL


def cached_json(kind: str, key: Any, make: Callable[[], bytes], status: int = 200) -> Response:
    """A JSON answer whose body is made once per `key` (a game's version) in the `kind`
    cache, and gzipped once too for a client that takes gzip. A long game's body is some
    5 MB: compressed again at each request (Flask-Compress) it cost ~25 ms of a worker, so
    one client asking for it in a loop held a core; kept, it costs a copy."""
    body = app_cache(kind, GAME_BODIES).get_or_make(key, make)
    response = current_app.response_class(body, status=status, mimetype="application/json")
    response.vary.add("Accept-Encoding")
    if request.accept_encodings["gzip"] and len(body) >= GZIP_FROM:
        packed = app_cache(f"{kind}_gzip", GAME_BODIES).get_or_make(
            key, lambda: gzip.compress(body, GZIP_LEVEL)
        )
        response.set_data(packed)
        response.headers["Content-Encoding"] = "gzip"  # Flask-Compress leaves it as it is
    return response


def game_response(
    record: store.ReplayedGame, status: int = 200, *, created: bool = False
) -> Response:
    """The game as the API answers it; a new one (`created`) with its Location."""
    key = (record.id, record.version)
    response = cached_json("game_json", key, lambda: _game_body(record), status)
    tagged(response, game_etag(record.id, record.version))
    if created:
        response.headers["Location"] = f"/api/games/{record.id}"
    return response


def _game_body(record: store.ReplayedGame) -> bytes:
    """The game's JSON once per version: a write's answer serves the reads that follow it."""
    # Every game answer names its watch address, so a write's answer equals the next GET.
    # A club game's record of corrections (issue 33), [] for one never corrected; a
    # correction bumps the version, so the body cached per version follows it.
    family = record.table.profile.family
    return jsonify(
        {
            **game_to_json(record),
            "corrections": store.corrections_json(get_db(), record.id, family),
            "watch_url": watch_url(record.id),
        }
    ).get_data()


# --- the app's JSON out --------------------------------------------------------------------

ORJSON_OPTIONS = (
    orjson.OPT_NON_STR_KEYS | orjson.OPT_PASSTHROUGH_DATETIME | orjson.OPT_PASSTHROUGH_DATACLASS
)


class JSONProvider(DefaultJSONProvider):
    """Flask's provider, compact output written by orjson; keys keep the contract's order."""

    sort_keys = False

    def dumps(self, obj: Any, **kwargs: Any) -> str:
        if "indent" not in kwargs and not kwargs.get("sort_keys"):
            try:
                return orjson.dumps(obj, default=self.default, option=ORJSON_OPTIONS).decode()
            except TypeError:  # what orjson cannot write (an integer past 64 bits, echoed back)
                pass
        return super().dumps(obj, **kwargs)
