"""`make run`'s front: nginx with Nchan before gunicorn, on the public port.

Three jobs, one small nginx (Debian's nginx-light and libnginx-mod-nchan):

- Push (issue 29): the screens' EventSource channels (`/push/<channel>`) are held by Nchan,
  thousands of idle connections for a few KiB each, none of them a gunicorn worker; the
  app publishes on a Unix socket that no client can reach (scorer.web.push).
- Slow readers (issue 35): nginx reads each answer from gunicorn at once, into memory and,
  past that, a temporary file (proxy_buffering), and sends it to the client at the client's
  pace: a phone on bad Wi-Fi, or someone reading an export at 2 KB/s, holds an nginx
  connection, never a worker. Request bodies are read whole before gunicorn sees them too.
- Floods (issue 35): each client's requests, heavy and costly reads and open connections
  are bounded here, its excess paced or refused by nginx itself (`client_limits`,
  `client_bounds`), never by a worker.

The configuration is generated into a fresh private folder (with the sockets, the temporary
files and the error log), for the current user and its own prefix: nothing of the system's
nginx is read or touched, and two servers on two ports do not meet. The Nchan locations and
the per-client bounds are shared with the hosted router (scorer.deploy).
"""

from __future__ import annotations

import getpass
import json
import math
import os
import re
import resource
import shutil
import signal
import subprocess
import tempfile
import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

from scorer import create_app
from scorer.core.limits import LARGEST_BODY
from scorer.web import API_MESSAGES
from scorer.web.push import CHANNEL_PATTERN, PUBLISH_PREFIX, SUBSCRIBE_PREFIX
from scorer.web.routes import COSTLY, HEAVY, READS, weight_of

NGINX = shutil.which("nginx") or "/usr/sbin/nginx"
NCHAN_MODULE = Path("/usr/lib/nginx/modules/ngx_nchan_module.so")
MISSING = (
    "nginx with Nchan is not installed (apt-get install nginx-light libnginx-mod-nchan, "
    "which `make test` does): serving with gunicorn alone. Screens check every 4 s instead "
    "of being told, and a client reading slowly holds a worker while it reads."
)
# Nchan: a ping every 20 s keeps idle connections open through home routers and lets
# live.js tell a live channel from one a buffering proxy holds back (static/live.js).
PING_SECONDS = 20
# Kept per channel: the last version only (a screen that reconnects asks for the current
# one anyway), for an evening.
MESSAGE_TIMEOUT = "12h"
# Big answers (a club's export is tens of MiB): 1 MiB in memory per connection, the rest
# in the folder's temporary files, so gunicorn's write never waits on the client.
PROXY_BUFFERS = ("64 16k", "16k", "256k", "1024m")


# Open at once from one client: idle screens and slow readers (80 tables of five screens).
CLIENT_CONNECTIONS = 400


@dataclass(frozen=True)
class ReadRate:
    """What nginx lets one client have of a kind of request: `rate` a second and `at_once`
    more at once; past those, every request the client sends waits its turn in nginx (no
    worker held) and is passed on at the rate. A loop's burst let through at once held every
    worker and put the other tables' writes behind it, and a loop refused at once asks again
    at once, thousands of times a second (bench section 11): paced, a loop costs what its
    rate does, however many requests it holds open."""

    zone: str
    rate: int
    at_once: int

    @property
    def burst(self) -> int:
        """nginx's burst, the requests of one client past its rate that wait rather than
        being refused: as many as it may hold open. A smaller waiting room refused a loop's
        requests past it at once, and they came back at once: twenty loops on the club's API
        (ten could wait) asked 9 000 times in a few seconds and put a small game's writes at
        3x alone; with room for them all, one client's 5, 20 or 50 loops wait their turn, the
        writes at 0.8x-1.7x in four runs, 2.1x once (bench section 11). nginx counts a
        request given up until its turn would have come: a client that closes its waiting
        requests and asks again at once fills its room and is refused at nginx's cost, a
        flood of connections that only the host's firewall can cut (README)."""
        return CLIENT_CONNECTIONS

    def limit_req(self) -> str:
        return f"limit_req zone={self.zone} burst={self.burst} delay={self.at_once};"


# Per-client bounds, kept by nginx before any worker is reached (issue 35). The app's own
# budgets (scorer.web.ratelimit) count what a client stores and reads, but each refusal of
# theirs still costs a worker a request: five clients that ignore Retry-After and ask again
# at once kept every worker busy refusing them. Here a client's excess waits its turn in
# nginx, or past what it may hold open is refused in microseconds by nginx's event loop. The
# rate is what one client's loop on the costliest ordinary read may have (a read may cost
# 10 ms: tests/workcount.py): at 50 a second, a loop on the new-game form (7 ms) put a small
# game's writes' p99 at 2.2x alone through the front, 3.8x through the router (bench section
# 11). A whole club on one Wi-Fi address asks far less: with push, a table's screens ask once
# a hand each (a hand every few minutes), and the phone that records it a few times more.
CLIENT = ReadRate(
    "scorer_client",
    rate=25,  # requests a second, sustained, from one client
    at_once=10,  # past the rate, passed at once: a few phones opening a page together
)
# Each weight of read that has a rate of its own, besides the client's.
WEIGHTED = {
    # Heavy reads (scorer.web.routes' @heavy_read, in the app's own slots): one a second
    # (the app's budget allows a third of that a worker), 4 at once past it (an organiser
    # printing a night's sheets).
    HEAVY: ReadRate("scorer_heavy", rate=1, at_once=4),
    # Costly reads (@costly_read: a hand's form, 20-35 ms of a worker for six sides,
    # whatever the game's length): at the ordinary rate, one client's loop would hold more
    # than a core. A table opens one a hand, every few minutes; a club of 50 tables on one
    # Wi-Fi opens one every few seconds. Paced, a loop on them costs a sixth of a core.
    COSTLY: ReadRate("scorer_costly", rate=5, at_once=4),
}


def rate_of(weight: str) -> ReadRate:
    """The rate a read of `weight` is held to, besides the client's own (an ordinary read:
    the client's)."""
    return WEIGHTED.get(weight, CLIENT)


LIMITED_RETRY_AFTER = 2  # seconds
# Who a client is, as the app's budgets count it (scorer.web.clients): an IPv4 address, an
# IPv6 /64 (a phone may pick any address in its /64). nginx writes an IPv6 address in its
# shortest form (RFC 5952), so the /64 is read from the text: the first four groups written
# out, or what stands before a "::" that reaches into the last four groups, or the address
# less its last four groups. One /64 can be written two or three ways this way (where its
# zeros are written out or folded depends on the rest of the address): a few keys, never
# 2^64. An empty key is never limited: this machine itself (127.0.0.1, ::1), which the
# tests' and benches' own clients are unless they pick another loopback address.
CLIENT_KEY_PATTERNS = (
    r"^::ffff:([0-9.]+)$",  # IPv4-mapped: the IPv4 address
    r"^((?:[0-9a-f]+:){4})",  # the first four groups written out
    r"^([0-9a-f:]*::(?:[0-9a-f]+:)*)(?:[0-9a-f]+:){3}[0-9a-f]+$",  # less the last four
    r"^([0-9a-f:]*::)",  # a "::" that reaches into the last four groups
)
UNLIMITED_CLIENTS = ("127.0.0.1", "::1")
LIMITED_PAGE = (
    "<!doctype html><html><head><meta charset=utf-8>"
    '<meta name=viewport content="width=device-width,initial-scale=1">'
    f'<meta http-equiv=refresh content="{LIMITED_RETRY_AFTER * 3}">'
    "<title>Too many requests</title>"
    "<style>body{font-family:sans-serif;margin:1rem;line-height:1.4}</style></head><body>"
    "<h1>Too many requests from this address</h1>"
    "<p>Nothing was lost. This page asks again in a few seconds.</p>"
    "<p lang=fr>Trop de demandes depuis cette adresse. Rien n’est perdu\u00a0: la page "
    "redemande dans quelques secondes.</p>"
    "<p lang=es>Demasiadas peticiones desde esta dirección. No se ha perdido nada: la página "
    "vuelve a pedirla en unos segundos.</p></body></html>"
)


def api_refusal(status: int) -> str:
    """The app's JSON refusal for `status` (scorer.web.failures' shape), for nginx to send."""
    return json.dumps({"error": str(API_MESSAGES[status]), "field": None}, separators=(",", ":"))


def body_limit_mib() -> int:
    """nginx's cap on a body, in MiB: the largest the scorer takes (a club's import,
    scorer.core.limits), rounded up, with room for the request's own bytes. The scorer
    refuses (413) past each endpoint's own cap."""
    return math.ceil(LARGEST_BODY / (1024 * 1024)) + 1


def app_rules() -> dict[str, str]:
    """Every rule of the app's URL map, and its read's weight (scorer.web.routes' HEAVY,
    COSTLY or ORDINARY), from a throwaway app: the map is the code's, not a database's."""
    with tempfile.TemporaryDirectory() as folder:
        app = create_app(
            {"DATABASE": f"{folder}/scorer.sqlite3", "INSTANCE_PATH": folder, "SHARD": None}
        )
        return {
            rule.rule: weight_of(app.view_functions.get(rule.endpoint))
            for rule in app.url_map.iter_rules()
        }


RULE_ARGUMENT = re.compile(r"<(?:(\w+)(?:\([^)]*\))?:)?\w+>")


def rule_pattern(rule: str) -> str:
    """A Werkzeug rule as a regular expression over the path (nginx's PCRE and Python's `re`
    agree on it): each argument one segment (a `path` argument, the rest)."""
    pattern, last = "^", 0
    for found in RULE_ARGUMENT.finditer(rule):
        pattern += re.escape(rule[last : found.start()])
        pattern += ".+" if found.group(1) == "path" else "[^/]+"
        last = found.end()
    return pattern + re.escape(rule[last:]) + "$"


def weighted_paths(rules: Mapping[str, str], weight: str) -> list[str]:
    """nginx `map` entries over "$request_method $uri" that tell a read of `weight` (1) from
    anything else (the default, 0): a pattern per such rule, for GET and HEAD, and the exact
    paths of the other rules such a pattern would take (`/clubs/new` beside
    `/clubs/<club_id>`), which nginx tries first."""
    weighed = [rule_pattern(rule) for rule, its in sorted(rules.items()) if its == weight]
    entries = []
    for rule, its in sorted(rules.items()):
        taken = any(re.search(pattern, rule) for pattern in weighed)
        if its != weight and "<" not in rule and taken:
            entries += [f'"{method} {rule}" 0;' for method in READS]
    for pattern in weighed:
        entries.append(f'"~^(?:{"|".join(READS)}) {pattern[1:]}" 1;')
    return entries


def client_limits(rules: Mapping[str, str]) -> list[str]:
    """The http level of the per-client bounds: who the client is, each read's weight
    (`rules`: the app's, each with its weight), and the zones that count them (one `http`
    block holds them once)."""
    lines = [
        "# Per-client bounds (scorer.front): who the client is, an IPv4 address or an IPv6 /64;",
        "# empty (never limited) for this machine itself.",
        "map $remote_addr $scorer_client {",
        "    default $remote_addr;",
        *(f'    "{address}" "";' for address in UNLIMITED_CLIENTS),
        *(f'    "~{pattern}" $1;' for pattern in CLIENT_KEY_PATTERNS),
        "}",
        f"limit_req_zone $scorer_client zone={CLIENT.zone}:10m rate={CLIENT.rate}r/s;",
    ]
    for weight, bound in WEIGHTED.items():
        zone = bound.zone
        lines += [
            f"# The same key on {weight} reads only (the app's @{weight}_read routes), else empty.",
            f'map "$request_method $uri" ${zone}_path {{',
            "    default 0;",
            *("    " + entry for entry in weighted_paths(rules, weight)),
            "}",
            f'map "${zone}_path$scorer_client" ${zone}_client {{',
            '    "~^1(.+)$" $1;',
            '    default "";',
            "}",
            f"limit_req_zone ${zone}_client zone={zone}:10m rate={bound.rate}r/s;",
        ]
    return [
        *lines,
        "limit_conn_zone $scorer_client zone=scorer_connections:10m;",
        "limit_req_status 429;",
        "limit_conn_status 429;",
    ]


def client_bounds(indent: str = "    ") -> list[str]:
    """A server's per-client bounds (the zones of `client_limits`), and its named
    locations that answer a refusal of nginx's own as the app would: JSON under /api."""
    lines = [
        "# Per-client bounds: a client's excess waits or is refused here, before any worker.",
        f"limit_conn scorer_connections {CLIENT_CONNECTIONS};",
        CLIENT.limit_req(),
        *(bound.limit_req() for bound in WEIGHTED.values()),
        f"client_max_body_size {body_limit_mib()}m;  # the largest body the scorer takes",
        "error_page 429 = @limited;  # a location with error pages of its own says it again",
        "",
        "location @limited {",
        "    default_type text/html;",
        "    charset utf-8;",
        f"    add_header Retry-After {LIMITED_RETRY_AFTER} always;",
        "    add_header Cache-Control no-store always;",
        f"    return 429 '{LIMITED_PAGE}';",
        "}",
        "location @limited_api {",
        "    default_type application/json;",
        f"    add_header Retry-After {LIMITED_RETRY_AFTER} always;",
        "    add_header Cache-Control no-store always;",
        f"    return 429 '{api_refusal(429)}';",
        "}",
        "location @too_large_api {",
        "    default_type application/json;",
        "    add_header Cache-Control no-store always;",
        f"    return 413 '{api_refusal(413)}';",
        "}",
    ]
    return [indent + line if line else line for line in lines]


def available() -> bool:
    return os.access(NGINX, os.X_OK) and NCHAN_MODULE.exists()


def subscriber_location(indent: str = "    ") -> list[str]:
    """The public half of Nchan: a screen's EventSource on its channel (read only)."""
    lines = [
        "# Push (scorer.web.push): each live screen's EventSource, held by Nchan. Only",
        "# subscribing here; publishing is on the internal server. Names are HMACs.",
        f'location ~ "^{SUBSCRIBE_PREFIX}({CHANNEL_PATTERN})$" {{',
        "    nchan_subscriber eventsource;",
        "    nchan_channel_id $1;",
        "    nchan_subscriber_first_message newest;",
        f"    nchan_eventsource_ping_interval {PING_SECONDS};",
        "    add_header Cache-Control no-store always;",
        "    add_header X-Accel-Buffering no always;  # to any proxy in front: do not hold it",
        "}",
        f"location {SUBSCRIBE_PREFIX} {{",
        "    return 404;",
        "}",
    ]
    return [indent + line if line else line for line in lines]


def publisher_location(indent: str = "    ") -> list[str]:
    """The internal half: the app's `publish` POSTs a version here."""
    lines = [
        f'location ~ "^{PUBLISH_PREFIX}({CHANNEL_PATTERN})$" {{',
        "    nchan_publisher http;",
        "    nchan_channel_id $1;",
        "    nchan_message_buffer_length 1;",
        f"    nchan_message_timeout {MESSAGE_TIMEOUT};",
        "}",
        "location / {",
        "    return 404;",
        "}",
    ]
    return [indent + line if line else line for line in lines]


@dataclass(frozen=True)
class Front:
    """Where one front lives: its folder, the public address, the app's socket."""

    folder: Path
    listen: str  # nginx's form: 0.0.0.0:5000, [::]:5000, 127.0.0.1:5001
    # The app's rules, each with its read's weight (`app_rules()`).
    rules: Mapping[str, str] = field(default_factory=dict)

    @property
    def app_socket(self) -> Path:
        return self.folder / "gunicorn.sock"

    @property
    def publish_socket(self) -> Path:
        return self.folder / "publish.sock"

    @property
    def push_url(self) -> str:
        return f"unix:{self.publish_socket}"

    @property
    def config_path(self) -> Path:
        return self.folder / "nginx.conf"


def config(front: Front) -> str:
    """The whole nginx.conf of `make run`."""
    folder = front.folder
    buffers, buffer_size, busy, max_temp = PROXY_BUFFERS
    # As root, nginx would hand its workers to `nobody`, who cannot open this folder.
    user = [f"user {getpass.getuser()};"] if os.geteuid() == 0 else []
    files = open_files()
    lines = [
        "# Generated by scorer/front.py for `make run`: rewritten at each start.",
        *user,
        f"load_module {NCHAN_MODULE};",
        # An event loop a core, each holding thousands of idle screens: in a single loop, one
        # client's flood of refusals held up every other request passing through it.
        "worker_processes auto;",
        f"worker_rlimit_nofile {files};",
        f"pid {folder}/nginx.pid;",
        f"error_log {folder}/error.log warn;",
        "events {",
        f"    worker_connections {files - 64};  # each idle screen is one",
        "}",
        "http {",
        "    access_log off;",
        f"    client_body_temp_path {folder}/body;",
        f"    proxy_temp_path {folder}/proxy;",
        f"    fastcgi_temp_path {folder}/fastcgi;",
        f"    uwsgi_temp_path {folder}/uwsgi;",
        f"    scgi_temp_path {folder}/scgi;",
        "    nchan_shared_memory_size 64m;",
        "    server_tokens off;",
        "    upstream scorer_app {",
        f"        server unix:{front.app_socket};",
        "        keepalive 8;",
        "    }",
        "",
        "    # The app's publisher: a Unix socket in this private folder, out of clients' reach.",
        "    server {",
        f"        listen unix:{front.publish_socket};",
        *publisher_location("        "),
        "    }",
        "",
        *("    " + line for line in client_limits(front.rules)),
        "",
        "    server {",
        f"        listen {front.listen};",
        "        server_name _;",
        *client_bounds("        "),
        "        proxy_http_version 1.1;",
        '        proxy_set_header Connection "";',
        "        proxy_set_header Host $http_host;",
        "        # The client as nginx saw it, replaced (never appended: it cannot be forged);",
        "        # the app trusts this one proxy (SCORER_BEHIND_PROXY=1).",
        "        proxy_set_header X-Forwarded-For $remote_addr;",
        "        proxy_set_header X-Forwarded-Proto $scheme;",
        "        # Where the client arrived, for the app's links and QR codes (never its Host).",
        '        proxy_set_header X-Scorer-Served "$server_addr $server_port";',
        "        # The answer is read from gunicorn at once and sent at the client's pace.",
        "        proxy_buffering on;",
        "        proxy_request_buffering on;",
        f"        proxy_buffers {buffers};",
        f"        proxy_buffer_size {buffer_size};",
        f"        proxy_busy_buffers_size {busy};",
        f"        proxy_max_temp_file_size {max_temp};",
        "        proxy_temp_file_write_size 256k;",
        "        proxy_read_timeout 130s;  # the longest sheet, with room",
        "        location / {",
        "            proxy_pass http://scorer_app;",
        "            error_page 429 = @limited;",
        "        }",
        "        location ~ ^/api(?:/|$) {",
        "            proxy_pass http://scorer_app;",
        "            error_page 413 = @too_large_api;",
        "            error_page 429 = @limited_api;",
        "        }",
        *subscriber_location("        "),
        "    }",
        "}",
    ]
    return "\n".join(lines) + "\n"


def open_files() -> int:
    """As many open files as this user may have (up to 65 536): one per idle screen."""
    _, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    return 65536 if hard == resource.RLIM_INFINITY else min(65536, hard)


def nginx_listen(host: str, port: int) -> str:
    if ":" in host:
        return f"[{host}]:{port} ipv6only=off" if host == "::" else f"[{host}]:{port}"
    return f"{host}:{port}"


def start(front: Front, preexec: object = None, wait: float = 10.0) -> subprocess.Popen[bytes]:
    """nginx in the foreground, as a child; raises RuntimeError with its log if it fails."""
    front.config_path.write_text(config(front))
    process = subprocess.Popen(
        [NGINX, "-p", str(front.folder), "-e", str(front.folder / "error.log"),
         "-c", str(front.config_path), "-g", "daemon off;"],
        preexec_fn=preexec,  # type: ignore[arg-type]
    )  # fmt: skip
    deadline = time.monotonic() + wait
    # nginx writes its pid file only once every listening socket is bound: a socket file
    # alone is made before the public port is tried, so a taken port would pass unseen.
    while not started(front, process):
        if process.poll() is not None or time.monotonic() > deadline:
            stop(process)
            log = front.folder / "error.log"
            raise RuntimeError(log.read_text() if log.exists() else "nginx did not start")
        time.sleep(0.02)
    return process


def started(front: Front, process: subprocess.Popen[bytes]) -> bool:
    """This nginx has bound every address of its config (its pid file names it)."""
    try:
        return (front.folder / "nginx.pid").read_text().strip() == str(process.pid)
    except OSError:
        return False


FOLDER_PREFIX = "scorer-front-"


def new_folder() -> Path:
    """A private folder for one front, after sweeping those of fronts that died unseen."""
    sweep(Path(tempfile.gettempdir()))
    return Path(tempfile.mkdtemp(prefix=FOLDER_PREFIX))


def sweep(parent: Path, min_age: float = 60.0) -> None:
    """Remove the folders of fronts killed outright (kill -9 leaves no time to tidy):
    older than a minute, with no nginx running from them."""
    for folder in parent.glob(f"{FOLDER_PREFIX}*"):
        try:
            if (
                time.time() - folder.stat().st_mtime < min_age
                or folder.stat().st_uid != os.getuid()
            ):
                continue
            pid_file = folder / "nginx.pid"
            if pid_file.exists() and Path(f"/proc/{pid_file.read_text().strip()}").exists():
                continue
        except OSError:
            continue
        shutil.rmtree(folder, ignore_errors=True)


def stop(process: subprocess.Popen[bytes]) -> None:
    if process.poll() is None:
        process.send_signal(signal.SIGQUIT)  # graceful: finish what is being sent
        try:
            process.wait(5)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
