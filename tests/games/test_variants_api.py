"""Variants and house rules through the JSON API: the contract (status, fields, what is stored).

The arithmetic of each variant and house rule is tested once, in the engine
(core/test_variants.py, core/test_house_rules.py, core/test_rules.py). The few numbers here
are worked out by hand from docs/rules.md: the comments show the sums.
"""

from __future__ import annotations

import re
from html import unescape
from typing import Any

import pytest
from flask.testing import FlaskClient

from scorer.store.db import get_db

CLASSIC_MINIMUMS = [[None, 15], [0, 50], [1500, 90], [3000, 120]]


def sides_of(*teams: tuple[str, ...]) -> list[dict[str, Any]]:
    return [{"players": list(players)} for players in teams]


def create(client: FlaskClient, status: int = 201, **body: Any) -> dict[str, Any]:
    response = client.post("/api/games", json=body)
    assert response.status_code == status, response.get_json()
    return response.get_json()


def post_hand(
    client: FlaskClient, game_id: str, *sides: dict[str, int], status: int = 201, **rest: Any
) -> dict[str, Any]:
    response = client.post(f"/api/games/{game_id}/hands", json={"sides": list(sides), **rest})
    assert response.status_code == status, response.get_json()
    return response.get_json()


def side(
    meld: int = 0, natural: int = 0, mixed: int = 0, red: int = 0, hand: int = 0
) -> dict[str, int]:
    return {
        "meld_points": meld,
        "natural_canastas": natural,
        "mixed_canastas": mixed,
        "red_threes": red,
        "hand_points": hand,
    }


def totals(game: dict[str, Any]) -> list[int]:
    return [s["total"] for s in game["sides"]]


def minimums(game: dict[str, Any]) -> list[int]:
    return [s["opening_minimum"] for s in game["sides"]]


def stored_games(app: Any) -> int:
    with app.app_context():
        return get_db()["games"].count


# --- two players: each alone, two canastas to go out -------------------------------------------

TWO = sides_of(("Ann",), ("Bob",))


def test_a_two_player_refusal_names_the_canasta_and_stores_no_hand(client: FlaskClient) -> None:
    # The rule and its arithmetic: core/test_variants.py. Here: the profile's numbers come
    # back under "rules", the refusal is 422 at its field, nothing is stored, then a hand is.
    game = create(client, profile="two-player", sides=TWO)
    assert game["rules"]["canastas_to_go_out"] == 2
    assert game["target"] == 5000

    refused = post_hand(client, game["id"], side(400, natural=1), side(60), went_out=0, status=422)
    assert refused["field"] == "sides[0].mixed_canastas"
    assert refused["error"] == (
        "going out takes at least 2 canastas: the table takes the cards back and play goes on"
    )
    assert client.get(f"/api/games/{game['id']}").get_json()["hands"] == []

    post_hand(client, game["id"], side(400, natural=1, mixed=1), side(60, hand=25), went_out=0)
    assert len(client.get(f"/api/games/{game['id']}").get_json()["hands"]) == 1


def test_a_game_without_a_profile_is_classic(client: FlaskClient) -> None:
    game = create(client, sides=sides_of(("Ann", "Cat"), ("Bob", "Dan")))
    assert game["profile"] == "classic"
    assert game["rules"]["canastas_to_go_out"] == 1


# --- three players: each alone, to 7 500 --------------------------------------------------------


def test_a_three_player_game_has_three_sides_each_with_its_minimum(
    client: FlaskClient, app: Any
) -> None:
    # The arithmetic (each alone, personal minimums, red threes): core/test_variants.py.
    game = create(client, profile="three-player", sides=sides_of(("Ann",), ("Bob",), ("Cy",)))
    assert game["target"] == 7500
    assert game["rules"]["canastas_to_go_out"] == 1
    after = post_hand(
        client, game["id"], side(250, natural=1), side(90, hand=40), side(0, hand=35), went_out=0
    )
    assert [s["players"] for s in after["sides"]] == [["Ann"], ["Bob"], ["Cy"]]
    assert all(isinstance(s["opening_minimum"], int) for s in after["sides"])

    before = stored_games(app)
    create(client, status=422, profile="three-player", sides=sides_of(("Ann",), ("Bob",)))
    assert stored_games(app) == before


# --- five players: teams of 3 and 2, one of the three sits out in turn ---------------------------


def test_a_five_player_game_names_who_sits_out_next(client: FlaskClient) -> None:
    # Whose turn it is: core/test_variants.py. Here: the turn comes back as players' names.
    game = create(
        client, profile="five-player", sides=sides_of(("Ann", "Cat", "Eve"), ("Bob", "Dan"))
    )
    assert game["target"] == 5000
    seen = [game["sitting_out_next"]]
    for _ in range(3):
        game = post_hand(client, game["id"], side(120, hand=10), side(90, hand=20))
        seen.append(game["sitting_out_next"])
    assert seen == [["Eve"], ["Cat"], ["Ann"], ["Eve"]]


def test_five_player_refuses_other_seatings(client: FlaskClient) -> None:
    refused = create(
        client, status=422, profile="five-player", sides=sides_of(("Ann", "Cat"), ("Bob", "Dan"))
    )
    assert refused["field"] == "sides"


# --- six players: three packs ------------------------------------------------------------------

SIX = sides_of(("Ann", "Bob"), ("Cat", "Dan"), ("Eve", "Fay"))


def test_six_player_profile_rules(client: FlaskClient) -> None:
    game = create(client, profile="six-player", sides=SIX)
    assert game["target"] == 7500
    assert game["rules"]["canastas_to_go_out"] == 2
    assert game["rules"]["red_three"] == 100
    assert game["rules"]["all_red_threes"] == 1200
    assert game["rules"]["minimums"] == CLASSIC_MINIMUMS
    assert game["house_rules"] == []


def test_six_players_in_two_teams_of_three_play_to_10000(client: FlaskClient) -> None:
    game = create(
        client, profile="six-player", sides=sides_of(("Ann", "Bob", "Cy"), ("Dan", "Eve", "Fay"))
    )
    assert game["target"] == 10000
    assert game["rules"]["minimums"] == [*CLASSIC_MINIMUMS, [7500, 150]]
    # Nobody sits out: a team of three plays whole at six.
    assert game["sitting_out_next"] == []


# --- targets -----------------------------------------------------------------------------------


def test_a_10000_target_lists_the_150_row_under_rules(client: FlaskClient) -> None:
    # The table itself: core/test_rules.py. Here: it comes back under "rules".
    game = create(client, target=10000, sides=sides_of(("Ann", "Cat"), ("Bob", "Dan")))
    assert game["target"] == 10000
    assert game["rules"]["minimums"] == [*CLASSIC_MINIMUMS, [7500, 150]]


# --- house rules -------------------------------------------------------------------------------

HOUSE = {
    "going_out": 200,
    "concealed_going_out": 500,
    "natural_canasta": 600,
    "mixed_canasta": 250,
    "red_three": 150,
    "all_red_threes": 1000,
    "canastas_to_go_out": 2,
    "minimums": [[None, 20], [0, 60], [2000, 100]],
    "tie": "shared",
    "red_threes_count_against": "no_canasta",
}


def test_house_rules_come_back_under_rules(client: FlaskClient) -> None:
    game = create(client, sides=sides_of(("Ann", "Cat"), ("Bob", "Dan")), rules=HOUSE)
    assert game["rules"] == HOUSE
    assert sorted(game["house_rules"]) == sorted(HOUSE)
    # A new start of the game reads them back from the database the same way.
    again = client.get(f"/api/games/{game['id']}").get_json()
    assert again["rules"] == HOUSE
    assert again["house_rules"] == game["house_rules"]
    # The custom minimum table is kept as written; the opening minimum of a total of 0 is 60.
    assert minimums(again) == [60, 60]


def test_house_rules_reach_the_stored_scores(client: FlaskClient) -> None:
    # Each house rule's arithmetic: core/test_variants.py and core/test_house_rules.py. Here:
    # a refusal under a house rule names its field, and the house's values are what is stored.
    game = create(client, sides=sides_of(("Ann", "Cat"), ("Bob", "Dan")), rules=HOUSE)
    gid = game["id"]
    refused = post_hand(client, gid, side(300, natural=1), side(100), went_out=0, status=422)
    assert refused["field"] == "sides[0].mixed_canastas"

    # Ann & Cat: 300 + 600 + 250 + 2 x 150 + 200 = 1650. Bob & Dan: 100 - 25 = 75.
    post_hand(client, gid, side(300, natural=1, mixed=1, red=2), side(100, hand=25), went_out=0)
    stored = client.get(f"/api/games/{gid}").get_json()
    assert totals(stored) == [1650, 75]
    assert minimums(stored) == [60, 60]  # the house table: 100 only from 2 000


def test_a_single_house_rule_changes_only_itself(client: FlaskClient) -> None:
    game = create(client, sides=sides_of(("Ann", "Cat"), ("Bob", "Dan")), rules={"going_out": 150})
    assert game["house_rules"] == ["going_out"]
    expected = {
        "going_out": 150,
        "concealed_going_out": 200,
        "natural_canasta": 500,
        "mixed_canasta": 300,
        "red_three": 100,
        "all_red_threes": 800,
        "canastas_to_go_out": 1,
        "minimums": CLASSIC_MINIMUMS,
        "tie": "play_on",
        "red_threes_count_against": "no_meld",
    }
    assert game["rules"] == expected


def test_a_six_player_house_rule_is_listed_alone(client: FlaskClient) -> None:
    # Five keep their 1 000, six score the house's 1 500: core/test_variants.py.
    game = create(client, profile="six-player", sides=SIX, rules={"all_red_threes": 1500})
    assert game["rules"]["all_red_threes"] == 1500
    assert game["house_rules"] == ["all_red_threes"]


def test_a_house_rule_equal_to_the_variant_is_not_listed(client: FlaskClient) -> None:
    game = create(client, sides=TWO, profile="two-player", rules={"canastas_to_go_out": 2})
    assert game["house_rules"] == []


@pytest.mark.parametrize(
    ("rules", "field"),
    [
        # The rules themselves are tested in core/test_variants.py: here, one value and
        # one row of the table show the API passes the refusal and its field through.
        ({"going_out": 7}, "rules.going_out"),
        ({"minimums": [[0, 50], [0, 90]]}, "rules.minimums[1]"),
    ],
)
def test_bad_house_rules_are_refused_and_nothing_stored(
    client: FlaskClient, app: Any, rules: dict[str, Any], field: str
) -> None:
    refused = create(client, status=422, sides=TWO, profile="two-player", rules=rules)
    assert refused["field"] == field
    assert refused["error"]
    assert stored_games(app) == 0


def test_house_rules_must_be_an_object(client: FlaskClient, app: Any) -> None:
    refused = create(client, status=400, sides=TWO, profile="two-player", rules=[["going_out", 5]])
    assert refused["field"] == "rules"
    assert stored_games(app) == 0


def test_refusals_speak_french_when_asked(client: FlaskClient) -> None:
    response = client.post(
        "/api/games",
        json={"profile": "two-player", "sides": TWO, "rules": {"going_out": 7}},
        headers={"Accept-Language": "fr"},
    )
    assert response.status_code == 422
    assert response.get_json()["error"] == "doit être un multiple de 5 entre 0 et 10\u202f000"


# --- the rules page shows the variants and a game's own table ----------------------------------


def rows(html: str, table_class: str) -> list[tuple[bool, list[str]]]:
    """(is the row highlighted, its cells' text) for each body row of a table."""
    table = re.search(rf'<table class="[^"]*{table_class}[^"]*">(.*?)</table>', html, re.S)
    assert table, table_class
    body = table.group(1).split("<tbody>")[1]
    found = []
    for attributes, row in re.findall(r"<tr([^>]*)>(.*?)</tr>", body, re.S):
        cells = re.findall(r"<t[hd][^>]*>(.*?)</t[hd]>", row, re.S)
        texts = [" ".join(unescape(re.sub(r"<[^>]+>", " ", cell)).split()) for cell in cells]
        found.append(("current" in attributes, texts))
    return found


def test_rules_page_lists_every_variant(client: FlaskClient) -> None:
    html = client.get("/rules", headers={"Accept-Language": "en"}).get_data(as_text=True)
    heads = [cells for _, cells in rows(html, "variants-table") if len(cells) == 4]
    # Variant, packs, cards dealt, canastas to go out (docs/rules.md section 3).
    assert heads == [
        ["Classic", "2", "11", "1"],
        ["Two players", "2", "15", "2"],
        ["Three players", "2", "13", "1"],
        ["Five players", "2", "11", "1"],
        ["Six players", "3", "13", "2"],
    ]
    assert "3 teams of 2, playing to 7,500" in html
    assert "2 teams of 3, playing to 10,000" in html
    assert "100 each, 5 of them: 1,000, 6 of them: 1,200" in html
    assert "teams of 3 and 2, playing to 5,000" in html


def test_rules_page_without_a_game_shows_the_classic_table(client: FlaskClient) -> None:
    html = client.get("/rules", headers={"Accept-Language": "en"}).get_data(as_text=True)
    assert rows(html, "minimum-table") == [
        (False, ["below 0", "15"]),
        (False, ["0 to 1,495", "50"]),
        (False, ["1,500 to 2,995", "90"]),
        (False, ["3,000 and more", "120"]),
    ]


def test_rules_page_highlights_each_sides_row(client: FlaskClient) -> None:
    game = create(client, profile="three-player", sides=sides_of(("Ann",), ("Bob",), ("Cy",)))
    post_hand(
        client, game["id"], side(250, natural=1), side(90, hand=40), side(0, red=1, hand=35),
        went_out=0,
    )  # fmt: skip
    html = client.get(f"/rules?game={game['id']}", headers={"Accept-Language": "en"})
    # Totals 850, 50 and -135 (see test_three_player_each_alone_to_7500).
    assert rows(html.get_data(as_text=True), "minimum-table") == [
        (True, ["below 0 Cy (\u2212135)", "15"]),
        (True, ["0 to 1,495 Ann (850) Bob (50)", "50"]),
        (False, ["1,500 to 2,995", "90"]),
        (False, ["3,000 and more", "120"]),
    ]


def test_rules_page_shows_a_games_house_rules(client: FlaskClient) -> None:
    game = create(client, sides=sides_of(("Ann", "Cat"), ("Bob", "Dan")), rules=HOUSE)
    post_hand(client, game["id"], side(300, natural=1, mixed=1, red=2), side(100, hand=25),
              went_out=0)  # fmt: skip
    html = client.get(f"/rules?game={game['id']}", headers={"Accept-Language": "en"})
    text = html.get_data(as_text=True)
    # The house table as written; 1 650 and 75 both fall in its second row.
    assert rows(text, "minimum-table") == [
        (False, ["below 0", "20"]),
        (True, ["0 to 1,995 Ann & Cat (1,650) Bob & Dan (75)", "60"]),
        (False, ["2,000 and more", "100"]),
    ]
    assert "This game plays with its own minimum table" in text
    for label, value in (
        ("Going-out bonus", "200"),
        ("Natural canasta bonus", "600"),
        ("All the red threes", "1,000"),
        ("Canastas needed to go out", "2"),
    ):
        assert re.search(rf"<dt>{label}</dt><dd>{value}</dd>", text), label  # fmt: skip


def test_rules_page_of_a_10000_game_has_the_150_row(client: FlaskClient) -> None:
    game = create(client, target=10000, sides=sides_of(("Ann", "Cat"), ("Bob", "Dan")))
    html = client.get(f"/rules?game={game['id']}", headers={"Accept-Language": "en"})
    table = rows(html.get_data(as_text=True), "minimum-table")
    assert table[-2:] == [(False, ["3,000 to 7,495", "120"]), (False, ["7,500 and more", "150"])]
