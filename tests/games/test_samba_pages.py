"""Samba and Bolivia on the pages (issue 32): the new-game form offers them with their own
house rules (red threes against a side short of its canastas, the 160 of Bicycle's 7 000 row
typed in the minimum table), the hand form takes sequences meld by meld (suit, first and
last card, in the reader's letters) beside the groups, refuses an impossible one at its box
keeping what was typed, and shows a stored one to correct it; the rules pages and the blank
sheets tell both games.

The scores are the core's (scorer.core): each expected total here is the core's scoring of
the same hand, so the pages are held to the engine, not to a sum written twice.
"""

from __future__ import annotations

import random
import re
from typing import Any

import pytest
from deal_samba import BOLIVIA_BOOK, JSON_FORMS, SAMBA_BOOK, expected_scores, json_hand, play_hand
from flask.testing import FlaskClient

from scorer.core.families import BOLIVIA, CLASSIC, SAMBA, RuleFamily
from scorer.core.hand_schema import box_name
from scorer.core.hands import Hand, SideHand, score_hand
from scorer.core.meld import PlannedMeld, PlannedSequence
from scorer.core.rules import get_profile

FOUR = [{"players": ["Ann", "Bob"]}, {"players": ["Cy", "Di"]}]


def create(client: FlaskClient, family: str) -> dict[str, Any]:
    response = client.post("/api/games", json={"sides": FOUR, "family": family})
    assert response.status_code == 201, response.get_json()
    return response.get_json()


def box(family: RuleFamily, kind: str) -> str:
    return box_name(family.canasta_field(kind))


# --- the new-game form ---------------------------------------------------------------------


@pytest.mark.parametrize("key", ["samba", "bolivia"])
def test_the_new_game_form_offers_the_family_with_its_own_ways_of_playing(
    client: FlaskClient, key: str
) -> None:
    page = client.get("/games/new").get_data(as_text=True)
    assert re.search(rf'<option value="{key}">{key.capitalize()} \(2 teams, 3 packs\)', page)
    # Without the script: the variant chosen, its boxes shown by the server.
    page = client.get(f"/games/new?profile={key}").get_data(as_text=True)
    chips = dict(re.findall(r'name="red_threes_count_against" value="(\w+)"([^>]*)>', page))
    # The book's way (against a side short of the canastas to go out) is checked; Classic's
    # "a side without a canasta" is no choice of this family: hidden, sent by none.
    assert "checked" in chips["too_few_canastas"]
    assert "disabled" in chips["no_canasta"] and "checked" not in chips["no_canasta"]
    assert "disabled" not in chips["no_meld"]
    own = "samba_canasta" if key == "samba" else "escalera_canasta"
    assert re.search(rf'id="{own}"[^>]*value="1500"', page)
    assert re.search(r'id="minimums-4-minimum"[^>]*value="150"', page)


def test_bicycles_160_for_the_7000_row_typed_on_the_form(client: FlaskClient) -> None:
    page = client.get("/games/new?profile=samba").get_data(as_text=True)
    body = {
        name: value
        for name, value in re.findall(r'<input[^>]*name="([\w-]+)"[^>]*value="([^"]*)"', page)
        if not name.startswith(("sides-", "csrf"))
    }
    body |= {
        "profile": "samba",
        "red_threes_count_against": "too_few_canastas",
        "tie": "play_on",
        "minimums-4-minimum": "160",
        "sides-0-players-0": "Ann",
        "sides-0-players-1": "Bob",
        "sides-1-players-0": "Cy",
        "sides-1-players-1": "Di",
    }
    made = client.post("/games/new", data=body)
    assert made.status_code == 303, made.get_data(as_text=True)[-3000:]
    game_id = made.headers["Location"].rsplit("/", 1)[-1]
    game = client.get(f"/api/games/{game_id}").get_json()
    assert game["family"] == "samba"
    assert game["rules"]["minimums"][-1] == [7000, 160]
    # Only the minimum table changed: the book's red threes rule is no house rule.
    assert game["house_rules"] == ["minimums"]


# --- the hand form: sequences meld by meld --------------------------------------------------

# Samba, side 0 went out: hearts 4 to 10 (a samba), spades 9 to Q, seven kings, a red three;
# side 1: diamonds 5 to 8 and five nines with a joker, 30 in hand. Typed in French: C for
# cœur, P for pique, K for carreau; R for the king, D for the queen.
FRENCH_ROWS = {
    "went_out": "0",
    "sides-0-sequences-0-suit": "C",
    "sides-0-sequences-0-first": "4",
    "sides-0-sequences-0-last": "10",
    "sides-0-sequences-1-suit": "p",
    "sides-0-sequences-1-first": "9",
    "sides-0-sequences-1-last": "D",
    "sides-0-melds-0-rank": "R",
    "sides-0-melds-0-naturals": "7",
    "sides-0-red_threes": "1",
    "sides-1-sequences-0-suit": "K",
    "sides-1-sequences-0-first": "5",
    "sides-1-sequences-0-last": "8",
    "sides-1-melds-0-rank": "9",
    "sides-1-melds-0-naturals": "5",
    "sides-1-melds-0-jokers": "1",
    "sides-1-hand_points": "30",
}
FRENCH = {"Accept-Language": "fr-FR,fr;q=0.9"}


def french_hand() -> Hand:
    return Hand(
        sides=(
            SideHand(
                melds=(PlannedMeld("K", 7),),
                sequences=(
                    PlannedSequence("hearts", "4", "10"),
                    PlannedSequence("spades", "9", "Q"),
                ),
                red_threes=1,
                family=SAMBA,
            ),
            SideHand(
                melds=(PlannedMeld("9", 5, 1),),
                sequences=(PlannedSequence("diamonds", "5", "8"),),
                hand_points=30,
                family=SAMBA,
            ),
        ),
        went_out=0,
    )


def test_sequences_typed_in_french_score_as_the_core_and_come_back_to_correct(
    client: FlaskClient,
) -> None:
    game = create(client, "samba")
    url = f"/games/{game['id']}/hands"
    page = client.get(f"{url}/new", headers=FRENCH).get_data(as_text=True)
    assert "Séquences" in page and "(T, K, C, P)" in page
    totals = [s.total for s in score_hand(get_profile(None, "samba"), french_hand())]
    check = client.post(f"{url}/check", data=FRENCH_ROWS, headers=FRENCH).get_json()
    assert check["verdict"] == "ok", check
    assert [side["total"] for side in check["sides"]] == totals
    # The melds decide the canastas: the samba and the natural canasta of kings.
    assert check["decided"][0][box(SAMBA, "samba")] == 1
    assert check["decided"][0][box(SAMBA, "natural")] == 1
    saved = client.post(f"{url}/new", data=FRENCH_ROWS, headers=FRENCH)
    assert saved.status_code == 303, saved.get_data(as_text=True)[-3000:]
    stored = client.get(f"/api/games/{game['id']}/export").get_json()["hands"][0]["sides"]
    assert [(s["suit"], s["first"], s["last"]) for s in stored[0]["sequences"]] == [
        ("hearts", "4", "10"),
        ("spades", "9", "Q"),
    ]
    assert [
        side["total"] for side in client.get(f"/api/games/{game['id']}").get_json()["sides"]
    ] == totals
    # The correction shows each sequence in the reader's letters, and sent back as it is
    # changes nothing.
    page = client.get(f"{url}/1/edit", headers=FRENCH).get_data(as_text=True)
    for name, value in (("0-suit", "C"), ("1-suit", "P"), ("1-last", "D"), ("0-last", "10")):
        assert re.search(rf'id="sides-0-sequences-{name}"[^>]*value="{value}"', page), name
    version = client.get(f"/api/games/{game['id']}").get_json()["version"]
    again = client.post(
        f"{url}/1/edit", data={**FRENCH_ROWS, "version": str(version)}, headers=FRENCH
    )
    assert again.status_code == 303
    assert client.get(f"/api/games/{game['id']}/export").get_json()["hands"][0]["sides"] == stored


@pytest.mark.parametrize(
    ("rows", "box_id", "words"),
    [
        # A wild card in a sequence: at the row's wild-card box.
        ({"sides-0-sequences-0-jokers": "1"}, "sides-0-sequences-0-jokers", "no wild card"),
        # An eighth card on a samba: 4 up to the jack.
        ({"sides-0-sequences-0-last": "J"}, "sides-0-sequences-0-last", "at most seven"),
        # A two or a three is no card of a sequence.
        ({"sides-0-sequences-0-first": "3"}, "sides-0-sequences-0-first", "from 4 up"),
        # A suit nobody plays.
        ({"sides-0-sequences-0-suit": "X"}, "sides-0-sequences-0-suit", "one suit"),
    ],
)
def test_an_impossible_sequence_is_refused_at_its_box_keeping_what_was_typed(
    client: FlaskClient, rows: dict[str, str], box_id: str, words: str
) -> None:
    game = create(client, "samba")
    url = f"/games/{game['id']}/hands"
    body = {
        "went_out": "0",
        "sides-0-sequences-0-suit": "H",
        "sides-0-sequences-0-first": "4",
        "sides-0-sequences-0-last": "10",
        "sides-0-melds-0-rank": "K",
        "sides-0-melds-0-naturals": "7",
        "sides-1-meld_points": "90",
        "sides-1-hand_points": "25",
        **rows,
    }
    check = client.post(f"{url}/check", data=body).get_json()
    assert (check["verdict"], check["field"]) == ("refused", box_id), check
    saved = client.post(f"{url}/new", data=body)
    assert saved.status_code == 422
    page = saved.get_data(as_text=True)
    assert re.search(rf'id="{box_id}-error">[^<]*{words}', page), page[-3000:]
    name = box_id.removeprefix("sides-0-sequences-0-")
    typed = body[f"sides-0-sequences-0-{name}"]
    assert re.search(rf'id="{box_id}"[^>]*value="{typed}"', page)
    assert re.search(r"<details[^>]*data-counter=\"melds\"[^>]* open", page)
    assert client.get(f"/api/games/{game['id']}").get_json()["hands"] == []


def test_going_out_in_bolivia_without_an_escalera_is_refused_at_its_box(
    client: FlaskClient,
) -> None:
    game = create(client, "bolivia")
    body = {
        "went_out": "0",
        "sides-0-meld_points": "200",
        f"sides-0-{box(BOLIVIA, 'natural')}": "2",
        "sides-1-meld_points": "90",
    }
    escalera = f"sides-0-{box(BOLIVIA, 'escalera')}"
    check = client.post(f"/games/{game['id']}/hands/check", data=body).get_json()
    assert (check["verdict"], check["field"]) == ("refused", escalera), check
    page = client.post(f"/games/{game['id']}/hands/new", data=body).get_data(as_text=True)
    assert re.search(rf'id="{escalera}-error">[^<]*escalera', page)
    # Meld by meld, the refusal goes under the side's sequences.
    melds = {
        "went_out": "0",
        "sides-0-melds-0-rank": "K",
        "sides-0-melds-0-naturals": "7",
        "sides-0-melds-1-rank": "Q",
        "sides-0-melds-1-naturals": "7",
        "sides-1-meld_points": "90",
    }
    check = client.post(f"/games/{game['id']}/hands/check", data=melds).get_json()
    assert (check["verdict"], check["field"]) == ("refused", "sides-0-sequences-0-suit"), check


def test_add_a_sequence_without_javascript(client: FlaskClient) -> None:
    game = create(client, "bolivia")
    body = {"sides-0-sequences-0-suit": "H", "add_sequence": "0"}
    page = client.post(f"/games/{game['id']}/hands/new", data=body).get_data(as_text=True)
    assert len(re.findall(r'id="sides-0-sequences-\d-suit"', page)) == 3
    assert len(re.findall(r'id="sides-1-sequences-\d-suit"', page)) == 2
    assert re.search(r'id="sides-0-sequences-0-suit"[^>]*value="H"', page)
    # Bolivia's meld rows name both black threes and its melds of wild cards.
    assert "3 for black threes, or W for a meld of wild cards only" in page
    assert client.get(f"/api/games/{game['id']}").get_json()["hands"] == []


def test_a_classic_hand_form_asks_no_sequence(client: FlaskClient) -> None:
    response = client.post("/api/games", json={"sides": FOUR})
    game_id = response.get_json()["id"]
    page = client.get(f"/games/{game_id}/hands/new").get_data(as_text=True)
    assert "sequences-0-suit" not in page and "Add a sequence" not in page
    assert CLASSIC.sequences is None


# --- the rules pages and the blank sheets --------------------------------------------------


def test_the_rules_of_a_samba_and_a_bolivia_game(client: FlaskClient) -> None:
    samba = client.get(f"/rules?game={create(client, 'samba')['id']}").get_data(as_text=True)
    assert "A sequence is 3 to 7 cards of one suit in order" in samba
    assert "draws 2 cards from the stock and discards one" in samba
    assert "Red threes count against a side without the canastas to go out." in samba
    assert "Samba: seven cards of one suit in sequence" in samba
    assert "escalera" not in samba.lower()
    bolivia = client.get(f"/rules?game={create(client, 'bolivia')['id']}").get_data(as_text=True)
    assert "One of them must be of this kind: Escalera" in bolivia
    assert "Bolivia: seven wild cards" in bolivia
    assert "Each black three still in a player" in bolivia and "\u2212100" in bolivia
    assert "Wild cards may also make a meld of their own" in bolivia
    # The rule book and the rules of play list both games beside Classic.
    for path in ("/rules", "/rules/play"):
        page = client.get(path).get_data(as_text=True)
        assert 'id="family-samba"' in page and 'id="family-bolivia"' in page, path


@pytest.mark.parametrize("key", ["samba", "bolivia"])
def test_the_blank_sheets_of_the_family(client: FlaskClient, key: str) -> None:
    page = client.get("/sheets").get_data(as_text=True)
    assert f"&amp;family={key}" in page
    sheet = client.get(f"/sheets/blank.pdf?sides=2&family={key}")
    assert sheet.status_code == 200 and sheet.mimetype == "application/pdf"


# --- dealt hands through the form, every way a table enters them ------------------------------

# What a player types for the API's words: the English letters of the suits and of a meld of
# wild cards only (the form's own; the French ones have their test above).
SUIT_TYPED = {"clubs": "C", "diamonds": "D", "hearts": "H", "spades": "S"}
RANK_TYPED = {"wild": "W"}


def form_side(family: RuleFamily, side: int, call: dict[str, Any]) -> dict[str, str]:
    """One side of a dealt hand (tests/deal_samba.py's JSON call) as the form's boxes."""
    boxes: dict[str, Any] = {}
    for name in ("meld_points", "hand_points", "red_threes", "black_threes_in_hand"):
        if name in call:
            boxes[name] = call[name]
    for kind, count in call.get("canastas", {}).items():
        boxes[box(family, kind)] = count
    for where in ("meld", "hand"):
        for group, count in call.get(f"{where}_cards", {}).items():
            boxes[f"{where}_{group}"] = count
    for j, meld in enumerate(call.get("melds", [])):
        boxes[f"melds-{j}-rank"] = RANK_TYPED.get(meld["rank"], meld["rank"])
        for name in ("naturals", "jokers", "twos"):
            boxes[f"melds-{j}-{name}"] = meld.get(name, 0)
    for j, sequence in enumerate(call.get("sequences", [])):
        boxes[f"sequences-{j}-suit"] = SUIT_TYPED[sequence["suit"]]
        boxes[f"sequences-{j}-first"] = sequence["first"]
        boxes[f"sequences-{j}-last"] = sequence["last"]
    # An empty box is a nought, as a person leaves it.
    return {f"sides-{side}-{name}": str(value) for name, value in boxes.items() if value}


@pytest.mark.parametrize("family", [SAMBA, BOLIVIA], ids=lambda family: family.key)
def test_dealt_hands_entered_every_way_on_the_form_are_never_refused(
    client: FlaskClient, family: RuleFamily
) -> None:
    """Hands dealt from three shuffled packs, entered on the hand form (points typed, cards
    counted, meld by meld): its dry run and its save take every one, at the rule book's
    score (the API's own sweep is tests/games/test_samba_api.py's)."""
    book = {SAMBA.key: SAMBA_BOOK, BOLIVIA.key: BOLIVIA_BOOK}[family.key]
    game = create(client, family.key)
    entered = 0
    for seed in range(12):
        end = play_hand(book, random.Random(seed))
        expected = list(expected_scores(end))
        for way in JSON_FORMS:
            call = json_hand(end, way)
            out = call["went_out"]
            body = {"went_out": "none" if out is None else str(out), "confirm": "opening_minimum"}
            for side, side_call in enumerate(call["sides"]):
                body |= form_side(family, side, side_call)
            url = f"/games/{game['id']}/hands"
            check = client.post(f"{url}/check", data=body).get_json()
            assert check["verdict"] in ("ok", "ask"), (seed, way, check)
            assert [side["total"] for side in check["sides"]] == expected, (seed, way)
            saved = client.post(f"{url}/new", data=body)
            assert saved.status_code == 303, (seed, way, saved.get_data(as_text=True)[-2000:])
            stored = client.get(f"/api/games/{game['id']}").get_json()
            totals = [side["score"]["total"] for side in stored["hands"][-1]["sides"]]
            assert totals == expected, (seed, way)
            entered += 1
            if stored["finished"]:
                game = create(client, family.key)
    assert entered == 36
