"""Push: a write tells every waiting screen at once, through Nchan (nginx's pub/sub module).

The one interface the app publishes through is `publish(channel, version)`: an HTTP POST of
the version to Nchan's publisher, which listens on loopback (or a Unix socket) only, never
where clients connect. Screens subscribe with an EventSource to `/push/<channel>` on the
public front (static/live.js), and on each message (or reconnect) ask for the current
version with their usual conditional GET: a message only says "look now", so a channel
carries nothing but a version number its page already shows.

- Configured by `PUSH_URL` (or SCORER_PUSH_URL): `http://127.0.0.1:5081/pub/` or
  `unix:/path/publish.sock` (then `/pub/<channel>` on that socket). Unset, there is no push:
  `publish` does nothing and pages carry no subscription, so live.js polls as before.
- A publish that fails (no nginx, a restart) is logged and forgotten: never a failed write.
  Screens miss nothing for it: an EventSource that drops falls back to the poll, and one
  that reconnects asks for the current version.
- Channel names are an HMAC of the resource with the app's secret key: knowing a game's id
  (or a watch link) does not give another resource's channel, and nobody can guess one.
- A successful write request publishes once, after the view committed (`after_request`):
  the game it names (with every night whose table it is), the night it names, the nights
  and the games a roster write of a club moved (a rename reaches the open boards). One
  place, so no write route can forget it.
"""

from __future__ import annotations

import hashlib
import hmac
import http.client
import logging
import os
import socket
from typing import Any
from urllib.parse import urlsplit

from flask import Flask, Response, current_app, g, request
from markupsafe import Markup

from scorer import store
from scorer.web.livecheck import version_reader

ENV_PUSH_URL = "SCORER_PUSH_URL"
SUBSCRIBE_PREFIX = "/push/"  # the public location (EventSource), on the front
PUBLISH_PREFIX = "/pub/"  # the publisher's location, on loopback only
TIMEOUT = 0.5  # seconds: Nchan on loopback answers in about a millisecond
GAME, NIGHT = "g", "n"
GONE = "gone"  # published for a game deleted by the write
WRITES = frozenset({"POST", "PUT", "PATCH", "DELETE"})
# Channel names: the HMAC's first 24 bytes, base64url-like in hex (48 characters).
CHANNEL_LENGTH = 48
CHANNEL_PATTERN = f"[0-9a-f]{{{CHANNEL_LENGTH}}}"

log = logging.getLogger(__name__)


def channel(kind: str, resource_id: str, secret: str | bytes | None = None) -> str:
    """The channel of a game (GAME) or a night (NIGHT): unguessable without the secret key."""
    key = secret if secret is not None else current_app.config["SECRET_KEY"]
    key = key.encode() if isinstance(key, str) else key
    digest = hmac.new(key, f"push:{kind}:{resource_id}".encode(), hashlib.sha256).hexdigest()
    return digest[:CHANNEL_LENGTH]


def push_url() -> str | None:
    url: str | None = current_app.config.get("PUSH_URL") or None
    return url


def subscribe_url(kind: str, resource_id: str) -> str | None:
    """The address a page's EventSource opens, or None without push (the page polls)."""
    if not push_url():
        return None
    return f"{SUBSCRIBE_PREFIX}{channel(kind, resource_id)}"


class UnixConnection(http.client.HTTPConnection):
    """HTTP over a Unix socket: the publisher of `make run`'s nginx listens on one."""

    def __init__(self, path: str, timeout: float) -> None:
        super().__init__("localhost", timeout=timeout)
        self.path = path

    def connect(self) -> None:
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.sock.settimeout(self.timeout)
        self.sock.connect(self.path)


def _connection(url: str) -> tuple[http.client.HTTPConnection, str]:
    if url.startswith("unix:"):
        return UnixConnection(url.removeprefix("unix:"), TIMEOUT), PUBLISH_PREFIX
    parts = urlsplit(url)
    connection = http.client.HTTPConnection(parts.hostname or "127.0.0.1", parts.port, TIMEOUT)
    return connection, parts.path or PUBLISH_PREFIX


def publish(name: str, version: int | str, url: str | None = None) -> bool:
    """Tell the channel's screens to look: POST the version to Nchan. Never raises.

    True when Nchan took it; False without push or when it failed (logged)."""
    url = url or push_url()
    if not url:
        return False
    connection, prefix = _connection(url)
    try:
        connection.request("POST", f"{prefix}{name}", str(version), {"Content-Type": "text/plain"})
        status = connection.getresponse().status
    except OSError as error:
        log.warning("push: publishing to %s failed: %s", url, error)
        return False
    finally:
        connection.close()
    if status >= 300:
        log.warning("push: publisher answered %s", status)
    return status < 300


def nights_of_game(game_id: str) -> list[str]:
    rows = (
        version_reader(current_app)
        .connection()
        .execute("select distinct night_id from night_tables where game_id = ?", [game_id])
    )
    return [row[0] for row in rows.fetchall()]


def nights_of_club(club_id: str) -> list[str]:
    rows = (
        version_reader(current_app)
        .connection()
        .execute("select id from nights where club_id = ?", [club_id])
    )
    return [row[0] for row in rows.fetchall()]


def games_of_club_since(club_id: str, since: str) -> list[tuple[str, int]]:
    """(id, version) of the club's games written at `since` or later: those a roster rename
    just moved (a game another write moved in the same second comes too, which is harmless:
    its screens check and find their version)."""
    rows = (
        version_reader(current_app)
        .connection()
        .execute(
            "select g.id, g.version from club_games c join games g on g.id = c.game_id "
            "where c.club_id = ? and g.updated_at >= ?",
            [club_id, since],
        )
    )
    return [(row[0], int(row[1])) for row in rows.fetchall()]


def changed_by(view_args: dict[str, Any]) -> list[tuple[str, int | str]]:
    """(channel, version) of what a successful write request changed, from its address."""
    reader = version_reader(current_app)
    out: list[tuple[str, int | str]] = []
    nights: list[str] = []
    if game_id := view_args.get("game_id"):
        version = reader.game_version(game_id)
        # A deleted game tells its screens too: their check then finds it gone (404).
        out.append((channel(GAME, game_id), GONE if version is None else version))
        nights += nights_of_game(game_id)
    if night_id := view_args.get("night_id"):
        nights.append(night_id)
    if (club_id := view_args.get("club_id")) and "/players" in request.path:
        nights += nights_of_club(club_id)  # a rename moves its nights' versions
        # ...and its games' (the open boards show the new name): the ones written since
        # this request began, not every game the club ever played.
        if since := g.get("push_since"):
            for game_id, version in games_of_club_since(club_id, since):
                out.append((channel(GAME, game_id), version))
    for night_id in dict.fromkeys(nights):
        version = reader.one("select version from nights where id = ?", (night_id,))
        if version is not None:
            out.append((channel(NIGHT, night_id), version))
    return out


def note_start() -> None:
    """before_request: when a write began, to find the games it moved (a roster rename)."""
    if request.method in WRITES:
        g.push_since = store.now()


def publish_write(response: Response) -> Response:
    """after_request: a write that succeeded publishes what it changed, once."""
    if request.method in WRITES and response.status_code < 400 and request.view_args:
        try:
            for name, version in changed_by(request.view_args):
                publish(name, version)
        except Exception:  # noqa: BLE001  # a push problem never fails a write
            log.exception("push: working out what to publish failed")
    return response


def live_push(kind: str, resource_id: str) -> Markup:
    """The templates' hook: ` data-live-push="/push/<channel>"` on a live element, or
    nothing without push."""
    url = subscribe_url(kind, resource_id)
    return Markup(' data-live-push="%s"') % url if url else Markup("")


def init_app(app: Flask) -> None:
    app.config.setdefault("PUSH_URL", os.environ.get(ENV_PUSH_URL) or None)
    app.before_request(note_start)
    app.after_request(publish_write)
    app.jinja_env.globals.update(live_push=live_push, PUSH_GAME=GAME, PUSH_NIGHT=NIGHT)
