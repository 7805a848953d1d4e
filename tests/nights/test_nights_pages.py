"""Club nights' pages without JavaScript (issue 23 point 5): forms, redirects, refusals that
keep what was typed, and the wall's address that shows only the leaderboard."""

from __future__ import annotations

import re
from typing import Any

import pdfplumber
from flask.testing import FlaskClient

EIGHT = ["Ann", "Bob", "Cy", "Di", "Eve", "Fay", "Gus", "Hal"]


def new_club(client: FlaskClient, players: list[str] = EIGHT) -> str:
    return client.post("/api/clubs", json={"name": "Thursday", "players": players}).json["id"]


def form(**fields: Any) -> dict[str, Any]:
    return {
        "present": EIGHT,
        "new_players": ["", ""],
        "rounds": "3",
        "ends": "hands",
        "fixed_hands": "2",
        "target": "",
        "draw": "random",
        "ranking": "wins_then_points",
        "odd": "variants",
        **fields,
    }


def new_night(client: FlaskClient, club_id: str, **fields: Any) -> str:
    response = client.post(f"/clubs/{club_id}/nights/new", data=form(**fields))
    assert response.status_code == 303, response.get_data(as_text=True)
    return response.headers["Location"]


def test_the_club_page_leads_to_its_nights(client):
    club_id = new_club(client)
    assert f"/clubs/{club_id}/nights" in client.get(f"/clubs/{club_id}").get_data(as_text=True)
    page = client.get(f"/clubs/{club_id}/nights").get_data(as_text=True)
    assert "No night yet." in page and f"/clubs/{club_id}/nights/new" in page
    new = client.get(f"/clubs/{club_id}/nights/new").get_data(as_text=True)
    assert new.count('type="checkbox" name="present"') == 8 and new.count(" checked") >= 8


def test_a_night_from_the_form_with_a_new_player(client):
    club_id = new_club(client, EIGHT[:7])
    url = new_night(client, club_id, present=EIGHT[:7], new_players=["Zoe", ""])
    night_id = url.rsplit("/", 1)[-1]
    night = client.get(f"/api/nights/{night_id}").json
    assert night["players"] == [*EIGHT[:7], "Zoe"] and night["round"] == {"fixed_hands": 2}
    page = client.get(url).get_data(as_text=True)
    assert "Draw round 1" in page and "Night created." in page
    listing = client.get(f"/clubs/{club_id}/nights").get_data(as_text=True)
    assert url in listing


def test_a_refused_night_keeps_what_was_typed(client):
    club_id = new_club(client)
    response = client.post(
        f"/clubs/{club_id}/nights/new",
        data=form(present=["Ann", "Bob"], new_players=["", "Zed"], rounds="99"),
    )
    page = response.get_data(as_text=True)
    assert response.status_code == 422
    assert "Nothing was saved" in page
    assert 'value="Zed"' in page and 'value="99"' in page
    assert re.search(r'value="Ann" checked', page) and not re.search(r'value="Cy" checked', page)
    # Nothing stored: Zed did not join the roster.
    assert "Zed" not in [p["name"] for p in client.get(f"/api/clubs/{club_id}").json["players"]]


def test_drawing_from_the_page_twice_with_the_same_version_draws_once(client):
    url = new_night(client, new_club(client))
    first = client.post(f"{url}/draw", data={"version": "1"})
    assert first.status_code == 303
    again = client.post(f"{url}/draw", data={"version": "1"}, follow_redirects=True)
    assert "Someone else changed this night meanwhile" in again.get_data(as_text=True)
    night_id = url.rsplit("/", 1)[-1]
    assert client.get(f"/api/nights/{night_id}").json["rounds_drawn"] == 1
    page = client.get(url).get_data(as_text=True)
    assert page.count("/qr.svg") == 2 and "Draw this round again" in page


def test_redraw_then_a_late_arrival_from_the_page(client):
    url = new_night(client, new_club(client))
    night_id = url.rsplit("/", 1)[-1]
    client.post(f"{url}/draw", data={"version": "1"})
    before = client.get(f"/api/nights/{night_id}").json
    assert client.post(f"{url}/redraw", data={"version": str(before["version"])}).status_code == 303
    after = client.get(f"/api/nights/{night_id}").json
    assert after["rounds_drawn"] == 1 and after["version"] == before["version"] + 1
    bad = client.post(f"{url}/players", data={"version": str(after["version"]), "name": " "})
    assert bad.status_code == 422
    added = client.post(f"{url}/players", data={"version": str(after["version"]), "name": "Ivy"})
    assert added.status_code == 303
    assert client.get(f"/api/nights/{night_id}").json["players"][-1] == "Ivy"


def test_the_wall_shows_only_the_leaderboard(client):
    club_id = new_club(client)
    url = new_night(client, club_id)
    night_id = url.rsplit("/", 1)[-1]
    client.post(f"{url}/draw", data={"version": "1"})
    night = client.get(f"/api/nights/{night_id}").json
    games = [t["game"] for t in night["rounds"][0]["tables"]]
    wall = client.get(night["watch_url"])
    text = wall.get_data(as_text=True)
    assert wall.status_code == 200 and "Standings of the night" in text
    as_json = client.get(night["watch_url"], headers={"Accept": "application/json"})
    for body in (text, as_json.get_data(as_text=True)):
        assert night_id not in body and club_id not in body
        assert not any(game in body for game in games)
        assert "/hands/new" not in body and "<form" not in body
    assert "id" not in as_json.json and len(as_json.json["standings"]) == 8
    tag = as_json.headers["ETag"]
    again = client.get(
        night["watch_url"], headers={"Accept": "application/json", "If-None-Match": tag}
    )
    assert again.status_code == 304
    assert client.get("/nights/watch/nope").status_code == 404
    assert client.get("/nights/nope").status_code == 404


def read_pdf(data: bytes, tmp_path) -> tuple[str, Any]:
    path = tmp_path / "night.pdf"
    path.write_bytes(data)
    with pdfplumber.open(path) as document:
        page = document.pages[0]
        return "\n".join(p.extract_text() or "" for p in document.pages), len(page.lines) + len(
            page.curves
        ) + len(page.rects)


def test_the_seating_slips_and_the_standings_print(client, tmp_path):
    url = new_night(client, new_club(client))
    night_id = url.rsplit("/", 1)[-1]
    assert client.get(f"{url}/seating.pdf").status_code == 400  # no round yet
    client.post(f"{url}/draw", data={"version": "1"})
    night = client.get(f"/api/nights/{night_id}").json
    tables = night["rounds"][0]["tables"]
    response = client.get(f"{url}/seating.pdf")
    assert response.status_code == 200 and response.mimetype == "application/pdf"
    text, rects = read_pdf(response.data, tmp_path)
    assert "Round 1" in text and "Table 1" in text and "Table 2" in text
    for table in tables:
        assert f"/games/{table['game']}" in text.replace("\n", "")
        for side in table["sides"]:
            assert " & ".join(side["players"]) in text
    assert rects > 100  # two QR codes drawn as vector modules
    game = tables[0]["game"]
    client.post(f"/api/games/{game}/hands", json={"sides": [{"meld_points": 300}, {}]})
    text, _ = read_pdf(client.get(f"{url}/standings.pdf").data, tmp_path)
    assert "Standings of the night" in text
    winners = tables[0]["sides"][0]["players"]
    lines = [line for line in text.splitlines() if line.startswith("1 ")]
    assert sorted(line.split()[1] for line in lines) == sorted(winners)
    # A round of two hands after one: the points count already, the round not yet.
    assert all(" 0 0 300 " in f"{line} " for line in lines) and len(lines) == 2
