"""The house's layers: imports run one way, no cycle, no import hidden inside a function.

    wiring    scorer.app (create_app), scorer, scorer.serve, scorer.front, scorer.cli,
              scorer.deploy
    features  scorer.games, scorer.clubs, scorer.checker, scorer.nights (never import one
              another)
    sheets    scorer.sheets   (printing: the game's sheets, and the club night's)
    web       scorer.web      (the HTTP toolkit: failures, display, i18n, forms, pages...)
    store     scorer.store    (SQLite; `from scorer import store` is its one face: a feature
                              imports no module of it)
    core      scorer.core     (pure: imports nothing but itself)

scorer.network, scorer.qr and scorer.secret are leaves (they import nothing of scorer) any
layer may use.
The graph is grimp's, built from the source; the import-in-a-function check reads the ast.
"""

from __future__ import annotations

import ast
from pathlib import Path

import grimp
import pytest

import scorer

# Lowest first: a module may import its own layer or any below it, never above.
LAYERS: tuple[tuple[str, ...], ...] = (
    ("scorer.core",),
    ("scorer.store",),
    ("scorer.web",),
    ("scorer.sheets",),
    ("scorer.games", "scorer.clubs", "scorer.checker", "scorer.nights"),  # independent
    ("scorer", "scorer.app", "scorer.serve", "scorer.front", "scorer.cli", "scorer.deploy"),
)
LEAVES = ("scorer.network", "scorer.qr", "scorer.secret")
PACKAGE = Path(scorer.__file__).resolve().parent


def home(module: str) -> str:
    """The package a module belongs to, as named in LAYERS or LEAVES."""
    named = [name for layer in LAYERS for name in layer] + list(LEAVES)
    found = [name for name in named if module == name or module.startswith(name + ".")]
    return max(found, key=len)  # "scorer" holds them all: the longest name is its home


def rank(module: str) -> int:
    place = home(module)
    if place in LEAVES:
        return -1
    return next(i for i, layer in enumerate(LAYERS) if place in layer)


def arrows(graph: grimp.ImportGraph) -> list[tuple[str, str]]:
    return sorted(
        (importer, imported)
        for importer in graph.modules
        for imported in graph.find_modules_directly_imported_by(importer)
    )


def wrong_way(importer: str, imported: str) -> str | None:
    """Why this import breaks the layers, or None when it runs the right way."""
    if home(importer) in LEAVES:
        return "a leaf imports nothing of scorer"
    if rank(imported) > rank(importer):
        return "runs up a layer"
    if rank(imported) == rank(importer) == len(LAYERS) - 2 and home(imported) != home(importer):
        return "one feature imports another (share through store or core)"
    if rank(importer) == len(LAYERS) - 2 and imported.startswith("scorer.store."):
        return "a feature imports a module of the store (use its face, scorer.store)"
    return None


def cycles(graph: grimp.ImportGraph) -> list[list[str]]:
    """The strongly connected groups of more than one module (Tarjan)."""
    edges = {
        module: sorted(graph.find_modules_directly_imported_by(module)) for module in graph.modules
    }
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(module: str) -> None:
        index[module] = low[module] = len(index)
        stack.append(module)
        on_stack.add(module)
        for target in edges[module]:
            if target not in index:
                visit(target)
                low[module] = min(low[module], low[target])
            elif target in on_stack:
                low[module] = min(low[module], index[target])
        if low[module] == index[module]:
            group = []
            while True:
                top = stack.pop()
                on_stack.discard(top)
                group.append(top)
                if top == module:
                    break
            if len(group) > 1:
                found.append(sorted(group))

    for module in sorted(edges):
        if module not in index:
            visit(module)
    return found


def imports_inside_functions(source: str) -> list[int]:
    """The line of every import statement inside a function body."""
    lines = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda):
            lines += [
                inner.lineno
                for inner in ast.walk(node)
                if isinstance(inner, ast.Import | ast.ImportFrom)
            ]
    return sorted(set(lines))


@pytest.fixture(scope="module")
def graph() -> grimp.ImportGraph:
    return grimp.build_graph("scorer", cache_dir=None)


def test_every_module_has_a_layer(graph: grimp.ImportGraph) -> None:
    # "scorer" matches every module; a new top-level module must be placed on purpose.
    strays = [module for module in graph.modules if home(module) == "scorer" and module != "scorer"]
    assert strays == [], "put these in a layer (tests/test_layers.py LAYERS) or a package"


def test_imports_run_one_way(graph: grimp.ImportGraph) -> None:
    wrong = [
        f"{importer} -> {imported}: {why}"
        for importer, imported in arrows(graph)
        if (why := wrong_way(importer, imported))
    ]
    assert wrong == []


def test_no_import_cycle(graph: grimp.ImportGraph) -> None:
    assert cycles(graph) == []


def test_no_import_inside_a_function() -> None:
    hidden = {
        str(path.relative_to(PACKAGE)): lines
        for path in sorted(PACKAGE.rglob("*.py"))
        if (lines := imports_inside_functions(path.read_text(encoding="utf-8")))
    }
    assert hidden == {}


# The checks themselves, on small cases: each must catch what it is there to catch.


def test_the_checks_catch_a_wrong_arrow_a_cycle_and_a_hidden_import() -> None:
    assert wrong_way("scorer.core.rules", "scorer.store.db") == "runs up a layer"
    assert wrong_way("scorer.store.clubs", "scorer.web.http") == "runs up a layer"
    assert wrong_way("scorer.games.api", "scorer.clubs.api").startswith("one feature")
    assert wrong_way("scorer.qr", "scorer.core.rules") is not None
    assert wrong_way("scorer.clubs.pages.club_night", "scorer.sheets.render") is None
    assert wrong_way("scorer.games.pages.board", "scorer.games.watch") is None
    assert wrong_way("scorer", "scorer.games.api") is None
    assert wrong_way("scorer.clubs.api", "scorer.store.clubs").startswith("a feature imports")
    assert wrong_way("scorer.nights.view", "scorer.store.cache").startswith("a feature imports")
    assert wrong_way("scorer.clubs.api", "scorer.store") is None
    assert wrong_way("scorer.web.failures", "scorer.store.cache") is None  # the toolkit may

    two = grimp.ImportGraph()
    two.add_import(importer="scorer.core.rules", imported="scorer.core.limits")
    two.add_import(importer="scorer.core.limits", imported="scorer.core.rules")
    assert cycles(two) == [["scorer.core.limits", "scorer.core.rules"]]

    assert imports_inside_functions("def f():\n    from scorer import store\n") == [2]
    assert imports_inside_functions("from scorer import store\n") == []


def test_a_test_file_imports_test_files_of_its_own_folder_only() -> None:
    """Shared test helpers live beside the root conftest.py (tests/*.py without test_). A
    test file may borrow from another of its folder, but pytest puts a test file's folder on
    the path only once it collects it: an import across folders works or not depending on
    the order (and xdist's workers' order differs)."""
    tests = Path(__file__).resolve().parent
    wrong = []
    for path in sorted(tests.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            names = [a.name for a in node.names] if isinstance(node, ast.Import) else []
            if isinstance(node, ast.ImportFrom) and node.module:
                names = [node.module]
            for name in names:
                if name.startswith("test_") and not (path.parent / f"{name}.py").exists():
                    wrong.append(f"{path.relative_to(tests)}: {name}")
    assert wrong == []
