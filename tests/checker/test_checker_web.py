"""The checker on the web: the JSON endpoint, the form without JavaScript, the rules of play."""

from __future__ import annotations

import re
from html import unescape
from typing import Any

import pytest
from flask.testing import FlaskClient
from languages import Detector, translated_messages, visible_text
from meldcases import ANCHORS, CASES, Case

FRENCH = {"Accept-Language": "fr-FR,fr;q=0.9"}
ENGLISH = {"Accept-Language": "en-GB,en;q=0.9"}
API = "/api/opening-meld"
EIGHTY_FIVE = [
    {"rank": "K", "naturals": 3, "jokers": 0, "twos": 1},
    {"rank": "7", "naturals": 3},
    {"rank": "4", "naturals": 4, "jokers": 0, "twos": 0},
]


def test_85_of_90_is_5_short(client: FlaskClient) -> None:
    answer = client.post(API, json={"minimum": 90, "melds": EIGHTY_FIVE})
    assert answer.status_code == 200
    body = answer.get_json()
    assert {k: body[k] for k in ("points", "minimum", "enough", "short", "problems")} == {
        "points": 85,
        "minimum": 90,
        "enough": False,
        "short": 5,
        "problems": [],
    }
    enough = client.post(API, json={"minimum": 85, "melds": EIGHTY_FIVE}).get_json()
    assert (enough["enough"], enough["short"]) == (True, 0)


def test_an_illegal_meld_is_named_and_not_counted(client: FlaskClient) -> None:
    melds = [*EIGHTY_FIVE, {"rank": "Q", "naturals": 1, "jokers": 1, "twos": 1}]
    body = client.post(API, json={"minimum": 90, "melds": melds}).get_json()
    assert body["points"] == 85
    assert body["problems"] == [
        {
            "meld": 3,
            "field": "melds[3].naturals",
            "code": "too-few-naturals",
            "error": "a meld needs at least two natural cards",
        }
    ]
    assert body["melds"][3] == {"points": 80, "counted": False}  # 10 + 50 + 20
    french = client.post(API, json={"minimum": 90, "melds": melds}, headers=FRENCH).get_json()
    assert (
        french["problems"][0]["error"] == "une combinaison demande au moins deux cartes naturelles"
    )


def test_house_rule_going_out_and_the_pile(client: FlaskClient) -> None:
    meld = [{"rank": "K", "naturals": 2, "jokers": 2, "twos": 1}]
    plain = client.post(API, json={"minimum": 50, "melds": meld}).get_json()
    assert plain["problems"] == [] and plain["points"] == 140
    house = client.post(
        API,
        json={"minimum": 50, "melds": meld, "house_rules": {"wild_never_outnumber_naturals": True}},
    ).get_json()
    assert [p["code"] for p in house["problems"]] == ["wild-outnumber"]
    assert house["points"] == 0
    threes = [{"rank": "A", "naturals": 3}, {"rank": "3", "naturals": 3}]
    out = client.post(API, json={"minimum": 50, "melds": threes, "going_out": True}).get_json()
    assert out["points"] == 75 and out["problems"] == []
    stay = client.post(API, json={"minimum": 50, "melds": threes}).get_json()
    assert stay["points"] == 60 and stay["problems"][0]["field"] == "melds[1].rank"
    pile = client.post(
        API, json={"minimum": 50, "melds": [{"rank": "K", "naturals": 3}], "discard_top": "Q"}
    ).get_json()
    assert pile["problems"][0] == {
        "meld": None,
        "field": "discard_top",
        "code": "pile-no-meld",
        "error": "no planned meld has the rank of the pile's top card",
    }


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"melds": []}, "minimum"),
        ({"minimum": -5, "melds": []}, "minimum"),
        ({"minimum": "90", "melds": []}, "minimum"),
        ({"minimum": 90}, "melds"),
        ({"minimum": 90, "melds": {}}, "melds"),
        ({"minimum": 90, "melds": [3]}, "melds[0]"),
        ({"minimum": 90, "melds": [{"rank": "K"}]}, "melds[0].naturals"),
        ({"minimum": 90, "melds": [{"rank": "2", "naturals": 3}]}, "melds[0].rank"),
        ({"minimum": 90, "melds": [{"rank": "K", "naturals": -1}]}, "melds[0].naturals"),
        ({"minimum": 90, "melds": [{"rank": "K", "naturals": 3, "jokers": 9}]}, "melds[0].jokers"),
        ({"minimum": 90, "melds": [{"rank": "K", "naturals": 3, "suit": "h"}]}, "melds[0].suit"),
        ({"minimum": 90, "melds": [], "house_rules": {"x": True}}, "house_rules.x"),
        (
            {"minimum": 90, "melds": [], "house_rules": {"wild_never_outnumber_naturals": 1}},
            "wild_never_outnumber_naturals",
        ),
        ({"minimum": 90, "melds": [], "going_out": "yes"}, "going_out"),
        ({"minimum": 90, "melds": [], "discard_top": "joker"}, "discard_top"),
        ({"minimum": 90, "melds": [], "color": 1}, "color"),
        ({"game": 5, "melds": []}, "game"),
        ([1, 2], None),
    ],
)
def test_a_malformed_request_gets_400_naming_the_field(
    client: FlaskClient, body: Any, field: str | None
) -> None:
    answer = client.post(API, json=body)
    assert answer.status_code == 400
    assert answer.get_json()["field"] == field
    assert answer.get_json()["error"]


def test_only_json_is_read(client: FlaskClient) -> None:
    assert client.post(API, data="minimum=90").status_code == 400
    broken = client.post(API, data="{", content_type="application/json")
    assert broken.status_code == 400 and broken.get_json()["field"] is None


def test_a_games_minimum_for_a_side(client: FlaskClient) -> None:
    game = client.post(
        "/api/games", json={"sides": [{"players": ["Léa", "Marc"]}, {"players": ["Zoé", "Hugo"]}]}
    ).get_json()
    hand = {
        "sides": [
            {"meld_points": 600, "natural_canastas": 2},
            {"meld_points": 50, "hand_points": 150},
        ]
    }
    assert client.post(f"/api/games/{game['id']}/hands", json=hand).status_code == 201
    # Side 0 has 1 600 (minimum 90), side 1 has -100 (minimum 15).
    first = client.post(API, json={"game": game["id"], "side": 0, "melds": EIGHTY_FIVE}).get_json()
    assert (first["minimum"], first["short"]) == (90, 5)
    second = client.post(API, json={"game": game["id"], "side": 1, "melds": []}).get_json()
    assert (second["minimum"], second["short"]) == (15, 15)
    bad_side = client.post(API, json={"game": game["id"], "side": 2, "melds": []})
    assert bad_side.status_code == 400 and bad_side.get_json()["field"] == "side"
    missing = client.post(API, json={"game": "nope", "side": 0, "melds": []})
    assert missing.status_code == 404 and missing.get_json()["field"] == "game"


def verdict(html: str) -> str:
    match = re.search(r'id="verdict"[^>]*>([^<]*)<', html)
    assert match, html
    return match.group(1).strip()


def form(*rows: tuple[str, str, str, str], **extra: str) -> dict[str, str]:
    data = {"minimum": "90", **extra}
    for i, (rank, naturals, jokers, twos) in enumerate(rows):
        data |= {
            f"rank-{i}": rank,
            f"naturals-{i}": naturals,
            f"jokers-{i}": jokers,
            f"twos-{i}": twos,
        }
    return data


def test_the_form_gives_the_same_verdict_as_the_endpoint(client: FlaskClient) -> None:
    rows = [("K", "3", "", "1"), ("7", "3", "", ""), ("4", "4", "0", "")]
    page = client.post("/check-meld", data=form(*rows), headers=ENGLISH)
    assert page.status_code == 200
    assert verdict(page.get_data(as_text=True)) == "85 of 90: 5 short"
    enough = client.post("/check-meld", data=form(*rows, ("5", "2", "", "1")), headers=ENGLISH)
    assert verdict(enough.get_data(as_text=True)) == "115: you can open"
    french = client.post("/check-meld", data=form(*rows), headers=FRENCH)
    assert verdict(french.get_data(as_text=True)) == "85 sur 90\u00a0: il manque 5"


def test_the_form_says_why_at_the_row(client: FlaskClient) -> None:
    rows = [("K", "3", "", "1"), ("", "", "", ""), ("3", "3", "", "")]
    html = client.post("/check-meld", data=form(*rows), headers=ENGLISH).get_data(as_text=True)
    assert verdict(html) == "50 of 90: 40 short"
    row = re.search(r'data-row="2".*?</div>\s*</div>', html, re.S)
    assert row and "black threes are melded only by the player going out" in row.group(0)
    assert "Not counted" in row.group(0)
    going_out = client.post("/check-meld", data=form(*rows, going_out="1"), headers=ENGLISH)
    assert verdict(going_out.get_data(as_text=True)) == "65 of 90: 25 short"


def test_the_form_refuses_what_it_cannot_read(client: FlaskClient) -> None:
    html = client.post("/check-meld", data=form(("K", "three", "", "")), headers=ENGLISH).get_data(
        as_text=True
    )
    assert "must be a whole number from 0 to 12" in html
    assert verdict(html) == ""
    bad_minimum = client.get("/check-meld?minimum=abc", headers=ENGLISH).get_data(as_text=True)
    assert 'aria-invalid="true"' in bad_minimum


def test_the_get_form_takes_the_minimum_from_the_link(client: FlaskClient) -> None:
    html = client.get("/check-meld?minimum=120").get_data(as_text=True)
    assert 'name="minimum" inputmode="numeric" value="120"' in html
    assert html.count('name="naturals-') == 6
    assert "no canasta bonus, no red three" in html


@pytest.mark.parametrize("headers", [ENGLISH, FRENCH])
def test_the_rules_of_play_have_every_section(client: FlaskClient, headers: dict[str, str]) -> None:
    html = client.get("/rules/play", headers=headers).get_data(as_text=True)
    for anchor in ANCHORS:
        assert f'<section id="{anchor}">' in html, anchor
        assert f'href="#{anchor}"' in html, anchor
    assert "925" in html
    assert html.count("<li>") >= len(ANCHORS) + 5  # every variant is listed


# --- one table of cases, the same verdicts from the form and the endpoint ---------------------


def form_answer(html: str) -> tuple[str, dict[int, tuple[str, ...]], str | None]:
    """The verdict, the reasons row by row and the pile's reason, as the form shows them."""
    reasons = {}
    for index, body in re.findall(r'data-row="(\d+)">(.*?)</div>\s*</div>', html, re.S):
        found = tuple(re.findall(r'<p class="field-error">([^<]*)</p>', body))
        if found:
            reasons[int(index)] = tuple(unescape(text) for text in found)
    top = re.search(r"<p class=\"field-error\" data-top-error>([^<]+)</p>", html)
    return verdict(html), reasons, unescape(top.group(1)) if top else None


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_the_form_and_the_endpoint_agree_case_by_case(client: FlaskClient, case: Case) -> None:
    html = client.post("/check-meld", data=case.form(), headers=ENGLISH).get_data(as_text=True)
    assert form_answer(html) == (case.verdict, case.reasons, case.top_reason)
    body = client.post(API, json=case.json(), headers=ENGLISH).get_json()
    enough = body["enough"]
    said = (
        f"{body['points']}: you can open"
        if enough
        else f"{body['points']} of {body['minimum']}: {body['short']} short"
    )
    reasons: dict[int, tuple[str, ...]] = {}
    for problem in body["problems"]:
        if problem["meld"] is not None:
            reasons[problem["meld"]] = (*reasons.get(problem["meld"], ()), problem["error"])
    top = [p["error"] for p in body["problems"] if p["meld"] is None]
    assert (said, reasons, top[0] if top else None) == (
        case.verdict,
        case.reasons,
        case.top_reason,
    )


# --- from a side's minimum: the checker for that side -----------------------------------------


@pytest.fixture
def game_id(client: FlaskClient) -> str:
    """A game where side 0 has 1 600 (minimum 90) and side 1 has -100 (minimum 15)."""
    sides = [{"players": ["Léa", "Marc"]}, {"players": ["Zoé", "Hugo"]}]
    game = client.post("/api/games", json={"sides": sides}).get_json()["id"]
    hand = {
        "sides": [
            {"meld_points": 600, "natural_canastas": 2},
            {"meld_points": 50, "hand_points": 150},
        ]
    }
    assert client.post(f"/api/games/{game}/hands", json=hand).status_code == 201
    return game


def test_each_minimum_on_the_scoreboard_opens_the_checker_for_its_side(
    client: FlaskClient, game_id: str
) -> None:
    board = client.get(f"/games/{game_id}", headers=ENGLISH).get_data(as_text=True)
    links = re.findall(
        r'<a href="(/check-meld\?game=[^"]+)" aria-label="([^"]+)">([^<]+)</a>', board
    )
    assert [(unescape(h), label, text) for h, label, text in links] == [
        (f"/check-meld?game={game_id}&side=0", "90: is my meld enough to open?", "90"),
        (f"/check-meld?game={game_id}&side=1", "15: is my meld enough to open?", "15"),
    ]
    for (href, _label, text), name in zip(links, ("Léa & Marc", "Zoé & Hugo"), strict=True):
        page = client.get(unescape(href), headers=ENGLISH)
        assert page.status_code == 200
        html = page.get_data(as_text=True)
        assert f'name="minimum" inputmode="numeric" value="{text}"' in html
        assert f"{name} needs {text} to open." in unescape(html)
        assert f'href="/games/{game_id}">Back to the game</a>' in html
        # The side stays named when the form is sent.
        sent = client.post(
            "/check-meld",
            data={"game": game_id, "side": href[-1], "minimum": text, "rank-0": "A"}
            | {"naturals-0": "3"},
            headers=ENGLISH,
        ).get_data(as_text=True)
        assert f"{name} needs {text} to open." in unescape(sent)
        assert verdict(sent) == ("60 of 90: 30 short" if text == "90" else "60: you can open")


def test_a_finished_game_shows_no_minimum_to_check(client: FlaskClient) -> None:
    sides = [{"players": ["Léa", "Marc"]}, {"players": ["Zoé", "Hugo"]}]
    game = client.post("/api/games", json={"sides": sides, "target": 1000}).get_json()["id"]
    hand = {"sides": [{"meld_points": 800, "natural_canastas": 1}, {"meld_points": 50}]}
    assert client.post(f"/api/games/{game}/hands", json=hand).status_code == 201
    assert "/check-meld" not in client.get(f"/games/{game}").get_data(as_text=True)


@pytest.mark.parametrize("query", ["game=nope&side=0", "side=5&game={id}", "game={id}&side=x"])
def test_an_unknown_game_or_side_is_not_found(
    client: FlaskClient, game_id: str, query: str
) -> None:
    answer = client.get("/check-meld?" + query.format(id=game_id), headers=ENGLISH)
    assert answer.status_code == 404
    assert "text/html" in answer.content_type


def test_the_hand_form_links_each_side_to_its_checker_and_labels_to_the_rules(
    client: FlaskClient, game_id: str
) -> None:
    html = client.get(f"/games/{game_id}/hands/new?out=0", headers=ENGLISH).get_data(as_text=True)
    checks = re.findall(r'<a class="meld-check" href="([^"]+)">([^<]+)</a>', html)
    assert [(unescape(h), t) for h, t in checks] == [
        (f"/check-meld?game={game_id}&side=0&minimum=90", "Is my meld enough?"),
        (f"/check-meld?game={game_id}&side=1&minimum=15", "Is my meld enough?"),
    ]
    helps = re.findall(
        r'<a class="q" href="/rules/play#([\w-]+)" aria-label="([^"]+)">\?</a>', html
    )
    assert helps == [
        ("scoring", "How a hand scores"),  # the sheet's rows, in reading order
        ("canastas", "How canastas score"),
        ("red-threes", "How red threes count"),
        ("end-of-hand", "How a hand ends"),
        ("going-out", "When you may go out"),
        ("going-out", "What going out concealed means"),
    ]
    play = client.get("/rules/play", headers=ENGLISH).get_data(as_text=True)
    for anchor, _name in helps:
        assert f'<section id="{anchor}">' in play


def test_the_scoring_rules_and_the_rules_of_play_link_to_each_other(client: FlaskClient) -> None:
    rules = client.get("/rules", headers=ENGLISH).get_data(as_text=True)
    assert '<a href="/rules/play">How to play Canasta</a>' in rules
    play = client.get("/rules/play", headers=ENGLISH).get_data(as_text=True)
    assert '<a href="/rules">Scoring rules</a>' in play


# --- the rules of play and the checker in every language --------------------------------------

SPANISH = {"Accept-Language": "es-UY,es;q=0.9"}
TITLES = {
    "en": "How to play Canasta",
    "fr": "Comment jouer à la canasta",
    "es": "Cómo se juega a la canasta",
}


@pytest.mark.parametrize("language", ["en", "fr", "es"])
def test_the_rules_of_play_and_the_checker_speak_one_language(
    client: FlaskClient, game_id: str, language: str
) -> None:
    headers = {"en": ENGLISH, "fr": FRENCH, "es": SPANISH}[language]
    play = client.get("/rules/play", headers=headers).get_data(as_text=True)
    assert f"<h1>{TITLES[language]}</h1>" in play
    for anchor in ANCHORS:
        assert f'<section id="{anchor}">' in play and f'href="#{anchor}"' in play, anchor
    detector = Detector(translated_messages())
    pages = {
        "play": play,
        "checker": client.get("/check-meld", headers=headers).get_data(as_text=True),
        "side": client.get(f"/check-meld?game={game_id}&side=0", headers=headers).get_data(
            as_text=True
        ),
    }
    # Every reason the form can give, and its verdicts, in the page's language.
    for case in CASES:
        pages[case.name] = client.post("/check-meld", data=case.form(), headers=headers).get_data(
            as_text=True
        )
    for name, html in pages.items():
        text = visible_text(html)
        assert detector.leaks(text, language) == [], name
        # The script's words (reasons and verdicts) sit in attributes: read them too.
        attributes = " ".join(unescape(v) for v in re.findall(r'data-[\w-]+="([^"]*)"', html))
        assert detector.leaks(attributes, language) == [], name
