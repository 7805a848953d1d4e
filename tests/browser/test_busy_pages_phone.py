"""A phone that meets the heavy-read budget (429) or every heavy slot taken (503), at 360 px,
with JavaScript on and off: the page says why, in its language, and when to try again, and
nothing on it is wider than the screen (issue 35)."""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from phone import no_sideways_scroll, shoot, too_wide
from routeargs import one_of_each
from werkzeug.serving import make_server

from scorer import create_app

# The words of each language that the 429 and the 503 must show.
SAYS = {
    "en-GB": ("Too many downloads", "Try again in", "Busy for a moment", "few seconds"),
    "fr-FR": ("Trop de téléchargements", "Réessayez dans", "Occupé", "quelques secondes"),
    "es-ES": ("Demasiadas descargas", "Inténtalo de nuevo", "Ocupado", "unos segundos"),
}


@pytest.fixture
def busy_app(tmp_path: Path) -> Flask:
    return create_app(
        {
            "DATABASE": str(tmp_path / "scorer.sqlite3"),
            "SECRET_KEY": "browser-test-secret",
            "INSTANCE_PATH": str(tmp_path / "instance"),
            "RATELIMIT_HEAVY_READ": "1/hour",
            "HEAVY_READS_AT_ONCE": 1,
        }
    )


@pytest.fixture
def busy_server(busy_app: Flask) -> Iterator[str]:
    server = make_server("127.0.0.1", 0, busy_app, threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_port}"
    finally:
        server.shutdown()
        thread.join()
        server.server_close()


@pytest.mark.parametrize("javascript", [True, False], ids=["js", "no-js"])
@pytest.mark.parametrize("locale", list(SAYS))
def test_the_busy_pages_on_a_phone(
    busy_app: Flask,
    busy_server: str,
    make_page: Callable[..., Any],
    tmp_path: Path,
    locale: str,
    javascript: bool,
) -> None:
    club = one_of_each(busy_app.test_client())["club_id"]
    page = make_page(width=360, height=780, locale=locale, javascript=javascript)
    too_many, again, busy, seconds = SAYS[locale]
    # Every heavy slot taken: the club's page asks again by itself, in a few seconds.
    slot = busy_app.extensions["scorer.heavy_slots"].take()
    try:
        answer = page.goto(f"{busy_server}/clubs/{club}")
        assert answer.status == 503
        text = page.inner_text("main")
        assert busy in text and seconds in text, text
        assert no_sideways_scroll(page) and not too_wide(page), too_wide(page)
        shoot(page, tmp_path, f"503-{locale}-{javascript}")
        page.goto("about:blank")  # away before its refresh asks again
    finally:
        slot.release()
    # The hour's one heavy read spent, the next is refused: when to come back, in minutes.
    assert page.goto(f"{busy_server}/clubs/{club}").status == 200
    answer = page.goto(f"{busy_server}/clubs/{club}")
    assert answer.status == 429
    text = page.inner_text("main")
    assert too_many in text and again in text, text
    assert no_sideways_scroll(page) and not too_wide(page), too_wide(page)
    shoot(page, tmp_path, f"429-{locale}-{javascript}")
