"""Section 2: the app in process (Flask test client, real SQLite file) against a bare app."""

from __future__ import annotations

from collections.abc import Callable

from bench import fixtures
from bench.context import Bench
from bench.measure import Row, Section, compare, compare_each, fmt_count, fmt_ratio, fmt_time
from bench.site import HAND_FORM, RECORD, SCOREBOARD, Site, checked, tiny_app

LENGTHS = (10, 100, 999)  # 999: the longest game that still takes a hand (the cap is 1 000)
FLOOR = "the bare route"


def run(section: Section, bench: Bench) -> None:
    site = bench.site
    bare_client = tiny_app().test_client()

    def bare() -> None:
        checked(bare_client.get("/"), 200, "bare route")

    base = compare(bare, bare, bench.repeat)[1]
    section.rows.append(Row("baseline: bare Flask route, fixed string", fmt_time(base)))
    for length in LENGTHS:
        _record(section, bench, site, length, bare)
        _page(section, bench, site, length, bare, "scoreboard", SCOREBOARD)
        _page(
            section, bench, site, length, bare, "API read (GET /api/games/<id>)", "/api/games/{id}"
        )
    _page(section, bench, site, 30, bare, "hand form", HAND_FORM)
    section.notes.append(
        "Recording is POST /api/games/<id>/hands on a fresh game of that length each time; "
        "the API answers with the whole game, replayed."
    )


def _record(
    section: Section, bench: Bench, site: Site, length: int, bare: Callable[[], None]
) -> None:
    warmup = 2
    games = site.fresh_games(length, bench.repeat + warmup)
    body = fixtures.hand_body(length)

    def post(game_id: str) -> Callable[[], None]:
        def call() -> None:
            path = RECORD.format(id=game_id)
            checked(site.client.post(path, json=body), 201, path)

        return call

    took, base = compare_each([post(g) for g in games], bare, warmup)
    section.rows.append(
        Row(
            f"record a hand, game of {fmt_count(length)}",
            fmt_time(took),
            _ratio(took, base, length),
        )
    )


def _page(
    section: Section,
    bench: Bench,
    site: Site,
    length: int,
    bare: Callable[[], None],
    name: str,
    address: str,
) -> None:
    measure = f"{name}, game of {fmt_count(length)}"
    path = address.format(id=site.game(length))
    if not site.has_page(path):
        section.rows.append(Row(measure, "not available yet"))
        return
    try:
        took, base = compare(lambda: site.get(path), bare, bench.repeat)
    except Exception as error:  # noqa: BLE001 - a page still being built must not stop the run
        section.unavailable(measure, error)
        return
    per_hand = address != HAND_FORM  # the form shows the totals, not every hand
    section.rows.append(Row(measure, fmt_time(took), _ratio(took, base, length, per_hand)))


def _ratio(took: float, base: float, length: int, per_hand: bool = True) -> str:
    """Against the floor, and per hand of the game, so growth with its length shows."""
    if not per_hand:
        return fmt_ratio(took, base, FLOOR)
    return f"{fmt_ratio(took, base, FLOOR)}; {took / base / length:.1f}× per hand"
