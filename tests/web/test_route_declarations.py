"""Each route declares its budgets and whether it is a heavy read where it is defined
(scorer.web.routes), and the toolkit names no feature endpoint (issue 30)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest
from flask import Flask

from scorer.web import ratelimit, routes
from scorer.web.routes import budget, budgets_of, heavy_read, is_heavy

WEB = Path(ratelimit.__file__).parent
WRITES = {"POST", "PUT", "PATCH", "DELETE"}
# Heavy by what they cost: a club's or a game's whole store, or a PDF.
KNOWN_HEAVY = {
    "clubs.club",
    "api_clubs.get_club",
    "api_clubs.export_club",
    "csv.club_hands",
    "csv.game_hands",
    "clubs.club_night",
    "pdf.game_sheet",
    "pdf.blank_sheet",
    "api.export_game",
    "nights_pages.seating_pdf",
    "nights_pages.standings_pdf",
    "seasons_pages.season",
    "nights_seasons.get_season",
    "nights_seasons.season_csv_download",
}


def writing_rules(app: Flask) -> dict[str, set[str]]:
    found: dict[str, set[str]] = {}
    for rule in app.url_map.iter_rules():
        methods = set(rule.methods or ()) & WRITES
        if methods:
            found.setdefault(rule.endpoint, set()).update(methods)
    return found


def test_every_route_that_writes_declares_a_budget_for_each_of_its_writes(app: Flask) -> None:
    """A new write route (a night's, a club's...) cannot be added without its budget."""
    unbudgeted = {}
    for endpoint, methods in writing_rules(app).items():
        counted = {m for _, spent in budgets_of(app.view_functions[endpoint]) for m in spent}
        if methods - counted:
            unbudgeted[endpoint] = methods - counted
    assert unbudgeted == {}


def test_every_declared_budget_has_a_limit(app: Flask) -> None:
    for endpoint, view in app.view_functions.items():
        for name, _, _ in ratelimit.declared_budgets(view):
            assert name in ratelimit.LIMITS, endpoint


def test_the_heavy_reads_are_marked_where_they_are_defined(app: Flask) -> None:
    marked = {endpoint for endpoint, view in app.view_functions.items() if is_heavy(view)}
    assert marked >= KNOWN_HEAVY
    # Every PDF and every CSV is heavy, whichever feature adds it.
    for rule in app.url_map.iter_rules():
        if rule.rule.endswith((".pdf", ".csv", "/export")):
            assert rule.endpoint in marked, rule.rule


def string_literals(path: Path) -> set[str]:
    tree = ast.parse(path.read_text())
    return {
        node.value
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant) and isinstance(node.value, str)
    }


def feature_endpoints(app: Flask) -> set[str]:
    """The endpoints whose views are not the toolkit's own (its service worker, favicon...)."""
    return {
        endpoint
        for endpoint, view in app.view_functions.items()
        if endpoint != "static" and not view.__module__.startswith("scorer.web")
    }


def test_the_toolkit_names_no_feature_endpoint(app: Flask) -> None:
    """Not the budgets, not the priority, not a redirect: a feature's pages are its own."""
    endpoints = feature_endpoints(app)
    assert "games.scoreboard" in endpoints and "clubs.club" in endpoints
    for path in sorted(WEB.rglob("*.py")):
        named = string_literals(path) & endpoints
        assert named == set(), path.name


def test_each_feature_registers_its_own_blueprint(app: Flask) -> None:
    """No feature fills a shared blueprint: each endpoint's blueprint lives in its feature."""
    for endpoint in feature_endpoints(app):
        feature = app.view_functions[endpoint].__module__.split(".")[1]
        blueprint = app.blueprints[endpoint.split(".")[0]]
        assert blueprint.import_name.split(".")[1] == feature, endpoint


def test_a_view_may_spend_several_budgets_in_either_order_of_decorators() -> None:
    @heavy_read
    @budget("import_kib", "create_club")
    @budget("check_meld", methods=("GET",))
    def view() -> str:
        return ""

    assert budgets_of(view) == (
        ("check_meld", ("GET",)),
        ("import_kib", routes.WRITES),
        ("create_club", routes.WRITES),
    )
    assert is_heavy(view) and not is_heavy(lambda: None)
    assert ratelimit.declared_budgets(view)[-1] == ("heavy_read", routes.READS, None)


def test_an_unknown_budget_stops_the_app_at_start() -> None:
    app = Flask(__name__)

    @app.post("/x")
    @budget("no_such_budget")
    def x() -> str:
        return ""

    with pytest.raises(RuntimeError, match="no_such_budget"):
        ratelimit.init_app(app)
