"""Adjustments and melds rank by rank through the pages, JavaScript off (issue 22 §2, §3):
the hand form, the scoreboard's breakdown, the CSV, the club's records and the PDF sheet.

Expected scores worked out by hand from the rule book (kings 10, sevens 5, aces and twos 20,
jokers 50; canastas 500 natural, 300 mixed; going out 100).
"""

from __future__ import annotations

import csv
import io
import re

import pdfplumber
from flask import Flask
from flask.testing import FlaskClient
from test_games_pages import (
    field_error,
    hand_form,
    input_value,
    loaded,
    record,
    start,
    text,
    totals,
)


def breakdown_rows(page: str) -> dict[str, list[str]]:
    breakdown = page[page.index('class="breakdown') :]  # "breakdown n2": its sides' count
    breakdown = breakdown[: breakdown.index("</table>")]
    return {
        label: re.findall(r"<td>([^<]*)</td>", row)
        for label, row in re.findall(r"<th>([^<]+)</th>(.*?)</tr>", breakdown)
    }


# --- adjustments -----------------------------------------------------------------------------


def test_the_adjustment_is_folded_in_the_form_and_open_on_a_correction(
    app: Flask, client: FlaskClient
) -> None:
    game_id = start(client)
    page = text(client.get(f"/games/{game_id}/hands/new"))
    assert '<details class="counter adjust" data-counter="adjustment">' in page
    # A penalty typed without a sign is taken away: the chip says so by default.
    data = hand_form(
        [
            {"meld_points": 60, "hand_points": 20, "adjustment": 100,
             "adjustment_note": "took the pile illegally"},
            {"meld_points": 60},
        ],
        "none",
    )  # fmt: skip
    assert record(client, game_id, data).status_code == 303
    assert loaded(app, game_id).state.totals == (-60, 60)
    page = text(client.get(f"/games/{game_id}/hands/1/edit"))
    assert '<details class="counter adjust" data-counter="adjustment" open>' in page
    assert input_value(page, "sides-0-adjustment") == "100"
    assert input_value(page, "sides-0-adjustment_note") == "took the pile illegally"
    assert re.search(r'name="sides-0-adjustment_sign" value="-" checked', page)


def test_an_added_adjustment_and_a_typed_sign(app: Flask, client: FlaskClient) -> None:
    game_id = start(client)
    data = hand_form(
        [
            {"meld_points": 60, "adjustment_sign": "+", "adjustment": 50},
            {"meld_points": 60, "adjustment_sign": "+", "adjustment": "-25"},
        ],
        "none",
    )
    assert record(client, game_id, data).status_code == 303
    assert loaded(app, game_id).state.totals == (110, 35)


def test_a_bad_adjustment_is_refused_at_its_box_keeping_what_was_typed(
    app: Flask, client: FlaskClient
) -> None:
    game_id = start(client)
    data = hand_form(
        [{"meld_points": 60, "adjustment": 7, "adjustment_note": "oops"}, {"meld_points": 60}],
        "none",
    )
    response = record(client, game_id, data)
    assert response.status_code == 422
    page = text(response)
    assert field_error(page, "sides-0-adjustment").startswith("Penalty or correction:")
    assert '<details class="counter adjust" data-counter="adjustment" open>' in page
    assert input_value(page, "sides-0-adjustment_note") == "oops"
    assert loaded(app, game_id).state.results == ()


def test_the_scoreboard_csv_and_sheet_show_the_adjustment(app: Flask, client: FlaskClient) -> None:
    game_id = start(client)
    data = hand_form(
        [{"meld_points": 60, "adjustment": 100, "adjustment_note": "red three kept"},
         {"meld_points": 60}],
        "none",
    )  # fmt: skip
    assert record(client, game_id, data).status_code == 303
    page = text(client.get(f"/games/{game_id}"))
    assert totals(page) == [-40, 60]
    rows = breakdown_rows(page)
    assert rows["Penalty or correction"] == ["\u2212100", "0"]
    assert rows["Hand"] == ["\u221240", "60"]
    assert "red three kept" in page
    # The CSV: the adjustment and its note have their columns; the hand score holds it.
    sheet = client.get(f"/games/{game_id}/hands.csv")
    assert sheet.status_code == 200
    first = next(csv.DictReader(io.StringIO(text(sheet))))
    assert (first["adjustment"], first["adjustment note"], first["hand score"]) == (
        "-100",
        "red three kept",
        "-40",
    )
    # The PDF sheet: the score marked, and the legend says where, how much and why.
    pdf = client.get(f"/games/{game_id}/sheet.pdf")
    assert pdf.status_code == 200
    with pdfplumber.open(io.BytesIO(pdf.data)) as document:
        words = " ".join(page.extract_text() for page in document.pages)
    words = " ".join(words.split())
    assert "Penalties and corrections: hand 1, Ann & Bob \u2212100 (red three kept)." in words
    assert "\u221240±" in words or "\u221240 ±" in words


# --- melds rank by rank ----------------------------------------------------------------------


def melds_side(rows: list[tuple[str, int, int, int]], **extra: object) -> dict[str, object]:
    side: dict[str, object] = dict(extra)
    for i, (rank, naturals, jokers, twos) in enumerate(rows):
        side.update(
            {f"melds-{i}-rank": rank, f"melds-{i}-naturals": naturals,
             f"melds-{i}-jokers": jokers, f"melds-{i}-twos": twos}
        )  # fmt: skip
    return side


def test_melds_typed_rank_by_rank_decide_the_hand(app: Flask, client: FlaskClient) -> None:
    game_id = start(client)
    page = text(client.get(f"/games/{game_id}/hands/new"))
    assert '<details class="counter by-rank" data-counter="melds">' in page
    assert 'name="sides-0-melds-1-naturals"' in page and 'name="add_meld" value="0"' in page
    # Kings natural (70 + 500), sevens mixed (25 + 50 + 20 + 300), an empty row, aces (60);
    # whatever the boxes beside them hold, the melds decide.
    side = melds_side(
        [("K", 7, 0, 0), ("7", 5, 1, 1), ("", 0, 0, 0), ("A", 3, 0, 0)],
        meld_points=999, natural_canastas=3, red_threes=1,
    )  # fmt: skip
    data = hand_form([side, {"meld_points": 60, "hand_points": 30}], "0")
    assert record(client, game_id, data).status_code == 303
    game = loaded(app, game_id)
    assert game.state.totals == (225 + 800 + 100 + 100, 30)
    # The correction shows the melds again, in order, in an open list.
    page = text(client.get(f"/games/{game_id}/hands/1/edit"))
    assert '<details class="counter by-rank" data-counter="melds" open>' in page
    assert input_value(page, "sides-0-melds-1-naturals") == "5"
    assert input_value(page, "sides-0-melds-2-naturals") == "3"
    assert input_value(page, "sides-0-melds-2-rank") == "A"


def test_a_rank_is_typed_in_the_readers_letters_and_a_bad_one_is_refused(
    app: Flask, client: FlaskClient
) -> None:
    game_id = start(client)
    # "x" is no rank; a rank typed alone is a meld to check, never dropped unseen.
    side = melds_side([("x", 7, 0, 0)])
    response = record(client, game_id, hand_form([side, {"meld_points": 60}], "0"))
    assert response.status_code == 422
    page = text(response)
    assert field_error(page, "sides-0-melds-0-rank").startswith("Rank: must be a rank")
    assert input_value(page, "sides-0-melds-0-rank") == "x"
    side = melds_side([("K", 7, 0, 0), ("Q", 0, 0, 0)])
    response = record(client, game_id, hand_form([side, {"meld_points": 60}], "0"))
    assert field_error(text(response), "sides-0-melds-1-naturals").startswith("Natural cards:")
    assert loaded(app, game_id).state.results == ()
    # In French the king is R, the queen D (or their names); the correction shows the letters.
    side = melds_side([("r", 7, 0, 0), ("Dame", 3, 0, 0), ("10", 3, 0, 0)])
    data = hand_form([side, {"meld_points": 60}], "0")
    french = {"Accept-Language": "fr-FR"}
    assert client.post(f"/games/{game_id}/hands/new", data=data, headers=french).status_code == 303
    saved = loaded(app, game_id).state.results[0].hand.sides[0]
    assert [meld.rank for meld in saved.melds] == ["K", "Q", "10"]
    page = text(client.get(f"/games/{game_id}/hands/1/edit", headers=french))
    assert [input_value(page, f"sides-0-melds-{j}-rank") for j in range(3)] == ["R", "D", "10"]


def test_a_bad_meld_is_refused_at_its_own_row(app: Flask, client: FlaskClient) -> None:
    game_id = start(client)
    # The second row typed (third row of the form) has one natural card and two jokers.
    side = melds_side([("K", 7, 0, 0), ("", 0, 0, 0), ("8", 1, 2, 0)])
    response = record(client, game_id, hand_form([side, {"meld_points": 60}], "0"))
    assert response.status_code == 422
    page = text(response)
    error = field_error(page, "sides-0-melds-2-naturals")
    assert error == "Natural cards: a meld needs at least two natural cards"
    assert input_value(page, "sides-0-melds-2-jokers") == "2"
    assert loaded(app, game_id).state.results == ()


def test_add_a_meld_without_javascript_adds_a_row_and_saves_nothing(
    app: Flask, client: FlaskClient
) -> None:
    game_id = start(client)
    side = melds_side([("K", 7, 0, 0), ("A", 3, 0, 0), ("Q", 3, 0, 0)])
    response = record(client, game_id, hand_form([side, {}], "", add_meld="0"))
    assert response.status_code == 200
    page = text(response)
    # Three rows are offered at first; "Add a meld" gives that side a fourth.
    assert 'name="sides-0-melds-3-naturals"' in page
    assert 'name="sides-1-melds-2-naturals"' in page
    assert 'name="sides-1-melds-3-naturals"' not in page
    assert input_value(page, "sides-0-melds-1-naturals") == "3"
    assert '<details class="counter by-rank" data-counter="melds" open>' in page
    assert loaded(app, game_id).state.results == ()
    # Enter in a box saves the hand: the form's first button is the plain save.
    assert page.index("default-submit") < page.index('name="add_meld"')
