"""The new-night form sets what the API could already (issue 33): a timed round (minutes and
a warning) and a Mitchell movement from its pairs typed one a line; a refusal shows its
message at its box and keeps what was typed."""

from __future__ import annotations

import re
from typing import Any

from flask.testing import FlaskClient
from test_tournament_pages import new_club, night_form

PAIRS = "Ann & Bob\nCy & Di\nEve & Fay\n\nGus & Hal\nIda & Joe\nKim & Lou\n"


def made_night(client: FlaskClient, club_id: str, **fields: Any) -> dict[str, Any]:
    made = client.post(f"/clubs/{club_id}/nights/new", data=night_form(**fields))
    assert made.status_code == 303, made.get_data(as_text=True)
    return client.get(f"/api/nights/{made.headers['Location'].rsplit('/', 1)[1]}").json


def error_at(page: str, box: str) -> str:
    """The message in the field (or fieldset) that holds the box with this id."""
    found = re.search(
        rf'id="{box}".*?<p class="field-error" id="night-error" role="alert">(.*?)</p>', page, re.S
    )
    assert found, page
    return found.group(1)


def test_the_form_offers_the_clock_and_the_pairs(client):
    page = client.get(f"/clubs/{new_club(client)}/nights/new").get_data(as_text=True)
    for box in ('name="minutes"', 'name="warning_minutes"', 'value="mitchell"', 'name="pairs"'):
        assert box in page


def test_a_timed_night_from_the_form(client):
    night = made_night(client, new_club(client), minutes="50", warning_minutes="10")
    assert night["round"] == {"fixed_hands": 1, "minutes": 50, "warning_minutes": 10}
    # The minutes box left empty: no clock.
    plain = made_night(client, new_club(client))
    assert "minutes" not in plain["round"]


def test_a_mitchell_night_from_the_form(client):
    night = made_night(client, new_club(client), movement="mitchell", pairs=PAIRS, rounds="")
    assert night["movement"] == "mitchell"
    assert night["pairs"][0] == ["Ann", "Bob"] and night["pairs"][5] == ["Kim", "Lou"]
    # The night's players are the pairs' (the roster's boxes are not used).
    assert len(night["players"]) == 12 and "Kim" in night["players"]


def test_refusals_at_their_box_keep_what_was_typed(client):
    club_id = new_club(client)
    address = f"/clubs/{club_id}/nights/new"
    late = client.post(address, data=night_form(minutes="50", warning_minutes="60"))
    page = late.get_data(as_text=True)
    assert late.status_code == 422
    assert "0 to 49" in error_at(page, "night-warning")
    assert 'value="50"' in page and 'value="60"' in page
    alone = client.post(address, data=night_form(warning_minutes="5"))
    assert "minutes" in error_at(alone.get_data(as_text=True), "night-minutes")
    typed = "Ann & Bob\nCy\nEve & Fay\nGus & Hal"
    odd = client.post(address, data=night_form(movement="mitchell", pairs=typed, rounds=""))
    page = odd.get_data(as_text=True)
    assert odd.status_code in (400, 422)
    assert error_at(page, "night-pairs") == "Pair 2: must be a pair: two names"
    assert "Ann &amp; Bob\nCy\nEve &amp; Fay" in page
    assert re.search(r'value="mitchell" checked', page)
    # Nothing was saved.
    assert "No night yet." in client.get(f"/clubs/{club_id}/nights").get_data(as_text=True)
