"""Every route under fire: no input makes a 5xx (issue 25).

The routes come from the app's own url_map, so a route added later is fuzzed too. Each is
sent its explicit examples first (the inputs that once answered 500), then what Hypothesis
draws: hostile ids in the address, JSON bodies, form fields and query strings. The app runs
with TESTING on, so an unexpected exception fails the test outright instead of becoming a
friendly 500; rate limits are off so that the fuzz reaches the views.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import quote

import pytest
from apidata import side
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_fuzz import HOSTILE_TEXT, JSON_VALUES, TEXT

from scorer import create_app

# Every route under hundreds of inputs: `make test` runs them, `make test-fast` not.
pytestmark = pytest.mark.slow

CONFIG = {
    "TESTING": True,
    "SECRET_KEY": "fuzz",
    "WTF_CSRF_ENABLED": False,
    "RATELIMIT_ENABLED": False,
}
FOUR = [{"players": ["Ann", "Bob"]}, {"players": ["Cy", "Di"]}]
HAND = {"went_out": None, "concealed": False, "sides": [side(50), side(60, left=10)]}
LONG_NUMBER = "9" * 5000
SURROGATE = "\ud800"
PLAYED = "<the played game>"  # an example's stand-in for the table's game id
WRITES = {"POST", "PUT", "PATCH", "DELETE"}
SETTINGS = settings(
    max_examples=25,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)


def routes() -> list[tuple[str, str]]:
    """(method, rule) of every route the app serves."""
    app = create_app({**CONFIG, "DATABASE": ":memory:"})
    return sorted(
        (method, rule.rule)
        for rule in app.url_map.iter_rules()
        for method in rule.methods - {"HEAD", "OPTIONS"}
    )


ROUTES = routes()


def _json(body: Any) -> tuple[bytes, str]:
    return json.dumps(body).encode("utf-8", "surrogatepass"), "application/json"


# The inputs that answered 500 before issue 25, sent to their route before any fuzz.
# Each: (method, rule, body or form or query).
EXAMPLES: dict[tuple[str, str], list[dict[str, Any]]] = {
    ("POST", "/api/games/<game_id>/hands"): [
        {"json": {**HAND, "confirm": [[]]}},
        {"json": {**HAND, "confirm": [{}]}},
    ],
    ("PUT", "/api/games/<game_id>/hands/<int:number>"): [
        {"json": {**HAND, "confirm": [[]]}},
        {"json": {**HAND, "confirm": [{}]}},
    ],
    ("POST", "/api/opening-meld"): [{"json": {"game": SURROGATE, "side": 0, "melds": []}}],
    ("POST", "/api/clubs/<club_id>/games/file"): [{"json": {"game": SURROGATE}}],
    ("GET", "/check-meld"): [{"query": {"minimum": value}} for value in ("²", "①", LONG_NUMBER)]
    + [{"query": {"game": PLAYED, "side": value}} for value in ("²", "①", LONG_NUMBER)],
    ("POST", "/check-meld"): [
        {"form": {"naturals-0": "3", "rank-0": "K", f"{name}-0": value}}
        for name in ("naturals", "jokers", "twos")
        for value in ("²", "①", LONG_NUMBER)
    ]
    + [{"form": {"minimum": value}} for value in ("²", "①", LONG_NUMBER)],
}

FORM_FIELDS = [
    "name", "profile", "target", "first_dealer", "went_out", "concealed", "token", "version",
    "game", "side", "minimum", "discard_top", "going_out", "asked", "answer-0", "answer-new-0",
    "new", "player", "sides-0-players-0", "sides-0-players-1", "sides-1-players-0",
    "sides-1-players-1", "sides-0-meld_points", "sides-1-meld_points", "sides-0-hand_points",
    "rank-0", "naturals-0", "jokers-0", "twos-0", "lang", "next",
]  # fmt: skip
FORM_VALUES = st.one_of(
    TEXT.map(lambda s: s.encode("utf-8", "surrogatepass").decode("utf-8", "replace")),
    st.integers().map(str),
    st.sampled_from(["0", "1", "50", "²", "①", LONG_NUMBER, "-5", "1e9", "none", "K", "y"]),
)
FORMS = st.dictionaries(st.sampled_from(FORM_FIELDS), FORM_VALUES, max_size=8)
JSON_BODIES = st.one_of(
    JSON_VALUES,
    st.fixed_dictionaries(
        {},
        optional={
            "game": st.one_of(TEXT, st.just(SURROGATE)),
            "name": TEXT,
            "players": st.lists(TEXT, max_size=3),
            "sides": st.just(FOUR),
            "confirm": st.lists(JSON_VALUES, max_size=2),
            "minimum": JSON_VALUES,
            "melds": st.lists(JSON_VALUES, max_size=2),
            "went_out": JSON_VALUES,
        },
    ),
)


class Table:
    """An app with a game played, a game won, a club and a watch address to aim at."""

    def __init__(self, folder: Path) -> None:
        self.app = create_app({**CONFIG, "DATABASE": str(folder / "fuzz.sqlite3")})
        self.client = self.app.test_client()
        client = self.client
        played = client.post("/api/games", json={"sides": FOUR}).get_json()
        assert client.post(f"/api/games/{played['id']}/hands", json=HAND).status_code == 201
        won = client.post("/api/games", json={"sides": FOUR, "target": 1000}).get_json()
        winning = {"went_out": 0, "sides": [side(300, natural=1, reds=2), side(50)]}
        assert client.post(f"/api/games/{won['id']}/hands", json=winning).status_code == 201
        club = client.post(
            "/api/clubs", json={"name": "Fuzz", "players": ["Ann", "Bob", "Cy", "Di"]}
        ).get_json()
        self.values = {
            "game_id": [played["id"], won["id"]],
            "club_id": [club["id"]],
            "watch_id": [played["watch_url"].rsplit("/", 1)[1]],
            "number": ["1", "2", "0"],
            "name": ["Ann", "Nobody"],
            "filename": ["app.css", "live.js", "nope.js"],
            "code": ["fr", "es", "xx"],
        }

    def address(self, rule: str, pick: Any) -> str:
        """The rule with each <argument> filled: a real value or a hostile one."""
        out = rule
        while "<" in out:
            start, end = out.index("<"), out.index(">")
            name = out[start + 1 : end].split(":")[-1]
            value = pick(name, self.values.get(name, ["x"]))
            out = out[:start] + value + out[end + 1 :]
        return out

    def send(self, method: str, url: str, example: dict[str, Any]) -> Any:
        played = self.values["game_id"][0]
        for kind in ("form", "query"):
            if kind in example:
                fields = example[kind].items()
                example = {kind: {k: played if v == PLAYED else v for k, v in fields}}
        if "json" in example:
            data, content_type = _json(example["json"])
            return self.client.open(url, method=method, data=data, content_type=content_type)
        if "form" in example:
            return self.client.open(url, method=method, data=example["form"])
        return self.client.open(url, method=method, query_string=example.get("query"))


@pytest.fixture
def table(tmp_path: Path) -> Iterator[Table]:
    # One per route: the fuzz of one route (a deletion, a language cookie) leaves the next
    # route's examples their game and their words.
    yield Table(tmp_path)


def first_value(_name: str, values: list[str]) -> str:
    return values[0]


def test_the_route_list_is_the_apps() -> None:
    assert ("POST", "/api/games/<game_id>/again") in ROUTES
    assert all(key in ROUTES for key in EXAMPLES), "an example names a route the app lacks"


@pytest.mark.parametrize(("method", "rule"), ROUTES, ids=[f"{m} {r}" for m, r in ROUTES])
def test_no_route_answers_5xx(table: Table, method: str, rule: str) -> None:
    for example in EXAMPLES.get((method, rule), []):
        response = table.send(method, table.address(rule, first_value), example)
        assert response.status_code < 500, (example, response.data[:500])
        assert 400 <= response.status_code < 500, (example, response.status_code)
        if rule.startswith("/api/"):
            assert response.get_json()["field"], response.get_json()  # it names the field

    @SETTINGS
    @given(data=st.data())
    def fuzz(data: st.DataObject) -> None:
        def pick(name: str, values: list[str]) -> str:
            hostile = HOSTILE_TEXT.map(lambda s: quote(s.encode("utf-8", "surrogatepass"), safe=""))
            return data.draw(st.one_of(st.sampled_from(values), hostile), label=name)

        url = table.address(rule, pick)
        kind = data.draw(
            st.sampled_from(["json", "form", "query"] if method in WRITES else ["query"])
        )
        if kind == "json":
            example = {"json": data.draw(JSON_BODIES, label="body")}
        else:
            example = {kind: data.draw(FORMS, label=kind)}
        response = table.send(method, url, example)
        assert response.status_code < 500, response.data[:500]

    fuzz()
