"""Classic bit for bit: the corpus of games made by older code replays and imports equal.

tests/corpus.py made the corpus once, through the API: each game's export and the game as the
API then returned it (every hand's score, running totals, minimums, dealer, the winner), and
the SQLite database the games were stored in. Newer code must read that database and give
every game back as it was, and import every export back to the same game. Fields the API has
gained since may be added; none recorded may change.
"""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from typing import Any

import pytest
from corpus import CORPUS_JSON, CORPUS_SQL

from scorer import create_app

# What two copies of one game differ in: its address and the version of its own writes.
OWN_FIELDS = frozenset({"id", "version", "watch_url"})


@pytest.fixture(scope="module")
def corpus() -> list[dict[str, Any]]:
    return json.loads(CORPUS_JSON.read_text())


def differences(recorded: Any, now: Any, path: str = "") -> list[str]:
    """Where `now` differs from `recorded`: a recorded field missing or changed (a field
    added to an object is not a difference)."""
    if isinstance(recorded, dict) and isinstance(now, dict):
        found = []
        for key, value in recorded.items():
            if key not in now:
                found.append(f"{path}.{key}: missing")
            else:
                found += differences(value, now[key], f"{path}.{key}")
        return found
    if isinstance(recorded, list) and isinstance(now, list) and len(recorded) == len(now):
        return [
            d
            for i, (a, b) in enumerate(zip(recorded, now, strict=True))
            for d in differences(a, b, f"{path}[{i}]")
        ]
    return (
        []
        if recorded == now and type(recorded) is type(now)
        else [f"{path}: {recorded!r} -> {now!r}"]
    )


def without(data: dict[str, Any], fields: frozenset[str]) -> dict[str, Any]:
    return {key: value for key, value in data.items() if key not in fields}


def test_the_corpus_covers_what_a_table_does(corpus: list[dict[str, Any]]) -> None:
    games = [entry["game"] for entry in corpus]
    seatings = {(g["profile"], tuple(len(s["players"]) for s in g["sides"])) for g in games}
    assert len(seatings) >= 10
    sides = [s for g in games for h in g["hands"] for s in h["sides"]]
    assert any("melds" in s for s in sides) and any("meld_cards" in s for s in sides)
    assert any("hand_cards" in s for s in sides) and any(s.get("adjustment") for s in sides)
    assert any(h["irregular"] for g in games for h in g["hands"])
    assert any(h["after_end"] for g in games for h in g["hands"])
    assert any(g["house_rules"] for g in games) and any(g["fixed_hands"] for g in games)
    assert any(g["shared_win"] for g in games) and sum(g["winner"] is not None for g in games) > 5
    assert sum(len(g["hands"]) for g in games) > 150


def test_a_database_made_by_older_code_reads_back_every_game_as_it_was(
    tmp_path: Path, corpus: list[dict[str, Any]]
) -> None:
    database = tmp_path / "old.sqlite3"
    conn = sqlite3.connect(database)
    conn.executescript(CORPUS_SQL.read_text())
    conn.close()
    before = tables(database)
    app = create_app({"TESTING": True, "DATABASE": str(database), "SECRET_KEY": "corpus"})
    client = app.test_client()
    for entry in corpus:
        url = f"/api/games/{entry['game']['id']}"
        game = client.get(url)
        assert game.status_code == 200
        assert differences(entry["game"], game.get_json(), url) == []
        assert game.get_json()["family"] == "classic"  # every game stored before families
        export = client.get(f"{url}/export").get_json()
        assert differences(entry["export"], export, f"{url}/export") == []
        assert export["family"] == "classic"
    # The migrations added what they add and dropped nothing: every column, every row.
    after = tables(database)
    for name, (columns, rows) in before.items():
        assert set(columns) <= set(after[name][0]), name
        if name != "_sqlite_migrations":  # which gains a row per migration applied
            assert rows == after[name][1], name
    assert "family" in after["games"][0]
    assert after["_sqlite_migrations"][1] > before["_sqlite_migrations"][1]


def tables(database: Path) -> dict[str, tuple[list[str], int]]:
    """Each table's columns and number of rows."""
    conn = sqlite3.connect(database)
    try:
        names = [r[0] for r in conn.execute("select name from sqlite_master where type='table'")]
        return {
            name: (
                [c[1] for c in conn.execute(f"pragma table_info('{name}')")],
                conn.execute(f"select count(*) from '{name}'").fetchone()[0],
            )
            for name in names
        }
    finally:
        conn.close()


def test_a_game_records_its_family(client: Any) -> None:
    sides = [{"players": ["Ann", "Bob"]}, {"players": ["Cy", "Di"]}]
    made = client.post("/api/games", json={"sides": sides})
    assert made.get_json()["family"] == "classic"
    named = client.post("/api/games", json={"family": "classic", "sides": sides})
    assert named.status_code == 201 and named.get_json()["family"] == "classic"
    unknown = client.post("/api/games", json={"family": "bridge", "sides": sides})
    assert unknown.status_code == 422 and unknown.get_json()["field"] == "family"
    export = client.get(f"/api/games/{named.get_json()['id']}/export").get_json()
    assert export["family"] == "classic"


def test_every_export_imports_back_to_the_same_game(
    client: Any, corpus: list[dict[str, Any]]
) -> None:
    for entry in corpus:
        imported = client.post("/api/games/import", json=entry["export"])
        assert imported.status_code == 201, imported.get_json()
        url = f"/api/games/{imported.get_json()['id']}"
        game = client.get(url).get_json()
        where = entry["game"]["id"]
        assert differences(without(entry["game"], OWN_FIELDS), game, where) == []
        export = client.get(f"{url}/export").get_json()
        assert differences(without(entry["export"], OWN_FIELDS), export, where) == []
