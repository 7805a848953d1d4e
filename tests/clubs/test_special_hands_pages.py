"""A Modern American club's special hands (docs/rules.md §5a, issue 31): the League's list
chosen on the club's pages, edited there hand by hand (refused at its box, nothing saved),
offered by the club's new games' hand form and taken by the API; a game keeps its list."""

from __future__ import annotations

import re
from typing import Any

from flask.testing import FlaskClient

FOUR = ["Ann", "Bob", "Cy", "Di"]
SIDES = [{"players": FOUR[:2]}, {"players": FOUR[2:]}]


def new_club(client: FlaskClient, family: str = "modern-american") -> str:
    response = client.post(
        "/api/clubs", json={"name": "Tuesday", "players": FOUR, "family": family}
    )
    assert response.status_code == 201, response.json
    return response.json["id"]


def club_game(client: FlaskClient, club_id: str) -> dict[str, Any]:
    response = client.post(f"/api/clubs/{club_id}/games", json={"sides": SIDES})
    assert response.status_code == 201, response.json
    return response.json


def special_hand(client: FlaskClient, game_id: str, key: str) -> Any:
    """Our side went out at once with a special hand; the others melded 40 and hold 30."""
    body = {
        "went_out": 0,
        "sides": [{"special_hand": key}, {"meld_points": 40, "hand_points": 30}],
        "confirm": ["opening_minimum"],
    }
    return client.post(f"/api/games/{game_id}/hands", json=body)


def the_list(client: FlaskClient, club_id: str) -> dict[str, str]:
    """The list's boxes as the page shows them: {"hands-0-name": "Straight", ...}."""
    page = client.get(f"/clubs/{club_id}/special-hands").get_data(as_text=True)
    return dict(
        re.findall(r'name="(hands-\d+-(?:key|name|value))" type="\w+" value="([^"]*)"', page)
    )


def posted(boxes: dict[str, str], **changes: str) -> dict[str, str]:
    return {**boxes, **changes}


def test_the_leagues_list_chosen_on_the_club_page_reaches_its_new_games(
    client: FlaskClient,
) -> None:
    club_id = new_club(client)
    board = client.get(f"/clubs/{club_id}").get_data(as_text=True)
    assert f'href="/clubs/{club_id}/special-hands"' in board
    assert "Straight 3,000" in board
    before = club_game(client, club_id)
    assert [hand["key"] for hand in before["rules"]["special_hands"]] == [
        "straight",
        "pairs",
        "wild_pairs",
        "garbage",
    ]
    chosen = client.post(f"/clubs/{club_id}/special-hands/preset", data={"preset": "league"})
    assert chosen.status_code == 303
    assert len(the_list(client, club_id)) == 11 * 3
    game = club_game(client, club_id)
    assert len(game["rules"]["special_hands"]) == 11
    assert game["house_rules"] == ["special_hands"]
    form = client.get(f"/games/{game['id']}/hands/new?out=0").get_data(as_text=True)
    assert '<option value="dream_pairs">Dream hand: pairs (8,500)</option>' in form
    won = special_hand(client, game["id"], "dream_pairs")
    assert won.status_code == 201, won.json
    assert (won.json["winner"], won.json["sides"][0]["total"]) == (0, 8500)
    # The game started before keeps pagat's four: no dream hand in it.
    refused = special_hand(client, before["id"], "dream_pairs")
    assert (refused.status_code, refused.json["field"]) == (422, "sides[0].special_hand")


def test_a_hand_renamed_revalued_removed_and_added(client: FlaskClient) -> None:
    club_id = new_club(client)
    boxes = the_list(client, club_id)
    assert boxes["hands-0-name"] == "Straight"
    body = posted(
        boxes,
        **{"hands-0-name": "Big straight", "hands-0-value": "3200", "hands-3-remove": "y"},
        new_name="Royal canasta",
        new_value="4000",
    )
    saved = client.post(f"/clubs/{club_id}/special-hands", data=body)
    assert saved.status_code == 303, saved.get_data(as_text=True)[-1500:]
    game = club_game(client, club_id)
    assert game["rules"]["special_hands"] == [
        {"key": "straight", "value": 3200, "name": "Big straight"},
        {"key": "pairs", "value": 2500},
        {"key": "wild_pairs", "value": 2000},
        {"key": "royal_canasta", "value": 4000, "name": "Royal canasta"},
    ]
    form = client.get(f"/games/{game['id']}/hands/new?out=0").get_data(as_text=True)
    assert "Royal canasta (4,000)" in form and "Garbage hand" not in form
    scored = special_hand(client, game["id"], "royal_canasta")
    assert scored.status_code == 201, scored.json
    assert scored.json["hands"][0]["sides"][0]["score"]["special"] == 4000
    refused = special_hand(client, game["id"], "garbage")
    assert (refused.status_code, refused.json["field"]) == (422, "sides[0].special_hand")


def test_each_box_refuses_at_its_field_and_nothing_is_saved(client: FlaskClient) -> None:
    club_id = new_club(client)
    boxes = the_list(client, club_id)
    for changes, status, box, message in (
        ({"hands-1-value": "3001"}, 422, "hands-1-value", "Points: must be a multiple of 5"),
        ({"hands-1-value": "10005"}, 422, "hands-1-value", "from 5 to 10,000"),
        ({"hands-1-value": "lots"}, 400, "hands-1-value", "Points: enter a whole number"),
        ({"hands-2-name": "x" * 41}, 422, "hands-2-name", "Name: must be 1 to 40 characters"),
        ({"hands-2-name": "pairs without wild cards"}, 422, "hands-2-name", "already in the list"),
        (
            {"new_value": "4000"},
            422,
            "new_name",
            "A new hand&#39;s name: enter the hand&#39;s name",
        ),
        ({"new_name": "Royal", "new_value": "2"}, 422, "new_value", "Its points: must be"),
    ):
        response = client.post(f"/clubs/{club_id}/special-hands", data=posted(boxes, **changes))
        page = response.get_data(as_text=True)
        assert response.status_code == status, (changes, page[-1500:])
        assert re.search(rf'id="{box}"[^>]*aria-invalid="true"', page) or re.search(
            rf'aria-invalid="true"[^>]*id="{box}"', page
        ), changes
        assert message in page, (changes, message)
        typed = next(iter(changes.values()))
        assert f'value="{typed}"' in page  # the form keeps what was typed
        assert the_list(client, club_id) == boxes  # nothing saved


def test_the_refusal_and_the_page_speak_french(client: FlaskClient) -> None:
    club_id = new_club(client)
    boxes = the_list(client, club_id)
    headers = {"Accept-Language": "fr"}
    page = client.get(f"/clubs/{club_id}/special-hands", headers=headers).get_data(as_text=True)
    assert 'name="hands-0-name" type="text" value="Suite"' in page
    response = client.post(
        f"/clubs/{club_id}/special-hands",
        data=posted(boxes, **{"hands-0-value": "3001"}),
        headers=headers,
    )
    assert response.status_code == 422
    assert "Points\u00a0: doit être un multiple de 5 de 5 à 10" in response.get_data(as_text=True)


def test_a_classic_club_has_no_special_hands_to_edit(client: FlaskClient) -> None:
    club_id = new_club(client, "classic")
    assert client.get(f"/clubs/{club_id}/special-hands").status_code == 404
    assert (
        client.post(f"/clubs/{club_id}/special-hands/preset", data={"preset": "league"}).status_code
        == 404
    )
    assert "special-hands" not in client.get(f"/clubs/{club_id}").get_data(as_text=True)
