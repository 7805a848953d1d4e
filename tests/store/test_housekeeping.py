"""Backups (private, atomic, leftovers cleaned) and pruning abandoned games (issue #11), clubs
with their nights, seasons and records of corrections, and every kind of retry key (issue 35)."""

from __future__ import annotations

import sqlite3
import stat
from pathlib import Path

import pytest
from apidata import EIGHT, put_hand
from flask import Flask
from flask.testing import FlaskClient
from stored import HAND, OLD, age, game_ids, sql

from scorer.store import clubs
from scorer.store.db import connect
from scorer.store.housekeeping import cutoff

FOUR = [{"players": ["Ann", "Bob"]}, {"players": ["Cy", "Di"]}]


def new_game(client: FlaskClient) -> str:
    response = client.post("/api/games", json={"sides": FOUR})
    assert response.status_code == 201
    return response.get_json()["id"]


def test_backup_is_private_and_leftovers_are_removed(app: Flask, tmp_path: Path) -> None:
    new_game(app.test_client())
    folder = tmp_path / "backups"
    folder.mkdir()
    target = folder / "scorer-backup.sqlite3"
    leftover = folder / ".scorer-backup.sqlite3.partial.x1y2z3"
    leftover.write_bytes(b"half a database")
    other = folder / "notes.txt"
    other.write_text("keep me")
    result = app.test_cli_runner().invoke(args=["backup", str(target)])
    assert result.exit_code == 0, result.output
    assert stat.S_IMODE(target.stat().st_mode) == 0o600
    assert not leftover.exists()
    assert sorted(p.name for p in folder.iterdir()) == ["notes.txt", "scorer-backup.sqlite3"]
    with sqlite3.connect(target) as copy:
        assert copy.execute("select count(*) from games").fetchone() == (1,)


def test_prune_is_a_dry_run_unless_told_yes(app: Flask) -> None:
    client = app.test_client()
    old_empty = new_game(client)
    old_played = new_game(client)
    assert client.post(f"/api/games/{old_played}/hands", json=HAND).status_code == 201
    new_empty = new_game(client)
    age(app, old_empty, "2020-01-01T00:00:00+00:00")
    # Untouched for a month: an empty game goes, a played one stays (PLAYED_KEPT_DAYS).
    age(app, old_played, cutoff(30))
    # Idempotency keys point at games too: they must go with the game.
    db = connect(app.config["DATABASE"])
    with db.conn:
        db["idempotency_keys"].insert(
            {"game_id": old_empty, "key": "k1", "request_hash": "h", "created_at": "2020"}
        )
    db.close()
    runner = app.test_cli_runner()

    dry = runner.invoke(args=["prune"])
    assert dry.exit_code == 0, dry.output
    assert old_empty in dry.output and old_played not in dry.output
    assert new_empty not in dry.output
    assert game_ids(app) == {old_empty, old_played, new_empty}

    done = runner.invoke(args=["prune", "--yes"])
    assert done.exit_code == 0, done.output
    assert "removed 1 abandoned game(s)" in done.output
    assert game_ids(app) == {old_played, new_empty}
    db = connect(app.config["DATABASE"])
    try:
        for table in ("sides", "hands", "idempotency_keys"):
            count = db.execute(f"select count(*) from {table} where game_id = ?", [old_empty])
            assert count.fetchone() == (0,), table
        assert db.execute("PRAGMA foreign_key_check").fetchall() == []
    finally:
        db.close()


def test_prune_days_is_configurable(app: Flask) -> None:
    client = app.test_client()
    game = new_game(client)
    age(app, game, "2000-01-01T00:00:00+00:00")
    runner = app.test_cli_runner()
    assert game not in runner.invoke(args=["prune", "--days", "100000"]).output
    assert game in runner.invoke(args=["prune", "--days", "2"]).output
    assert runner.invoke(args=["prune", "--days", "0"]).exit_code != 0


def new_club(client: FlaskClient, name: str = "Sunday") -> str:
    response = client.post("/api/clubs", json={"name": name, "players": ["Ann", "Bob", "Cy", "Di"]})
    assert response.status_code == 201
    return response.get_json()["id"]


def club_game(client: FlaskClient, club_id: str) -> str:
    response = client.post(f"/api/clubs/{club_id}/games", json={"sides": FOUR})
    assert response.status_code == 201
    return response.get_json()["id"]


def test_prune_removes_played_games_untouched_for_played_days(app: Flask) -> None:
    client = app.test_client()
    old_played, recent_played = new_game(client), new_game(client)
    for game_id in (old_played, recent_played):
        assert client.post(f"/api/games/{game_id}/hands", json=HAND).status_code == 201
    age(app, old_played, OLD)
    age(app, recent_played, cutoff(30))
    runner = app.test_cli_runner()
    done = runner.invoke(args=["prune", "--yes"])
    assert done.exit_code == 0, done.output
    assert game_ids(app) == {recent_played}
    assert sql(app, "select count(*) from hands where game_id = ?", [old_played]) == [(0,)]
    done = runner.invoke(args=["prune", "--yes", "--played-days", "10"])
    assert game_ids(app) == set()


def test_prune_keeps_an_active_clubs_history_and_removes_an_abandoned_club(app: Flask) -> None:
    client = app.test_client()
    active, abandoned = new_club(client, "Active"), new_club(client, "Gone")
    history = club_game(client, active)
    assert client.post(f"/api/games/{history}/hands", json=HAND).status_code == 201
    tonight = club_game(client, active)
    assert client.post(f"/api/games/{tonight}/hands", json=HAND).status_code == 201
    left = club_game(client, abandoned)
    assert client.post(f"/api/games/{left}/hands", json=HAND).status_code == 201
    for game_id in (history, left):
        age(app, game_id, OLD)
    sql(app, "update clubs set updated_at = ?", [OLD])
    done = app.test_cli_runner().invoke(args=["prune", "--yes"])
    assert done.exit_code == 0, done.output
    assert "1 empty club(s)" in done.output
    # The active club (a game played this week) keeps its old game; the other club goes
    # with its game, its roster and its rows.
    assert game_ids(app) == {history, tonight}
    assert sql(app, "select id from clubs") == [(active,)]
    assert sql(app, "select count(*) from club_players where club_id = ?", [abandoned]) == [(0,)]
    assert sql(app, "select count(*) from club_games where club_id = ?", [abandoned]) == [(0,)]
    assert client.get(f"/api/clubs/{abandoned}").status_code == 404
    assert client.get(f"/api/clubs/{active}").get_json()["games"] == [history, tonight]


def test_a_pruned_games_club_row_goes_and_a_full_club_takes_games_again(
    app: Flask, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(clubs, "GAMES_PER_CLUB", 1)
    client = app.test_client()
    club_id = new_club(client)
    empty = club_game(client, club_id)
    assert client.post(f"/api/clubs/{club_id}/games", json={"sides": FOUR}).status_code == 422
    age(app, empty, OLD)
    done = app.test_cli_runner().invoke(args=["prune", "--yes"])
    assert "removed 1 abandoned game(s)" in done.output, done.output
    assert sql(app, "select count(*) from club_games where game_id = ?", [empty]) == [(0,)]
    assert client.get(f"/api/clubs/{club_id}").get_json()["games"] == []
    club_game(client, club_id)  # room again


def test_a_club_counts_only_games_that_still_exist(
    app: Flask, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A club row left by a game deleted another way does not fill the club."""
    monkeypatch.setattr(clubs, "GAMES_PER_CLUB", 1)
    client = app.test_client()
    club_id = new_club(client)
    gone = club_game(client, club_id)
    db = connect(app.config["DATABASE"])
    try:
        db.execute("PRAGMA foreign_keys = OFF")
        with db.conn:
            for table in ("sides", "watch_ids", "hands"):
                db.execute(f"delete from {table} where game_id = ?", [gone])
            db.execute("delete from games where id = ?", [gone])
    finally:
        db.close()
    club_game(client, club_id)


def test_prune_removes_expired_idempotency_keys(app: Flask) -> None:
    client = app.test_client()
    created = client.post("/api/games", json={"sides": FOUR}, headers={"Idempotency-Key": "c1"})
    game = created.get_json()["id"]
    for key in ("h-old", "h-new"):
        answer = client.post(
            f"/api/games/{game}/hands", json=HAND, headers={"Idempotency-Key": key}
        )
        assert answer.status_code == 201
    # (Keys are stored scoped to their client, as digests: h-old is the first row.)
    newest = sql(app, "select key from idempotency_keys order by rowid")[-1]
    sql(
        app,
        "update idempotency_keys set created_at = ? "
        "where rowid = (select min(rowid) from idempotency_keys)",
        [OLD],
    )
    sql(app, "update creation_keys set created_at = ?", [OLD])
    runner = app.test_cli_runner()
    dry = runner.invoke(args=["prune"])
    assert "2 expired key(s) would be removed" in dry.output, dry.output
    done = runner.invoke(args=["prune", "--yes"])
    assert "and 2 expired key(s)" in done.output, done.output
    assert sql(app, "select key from idempotency_keys") == [newest]
    assert sql(app, "select count(*) from creation_keys") == [(0,)]
    assert game_ids(app) == {game}


# A club's night, drawn: its players, a round, its tables (one played and corrected, one won
# by forfeit), with the club's season and its keys; every row of each must go with the club.
NIGHT = {"players": EIGHT, "rounds": 2, "round": {"fixed_hands": 1}}
SEASON = {"name": "Winter", "from": "2026-01-01", "to": "2026-12-31", "best_of": 4}


def drawn_night(client: FlaskClient, club_id: str) -> tuple[str, list[str]]:
    """A night of the club with its first round drawn: its id and its tables' games."""
    made = client.post(
        f"/api/clubs/{club_id}/nights", json=NIGHT, headers={"Idempotency-Key": f"n-{club_id}"}
    )
    assert made.status_code == 201, made.get_json()
    night = made.get_json()["id"]
    tag = client.get(f"/api/nights/{night}").headers["ETag"]
    drawn = client.post(f"/api/nights/{night}/rounds", headers={"If-Match": tag})
    assert drawn.status_code == 201, drawn.get_json()
    return night, [table["game"] for table in drawn.get_json()["rounds"][0]["tables"]]


def corrected(client: FlaskClient, game_id: str) -> None:
    """A hand played on the game, then corrected: a row of the record of corrections."""
    assert client.post(f"/api/games/{game_id}/hands", json=HAND).status_code == 201
    put = put_hand(client, f"/api/games/{game_id}/hands/1", json=HAND)
    assert put.status_code == 200, put.get_json()


def new_season(client: FlaskClient, club_id: str, key: str) -> str:
    made = client.post(
        f"/api/clubs/{club_id}/seasons", json=SEASON, headers={"Idempotency-Key": key}
    )
    assert made.status_code == 201, made.get_json()
    return made.get_json()["id"]


def rows_of(app: Flask, column: str, values: list[str]) -> dict[str, int]:
    """How many rows of each table hold one of `values` in `column`, where any does."""
    found = {}
    for (table,) in sql(app, "select name from sqlite_master where type = 'table'"):
        columns = [row[1] for row in sql(app, f"PRAGMA table_info([{table}])")]
        if column in columns:
            marks = ", ".join("?" * len(values))
            query = f"select count(*) from [{table}] where [{column}] in ({marks})"  # noqa: S608
            if count := sql(app, query, values)[0][0]:
                found[table] = count
    return found


def test_an_abandoned_club_with_a_night_a_season_and_corrections_is_pruned_whole(
    app: Flask,
) -> None:
    client = app.test_client()
    club_id = new_club(client, "Gone")
    night, tables = drawn_night(client, club_id)
    corrected(client, tables[0])
    forfeit = client.put(
        f"/api/nights/{night}/rounds/1/tables/2/forfeit",
        json={"absent": 1},
        headers={"If-Match": client.get(f"/api/nights/{night}").headers["ETag"]},
    )
    assert forfeit.status_code == 200, forfeit.get_json()
    other = club_game(client, club_id)
    corrected(client, other)
    season = new_season(client, club_id, "s-1")
    games = [*tables, other]
    assert rows_of(app, "game_id", games)["hand_corrections"] == 2
    for table in ("games", "clubs", "nights", "seasons"):
        sql(app, f"update [{table}] set updated_at = ?", [OLD])  # noqa: S608
    sql(app, "update night_keys set created_at = ?", [OLD])
    sql(app, "update season_keys set created_at = ?", [OLD])

    done = app.test_cli_runner().invoke(args=["prune", "--yes"])
    assert done.exit_code == 0, done.output
    assert "removed 3 abandoned game(s), 1 empty club(s)" in done.output
    assert rows_of(app, "game_id", games) == {}
    assert rows_of(app, "club_id", [club_id]) == {}
    assert rows_of(app, "night_id", [night]) == {}
    assert sql(app, "select count(*) from seasons where id = ?", [season]) == [(0,)]
    assert sql(app, "PRAGMA foreign_key_check") == []
    assert client.get(f"/api/clubs/{club_id}").status_code == 404
    assert client.get(f"/api/nights/{night}").status_code == 404


def test_a_club_with_a_recent_night_is_kept_with_its_nights(app: Flask) -> None:
    client = app.test_client()
    recent, quiet = new_club(client, "Recent"), new_club(client, "Quiet")
    old_night, _ = drawn_night(client, recent)
    new_season(client, recent, "s-recent")
    # The quiet club was not touched for ten days, but its night was yesterday (a round
    # undone, a player added: a night's changes need not touch its club).
    quiet_night, quiet_tables = drawn_night(client, quiet)
    sql(app, "update nights set updated_at = ? where id = ?", [OLD, old_night])
    sql(app, "update seasons set updated_at = ?", [OLD])
    sql(app, "update clubs set updated_at = ? where id = ?", [cutoff(10), quiet])
    sql(app, "update nights set updated_at = ? where id = ?", [cutoff(1), quiet_night])
    sql(app, "update games set updated_at = ? where id in (?, ?)", [OLD, *quiet_tables])

    done = app.test_cli_runner().invoke(args=["prune", "--yes"])
    assert done.exit_code == 0, done.output
    assert "0 empty club(s)" in done.output
    assert {row[0] for row in sql(app, "select id from clubs")} == {recent, quiet}
    assert {row[0] for row in sql(app, "select id from nights")} == {old_night, quiet_night}
    assert sql(app, "select count(*) from night_players") == [(16,)]
    assert sql(app, "select count(*) from seasons") == [(1,)]
    assert client.get(f"/api/nights/{old_night}").status_code == 200
    assert sql(app, "PRAGMA foreign_key_check") == []


def test_season_keys_are_pruned_with_the_others(app: Flask) -> None:
    client = app.test_client()
    club_id = new_club(client)
    for key in ("old", "new"):
        new_season(client, club_id, key)
    # (Keys are stored scoped to their client, as digests: "old" is the first row.)
    newest = sql(app, "select key from season_keys order by rowid")[-1]
    sql(
        app,
        "update season_keys set created_at = ? where rowid = (select min(rowid) from season_keys)",
        [cutoff(2)],
    )
    runner = app.test_cli_runner()
    dry = runner.invoke(args=["prune"])
    assert "1 expired key(s) would be removed" in dry.output, dry.output
    done = runner.invoke(args=["prune", "--yes"])
    assert done.exit_code == 0, done.output
    assert "and 1 expired key(s)" in done.output
    assert sql(app, "select key from season_keys") == [newest]
    assert sql(app, "select count(*) from seasons") == [(2,)]
