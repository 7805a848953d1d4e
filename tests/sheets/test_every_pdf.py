"""Every PDF route of the app renders in the server's one turn and is kept (issue 35)."""

from __future__ import annotations

from typing import Any

import pytest
from filelock import FileLock, Timeout
from flask import Flask
from flask.testing import FlaskClient
from routeargs import one_of_each, paths_of

from scorer.sheets.html import SheetHTML


def pdf_rules(app: Flask) -> list[Any]:
    return [rule for rule in app.url_map.iter_rules() if rule.rule.endswith(".pdf")]


@pytest.fixture
def ids(client: FlaskClient) -> dict[str, str]:
    return one_of_each(client)


def urls(app: Flask, ids: dict[str, str]) -> dict[str, str]:
    return paths_of(app, pdf_rules(app), ids)


def test_every_pdf_route_renders_in_the_one_turn_and_is_kept(
    app: Flask, client: FlaskClient, ids: dict[str, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    lock_path = f"{app.config['DATABASE']}-sheet.lock"
    renders: list[bool] = []  # for each render: was the turn held?
    real_render = SheetHTML.render

    def render(self: SheetHTML, *args: Any, **kwargs: Any) -> Any:
        try:
            FileLock(lock_path).acquire(timeout=0).lock.release()
            renders.append(False)
        except Timeout:
            renders.append(True)
        return real_render(self, *args, **kwargs)

    monkeypatch.setattr(SheetHTML, "render", render)
    paths = urls(app, ids)
    assert {"nights_pages.seating_pdf", "nights_pages.standings_pdf"} <= set(paths)
    for endpoint, path in paths.items():
        renders.clear()
        first = client.get(path)
        assert first.status_code == 200 and first.mimetype == "application/pdf", path
        assert renders and all(renders), f"{endpoint} rendered outside the sheet's turn"
        renders.clear()
        again = client.get(path)
        assert again.data == first.data and renders == [], f"{endpoint} rendered again"


def test_every_pdf_route_answers_503_while_another_sheet_renders(
    app: Flask, client: FlaskClient, ids: dict[str, str]
) -> None:
    held = FileLock(f"{app.config['DATABASE']}-sheet.lock")
    held.acquire()
    try:
        for endpoint, path in urls(app, ids).items():
            busy = client.get(path)
            assert busy.status_code == 503, endpoint
            assert busy.headers["Retry-After"] == "5", endpoint
    finally:
        held.release()
