"""A phone that meets the heavy-read budget (429) or every heavy slot taken (503), at 360 px,
with JavaScript on and off: the page says why, in its language, and when to try again, and
nothing on it is wider than the screen (issue 35)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from phone import no_sideways_scroll, shoot, too_wide
from routeargs import one_of_each

from scorer import create_app

# The words of each language that the 429 and the 503 must show.
SAYS = {
    "en-GB": ("Too many downloads", "Try again in", "Busy for a moment", "few seconds"),
    "fr-FR": ("Trop de téléchargements", "Réessayez dans", "Occupé", "quelques secondes"),
    "es-ES": ("Demasiadas descargas", "Inténtalo de nuevo", "Ocupado", "unos segundos"),
}


@pytest.fixture
def live_app(tmp_path: Path) -> Flask:
    """The browser tests' app (conftest's live_server serves it), with one heavy read an
    hour and one heavy slot."""
    return create_app(
        {
            "DATABASE": str(tmp_path / "scorer.sqlite3"),
            "SECRET_KEY": "browser-test-secret",
            "INSTANCE_PATH": str(tmp_path / "instance"),
            "RATELIMIT_HEAVY_READ": "1/hour",
            "HEAVY_READS_AT_ONCE": 1,
        }
    )


def shows(page: Any, status: int, words: tuple[str, ...], name: str, folder: Path) -> None:
    """The page answered `status`, shows each of `words`, and fits the screen."""
    text = page.inner_text("main")
    assert all(word in text for word in words), text
    assert no_sideways_scroll(page) and not too_wide(page), too_wide(page)
    shoot(page, folder, f"{status}-{name}")


@pytest.mark.parametrize("javascript", [True, False], ids=["js", "no-js"])
@pytest.mark.parametrize("locale", list(SAYS))
def test_the_busy_pages_on_a_phone(
    live_app: Flask,
    live_server: str,
    make_page: Callable[..., Any],
    tmp_path: Path,
    locale: str,
    javascript: bool,
) -> None:
    club = one_of_each(live_app.test_client())["club_id"]
    page = make_page(width=360, height=780, locale=locale, javascript=javascript)
    too_many, again, busy, seconds = SAYS[locale]
    # Every heavy slot taken: the club's page asks again by itself, in a few seconds.
    slot = live_app.extensions["scorer.heavy_slots"].take()
    try:
        assert page.goto(f"{live_server}/clubs/{club}").status == 503
        shows(page, 503, (busy, seconds), f"{locale}-{javascript}", tmp_path)
        page.goto("about:blank")  # away before its refresh asks again
    finally:
        slot.release()
    # The hour's one heavy read spent, the next is refused: when to come back, in minutes.
    assert page.goto(f"{live_server}/clubs/{club}").status == 200
    assert page.goto(f"{live_server}/clubs/{club}").status == 429
    shows(page, 429, (too_many, again), f"{locale}-{javascript}", tmp_path)
