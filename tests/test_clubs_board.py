"""The club page after a change: only the games that changed are replayed, and the
standings it shows are those of a fresh replay of every game."""

from __future__ import annotations

import pytest
from apidata import hand, side

from scorer.core.errors import RuleError
from scorer.store import club_board
from scorer.store.club_board import BoardCache
from scorer.store.db import get_db

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


def test_one_new_hand_replays_only_its_game(app, client, replays):
    club_id = new_club(client)
    games = [new_game(client, club_id) for _ in range(3)]
    games.append(new_game(client, club_id, a=("Ann", "Cy"), b=("Bob", "Di")))
    for game_id in games:
        record(client, game_id, SMALL)
    assert client.get(f"/clubs/{club_id}").status_code == 200
    assert sorted(replays) == [1, 1, 1, 1]  # the first view replays every game once

    replays.clear()
    assert client.get(f"/clubs/{club_id}").status_code == 200
    assert replays == []  # nothing changed: nothing replayed

    record(client, games[1], WINNING)  # Ann & Bob win the second game
    page = client.get(f"/clubs/{club_id}")
    assert page.status_code == 200
    assert replays == [2]  # that game alone, with its two hands

    with app.app_context():
        cached = club_board.board_cache()
        # Another year's records: a new board, from the summaries already kept.
        board = club_board.club_board(get_db(), club_id, "2000", cache=cached)
        assert replays == [2]
        fresh = club_board.club_board(get_db(), club_id, "2000")  # no cache: every game
    assert sorted(replays[1:]) == [1, 1, 1, 2]
    assert board.stats == fresh.stats
    assert board.games == fresh.games
    ann = standing(board, "Ann")
    assert (ann.games, ann.finished, ann.wins, ann.hands) == (4, 1, 1, 5)
    assert ann.points == 4 * 390 + 1000
    assert ann.best_hand is not None
    assert (ann.best_hand.game_id, ann.best_hand.hand_number) == (games[1], 2)
    cy = standing(board, "Cy")
    assert (cy.wins, cy.losses, cy.points) == (0, 1, 3 * 220 + 50 + 390)
    assert [g.hands for g in board.games] == [1, 2, 1, 1]


def test_summaries_are_kept_by_version(app, client, replays):
    club_id = new_club(client)
    game_id = new_game(client, club_id)
    record(client, game_id, SMALL)
    cache = BoardCache()
    with app.app_context():
        first = club_board.club_board(get_db(), club_id, "2000", cache=cache)
        record(client, game_id, SMALL)
        second = club_board.club_board(get_db(), club_id, "2000", cache=cache)
    assert replays == [1, 2]
    assert first.tag != second.tag
    assert standing(first, "Ann").hands == 1
    assert standing(second, "Ann").hands == 2
    assert len(cache.games._items) == 2  # one summary per version seen, bounded by the LRU


def test_a_game_that_no_longer_replays_is_listed_apart(app, client, monkeypatch):
    club_id = new_club(client)
    good, bad = new_game(client, club_id), new_game(client, club_id)
    record(client, good, SMALL)
    record(client, bad, SMALL)
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
    assert client.get(f"/clubs/{club_id}").status_code == 200  # the page: nothing replayed
    assert replays == [1, 1, 1]
    record(client, games[2], WINNING)
    again = client.get(f"/api/clubs/{club_id}", headers={"If-None-Match": first.headers["ETag"]})
    assert again.status_code == 200  # a new hand: a new ETag
    assert replays == [1, 1, 1, 2]
    ann = next(p for p in again.json["players"] if p["name"] == "Ann")
    assert (ann["games"], ann["wins"], ann["hands"], ann["points"]) == (3, 1, 4, 3 * 390 + 1000)
    same = client.get(f"/api/clubs/{club_id}", headers={"If-None-Match": again.headers["ETag"]})
    assert same.status_code == 304
    assert replays == [1, 1, 1, 2]
