"""Sheets that cost what they should: one render at a time, and reprints from the cache."""

from __future__ import annotations

import stat
import subprocess
import sys
import time
from pathlib import Path

import pytest
from apidata import hand, side
from flask import Flask
from flask.testing import FlaskClient

from scorer import create_app
from scorer.sheets import cache as sheet_cache
from scorer.sheets import game_sheet, render

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
    real = game_sheet.game_sheet_pdf

    def counting(record, size: str) -> bytes:
        seen.append(record.id)
        return real(record, size)

    monkeypatch.setattr(game_sheet, "game_sheet_pdf", counting)
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


def hold_the_turn(database: Path) -> subprocess.Popen[str]:
    """Another process (a worker of the same server) holding the turn to render."""
    holder = subprocess.Popen(
        [sys.executable, "-c", HOLD_THE_TURN, f"{database}-sheet.lock"],
        stdout=subprocess.PIPE,
        text=True,
    )
    assert holder.stdout is not None and holder.stdout.readline().strip() == "held"
    return holder


def new_club_night(client: FlaskClient) -> str:
    club = client.post("/api/clubs", json={"name": "Sunday", "players": ["Ann", "Bob", "Cy", "Di"]})
    club_id = club.get_json()["id"]
    game = client.post(f"/api/clubs/{club_id}/games", json={"sides": FOUR}).get_json()["id"]
    assert client.post(f"/api/games/{game}/hands", json=HAND).status_code == 201
    return club_id


def test_a_busy_turn_is_answered_at_once_with_a_page_that_asks_again(
    app: Flask, client: FlaskClient
) -> None:
    """No request waits for the turn (a waiting sync worker serves nobody): every kind of
    sheet, the club night's too, and a club's CSV answer 503 at once while another renders."""
    game = new_game(client)
    club_id = new_club_night(client)
    database = Path(app.config["DATABASE"])
    holder = hold_the_turn(database)
    try:
        answers = {}
        for path in (
            f"/games/{game}/sheet.pdf",
            "/sheets/blank.pdf",
            f"/clubs/{club_id}/night.pdf",
            f"/clubs/{club_id}/hands.csv",  # a costly render too: the same turn
        ):
            started = time.perf_counter()
            answers[path] = client.get(path, headers={"Accept": "text/html,*/*"})
            assert time.perf_counter() - started < 1.0, path
    finally:
        holder.kill()
        holder.wait()
        assert holder.stdout is not None
        holder.stdout.close()
    for path, busy in answers.items():
        assert busy.status_code == 503, path
        assert busy.headers["Retry-After"] == str(sheet_cache.SHEET_RETRY_AFTER)
        page = busy.get_data(as_text=True)
        # A browser asks again by itself, without JavaScript.
        assert f'<meta http-equiv="refresh" content="{sheet_cache.SHEET_RETRY_AFTER}">' in page
        assert "asks again by itself" in page
    assert client.get(f"/clubs/{club_id}/night.pdf").status_code == 200


def test_a_club_night_is_rendered_once_per_version(
    client: FlaskClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    rendered: list[int] = []
    real = render.render_pdf

    def counting(html: str) -> bytes:
        rendered.append(1)
        return real(html)

    monkeypatch.setattr(render, "render_pdf", counting)
    club_id = new_club_night(client)
    first = client.get(f"/clubs/{club_id}/night.pdf")
    again = client.get(f"/clubs/{club_id}/night.pdf")
    assert first.status_code == again.status_code == 200
    assert again.data == first.data and len(rendered) == 1


def test_blank_sheets_cannot_push_a_games_sheet_out(
    client: FlaskClient, renders: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each kind of sheet has a budget of its own: many blank sheets (any names make a new
    one) leave the games' sheets kept."""
    monkeypatch.setattr(sheet_cache, "SHEET_CACHE_SIZE", 4)  # one shared budget, before
    monkeypatch.setattr(sheet_cache, "SHEET_BUDGETS", {"game": 4, "blank": 4, "night": 4})
    game = new_game(client)
    assert client.get(f"/games/{game}/sheet.pdf").status_code == 200
    for n in range(16):
        blank = client.get(f"/sheets/blank.pdf?names=Ann{n},Bob")
        assert blank.status_code == 200
    assert client.get(f"/games/{game}/sheet.pdf").status_code == 200
    assert renders == [game]
