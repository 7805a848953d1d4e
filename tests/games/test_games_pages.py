"""The pages through the Flask test client: every page, form, refusal and correction.

Expected scores are worked out by hand from the rule book (docs/rules.md), never
taken from the code under test.
"""

from __future__ import annotations

import gzip
import html
import re
from pathlib import Path
from typing import Any

import pytest
from apidata import put_hand
from flask import Flask
from flask.testing import FlaskClient

from scorer import create_app, store
from scorer.core.game import Side
from scorer.core.hands import Hand, SideHand
from scorer.store.db import get_db

XSS = "<script>alert(1)</script>"

# The classic house-rule inputs as the new-game form shows them (rule book, section 1).
CLASSIC_RULES = {
    "going_out": "100",
    "concealed_going_out": "200",
    "natural_canasta": "500",
    "mixed_canasta": "300",
    "red_three": "100",
    "all_red_threes": "800",
    "canastas_to_go_out": "1",
    "minimums-0-minimum": "15",
    "minimums-1-start": "0",
    "minimums-1-minimum": "50",
    "minimums-2-start": "1500",
    "minimums-2-minimum": "90",
    "minimums-3-start": "3000",
    "minimums-3-minimum": "120",
}


# --- helpers ---------------------------------------------------------------------------------


def game_form(players: list[list[str]], **extra: str) -> dict[str, str]:
    data = {"profile": "classic", "target": "", "rules_for": "classic", **CLASSIC_RULES}
    for s, names in enumerate(players):
        for p, name in enumerate(names):
            data[f"sides-{s}-players-{p}"] = name
    data.update(extra)
    return data


def start(client: FlaskClient, players: list[list[str]] | None = None, **extra: str) -> str:
    """Create a game through the form; returns its id."""
    players = players or [["Ann", "Bob"], ["Cy", "Dee"]]
    response = client.post("/games/new", data=game_form(players, **extra))
    assert response.status_code == 303, response.get_data(as_text=True)
    return response.headers["Location"].rsplit("/", 1)[1]


def hand_form(
    sides: list[dict[str, Any]], went_out: str, concealed: bool = False, **extra: str
) -> dict[str, str]:
    data = {"went_out": went_out, **extra}
    if concealed:
        data["concealed"] = "y"
    for i, side in enumerate(sides):
        for key, value in side.items():
            data[f"sides-{i}-{key}"] = str(value)
    return data


# The typical hand of issue 3: side A meld 130, one natural canasta, two red threes, went
# out; side B meld 50, 85 left in hand. A: 130 + 500 + 200 + 100 = 930. B: 50 - 85 = -35.
TYPICAL = hand_form(
    [
        {"meld_points": 130, "natural_canastas": 1, "red_threes": 2},
        {"meld_points": 50, "hand_points": 85},
    ],
    "0",
)


def record(client: FlaskClient, game_id: str, data: dict[str, str]) -> Any:
    return client.post(f"/games/{game_id}/hands/new", data=data)


def loaded(app: Flask, game_id: str) -> store.ReplayedGame:
    with app.app_context():
        return store.load_game(get_db(), game_id)


def text(response: Any) -> str:
    return response.get_data(as_text=True)


def input_value(page: str, name: str) -> str | None:
    match = re.search(rf'<input[^>]*name="{re.escape(name)}"[^>]*value="([^"]*)"', page)
    return html.unescape(match.group(1)) if match else None


def field_error(page: str, field_id: str) -> str | None:
    match = re.search(rf'<p class="field-error" id="{re.escape(field_id)}-error">([^<]*)</p>', page)
    return html.unescape(match.group(1)) if match else None


def hidden(page: str, name: str) -> str:
    for tag in re.findall(r'<input[^>]*type="hidden"[^>]*>', page):
        if f'name="{name}"' in tag:
            return re.search(r'value="([^"]*)"', tag).group(1)
    raise AssertionError(f"no hidden {name}")


def totals(page: str) -> list[int]:
    return [int(t) for t in re.findall(r'data-total="(-?\d+)"', page)]


def minimums(page: str) -> list[int]:
    return [int(t) for t in re.findall(r'data-minimum="(-?\d+)"', page)]


# --- home ------------------------------------------------------------------------------------


def test_home_offers_a_new_game(client: FlaskClient) -> None:
    page = text(client.get("/"))
    assert 'href="/games/new"' in page
    assert "New game" in page


def test_home_lists_only_this_browsers_games_latest_first(app: Flask) -> None:
    mine, other = app.test_client(), app.test_client()
    first = start(mine, [["Ann", "Bob"], ["Cy", "Dee"]], name="Monday")
    second = start(mine, [["Eve", "Fay"], ["Gus", "Hal"]], name="Tuesday")
    theirs = start(other, [["Ivy", "Jo"], ["Kim", "Lou"]], name="Elsewhere")
    record(mine, first, TYPICAL)  # played last: now the latest
    page = text(mine.get("/"))
    assert "Elsewhere" not in page and theirs not in page
    assert page.index("Monday") < page.index("Tuesday")
    assert f"/games/{first}" in page and f"/games/{second}" in page
    assert "930" in page and "\u221235" in page
    assert "1 hand played" in page
    assert "Not started" in page


def test_opening_a_game_by_its_link_puts_it_on_the_home_page(app: Flask) -> None:
    owner, guest = app.test_client(), app.test_client()
    game_id = start(owner, name="Shared")
    assert "Shared" not in text(guest.get("/"))
    assert guest.get(f"/games/{game_id}").status_code == 200
    assert "Shared" in text(guest.get("/"))


# --- new game --------------------------------------------------------------------------------


def test_new_game_form_shows_the_classic_values(client: FlaskClient) -> None:
    page = text(client.get("/games/new"))
    for name, value in CLASSIC_RULES.items():
        assert input_value(page, name) == value, name
    assert '<option selected value="classic">' in page
    for key in ("two-player", "three-player", "five-player", "six-player"):
        assert f'value="{key}"' in page
    assert '<option value="10000">10,000</option>' in page
    assert '<details class="house-rules-form">' in page  # collapsed


def test_new_game_starts_with_the_first_player_dealing(app: Flask, client: FlaskClient) -> None:
    game_id = start(client, name="Friday")
    game = loaded(app, game_id)
    assert game.name == "Friday"
    assert [side.players for side in game.table.sides] == [("Ann", "Bob"), ("Cy", "Dee")]
    assert [side.name for side in game.table.sides] == ["Ann & Bob", "Cy & Dee"]
    assert game.table.profile.target == 5000
    assert game.house_rules == {}
    assert game.state.dealer_next == "Ann"
    board = text(client.get(f"/games/{game_id}"))
    assert "Game started" in board


def test_new_game_with_dealer_team_names_and_target(app: Flask, client: FlaskClient) -> None:
    game_id = start(
        client,
        first_dealer="Cy",
        target="10000",
        **{"sides-0-name": "North", "sides-1-name": "South"},
    )
    game = loaded(app, game_id)
    assert game.state.dealer_next == "Cy"
    assert [side.name for side in game.table.sides] == ["North", "South"]
    assert game.table.profile.target == 10000
    # A target of 10 000 adds the fifth row 7 500 -> 150 (rule book, section 3).
    assert game.table.profile.opening_minimum(7500) == 150


def test_only_changed_house_rules_are_kept(app: Flask, client: FlaskClient) -> None:
    game_id = start(client, going_out="150", **{"minimums-3-minimum": "100"})
    game = loaded(app, game_id)
    assert game.house_rules == {
        "going_out": 150,
        "minimums": [[None, 15], [0, 50], [1500, 90], [3000, 100]],
    }
    board = text(client.get(f"/games/{game_id}"))
    assert "House rules" in board and "Going-out bonus" in board and "150" in board
    assert "below 0: 15, from 0: 50, from 1,500: 90, from 3,000: 100" in board


def test_untouched_rules_follow_another_variant(app: Flask, client: FlaskClient) -> None:
    """The inputs showed classic values; six players keep their own (2 canastas, 3 packs)."""
    players = [["Ann", "Bob"], ["Cy", "Dee"], ["Eve", "Fay"]]
    game_id = start(client, players, profile="six-player")
    game = loaded(app, game_id)
    assert game.house_rules == {}
    assert game.table.profile.canastas_to_go_out == 2
    assert game.table.profile.target == 7500


def test_every_player_alone(app: Flask, client: FlaskClient) -> None:
    game_id = start(client, solo="y")
    game = loaded(app, game_id)
    assert [side.players for side in game.table.sides] == [("Ann",), ("Bob",), ("Cy",), ("Dee",)]


def test_two_player_game(app: Flask, client: FlaskClient) -> None:
    game_id = start(client, [["Ann"], ["Bob"]], profile="two-player")
    assert len(loaded(app, game_id).table.sides) == 2


@pytest.mark.parametrize(
    ("extra", "players", "field_id", "message"),
    [
        ({"first_dealer": "Zoe"}, None, "first_dealer", "Deals first: must be one of the players"),
        ({}, [["Ann", "Bob"]], "players", "Players: enter the players of at least two sides"),
        ({}, [["Ann", "Bob"], ["Cy"]], "players", "Players: this variant seats 4 players"),
        ({"going_out": "33"}, None, "going_out", "Going-out bonus: must be a multiple of 5"),
    ],
)
def test_refused_game_keeps_what_was_typed(
    app: Flask, client: FlaskClient, extra: dict, players: Any, field_id: str, message: str
) -> None:
    response = client.post(
        "/games/new", data=game_form(players or [["Ann", "Bob"], ["Cy", "Dee"]], **extra)
    )
    assert response.status_code == 422
    page = text(response)
    assert field_error(page, field_id).startswith(message)
    assert input_value(page, "sides-0-players-0") == "Ann"
    for name, value in extra.items():
        assert input_value(page, name) == value
    with app.app_context():
        assert get_db()["games"].count == 0


def test_unreadable_game_form_is_a_400(app: Flask, client: FlaskClient) -> None:
    data = game_form([["Ann", "Bob"], ["Cy", "Dee"]], going_out="lots")
    response = client.post("/games/new", data=data)
    assert response.status_code == 400
    page = text(response)
    assert field_error(page, "going_out") == "Going-out bonus: enter a whole number"
    assert input_value(page, "going_out") == "lots"
    assert '<details class="house-rules-form" open>' in page
    with app.app_context():
        assert get_db()["games"].count == 0


# --- scoreboard and recording a hand -------------------------------------------------------


def test_scoreboard_of_a_new_game(client: FlaskClient) -> None:
    game_id = start(client)
    page = text(client.get(f"/games/{game_id}"))
    assert totals(page) == [0, 0]
    assert minimums(page) == [50, 50]  # 0 to 1 495 -> 50
    assert 'class="dealer-next">Ann<' in page
    assert f'href="/games/{game_id}/sheet.pdf"' in page
    assert f'href="/rules?game={game_id}"' in page
    assert f'href="/games/{game_id}/hands/new?out=0"' in page
    assert f'href="/games/{game_id}/hands/new?out=none"' in page
    assert f"/games/{game_id}/undo" not in page  # nothing to undo yet
    assert " style=" not in page  # CSP: no inline styles


def test_hand_form_waits_in_the_sheets_first_box_with_the_side_that_went_out_chosen(
    client: FlaskClient,
) -> None:
    """The sheet is filled in reading order (each side's boxes, then the next side's): the
    cursor waits in its first box whichever side went out; that side is chosen."""
    game_id = start(client)
    page = text(client.get(f"/games/{game_id}/hands/new?out=1"))
    assert re.search(r'<input autofocus id="sides-0-meld_points"', page)
    assert page.count("autofocus") == 1
    assert re.search(r'name="went_out" value="1"[^>]*checked', page)
    assert len(hidden(page, "token")) >= 16
    assert hidden(page, "version") == "1"
    assert 'inputmode="numeric"' in page
    # A fresh token each time the form is shown.
    again = text(client.get(f"/games/{game_id}/hands/new?out=1"))
    assert hidden(again, "token") != hidden(page, "token")


def test_recording_the_typical_hand(app: Flask, client: FlaskClient) -> None:
    game_id = start(client)
    response = record(client, game_id, TYPICAL)
    assert response.status_code == 303
    assert response.headers["Location"].endswith(f"/games/{game_id}")
    page = text(client.get(f"/games/{game_id}"))
    assert "Hand 1 saved" in page
    assert totals(page) == [930, -35]
    # 930 is in 0..1 495 -> 50; -35 is below 0 -> 15.
    assert minimums(page) == [50, 15]
    assert 'class="dealer-next">Cy<' in page  # the deal passes to the left: Ann, Cy, Bob, Dee
    breakdown = page[page.index('class="breakdown') :]
    rows = {
        label: re.findall(r"<td>([^<]*)</td>", row)
        for label, row in re.findall(r"<th>([^<]+)</th>(.*?)</tr>", breakdown)
    }
    assert rows["Cards"] == ["130", "50"]
    assert rows["Canastas"] == ["500", "0"]
    assert rows["Red threes"] == ["200", "0"]
    assert rows["Going out"] == ["100", "0"]
    assert rows["In hand"] == ["0", "\u221285"]
    assert rows["Hand"] == ["930", "\u221235"]
    assert rows["Total"] == ["930", "\u221235"]
    # Progress bars: 930 of 5 000 is 19 %; a negative total shows an empty bar.
    assert re.findall(r'<rect class="fill" width="(\d+)"', page) == ["19", "0"]


def test_card_counter_decides_the_points(app: Flask, client: FlaskClient) -> None:
    game_id = start(client)
    data = hand_form(
        [
            # A natural canasta of seven tens, two fives with a joker: 70 + 10 + 50 = 130.
            {"meld_points": 999, "meld_jokers": 1, "meld_ten": 7,
             "meld_five": 2, "natural_canastas": 1, "red_threes": 2},
            # 85 in hand as counted cards: 1 joker, 1 ten, 5 fives = 50 + 10 + 25.
            {"meld_points": 50, "hand_jokers": 1, "hand_ten": 1, "hand_five": 5},
        ],
        "0",
    )  # fmt: skip
    assert record(client, game_id, data).status_code == 303
    game = loaded(app, game_id)
    assert game.state.totals == (930, -35)
    stored = game.state.results[0].hand.sides
    assert stored[0].meld_cards is not None and stored[0].meld_cards.ten == 7
    assert stored[1].hand_cards is not None and stored[1].hand_cards.five == 5
    # The correction form shows the counts again, in an open counter.
    page = text(client.get(f"/games/{game_id}/hands/1/edit"))
    assert input_value(page, "sides-0-meld_ten") == "7"
    assert input_value(page, "sides-0-meld_points") == ""
    assert '<details class="counter" data-counter="meld" open>' in page


def test_stock_ran_out(app: Flask, client: FlaskClient) -> None:
    game_id = start(client)
    data = hand_form(
        [{"meld_points": 200, "hand_points": 30}, {"meld_points": 0, "red_threes": 1}], "none"
    )
    assert record(client, game_id, data).status_code == 303
    # B melded nothing: its red three counts against it (-100).
    assert loaded(app, game_id).state.totals == (170, -100)


def test_refused_hand_keeps_what_was_typed(app: Flask, client: FlaskClient) -> None:
    game_id = start(client)
    data = hand_form(
        [
            {"meld_points": 130, "natural_canastas": 1, "red_threes": 3},
            {"meld_points": 50, "hand_points": 85, "red_threes": 2},
        ],
        "0",
    )
    response = record(client, game_id, data)
    assert response.status_code == 422
    page = text(response)
    assert field_error(page, "sides-1-red_threes") == (
        "Red threes: at most 4 red threes in all with 2 packs"
    )
    assert 'role="alert"' in page and "Nothing was saved" in page
    assert input_value(page, "sides-0-meld_points") == "130"
    assert input_value(page, "sides-1-hand_points") == "85"
    assert input_value(page, "sides-1-red_threes") == "2"
    assert re.search(r'name="went_out" value="0"[^>]*checked', page)
    assert loaded(app, game_id).state.results == ()


# The rules have their table in test_hands.py; test_refused_hand_keeps_what_was_typed is the
# page's thin test. These show where two other kinds of field put their refusal.
@pytest.mark.parametrize(
    ("sides", "went_out", "concealed", "field_id", "message"),
    [
        (
            [{"meld_points": 130, "natural_canastas": 1}, {"meld_jokers": 5}],
            "0",
            False,
            "sides-1-meld_jokers",
            "Melded cards: the 2 packs hold only 4 of these cards",
        ),
        (
            [{"meld_points": 100}, {"meld_points": 50}],
            "none",
            True,
            "concealed",
            "Concealed: only the side that went out can go out concealed",
        ),
    ],
)
def test_rule_refusals_are_shown_at_their_field(
    app: Flask,
    client: FlaskClient,
    sides: list,
    went_out: str,
    concealed: bool,
    field_id: str,
    message: str,
) -> None:
    game_id = start(client)
    response = record(client, game_id, hand_form(sides, went_out, concealed))
    assert response.status_code == 422
    assert field_error(text(response), field_id) == message
    assert loaded(app, game_id).state.results == ()


def test_unreadable_hand_is_a_400_and_keeps_the_text(app: Flask, client: FlaskClient) -> None:
    game_id = start(client)
    data = hand_form([{"meld_points": "13O", "natural_canastas": 1}, {"hand_points": "85"}], "0")
    response = record(client, game_id, data)
    assert response.status_code == 400
    page = text(response)
    assert field_error(page, "sides-0-meld_points") == "Meld points: enter a whole number"
    assert input_value(page, "sides-0-meld_points") == "13O"
    assert loaded(app, game_id).state.results == ()


def test_who_went_out_must_be_chosen(app: Flask, client: FlaskClient) -> None:
    game_id = start(client)
    data = hand_form([{"meld_points": 100}, {"meld_points": 50}], "")
    response = record(client, game_id, data)
    assert response.status_code == 400
    assert field_error(text(response), "went_out") == "Went out: choose a side, or nobody"
    assert loaded(app, game_id).state.results == ()


def test_hostile_numbers_never_break_the_page(app: Flask, client: FlaskClient) -> None:
    game_id = start(client)
    # Unreadable numbers are 400; a negative one, or a canasta with no meld points, is 422.
    for value, status in (
        ("9" * 5000, 400),
        ("-5", 422),
        ("1e3", 400),
        ("١٢٠", 400),
        ("0x10", 400),
        (" ", 422),
    ):
        data = hand_form([{"meld_points": value, "natural_canastas": 1}, {}], "0")
        assert record(client, game_id, data).status_code == status, value
    assert loaded(app, game_id).state.results == ()


def test_hostile_choices_never_break_the_page(app: Flask, client: FlaskClient) -> None:
    game_id = start(client)
    for out in ("\u00b2", "99999999999999999999", "-1", "none\x00"):
        assert (
            client.get(f"/games/{game_id}/hands/new", query_string={"out": out}).status_code == 200
        )
    # A side that is not one is refused (400); a version that is not a number is no version
    # at all, so the hand is saved (303).
    for went_out, version, status in (
        ("\u00b2", "1", 400),
        ("7", "1", 400),
        ("0", "\u00b2", 303),
        ("0", "1" * 40, 303),
    ):
        data = dict(TYPICAL, went_out=went_out, version=version)
        assert record(client, game_id, data).status_code == status, (went_out, version)
    assert client.post(f"/games/{game_id}/undo", data={"version": "\u00b2"}).status_code == 303
    # An unknown variant or a target off the list is refused (422); the variant the rules were
    # shown for only decides which typed values are house rules (303: made).
    for extra, status in (
        ({"profile": "bogus"}, 422),
        ({"target": "abc"}, 422),
        ({"target": "1234"}, 422),
        ({"rules_for": "x"}, 303),
    ):
        made = client.post("/games/new", data=game_form([["A", "B"], ["C", "D"]], **extra))
        assert made.status_code == status, extra


# --- one-time token and version (issue 5) ----------------------------------------------------


def test_double_submission_records_once(app: Flask, client: FlaskClient) -> None:
    game_id = start(client)
    page = text(client.get(f"/games/{game_id}/hands/new?out=0"))
    data = dict(TYPICAL, token=hidden(page, "token"), version=hidden(page, "version"))
    first = record(client, game_id, data)
    second = record(client, game_id, data)  # the double tap, or the browser's resubmit
    assert first.status_code == second.status_code == 303
    assert len(loaded(app, game_id).state.results) == 1
    # Without the token, the same hand twice is two hands (they can really happen).
    data.pop("token")
    data.pop("version")
    record(client, game_id, data)
    assert len(loaded(app, game_id).state.results) == 2


def test_a_used_token_with_another_hand_is_not_recorded(app: Flask, client: FlaskClient) -> None:
    """The browser's back button, a changed value, the same token: asked to check first."""
    game_id = start(client)
    page = text(client.get(f"/games/{game_id}/hands/new?out=0"))
    data = dict(TYPICAL, token=hidden(page, "token"))
    assert record(client, game_id, data).status_code == 303
    changed = dict(data, **{"sides-1-hand_points": "90"})
    response = record(client, game_id, changed)
    assert response.status_code == 409
    refused = text(response)
    assert "already saved" in refused
    assert input_value(refused, "sides-1-hand_points") == "90"
    assert hidden(refused, "token") != data["token"]  # saving again is a new hand
    assert len(loaded(app, game_id).state.results) == 1


def test_stale_form_is_refused_with_input_kept(app: Flask, client: FlaskClient) -> None:
    game_id = start(client)
    page = text(client.get(f"/games/{game_id}/hands/new?out=0"))
    other_phone = app.test_client()
    assert record(other_phone, game_id, TYPICAL).status_code == 303
    mine = hand_form(
        [{"meld_points": 400, "natural_canastas": 1}, {"meld_points": 60, "hand_points": 20}],
        "0",
        token=hidden(page, "token"),
        version=hidden(page, "version"),
    )
    response = record(client, game_id, mine)
    assert response.status_code == 409
    stale = text(response)
    assert "another phone" in stale
    assert input_value(stale, "sides-0-meld_points") == "400"
    assert totals(stale) == [930, -35]  # the scoreboard as it is now
    assert hidden(stale, "version") == "2"
    assert len(loaded(app, game_id).state.results) == 1
    # Having seen the totals, saving again adds the hand.
    again = dict(mine, version=hidden(stale, "version"), token=hidden(stale, "token"))
    assert record(client, game_id, again).status_code == 303
    # A: 400 + 500 + 100 = 1000 -> 1 930; B: 60 - 20 = 40 -> 5.
    assert loaded(app, game_id).state.totals == (1930, 5)


# --- corrections ---------------------------------------------------------------------------


def test_correcting_a_hand_recomputes_what_follows(app: Flask, client: FlaskClient) -> None:
    game_id = start(client)
    record(client, game_id, TYPICAL)
    second = hand_form(
        [{"meld_points": 100, "hand_points": 10}, {"meld_points": 300, "natural_canastas": 1}],
        "1",
    )
    record(client, game_id, second)
    # After hand 2: A 930 + 90 = 1 020; B -35 + 300 + 500 + 100 = 865.
    assert loaded(app, game_id).state.totals == (1020, 865)
    form = text(client.get(f"/games/{game_id}/hands/1/edit"))
    assert input_value(form, "sides-0-meld_points") == "130"
    assert input_value(form, "sides-0-red_threes") == "2"
    # Correct hand 1: A had a mixed canasta, not a natural one (300 instead of 500).
    fixed = dict(TYPICAL, version=hidden(form, "version"))
    fixed.pop("sides-0-natural_canastas")
    fixed["sides-0-mixed_canastas"] = "1"
    response = client.post(f"/games/{game_id}/hands/1/edit", data=fixed)
    assert response.status_code == 303
    page = text(client.get(f"/games/{game_id}"))
    assert "Hand 1 corrected" in page
    # Hand 1: A 130 + 300 + 200 + 100 = 730; hand 2 adds 90 -> 820. B unchanged: 865.
    assert totals(page) == [820, 865]
    assert minimums(page) == [50, 50]


def test_correction_that_ends_the_game_early_is_accepted(app: Flask, client: FlaskClient) -> None:
    game_id = start(client, target="1000")
    record(client, game_id, TYPICAL)  # 930, -35
    record(client, game_id, hand_form([{"meld_points": 50}, {"meld_points": 50}], "none"))
    form = text(client.get(f"/games/{game_id}/hands/1/edit"))
    # Making hand 1 reach 1 000 ends the game there (§2c): hand 2 stays, counting for nothing.
    bigger = dict(TYPICAL, version=hidden(form, "version"))
    bigger["sides-0-meld_points"] = "200"  # 200 + 500 + 200 + 100 = 1 000
    response = client.post(f"/games/{game_id}/hands/1/edit", data=bigger)
    assert response.status_code == 303
    state = loaded(app, game_id).state
    assert (state.totals, state.ended_at, state.after_end) == ((1000, -35), 1, (2,))
    board = text(client.get(f"/games/{game_id}"))
    assert "Winner: Ann &amp; Bob" in board
    assert 'class="hand-row after-end"' in board
    assert "Played after the end: counts for nothing" in board
    assert "Remove the hand played after the end" in board


def test_correcting_a_hand_removed_on_another_phone(app: Flask, client: FlaskClient) -> None:
    game_id = start(client)
    record(client, game_id, TYPICAL)
    record(client, game_id, TYPICAL)
    form = text(client.get(f"/games/{game_id}/hands/2/edit"))
    other = app.test_client()
    confirm = text(other.get(f"/games/{game_id}/undo"))
    other.post(f"/games/{game_id}/undo", data={"version": hidden(confirm, "version")})
    fixed = dict(TYPICAL, version=hidden(form, "version"))
    response = client.post(f"/games/{game_id}/hands/2/edit", data=fixed)
    assert response.status_code == 409
    assert "removed on another phone" in text(response)
    assert input_value(text(response), "sides-0-meld_points") == "130"
    assert totals(text(response)) == [930, -35]
    assert len(loaded(app, game_id).state.results) == 1


def test_a_correction_sent_twice_is_not_a_conflict(app: Flask, client: FlaskClient) -> None:
    game_id = start(client)
    record(client, game_id, TYPICAL)
    form = text(client.get(f"/games/{game_id}/hands/1/edit"))
    fixed = dict(TYPICAL, version=hidden(form, "version"))
    fixed["sides-1-hand_points"] = "95"
    assert client.post(f"/games/{game_id}/hands/1/edit", data=fixed).status_code == 303
    assert client.post(f"/games/{game_id}/hands/1/edit", data=fixed).status_code == 303
    assert loaded(app, game_id).state.totals == (930, -45)


def test_undo_asks_then_removes_the_last_hand(app: Flask, client: FlaskClient) -> None:
    game_id = start(client)
    record(client, game_id, TYPICAL)
    record(client, game_id, TYPICAL)
    confirm = text(client.get(f"/games/{game_id}/undo"))
    assert "Undo hand 2?" in confirm
    assert len(loaded(app, game_id).state.results) == 2  # asking changes nothing
    version = hidden(confirm, "version")
    response = client.post(f"/games/{game_id}/undo", data={"version": version})
    assert response.status_code == 303
    assert loaded(app, game_id).state.totals == (930, -35)
    # The same confirmation sent again (a double tap) is stale: nothing more is undone.
    client.post(f"/games/{game_id}/undo", data={"version": version})
    assert len(loaded(app, game_id).state.results) == 1
    assert "nothing was undone" in text(client.get(f"/games/{game_id}"))


def test_removing_a_hand_in_the_middle(app: Flask, client: FlaskClient) -> None:
    game_id = start(client)
    record(client, game_id, TYPICAL)
    record(client, game_id, hand_form([{"meld_points": 100}, {"meld_points": 0}], "none"))
    confirm = text(client.get(f"/games/{game_id}/hands/1/delete"))
    assert "Remove hand 1?" in confirm
    response = client.post(
        f"/games/{game_id}/hands/1/delete", data={"version": hidden(confirm, "version")}
    )
    assert response.status_code == 303
    assert loaded(app, game_id).state.totals == (100, 0)


def test_deleting_a_game_asks_first(app: Flask, client: FlaskClient) -> None:
    game_id = start(client, name="Gone soon")
    confirm = text(client.get(f"/games/{game_id}/delete"))
    assert "Delete this game?" in confirm
    assert loaded(app, game_id)
    response = client.post(f"/games/{game_id}/delete", data={})
    assert response.status_code == 303
    with app.app_context(), pytest.raises(store.NotFound):
        store.load_game(get_db(), game_id)
    home = text(client.get("/"))
    assert "Game “Gone soon” deleted." in home
    assert f"/games/{game_id}" not in home
    # A second tap on the button finds nothing to delete, and says nothing alarming.
    assert client.post(f"/games/{game_id}/delete", data={}).status_code == 303


def test_finished_game_takes_no_further_hand(app: Flask, client: FlaskClient) -> None:
    game_id = start(client, target="1000")
    # A: 900 + 2 x 500 + 100 = 2 000 -> reaches 1 000 and wins.
    win = hand_form(
        [{"meld_points": 900, "natural_canastas": 2}, {"meld_points": 50, "hand_points": 20}], "0"
    )
    record(client, game_id, win)
    board = text(client.get(f"/games/{game_id}"))
    assert "Winner: Ann &amp; Bob" in board
    assert "hands/new" not in board
    response = client.get(f"/games/{game_id}/hands/new")
    assert response.status_code == 303
    assert "This game is over" in text(client.get(f"/games/{game_id}"))
    refused = record(client, game_id, TYPICAL)
    assert refused.status_code == 409
    assert "this game is over" in text(refused)
    assert len(loaded(app, game_id).state.results) == 1


def test_tie_at_the_top_asks_for_one_more_hand(client: FlaskClient) -> None:
    game_id = start(client, target="1000")
    # A: 400 + 500 + 200 + 100 = 1 200; B: 500 + 500 + 200 = 1 200. Both past 1 000, tied.
    tie = hand_form(
        [
            {"meld_points": 400, "natural_canastas": 1, "red_threes": 2},
            {"meld_points": 500, "natural_canastas": 1, "red_threes": 2},
        ],
        "0",
    )
    record(client, game_id, tie)
    board = text(client.get(f"/games/{game_id}"))
    assert "Tied at the top: one more hand." in board
    assert "Winner" not in board
    assert f"/games/{game_id}/hands/new?out=0" in board


def test_five_players_show_who_sits_out(client: FlaskClient) -> None:
    players = [["Ann", "Bob", "Cat"], ["Dan", "Eve"]]
    game_id = start(client, players, profile="five-player")
    board = text(client.get(f"/games/{game_id}"))
    assert 'class="sitting-out">' in board


# --- not found, security ---------------------------------------------------------------------


@pytest.mark.parametrize(
    "path",
    ["/games/nope", "/games/nope/hands/new", "/games/nope/undo", "/games/nope/delete"],
)
def test_unknown_game_is_a_404_page(client: FlaskClient, path: str) -> None:
    response = client.get(path)
    assert response.status_code == 404
    assert "Nothing here" in text(response)


def test_unknown_hand_is_a_404(client: FlaskClient) -> None:
    game_id = start(client)
    assert client.get(f"/games/{game_id}/hands/1/edit").status_code == 404
    assert client.get(f"/games/{game_id}/hands/1/delete").status_code == 404


def test_names_are_escaped_everywhere(app: Flask, client: FlaskClient) -> None:
    game_id = start(client, [["Ann", XSS], ["Cy", "Dee"]], name=XSS)
    record(client, game_id, TYPICAL)
    for path in (
        "/",
        f"/games/{game_id}",
        f"/games/{game_id}/hands/new?out=0",
        f"/games/{game_id}/hands/1/edit",
        f"/games/{game_id}/undo",
        f"/games/{game_id}/delete",
    ):
        page = text(client.get(path))
        assert XSS not in page, path
        assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page, path


@pytest.fixture
def csrf_app(tmp_path: Path) -> Flask:
    return create_app(
        {
            "TESTING": True,
            "DATABASE": str(tmp_path / "csrf.sqlite3"),
            "SECRET_KEY": "csrf-secret",
            "WTF_CSRF_ENABLED": True,
        }
    )


def test_every_form_needs_its_csrf_token(csrf_app: Flask) -> None:
    client = csrf_app.test_client()
    refused = client.post("/games/new", data=game_form([["Ann", "Bob"], ["Cy", "Dee"]]))
    assert refused.status_code == 400
    with csrf_app.app_context():
        assert get_db()["games"].count == 0
    token = hidden(text(client.get("/games/new")), "csrf_token")
    data = game_form([["Ann", "Bob"], ["Cy", "Dee"]], csrf_token=token)
    created = client.post("/games/new", data=data)
    assert created.status_code == 303
    game_id = created.headers["Location"].rsplit("/", 1)[1]
    # A hand, an undo, a deletion: each refused without the token, nothing changed.
    assert record(client, game_id, TYPICAL).status_code == 400
    form = text(client.get(f"/games/{game_id}/hands/new?out=0"))
    ok = dict(TYPICAL, csrf_token=hidden(form, "csrf_token"), token=hidden(form, "token"))
    assert record(client, game_id, ok).status_code == 303
    assert client.post(f"/games/{game_id}/undo", data={}).status_code == 400
    assert client.post(f"/games/{game_id}/delete", data={}).status_code == 400
    with csrf_app.app_context():
        assert len(store.load_game(get_db(), game_id).state.results) == 1
    # The confirmation pages carry the token.
    confirm = text(client.get(f"/games/{game_id}/undo"))
    assert re.search(r'name="csrf_token" value="[^"]+"', confirm)


@pytest.mark.parametrize("language", ["en", "fr"])
def test_pages_stay_light(client: FlaskClient, language: str) -> None:
    """Each page with the CSS and JS it loads, as a phone downloads them cold (gzip): under
    20 KB, though the stylesheets and scripts are written to be read (they are sent
    minified)."""
    client.set_cookie("lang", language)
    game_id = start(client)
    for _ in range(5):
        record(client, game_id, TYPICAL)
    gzip_only = {"Accept-Encoding": "gzip"}
    board = f"/games/{game_id}"
    pages = ("/", "/games/new", board, f"{board}/hands/new?out=0", f"{board}/hands/1/edit")
    for path in (*pages, f"{board}/undo"):
        response = client.get(path, headers=gzip_only)
        assert response.headers["Content-Encoding"] == "gzip", path
        page = gzip.decompress(response.data)
        assets = re.findall(rb'(?:src|href)="/static/([\w.-]+)"', page)
        assert b"app.css" in assets
        sent = len(response.data)
        for asset in assets:
            with client.get(f"/static/{asset.decode()}", headers=gzip_only) as answer:
                sent += len(answer.data)
        assert sent < 20 * 1024, (path, sent)


def test_store_side_of_a_shared_game(app: Flask) -> None:
    """A game made elsewhere (the API) shows on the pages the same way."""
    with app.app_context():
        game_id = store.create_game(
            get_db(),
            name=None,
            profile_key="classic",
            target=None,
            sides=[Side("North", ("Ann", "Bob")), Side("South", ("Cy", "Dee"))],
        )
        store.record_hand(
            get_db(),
            game_id,
            Hand(
                sides=(
                    SideHand(meld_points=130, natural_canastas=1, red_threes=2),
                    SideHand(meld_points=50, hand_points=85),
                ),
                went_out=0,
            ),
        )
    page = text(app.test_client().get(f"/games/{game_id}"))
    assert totals(page) == [930, -35]
    assert "North / South" in page


def test_a_scoreboard_seen_before_a_correction_shows_the_corrected_totals(client):
    # The hands list and the replayed game are cached per game version: a correction made
    # elsewhere (here through the API) must never leave the old numbers on the page.
    game_id = start(client)
    record(client, game_id, TYPICAL)
    client.get(f"/games/{game_id}")  # shows the flashed messages once
    first = text(client.get(f"/games/{game_id}"))
    assert totals(first) == [930, -35]
    assert text(client.get(f"/games/{game_id}")) == first  # served again from the cache
    corrected = {
        "went_out": None,
        "concealed": False,
        "sides": [
            {"meld_points": 130, "natural_canastas": 1, "red_threes": 2},
            {"meld_points": 50, "hand_points": 85},
        ],
    }
    assert put_hand(client, f"/api/games/{game_id}/hands/1", json=corrected).status_code == 200
    page = text(client.get(f"/games/{game_id}"))
    # Without going out A loses its 100: 130 + 500 + 200 = 830; B is unchanged at -35.
    assert totals(page) == [830, -35]
    assert "Nobody went out" in page


def test_pages_are_sent_without_the_templates_indentation(client):
    # Every byte counts on a phone at the table: indentation is for the templates' readers.
    game_id = start(client)
    for url in ("/", "/games/new", f"/games/{game_id}", f"/games/{game_id}/hands/new"):
        page = client.get(url).get_data(as_text=True)
        assert "<main" in page
        assert not re.search(r"\n[ \t]+", page), url


def test_the_hand_points_label_reads_the_same_on_a_400_and_a_422(client: FlaskClient) -> None:
    game_id = start(client)
    typed = {"sides-0-meld_points": "130", "sides-1-meld_points": "50"}
    unreadable = record(client, game_id, {**typed, "went_out": "0", "sides-1-hand_points": "x"})
    negative = record(client, game_id, {**typed, "went_out": "0", "sides-1-hand_points": "-5"})
    assert (unreadable.status_code, negative.status_code) == (400, 422)
    assert (
        field_error(text(unreadable), "sides-1-hand_points") == "Left in hand: enter a whole number"
    )
    assert field_error(text(negative), "sides-1-hand_points") == "Left in hand: cannot be negative"
