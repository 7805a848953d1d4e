"""Database growth per client per day at full budgets (issue 35), a row of section 11.

Each budget of scorer.web.ratelimit bounds what one client may store in a day; this
measures the bytes one unit of each budget stores at its dearest (longest names, an
Idempotency-Key on every write, every side's hand filled meld by meld with a correction and
its note, a night of 60 new players, a club's import of long games) on a real SQLite file,
and multiplies by the day's limit and by gunicorn's workers (each counts in its own memory,
so a client gets workers × each limit). Pruned keys and sheet caches (files of bounded
size, not the database) are left out: what is counted is what stays.
"""

from __future__ import annotations

import itertools
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

import sqlite_utils
from flask.testing import FlaskClient
from limits import parse_many

from bench import fixtures
from bench.measure import Row, Section
from scorer import create_app
from scorer.core.limits import ADJUSTMENT_NOTE_MAX, NAME_MAX, NIGHT_PLAYERS_MAX
from scorer.serve import SETTINGS
from scorer.web.ratelimit import LIMITS

GOAL_GIB = 0.5
REPEAT = 20  # units of each action measured (their mean)
DAY = 24 * 3600
_keys = itertools.count()


def name(tag: str, number: int) -> str:
    return f"{tag}{number:05d}".ljust(NAME_MAX, "x")[:NAME_MAX]


def keyed() -> dict[str, str]:
    return {"Idempotency-Key": f"growth-key-{next(_keys):012d}-" + "k" * 160}


def day_limit(budget: str) -> int:
    """The most a client spends of `budget` in a day (its tightest window, scaled to a day)."""
    return min(item.amount * DAY // item.get_expiry() for item in parse_many(LIMITS[budget]))


def stored_bytes(database: Path) -> int:
    db = sqlite_utils.Database(database)
    try:
        db.execute("pragma wal_checkpoint(truncate)")
        pages = db.execute("pragma page_count").fetchone()[0]
        free = db.execute("pragma freelist_count").fetchone()[0]
        size = db.execute("pragma page_size").fetchone()[0]
    finally:
        db.close()
    return (pages - free) * size


def full_side(ranks: tuple[str, str, str]) -> dict[str, Any]:
    """A side's hand as long as it gets: three melds rank by rank, a correction and its note."""
    return {
        "melds": [
            {"rank": ranks[0], "naturals": 5, "jokers": 1, "twos": 1},
            {"rank": ranks[1], "naturals": 4, "jokers": 0, "twos": 1},
            {"rank": ranks[2], "naturals": 3, "jokers": 0, "twos": 0},
        ],
        "red_threes": 1,
        "hand_points": 35,
        "adjustment": -100,
        "adjustment_note": "n" * ADJUSTMENT_NOTE_MAX,
    }


FULL_HAND = {"sides": [full_side(("K", "Q", "7")), full_side(("J", "10", "9"))], "went_out": None}


def sides(number: int) -> list[dict[str, Any]]:
    return [
        {"name": name("side", 2 * number), "players": [name("a", number), name("b", number)]},
        {"name": name("side", 2 * number + 1), "players": [name("c", number), name("d", number)]},
    ]


class Growth:
    """A scorer on a temporary database, and the bytes each action stores there."""

    def __init__(self, folder: Path) -> None:
        self.database = folder / "growth.sqlite3"
        app = create_app(
            {
                "TESTING": True,
                "DATABASE": str(self.database),
                "INSTANCE_PATH": str(folder),
                "SECRET_KEY": "bench",
                "RATELIMIT_ENABLED": False,
            }
        )
        self.client: FlaskClient = app.test_client()
        self.club = self.post("/api/clubs", {"name": "Growth", "players": ["Ann"]})["id"]

    def post(self, path: str, body: Any, status: int = 201) -> Any:
        answer = self.client.post(path, json=body, headers=keyed())
        assert answer.status_code == status, (path, answer.get_json())
        return answer.get_json()

    def per_unit(self, action: Callable[[int], int]) -> float:
        """Bytes stored per budget unit: `action(n)` does one and says the units it spent."""
        before = stored_bytes(self.database)
        units = sum(action(number) for number in range(REPEAT))
        return max(0, stored_bytes(self.database) - before) / units

    def game(self, number: int) -> int:
        self.post("/api/games", {"name": name("game", number), "sides": sides(number)})
        return 1

    def hand(self, number: int) -> int:
        if number == 0:
            self.hands_game = self.post("/api/games", {"sides": sides(0), "target": 20000})["id"]
        self.post(f"/api/games/{self.hands_game}/hands", FULL_HAND)
        return 1

    def club_made(self, number: int) -> int:
        players = [name(f"p{number}-", k) for k in range(8)]
        self.post("/api/clubs", {"name": name("club", number), "players": players})
        return 1

    def player(self, number: int) -> int:
        self.post(f"/api/clubs/{self.club}/players", {"name": name("roster", number)})
        return 1

    def night(self, number: int) -> int:
        players = [name(f"n{number}-", k) for k in range(NIGHT_PLAYERS_MAX)]
        club = self.post("/api/clubs", {"name": name("nights", number), "players": players[:1]})
        self.post(
            f"/api/clubs/{club['id']}/nights",
            {"players": players, "rounds": 20, "round": {"fixed_hands": 1}},
        )
        return 2  # the club (create_club) and the night (club_roster): counted as the night

    def draw(self, number: int) -> int:
        players = [name(f"d{number}-", k) for k in range(NIGHT_PLAYERS_MAX)]
        club = self.post("/api/clubs", {"name": name("draws", number), "players": players[:1]})
        body = {"players": players, "rounds": 20, "round": {"fixed_hands": 1}}
        night = self.client.post(f"/api/clubs/{club['id']}/nights", json=body)
        tag = night.headers["ETag"]
        before = stored_bytes(self.database)
        drawn = self.client.post(
            f"/api/nights/{night.get_json()['id']}/rounds", headers={"If-Match": tag}
        )
        assert drawn.status_code == 201
        self.draw_bytes += stored_bytes(self.database) - before
        return len(drawn.get_json()["rounds"][0]["tables"])

    def import_kib(self, number: int) -> int:
        if number == 0:
            self.export = self.long_club_export()
        body = self.client.get(f"/api/clubs/{self.export}/export").get_data()
        answer = self.client.post(
            "/api/clubs/import", data=body, content_type="application/json", headers=keyed()
        )
        assert answer.status_code == 201, answer.get_json()
        return max(1, -(-len(body) // 1024))

    def long_club_export(self) -> str:
        club = self.post("/api/clubs", {"name": "Exported", "players": ["Ann"]})["id"]
        for number in range(4):
            game = self.post(f"/api/clubs/{club}/games", {"sides": sides(number)})["id"]
            for hand in range(30):
                self.post(f"/api/games/{game}/hands", fixtures.hand_body(hand))
        return club


def measure() -> dict[str, float]:
    """Bytes stored per unit of each budget that stores, at its dearest."""
    with tempfile.TemporaryDirectory(prefix="scorer-growth-") as folder:
        growth = Growth(Path(folder))
        growth.draw_bytes = 0
        per = {
            "create_game": growth.per_unit(growth.game),
            "record_hand": growth.per_unit(growth.hand),
            "create_club": growth.per_unit(growth.club_made),
            "club_roster": max(growth.per_unit(growth.player), growth.per_unit(growth.night)),
            "import_kib": growth.per_unit(growth.import_kib),
        }
        before = growth.draw_bytes
        tables = sum(growth.draw(number) for number in range(REPEAT // 4))
        per["create_game"] = max(per["create_game"], (growth.draw_bytes - before) / tables)
    return per


def rows(section: Section) -> None:
    per = measure()
    workers = int(SETTINGS["workers"])
    daily = {budget: day_limit(budget) * size * workers for budget, size in per.items()}
    total = sum(daily.values())
    gib = total / 1024**3
    section.rows.append(
        Row(
            f"database growth, one client at every budget's daily limit ({workers} workers)",
            f"{gib:.2f} GiB a day",
            "",
            f"< {GOAL_GIB} GiB a day",
            gib < GOAL_GIB,
        )
    )
    parts = ", ".join(
        f"{budget} {per[budget]:.0f} B a unit × {day_limit(budget)} = "
        f"{daily[budget] / workers / 1024**2:.1f} MiB"
        for budget in per
    )
    section.notes.append(
        f"Growth at full budgets, per worker's count and day: {parts}; × {workers} workers "
        f"(each counts a client in its own memory) = {total / 1024**2:.0f} MiB a day. Units "
        "at their dearest: 40-character names, an Idempotency-Key on every write, hands "
        "filled meld by meld with a correction and its note, a night of 60 new players, a "
        "draw's games per table, a club import of 30-hand games (per KiB of its body)."
    )


if __name__ == "__main__":
    section = Section(11, "growth")
    rows(section)
    for row in section.rows:
        print(row)
    print(*section.notes)
