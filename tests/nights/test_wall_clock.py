"""The wall of a timed round as the server draws it (issue 33): its tag carries the clock's
phase, so a wall that asks at the warning or at the call gets the page anew though no hand was
recorded; without JavaScript it reloads itself a second after the next phase begins; the clock
gives a page the seconds to count down from, never a time of day."""

from __future__ import annotations

import re

from test_tournament_api import draw, earlier, new_club, new_night

ROUND = {"fixed_hands": 6, "minutes": 50, "warning_minutes": 10}


def timed_wall(client):
    night = new_night(client, new_club(client), ranking="match_points", round=ROUND).json
    draw(client, night["id"])
    return night


def refresh_of(page: str) -> int:
    found = re.search(r'<meta http-equiv="refresh" content="(\d+)">', page)
    assert found, "no reload"
    return int(found.group(1))


def clock_of(page: str) -> str:
    found = re.search(r'<p class="round-clock[^>]*>', page)
    assert found, "no clock"
    return found.group(0)


def test_the_walls_tag_moves_with_the_clocks_phase(app, client):
    night = timed_wall(client)
    json = {"Accept": "application/json"}
    playing = client.get(night["watch_url"], headers=json)
    tag = playing.headers["ETag"]
    assert playing.json["version"] == tag.strip('"')
    assert client.get(night["watch_url"], headers={**json, "If-None-Match": tag}).status_code == 304
    earlier(app, "night_rounds", "drawn_at", "night_id = ?", [night["id"]], 45)  # the warning
    warning = client.get(night["watch_url"], headers={**json, "If-None-Match": tag})
    assert warning.status_code == 200 and warning.headers["ETag"] != tag
    earlier(app, "night_rounds", "drawn_at", "night_id = ?", [night["id"]], 10)  # time
    called = client.get(
        night["watch_url"], headers={**json, "If-None-Match": warning.headers["ETag"]}
    )
    assert called.status_code == 200 and called.headers["ETag"] not in (
        tag,
        warning.headers["ETag"],
    )


def test_without_javascript_the_wall_reloads_itself_by_the_next_phase(app, client):
    night = timed_wall(client)
    page = client.get(night["watch_url"]).get_data(as_text=True)
    assert refresh_of(page) == 10  # the clock runs: its seconds stay near right
    clock = clock_of(page)
    assert 'class="round-clock phase-playing"' in clock
    assert re.search(r'data-seconds-left="(3000|299\d)"', clock)
    assert re.search(r'data-seconds-to-warning="(2400|239\d)"', clock)
    # Four seconds before the warning: the page reloads a second after it begins.
    earlier(app, "night_rounds", "drawn_at", "night_id = ?", [night["id"]], 40 - 4 / 60)
    page = client.get(night["watch_url"]).get_data(as_text=True)
    assert 2 <= refresh_of(page) <= 6
    # Time called: nothing counts down any more; the wall reloads every half minute.
    earlier(app, "night_rounds", "drawn_at", "night_id = ?", [night["id"]], 15)
    page = client.get(night["watch_url"]).get_data(as_text=True)
    assert refresh_of(page) == 30
    assert 'class="round-clock phase-time"' in clock_of(page)
    assert "data-seconds-left" not in clock_of(page)


def test_a_night_without_a_clock_reloads_every_half_minute(client):
    night = new_night(client, new_club(client)).json
    draw(client, night["id"])
    page = client.get(night["watch_url"]).get_data(as_text=True)
    assert refresh_of(page) == 30 and 'class="round-clock' not in page
