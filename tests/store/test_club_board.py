"""The club page after a change: only the games that changed are replayed, and the
standings it shows are those of a fresh replay of every game."""

from __future__ import annotations

import pytest
from apidata import hand, side

from scorer.core.errors import RuleError
from scorer.store import club_board
from scorer.store.club_board import BoardCache
from scorer.store.db import connect, get_db

# 200 melded + natural canasta 500 + two red threes 200 + out 100 = 1 000 against 50.
WINNING = hand(side(200, 1, 0, 2), side(100, left=50), went_out=0)
# 90 melded + one mixed canasta 300 = 390 against 120 melded + one red three 100 = 220.
SMALL = hand(side(90, 0, 1, 0), side(120, 0, 0, 1))


def new_club(client) -> str:
    body = {"name": "Sunday", "players": ["Ann", "Bob", "Cy", "Di"]}
    response = client.post("/api/clubs", json=body)
    assert response.status_code == 201, response.json
    return response.json["id"]


def new_game(client, club_id: str, a=("Ann", "Bob"), b=("Cy", "Di")) -> str:
    body = {"sides": [{"players": list(a)}, {"players": list(b)}], "target": 1000}
    response = client.post(f"/api/clubs/{club_id}/games", json=body)
    assert response.status_code == 201, response.json
    return response.headers["Location"].rstrip("/").rsplit("/", 1)[1]


def record(client, game_id: str, payload: dict) -> None:
    response = client.post(f"/api/games/{game_id}/hands", json=payload)
    assert response.status_code == 201, response.json


@pytest.fixture
def replays(monkeypatch) -> list[int]:
    """The number of hands of each game the club board replays, in order."""
    seen: list[int] = []
    real = club_board.play

    def counted(table, hands):
        seen.append(len(hands))
        return real(table, hands)

    monkeypatch.setattr(club_board, "play", counted)
    return seen


def standing(board, name: str):
    return next(s for s in board.stats.players if s.name == name)


def forget_digests(app) -> None:
    """The club rows as written before digests were kept (a database from before m008)."""
    db = connect(app.config["DATABASE"])
    try:
        with db.conn:
            db.execute("update club_games set summary = null, summary_version = null")
    finally:
        db.close()


def fresh_board(app, club_id: str, year: str = "2000"):
    """The board from a replay of every game, as if nothing had been stored."""
    forget_digests(app)
    with app.app_context():
        return club_board.club_board(get_db(), club_id, year)


def tag(client, game_id: str) -> dict[str, str]:
    return {"If-Match": client.get(f"/api/games/{game_id}").headers["ETag"]}


def test_the_club_page_replays_nothing_after_any_change(app, client, replays):
    """Every change to a club game writes its digest: a view reads them, never hands."""
    club_id = new_club(client)
    games = [new_game(client, club_id) for _ in range(3)]
    games.append(new_game(client, club_id, a=("Ann", "Cy"), b=("Bob", "Di")))
    for game_id in games:
        record(client, game_id, SMALL)
    assert client.get(f"/clubs/{club_id}").status_code == 200
    assert replays == []
    record(client, games[1], WINNING)  # Ann & Bob win the second game
    corrected = client.put(
        f"/api/games/{games[0]}/hands/1", json=WINNING, headers=tag(client, games[0])
    )
    assert corrected.status_code == 200
    record(client, games[2], SMALL)
    removed = client.delete(f"/api/games/{games[2]}/hands/2", headers=tag(client, games[2]))
    assert removed.status_code == 200
    renamed = client.patch(f"/api/clubs/{club_id}/players/Di", json={"name": "Dina"})
    assert renamed.status_code == 200, renamed.json
    plain = client.post(
        "/api/games", json={"sides": [{"players": ["ann", "Bob"]}, {"players": ["Cy", "Zoe"]}]}
    ).json["id"]
    record(client, plain, SMALL)
    filed = client.post(
        f"/api/clubs/{club_id}/games/file", json={"game": plain, "players": {"Zoe": "Zoe"}}
    )
    assert filed.status_code == 200, filed.json
    page = client.get(f"/clubs/{club_id}")
    assert page.status_code == 200 and "Dina" in page.get_data(as_text=True)
    assert replays == []
    with app.app_context():
        board = club_board.club_board(get_db(), club_id, "2000", cache=club_board.board_cache())
    fresh = fresh_board(app, club_id)
    assert sorted(replays) == [1, 1, 1, 1, 2]  # the fresh board replayed every game
    assert board.stats == fresh.stats
    assert board.games == fresh.games
    ann = standing(board, "Ann")
    assert (ann.games, ann.finished, ann.wins, ann.hands) == (5, 2, 2, 6)
    assert standing(board, "Dina").games == 4
    assert [g.hands for g in board.games] == [1, 2, 1, 1, 1]


def test_an_imported_club_is_shown_without_a_replay(app, client, replays):
    club_id = new_club(client)
    for game_id in (new_game(client, club_id), new_game(client, club_id)):
        record(client, game_id, SMALL)
    exported = client.get(f"/api/clubs/{club_id}/export").json
    imported = client.post("/api/clubs/import", json=exported)
    assert imported.status_code == 201, imported.json
    replays.clear()
    copy = imported.json["id"]
    assert client.get(f"/clubs/{copy}").status_code == 200
    assert replays == []
    with app.app_context():
        board = club_board.club_board(get_db(), copy, "2000")
    assert board.stats == fresh_board(app, copy).stats


def test_rows_without_a_digest_are_replayed_once_and_stored_back(app, client, replays):
    club_id = new_club(client)
    for game_id in (new_game(client, club_id), new_game(client, club_id)):
        record(client, game_id, SMALL)
    forget_digests(app)
    with app.app_context():
        first = club_board.club_board(get_db(), club_id, "2000", cache=BoardCache())
    assert replays == [1, 1]
    with app.app_context():  # another worker, with nothing in memory
        again = club_board.club_board(get_db(), club_id, "2000", cache=BoardCache())
    assert replays == [1, 1]
    assert again.stats == first.stats


def test_summaries_are_kept_by_version(app, client, replays):
    club_id = new_club(client)
    game_id = new_game(client, club_id)
    record(client, game_id, SMALL)
    cache = BoardCache()
    with app.app_context():
        first = club_board.club_board(get_db(), club_id, "2000", cache=cache)
        record(client, game_id, SMALL)
        second = club_board.club_board(get_db(), club_id, "2000", cache=cache)
    assert replays == []
    assert first.tag != second.tag
    assert standing(first, "Ann").hands == 1
    assert standing(second, "Ann").hands == 2
    assert len(cache.games._items) == 2  # one summary per version seen, bounded by the LRU


def test_a_game_that_no_longer_replays_is_listed_apart(app, client, monkeypatch):
    club_id = new_club(client)
    good, bad = new_game(client, club_id), new_game(client, club_id)
    record(client, good, SMALL)
    record(client, bad, SMALL)
    forget_digests(app)
    real = club_board.play

    def strict(table, hands):
        if len(hands) == 1 and table.sides[0].players == ("Ann", "Bob") and strict.refuse:
            strict.refuse = False
            raise RuleError("hands", "no longer fits the rules")
        return real(table, hands)

    strict.refuse = True
    monkeypatch.setattr(club_board, "play", strict)
    with app.app_context():
        board = club_board.club_board(get_db(), club_id, "2000", cache=BoardCache())
    assert len(board.unreadable) == 1
    assert len(board.games) == 1
    assert standing(board, "Ann").games == 1


def test_the_api_shares_the_summaries(client, replays):
    club_id = new_club(client)
    games = [new_game(client, club_id) for _ in range(3)]
    for game_id in games:
        record(client, game_id, SMALL)
    first = client.get(f"/api/clubs/{club_id}")
    assert first.status_code == 200
    assert client.get(f"/clubs/{club_id}").status_code == 200
    record(client, games[2], WINNING)
    again = client.get(f"/api/clubs/{club_id}", headers={"If-None-Match": first.headers["ETag"]})
    assert again.status_code == 200  # a new hand: a new ETag
    ann = next(p for p in again.json["players"] if p["name"] == "Ann")
    assert (ann["games"], ann["wins"], ann["hands"], ann["points"]) == (3, 1, 4, 3 * 390 + 1000)
    same = client.get(f"/api/clubs/{club_id}", headers={"If-None-Match": again.headers["ETag"]})
    assert same.status_code == 304
    assert replays == []
