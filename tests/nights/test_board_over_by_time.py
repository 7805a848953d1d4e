"""A table of a timed round, on its own scoreboard (issue 33): once time is called and the
hand under way is recorded, the board says the game is over, who won by the higher total
(or that the totals are level), and offers no button to record a hand."""

from __future__ import annotations

import re

from test_tournament_api import draw, earlier, new_club, new_night, play_hand


def board(client, game_id: str) -> str:
    page = client.get(f"/games/{game_id}")
    assert page.status_code == 200
    return re.sub(r"\s+", " ", page.get_data(as_text=True))


def test_a_game_ended_by_time_shows_as_over_without_a_record_button(app, client):
    round_ = {"fixed_hands": 6, "minutes": 50, "warning_minutes": 10}
    night = new_night(client, new_club(client), ranking="match_points", round=round_).json
    one, two = draw(client, night["id"]).json["rounds"][0]["tables"]
    play_hand(client, one["game"], 300, 100)
    playing = board(client, one["game"])
    assert 'class="record-bar"' in playing and "game is over" not in playing
    # 55 minutes in: time is called; each table records the hand under way.
    earlier(app, "night_rounds", "drawn_at", "night_id = ?", [night["id"]], 55)
    earlier(app, "hands", "created_at", "game_id = ?", [one["game"]], 25)
    called = board(client, one["game"])
    assert "Time is called" in called and 'class="record-bar"' in called  # the hand under way
    play_hand(client, one["game"], 50, 100)  # 350 to 200
    play_hand(client, two["game"], 100, 100)  # 100 to 100: level
    won = board(client, one["game"])
    assert "Time was called: the game is over." in won
    winners = won.split("The higher total wins: ", 1)[1].split(".</span>", 1)[0]
    assert winners == " &amp; ".join(one["sides"][0]["players"])
    assert 'class="record-bar"' not in won and "/hands/new" not in won
    assert "Round 1 is over at this table" in won  # back to the night
    level = board(client, two["game"])
    assert "The totals are level at the top" in level and "/hands/new" not in level
