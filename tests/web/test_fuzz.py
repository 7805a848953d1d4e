"""Hostile input on purpose: hypothesis throws random payloads at every API route and form.

The answer is always a success or a 4xx with a plain message (JSON `{"error", "field"}` in
the API), never a 5xx; and a refused request leaves every table of the database exactly as
it was. The app runs with TESTING on, so an unexpected exception fails the test outright
instead of being turned into a friendly 500.
"""

from __future__ import annotations

import copy
import json
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any
from urllib.parse import quote

import pytest
from apidata import dump, side
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scorer import create_app

# Hypothesis throws hundreds of payloads a test: `make test` runs them, `make test-fast` not.
pytestmark = pytest.mark.slow

SETTINGS = settings(
    max_examples=100,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
FOUR = [{"players": ["Ann", "Bob"]}, {"players": ["Cy", "Di"]}]


# --- strategies ----------------------------------------------------------------------------

HOSTILE_TEXT = st.sampled_from(
    [
        "",
        " ",
        "Ann",
        "<script>alert(1)</script>",
        "\x00",
        "\ud800",  # a lone surrogate: valid in JSON, not storable as UTF-8
        "\u202eevil",
        "é" * 41,
        "x" * 40,
        "x" * 5000,
        "' OR 1=1 --",
        "../../etc/passwd",
        "%s%n{0}{name}",
        "null",
        "😀" * 10,
    ]
)
TEXT = st.one_of(HOSTILE_TEXT, st.text(max_size=60))
NUMBERS = st.one_of(
    st.integers(min_value=-10, max_value=1300),
    st.integers(),
    st.sampled_from([0, 5, 50, 500, 10**18, 2**63, -(2**63), 10**100, -1]),
    st.floats(allow_nan=True, allow_infinity=True),
)
SCALARS = st.one_of(st.none(), st.booleans(), NUMBERS, TEXT)
JSON_VALUES = st.recursive(
    SCALARS,
    lambda children: st.one_of(
        st.lists(children, max_size=5),
        st.dictionaries(
            st.one_of(TEXT, st.sampled_from(["sides", "players", "name"])), children, max_size=5
        ),
    ),
    max_leaves=20,
)
CONTENT_TYPES = st.sampled_from(
    [
        "application/json",
        "application/json",
        "application/json; charset=utf-8",
        "application/vnd.api+json",
        "text/plain",
        "application/x-www-form-urlencoded",
        "multipart/form-data; boundary=x",
        "",
    ]
)
# Ids as they travel in a URL: percent-encoded UTF-8 (lone surrogates included, as bytes).
IDS = st.one_of(TEXT, st.just("x" * 300)).map(
    lambda s: quote(s.encode("utf-8", "surrogatepass"), safe="")
)


def mutate(base: Any, draw) -> Any:
    """The base document with a few of its values replaced, removed or added to."""
    doc = copy.deepcopy(base)
    for _ in range(draw(st.integers(min_value=0, max_value=4))):
        containers = list(_containers(doc))
        if not containers:
            break
        holder = draw(st.sampled_from(containers))
        keys = list(holder) if isinstance(holder, dict) else list(range(len(holder)))
        action = draw(st.sampled_from(["replace", "remove", "add"]))
        if action == "add" or not keys:
            if isinstance(holder, dict):
                holder[draw(TEXT)] = draw(JSON_VALUES)
            else:
                holder.append(draw(JSON_VALUES))
        elif action == "remove":
            del holder[draw(st.sampled_from(keys))]
        else:
            holder[draw(st.sampled_from(keys))] = draw(st.one_of(SCALARS, JSON_VALUES))
    return doc


def _containers(doc: Any) -> Iterator[Any]:
    if isinstance(doc, dict | list):
        yield doc
        for value in doc.values() if isinstance(doc, dict) else doc:
            yield from _containers(value)


VALID_HANDS = [
    {"went_out": None, "concealed": False, "sides": [side(50), side(60, left=10)]},
    {
        "went_out": 0,
        "concealed": False,
        "sides": [side(130, natural=1, reds=2), side(50, left=85)],
    },
    {
        "went_out": 1,
        "concealed": True,
        "sides": [
            {"meld_cards": {"ten": 3}, "hand_cards": {"jokers": 1}},
            {"meld_points": 90, "mixed_canastas": 1},
        ],
    },
]
VALID_GAME = {
    "name": "Fuzz",
    "profile": "classic",
    "target": 5000,
    "first_dealer": "Cy",
    "rules": {"going_out": 150},
    "sides": [{"name": "Us", "players": ["Ann", "Bob"]}, {"players": ["Cy", "Di"]}],
}


@st.composite
def bodies(draw, valid: list[Any]) -> tuple[bytes, str]:
    """A request body and its content type: near-valid, random JSON, or raw bytes."""
    kind = draw(st.sampled_from(["mutated", "mutated", "valid", "json", "bytes"]))
    if kind == "bytes":
        data = draw(st.binary(max_size=200))
    else:
        if kind == "json":
            value = draw(JSON_VALUES)
        else:
            value = draw(st.sampled_from(valid))
            if kind == "mutated":
                value = mutate(value, draw)
        data = json.dumps(value).encode("utf-8", "surrogatepass")
    return data, draw(CONTENT_TYPES)


HEADERS = st.fixed_dictionaries(
    {},
    optional={
        "Idempotency-Key": st.one_of(
            st.sampled_from(["k1", "k2", "x" * 300, " ", "ключ"]),
            st.text(alphabet=st.characters(min_codepoint=32, max_codepoint=255), max_size=20),
        ),
        "If-Match": st.sampled_from(['"nope"', "*", 'W/"x"', "garbage", '"a.1"', ""]),
    },
)


# --- the app under fire -----------------------------------------------------------------------


@contextmanager
def fuzz_app() -> Iterator[tuple[Any, Any, dict[str, str]]]:
    with tempfile.TemporaryDirectory() as folder:
        app = create_app(
            {
                "TESTING": True,
                "DATABASE": str(Path(folder) / "fuzz.sqlite3"),
                "SECRET_KEY": "fuzz",
                "WTF_CSRF_ENABLED": False,
            }
        )
        client = app.test_client()
        games = {}
        for label, target, hands in (
            ("fresh", 5000, []),
            ("played", 5000, VALID_HANDS[:2]),
            # Won at once: 300 + 500 + 200 + 100 = 1 100 >= 1 000.
            ("won", 1000, [{"went_out": 0, "sides": [side(300, natural=1, reds=2), side(50)]}]),
        ):
            game = client.post("/api/games", json={"sides": FOUR, "target": target}).json
            for body in hands:
                assert client.post(f"/api/games/{game['id']}/hands", json=body).status_code == 201
            games[label] = game["id"]
        yield app, client, games


def check_api_answer(app, before: list[str], response) -> None:
    status = response.status_code
    assert status < 500, response.data
    if status >= 400:
        assert response.is_json, response.data
        body = response.json
        # An irregular hand (§2b) also says what to confirm; nothing else is ever added.
        assert {"error", "field"} <= set(body) <= {"error", "field", "confirm"}
        assert body.get("confirm", "opening_minimum") == "opening_minimum"
        assert isinstance(body["error"], str) and body["error"].strip()
        assert body["field"] is None or isinstance(body["field"], str)
        assert len(body["error"]) < 500
        assert dump(app) == before, "a refused request changed the database"
    elif status < 300:
        assert response.is_json
    # 3xx: the router tidying an address (//export -> /export), nothing done


def game_id_for(draw, games: dict[str, str]) -> str:
    return draw(st.one_of(st.sampled_from(sorted(games.values())), IDS))


# --- API routes -------------------------------------------------------------------------------


def test_fuzz_create_game():
    with fuzz_app() as (app, client, _games):

        @SETTINGS
        @given(body=bodies([VALID_GAME, {"sides": FOUR}]))
        def run(body):
            data, content_type = body
            before = dump(app)
            response = client.post("/api/games", data=data, content_type=content_type)
            check_api_answer(app, before, response)

        run()


def test_fuzz_record_hand():
    with fuzz_app() as (app, client, games):

        @SETTINGS
        @given(data=st.data(), body=bodies(VALID_HANDS), headers=HEADERS)
        def run(data, body, headers):
            raw, content_type = body
            game_id = game_id_for(data.draw, games)
            before = dump(app)
            response = client.post(
                f"/api/games/{game_id}/hands", data=raw, content_type=content_type, headers=headers
            )
            check_api_answer(app, before, response)

        run()


def test_fuzz_correct_and_delete_hands():
    with fuzz_app() as (app, client, games):

        @SETTINGS
        @given(
            data=st.data(),
            body=bodies(VALID_HANDS),
            headers=HEADERS,
            number=st.one_of(
                st.integers(min_value=0, max_value=4),
                st.sampled_from(["x", "-1", "99999999999999999999"]),
            ),
            method=st.sampled_from(["PUT", "PUT", "DELETE", "PATCH"]),
        )
        def run(data, body, headers, number, method):
            raw, content_type = body
            game_id = game_id_for(data.draw, games)
            before = dump(app)
            response = client.open(
                f"/api/games/{game_id}/hands/{number}",
                method=method,
                data=raw if method != "DELETE" else None,
                content_type=content_type,
                headers=headers,
            )
            check_api_answer(app, before, response)

        run()


def test_fuzz_read_and_export():
    with fuzz_app() as (app, client, games):

        @SETTINGS
        @given(data=st.data(), suffix=st.sampled_from(["", "/export", "/hands", "/nothing"]))
        def run(data, suffix):
            game_id = game_id_for(data.draw, games)
            before = dump(app)
            response = client.get(f"/api/games/{game_id}{suffix}")
            check_api_answer(app, before, response)
            assert dump(app) == before  # reading never writes

        run()


def test_fuzz_import():
    with fuzz_app() as (app, client, games):
        exported = [
            client.get(f"/api/games/{game_id}/export").json for game_id in sorted(games.values())
        ]

        @SETTINGS
        @given(body=bodies(exported))
        def run(body):
            data, content_type = body
            before = dump(app)
            response = client.post("/api/games/import", data=data, content_type=content_type)
            check_api_answer(app, before, response)

        run()


# --- the page forms (CSRF off, as a form that passed its token) ---------------------------------

NEW_GAME_FIELDS = (
    ["name", "profile", "target", "solo", "first_dealer", "rules_for"]
    + [f"sides-{s}-name" for s in range(3)]
    + [f"sides-{s}-players-{p}" for s in range(3) for p in range(3)]
    + ["going_out", "concealed_going_out", "natural_canasta", "mixed_canasta", "red_three"]
    + ["all_red_threes", "canastas_to_go_out"]
    + [f"minimums-{r}-{part}" for r in range(5) for part in ("start", "minimum")]
)
HAND_FIELDS = ["went_out", "concealed", "token", "version"] + [
    f"sides-{s}-{name}"
    for s in range(3)
    for name in (
        "meld_points",
        "natural_canastas",
        "mixed_canastas",
        "red_threes",
        "hand_points",
        "meld_jokers",
        "meld_twenty",
        "meld_ten",
        "meld_five",
        "hand_jokers",
        "hand_twenty",
        "hand_ten",
        "hand_five",
    )
]
FORM_VALUES = st.one_of(
    TEXT.map(lambda s: s.encode("utf-8", "surrogatepass").decode("utf-8", "replace")),
    st.integers().map(str),
    st.sampled_from(["0", "5", "50", "130", "1", "none", "y", "-5", "1e9", "5.5", "classic"]),
)

VALID_NEW_GAME_FORM = {
    "name": "Fuzz",
    "profile": "classic",
    "target": "",
    "sides-0-players-0": "Ann",
    "sides-0-players-1": "Bob",
    "sides-1-players-0": "Cy",
    "sides-1-players-1": "Di",
}
VALID_HAND_FORM = {
    "went_out": "none",
    "sides-0-meld_points": "50",
    "sides-1-meld_points": "60",
}


def forms(fields: list[str], valid: dict[str, str]):
    return st.one_of(
        st.dictionaries(st.sampled_from(fields), FORM_VALUES, max_size=12),
        st.fixed_dictionaries({}, optional={k: FORM_VALUES for k in fields}),
        st.dictionaries(st.sampled_from(fields), FORM_VALUES, max_size=4).map(
            lambda changes: {**valid, **changes}
        ),
        st.just(valid),
    )


def check_page_answer(app, before: list[str], response) -> None:
    status = response.status_code
    assert status < 500, response.data[:2000]
    if not 300 <= status < 400:  # only a success redirects
        assert dump(app) == before, "a refused form changed the database"


def test_fuzz_new_game_form():
    with fuzz_app() as (app, client, _games):

        @SETTINGS
        @given(form=forms(NEW_GAME_FIELDS, VALID_NEW_GAME_FORM))
        def run(form):
            before = dump(app)
            check_page_answer(app, before, client.post("/games/new", data=form))

        run()


def test_fuzz_hand_forms():
    with fuzz_app() as (app, client, games):

        @SETTINGS
        @given(
            data=st.data(),
            form=forms(HAND_FIELDS, VALID_HAND_FORM),
            url=st.sampled_from(["/hands/new", "/hands/new", "/hands/1/edit", "/hands/9/edit"]),
        )
        def run(data, form, url):
            game_id = game_id_for(data.draw, games)
            before = dump(app)
            check_page_answer(app, before, client.post(f"/games/{game_id}{url}", data=form))

        run()
