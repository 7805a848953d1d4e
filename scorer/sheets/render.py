"""Rendering a sheet: WeasyPrint fed only local files, the paper asked for, the PDF answer.

Every printed sheet (a game's, a blank one, a club night's, a night's slips) is rendered
here: `render_pdf` for one document, `render_document` for a laid-out one (sheet.css parsed
once and shared), and the request's side of printing (`paper_size`, `refused`, `pdf_response`).
"""

from __future__ import annotations

import functools
import re
import unicodedata
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit
from urllib.request import url2pathname

import weasyprint
from flask import Blueprint, Response, abort, render_template, request
from flask_babel import gettext
from weasyprint.text.fonts import FontConfiguration
from weasyprint.urls import URLFetcher

from scorer.sheets.html import SheetHTML
from scorer.web.folders import STATIC_FOLDER

# The sheets' routes (a game's sheet, a blank sheet): one blueprint, endpoints `pdf.*`.
bp = Blueprint("pdf", __name__)

# Paper sizes a sheet can be printed on (?paper=...), as CSS @page sizes.
PAPERS = {"a4": "A4", "letter": "letter"}
# Fonts come from the machine; nothing else outside the app folder is ever read.
FONT_FOLDER = Path("/usr/share/fonts")
NAME_MAX = 40


class LocalOnlyFetcher(URLFetcher):
    """Serves the sheet's files from the app folder and the system fonts; never the network."""

    def __init__(self, roots: tuple[Path, ...]) -> None:
        super().__init__(allowed_protocols=("file", "data"), allow_redirects=False)
        self.roots = tuple(root.resolve() for root in roots)

    def fetch(self, url: str, headers: Any = None) -> Any:
        scheme = urlsplit(url).scheme.lower()
        if scheme == "file":
            path = Path(url2pathname(urlsplit(url).path)).resolve()
            if not any(path.is_relative_to(root) for root in self.roots):
                raise ValueError(f"the sheet may not read {url}")
        elif scheme != "data":
            raise ValueError(f"the sheet loads nothing from the network: {url}")
        return super().fetch(url, headers)


def render_pdf(html: str) -> bytes:
    """The PDF of a rendered sheet template (relative URLs resolve in the app folder)."""
    fetcher = LocalOnlyFetcher((STATIC_FOLDER, FONT_FOLDER))
    base = STATIC_FOLDER.as_uri() + "/"
    return SheetHTML(string=html, base_url=base, url_fetcher=fetcher).write_pdf()


@functools.lru_cache(maxsize=2)
def parsed_sheet_css(text: str) -> tuple[weasyprint.CSS, FontConfiguration]:
    """sheet.css parsed once, with the fonts it loads: every page of a long sheet shares them."""
    fonts = FontConfiguration()
    fetcher = LocalOnlyFetcher((STATIC_FOLDER, FONT_FOLDER))
    base = STATIC_FOLDER.as_uri() + "/"
    css = weasyprint.CSS(string=text, base_url=base, url_fetcher=fetcher, font_config=fonts)
    return css, fonts


def render_document(html: str) -> Any:
    """A laid-out WeasyPrint Document of a template rendered with `css_apart` (no inline CSS)."""
    css, fonts = parsed_sheet_css(render_template("pdf/sheet.css"))
    fetcher = LocalOnlyFetcher((STATIC_FOLDER, FONT_FOLDER))
    base = STATIC_FOLDER.as_uri() + "/"
    document = SheetHTML(string=html, base_url=base, url_fetcher=fetcher)
    return document.render(stylesheets=[css], font_config=fonts)


def slug(name: str) -> str:
    """A file-name-safe form of a game's name (ASCII letters, digits and hyphens)."""
    ascii_name = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode()
    cleaned = re.sub(r"[^a-z0-9]+", "-", ascii_name.lower()).strip("-")
    return cleaned[:NAME_MAX].strip("-") or "game"


def page_counter_css() -> str:
    """CSS `content` for "page N of M" in the reader's language."""
    text = gettext("page %(page)s of %(pages)s", page="\x01", pages="\x02")
    parts = re.split(r"(\x01|\x02)", text)
    css = []
    for part in parts:
        if part == "\x01":
            css.append("counter(page)")
        elif part == "\x02":
            css.append("counter(pages)")
        elif part:
            css.append(css_string(part))
    return " ".join(css)


def css_string(text: str) -> str:
    """A quoted CSS string that cannot close its rule nor the <style> element."""
    escaped = "".join(
        ch if ch.isalnum() or ch in " .,:;!?()-" else f"\\{ord(ch):x} " for ch in text
    )
    return f'"{escaped}"'


def paper_size() -> str:
    """The @page size asked for with ?paper=, A4 by default; 400 for an unknown paper."""
    paper = request.args.get("paper", "a4").strip().lower()
    if paper not in PAPERS:
        abort(refused("paper", gettext("paper must be a4 or letter")))
    return PAPERS[paper]


def refused(field: str, message: str) -> Response:
    """A plain page saying which query parameter is wrong (HTTP 400)."""
    page = render_template("pdf/refused.html", field=field, message=message)
    return Response(page, status=400, mimetype="text/html")


def pdf_response(data: bytes, filename: str) -> Response:
    response = Response(data, mimetype="application/pdf")
    response.headers["Content-Disposition"] = f'inline; filename="{filename}"'
    return response


def oriented(size: str, sides_across: int) -> str:
    """Two sides' columns fit across portrait paper; three need it turned (landscape)."""
    return f"{size} landscape" if sides_across > 2 else size
