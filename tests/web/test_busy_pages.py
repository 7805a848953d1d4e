"""The pages a browser gets when a heavy read is refused (issue 35): a 429 for the heavy-read
budget, a 503 while every heavy slot is taken, and a 503 for a busy database. Each says, in
our words and in each language, what happened and when to try again."""

from __future__ import annotations

import re
import sqlite3
from pathlib import Path

import pytest
from flask import Flask
from routeargs import one_of_each
from test_heavy_reads import make_app  # the app with a budget or slots of the test's own

LANGUAGES = ("en", "fr", "es")
# The words for "minute" in each language: a 429 says in how many to try again.
MINUTES = {"en": "minute", "fr": "minute", "es": "minuto"}
# What a heavy-read refusal must not say: it is about downloads, not games and hands, and no
# sheet is printing for an export.
WRONG = {
    "en": ("games or hands", "printing"),
    "fr": ("parties ou de mains", "imprime"),
    "es": ("partidas o manos", "imprimiendo"),
}


def words(html: str) -> str:
    """The page's main text, tags removed."""
    main = html.split("<main", 1)[-1]
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", main))


def club_page(app: Flask) -> str:
    club = one_of_each(app.test_client())["club_id"]
    return f"/clubs/{club}"


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_heavy_read_429_page_says_when_to_try_again(tmp_path: Path, language: str) -> None:
    app = make_app(tmp_path, RATELIMIT_HEAVY_READ="2/hour")
    client = app.test_client()
    path = club_page(app)
    headers = {"Accept-Language": language}
    address = {"REMOTE_ADDR": "192.0.2.9"}
    for _ in range(2):
        assert client.get(path, headers=headers, environ_base=address).status_code == 200
    refused = client.get(path, headers=headers, environ_base=address)
    assert refused.status_code == 429
    wait = int(refused.headers["Retry-After"])
    text = words(refused.get_data(as_text=True))
    minutes = max(1, -(-wait // 60))  # an hour's window: in about an hour's minutes
    assert re.search(rf"\b{minutes} {MINUTES[language]}", text), text
    for wrong in WRONG[language]:
        assert wrong not in text, text
    assert "Too many" not in text or language == "en"  # translated, not left in English


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_heavy_slots_503_page_is_not_about_printing(tmp_path: Path, language: str) -> None:
    app = make_app(tmp_path, HEAVY_READS_AT_ONCE=1)
    client = app.test_client()
    path = club_page(app)
    slot = app.extensions["scorer.heavy_slots"].take()
    try:
        busy = client.get(path, headers={"Accept-Language": language})
    finally:
        slot.release()
    assert busy.status_code == 503
    html = busy.get_data(as_text=True)
    assert 'http-equiv="refresh" content="2"' in html  # it asks again by itself
    text = words(html)
    assert "2" in text, text  # ...and says so, in seconds
    for wrong in WRONG[language]:
        assert wrong not in text, text


def test_a_busy_database_page_is_not_about_printing(tmp_path: Path) -> None:
    app = make_app(tmp_path)

    def locked() -> None:  # SQLite still locked past the busy timeout
        raise sqlite3.OperationalError("database is locked")

    app.view_functions["games.home"] = locked
    busy = app.test_client().get("/")
    assert busy.status_code == 503
    assert busy.headers["Retry-After"] == "2"
    text = words(busy.get_data(as_text=True))
    assert "printing" not in text and "few seconds" in text, text
