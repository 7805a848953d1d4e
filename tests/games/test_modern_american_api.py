"""Modern American Canasta through the JSON API (issue 31): a game of the family, its hands in
the API's names (canastas by kind, threes by colour, unfinished melds, players holding, a
special hand), refusals at their field, and export, import and CSV round trips.

The arithmetic is the engine's (tests/core/test_modern_american.py); the sums here are the
issue's worked examples, written out in the comments.
"""

from __future__ import annotations

import csv
import io
import re
from typing import Any

import pdfplumber
import pytest
from flask.testing import FlaskClient

FOUR = [{"players": ["Ann", "Bob"]}, {"players": ["Cy", "Di"]}]
KINDS = ("natural", "mixed", "sevens", "aces", "wild", "wild_four_jokers", "deuces")


def create(client: FlaskClient, **body: Any) -> dict[str, Any]:
    response = client.post("/api/games", json={"sides": FOUR, **body})
    assert response.status_code == 201, response.get_json()
    return response.get_json()


def canastas(**counts: int) -> dict[str, int]:
    return {kind: counts.get(kind, 0) for kind in KINDS}


# The issue's first worked example: a natural canasta of kings (70 + 500) and a canasta of
# sevens (35 + 2 500), two red threes (300), one black three (100), went out (100), the
# partner holding a queen (-10): 3 595.
WINNERS = {
    "meld_points": 105,
    "canastas": canastas(natural=1, sevens=1),
    "red_threes": 2,
    "black_threes": 1,
    "hand_points": 10,
}
# The second: no canasta, melded 90, two red threes, holding 40: -90 - 300 - 40 = -430.
LOSERS = {"meld_points": 90, "canastas": canastas(), "red_threes": 2, "hand_points": 40}
# Both sides melded less than the minimum of 125 (a sum the issue picked, not a deal): the table
# confirms it (§2b), as it would at the table.
WORKED = {"went_out": 0, "sides": [WINNERS, LOSERS], "confirm": ["opening_minimum"]}


def post(client: FlaskClient, game_id: str, body: dict[str, Any], status: int = 201) -> Any:
    response = client.post(f"/api/games/{game_id}/hands", json=body)
    assert response.status_code == status, response.get_json()
    return response.get_json()


def test_every_game_names_its_family(client: FlaskClient) -> None:
    assert create(client)["family"] == "classic"
    game = create(client, family="modern-american")
    assert game["family"] == "modern-american"
    assert game["profile"] == "four-player"
    assert game["target"] == 8500
    assert [side["opening_minimum"] for side in game["sides"]] == [125, 125]
    again = client.get(f"/api/games/{game['id']}").get_json()
    assert again["family"] == "modern-american"


def test_an_unknown_family_is_refused_at_its_field(client: FlaskClient) -> None:
    response = client.post("/api/games", json={"sides": FOUR, "family": "bridge"})
    assert response.status_code == 422
    assert response.get_json()["field"] == "family"
    response = client.post("/api/games", json={"sides": FOUR, "family": 3})
    assert response.status_code == 400
    assert response.get_json()["field"] == "family"


def test_the_worked_examples_score_as_the_issue_adds_them(client: FlaskClient) -> None:
    game = create(client, family="modern-american")
    game = post(client, game["id"], WORKED)
    hand = game["hands"][0]
    us, them = hand["sides"]
    assert us["score"] == {
        "cards": 105,
        "canastas": 3000,
        "red_threes": 300,
        "going_out": 100,
        "hand": -10,
        "adjustment": 0,
        "black_threes": 100,
        "penalties": 0,
        "special": 0,
        "total": 3595,
    }
    assert them["score"]["total"] == -430
    assert them["score"]["cards"] == -90
    assert them["score"]["red_threes"] == -300
    assert [side["total"] for side in game["sides"]] == [3595, -430]
    # 3 595 is past 3 000: 155; below 0: 125 (the family's own table).
    assert [side["opening_minimum"] for side in game["sides"]] == [155, 125]
    # The hand reads back in the names it was sent in, and can be sent back as it is.
    assert us["canastas"] == WINNERS["canastas"]
    assert us["black_threes"] == 1
    assert "natural_canastas" not in us


def test_a_hand_read_back_can_be_sent_back(client: FlaskClient) -> None:
    game = create(client, family="modern-american")
    game = post(client, game["id"], WORKED)
    hand = game["hands"][0]
    url = f"/api/games/{game['id']}/hands/1"
    etag = client.get(f"/api/games/{game['id']}").headers["ETag"]
    body = {**hand, "confirm": ["opening_minimum"]}
    response = client.put(url, json=body, headers={"If-Match": etag})
    assert response.status_code == 200, response.get_json()
    assert response.get_json()["hands"][0]["sides"] == hand["sides"]


def test_penalties_and_a_special_hand(client: FlaskClient) -> None:
    game = create(client, family="modern-american")
    body = {
        "went_out": 1,
        "sides": [
            {
                "meld_points": 130,
                "unfinished": {"sevens": 1},
                "players_holding": {"aces": 1},
                "hand_points": 45,
            },
            {"special_hand": "straight"},
        ],
    }
    game = post(client, game["id"], body)
    us, them = game["hands"][0]["sides"]
    # No canasta: -130 for the cards, -2 500 the unfinished sevens, -1 500 the aces held,
    # -45 in hand.
    assert us["score"]["penalties"] == -4000
    assert us["score"]["total"] == -130 - 4000 - 45
    assert us["unfinished"] == {"sevens": 1}
    assert us["players_holding"] == {"aces": 1}
    assert them["special_hand"] == "straight"
    assert them["score"]["special"] == them["score"]["total"] == 3000


@pytest.mark.parametrize(
    ("side", "status", "field"),
    [
        ({"meld_points": 60, "canastas": {"samba": 1}}, 422, "sides[0].canastas.samba"),
        ({"meld_points": 60, "canastas": 2}, 400, "sides[0].canastas"),
        ({"meld_points": 60, "canastas": {"sevens": "1"}}, 400, "sides[0].canastas.sevens"),
        ({"meld_points": 60, "natural_canastas": 1}, 400, "sides[0].natural_canastas"),
        ({"meld_points": 60, "unfinished": {"kings": 1}}, 422, "sides[0].unfinished.kings"),
        ({"meld_points": 60, "unfinished": [1]}, 400, "sides[0].unfinished"),
        ({"meld_points": 60, "players_holding": {"sevens": 3}}, 422, None),
        ({"meld_points": 60, "special_hand": 1}, 400, "sides[0].special_hand"),
        ({"meld_points": 60, "black_threes": 5}, 422, "sides[0].black_threes"),
        ({"meld_points": 60, "red_threes": 9}, 422, "sides[0].red_threes"),
    ],
)
def test_refused_at_its_field(
    client: FlaskClient, side: dict[str, Any], status: int, field: str | None
) -> None:
    game = create(client, family="modern-american")
    body = {"went_out": None, "sides": [side, {"meld_points": 50}]}
    response = client.post(f"/api/games/{game['id']}/hands", json=body)
    assert response.status_code == status, response.get_json()
    assert response.get_json()["field"] == (field or "sides[0].players_holding.sevens")
    assert client.get(f"/api/games/{game['id']}").get_json()["hands"] == []


def test_going_out_with_one_canasta_is_refused_at_the_canastas(client: FlaskClient) -> None:
    game = create(client, family="modern-american")
    side = {"meld_points": 70, "canastas": canastas(natural=1)}
    body = {"went_out": 0, "sides": [side, {"meld_points": 50}]}
    response = client.post(f"/api/games/{game['id']}/hands", json=body)
    assert response.status_code == 422
    assert response.get_json()["field"] == "sides[0].canastas.mixed"


# Melds of wild cards only, meld by meld (§5a). Side 0 went out: a joker and six twos close a
# wild canasta (50 + 120 + 2 000), seven kings a natural one (70 + 500), out 100: 2 840.
# Side 1: three twos left unfinished cost their cards and 2 000, seven queens (70 + 500),
# three fives (15), 10 in hand: 60 + 70 + 15 + 500 - 2 000 - 10 = -1 365.
def wild(jokers: int, twos: int, naturals: int = 0) -> dict[str, Any]:
    return {"rank": "wild", "naturals": naturals, "jokers": jokers, "twos": twos}


WILD_MELDS = {
    "went_out": 0,
    "sides": [
        {"melds": [wild(1, 6), {"rank": "K", "naturals": 7}]},
        {
            "melds": [wild(0, 3), {"rank": "Q", "naturals": 7}, {"rank": "5", "naturals": 3}],
            "hand_points": 10,
        },
    ],
}


def test_a_meld_of_wild_cards_is_sent_meld_by_meld(client: FlaskClient) -> None:
    game = create(client, family="modern-american")
    game = post(client, game["id"], WILD_MELDS)
    us, them = game["hands"][0]["sides"]
    assert (us["score"]["cards"], us["score"]["canastas"]) == (240, 2500)
    assert (them["score"]["penalties"], them["score"]["canastas"]) == (-2000, 500)
    assert [side["total"] for side in game["sides"]] == [2840, -1365]
    assert us["melds"][0] == wild(1, 6)
    # Its export imports back to the same hand.
    imported = client.post(
        "/api/games/import", json=client.get(f"/api/games/{game['id']}/export").get_json()
    )
    assert imported.status_code == 201, imported.get_json()
    assert imported.get_json()["hands"] == game["hands"]


@pytest.mark.parametrize(
    ("meld", "field", "words"),
    [
        (wild(0, 3, naturals=1), "naturals", "no natural card"),
        (wild(2, 6), "jokers", "at most seven cards"),
        (wild(1, 1), "jokers", "three"),
    ],
)
def test_a_bad_meld_of_wild_cards_is_refused_at_its_field(
    client: FlaskClient, meld: dict[str, Any], field: str, words: str
) -> None:
    game = create(client, family="modern-american")
    body = {"went_out": None, "sides": [{"melds": [meld]}, {"meld_points": 50}]}
    response = client.post(f"/api/games/{game['id']}/hands", json=body)
    assert response.status_code == 422, response.get_json()
    assert response.get_json()["field"] == f"sides[0].melds[0].{field}"
    assert words in response.get_json()["error"]
    assert client.get(f"/api/games/{game['id']}").get_json()["hands"] == []


def test_a_classic_game_refuses_a_meld_of_wild_cards_at_its_rank(client: FlaskClient) -> None:
    game = create(client)
    response = client.post(f"/api/games/{game['id']}/hands", json=WILD_MELDS)
    assert response.status_code == 422
    assert response.get_json()["field"] == "sides[0].melds[0].rank"
    assert response.get_json()["error"].startswith("must be a rank")
    assert client.get(f"/api/games/{game['id']}").get_json()["hands"] == []


def test_classic_hands_keep_their_names(client: FlaskClient) -> None:
    game = create(client)
    side = {"meld_points": 90, "natural_canastas": 1, "red_threes": 1, "hand_points": 0}
    game = post(client, game["id"], {"went_out": 0, "sides": [side, {"meld_points": 50}]})
    us = game["hands"][0]["sides"][0]
    assert us["natural_canastas"] == 1 and us["mixed_canastas"] == 0
    assert "canastas" not in {k for k in us if k != "score"}
    assert set(us["score"]) == {
        "cards",
        "canastas",
        "red_threes",
        "going_out",
        "hand",
        "adjustment",
        "total",
    }
    response = client.post(
        f"/api/games/{game['id']}/hands",
        json={"sides": [{"meld_points": 50, "black_threes": 1}, {"meld_points": 50}]},
    )
    assert response.status_code == 400
    assert response.get_json()["field"] == "sides[0].black_threes"


def test_an_export_imports_back_to_the_same_game(client: FlaskClient) -> None:
    game = create(client, family="modern-american", name="Tuesday")
    post(client, game["id"], WORKED)
    exported = client.get(f"/api/games/{game['id']}/export").get_json()
    assert exported["family"] == "modern-american"
    imported = client.post("/api/games/import", json=exported)
    assert imported.status_code == 201, imported.get_json()
    copy = imported.get_json()
    assert copy["family"] == "modern-american"
    assert copy["hands"] == client.get(f"/api/games/{game['id']}").get_json()["hands"]
    assert [side["total"] for side in copy["sides"]] == [3595, -430]


def test_the_csv_has_a_column_per_kind_and_the_family_parts(client: FlaskClient) -> None:
    game = create(client, family="modern-american")
    post(client, game["id"], WORKED)
    response = client.get(f"/games/{game['id']}/hands.csv")
    assert response.status_code == 200
    rows = list(csv.DictReader(io.StringIO(response.get_data(as_text=True))))
    assert len(rows) == 2
    winners = rows[0]
    assert winners["sevens canastas"] == "1"
    assert winners["black threes"] == "1"
    assert winners["hand score"] == "3595"


def test_classic_takes_its_canastas_in_the_shared_names_too(client: FlaskClient) -> None:
    game = create(client)
    side = {"meld_points": 90, "canastas": {"natural": 1}, "red_threes": 1, "hand_points": 0}
    game = post(client, game["id"], {"went_out": 0, "sides": [side, {"meld_points": 50}]})
    us = game["hands"][0]["sides"][0]
    assert (us["natural_canastas"], us["mixed_canastas"]) == (1, 0)
    assert us["score"]["canastas"] == 500
    twice = {"meld_points": 90, "canastas": {"natural": 1}, "natural_canastas": 1}
    response = client.post(
        f"/api/games/{game['id']}/hands", json={"sides": [twice, {"meld_points": 50}]}
    )
    assert response.status_code == 400
    assert response.get_json()["field"] == "sides[0].natural_canastas"
    sevens = {"meld_points": 90, "canastas": {"sevens": 1}}
    response = client.post(
        f"/api/games/{game['id']}/hands", json={"sides": [sevens, {"meld_points": 50}]}
    )
    assert response.status_code == 422
    assert response.get_json()["field"] == "sides[0].canastas.sevens"


def test_the_sheet_names_the_game_and_its_rows_add_up(client: FlaskClient) -> None:
    game = create(client, family="modern-american")
    post(client, game["id"], WORKED)
    response = client.get(f"/games/{game['id']}/sheet.pdf")
    assert response.status_code == 200
    with pdfplumber.open(io.BytesIO(response.data)) as pdf:
        text = " ".join(page.extract_text() or "" for page in pdf.pages)
    text = text.replace("\u202f", ",").replace("\xa0", ",")
    assert "Modern American" in text and "8,500" in text
    # The winners' row: cards 105, canastas 3 000, threes 300 + 100, out 100, in hand -10:
    # 3 595, every column of it summed.
    assert re.search(r"105 3,000 400 100 .10 3,595 3,595", text), text
    assert re.search(r".90 0 .300 .40 .430 .430", text), text


# --- the hand form: its boxes, its dry run, a correction ---------------------------------------

# A few hands as the form's boxes (side 0, side 1), who went out, and what the engine scores.
FORM_HANDS = [
    pytest.param(
        {
            "meld_points": "105",
            "canastas_natural": "1",
            "canastas_sevens": "1",
            "red_threes": "2",
            "black_threes": "1",
            "hand_points": "10",
        },
        {"meld_points": "90", "red_threes": "2", "hand_points": "40"},
        "0",
        [3595, -430],
        id="worked-examples",
    ),
    pytest.param(
        {"special_hand": "pairs"},
        {
            "meld_points": "150",
            "canastas_mixed": "1",
            "unfinished_aces": "1",
            "players_holding_sevens": "1",
            "hand_points": "35",
        },
        "0",
        # Pairs: 2 500. One canasta: cards and bonus count, threes not; -2 500 the aces
        # left unfinished, -1 500 the sevens held: 150 + 300 - 4 000 - 35.
        [2500, 150 + 300 - 4000 - 35],
        id="special-hand-and-penalties",
    ),
    pytest.param(
        {
            "meld_points": "310",
            "canastas_wild": "1",
            "canastas_aces": "1",
            "red_threes": "4",
            "hand_points": "0",
        },
        {"meld_points": "130", "canastas_natural": "1", "black_threes": "3", "hand_points": "60"},
        "0",
        # 310 (the least those canastas hold: a joker and six twos, seven aces) + 2 000
        # + 2 500 + 1 000 (four red threes) + 100 out; one canasta: its threes do not
        # count: 130 + 500 - 60.
        [310 + 2000 + 2500 + 1000 + 100, 130 + 500 - 60],
        id="wild-and-aces",
    ),
]


def form_body(us: dict[str, str], them: dict[str, str], went_out: str) -> dict[str, str]:
    body = {f"sides-0-{name}": value for name, value in us.items()}
    body |= {f"sides-1-{name}": value for name, value in them.items()}
    return {**body, "went_out": went_out}


@pytest.mark.parametrize(("us", "them", "went_out", "totals"), FORM_HANDS)
def test_the_form_and_its_dry_run_score_as_the_engine(
    client: FlaskClient, us: dict, them: dict, went_out: str, totals: list[int]
) -> None:
    game = create(client, family="modern-american")
    body = form_body(us, them, went_out)
    check = client.post(f"/games/{game['id']}/hands/check", data=body).get_json()
    assert check["verdict"] in ("ok", "ask"), check
    assert [side["total"] for side in check["sides"]] == totals
    saved = client.post(
        f"/games/{game['id']}/hands/new", data={**body, "confirm": "opening_minimum"}
    )
    assert saved.status_code == 303, saved.get_data(as_text=True)[-2000:]
    stored = client.get(f"/api/games/{game['id']}").get_json()
    assert [side["total"] for side in stored["sides"]] == totals
    # The correction form shows what was stored; sent back as it is, nothing changes.
    page = client.get(f"/games/{game['id']}/hands/1/edit").get_data(as_text=True)
    for name, value in us.items():
        if name == "special_hand":
            assert f'<option selected value="{value}">' in page
        elif value != "0":  # no points: an empty box
            assert re.search(rf'id="sides-0-{name}"[^>]*value="{value}"', page), name
    again = client.post(
        f"/games/{game['id']}/hands/1/edit",
        data={**body, "version": str(stored["version"]), "confirm": "opening_minimum"},
    )
    assert again.status_code == 303
    assert client.get(f"/api/games/{game['id']}").get_json()["hands"] == stored["hands"]


def test_the_form_refuses_at_the_family_box(client: FlaskClient) -> None:
    game = create(client, family="modern-american")
    body = form_body({"meld_points": "70", "canastas_natural": "1"}, {"meld_points": "50"}, "0")
    check = client.post(f"/games/{game['id']}/hands/check", data=body).get_json()
    assert check["verdict"] == "refused"
    assert check["field"] == "sides-0-canastas_mixed"
    assert "2 canastas" in check["message"]


def wild_rows(rank: str) -> dict[str, str]:
    """WILD_MELDS as the hand form's meld rows, the meld of wild cards typed as `rank`."""
    rows: dict[str, str] = {"went_out": "0", "sides-1-hand_points": "10"}
    for side, melds in enumerate(WILD_MELDS["sides"]):
        for j, meld in enumerate(melds["melds"]):
            prefix = f"sides-{side}-melds-{j}-"
            rows[prefix + "rank"] = rank if meld["rank"] == "wild" else meld["rank"]
            for name in ("naturals", "jokers", "twos"):
                rows[prefix + name] = str(meld.get(name) or "")
    return rows


# The meld rows' hint names the letter of a meld of wild cards (and no black three: §5a's
# threes are never melded).
HINTS = {
    "en": "Type the rank: 4 to 10, J, Q, K, A, or {} for a meld of wild cards only.",
    "fr": "Tapez le rang\u00a0: 4 à 10, V, D, R, A, ou {} pour une combinaison de cartes"
    " libres seules.",
    "es": "Escribe el número: 4 a 10, J, Q, K, A, o {} para un juego de solo comodines.",
}


@pytest.mark.parametrize(
    ("language", "typed", "shown"),
    [("en", "w", "W"), ("en", "Wild", "W"), ("fr", "l", "L"), ("fr", "libre", "L"),
     ("es", "C", "C"), ("es", "comodín", "C"), ("es", "wild", "C")],
)  # fmt: skip
def test_the_form_takes_a_meld_of_wild_cards_in_the_readers_word(
    client: FlaskClient, language: str, typed: str, shown: str
) -> None:
    game = create(client, family="modern-american")
    headers = {"Accept-Language": language}
    page = client.get(f"/games/{game['id']}/hands/new", headers=headers).get_data(as_text=True)
    assert HINTS[language].format(shown) in page
    body = wild_rows(typed)
    check = client.post(f"/games/{game['id']}/hands/check", data=body, headers=headers)
    assert [side["total"] for side in check.get_json()["sides"]] == [2840, -1365]
    saved = client.post(f"/games/{game['id']}/hands/new", data=body, headers=headers)
    assert saved.status_code == 303, saved.get_data(as_text=True)[-2000:]
    stored = client.get(f"/api/games/{game['id']}").get_json()
    assert stored["hands"][0]["sides"][0]["melds"][0] == wild(1, 6)
    # The correction shows the meld of wild cards in the reader's letter.
    page = client.get(f"/games/{game['id']}/hands/1/edit", headers=headers).get_data(as_text=True)
    assert re.search(rf'id="sides-0-melds-0-rank"[^>]*value="{shown}"', page)


def test_a_classic_form_refuses_a_meld_of_wild_cards_at_its_rank(client: FlaskClient) -> None:
    game = create(client)
    page = client.get(f"/games/{game['id']}/hands/new").get_data(as_text=True)
    assert "or 3 for black threes" in page
    assert "wild cards only" not in page
    check = client.post(f"/games/{game['id']}/hands/check", data=wild_rows("W")).get_json()
    # The preview names the row's own box (the script marks it), not the melds as a whole.
    assert (check["verdict"], check["field"]) == ("refused", "sides-0-melds-0-rank")
    assert "must be a rank" in check["message"]
    saved = client.post(f"/games/{game['id']}/hands/new", data=wild_rows("W"))
    assert saved.status_code == 422
    page = saved.get_data(as_text=True)
    assert re.search(r'id="sides-0-melds-0-rank-error">Rank: must be a rank', page)
    assert client.get(f"/api/games/{game['id']}").get_json()["hands"] == []


def test_the_new_game_form_without_javascript_shows_the_chosen_games_rules(
    client: FlaskClient,
) -> None:
    """Modern American chosen, "Show the boxes" tapped: the house-rule boxes then hold its
    own rules (2 canastas to go out, the minimum 125), the names typed are kept, and the game
    starts in the family with no house rule of its own."""
    page = client.get("/games/new").get_data(as_text=True)
    assert re.search(r'<option value="four-player">Modern American', page)
    body = {
        "profile": "four-player",
        "rules_for": "classic",
        "canastas_to_go_out": "1",
        "minimums-0-minimum": "15",
        "sides-0-players-0": "Ann",
        "sides-0-players-1": "Bob",
        "sides-1-players-0": "Cy",
        "sides-1-players-1": "Dee",
    }
    shown = client.post("/games/new", data={**body, "show": "1"}).get_data(as_text=True)
    for name, value in (
        ("rules_for", "four-player"),
        ("canastas_to_go_out", "2"),
        ("minimums-0-minimum", "125"),
        ("sides-0-players-0", "Ann"),
    ):
        assert re.search(rf'name="{name}"[^>]*value="{value}"', shown), name
    body |= {"rules_for": "four-player", "canastas_to_go_out": "2", "minimums-0-minimum": "125"}
    body |= {"minimums-1-start": "3000", "minimums-1-minimum": "155"}
    body |= {"minimums-2-start": "5000", "minimums-2-minimum": "180"}
    started = client.post("/games/new", data=body)
    assert started.status_code == 303
    game = client.get("/api" + started.headers["Location"]).get_json()
    assert (game["family"], game["target"], game["house_rules"]) == ("modern-american", 8500, [])


def test_the_new_game_form_takes_modern_americans_canasta_bonuses(client: FlaskClient) -> None:
    """ "Every wild canasta 2 000" through the form: Classic's form hides (and never sends)
    Modern American's bonus boxes; "Show the boxes" for Modern American shows them with the
    family's bonuses; the rules typed start the game and the board names them in words."""
    page = client.get("/games/new").get_data(as_text=True)
    for kind in ("sevens", "aces", "wild", "wild_four_jokers", "deuces"):
        assert f'<div class="rule-box" data-rule="{kind}_canasta" hidden>' in page, kind
        assert re.search(rf'<input disabled id="{kind}_canasta"', page), kind
    assert '<div class="rule-box" data-rule="natural_canasta">' in page
    body = {
        "profile": "four-player",
        "rules_for": "classic",
        "sides-0-players-0": "Ann",
        "sides-0-players-1": "Bob",
        "sides-1-players-0": "Cy",
        "sides-1-players-1": "Dee",
    }
    shown = client.post("/games/new", data={**body, "show": "1"}).get_data(as_text=True)
    for kind, bonus in (("sevens", 2500), ("wild", 2000), ("wild_four_jokers", 2500)):
        assert f'<div class="rule-box" data-rule="{kind}_canasta">' in shown, kind
        assert re.search(rf'name="{kind}_canasta" type="text" value="{bonus}"', shown), kind
    assert 'for="deuces_canasta">Canasta of seven twos bonus<' in shown
    typed = dict(
        re.findall(r'<input (?!disabled)[^>]*name="([\w-]+)" type="text" value="([^"]*)"', shown)
    )
    typed |= {"wild_four_jokers_canasta": "2000", "deuces_canasta": "2000"}
    typed |= {"tie": "play_on", "red_threes_count_against": "no_meld"}
    started = client.post("/games/new", data={**typed, **body, "rules_for": "four-player"})
    assert started.status_code == 303, started.get_data(as_text=True)[-2000:]
    game = client.get("/api" + started.headers["Location"]).get_json()
    assert game["family"] == "modern-american"
    assert game["house_rules"] == ["wild_four_jokers_canasta", "deuces_canasta"]
    assert (game["rules"]["wild_canasta"], game["rules"]["deuces_canasta"]) == (2000, 2000)
    board = client.get(started.headers["Location"]).get_data(as_text=True)
    assert "Wild canasta bonus, all four jokers" in board
    assert "Canasta of seven twos bonus" in board
    assert "deuces_canasta" not in board and "wild_four_jokers_canasta" not in board
