"""A club's game of the Canasta family (issue 31): its games' default, its nights' tables,
its export; a club from before families plays Classic. Modern American is made choosable
here as the family model allows (FAMILIES), the step the API's helper takes for good."""

from __future__ import annotations

from html.parser import HTMLParser
from typing import Any

import pytest
from flask.testing import FlaskClient

from scorer.core import families
from scorer.core.families import MODERN_AMERICAN
from scorer.core.rules import VARIANTS

FOUR = ["Ann", "Bob", "Cy", "Di"]
EIGHT = [*FOUR, "Ed", "Flo", "Gus", "Hal"]


@pytest.fixture
def american(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(families.FAMILIES, MODERN_AMERICAN.key, MODERN_AMERICAN)


def new_club(client: FlaskClient, **fields: Any) -> dict[str, Any]:
    response = client.post("/api/clubs", json={"name": "Tuesday", "players": FOUR, **fields})
    assert response.status_code == 201, response.json
    return response.json


def club_game(client: FlaskClient, club_id: str, **fields: Any) -> dict[str, Any]:
    body = {"sides": [{"players": FOUR[:2]}, {"players": FOUR[2:]}], **fields}
    response = client.post(f"/api/clubs/{club_id}/games", json=body)
    assert response.status_code == 201, response.json
    return response.json


def test_a_club_plays_classic_unless_it_names_its_game(client: FlaskClient) -> None:
    club = new_club(client)
    assert club["family"] == "classic"
    game = club_game(client, club["id"])
    assert (game["family"], game["profile"]) == ("classic", "classic")


def test_an_unknown_game_is_refused_at_its_field(client: FlaskClient) -> None:
    for family in ("bridge", 7):
        response = client.post("/api/clubs", json={"name": "T", "family": family})
        assert response.status_code in (400, 422), response.json
        assert response.json["field"] == "family"


def test_a_modern_american_club_starts_its_games_in_its_game(
    client: FlaskClient, american: None
) -> None:
    club = new_club(client, family="modern-american", settings={"target": 8500})
    assert club["family"] == "modern-american"
    game = club_game(client, club["id"])
    assert (game["family"], game["profile"], game["target"]) == (
        "modern-american",
        "four-player",
        8500,
    )
    # A game of another family keeps its own variant and target, not the club's.
    classic = club_game(client, club["id"], family="classic")
    assert (classic["family"], classic["profile"], classic["target"]) == (
        "classic",
        "classic",
        5000,
    )


def test_a_modern_american_clubs_settings_are_of_its_game(
    client: FlaskClient, american: None
) -> None:
    response = client.post(
        "/api/clubs",
        json={"name": "T", "family": "modern-american", "settings": {"profile": "classic"}},
    )
    assert response.status_code in (400, 422)
    assert response.json["field"] == "settings.profile"


def test_a_modern_american_clubs_night_seats_its_tables_in_its_game(
    client: FlaskClient, american: None
) -> None:
    club = new_club(client, family="modern-american")
    body = {"players": EIGHT, "rounds": 2, "round": {"fixed_hands": 1}}
    night = client.post(f"/api/clubs/{club['id']}/nights", json=body).json
    etag = client.get(f"/api/nights/{night['id']}").headers["ETag"]
    drawn = client.post(f"/api/nights/{night['id']}/rounds", headers={"If-Match": etag})
    assert drawn.status_code == 201, drawn.json
    for table in drawn.json["rounds"][0]["tables"]:
        game = client.get(f"/api/games/{table['game']}").json
        assert (game["family"], game["profile"]) == ("modern-american", "four-player")


def test_an_odd_table_the_game_cannot_seat_is_refused(client: FlaskClient, american: None) -> None:
    club = new_club(client, family="modern-american")
    body = {"players": EIGHT[:6], "rounds": 1, "odd": "variants"}
    night = client.post(f"/api/clubs/{club['id']}/nights", json=body)
    assert night.status_code == 201, night.json
    etag = client.get(f"/api/nights/{night.json['id']}").headers["ETag"]
    drawn = client.post(f"/api/nights/{night.json['id']}/rounds", headers={"If-Match": etag})
    assert drawn.status_code in (400, 409, 422)
    assert drawn.json["field"] == "odd"
    assert client.get(f"/api/clubs/{club['id']}").json["games"] == []  # nothing stored


def test_the_export_carries_the_game_and_the_import_keeps_it(
    client: FlaskClient, american: None
) -> None:
    club = new_club(client, family="modern-american")
    club_game(client, club["id"])
    exported = client.get(f"/api/clubs/{club['id']}/export").json
    assert exported["family"] == "modern-american"
    imported = client.post("/api/clubs/import", json=exported)
    assert imported.status_code == 201, imported.json
    assert imported.json["family"] == "modern-american"
    older = {key: value for key, value in exported.items() if key != "family"}
    older["games"] = []
    assert client.post("/api/clubs/import", json=older).json["family"] == "classic"


def test_a_club_that_names_no_game_plays_its_usual_variants(
    client: FlaskClient, american: None
) -> None:
    club = new_club(client, settings={"profile": "four-player"})
    assert club["family"] == "modern-american"
    assert new_club(client, settings={"profile": "six-player"})["family"] == "classic"


def test_the_new_club_form_keeps_the_game_of_its_usual_variant(
    client: FlaskClient, american: None
) -> None:
    form = {"name": "Tuesday", "players": FOUR, "profile": "four-player", "target": "8500"}
    answer = client.post("/clubs/new", data=form)
    assert answer.status_code in (302, 303), answer.get_data(as_text=True)[:500]
    club_id = answer.headers["Location"].rstrip("/").rsplit("/", 1)[-1]
    club = client.get(f"/api/clubs/{club_id}").json
    assert (club["family"], club["settings"]["profile"]) == ("modern-american", "four-player")


# --- through the pages: a Modern American club, its game, its first hand ----------------------


class ShownForm(HTMLParser):
    """A page's first form as Save would send it untouched: each select's chosen option (its
    first when none is), each input's value, and what each select offers."""

    def __init__(self, page: str) -> None:
        super().__init__()
        self.values: dict[str, str] = {}
        self.offered: dict[str, list[str]] = {}
        self._select: str | None = None
        self._option: str | None = None
        self._chosen = False
        self.feed(page)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        given = {key: value or "" for key, value in attrs}
        if tag == "select":
            self._select = given.get("name")
            self.offered[self._select or ""] = []
        elif tag == "option" and self._select:
            # An option without a value sends its text (a roster name): read in handle_data.
            self._option = given.get("value")
            self._chosen = "selected" in given or self._select not in self.values
            if self._option is not None:
                self._offer(self._option)
        elif tag == "input" and given.get("type") not in ("checkbox", "radio", "submit"):
            self.values.setdefault(given.get("name", ""), given.get("value", ""))

    def handle_data(self, data: str) -> None:
        if self._select and self._option is None and data.strip():
            self._offer(data.strip())
            self._option = data.strip()

    def _offer(self, value: str) -> None:
        assert self._select is not None
        self.offered[self._select].append(value)
        if self._chosen:
            self.values[self._select] = value

    def handle_endtag(self, tag: str) -> None:
        if tag == "select":
            self._select = None


def test_the_new_club_form_offers_every_games_variants(client: FlaskClient) -> None:
    form = ShownForm(client.get("/clubs/new").get_data(as_text=True))
    assert form.offered["profile"] == list(VARIANTS)
    assert "four-player" in form.offered["profile"]
    assert form.values["profile"] == "classic"  # the default stays Classic


def test_a_modern_american_club_runs_from_its_pages(client: FlaskClient) -> None:
    """The new-club form with Modern American chosen, the club's New game page as it comes
    (its own variant chosen, only its game's seatings offered), one hand recorded."""
    created = client.post(
        "/clubs/new", data={"name": "Tuesday", "players": FOUR, "profile": "four-player"}
    )
    assert created.status_code == 303, created.get_data(as_text=True)[:500]
    club_id = created.headers["Location"].rstrip("/").rsplit("/", 1)[-1]
    assert client.get(f"/api/clubs/{club_id}").json["family"] == "modern-american"
    page = client.get(f"/clubs/{club_id}/games/new").get_data(as_text=True)
    form = ShownForm(page)
    assert form.offered["profile"] == ["four-player"]
    assert (form.values["profile"], form.values["seating"]) == ("four-player", "2-2")
    assert "8,500 (usual target)" in page
    started = client.post(f"/clubs/{club_id}/games/new", data=form.values)
    assert started.status_code == 303, started.get_data(as_text=True)[-1500:]
    game_id = started.headers["Location"].rsplit("/", 1)[-1]
    game = client.get(f"/api/games/{game_id}").json
    assert (game["family"], game["profile"], game["target"]) == (
        "modern-american",
        "four-player",
        8500,
    )
    assert [side["players"] for side in game["sides"]] == [FOUR[:2], FOUR[2:]]
    # One hand through the hand form: 200 melded, a natural canasta and one of sevens
    # (500 + 2 500), out 100: 3 300; the other side, without a canasta, melded 130 that count
    # against it (§5a's swing), 20 in hand: -130 - 20 = -150.
    hand = client.get(f"/games/{game_id}/hands/new").get_data(as_text=True)
    body = ShownForm(hand).values | {
        "went_out": "0",
        "sides-0-meld_points": "200",
        "sides-0-canastas_natural": "1",
        "sides-0-canastas_sevens": "1",
        "sides-1-meld_points": "130",
        "sides-1-hand_points": "20",
    }
    saved = client.post(f"/games/{game_id}/hands/new", data=body)
    assert saved.status_code == 303, saved.get_data(as_text=True)[-1500:]
    totals = [side["total"] for side in client.get(f"/api/games/{game_id}").json["sides"]]
    assert totals == [3300, -150]
    assert game_id in client.get(f"/api/clubs/{club_id}").json["games"]


def test_a_modern_american_clubs_house_rules_show_on_its_new_game_page(
    client: FlaskClient,
) -> None:
    settings = {"profile": "four-player", "rules": {"going_out": 200}}
    club = new_club(client, family="modern-american", settings=settings)
    page = client.get(f"/clubs/{club['id']}/games/new")
    assert page.status_code == 200
    assert "The club's house rules apply" in page.get_data(as_text=True)
    assert ShownForm(page.get_data(as_text=True)).values["profile"] == "four-player"
