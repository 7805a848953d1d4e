"""A page's forms as a browser without JavaScript submits them, through a real HTTP client
with its own cookie jar (tests/production: the forms posted through the shards' router)."""

from __future__ import annotations

import http.cookiejar
import urllib.error
import urllib.parse
import urllib.request
from dataclasses import dataclass, field
from html.parser import HTMLParser


@dataclass
class Form:
    action: str
    fields: list[tuple[str, str]] = field(default_factory=list)

    def filled(self, **values: str | list[str]) -> list[tuple[str, str]]:
        """The form's own values with some typed over: a list fills same-named boxes in
        order (a club's players); a name the form sends nothing for yet is a radio chosen."""
        out, used = [], {name: 0 for name in values}
        for name, value in self.fields:
            given = values.get(name)
            if isinstance(given, list):
                index = used[name]
                used[name] += 1
                value = given[index] if index < len(given) else value
            elif given is not None:
                value = given
            out.append((name, value))
        present = {name for name, _ in self.fields}
        out += [(n, v) for n, v in values.items() if n not in present and isinstance(v, str)]
        return out


class FormReader(HTMLParser):
    """Every post form of a page: text and hidden boxes with their values, checked radios
    and boxes, each select's selected (else first) option; the first submit button's name
    is left out unless it has one (a browser sends only the button pressed)."""

    def __init__(self, page: str) -> None:
        super().__init__()
        self.page = page
        self.forms: list[Form] = []
        self.select: tuple[str, list[tuple[str, bool]]] | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = {k: v or "" for k, v in attrs}
        if tag == "form" and a.get("method", "get").lower() == "post":
            self.forms.append(Form(urllib.parse.urljoin(self.page, a.get("action") or self.page)))
        if tag == "option" and self.select is not None:
            self.select[1].append((a.get("value", ""), "selected" in a))
        if not self.forms or "name" not in a:
            return
        form = self.forms[-1]
        kind = a.get("type", "text").lower()
        if tag == "input" and kind in ("radio", "checkbox"):
            if "checked" in a:
                form.fields.append((a["name"], a.get("value", "on")))
        elif tag == "input" and kind not in ("submit", "button", "image", "reset", "file"):
            form.fields.append((a["name"], a.get("value", "")))
        elif tag == "select":
            self.select = (a["name"], [])

    def handle_endtag(self, tag: str) -> None:
        if tag == "select" and self.select is not None and self.forms:
            name, options = self.select
            chosen = [value for value, selected in options if selected] or [options[0][0]]
            self.forms[-1].fields.append((name, chosen[0]))
            self.select = None


class NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):  # noqa: ANN002, ANN003
        return None  # the test reads the 303 itself


class Phone:
    """One browser: its cookies kept across requests, redirects read, not followed."""

    def __init__(self) -> None:
        self.jar = http.cookiejar.CookieJar()
        self.opener = urllib.request.build_opener(
            urllib.request.HTTPCookieProcessor(self.jar), NoRedirect()
        )

    def request(self, url: str, data: list[tuple[str, str]] | None = None) -> tuple[int, str, dict]:
        body = None if data is None else urllib.parse.urlencode(data).encode()
        try:
            with self.opener.open(urllib.request.Request(url, data=body), timeout=60) as answer:
                return answer.status, answer.read().decode(), dict(answer.headers)
        except urllib.error.HTTPError as error:
            with error:
                return error.code, error.read().decode("utf-8", "replace"), dict(error.headers)

    def forms(self, url: str) -> list[Form]:
        status, page, _ = self.request(url)
        assert status == 200, (url, status, page[:500])
        reader = FormReader(url)
        reader.feed(page)
        return reader.forms
