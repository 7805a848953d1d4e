"""Browser fixtures: the real app on loopback and Debian's Chromium as a phone.

Reusable by any browser test:
- ``live_server``: the base URL of the app (its own SQLite file, CSRF on), e.g.
  ``http://127.0.0.1:41234``; ``live_app`` is the Flask app behind it.
- ``browser``: one Chromium for the whole session (Playwright never downloads a browser).
- ``make_page(width=390, height=844, color_scheme="light", locale="en-GB")``: a new phone
  page (touch, mobile, device scale factor 2); every page is closed after the test.
- ``page``: ``make_page()`` at 390 x 844.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import phone
import pytest
from flask import Flask
from playwright.sync_api import sync_playwright
from werkzeug.serving import make_server

from scorer import create_app

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
PHONE = {"width": 390, "height": 844}


@pytest.fixture
def live_app(tmp_path: Path) -> Flask:
    return create_app(
        {
            "DATABASE": str(tmp_path / "scorer.sqlite3"),
            "SECRET_KEY": "browser-test-secret",
            "INSTANCE_PATH": str(tmp_path / "instance"),
            "WTF_CSRF_ENABLED": True,
        }
    )


@pytest.fixture
def live_server(live_app: Flask) -> Iterator[str]:
    """The app served by werkzeug in a background thread on a free loopback port."""
    server = make_server("127.0.0.1", 0, live_app, threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_port}"
    finally:
        server.shutdown()
        thread.join()
        server.server_close()


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    if not Path(CHROMIUM).exists():
        pytest.fail(f"{CHROMIUM} is missing: run `make chromium`")
    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            yield chromium
        finally:
            chromium.close()


@pytest.fixture
def make_page(browser: Any) -> Iterator[Callable[..., Any]]:
    """A factory of phone pages: make_page(width=360, color_scheme="dark")."""
    contexts: list[Any] = []

    def factory(
        width: int = PHONE["width"],
        height: int = PHONE["height"],
        color_scheme: str = "light",
        locale: str = "en-GB",
        javascript: bool = True,
    ) -> Any:
        context = browser.new_context(
            viewport={"width": width, "height": height},
            has_touch=True,
            is_mobile=True,
            device_scale_factor=2,
            color_scheme=color_scheme,
            locale=locale,
            java_script_enabled=javascript,
        )
        context.set_default_timeout(20_000)  # a loaded CI machine; only reached on failure
        contexts.append(context)
        return context.new_page()

    yield factory
    for context in contexts:
        context.close()


@pytest.fixture
def page(make_page: Callable[..., Any]) -> Any:
    return make_page()


@pytest.fixture(autouse=True)
def _screenshots_in_tmp_path(tmp_path: Path) -> Iterator[None]:
    """Screenshots taken by the phone helpers go to this test's tmp_path."""
    phone.TEST_FOLDER.append(tmp_path)
    yield
    phone.TEST_FOLDER.pop()
