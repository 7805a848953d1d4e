"""The checker and the rule book in every game of the family (issue 31): the API and the form
take a family, Modern American's minimum, natural triple and uncounted pile top; the rules
page and the rules of play show each other game from its data."""

from __future__ import annotations

import re
from dataclasses import replace

import pytest
from flask.testing import FlaskClient
from languages import Detector, translated_messages, visible_text

from scorer.checker.rulebook import family_refusals
from scorer.core.families import MODERN_AMERICAN
from scorer.core.rules import profile_of

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


# The issue's first worked example (3 595) against its second (-430): tests/games'
# test_modern_american_api.py adds them up.
FOUR = [{"players": ["Ann", "Bob"]}, {"players": ["Cy", "Di"]}]
KINDS = ("natural", "mixed", "sevens", "aces", "wild", "wild_four_jokers", "deuces")
WORKED = {
    "went_out": 0,
    "sides": [
        {
            "meld_points": 105,
            "canastas": {kind: int(kind in ("natural", "sevens")) for kind in KINDS},
            "red_threes": 2,
            "black_threes": 1,
            "hand_points": 10,
        },
        {
            "meld_points": 90,
            "canastas": dict.fromkeys(KINDS, 0),
            "red_threes": 2,
            "hand_points": 40,
        },
    ],
    "confirm": ["opening_minimum"],
}
# Sentences of the Classic game the page tells in full: none is true of Modern American.
CLASSIC_ONLY = (
    "no more than three wild cards",
    "Black threes can only be melded",
    "1,000,000",
    "1,180 with two packs",
    "1 180 with two packs",
    "one to three wild cards",
    "Card values and the other bonuses stay those of the classic game",
    'id="variants"',
)


def test_a_modern_american_games_rules_are_its_own(client: FlaskClient) -> None:
    """Opened from a game, the rules page tells that game's family with that game's numbers
    (its target, its house rules, each side's row), and no sentence of Classic's."""
    rules = {"wild_four_jokers_canasta": 2000, "deuces_canasta": 2000}
    body = {"sides": FOUR, "family": "modern-american", "target": 10000, "rules": rules}
    game = client.post("/api/games", json=body).get_json()
    played = client.post(f"/api/games/{game['id']}/hands", json=WORKED)
    assert played.status_code == 201, played.get_json()
    html = client.get(f"/rules?game={game['id']}", headers=ENGLISH).get_data(as_text=True)
    text = visible_text(html[html.find("<article") :])
    assert "Modern American (2 teams), played to 10,000." in text
    assert "the game is played to 10,000." in text
    assert [f for f in CLASSIC_ONLY if f in html] == []
    assert html.count('<section id="family-') == 1  # its own game, no other's
    assert '<section id="family-modern-american"' in html
    # The house rule "every wild canasta 2 000": all three wild kinds at 2 000.
    for kind in ("one to three of them jokers", "all four jokers and three twos", "seven twos"):
        assert re.search(rf"{kind}</th><td class=\"num\">2,000<", html), kind
    # Ann & Bob at 3 595 need 155, Cy & Di at -430 need 125: their rows are marked.
    current = re.findall(r'<tr class="current"><th scope="row">([^<]*)', html)
    assert [row.strip() for row in current] == ["below 3,000", "3,000 to 4,995"]
    assert "Ann &amp; Bob (3,595)" in html and "Cy &amp; Di (−430)" in html
    assert "8,500" not in text  # the family's usual target is not this game's


def test_a_classic_games_rules_keep_the_whole_book(client: FlaskClient) -> None:
    game = client.post("/api/games", json={"sides": FOUR}).get_json()
    html = client.get(f"/rules?game={game['id']}", headers=ENGLISH).get_data(as_text=True)
    for section in ("card-values", "bonuses", "minimums", "checks", "variants"):
        assert f'<section id="{section}">' in html, section
    assert "In a game played to 10,000 or more, the table gains one more row" in html
    assert '<section id="family-modern-american"' in html  # the other games follow


# docs/rules.md §5a's refusals, as a Modern American game's checks list them (their numbers
# from the family's data: two packs, two wild cards, two canastas to go out, melds of seven).
AMERICAN_REFUSALS = (
    "at most 4 red threes and 4 black threes with 2 packs",
    "never outnumber those in the packs: at most 8 with 2 packs",
    "A meld of sevens never holds a wild card, so neither does a canasta of sevens.",
    "holds at least 2 natural cards and at most 2 wild cards",
    "Going out takes 2 canastas: a hand where a side went out with fewer is refused.",
    "A special hand is only for a side that melded nothing",
    "each meld is 3 to 7 cards of one rank",
    "A meld of wild cards only is 3 to 7 jokers and twos.",
)


def section_text(html: str, opening: str) -> str:
    """The visible words of the page's section that opens with ``opening``."""
    start = html.index(opening)
    return visible_text(html[start : html.index("</section>", start)])


def test_a_modern_american_games_checks_list_its_own_refusals(client: FlaskClient) -> None:
    """The rules page of a Modern American game lists what the scorer refuses in that game,
    §5a's list, not one general sentence; the whole rule book's section of the game too."""
    game = client.post("/api/games", json={"sides": FOUR, "family": "modern-american"})
    html = client.get(f"/rules?game={game.get_json()['id']}", headers=ENGLISH).get_data(
        as_text=True
    )
    checks = section_text(html, '<section id="checks">')
    assert [line for line in AMERICAN_REFUSALS if line not in checks] == []
    assert "Black threes only for the side that went out" not in checks  # Classic's
    book = client.get("/rules", headers=ENGLISH).get_data(as_text=True)
    american = section_text(book, '<section id="family-modern-american"')
    assert "What the scorer refuses" in american
    assert [line for line in AMERICAN_REFUSALS if line not in american] == []
    # Classic's own list stays Classic's: three wild cards, not two.
    assert "at most 2 wild cards" not in section_text(book, '<section id="checks">')


def test_the_refusals_follow_the_games_data(app) -> None:
    """Each sentence takes its numbers from the family, none written in the page: a family
    with melds of at most one wild card and no rank kept natural says so."""
    tighter = replace(MODERN_AMERICAN, meld=replace(MODERN_AMERICAN.meld, max_wild=1))
    tighter = replace(tighter, meld=replace(tighter.meld, natural_only_ranks=()))
    with app.test_request_context(headers=ENGLISH):
        lines = family_refusals(tighter, profile_of(tighter, tighter.seatings[0]))
    assert "A meld or a canasta of one rank holds at least 2 natural cards and at most 1 wild" in (
        " ".join(lines)
    )
    assert not [line for line in lines if "sevens" in line]


@pytest.mark.parametrize(
    ("language", "words"),
    [
        ("fr", "Une combinaison de sept ne contient jamais de carte libre"),
        ("es", "Una combinación de sietes nunca lleva comodín"),
    ],
)
def test_the_refusals_speak_the_readers_language(
    client: FlaskClient, language: str, words: str
) -> None:
    game = client.post("/api/games", json={"sides": FOUR, "family": "modern-american"})
    headers = {"Accept-Language": f"{language};q=1"}
    html = client.get(f"/rules?game={game.get_json()['id']}", headers=headers).get_data(
        as_text=True
    )
    checks = section_text(html, '<section id="checks">')
    assert words in checks
    assert Detector(translated_messages()).leaks(checks, language) == []


# §5b-§5c's refusals beside the groups', as a Samba and a Bolivia game's checks list them:
# three packs, sequences of 3 to 7 from the 4 to the ace, Bolivia's escalera to go out.
THREE_PACK_REFUSALS = {
    "samba": (
        "at most 6 with 3 packs",
        "A sequence is 3 to 7 cards of one suit in order, from 4 up to A, and never holds a "
        "wild card; 7 make a samba, closed",
        "Going out takes 2 canastas",
    ),
    "bolivia": (
        "A sequence is 3 to 7 cards of one suit in order, from 4 up to A, and never holds a "
        "wild card; 7 make an escalera, closed",
        "Going out also takes an escalera among them: a hand where a side went out without one "
        "is refused.",
        "A meld of wild cards only is 3 to 7 jokers and twos.",
    ),
}


@pytest.mark.parametrize("family", ["samba", "bolivia"])
def test_a_three_pack_games_checks_list_its_sequences(client: FlaskClient, family: str) -> None:
    game = client.post("/api/games", json={"sides": FOUR, "family": family})
    html = client.get(f"/rules?game={game.get_json()['id']}", headers=ENGLISH).get_data(
        as_text=True
    )
    checks = section_text(html, '<section id="checks">')
    assert [line for line in THREE_PACK_REFUSALS[family] if line not in checks] == []
    if family == "samba":
        assert "escalera" not in checks and "jokers and twos" not in checks
