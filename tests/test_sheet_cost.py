"""Sheets that cost what they should: one render at a time, and reprints from the cache."""

from __future__ import annotations

import stat
import subprocess
import sys
from pathlib import Path

import pytest
from apidata import hand, side
from flask import Flask
from flask.testing import FlaskClient

from scorer import create_app
from scorer.sheets import pdf, sheet_cache

FOUR = [{"players": ["Ann", "Bob"]}, {"players": ["Cy", "Di"]}]
HAND = hand(side(130, natural=1), side(50, left=85), went_out=0)
HOLD_THE_TURN = """
import sys, time
from filelock import FileLock
turn = FileLock(sys.argv[1])
turn.acquire()
print("held", flush=True)
time.sleep(120)
"""


@pytest.fixture
def renders(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Every game sheet rendered, by game id (the real renderer still runs).

    A sheet is several WeasyPrint documents (a measuring page, then each page), so renders
    are counted where a sheet is made, not per document.
    """
    seen: list[str] = []
    real = pdf.game_sheet_pdf

    def counting(record, size: str) -> bytes:
        seen.append(record.id)
        return real(record, size)

    monkeypatch.setattr(pdf, "game_sheet_pdf", counting)
    return seen


def new_game(client: FlaskClient) -> str:
    game = client.post("/api/games", json={"sides": FOUR}).get_json()["id"]
    assert client.post(f"/api/games/{game}/hands", json=HAND).status_code == 201
    return game


def test_a_reprint_comes_from_the_cache(client: FlaskClient, renders: list[str]) -> None:
    game = new_game(client)
    first = client.get(f"/games/{game}/sheet.pdf")
    again = client.get(f"/games/{game}/sheet.pdf")
    assert first.status_code == again.status_code == 200
    assert again.data == first.data
    assert len(renders) == 1


def test_a_sheet_rendered_by_one_worker_is_reprinted_by_another(
    tmp_path: Path, renders: list[str]
) -> None:
    config = {
        "TESTING": True,
        "DATABASE": str(tmp_path / "scorer.sqlite3"),
        "SECRET_KEY": "test-secret",
        "WTF_CSRF_ENABLED": False,
    }
    first, second = create_app(config).test_client(), create_app(config).test_client()
    game = new_game(first)
    printed = first.get(f"/games/{game}/sheet.pdf")
    again = second.get(f"/games/{game}/sheet.pdf")  # another worker of the same server
    assert printed.status_code == again.status_code == 200
    assert again.data == printed.data
    assert len(renders) == 1
    kept = list((tmp_path / "scorer.sqlite3-sheets").iterdir())
    assert kept and all(stat.S_IMODE(path.stat().st_mode) == 0o600 for path in kept)


def test_the_cache_is_kept_per_version_language_and_paper(
    client: FlaskClient, renders: list[str]
) -> None:
    game = new_game(client)
    sheet = f"/games/{game}/sheet.pdf"
    client.get(sheet)
    client.get(sheet + "?paper=letter")
    client.get(sheet, headers={"Accept-Language": "fr"})
    assert len(renders) == 3
    assert client.post(f"/api/games/{game}/hands", json=HAND).status_code == 201
    client.get(sheet)  # a new hand is a new version: a new sheet
    assert len(renders) == 4
    client.get(sheet)
    client.get(sheet + "?paper=letter")
    assert len(renders) == 5


def test_a_sheet_rendering_in_another_worker_makes_this_one_answer_503(tmp_path: Path) -> None:
    database = tmp_path / "scorer.sqlite3"
    app: Flask = create_app(
        {
            "TESTING": True,
            "DATABASE": str(database),
            "SECRET_KEY": "test-secret",
            "WTF_CSRF_ENABLED": False,
            "SHEET_WAIT_SECONDS": 0,
        }
    )
    client = app.test_client()
    game = new_game(client)
    # Another process (a worker of the same server) holds the turn to render.
    with subprocess.Popen(
        [sys.executable, "-c", HOLD_THE_TURN, f"{database}-sheet.lock"],
        stdout=subprocess.PIPE,
        text=True,
    ) as holder:
        try:
            assert holder.stdout is not None and holder.stdout.readline().strip() == "held"
            busy = client.get(f"/games/{game}/sheet.pdf")
        finally:
            holder.kill()
    assert busy.status_code == 503
    assert busy.headers["Retry-After"] == str(sheet_cache.SHEET_RETRY_AFTER)
    assert "busy printing" in busy.get_data(as_text=True)
    assert client.get(f"/games/{game}/sheet.pdf").status_code == 200
