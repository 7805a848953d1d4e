"""The limits of a game (scorer.core.limits) give one verdict whichever way a game comes in.

One table of good and bad names, targets and side counts goes through the JSON API, the
new-game form and the import; each must accept or refuse it alike, and store nothing when
it refuses. Whatever a game holds, its export imports back.
"""

from __future__ import annotations

from typing import Any

import pytest
from apidata import hand, side
from flask.testing import FlaskClient

from scorer.core import limits

TEAMS = [["Ann", "Bob"], ["Cy", "Dee"]]
PROFILE_BY_SIDES = {2: "two-player", 3: "three-player", 6: "six-player"}

# (label, game name, sides as lists of player names, target or None, accepted?)
CASES: list[tuple[str, str, list[list[str]], int | None, bool]] = [
    ("plain", "", TEAMS, None, True),
    ("game name", "Friday night", TEAMS, None, True),
    ("trimmed", "  Friday  ", [[" Ann ", "Bob"], ["Cy", "Dee"]], None, True),
    ("accents", "Soirée", [["Zoë", "José María"], ["Ørjan", "李"]], None, True),
    ("40 characters", "g" * 40, [["a" * 40, "Bob"], ["Cy", "Dee"]], None, True),
    ("41 characters", "", [["a" * 41, "Bob"], ["Cy", "Dee"]], None, False),
    ("game name of 41", "g" * 41, TEAMS, None, False),
    ("tab", "", [["Ann\tB", "Bob"], ["Cy", "Dee"]], None, False),
    ("newline in game name", "a\nb", TEAMS, None, False),
    ("escape character", "", [["Ann\x1b", "Bob"], ["Cy", "Dee"]], None, False),
    ("zero-width space only", "", [["\u200b", "Bob"], ["Cy", "Dee"]], None, False),
    ("joiners only", "", [["\u200d\u2060", "Bob"], ["Cy", "Dee"]], None, False),
    ("invisible game name", "\u200b\u200b", TEAMS, None, False),
    ("right-to-left override", "", [["Ann\u202eboB", "Bob"], ["Cy", "Dee"]], None, False),
    ("left-to-right embedding", "", [["\u202aAnn", "Bob"], ["Cy", "Dee"]], None, False),
    ("first strong isolate", "Game \u2068x\u2069", TEAMS, None, False),
    ("target 1 000", "", TEAMS, 1000, True),
    ("target 20 000", "", TEAMS, 20000, True),
    ("target 7 500", "", TEAMS, 7500, True),
    ("target 500", "", TEAMS, 500, False),
    ("target 20 500", "", TEAMS, 20500, False),
    ("target 1 250", "", TEAMS, 1250, False),
    ("one side", "", [["Ann"]], None, False),
    ("two alone", "", [["Ann"], ["Bob"]], None, True),
    ("three alone", "", [["Ann"], ["Bob"], ["Cy"]], None, True),
    ("six alone", "", [["A"], ["B"], ["C"], ["D"], ["E"], ["F"]], None, True),
    ("seven alone", "", [["A"], ["B"], ["C"], ["D"], ["E"], ["F"], ["G"]], None, False),
]


def _profile(sides: list[list[str]]) -> str:
    if all(len(players) == 1 for players in sides):
        return PROFILE_BY_SIDES.get(len(sides), "six-player")
    return "classic"


def _game_json(name: str, sides: list[list[str]], target: int | None) -> dict[str, Any]:
    data: dict[str, Any] = {
        "name": name,
        "profile": _profile(sides),
        "sides": [{"players": players} for players in sides],
    }
    if target is not None:
        data["target"] = target
    return data


def through_api(client: FlaskClient, name: str, sides: list[list[str]], target: int | None) -> int:
    return client.post("/api/games", json=_game_json(name, sides, target)).status_code


def through_import(
    client: FlaskClient, name: str, sides: list[list[str]], target: int | None
) -> int:
    data = {"format": "scorer-game", "format_version": 1, **_game_json(name, sides, target)}
    return client.post("/api/games/import", json=data).status_code


def through_form(client: FlaskClient, name: str, sides: list[list[str]], target: int | None) -> int:
    """The new-game form; players alone are typed three to a row with "every player alone"."""
    data = {"profile": _profile(sides), "target": "" if target is None else str(target)}
    data["name"] = name
    alone = all(len(players) == 1 for players in sides) and len(sides) > 2
    rows = [[p for [p] in sides][i : i + 3] for i in range(0, len(sides), 3)] if alone else sides
    if alone:
        data["solo"] = "y"
    for s, players in enumerate(rows):
        for p, player in enumerate(players):
            data[f"sides-{s}-players-{p}"] = player
    return client.post("/games/new", data=data).status_code


WAYS = {"api": through_api, "form": through_form, "import": through_import}
ACCEPTED = {"api": 201, "form": 303, "import": 201}


def _stored(client: FlaskClient) -> int:
    from scorer.store.db import get_db

    with client.application.app_context():
        return get_db()["games"].count


@pytest.mark.parametrize(("label", "name", "sides", "target", "good"), CASES)
@pytest.mark.parametrize("way", sorted(WAYS))
def test_one_verdict_for_every_way_in(
    client: FlaskClient,
    way: str,
    label: str,
    name: str,
    sides: list[list[str]],
    target: int | None,
    good: bool,
) -> None:
    status = WAYS[way](client, name, sides, target)
    if good:
        assert status == ACCEPTED[way], label
        assert _stored(client) == 1
    else:
        assert status == 422, label  # a broken limit is a rule broken, whichever way in
        assert _stored(client) == 0


def test_limits_come_from_the_profiles_and_the_rule_book() -> None:
    assert limits.SIDES_MAX == 6  # six players, each alone
    assert limits.PLAYERS_PER_SIDE_MAX == 3  # six players in two teams of three
    assert limits.ALLOWED_TARGETS[0] == 1000 and limits.ALLOWED_TARGETS[-1] == 20000
    assert all(target % 500 == 0 for target in limits.ALLOWED_TARGETS)


EDGE_GAMES = [
    ("g" * 40, [["a" * 40, "Bob"], ["Cy", "Dee"]]),
    ("Soirée  d’été", [["Zoë", "José María"], ["Ørjan", "李小龙"]]),
    ("", [["Ann"], ["Bob"], ["Cy"]]),
    ("emoji 🂡", [["👩‍👩‍👧 Ann", "Bob"], ["Cy", "Dee"]]),
]


@pytest.mark.parametrize(("name", "sides"), EDGE_GAMES)
def test_an_export_always_imports_back(
    client: FlaskClient, name: str, sides: list[list[str]]
) -> None:
    response = client.post(
        "/games/new",
        data={
            "profile": _profile(sides),
            "target": "",
            "name": name,
            **{f"sides-{s}-players-{p}": n for s, ps in enumerate(sides) for p, n in enumerate(ps)},
        },
    )
    assert response.status_code == 303
    game_id = response.headers["Location"].rsplit("/", 1)[1]
    if len(sides) == 2:
        scored = hand(side(meld=130, natural=1), side(meld=50, left=85), went_out=0)
        assert client.post(f"/api/games/{game_id}/hands", json=scored).status_code == 201
    exported = client.get(f"/api/games/{game_id}/export").get_json()
    copy = client.post("/api/games/import", json=exported)
    assert copy.status_code == 201, copy.get_json()
    original = client.get(f"/api/games/{game_id}").get_json()
    imported = copy.get_json()
    for key in ("name", "profile", "target", "rules", "sides", "hands", "winner"):
        assert imported[key] == original[key], key
