"""Section 5: bytes a browser fetches for a page (HTML, CSS, JS, fonts), raw and gzip.

The page is fetched from the app in process; every local stylesheet, script, font and icon
it names is followed (CSS url() and @import too). Any URL that would load from another host
is counted as a request to that host.
"""

from __future__ import annotations

import gzip
import re
from dataclasses import dataclass, field
from html.parser import HTMLParser
from urllib.parse import urljoin, urlsplit

from bench.context import Bench
from bench.measure import Row, Section, fmt_count
from bench.site import HAND_FORM, HOME, SCOREBOARD, Site

LIMIT = 20_000  # bytes as sent gzip-compressed (the app compresses), HTML + CSS + JS + fonts
LENGTH = 30
ORIGIN = "http://localhost"
FONT_EXTENSIONS = (".woff2", ".woff", ".ttf", ".otf", ".eot")
# Attributes that make a browser load something when the page loads (links are not loads).
LOADING = {
    ("script", "src"),
    ("img", "src"),
    ("img", "srcset"),
    ("source", "src"),
    ("source", "srcset"),
    ("iframe", "src"),
    ("embed", "src"),
    ("object", "data"),
    ("video", "poster"),
    ("audio", "src"),
    ("video", "src"),
    ("input", "src"),
}
LINK_LOADS = {"stylesheet", "icon", "shortcut", "preload", "modulepreload", "apple-touch-icon"}
CSS_URL = re.compile(r"""url\(\s*['"]?([^'")]+)['"]?\s*\)|@import\s+['"]([^'"]+)['"]""")
ABSOLUTE = re.compile(r"""https?://([a-zA-Z0-9.-]+)""")
# Hosts named in markup without being fetched (XML namespaces).
NAMESPACES = {"www.w3.org"}


@dataclass
class Weight:
    """Bytes by kind for one page, and where it would load from other hosts."""

    raw: dict[str, int] = field(default_factory=dict)
    zipped: dict[str, int] = field(default_factory=dict)
    foreign: set[str] = field(default_factory=set)
    missing: list[str] = field(default_factory=list)
    mentioned: set[str] = field(default_factory=set)  # other hosts named in text or links

    def add(self, kind: str, data: bytes) -> None:
        text = data.decode("utf-8", "replace") if kind in ("html", "css", "js") else ""
        self.mentioned |= set(ABSOLUTE.findall(text)) - NAMESPACES - {"localhost"}
        self.raw[kind] = self.raw.get(kind, 0) + len(data)
        self.zipped[kind] = self.zipped.get(kind, 0) + len(gzip.compress(data, 6))

    def total(self, sizes: dict[str, int]) -> int:
        return sum(n for kind, n in sizes.items() if kind != "other")


class Loads(HTMLParser):
    """The URLs an HTML page loads as it opens."""

    def __init__(self) -> None:
        super().__init__()
        self.urls: list[tuple[str, str]] = []  # (kind, url)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = {name: value or "" for name, value in attrs}
        if tag == "link" and LINK_LOADS & set(values.get("rel", "").lower().split()):
            rel = values.get("rel", "").lower()
            kind = "css" if "stylesheet" in rel else "font" if values.get("as") == "font" else ""
            self.urls.append((kind, values.get("href", "")))
        for name, value in values.items():
            if (tag, name) in LOADING and value:
                kind = "js" if tag == "script" else ""
                for url in value.split(","):
                    self.urls.append((kind, url.strip().split(" ")[0]))


def kind_of(url: str, hint: str) -> str:
    path = urlsplit(url).path.lower()
    if hint:
        return hint
    if path.endswith(".css"):
        return "css"
    if path.endswith((".js", ".mjs")):
        return "js"
    if path.endswith(FONT_EXTENSIONS):
        return "font"
    return "other"


def weigh(site: Site, path: str) -> Weight:
    weight = Weight()
    page = site.get(path)
    weight.add("html", page.data)
    parser = Loads()
    parser.feed(page.get_data(as_text=True))
    queue = [(kind, urljoin(ORIGIN + path, url)) for kind, url in parser.urls if url]
    seen: set[str] = set()
    while queue:
        hint, url = queue.pop(0)
        if url in seen or url.startswith("data:"):
            continue
        seen.add(url)
        parts = urlsplit(url)
        if f"{parts.scheme}://{parts.netloc}" != ORIGIN:
            weight.foreign.add(parts.netloc or url)
            continue
        response = site.client.get(parts.path + (f"?{parts.query}" if parts.query else ""))
        if response.status_code != 200:
            weight.missing.append(f"{parts.path} (HTTP {response.status_code})")
            continue
        kind = kind_of(url, hint)
        weight.add(kind, response.data)
        if kind == "css":
            for found in CSS_URL.finditer(response.get_data(as_text=True)):
                queue.append(("", urljoin(url, found.group(1) or found.group(2))))
    return weight


def run(section: Section, bench: Bench) -> None:
    section.columns = ("Bytes, raw (gzip)", "By kind, raw")
    site = bench.site
    game = site.game(LENGTH)
    pages = {
        "home": HOME,
        "scoreboard, 10-hand game (a short evening)": SCOREBOARD.format(id=site.game(10)),
        f"scoreboard, {LENGTH}-hand game": SCOREBOARD.format(id=game),
        f"hand form, {LENGTH}-hand game": HAND_FORM.format(id=game),
    }
    foreign: set[str] = set()
    mentioned: set[str] = set()
    for name, path in pages.items():
        if not site.has_page(path):
            section.rows.append(Row(name, "not available yet"))
            continue
        try:
            weight = weigh(site, path)
        except Exception as error:  # noqa: BLE001 - a page still being built must not stop us
            section.unavailable(name, error)
            continue
        foreign |= weight.foreign
        mentioned |= weight.mentioned
        raw = weight.total(weight.raw)
        zipped = weight.total(weight.zipped)
        goal = name != "home"
        section.rows.append(
            Row(
                name,
                f"{fmt_count(raw)} B ({fmt_count(weight.total(weight.zipped))} B gzip)",
                _breakdown(weight),
                f"< {fmt_count(LIMIT)} B as sent (gzip)" if goal else "",
                zipped < LIMIT if goal else None,
            )
        )
        if weight.missing:
            section.notes.append(f"{name}: assets not found: {', '.join(weight.missing)}.")
    section.rows.append(
        Row(
            "requests to another host",
            str(len(foreign)) + (f" ({', '.join(sorted(foreign))})" if foreign else ""),
            "",
            "none",
            not foreign,
        )
    )
    if mentioned:
        section.notes.append(
            "Other hosts named in the pages' HTML, CSS or JS without being loaded (links, "
            f"text): {', '.join(sorted(mentioned))}."
        )
    section.notes.append(
        "Raw is the files' size; gzip is each file compressed at level 6, as the app sends "
        "pages, CSS, JS and JSON (Flask-Compress) to any browser that accepts gzip. The goal "
        "was 30 000 B raw until the phones' live updates and offline queue (about 17 KB of "
        "JS) came; it is now counted as sent. Every font a stylesheet declares is "
        "counted (a browser may fetch fewer); icons and images are listed as other, outside "
        "the goal."
    )


def _breakdown(weight: Weight) -> str:
    kinds = ("html", "css", "js", "font", "other")
    return ", ".join(
        f"{kind} {fmt_count(weight.raw[kind])}" for kind in kinds if weight.raw.get(kind)
    )
