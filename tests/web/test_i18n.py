"""English, French and Spanish: each catalogue is complete, every page speaks the reader's
language.

The walk over pages finds every GET page of the app by itself (new pages are walked without
editing this file) and reads each one as a reader would: visible text, titles and labels.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from gettext import GNUTranslations
from typing import Any

import pytest
from babel.messages.extract import extract_from_dir
from babel.numbers import format_decimal
from flask import Flask, render_template, render_template_string, url_for
from flask.testing import FlaskClient
from flask_babel import force_locale
from languages import (
    LANGUAGES,
    PLACEHOLDER,
    ROOT,
    TRANSLATED,
    Detector,
    forms,
    leaks,
    load_catalogue,
    pdf_text,
    po_path,
    translated_messages,
    visible_text,
)

from scorer.core.families import FAMILIES, RuleFamily
from scorer.core.rules import house_rule_choices, house_rule_fields
from scorer.web.i18n import (
    CANASTA_LABELS,
    FAMILY_LABELS,
    HOUSE_RULE_CHOICE_LABELS,
    HOUSE_RULE_LABELS,
    LANGUAGE_COOKIE,
    SPECIAL_HAND_LABELS,
    SPECIAL_HAND_PRESET_LABELS,
    VARIANT_LABELS,
    number,
    safe_next,
)

KEYWORDS = {
    "_": None,
    "gettext": None,
    "ngettext": (1, 2),
    "_l": None,
    "lazy_gettext": None,
    "lazy_ngettext": (1, 2),
    "N_": None,
}
FRENCH = {"Accept-Language": "fr-FR,fr;q=0.9,en;q=0.5"}
SPANISH = {"Accept-Language": "es-UY,es;q=0.9,en;q=0.5"}
ENGLISH = {"Accept-Language": "en-GB,en;q=0.9"}
HEADERS = {"en": ENGLISH, "fr": FRENCH, "es": SPANISH}
MINUS = "\u2212"  # negative numbers are shown with the minus sign
NNBSP = "\u202f"  # CLDR's French thousands separator, a narrow no-break space
# How each language writes 4500, 10000 and 1180 (Babel's CLDR data: Spanish groups with dots,
# four-digit numbers too, as Babel's formatter does for "es").
GROUPED = {
    "en": ("4,500", "10,000", "1,180"),
    "fr": (f"4{NNBSP}500", f"10{NNBSP}000", f"1{NNBSP}180"),
    "es": ("4.500", "10.000", "1.180"),
}


# --- the catalogue itself ----------------------------------------------------------------------


@pytest.mark.parametrize("language", TRANSLATED)
def test_every_message_has_a_translation(language: str) -> None:
    catalogue = load_catalogue(language)
    assert len(catalogue) > 100
    empty = [m.id for m in catalogue if m.id and not all(s for _, s in forms(m))]
    fuzzy = [m.id for m in catalogue if m.id and m.fuzzy]
    assert empty == []
    assert fuzzy == []


@pytest.mark.parametrize("language", TRANSLATED)
def test_translations_keep_their_placeholders(language: str) -> None:
    wrong = []
    for message in load_catalogue(language):
        if not message.id:
            continue
        ids = message.id if isinstance(message.id, tuple) else (message.id,)
        expected = set(PLACEHOLDER.findall(ids[-1]))
        for _, string in forms(message):
            found = set(PLACEHOLDER.findall(string))
            # A singular may spell out its count instead of %(num)s; nothing else may go.
            if found - expected or (expected - found) - {"%(num)s"}:
                wrong.append((message.id, string))
    assert wrong == []


@pytest.mark.parametrize("language", TRANSLATED)
def test_the_catalogue_holds_every_message_of_the_source(language: str) -> None:
    """A string wrapped in the code or a template but not extracted yet: run `make extract`."""
    with (ROOT / "babel.cfg").open() as handle:
        method_map, options_map = _parse_babel_cfg(handle.read())
    source = {
        message if isinstance(message, str) else message[0]
        for _file, _line, message, _comments, _context in extract_from_dir(
            str(ROOT), method_map, options_map, keywords=KEYWORDS
        )
        if message
    }
    catalogued = {
        m.id if isinstance(m.id, str) else m.id[0] for m in load_catalogue(language) if m.id
    }
    assert sorted(source - catalogued) == []


def python_messages() -> set[str]:
    """Messages of the Python code found by the AST, f-strings included (Babel's extractor
    cannot see a call inside an f-string before Python 3.12)."""
    names = {"_", "gettext", "_l", "lazy_gettext", "N_", "ngettext", "lazy_ngettext"}
    found = set()
    for path in (ROOT / "scorer").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if not isinstance(node, ast.Call) or not node.args:
                continue
            name = getattr(node.func, "id", None) or getattr(node.func, "attr", None)
            first = node.args[0]
            if name in names and isinstance(first, ast.Constant) and isinstance(first.value, str):
                found.add(first.value)
    return found


@pytest.mark.parametrize("language", TRANSLATED)
def test_the_catalogue_holds_every_message_of_the_python_code(language: str) -> None:
    catalogued = {
        m.id if isinstance(m.id, str) else m.id[0] for m in load_catalogue(language) if m.id
    }
    missing = sorted(python_messages() - catalogued)
    assert missing == [], "a message Babel cannot extract (inside an f-string?)"


def _parse_babel_cfg(text: str) -> tuple[list[tuple[str, str]], dict[str, dict[str, str]]]:
    method_map = []
    for line in text.splitlines():
        match = re.match(r"^\[(\w+):\s*(.+)\]$", line.strip())
        if match:
            method_map.append((match.group(2), match.group(1)))
    return method_map, {pattern: {} for pattern, _ in method_map}


@pytest.mark.parametrize("language", TRANSLATED)
def test_the_compiled_catalogue_is_up_to_date(language: str) -> None:
    """`make translations` builds the .mo from the .po; a stale .mo would serve old words."""
    mo_path = po_path(language).with_suffix(".mo")
    assert mo_path.exists(), "run `make translations`"
    with mo_path.open("rb") as handle:
        compiled = GNUTranslations(handle)
    stale = []
    for message in load_catalogue(language):
        if not message.id:
            continue
        if isinstance(message.id, tuple):
            got = [compiled.ngettext(*message.id, n) for n in (1, 2)]
            if got != list(message.string):
                stale.append(message.id)
        elif message.context:  # a word told apart by its context (a rank's letter)
            if compiled.pgettext(message.context, message.id) != message.string:
                stale.append(message.id)
        elif compiled.gettext(message.id) != message.string:
            stale.append(message.id)
    assert stale == [], "run `make translations`"


def test_spanish_has_two_plural_forms() -> None:
    """CLDR now gives Spanish a third form for millions; gettext's usual two suffice here."""
    catalogue = load_catalogue("es")
    assert catalogue.num_plurals == 2
    assert catalogue.plural_expr == "(n != 1)"


# --- choosing the language ---------------------------------------------------------------------


def html_lang(client: FlaskClient, path: str = "/", **kwargs: Any) -> str:
    html = client.get(path, **kwargs).get_data(as_text=True)
    match = re.search(r'<html[^>]*\blang="([^"]+)"', html)
    assert match, html[:200]
    return match.group(1)


@pytest.mark.parametrize(
    ("accept", "expected"),
    [
        ("fr-FR,fr;q=0.9,en;q=0.5", "fr"),
        ("fr-CA", "fr"),
        ("de-DE,de;q=0.9,fr;q=0.5", "fr"),
        ("en-US,en;q=0.9,fr;q=0.8", "en"),
        ("es-UY", "es"),
        ("es", "es"),
        ("es-AR,es;q=0.9,en;q=0.5", "es"),
        ("de-DE,de;q=0.9,es;q=0.5", "es"),
        ("fr-FR,es;q=0.8", "fr"),
        ("es-UY,en;q=0.5", "es"),
        ("ES_uy,fr;q=0.9", "es"),
        ("es;q=0,fr;q=0.1", "fr"),
        ("*", "en"),
        ("pt-BR,es;q=0.9,fr;q=0.8", "es"),
        ("de-DE", "en"),
        ("", "en"),
    ],
)
def test_accept_language_chooses_the_language(
    client: FlaskClient, accept: str, expected: str
) -> None:
    assert html_lang(client, headers={"Accept-Language": accept}) == expected


@pytest.mark.parametrize(
    ("language", "title"), [("fr", "Règles de la canasta"), ("es", "Reglas de la canasta")]
)
def test_the_switch_sticks_over_accept_language(
    client: FlaskClient, language: str, title: str
) -> None:
    response = client.get(f"/lang/{language}?next=/rules", headers=ENGLISH)
    assert response.status_code == 303
    assert response.headers["Location"] == "/rules"
    cookie = response.headers["Set-Cookie"]
    assert cookie.startswith(f"{LANGUAGE_COOKIE}={language};")
    assert "Max-Age=31536000" in cookie  # a year
    assert "SameSite=Lax" in cookie
    assert "Path=/" in cookie
    # The browser still prefers English, the table chose another language: it wins, page
    # after page.
    assert html_lang(client, "/rules", headers=ENGLISH) == language
    assert html_lang(client, "/", headers=ENGLISH) == language
    assert title in client.get("/rules", headers=ENGLISH).get_data(as_text=True)

    client.get("/lang/en?next=/", headers=HEADERS[language])
    assert html_lang(client, "/", headers=HEADERS[language]) == "en"


def test_an_unknown_language_is_not_found_and_sets_nothing(client: FlaskClient) -> None:
    response = client.get("/lang/de?next=/")
    assert response.status_code == 404
    assert "Set-Cookie" not in response.headers


def test_a_forged_cookie_falls_back_to_accept_language(client: FlaskClient) -> None:
    client.set_cookie(LANGUAGE_COOKIE, "xx")
    assert html_lang(client, headers=FRENCH) == "fr"
    assert html_lang(client, headers=SPANISH) == "es"
    assert html_lang(client, headers=ENGLISH) == "en"


@pytest.mark.parametrize(
    "target",
    [
        "//evil.example/",
        "https://evil.example/",
        "/\\evil.example",
        "\\\\evil.example",
        "javascript:alert(1)",
        "evil.example",
        "/\t/evil.example",
        "",
    ],
)
def test_the_switch_never_leaves_the_site(client: FlaskClient, target: str) -> None:
    response = client.get("/lang/fr", query_string={"next": target})
    assert response.headers["Location"] == "/"
    assert safe_next(target) == "/"


@pytest.mark.parametrize("target", ["/", "/rules", "/rules?game=abc#minimums", "/games/x/hands"])
def test_the_switch_returns_to_local_pages(client: FlaskClient, target: str) -> None:
    response = client.get("/lang/en", query_string={"next": target})
    assert response.headers["Location"] == target


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_switch_marks_the_current_language(app: Flask, language: str) -> None:
    with app.test_request_context("/rules?x=1", headers=HEADERS[language]):
        html = render_template("_lang_switch.html")
    links = re.findall(r"<a [^>]*href=\"/lang/(\w+)\?next=([^\"]+)\"[^>]*>", html)
    assert [code for code, _ in links] == ["en", "fr", "es"]
    assert all(next_ == "/rules?x%3D1" for _, next_ in links)
    current = re.findall(r"<a [^>]*href=\"/lang/(\w+)[^\"]*\"[^>]*aria-current=\"true\"", html)
    assert current == [language]
    # Each language is named in itself, and marked as such for screen readers.
    assert 'lang="fr"' in html and 'aria-label="Français"' in html
    assert 'lang="en"' in html and 'aria-label="English"' in html
    assert 'lang="es"' in html and 'aria-label="Español"' in html


def test_every_page_carries_the_switch(client: FlaskClient) -> None:
    for path in ("/", "/rules", "/no-such-page"):
        for headers in (FRENCH, SPANISH):
            html = client.get(path, headers=headers).get_data(as_text=True)
            for code in LANGUAGES:
                assert f'href="/lang/{code}?next=' in html, (path, code)


# --- numbers and dates follow the locale -------------------------------------------------------


@pytest.mark.parametrize(
    ("language", "expected"),
    [
        ("fr", f"5{NNBSP}000 \u22121{NNBSP}250 150 1{NNBSP}470 11{NNBSP}900"),
        ("es", "5.000 \u22121.250 150 1.470 11.900"),
        ("en", "5,000 \u22121,250 150 1,470 11,900"),
    ],
)
def test_numbers_follow_the_locale(app: Flask, language: str, expected: str) -> None:
    template = " ".join(f"{{{{ {n}|number }}}}" for n in (5000, -1250, 150, 1470, 11900))
    with app.test_request_context(), force_locale(language):
        assert render_template_string(template) == expected


@pytest.mark.parametrize("language", LANGUAGES)
def test_pages_and_pdfs_group_digits_alike(app: Flask, language: str) -> None:
    """Pages group integers themselves (fast); PDFs and decimals ask Babel: the same digits."""
    with app.test_request_context(), force_locale(language):
        for value in (0, 150, -995, 1470, -1470, 5000, 11900, 123456, -1234567):
            babel = format_decimal(value, locale=language).replace("-", MINUS)
            assert number(value) == babel, value


@pytest.mark.parametrize(
    ("language", "expected"),
    [
        ("fr", "29 nov. 2026|29 novembre 2026"),
        ("es", "29 nov 2026|29 de noviembre de 2026"),
        ("en", "Nov 29, 2026|November 29, 2026"),
    ],
)
def test_dates_follow_the_locale(app: Flask, language: str, expected: str) -> None:
    template = (
        "{{ '2026-11-29T20:05:00+00:00'|date }}|{{ '2026-11-29T20:05:00+00:00'|date('long') }}"
    )
    with app.test_request_context(), force_locale(language):
        assert render_template_string(template) == expected


def test_pages_show_totals_in_the_readers_format(client: FlaskClient) -> None:
    game = client.post(
        "/api/games",
        json={"sides": [{"players": ["Léa", "Marc"]}, {"players": ["Zoé", "Hugo"]}]},
    ).get_json()
    # 700 + 4 x 500 + 800 + 100 = 3600 and 300 + 500 + 100 = 900: 4 500 in all.
    for meld, naturals, red in ((700, 4, 4), (300, 1, 0)):
        hand = {
            "sides": [
                {"meld_points": meld, "natural_canastas": naturals, "red_threes": red},
                {"meld_points": 50, "hand_points": 50},
            ],
            "went_out": 0,
        }
        assert client.post(f"/api/games/{game['id']}/hands", json=hand).status_code == 201
    for language, headers in HEADERS.items():
        html = client.get(f"/rules?game={game['id']}", headers=headers).get_data(as_text=True)
        for other, grouped in GROUPED.items():
            assert (grouped[0] in html) == (other == language), (language, grouped[0])


def test_refusals_format_large_numbers_for_the_reader(client: FlaskClient) -> None:
    solo = [{"players": ["Léa"]}, {"players": ["Zoé"]}, {"players": ["Hugo"]}]
    game = client.post("/api/games", json={"profile": "three-player", "sides": solo}).get_json()
    # 1 000 + 180 = 1 180 is every card of two packs; 5 more cannot be.
    hand = {"sides": [{"meld_points": 1000}, {"meld_points": 185}, {}]}
    path = f"/api/games/{game['id']}/hands"
    for language, headers in HEADERS.items():
        refusal = client.post(path, json=hand, headers=headers).get_json()
        assert GROUPED[language][2] in refusal["error"], language


# --- every page, in both languages -------------------------------------------------------------

# Player and game names the pages repeat: chosen to be words of no language of ours.
NAMES = [["Léa", "Marc"], ["Zoé", "Hugo"], ["Inès", "Yann"]]


def _api(client: FlaskClient, body: dict[str, Any]) -> str:
    response = client.post("/api/games", json=body)
    assert response.status_code == 201, response.get_json()
    return response.get_json()["id"]


def _hand(client: FlaskClient, game_id: str, *sides: dict[str, Any], **rest: Any) -> None:
    response = client.post(f"/api/games/{game_id}/hands", json={"sides": list(sides), **rest})
    assert response.status_code == 201, response.get_json()


def call(meld: int = 0, natural: int = 0, mixed: int = 0, red: int = 0, hand: int = 0) -> Any:
    """What one side calls out at the end of a hand (API shape)."""
    return {
        "meld_points": meld,
        "natural_canastas": natural,
        "mixed_canastas": mixed,
        "red_threes": red,
        "hand_points": hand,
    }


@pytest.fixture
def games(client: FlaskClient) -> dict[str, str]:
    """Games in every state a page shows: new, under way, won, tied, sitting out, house rules."""
    teams = [{"players": NAMES[0]}, {"players": NAMES[1]}]
    new = _api(client, {"name": "Mardi", "sides": teams})
    playing = _api(client, {"name": "Jeudi", "sides": teams})
    _hand(client, playing, call(250, natural=1, red=1), call(red=1, hand=40), went_out=0,
          concealed=True)  # fmt: skip
    _hand(client, playing, call(90, hand=15), call(120, hand=5))
    won = _api(client, {"sides": teams})
    for _ in range(2):
        _hand(client, won, call(700, natural=4, red=4), call(50, hand=50), went_out=0)
    tied = _api(client, {"sides": teams})
    _hand(client, tied, call(560, natural=10), call(560, natural=10))
    five = _api(
        client,
        {
            "profile": "five-player",
            "sides": [{"players": ["Léa", "Marc", "Inès"]}, {"players": NAMES[1]}],
            "rules": {"going_out": 150, "minimums": [[None, 20], [0, 60], [2000, 100]]},
        },
    )
    _hand(client, five, call(200, natural=1), call(80), went_out=0)
    six = _api(
        client, {"profile": "six-player", "sides": [{"players": n} for n in NAMES], "target": 10000}
    )
    _hand(client, six, call(400, natural=1, mixed=1, red=5), call(60), call(hand=35), went_out=0)
    return {"new": new, "playing": playing, "won": won, "tied": tied, "five": five, "six": six}


PDF_GAMES = ("playing", "five")


def page_urls(app: Flask, games: dict[str, str], others: dict[str, str] | None = None) -> list[str]:
    """Every GET page of the app (the API and the switch aside), for every kind of game.

    `others` fills the addresses that are not a game's: a club's, a watch link's.
    """
    # Built in full before any request: a request made while this context is pushed would
    # share its app context (and its cached locale).
    with app.test_request_context():
        return list(_page_urls(app, games, others or {}))


def _page_urls(app: Flask, games: dict[str, str], others: dict[str, str]) -> Iterator[str]:
    with app.test_request_context():
        for rule in sorted(app.url_map.iter_rules(), key=lambda r: r.rule):
            if "GET" not in (rule.methods or ()) or rule.endpoint in ("static", "i18n.switch"):
                continue
            if (
                rule.rule.startswith(("/api/", "/healthz"))
                or rule.endpoint.startswith("csv.")
                or rule.rule.endswith(".csv")
            ):
                continue  # data, not pages: CSV headers are English by design
            if rule.rule.endswith((".svg", ".js", ".ico", ".webmanifest")):
                continue  # images and scripts, no words
            arguments = set(rule.arguments)
            unknown = arguments - {"game_id", "number"} - set(others)
            assert not unknown, f"teach test_i18n how to fill {unknown} of {rule.rule}"
            if "game_id" not in arguments:
                yield url_for(rule.endpoint, **{k: others[k] for k in arguments})
                continue
            for kind, game_id in games.items():
                if rule.endpoint.startswith("pdf.") and kind not in PDF_GAMES:
                    continue  # a PDF takes a second to render: two kinds of game suffice
                if "number" in arguments:
                    if kind != "new":
                        yield url_for(rule.endpoint, game_id=game_id, number=1)
                else:
                    yield url_for(rule.endpoint, game_id=game_id)
        for game_id in games.values():
            yield url_for("rulebook.rules", game=game_id)
        yield "/no-such-page"
        yield "/games/no-such-game"


def read_page(client: FlaskClient, url: str, headers: dict[str, str]) -> tuple[int, str]:
    # Redirects are followed: a refusal's flash message is read on the page it lands on.
    response = client.get(url, headers=headers, follow_redirects=True)
    if response.mimetype == "application/pdf":
        return response.status_code, pdf_text(response.data)
    assert response.mimetype == "text/html", (url, response.mimetype)
    html = response.get_data(as_text=True)
    return response.status_code, visible_text(html)


@pytest.mark.slow  # walks every page in three languages
def test_every_page_speaks_one_language(
    app: Flask, client: FlaskClient, games: dict[str, str]
) -> None:
    detector = Detector(translated_messages())
    problems: dict[str, list[str]] = {}
    seen = 0
    club = client.post("/api/clubs", json={"name": "Sunday", "players": ["Ann", "Bob"]}).json
    watch = client.get(f"/api/games/{games['playing']}").json["watch_url"]
    players = ["Ann", "Bob", "Cy", "Di"]
    night = client.post(
        f"/api/clubs/{club['id']}/nights",
        json={"players": players, "rounds": 2, "round": {"fixed_hands": 1}},
    ).json
    season = client.post(
        f"/api/clubs/{club['id']}/seasons",
        json={"name": "Winter", "from": "2026-01-01", "to": "2026-12-31", "best_of": 4},
    ).json
    # No round drawn: its tables' games are named in the language of whoever drew it (stored
    # data, like any game's name), which every other language's walk would count as a leak.
    others = {
        "club_id": club["id"],
        "watch_id": watch.rsplit("/", 1)[1],
        "night_id": night["id"],
        "wall_id": night["watch_url"].rsplit("/", 1)[1],
        "season_id": season["id"],
    }
    for url in page_urls(app, games, others):
        for language, headers in HEADERS.items():
            status, text = read_page(client, url, headers)
            assert status < 500, (url, language)
            assert text, (url, language)
            seen += 1
            found = detector.leaks(text, language)
            if found:
                problems[f"{language} {url}"] = found
    assert seen >= 30
    assert problems == {}


@pytest.mark.slow  # the walk again, on a page made to leak
def test_the_walk_would_see_a_leak(client: FlaskClient) -> None:
    """The leak detector itself: a label of another language on a page is caught."""
    messages = translated_messages()
    assert leaks("Règles de la canasta Opening minimum 50", "fr", messages) == ["Opening minimum"]
    assert leaks("Canasta rules 5,000 and more", "en", messages) == []
    assert leaks("Minimum d'ouverture, and then", "en", messages) == ["Minimum d'ouverture"]
    assert leaks("Reglas de la canasta: 5.000 y más", "es", messages) == []
    assert leaks("Reglas de la canasta Opening minimum", "es", messages) == ["Opening minimum"]
    french_on_spanish = leaks("Reglas de la canasta Minimum d'ouverture", "es", messages)
    assert french_on_spanish == ["Minimum", "Minimum d'ouverture"]  # "Minimum": en and fr
    spanish_on_french = leaks("Règles de la canasta, Mínimo de bajada", "fr", messages)
    assert "Mínimo de bajada" in spanish_on_french and "word: bajada" in spanish_on_french
    assert "Canasta limpia" in leaks("Canasta rules: 2 canastas, Canasta limpia", "en", messages)
    assert leaks("Jouer with amis", "fr", []) == ["word: with"]
    assert leaks("Jugar con la partie", "es", []) == ["word: partie"]  # "la" is Spanish too
    assert leaks("Play con amigos", "en", []) == ["word: con"]
    assert leaks("Jouer con la main", "fr", []) == ["word: con"]
    french = visible_text(
        '<html lang="fr"><title>Règles</title><body><a lang="en" title="English">EN</a>'
        '<input type="submit" value="Save"><script>var the = 1;</script></body></html>'
    )
    assert french == "Règles Save"


@pytest.mark.parametrize(
    ("language", "phrases"),
    [
        (
            "fr",
            ("Règles de la canasta", "Canasta naturelle", "Minimum d'ouverture", "Variantes",
             "3 000 et plus"),  # the French thousands separator, spaces collapsed
        ),
        (
            "es",
            ("Reglas de la canasta", "Canasta limpia", "Canasta sucia", "Mínimo de bajada",
             "Variantes", "Tres rojo", "3.000 y más"),
        ),
    ],
)  # fmt: skip
def test_the_rules_page_is_in_the_readers_language(
    client: FlaskClient, language: str, phrases: tuple[str, ...]
) -> None:
    text = visible_text(client.get("/rules", headers=HEADERS[language]).get_data(as_text=True))
    for phrase in phrases:
        assert phrase in text


def test_the_score_sheets_print_in_spanish(client: FlaskClient) -> None:
    """A game's sheet and a blank one, read back from the PDF: Spanish words, Spanish digits."""
    game_id = _api(client, {"name": "Mardi", "sides": [{"players": n} for n in NAMES[:2]]})
    _hand(client, game_id, call(1050, natural=1, red=1), call(red=1, hand=40), went_out=0,
          concealed=True)  # fmt: skip
    detector = Detector(translated_messages())
    sheet = pdf_text(client.get(f"/games/{game_id}/sheet.pdf", headers=SPANISH).data)
    for phrase in ("página 1 de 1", "Mínimos de bajada:", "Próxima mano: reparte Zoé.",
                   "Puntaje", "1.850", "En juego"):  # fmt: skip
        assert phrase in sheet
    blank = pdf_text(client.get("/sheets/blank.pdf", headers=SPANISH).data)
    for phrase in ("Planilla de canasta", "Canasta limpia 500", "Canasta sucia 300",
                   "de 1.500 a 2.995", "3.000 y más", "Cierre de mano"):  # fmt: skip
        assert phrase in blank
    assert detector.leaks(sheet, "es") == []
    assert detector.leaks(blank, "es") == []


def test_numbers_in_templates_follow_each_reader(client: FlaskClient) -> None:
    """The first reader's language must not stick in a compiled template's numbers."""
    pages = {
        language: client.get("/rules", headers=headers).get_data(as_text=True)
        for language, headers in HEADERS.items()
    }
    for language, html in pages.items():
        for other, grouped in GROUPED.items():
            assert (grouped[1] in html) == (other == language), (language, grouped[1])


def hidden_fields(html: str) -> dict[str, str]:
    return dict(
        re.findall(r'<input[^>]*type="hidden"[^>]*name="([^"]+)"[^>]*value="([^"]*)"', html)
    )


@pytest.mark.slow  # every refusal of every form
@pytest.mark.parametrize(("language", "headers"), list(HEADERS.items()))
def test_refused_forms_speak_the_readers_language(
    client: FlaskClient, games: dict[str, str], language: str, headers: dict[str, str]
) -> None:
    """The pages' refusals (a form sent back with its errors) are in one language too."""
    detector = Detector(translated_messages())
    new_game = client.post(
        "/games/new",
        data={"profile": "classic", "sides-0-players-0": "Léa", "sides-0-players-1": "x" * 41},
        headers=headers,
    )
    assert new_game.status_code == 422  # a name over 40 characters
    text = visible_text(new_game.get_data(as_text=True))
    assert "Léa" in text or 'value="Léa"' in new_game.get_data(as_text=True)
    assert detector.leaks(text, language) == []

    game_id = games["playing"]
    form = client.get(f"/games/{game_id}/hands/new?out=0", headers=headers).get_data(as_text=True)
    data = hidden_fields(form) | {
        "went_out": "0",
        "sides-0-meld_points": "abc",
        "sides-0-red_threes": "4",
        "sides-0-natural_canastas": "1",
        "sides-1-meld_points": "60",
        "sides-1-red_threes": "3",
    }
    refused = client.post(f"/games/{game_id}/hands/new", data=data, headers=headers)
    assert refused.status_code == 400  # "abc" is not a number
    text = visible_text(refused.get_data(as_text=True))
    whole = {"en": "whole number", "fr": "nombre entier", "es": "número entero"}
    assert whole[language] in text  # "abc"
    assert detector.leaks(text, language) == []
    data["sides-0-meld_points"] = "300"
    refused = client.post(f"/games/{game_id}/hands/new", data=data, headers=headers)
    text = visible_text(refused.get_data(as_text=True))
    threes = {"en": "red threes", "fr": "trois rouges", "es": "tres rojos"}
    assert threes[language] in text  # 4 + 3 red threes: more than two packs hold
    assert detector.leaks(text, language) == []


@pytest.mark.parametrize("language", TRANSLATED)
def test_pages_tell_caches_they_vary_by_language(client: FlaskClient, language: str) -> None:
    for path in ("/", "/rules", "/api/games/nope"):
        response = client.get(path, headers=HEADERS[language])
        vary = response.headers.get("Vary", "")
        assert "Accept-Language" in vary and "Cookie" in vary, path
        assert response.headers["Content-Language"] == language


def test_no_request_means_english(app: Flask) -> None:
    from scorer.web.i18n import select_locale

    with app.app_context():
        assert select_locale() == "en"


def test_numbers_outside_a_request_are_english(app: Flask) -> None:
    from scorer.web.i18n import number

    with app.app_context():
        assert number(-12500) == "\u221212,500"


@pytest.mark.parametrize("family", FAMILIES.values(), ids=lambda f: f.key)
def test_every_choosable_family_has_its_words(family: RuleFamily) -> None:
    """A table may choose a family only once every page can name it, its seatings, its kinds
    of canasta and its special hands, from the one table of each (scorer.web.i18n)."""
    assert family.key in FAMILY_LABELS
    assert all(seating.key in VARIANT_LABELS for seating in family.seatings)
    assert all(kind.key in CANASTA_LABELS for kind in family.canastas)
    # Its book's special hands, and those of every list a club may choose (the League's).
    listed = [
        *family.special_hands,
        *(h for _k, hands in family.special_hand_presets for h in hands),
    ]
    assert [hand.key for hand in listed if hand.key not in SPECIAL_HAND_LABELS] == []
    assert all(key in SPECIAL_HAND_PRESET_LABELS for key, _h in family.special_hand_presets)


@pytest.mark.parametrize("family", FAMILIES.values(), ids=lambda f: f.key)
@pytest.mark.parametrize("language", ["fr", "es"])
def test_every_house_rule_of_every_choosable_family_has_its_words(
    app: Flask, family: RuleFamily, language: str
) -> None:
    """The new-game form, the board, the sheet and the rules page name a house rule from one
    table (HOUSE_RULE_LABELS), never by its API key ("deuces_canasta"), in every language;
    so do the ways of playing a chosen rule offers."""
    assert [key for key in house_rule_fields(family) if key not in HOUSE_RULE_LABELS] == []
    for key, choices in house_rule_choices(family).items():
        assert [c for c in choices if c not in HOUSE_RULE_CHOICE_LABELS[key]] == [], key
    with app.test_request_context(), force_locale("en"):
        english = {key: str(HOUSE_RULE_LABELS[key]) for key in house_rule_fields(family)}
    with app.test_request_context(), force_locale(language):
        same = [k for k in english if str(HOUSE_RULE_LABELS[k]) == english[k]]
    assert same == []
