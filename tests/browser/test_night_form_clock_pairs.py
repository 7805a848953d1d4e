"""The new-night form's clock and Mitchell pairs on a 360 px phone, JavaScript on and off
(issue 33): the organiser types a pair wrong, reads the message at the pairs' box with what
was typed kept, mends it and starts a timed Mitchell night."""

from __future__ import annotations

import pytest
from phone import no_sideways_scroll
from playwright.sync_api import expect

PAIRS = ["Ann & Bob", "Cy & Di", "Eve & Fay", "Gus & Hal", "Ida & Joe", "Kim & Lou"]


@pytest.mark.parametrize("javascript", [True, False])
def test_a_timed_mitchell_night_typed_at_360(make_page, live_server, tmp_path, javascript):
    page = make_page(width=360, height=780, javascript=javascript)
    made = page.request.post(f"{live_server}/api/clubs", data={"name": "Thursday"})
    club_id = made.json()["id"]
    page.goto(f"{live_server}/clubs/{club_id}/nights/new")
    page.get_by_label("Minutes a round").fill("50")
    page.get_by_label("Warning, minutes before time").fill("10")
    page.get_by_label("Mitchell: fixed pairs").check()
    page.fill("#night-rounds", "")
    wrong = "\n".join([*PAIRS[:2], "Eve Fay", *PAIRS[3:]])
    page.get_by_label("Pairs, one a line").fill(wrong)
    assert no_sideways_scroll(page)
    page.get_by_role("button", name="Start the night").tap()
    error = page.locator(".movement .field-error")
    expect(error).to_have_text("Pair 3: must be a pair: two names")
    expect(page.get_by_label("Pairs, one a line")).to_have_value(wrong)
    expect(page.get_by_label("Minutes a round")).to_have_value("50")
    expect(page.get_by_label("Mitchell: fixed pairs")).to_be_checked()
    assert no_sideways_scroll(page)
    page.screenshot(path=str(tmp_path / "refused.png"), full_page=True)
    page.get_by_label("Pairs, one a line").fill("\n".join(PAIRS))
    page.get_by_role("button", name="Start the night").tap()
    expect(page.locator("h1")).to_have_text("Club night")
    night_id = page.url.rsplit("/", 1)[1]
    night = page.request.get(f"{live_server}/api/nights/{night_id}").json()
    assert night["movement"] == "mitchell" and night["pairs"][3] == ["Gus", "Hal"]
    assert night["round"]["minutes"] == 50 and night["round"]["warning_minutes"] == 10
