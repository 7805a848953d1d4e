"""Nothing lost, nothing double-counted: Idempotency-Key, ETag/If-Match, export/import, backup."""

from __future__ import annotations

import json
import threading
from pathlib import Path

import pytest
from apidata import delete_hand, dump, hand, put_hand, side
from flask.testing import FlaskClient
from stored import assert_whole

from scorer import store
from scorer.core.hands import Hand, SideHand
from scorer.core.limits import GAME_IMPORT_MAX_BYTES
from scorer.store import db as dbmod

FOUR = [{"players": ["Ann", "Bob"]}, {"players": ["Cy", "Di"]}]


# A wins a game to 1 000 at once: 300 + 500 + 200 + 100 = 1 100.
WINNING = hand(side(300, natural=1, reds=2), side(50, left=20), went_out=0)


def new_game(client: FlaskClient, **fields) -> dict:
    response = client.post("/api/games", json={"sides": FOUR, **fields})
    assert response.status_code == 201
    return response.json


def hands_url(game: dict) -> str:
    return f"/api/games/{game['id']}/hands"


# --- Idempotency-Key -------------------------------------------------------------------


def test_same_key_same_body_records_the_hand_once(app, client):
    game = new_game(client)
    headers = {"Idempotency-Key": "save-7f3a"}
    first = client.post(hands_url(game), json=hand(side(50), side(60)), headers=headers)
    assert first.status_code == 201
    snapshot = dump(app)
    second = client.post(hands_url(game), json=hand(side(50), side(60)), headers=headers)
    assert second.status_code == 201
    assert second.json == first.json
    assert second.headers["ETag"] == first.headers["ETag"]
    assert dump(app) == snapshot
    assert len(client.get(f"/api/games/{game['id']}").json["hands"]) == 1


def test_same_key_other_body_is_422_and_stores_nothing(app, client):
    game = new_game(client)
    headers = {"Idempotency-Key": "save-1"}
    client.post(hands_url(game), json=hand(side(50), side(60)), headers=headers)
    snapshot = dump(app)
    response = client.post(hands_url(game), json=hand(side(55), side(60)), headers=headers)
    assert response.status_code == 422
    assert response.json["field"] == "Idempotency-Key"
    assert dump(app) == snapshot


def test_without_a_key_two_posts_are_two_hands(client):
    game = new_game(client)
    client.post(hands_url(game), json=hand(side(50), side(60)))
    after = client.post(hands_url(game), json=hand(side(50), side(60))).json
    assert [s["total"] for s in after["sides"]] == [100, 120]


def test_a_key_is_scoped_to_its_game(client):
    one, two = new_game(client), new_game(client)
    headers = {"Idempotency-Key": "same"}
    client.post(hands_url(one), json=hand(side(50), side(60)), headers=headers)
    response = client.post(hands_url(two), json=hand(side(50), side(60)), headers=headers)
    assert response.status_code == 201 and len(response.json["hands"]) == 1


@pytest.mark.parametrize("key", ["", "x" * 201, "has space", "naïve"])
def test_unusable_keys_are_400(app, client, key):
    game = new_game(client)
    snapshot = dump(app)
    headers = {"Idempotency-Key": key.encode("utf-8").decode("latin-1")}
    response = client.post(hands_url(game), json=hand(side(50), side(60)), headers=headers)
    assert response.status_code == 400
    assert response.json["field"] == "Idempotency-Key"
    assert dump(app) == snapshot


def test_retrying_the_winning_hand_gets_the_first_answer(app, client):
    game = new_game(client, target=1000)
    headers = {"Idempotency-Key": "the-last-one"}
    first = client.post(hands_url(game), json=WINNING, headers=headers)
    assert first.status_code == 201 and first.json["winner"] == 0
    snapshot = dump(app)
    again = client.post(hands_url(game), json=WINNING, headers=headers)
    assert again.status_code == 201
    assert again.json == first.json
    # Another key, or the same key with another hand: the game is over.
    other = client.post(hands_url(game), json=WINNING, headers={"Idempotency-Key": "new"})
    assert other.status_code == 409
    changed = hand(side(300, natural=1, reds=1), side(50), went_out=0)
    assert client.post(hands_url(game), json=changed, headers=headers).status_code == 409
    assert dump(app) == snapshot


# --- ETag and If-Match ---------------------------------------------------------------------


def test_every_game_response_carries_an_etag_that_changes_with_each_write(client):
    created = client.post("/api/games", json={"sides": FOUR})
    game = created.json
    tags = [created.headers["ETag"]]
    tags.append(client.get(f"/api/games/{game['id']}").headers["ETag"])
    assert tags[0] == tags[1]
    for response, status in (
        (client.post(hands_url(game), json=hand(side(50), side(60))), 201),
        (client.post(hands_url(game), json=hand(side(70), side(60))), 201),
        (put_hand(client, f"{hands_url(game)}/1", json=hand(side(55), side(60))), 200),
        (delete_hand(client, f"{hands_url(game)}/2"), 200),
    ):
        assert response.status_code == status
        tags.append(response.headers["ETag"])
    assert len(set(tags[1:])) == 5, tags
    assert client.get(f"/api/games/{game['id']}").headers["ETag"] == tags[-1]
    exported = client.get(f"/api/games/{game['id']}/export")
    assert exported.headers["ETag"] == tags[-1]
    imported = client.post("/api/games/import", json=exported.json)
    assert imported.headers["ETag"] and imported.headers["ETag"] not in tags


def test_if_match_current_is_accepted_stale_is_412(app, client):
    game = new_game(client)
    read = client.get(f"/api/games/{game['id']}")
    tag = read.headers["ETag"]
    # Phone A saves with the tag it read.
    saved = client.post(hands_url(game), json=hand(side(50), side(60)), headers={"If-Match": tag})
    assert saved.status_code == 201
    snapshot = dump(app)
    # Phone B read the same game before A saved: each of its writes is refused.
    stale = {"If-Match": tag}
    for response in (
        client.post(hands_url(game), json=hand(side(70), side(60)), headers=stale),
        client.put(f"{hands_url(game)}/1", json=hand(side(70), side(60)), headers=stale),
        client.delete(f"{hands_url(game)}/1", headers=stale),
    ):
        assert response.status_code == 412
        assert set(response.json) == {"error", "field"} and response.json["error"]
    assert dump(app) == snapshot
    # B reloads, sees A's hand, and saves on top of it.
    fresh = {"If-Match": saved.headers["ETag"]}
    response = client.put(f"{hands_url(game)}/1", json=hand(side(70), side(60)), headers=fresh)
    assert response.status_code == 200
    response = client.delete(f"{hands_url(game)}/1", headers={"If-Match": response.headers["ETag"]})
    assert response.status_code == 200 and response.json["hands"] == []


@pytest.mark.parametrize(
    "if_match", ['"made-up"', 'W/"{tag}"', '"{other}"', "garbage without quotes"]
)
def test_if_match_that_is_not_this_games_current_tag_is_412(app, client, if_match):
    game, other = new_game(client), new_game(client)
    tag = client.get(f"/api/games/{game['id']}").headers["ETag"].strip('"')
    other_tag = client.get(f"/api/games/{other['id']}").headers["ETag"].strip('"')
    snapshot = dump(app)
    header = if_match.format(tag=tag, other=other_tag)
    response = client.post(
        hands_url(game), json=hand(side(50), side(60)), headers={"If-Match": header}
    )
    assert response.status_code == 412
    assert dump(app) == snapshot


def test_if_match_star_and_a_list_containing_the_tag_are_accepted(client):
    game = new_game(client)
    response = client.post(
        hands_url(game), json=hand(side(50), side(60)), headers={"If-Match": "*"}
    )
    assert response.status_code == 201
    header = f'"old", {response.headers["ETag"]}'
    response = client.post(
        hands_url(game), json=hand(side(50), side(60)), headers={"If-Match": header}
    )
    assert response.status_code == 201


def test_a_retry_after_a_lost_answer_with_the_old_tag_is_not_412(client):
    game = new_game(client)
    tag = client.get(f"/api/games/{game['id']}").headers["ETag"]
    headers = {"If-Match": tag, "Idempotency-Key": "k1"}
    first = client.post(hands_url(game), json=hand(side(50), side(60)), headers=headers)
    # The phone never saw that answer and sends the very same request again.
    again = client.post(hands_url(game), json=hand(side(50), side(60)), headers=headers)
    assert (first.status_code, again.status_code) == (201, 201)
    assert len(again.json["hands"]) == 1


# --- export and import ----------------------------------------------------------------------


def played_game(client: FlaskClient) -> dict:
    game = new_game(
        client,
        name="Sunday «final»",
        target=7500,
        first_dealer="Di",
        rules={"going_out": 150, "mixed_canasta": 250},
        sides=[{"name": "Us", "players": ["Ann", "Bob"]}, {"players": ["Cy", "Di"]}],
    )
    url = hands_url(game)
    client.post(url, json=hand(side(130, natural=1, reds=2), side(50, left=85), went_out=0))
    client.post(
        url,
        json={
            "went_out": 1,
            "concealed": True,
            "sides": [
                {"meld_cards": {"ten": 4}, "hand_cards": {"jokers": 1, "five": 2}},
                {"meld_points": 90, "mixed_canastas": 1},
            ],
            # Ann & Bob's 40 are below their minimum of 50: the table confirms it (§2b).
            "confirm": ["opening_minimum"],
        },
    )
    client.post(url, json=hand(side(0, reds=1, left=30), side(60)))
    put_hand(client, f"{url}/3", json=hand(side(0, reds=1, left=35), side(60)))
    return client.get(f"/api/games/{game['id']}").json


def test_export_import_round_trip_is_identical(app, client):
    game = played_game(client)
    exported = client.get(f"/api/games/{game['id']}/export")
    assert exported.status_code == 200
    assert "attachment" in exported.headers["Content-Disposition"]
    data = exported.json
    assert len(data["hands"]) == 3
    imported = client.post(
        "/api/games/import", data=json.dumps(data, indent=2), content_type="application/json"
    )
    assert imported.status_code == 201
    copy = imported.json
    assert copy["id"] != game["id"]
    assert imported.headers["Location"] == f"/api/games/{copy['id']}"
    again = client.get(f"/api/games/{copy['id']}/export").json
    assert {**again, "id": None} == {**data, "id": None}
    # Every score, total, minimum and the dealer come back the same.
    # (A copy is a new game: its own address and its own watch address.)
    mine = {"id": None, "version": None, "watch_url": None}
    assert {**copy, **mine} == {**game, **mine}


def test_import_of_an_export_of_an_import_is_still_the_same(client):
    game = played_game(client)
    data = client.get(f"/api/games/{game['id']}/export").json
    copy = client.post("/api/games/import", json=data).json
    copy_data = client.get(f"/api/games/{copy['id']}/export").json
    second = client.post("/api/games/import", json=copy_data).json
    final = client.get(f"/api/games/{second['id']}/export").json
    assert {**final, "id": None} == {**data, "id": None}


def test_export_of_an_unknown_game_is_404(client):
    response = client.get("/api/games/nope/export")
    assert response.status_code == 404 and response.json["field"] is None


def test_import_refusals_store_nothing(app, client):
    game = played_game(client)
    data = client.get(f"/api/games/{game['id']}/export").json
    snapshot = dump(app)
    bad_hand = json.loads(json.dumps(data))
    bad_hand["hands"][1]["sides"][1]["meld_points"] = -90
    wrong_type = json.loads(json.dumps(data))
    wrong_type["hands"][0]["concealed"] = "no"
    low_meld = json.loads(json.dumps(data))
    low_meld["hands"][0]["sides"][0]["meld_points"] = 10
    cases = [
        ({**data, "format": "other"}, 400, "format"),
        ({**data, "format_version": 2}, 400, "format_version"),
        ({**data, "hands": "all of them"}, 400, "hands"),
        ({**data, "created_at": "yesterday"}, 400, "created_at"),
        ({**data, "surprise": 1}, 400, "surprise"),
        (wrong_type, 400, "hands[0].concealed"),
        (bad_hand, 422, "hands[1].sides[1].meld_points"),
        ({**data, "target": 1234}, 422, "target"),
        # A meld of 10 points: no three cards make it (a rule the export may predate).
        (low_meld, 422, "hands[0].sides[0].meld_points"),
    ]
    for body, status, field in cases:
        response = client.post("/api/games/import", json=body)
        assert (response.status_code, response.json["field"]) == (status, field), body
    response = client.post("/api/games/import", data="{", content_type="application/json")
    assert response.status_code == 400
    assert dump(app) == snapshot


def test_import_takes_a_whole_game_but_not_a_flood(app, client):
    game = played_game(client)
    data = client.get(f"/api/games/{game['id']}/export").json
    # Larger than any other request may be (64 KiB), as a long game with indentation is.
    padded = json.dumps(data) + " " * (200 * 1024)
    response = client.post("/api/games/import", data=padded, content_type="application/json")
    assert response.status_code == 201
    snapshot = dump(app)
    flood = json.dumps(data) + " " * (GAME_IMPORT_MAX_BYTES + 1024)
    response = client.post("/api/games/import", data=flood, content_type="application/json")
    assert response.status_code == 413 and response.json["error"]
    assert dump(app) == snapshot


# --- backup ------------------------------------------------------------------------------


def test_backup_command_writes_a_consistent_copy_while_hands_are_recorded(app, tmp_path):
    database = app.config["DATABASE"]
    setup = dbmod.connect(database)
    games = [
        store.create_game(
            setup,
            name=f"g{i}",
            profile_key=None,
            target=20000,
            sides=[store.Side("A", ("Ann", "Bob")), store.Side("B", ("Cy", "Di"))],
        )
        for i in range(3)
    ]
    setup.close()
    stop = threading.Event()
    recorded = []

    def keep_recording() -> None:
        writer = dbmod.connect(database)
        try:
            while not stop.is_set() and len(recorded) < 600:
                game_id = games[len(recorded) % len(games)]
                # 50 and 5 a hand, with melds above every opening minimum (150 at most).
                hand_ = Hand(
                    (
                        SideHand(meld_points=150, hand_points=100),
                        SideHand(meld_points=150, hand_points=145),
                    )
                )
                store.record_hand(writer, game_id, hand_)
                recorded.append(game_id)
        finally:
            writer.close()

    writer = threading.Thread(target=keep_recording)
    writer.start()
    runner = app.test_cli_runner()
    copies = []
    try:
        for n in range(3):
            target = tmp_path / f"backup-{n}.sqlite3"
            result = runner.invoke(args=["backup", str(target)])
            assert result.exit_code == 0, result.output
            copies.append(target)
    finally:
        stop.set()
        writer.join(timeout=60)
    assert not writer.is_alive()
    for copy in copies:
        check_copy(copy, games)
    assert not list(tmp_path.glob(".*.partial"))


def check_copy(path: Path, games: list[str]) -> None:
    """The copy is whole on its own, and each game in it is a consistent snapshot."""
    assert not Path(f"{path}-wal").exists() or Path(f"{path}-wal").stat().st_size == 0
    assert_whole(path)
    copy = dbmod.connect(path)
    try:
        for game_id in games:
            record = store.load_game(copy, game_id)
            hands = len(record.state.results)
            # One version per write: a hand without its version bump would be half a write.
            assert record.version == 1 + hands
            assert record.state.totals == (50 * hands, 5 * hands)
    finally:
        copy.close()


def test_backup_refuses_to_overwrite_the_database_itself(app):
    result = app.test_cli_runner().invoke(args=["backup", app.config["DATABASE"]])
    assert result.exit_code != 0
    assert "must not replace" in result.output


def test_polling_with_if_none_match_answers_304_until_the_game_changes(client):
    game = new_game(client)
    url = f"/api/games/{game['id']}"
    tag = client.get(url).headers["ETag"]
    unchanged = client.get(url, headers={"If-None-Match": tag})
    assert unchanged.status_code == 304 and unchanged.headers["ETag"] == tag
    client.post(hands_url(game), json=hand(side(50), side(60)))
    changed = client.get(url, headers={"If-None-Match": tag})
    assert changed.status_code == 200 and changed.headers["ETag"] != tag
    assert len(changed.json["hands"]) == 1
