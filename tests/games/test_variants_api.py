"""Variants and house rules end to end, through the JSON API.

Every expected number is worked out by hand from ../shared/RULES.md (sections 1 to 3), not
read from the code: the comments show the sums.
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


def test_two_player_needs_two_canastas_to_go_out(client: FlaskClient) -> None:
    game = create(client, profile="two-player", sides=TWO)
    assert game["rules"]["canastas_to_go_out"] == 2
    assert game["target"] == 5000

    refused = post_hand(client, game["id"], side(400, natural=1), side(60), went_out=0, status=422)
    # One natural canasta and too few in all: the missing one is most likely mixed.
    assert refused["field"] == "sides[0].mixed_canastas"
    assert refused["error"] == (
        "going out takes at least 2 canastas: the table takes the cards back and play goes on"
    )
    # Nothing was stored: the game still has no hand.
    assert client.get(f"/api/games/{game['id']}").get_json()["hands"] == []

    # 400 cards + 500 natural + 300 mixed + 100 out = 1300; Bob: 60 - 25 = 35.
    after = post_hand(
        client, game["id"], side(400, natural=1, mixed=1), side(60, hand=25), went_out=0
    )
    assert totals(after) == [1300, 35]


def test_classic_goes_out_with_a_single_canasta(client: FlaskClient) -> None:
    game = create(client, sides=sides_of(("Ann", "Cat"), ("Bob", "Dan")))
    assert game["profile"] == "classic"
    # The rule book's worked example: 70 + 500 + 60 + 200 + 100 - 5 = 925.
    after = post_hand(client, game["id"], side(130, natural=1, red=2, hand=5), side(0), went_out=0)
    assert totals(after) == [925, 0]


# --- three players: each alone, to 7 500 --------------------------------------------------------


def test_three_player_each_alone_to_7500(client: FlaskClient, app: Any) -> None:
    game = create(client, profile="three-player", sides=sides_of(("Ann",), ("Bob",), ("Cy",)))
    assert game["target"] == 7500
    assert game["rules"]["canastas_to_go_out"] == 1
    assert len(game["sides"]) == 3

    # Ann: 250 + 500 + 100 (out) = 850. Bob: 90 - 40 = 50. Cy melded nothing, one red three
    # counts against him: -100 - 35 = -135.
    after = post_hand(
        client,
        game["id"],
        side(250, natural=1),
        side(90, hand=40),
        side(0, red=1, hand=35),
        went_out=0,
    )
    assert totals(after) == [850, 50, -135]
    # Each player keeps a personal minimum: 850 -> 50, 50 -> 50, below 0 -> 15.
    assert minimums(after) == [50, 50, 15]

    before = stored_games(app)
    create(client, status=422, profile="three-player", sides=sides_of(("Ann",), ("Bob",)))
    assert stored_games(app) == before


# --- five players: teams of 3 and 2, one of the three sits out in turn ---------------------------


def test_five_player_team_of_three_sits_one_out_in_turn(client: FlaskClient) -> None:
    game = create(
        client, profile="five-player", sides=sides_of(("Ann", "Cat", "Eve"), ("Bob", "Dan"))
    )
    assert game["target"] == 5000
    seen = [game["sitting_out_next"]]
    for _ in range(3):
        game = post_hand(client, game["id"], side(120, hand=10), side(90, hand=20))
        seen.append(game["sitting_out_next"])
    # Ann deals first, so Eve (seated before her in the team) sits out hand 1; then the turn
    # passes back through the team, and the cycle starts again.
    assert seen == [["Eve"], ["Cat"], ["Ann"], ["Eve"]]
    # Nobody went out (the stock ran out): 3 x (120 - 10) = 330 and 3 x (90 - 20) = 210.
    assert totals(game) == [330, 210]


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


def test_six_player_five_and_six_red_threes_score_set_values(client: FlaskClient) -> None:
    game = create(client, profile="six-player", sides=SIX)
    # Ann & Bob go out with two canastas and five red threes:
    # 400 + 500 + 300 + 1000 + 100 = 2300. Cat & Dan: 120 + 100 - 30 = 190. Eve & Fay: -60.
    after = post_hand(
        client,
        game["id"],
        side(400, natural=1, mixed=1, red=5),
        side(120, red=1, hand=30),
        side(0, hand=60),
        went_out=0,
    )
    assert totals(after) == [2300, 190, -60]
    # All six to one side that melds: 6 -> 1 200; 150 - 0 = 150 in cards. 150 + 1200 = 1350.
    after = post_hand(client, game["id"], side(150, red=6), side(50), side(80, hand=10))
    assert totals(after) == [2300 + 1350, 190 + 50, -60 + 70]
    # The minimums follow each side's total: 3 650 -> 120, 240 -> 50, 10 -> 50.
    assert minimums(after) == [120, 50, 50]


def test_six_players_in_two_teams_of_three_play_to_10000(client: FlaskClient) -> None:
    game = create(
        client, profile="six-player", sides=sides_of(("Ann", "Bob", "Cy"), ("Dan", "Eve", "Fay"))
    )
    assert game["target"] == 10000
    assert game["rules"]["minimums"] == [*CLASSIC_MINIMUMS, [7500, 150]]
    # Nobody sits out: a team of three plays whole at six.
    assert game["sitting_out_next"] == []


# --- targets -----------------------------------------------------------------------------------

BIG_HAND = side(700, natural=4, red=4)  # 700 + 2000 + 800 + 100 (out) = 3600
SMALL_HAND = side(300, natural=1)  # 300 + 500 + 100 (out) = 900
OTHERS = side(50, hand=50)  # 0


def test_a_10000_target_adds_150_from_7500(client: FlaskClient) -> None:
    game = create(client, target=10000, sides=sides_of(("Ann", "Cat"), ("Bob", "Dan")))
    assert game["target"] == 10000
    assert game["rules"]["minimums"] == [*CLASSIC_MINIMUMS, [7500, 150]]

    for _ in range(2):
        game = post_hand(client, game["id"], BIG_HAND, OTHERS, went_out=0)
    assert totals(game) == [7200, 0]
    assert minimums(game) == [120, 50]  # 7 200 is still in the 3 000 row
    assert game["finished"] is False  # 7 200 is short of 10 000

    game = post_hand(client, game["id"], SMALL_HAND, OTHERS, went_out=0)
    assert totals(game) == [8100, 0]
    assert minimums(game) == [150, 50]


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


def test_house_rules_change_the_scores_end_to_end(client: FlaskClient) -> None:
    game = create(client, sides=sides_of(("Ann", "Cat"), ("Bob", "Dan")), rules=HOUSE)
    gid = game["id"]

    # Two canastas to go out now: one is refused.
    refused = post_hand(client, gid, side(300, natural=1), side(100), went_out=0, status=422)
    # (It has a natural one: the missing one goes under the mixed canastas.)
    assert refused["field"] == "sides[0].mixed_canastas"

    # Ann & Cat: 300 + 600 + 250 + 2 x 150 + 200 = 1650. Bob & Dan: 100 - 25 = 75.
    game = post_hand(
        client, gid, side(300, natural=1, mixed=1, red=2), side(100, hand=25), went_out=0
    )
    assert totals(game) == [1650, 75]
    assert minimums(game) == [60, 60]  # the house table: 100 only from 2 000

    # Bob & Dan go out concealed with the four red threes: 250 + 2 x 600 + 1000 + 500 = 2950.
    # Ann & Cat melded nothing: 0 - 40 in hand. 1650 - 40 = 1610; 75 + 2950 = 3025.
    game = post_hand(
        client, gid, side(0, hand=40), side(250, natural=2, red=4), went_out=1, concealed=True
    )
    assert totals(game) == [1610, 3025]
    assert minimums(game) == [60, 100]

    # Red threes count against a side that melded nothing, at the house value: -150 - 150.
    # Bob & Dan's melds reach their minimum of 100.
    game = post_hand(client, gid, side(0, red=2, hand=10), side(100))
    assert totals(game) == [1610 - 310, 3025 + 100]
    assert [hand["sides"][0]["score"]["red_threes"] for hand in game["hands"]] == [300, 0, -300]


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
    # 100 + 500 + 150 = 750 (the going-out bonus is now 150).
    game = post_hand(client, game["id"], side(100, natural=1), side(50), went_out=0)
    assert totals(game) == [750, 50]


def test_six_player_all_red_threes_house_rule_touches_six_only(client: FlaskClient) -> None:
    game = create(client, profile="six-player", sides=SIX, rules={"all_red_threes": 1500})
    assert game["rules"]["all_red_threes"] == 1500
    assert game["house_rules"] == ["all_red_threes"]
    # Five together keep their 1 000: 100 + 1000 = 1100; six score the house's 1 500.
    game = post_hand(client, game["id"], side(100, red=5), side(50, red=1), side(50))
    assert totals(game) == [1100, 150, 50]
    game = post_hand(client, game["id"], side(50), side(100, red=6), side(50))
    assert totals(game) == [1150, 150 + 1600, 100]


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
    # Variant, packs, cards dealt, canastas to go out (RULES.md section 3).
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
