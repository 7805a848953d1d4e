"""Every club's export imports back (issue 35: a 2 000-game club exported 19.7 MiB against a
16 MiB cap, and the limits allow 2 000 games of 1 000 hands, 427 MiB at the smallest hand).

A club's export comes in parts of at most CLUB_PART_BYTES of games, each within the import
cap: a full club of night games is one part, a larger club several, the first making the
club again and each next one joining it."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from bench import fixtures
from bench.largest import PLAYERS, largest_game
from scorer import create_app, store
from scorer.clubs import api as club_api
from scorer.core.limits import (
    CLUB_GAME_EXPORT_BYTES,
    CLUB_HEAD_BYTES,
    CLUB_IMPORT_MAX_BYTES,
    CLUB_PART_BYTES,
    CORRECTIONS_PER_GAME,
    GAME_IMPORT_MAX_BYTES,
    GAMES_PER_CLUB,
    LARGEST_BODY,
    MAX_HANDS_PER_GAME,
    NAME_MAX,
    PLAYERS_PER_CLUB,
)
from scorer.web import ratelimit
from scorer.web.api_contract import parse_export

HANDS = 30  # a night's long game, as the bench's club at its limit has
ROSTER = ["Ann", "Bob", "Cleo", "Dan"]


def export_size(client: FlaskClient, club: str) -> int:
    answer = client.get(f"/api/clubs/{club}/export")
    assert answer.status_code == 200
    return len(answer.get_data())


def test_the_caps_follow_from_the_limits() -> None:
    assert GAME_IMPORT_MAX_BYTES <= CLUB_PART_BYTES  # the largest game fits a part alone
    assert CLUB_PART_BYTES >= GAMES_PER_CLUB * CLUB_GAME_EXPORT_BYTES
    assert CLUB_IMPORT_MAX_BYTES == CLUB_HEAD_BYTES + CLUB_PART_BYTES
    # And a client may send the largest import within an hour's budget.
    hourly_kib = int(ratelimit.LIMITS["import_kib"].split(";")[0].removesuffix("/hour"))
    assert hourly_kib * 1024 >= LARGEST_BODY


def test_a_full_club_of_long_games_is_one_part(app: Flask, client: FlaskClient) -> None:
    club = client.post("/api/clubs", json={"name": "Sun", "players": ROSTER}).get_json()["id"]
    empty = export_size(client, club)
    sides = [{"players": ["Ann", "Bob"]}, {"players": ["Cleo", "Dan"]}]
    for _ in range(2):
        game = client.post(f"/api/clubs/{club}/games", json={"sides": sides, "target": 20000})
        game_id = game.get_json()["id"]
        for number in range(HANDS):
            hand = client.post(f"/api/games/{game_id}/hands", json=fixtures.hand_body(number))
            assert hand.status_code == 201, hand.get_json()
    per_game = (export_size(client, club) - empty) / 2
    assert GAMES_PER_CLUB * per_game <= CLUB_PART_BYTES
    # And with room: a club's games may be a little longer on average.
    assert per_game <= 0.8 * CLUB_GAME_EXPORT_BYTES, per_game


def test_the_longest_head_a_club_has_fits_its_room(client: FlaskClient) -> None:
    """Sixty players named in 40 emoji each, the longest name: even written \\uXXXX (12
    bytes an emoji, as a client's re-encoding may send it)."""
    players = [chr(0x1F600 + i) * NAME_MAX for i in range(PLAYERS_PER_CLUB)]
    made = client.post("/api/clubs", json={"name": "\U0001f3b4" * NAME_MAX, "players": players})
    assert made.status_code == 201, made.get_json()
    exported = client.get(f"/api/clubs/{made.get_json()['id']}/export").get_json()
    assert len(json.dumps(exported)) <= CLUB_HEAD_BYTES


def parts(client: FlaskClient, club: str) -> list[bytes]:
    """Every part of the club's export, each fetched from the one before (its "next")."""
    found = []
    address: str | None = f"/api/clubs/{club}/export"
    while address is not None:
        answer = client.get(address)
        assert answer.status_code == 200, answer.get_data()[:300]
        found.append(answer.get_data())
        address = json.loads(found[-1]).get("next")
    return found


def games_of(documents: list[bytes]) -> list[dict[str, Any]]:
    """The games of an export's parts, as a club anywhere would hold them (no address)."""
    games = [game for document in documents for game in json.loads(document)["games"]]
    return [{k: v for k, v in game.items() if k != "id"} for game in games]


@pytest.mark.slow
def test_the_largest_club_the_limits_allow_imports_back(tmp_path: Path) -> None:
    """Games at every limit (1 000 of the largest hands and a full record each) outweigh one
    part: the export comes in parts, each within the import cap, and they import back.

    One client's import budget (RATELIMIT_IMPORT_KIB) takes a part an hour: the first part's
    19 MB leave too little of the hour for the next, a 429 that stores nothing. The budget
    is opened here, so the parts go in one after the other."""
    app = create_app(
        {
            "TESTING": True,
            "DATABASE": str(tmp_path / "scorer.sqlite3"),
            "SECRET_KEY": "test-secret",
            "RATELIMIT_IMPORT_KIB": "1000000/hour",
        }
    )
    client = app.test_client()
    game = largest_game(MAX_HANDS_PER_GAME, CORRECTIONS_PER_GAME)
    club = {
        "format": "scorer-club",
        "format_version": 1,
        "name": "Long table",
        "players": PLAYERS,
        "games": [game] * 4,  # 6.5 MB each: three fill a part, the fourth starts the next
    }
    with app.app_context():
        club_id = store.import_club(store.get_db(), club, parse_export)
    documents = parts(client, club_id)
    sizes = [len(document) for document in documents]
    assert len(documents) == 2 and sum(sizes) > CLUB_IMPORT_MAX_BYTES, sizes
    assert all(size <= CLUB_IMPORT_MAX_BYTES for size in sizes), sizes

    first, *rest = documents
    made = client.post("/api/clubs/import", data=first, content_type="application/json")
    assert made.status_code == 201, made.get_data()[:300]
    copy, tag = made.get_json()["id"], made.headers["ETag"]
    for document in rest:
        joined = client.post(
            f"/api/clubs/{copy}/import",
            data=document,
            content_type="application/json",
            headers={"If-Match": tag},
        )
        assert joined.status_code == 200, joined.get_data()[:300]
        # The same part again with the tag it was sent with: refused, never stored twice.
        again = client.post(
            f"/api/clubs/{copy}/import",
            data=document,
            content_type="application/json",
            headers={"If-Match": tag},
        )
        assert again.status_code == 412
        tag = joined.headers["ETag"]
    assert games_of(parts(client, copy)) == games_of(documents)


def test_a_part_joins_a_club_in_its_spelling_and_a_gone_start_is_404(client: FlaskClient) -> None:
    source = client.post("/api/clubs", json={"name": "Sun", "players": ROSTER}).get_json()["id"]
    sides = [{"players": ["Ann", "Bob"]}, {"players": ["Cleo", "Dan"]}]
    game = client.post(f"/api/clubs/{source}/games", json={"sides": sides, "target": 5000})
    assert game.status_code == 201
    exported = client.get(f"/api/clubs/{source}/export").get_data()
    assert "next" not in json.loads(exported)  # one part: nothing follows

    other = client.post("/api/clubs", json={"name": "Moon", "players": ["ann", "Zoe"]})
    target = other.get_json()["id"]
    joined = client.post(
        f"/api/clubs/{target}/import", data=exported, content_type="application/json"
    )
    assert joined.status_code == 200, joined.get_json()
    club = joined.get_json()
    assert club["name"] == "Moon"  # the club keeps its own name
    assert [p["name"] for p in club["players"]] == ["ann", "Zoe", "Bob", "Cleo", "Dan"]
    (copy,) = club["games"]
    players = [side["players"] for side in client.get(f"/api/games/{copy}").get_json()["sides"]]
    assert players == [["ann", "Bob"], ["Cleo", "Dan"]]

    gone = client.get(f"/api/clubs/{source}/export?from=nosuchgame")
    assert gone.status_code == 404 and gone.get_json()["field"] == "from"


def test_a_host_imports_every_part_at_once_from_the_command_line(
    app: Flask, client: FlaskClient, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """A client's import budget takes about one full part an hour; the host's
    `flask import-club PART...` takes them all at once, with the API's checks, each part
    all or nothing, and `--into` goes on after a part it refused."""
    monkeypatch.setattr(club_api, "CLUB_PART_BYTES", 1)  # a game a part: three parts
    club = client.post("/api/clubs", json={"name": "Sun", "players": ROSTER}).get_json()["id"]
    sides = [{"players": ["Ann", "Bob"]}, {"players": ["Cleo", "Dan"]}]
    for _ in range(3):
        game_id = client.post(f"/api/clubs/{club}/games", json={"sides": sides}).get_json()["id"]
        for number in range(4):
            client.post(f"/api/games/{game_id}/hands", json=fixtures.hand_body(number))
    documents = parts(client, club)
    assert len(documents) == 3
    files = [tmp_path / f"part-{number}.json" for number in range(3)]
    for file, document in zip(files, documents, strict=True):
        file.write_bytes(document)
    runner = app.test_cli_runner()

    done = runner.invoke(args=["import-club", *map(str, files)])
    assert done.exit_code == 0, done.output
    copy = done.output.split()[-1].removeprefix("/clubs/")
    assert games_of(parts(client, copy)) == games_of(documents)

    broken = json.loads(documents[1])
    broken["games"][0]["hands"][0]["sides"][0]["red_threes"] = 9
    files[1].write_text(json.dumps(broken))
    refused = runner.invoke(args=["import-club", *map(str, files)])
    assert refused.exit_code == 1
    assert "part 2" in refused.output and "red_threes" in refused.output, refused.output
    started = refused.output.split()[-1]  # "part 1 is in club <id>"
    assert len(games_of(parts(client, started))) == 1  # nothing of the refused part
    files[1].write_bytes(documents[1])
    went_on = runner.invoke(args=["import-club", "--into", started, *map(str, files[1:])])
    assert went_on.exit_code == 0, went_on.output
    assert games_of(parts(client, started)) == games_of(documents)


def test_a_part_that_is_not_json_is_named(app: Flask, tmp_path: Path) -> None:
    part = tmp_path / "part.json"
    part.write_text("{not json")
    refused = app.test_cli_runner().invoke(args=["import-club", str(part)])
    assert refused.exit_code == 1
    assert "part.json (part 1) refused: Expecting property name" in refused.output
