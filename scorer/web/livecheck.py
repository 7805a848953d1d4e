"""The live check: a phone asking every few seconds whether its game changed, answered cheaply.

Phones poll `GET /api/games/<id>` (and a watch screen `/watch/<watch_id>` as JSON) with
If-None-Match; nearly every answer is a 304. Two things make that answer cheap:

- `version_reader`: each server thread keeps ONE read-only SQLite connection for these
  version checks, instead of opening one per request (connect, PRAGMAs, and, when it was the
  last connection, a WAL checkpoint on close). It runs in autocommit and every query is read
  to the end, so no read transaction stays open between requests: with WAL, the next check
  sees whatever any worker committed before it.
- `LiveCheck`: WSGI middleware that answers the 304 before Flask builds its request (session,
  language selection, rate limiter, after-request hooks). Anything it is not sure about (no
  tag, another path, a tag that does not match, a body) goes on to the app, whose views
  give the same answers the slow way.
"""

from __future__ import annotations

import re
import sqlite3
import threading
from collections.abc import Callable, Iterable
from typing import Any

from flask import Flask
from werkzeug.datastructures import MIMEAccept
from werkzeug.http import parse_accept_header, parse_etags

from scorer.store.db import BUSY_TIMEOUT
from scorer.web import SECURITY_HEADERS
from scorer.web.http import game_etag, tags_of, watch_etag

_GAME_PATH = re.compile(r"/api/games/([A-Za-z0-9_-]+)")
_WATCH_PATH = re.compile(r"/watch/([A-Za-z0-9_-]+)")
# What the app's after-request hooks add to every answer but a static file (scorer.web.i18n).
_VARY_LANGUAGE = "Accept-Language, Cookie"


class VersionReader:
    """One read-only connection per thread, for `select version` and nothing else."""

    def __init__(self, path: Callable[[], str]) -> None:
        self._path = path
        self._local = threading.local()

    def connection(self) -> sqlite3.Connection:
        conn: sqlite3.Connection | None = getattr(self._local, "conn", None)
        if conn is None:
            # isolation_level=None: autocommit, so a read never leaves a transaction open.
            conn = sqlite3.connect(self._path(), timeout=BUSY_TIMEOUT, isolation_level=None)
            conn.execute("PRAGMA query_only = ON")
            self._local.conn = conn
        return conn

    def one(self, sql: str, params: tuple[str, ...]) -> Any:
        """The first column of the only row, or None.

        fetchall() steps the statement to its end, which ends SQLite's implicit read
        transaction: a statement left part-read would pin this thread to an old snapshot.
        """
        rows = self.connection().execute(sql, params).fetchall()
        return rows[0][0] if rows else None

    def game_version(self, game_id: str) -> int | None:
        version = self.one("select version from games where id = ?", (game_id,))
        return None if version is None else int(version)

    def watched_game(self, watch_id: str) -> str | None:
        game_id = self.one("select game_id from watch_ids where watch_id = ?", (watch_id,))
        return None if game_id is None else str(game_id)


def version_reader(app: Flask) -> VersionReader:
    reader: VersionReader = app.extensions["scorer.version_reader"]
    return reader


def wants_json(accept: str | None) -> bool:
    """The watch address answers JSON when the client prefers it to HTML (as its view does)."""
    best = parse_accept_header(accept, MIMEAccept).best_match(["text/html", "application/json"])
    return best == "application/json"


class LiveCheck:
    """WSGI middleware: a live check that finds nothing new gets its 304 here."""

    def __init__(self, wsgi_app: Any, reader: VersionReader) -> None:
        self.wsgi_app = wsgi_app
        self.reader = reader

    def __call__(self, environ: dict[str, Any], start_response: Any) -> Iterable[bytes]:
        headers = self.not_modified(environ) if is_plain_check(environ) else None
        if headers is None:
            return self.wsgi_app(environ, start_response)
        start_response("304 NOT MODIFIED", headers)
        return []

    def not_modified(self, environ: dict[str, Any]) -> list[tuple[str, str]] | None:
        """The 304's headers when the client's tag is current, else None (the app answers)."""
        path = environ.get("PATH_INFO", "")
        # Read as the app reads them: a tag a compressor once suffixed (":gzip") still counts.
        tags = tags_of(parse_etags(environ["HTTP_IF_NONE_MATCH"]))
        vary = _VARY_LANGUAGE
        if found := _GAME_PATH.fullmatch(path):
            game_id = found.group(1)
            version = self.reader.game_version(game_id)
            tag = None if version is None else game_etag(game_id, version)
        elif (found := _WATCH_PATH.fullmatch(path)) and wants_json(environ.get("HTTP_ACCEPT")):
            watch_id = found.group(1)
            game_id = self.reader.watched_game(watch_id)
            version = None if game_id is None else self.reader.game_version(game_id)
            tag = None if version is None else watch_etag(watch_id, version)
            vary = f"Accept, {vary}"
        else:
            return None
        if tag is None or tag not in tags:
            return None
        return [
            ("ETag", f'"{tag}"'),
            ("Cache-Control", "no-cache"),
            ("Vary", vary),
            *SECURITY_HEADERS.items(),
        ]


def is_plain_check(environ: dict[str, Any]) -> bool:
    """A GET with If-None-Match and no body: the only kind answered here."""
    return (
        environ.get("REQUEST_METHOD") == "GET"
        and "HTTP_IF_NONE_MATCH" in environ
        and environ.get("CONTENT_LENGTH") in (None, "", "0")
        and "HTTP_TRANSFER_ENCODING" not in environ
    )


def init_app(app: Flask) -> None:
    """Install the reader, and the middleware outside every other layer."""
    reader = VersionReader(lambda: str(app.config["DATABASE"]))
    app.extensions["scorer.version_reader"] = reader
    app.wsgi_app = LiveCheck(app.wsgi_app, reader)  # type: ignore[method-assign]
