"""A tournament night and a season as pages without JavaScript (issue 33): the new-night form's
match points, the night's match-point standings and the round's clock, the season's form (a
refusal keeps what was typed), its page, its CSV and its PDF read back with pdfplumber."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta
from typing import Any

import pdfplumber
from flask.testing import FlaskClient

from scorer.store.db import connect

EIGHT = ["Ann", "Bob", "Cy", "Di", "Eve", "Fay", "Gus", "Hal"]


def new_club(client: FlaskClient) -> str:
    return client.post("/api/clubs", json={"name": "Thursday", "players": EIGHT}).json["id"]


def night_form(**fields: Any) -> dict[str, Any]:
    return {
        "present": EIGHT,
        "new_players": ["", ""],
        "rounds": "2",
        "ends": "hands",
        "fixed_hands": "1",
        "target": "",
        "draw": "random",
        "ranking": "match_points",
        "odd": "variants",
        **fields,
    }


def text_of(html: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))


def test_a_night_ranked_by_match_points_from_the_form(client):
    club_id = new_club(client)
    made = client.post(f"/clubs/{club_id}/nights/new", data=night_form())
    assert made.status_code == 303, made.get_data(as_text=True)
    night_id = made.headers["Location"].rsplit("/", 1)[1]
    page = client.get(f"/nights/{night_id}").get_data(as_text=True)
    assert "Card points" in page and "Match points: 2 for a win" in page
    api = client.get(f"/api/nights/{night_id}").json
    assert api["ranking"] == "match_points"
    # The wall shows the same table.
    wall = client.get(api["watch_url"]).get_data(as_text=True)
    assert "Card points" in wall


def test_a_timed_rounds_clock_on_the_organisers_page_and_the_wall(client):
    body = {
        "players": EIGHT,
        "rounds": 2,
        "round": {"fixed_hands": 3, "minutes": 50, "warning_minutes": 10},
    }
    night = client.post(f"/api/clubs/{new_club(client)}/nights", json=body).json
    etag = client.get(f"/api/nights/{night['id']}").headers["ETag"]
    client.post(f"/api/nights/{night['id']}/rounds", headers={"If-Match": etag})
    for address in (f"/nights/{night['id']}", night["watch_url"]):
        page = client.get(address).get_data(as_text=True)
        clock = re.search(
            r'<p class="round-clock phase-playing" role="timer"[^>]*>(.*?)</p>', page, re.S
        )
        assert clock, address
        assert re.search(r"(50:00|49:5\d) left in this round", text_of(clock.group(1)))


def test_a_season_from_the_form_with_its_page_csv_and_pdf(client, tmp_path):
    club_id = new_club(client)
    assert "Seasons" in client.get(f"/clubs/{club_id}/nights").get_data(as_text=True)
    typed = {"name": "Spring 2026", "from": "2026-03-01", "to": "2026-02-01", "best_of": "4"}
    refused = client.post(f"/clubs/{club_id}/seasons", data=typed)
    page = refused.get_data(as_text=True)
    assert refused.status_code == 422
    assert 'aria-invalid="true" aria-describedby="season-error-to"' in page
    assert "must be on or after the season" in page and 'value="Spring 2026"' in page
    made = client.post(f"/clubs/{club_id}/seasons", data={**typed, "to": "2099-12-31"})
    assert made.status_code == 303
    season_id = made.headers["Location"].rsplit("/", 1)[1]
    # A night of the season, one table played: its winners are the champions.
    night = client.post(
        f"/api/clubs/{club_id}/nights",
        json={"players": EIGHT[:4], "rounds": 1, "round": {"fixed_hands": 1}},
    ).json
    etag = client.get(f"/api/nights/{night['id']}").headers["ETag"]
    drawn = client.post(f"/api/nights/{night['id']}/rounds", headers={"If-Match": etag}).json
    table = drawn["rounds"][0]["tables"][0]
    hand = {"sides": [{"meld_points": 300}, {"meld_points": 100}]}
    assert client.post(f"/api/games/{table['game']}/hands", json=hand).status_code == 201
    winners = sorted(table["sides"][0]["players"])
    page = text_of(client.get(f"/seasons/{season_id}").get_data(as_text=True))
    assert f"Champions: {', '.join(winners)}" in page
    assert "the best 4 nights of each player count" in page
    csv = client.get(f"/seasons/{season_id}.csv").get_data(as_text=True).splitlines()
    assert csv[1].startswith(f"1,{winners[0]},2,200,1,")
    pdf = client.get(f"/seasons/{season_id}.pdf")
    assert pdf.status_code == 200 and pdf.mimetype == "application/pdf"
    path = tmp_path / "season.pdf"
    path.write_bytes(pdf.data)
    with pdfplumber.open(path) as document:
        text = "\n".join(p.extract_text() or "" for p in document.pages)
    assert "Spring 2026" in text and f"Champions: {', '.join(winners)}" in text
    for player in EIGHT[:4]:
        assert player in text
    assert client.get("/seasons/nope").status_code == 404


def test_a_timed_table_shows_its_time_and_after_time_refuses_a_new_hand(app, client):
    body = {
        "players": EIGHT[:4],
        "rounds": 1,
        "round": {"fixed_hands": 6, "minutes": 50, "warning_minutes": 10},
    }
    night = client.post(f"/api/clubs/{new_club(client)}/nights", json=body).json
    etag = client.get(f"/api/nights/{night['id']}").headers["ETag"]
    drawn = client.post(f"/api/nights/{night['id']}/rounds", headers={"If-Match": etag}).json
    game_id = drawn["rounds"][0]["tables"][0]["game"]
    board = text_of(client.get(f"/games/{game_id}").get_data(as_text=True))
    assert re.search(r"(50:00|49:5\d) left in this round", board)
    # 55 minutes later (the round drawn that long ago): time is called.
    db = connect(app.config["DATABASE"])
    with db.conn:
        db.execute(
            "update night_rounds set drawn_at = ? where night_id = ?",
            [
                (datetime.now(UTC) - timedelta(minutes=55)).isoformat(timespec="seconds"),
                night["id"],
            ],
        )
    db.close()
    assert "Time is called" in text_of(client.get(f"/games/{game_id}").get_data(as_text=True))
    typed = {
        "went_out": "0",
        "sides-0-meld_points": "130",
        "sides-0-natural_canastas": "1",
        "sides-1-meld_points": "50",
        "sides-1-hand_points": "85",
    }
    under_way = client.post(f"/games/{game_id}/hands/new", data=typed)
    assert under_way.status_code == 303  # the hand being played when time was called
    refused = client.post(f"/games/{game_id}/hands/new", data=typed)
    page = refused.get_data(as_text=True)
    assert refused.status_code == 409
    assert "time was called in this round" in text_of(page)
    assert re.search(r'name="sides-0-meld_points"[^>]*value="130"', page)  # kept as typed
    assert len(client.get(f"/api/games/{game_id}").json["hands"]) == 1


def test_the_standings_pdf_of_a_night_ranked_by_match_points(client, tmp_path):
    body = {
        "players": EIGHT[:4],
        "rounds": 1,
        "ranking": "match_points",
        "round": {"fixed_hands": 1},
    }
    night = client.post(f"/api/clubs/{new_club(client)}/nights", json=body).json
    etag = client.get(f"/api/nights/{night['id']}").headers["ETag"]
    drawn = client.post(f"/api/nights/{night['id']}/rounds", headers={"If-Match": etag}).json
    table = drawn["rounds"][0]["tables"][0]
    hand = {"sides": [{"meld_points": 300}, {"meld_points": 100}]}
    assert client.post(f"/api/games/{table['game']}/hands", json=hand).status_code == 201
    pdf = client.get(f"/nights/{night['id']}/standings.pdf")
    assert pdf.status_code == 200
    path = tmp_path / "standings.pdf"
    path.write_bytes(pdf.data)
    with pdfplumber.open(path) as document:
        text = "\n".join(p.extract_text() or "" for p in document.pages)
    assert "Match points" in text and "Card points" in text
    winner = sorted(table["sides"][0]["players"])[0]
    assert re.search(rf"1 {winner} 1 2 200", text), text


def test_the_organisers_draw_button_seats_a_mitchell_nights_movement(client):
    pairs = [
        ["Ann", "Bob"],
        ["Cy", "Di"],
        ["Eve", "Fay"],
        ["Gus", "Hal"],
        ["Ida", "Jo"],
        ["Kim", "Lou"],
    ]
    body = {"movement": "mitchell", "pairs": pairs, "round": {"fixed_hands": 1}}
    night = client.post(f"/api/clubs/{new_club(client)}/nights", json=body).json
    for _round in range(2):  # the organiser taps "Draw" twice
        version = client.get(f"/api/nights/{night['id']}").json["version"]
        drawn = client.post(
            f"/nights/{night['id']}/draw", data={"version": str(version), "confirm": "1"}
        )
        assert drawn.status_code == 303
    rounds = client.get(f"/api/nights/{night['id']}").json["rounds"]
    seating = [
        [t["sides"][0]["players"] + t["sides"][1]["players"] for t in r["tables"]] for r in rounds
    ]
    assert seating == [
        [pairs[0] + pairs[3], pairs[1] + pairs[4], pairs[2] + pairs[5]],
        [pairs[0] + pairs[5], pairs[1] + pairs[3], pairs[2] + pairs[4]],
    ]
    version = client.get(f"/api/nights/{night['id']}").json["version"]
    redraw = client.post(f"/nights/{night['id']}/redraw", data={"version": str(version)})
    assert redraw.status_code == 409
    assert "a movement's rounds are set" in text_of(redraw.get_data(as_text=True)).replace(
        "&#39;", "'"
    )


def test_a_forfeit_and_the_final_table_from_the_organisers_page(client):
    body = {"players": EIGHT, "rounds": 1, "ranking": "match_points", "round": {"fixed_hands": 1}}
    night = client.post(f"/api/clubs/{new_club(client)}/nights", json=body).json
    etag = client.get(f"/api/nights/{night['id']}").headers["ETag"]
    one, two = client.post(f"/api/nights/{night['id']}/rounds", headers={"If-Match": etag}).json[
        "rounds"
    ][0]["tables"]
    page = client.get(f"/nights/{night['id']}").get_data(as_text=True)
    absent = " &amp; ".join(two["sides"][1]["players"])
    assert f"Table 2: {absent} absent" in page and "Seat the final table" in page

    def version() -> str:
        return str(client.get(f"/api/nights/{night['id']}").json["version"])

    done = client.post(
        f"/nights/{night['id']}/forfeit", data={"forfeit": "1:2:1", "version": version()}
    )
    assert done.status_code == 303
    lines = {
        line["player"]: line for line in client.get(f"/api/nights/{night['id']}").json["standings"]
    }
    for player in two["sides"][0]["players"]:
        assert (lines[player]["match_points"], lines[player]["card_points"]) == (2, 2000)
    refused = client.post(
        f"/nights/{night['id']}/final", data={"per_table": "9", "version": version()}
    )
    assert refused.status_code == 422 and "a final table seats 3 to 6 players" in refused.get_data(
        as_text=True
    )
    seated = client.post(
        f"/nights/{night['id']}/final", data={"per_table": "2", "version": version()}
    )
    assert seated.status_code == 303
    got = client.get(f"/api/nights/{night['id']}").json
    assert got["final_round"] == 2 and len(got["rounds"][1]["tables"]) == 1
    assert "Seat the final table" not in client.get(f"/nights/{night['id']}").get_data(as_text=True)
