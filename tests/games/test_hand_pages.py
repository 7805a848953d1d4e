"""A long game's hands come a page at a time (issue 35): the newest 50 with their breakdowns,
then plain links to the earlier ones (?hands=2, 3...), every hand still correctable from its
page; the totals, minimums and actions around them are the whole game's on every page.

The games are STEADY hands (tests/apidata.py): after hand k the totals are 10 k and 5 k.
"""

from __future__ import annotations

import html
import re

import pytest
from apidata import steady_export
from flask.testing import FlaskClient

from scorer.web import display

PAGE = display.HANDS_PER_PAGE


def imported(client: FlaskClient, hands: int) -> dict:
    response = client.post("/api/games/import", json=steady_export(hands))
    assert response.status_code == 201, response.get_json()
    return response.get_json()


def text(response) -> str:  # noqa: ANN001
    assert response.status_code == 200, response.status_code
    return response.get_data(as_text=True)


def rows(page: str) -> list[tuple[int, list[str]]]:
    """Each hand row shown: its number and its running totals as written, in page order."""
    found = []
    for number, row in re.findall(
        r'<details class="hand-row[^"]*" id="hand-(\d+)"(.*?)</details>', page, re.S
    ):
        found.append((int(number), re.findall(r'<span class="running">([^<]*)</span>', row)))
    return found


def numbers(page: str) -> list[int]:
    return [number for number, _totals in rows(page)]


def opened(page: str) -> list[int]:
    return [int(n) for n in re.findall(r'id="hand-(\d+)" open', page)]


def position(page: str) -> str | None:
    found = re.search(r'<p class="hand-position">([^<]*)</p>', page)
    return html.unescape(found.group(1)) if found else None


def links(page: str) -> dict[str, str]:
    """The links of the pages of hands, by their words."""
    nav = re.search(r'<nav class="hand-pages"[^>]*>(.*?)</nav>', page, re.S)
    if nav is None:
        return {}
    return {
        html.unescape(words): html.unescape(href)
        for href, words in re.findall(r'<a class="button" href="([^"]*)">([^<]*)</a>', nav.group(1))
    }


def totals(page: str) -> list[int]:
    return [int(t) for t in re.findall(r'data-total="(-?\d+)"', page)]


def test_a_long_game_shows_its_newest_hands_then_links_to_the_earlier_ones(client: FlaskClient):
    game = imported(client, 120)
    board = f"/games/{game['id']}"
    newest = text(client.get(board))
    assert numbers(newest) == list(range(120, 70, -1))
    assert rows(newest)[0] == (120, ["1,200", "600"])
    assert rows(newest)[-1] == (71, ["710", "355"])
    assert opened(newest) == [120]  # the game's newest hand, as before
    assert position(newest) == "Hands 71–120 of 120"
    assert links(newest) == {"Earlier hands": f"{board}?hands=2#hands-title"}

    second = text(client.get(f"{board}?hands=2"))
    assert numbers(second) == list(range(70, 20, -1))
    assert rows(second)[0] == (70, ["700", "350"])
    assert opened(second) == []
    assert position(second) == "Hands 21–70 of 120"
    assert links(second) == {
        "Later hands": f"{board}#hands-title",
        "Earlier hands": f"{board}?hands=3#hands-title",
    }

    oldest = text(client.get(f"{board}?hands=3"))
    assert numbers(oldest) == list(range(20, 0, -1))
    assert rows(oldest)[-1] == (1, ["10", "5"])
    assert position(oldest) == "Hands 1–20 of 120"
    assert links(oldest) == {"Later hands": f"{board}?hands=2#hands-title"}

    for page in (newest, second, oldest):
        # The whole game around every page: its totals, its minimums, its last hand's undo.
        assert totals(page) == [1200, 600]
        assert page.count('data-minimum="50"') == 2
        assert f'href="{board}/undo"' in page
        for number in numbers(page):
            assert f'href="{board}/hands/{number}/edit"' in page


def test_a_page_past_the_last_shows_the_oldest_and_nonsense_is_refused(client: FlaskClient):
    """A page left open while hands were removed on another phone still reads (the oldest);
    a page that no game can have is a 400 in plain words."""
    board = f"/games/{imported(client, 120)['id']}"
    assert numbers(text(client.get(f"{board}?hands=4"))) == list(range(20, 0, -1))
    for asked in ("0", "-1", "x", "21", "2.5"):
        assert client.get(f"{board}?hands={asked}").status_code == 400


def test_a_game_of_one_page_shows_every_hand_and_no_pages(client: FlaskClient):
    board = f"/games/{imported(client, PAGE)['id']}"
    page = text(client.get(board))
    assert numbers(page) == list(range(PAGE, 0, -1))
    assert opened(page) == [PAGE]
    assert position(page) is None and links(page) == {}
    assert "hand-position" not in page and "hand-pages" not in page

    board = f"/games/{imported(client, PAGE + 1)['id']}"
    assert numbers(text(client.get(board))) == list(range(PAGE + 1, 1, -1))
    assert numbers(text(client.get(f"{board}?hands=2"))) == [1]


def test_a_hand_on_an_earlier_page_is_corrected_from_it_and_leads_back_there(
    client: FlaskClient,
):
    board = f"/games/{imported(client, 120)['id']}"
    assert f'href="{board}/hands/30/edit"' in text(client.get(f"{board}?hands=2"))
    form = text(client.get(f"{board}/hands/30/edit"))
    back = f"{board}?hands=2#hand-30"
    assert f'href="{back}" data-cancel' in form  # Cancel, and the game's title above
    assert f'<a href="{back}">' in form
    assert f'data-outbox-done="{back}"' in form  # where the form goes once sent by script
    version = re.search(r'name="version"[^>]*value="(\d+)"', form).group(1)
    # Ann & Bob left 110 points in hand, not 140: hand 30 scores +40, every total after +30.
    corrected = {
        "version": version,
        "went_out": "none",
        "sides-0-meld_points": "150",
        "sides-0-hand_points": "110",
        "sides-1-meld_points": "150",
        "sides-1-hand_points": "145",
    }
    saved = client.post(f"{board}/hands/30/edit", data=corrected)
    assert saved.status_code == 303
    assert saved.headers["Location"] == back
    page = text(client.get(f"{board}?hands=2"))
    assert "Hand 30 corrected." in page
    assert dict(rows(page))[30] == ["330", "150"]
    assert dict(rows(page))[31] == ["340", "155"]
    assert totals(page) == [1230, 600]
    # Removing it is asked from its form too; "No" leads back to its page.
    confirm = text(client.get(f"{board}/hands/30/delete"))
    assert f'href="{back}">No, go back</a>' in confirm


def test_the_newest_page_leads_back_to_the_top_of_the_board(client: FlaskClient):
    """A correction of a hand on the newest page goes back to the scoreboard as before."""
    board = f"/games/{imported(client, 120)['id']}"
    form = text(client.get(f"{board}/hands/71/edit"))
    assert f'href="{board}" data-cancel' in form


@pytest.mark.parametrize(
    ("language", "words"),
    [
        ("fr", ("Donnes 71 à 120 sur 120", "Donnes plus anciennes", "Donnes plus récentes")),
        ("es", ("Manos 71 a 120 de 120", "Manos anteriores", "Manos más recientes")),
        ("en", ("Hands 71–120 of 120", "Earlier hands", "Later hands")),
    ],
)
def test_the_pages_of_hands_speak_the_readers_language(
    client: FlaskClient, language: str, words: tuple[str, str, str]
):
    board = f"/games/{imported(client, 120)['id']}"
    heard = {"Accept-Language": language}
    newest = text(client.get(board, headers=heard))
    said, earlier, later = words
    assert position(newest) == said
    assert list(links(newest)) == [earlier]
    assert list(links(text(client.get(f"{board}?hands=2", headers=heard)))) == [later, earlier]


def test_the_watch_page_shows_the_newest_page_and_no_way_to_the_others(client: FlaskClient):
    game = imported(client, 120)
    page = text(client.get(game["watch_url"]))
    assert numbers(page) == list(range(120, 70, -1))
    assert position(page) == "Hands 71–120 of 120"
    assert links(page) == {} and "?hands=" not in page
    assert game["id"] not in page and "Correct hand" not in page
    assert totals(page) == [1200, 600]
