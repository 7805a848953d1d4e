"""The checker and the rule book in every game of the family (issue 31): the API and the form
take a family, Modern American's minimum, natural triple and uncounted pile top; the rules
page and the rules of play show each other game from its data."""

from __future__ import annotations

import pytest
from flask.testing import FlaskClient
from languages import Detector, translated_messages, visible_text

API = "/api/opening-meld"
ENGLISH = {"Accept-Language": "en-GB,en;q=0.9"}
KINGS_AND_FOURS = [{"rank": "K", "naturals": 3}, {"rank": "4", "naturals": 2, "jokers": 1}]


def test_a_modern_american_opening_by_hand_number(client: FlaskClient) -> None:
    melds = [{"rank": "A", "naturals": 3, "twos": 2}, {"rank": "K", "naturals": 3}]
    body = {"family": "modern-american", "melds": melds}
    for hand, minimum, enough in ((1, 125, True), (2, 155, False), (3, 180, False)):
        answer = client.post(API, json={**body, "hand": hand}).get_json()
        assert (answer["points"], answer["minimum"], answer["enough"]) == (130, minimum, enough)


def test_classic_has_no_minimum_by_hand_number(client: FlaskClient) -> None:
    answer = client.post(API, json={"hand": 1, "melds": KINGS_AND_FOURS})
    assert answer.status_code == 400
    assert answer.get_json()["field"] == "hand"


def test_modern_american_needs_a_natural_triple_and_two_wild_cards_at_most(
    client: FlaskClient,
) -> None:
    melds = [{"rank": "K", "naturals": 2, "jokers": 1}, {"rank": "Q", "naturals": 2, "twos": 3}]
    answer = client.post(API, json={"family": "modern-american", "minimum": 125, "melds": melds})
    codes = {(p["field"], p["code"]) for p in answer.get_json()["problems"]}
    assert codes == {("melds[1].twos", "too-many-wild-of-two"), ("melds", "needs-natural-triple")}
    classic = client.post(API, json={"minimum": 50, "melds": melds}).get_json()
    assert classic["problems"] == []  # three wild cards and no triple: fine in Classic


def test_the_pile_top_card_never_counts_in_modern_american(client: FlaskClient) -> None:
    body = {"minimum": 50, "melds": KINGS_AND_FOURS, "discard_top": "K"}
    classic = client.post(API, json=body).get_json()
    american = client.post(API, json={**body, "family": "modern-american"}).get_json()
    assert (classic["points"], american["points"]) == (90, 80)


def test_an_unknown_family_is_refused_at_its_field(client: FlaskClient) -> None:
    answer = client.post(API, json={"family": "bridge", "minimum": 50, "melds": []})
    assert answer.status_code == 400
    assert answer.get_json()["field"] == "family"


def test_the_form_in_modern_american(client: FlaskClient) -> None:
    page = client.get("/check-meld?family=modern-american", headers=ENGLISH)
    html = page.get_data(as_text=True)
    assert 'value="125"' in html  # the family's lowest minimum
    assert '<option value="wild">Wild cards only</option>' in html
    assert "data-live-family" not in html and 'name="going_out"' not in html
    form = {"family": "modern-american", "minimum": "125", "rank-0": "K", "naturals-0": "2"}
    form |= {"jokers-0": "1", "rank-1": "Q", "naturals-1": "4"}
    answer = client.post("/check-meld", data=form, headers=ENGLISH).get_data(as_text=True)
    assert "110 of 125: 15 short" in answer
    form["naturals-1"] = "2"
    answer = client.post("/check-meld", data=form, headers=ENGLISH).get_data(as_text=True)
    assert "three natural cards of one rank" in answer
    bad = client.post("/check-meld", data={**form, "family": "bridge"}, headers=ENGLISH)
    assert bad.status_code == 422


def test_the_rule_book_and_the_rules_of_play_show_modern_american(client: FlaskClient) -> None:
    for path in ("/rules", "/rules/play"):
        html = client.get(path, headers=ENGLISH).get_data(as_text=True)
        assert '<section id="family-modern-american"' in html, path
        assert 'href="#family-modern-american"' in html
        for words in (
            "Modern American Canasta",
            "Canasta of sevens (never a wild card)",
            "2,500",
            "3,000",
            "8,500",
            "Going out takes 2 canastas and earns 100.",
            "There is no bonus for going out concealed.",
            "125, 155, 180 for hands 1 to 3",
            "Pairs with wild cards",
            "−1,500",
        ):
            assert words in html, (path, words)


@pytest.mark.parametrize("language", ["fr", "es"])
def test_the_other_games_speak_the_readers_language(client: FlaskClient, language: str) -> None:
    headers = {"Accept-Language": f"{language};q=1"}
    detector = Detector(translated_messages())
    for path in ("/rules", "/rules/play", "/check-meld?family=modern-american"):
        html = client.get(path, headers=headers).get_data(as_text=True)
        section = html[html.find("<article") :]
        assert detector.leaks(visible_text(section), language) == [], path
    french = client.get("/rules", headers={"Accept-Language": "fr"}).get_data(as_text=True)
    assert "Canasta de sept (jamais de carte libre)" in french
