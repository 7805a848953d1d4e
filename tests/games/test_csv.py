"""The CSV of a game's and a club's hands, parsed back with the csv module."""

from __future__ import annotations

import csv
import io

from apidata import hand, side

from scorer.core import limits
from scorer.games.csv_export import COLUMNS

# 200 melded + natural canasta 500 + two red threes 200 + out 100 = 1 000; 100 - 50 = 50.
# 90 melded + one mixed canasta 300 against 120 melded + one red three 100: no one wins.
SMALL = hand(side(90, 0, 1, 0), side(120, 0, 0, 1))
FIRST = hand(side(200, 1, 0, 2), side(100, left=50), went_out=0)
# 50 + 1 red three 100 - 30 = 120; 150 + mixed canasta 300 + out concealed 200 = 650.
CONCEALED = hand(side(50, reds=1, left=30), side(150, 0, 1), went_out=1, concealed=True)


def rows_of(response):
    assert response.status_code == 200
    assert response.headers["Content-Type"] == "text/csv; charset=utf-8"
    assert response.headers["Content-Disposition"].startswith("attachment;")
    reader = csv.DictReader(io.StringIO(response.data.decode("utf-8")))
    assert tuple(reader.fieldnames) == COLUMNS
    return list(reader)


def test_game_csv(client):
    game = client.post(
        "/api/games",
        json={"sides": [{"players": ["Ann", "Bob"]}, {"players": ["Cy", "Di"]}], "target": 5000},
    ).json
    client.post(f"/api/games/{game['id']}/hands", json=CONCEALED)
    client.post(f"/api/games/{game['id']}/hands", json=FIRST)
    rows = rows_of(client.get(f"/games/{game['id']}/hands.csv"))
    assert len(rows) == 4  # one per side per hand
    assert [(r["hand"], r["side"]) for r in rows] == [
        ("1", "1"),
        ("1", "2"),
        ("2", "1"),
        ("2", "2"),
    ]
    a1, b1, a2, b2 = rows
    assert a1["players"] == "Ann & Bob" and a1["game id"] == game["id"]
    assert (a1["meld points"], a1["red threes"], a1["points in hand"]) == ("50", "1", "30")
    assert (a1["red three score"], a1["cards in hand score"], a1["hand score"]) == (
        "100",
        "-30",
        "120",
    )
    assert (b1["mixed canastas"], b1["canasta bonus"], b1["went out"], b1["concealed"]) == (
        "1",
        "300",
        "1",
        "1",
    )
    assert (b1["going out bonus"], b1["hand score"], b1["running total"]) == ("200", "650", "650")
    assert (a2["natural canastas"], a2["canasta bonus"], a2["going out bonus"]) == (
        "1",
        "500",
        "100",
    )
    assert (a2["hand score"], a2["running total"]) == ("1000", "1120")
    assert (b2["hand score"], b2["running total"], b2["concealed"]) == ("50", "700", "0")
    # Against the engine's own numbers, as the games API shows them.
    api = client.get(f"/api/games/{game['id']}").json
    for row in rows:
        number, index = int(row["hand"]) - 1, int(row["side"]) - 1
        shown = api["hands"][number]["sides"][index]
        assert int(row["hand score"]) == shown["score"]["total"]
        assert int(row["running total"]) == shown["running_total"]
        assert int(row["melded cards score"]) == shown["score"]["cards"]


def test_club_csv_and_formula_names(client):
    club = client.post(
        "/api/clubs", json={"name": "Sunday", "players": ["=SUM(A1)", "Bob", "Cy", "Di"]}
    ).json
    games = []
    for _ in range(2):
        body = {"sides": [{"players": ["=SUM(A1)", "Bob"]}, {"players": ["Cy", "Di"]}]}
        games.append(client.post(f"/api/clubs/{club['id']}/games", json=body).json)
    client.post(f"/api/games/{games[0]['id']}/hands", json=FIRST)
    client.post(f"/api/games/{games[1]['id']}/hands", json=CONCEALED)
    rows = rows_of(client.get(f"/clubs/{club['id']}/hands.csv"))
    assert [r["game id"] for r in rows] == [games[0]["id"]] * 2 + [games[1]["id"]] * 2
    assert rows[0]["players"] == "'=SUM(A1) & Bob"  # shown as text, never run as a formula
    assert [int(r["hand score"]) for r in rows] == [1000, 50, 120, 650]


def test_csv_not_found(client):
    assert client.get("/games/nope/hands.csv").status_code == 404
    assert client.get("/clubs/nope/hands.csv").status_code == 404


def test_empty_game_has_a_header_row(client):
    game = client.post(
        "/api/games", json={"sides": [{"players": ["Ann", "Bob"]}, {"players": ["Cy", "Di"]}]}
    ).json
    assert rows_of(client.get(f"/games/{game['id']}/hands.csv")) == []


def test_a_big_clubs_hands_come_in_parts_of_whole_games(client, monkeypatch):
    """A club's CSV is cut into parts of at most HANDS_PER_CSV_PART hands (whole games):
    no download costs what the whole club stored."""
    monkeypatch.setattr(limits, "HANDS_PER_CSV_PART", 2)
    club = client.post("/api/clubs", json={"name": "Sunday", "players": ["Ann", "Bob"]}).json
    games = []
    for count in (1, 1, 2, 1):
        body = {"sides": [{"players": ["Ann", "Bob"]}, {"players": ["Cy", "Di"]}]}
        game = client.post(f"/api/clubs/{club['id']}/games", json=body).json["id"]
        for _ in range(count):
            assert client.post(f"/api/games/{game}/hands", json=SMALL).status_code == 201
        games.append(game)
    address = f"/clubs/{club['id']}/hands.csv"
    first = client.get(address)
    assert first.headers["Link"] == f'<{address}?part=2>; rel="next"'
    assert "hands-1-of-3.csv" in first.headers["Content-Disposition"]
    assert [r["game id"] for r in rows_of(first)] == [games[0]] * 2 + [games[1]] * 2
    second = client.get(f"{address}?part=2")
    assert [r["game id"] for r in rows_of(second)] == [games[2]] * 4
    last = client.get(f"{address}?part=3")
    assert [r["game id"] for r in rows_of(last)] == [games[3]] * 2
    assert "Link" not in last.headers
    for bad in ("4", "0", "x", "1.5"):
        refused = client.get(f"{address}?part={bad}")
        assert refused.status_code == 400 and "part" in refused.get_data(as_text=True)
    page = client.get(f"/clubs/{club['id']}").get_data(as_text=True)
    for part in (1, 2, 3):
        assert f'href="{address}?part={part}"' in page
