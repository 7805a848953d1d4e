"""Shared fixtures: a real app on a real SQLite file in a temporary folder."""

from __future__ import annotations

import ast
import inspect
import os
import re
from collections.abc import Iterator
from functools import cache
from pathlib import Path
from types import ModuleType

import pytest
from flask import Flask
from flask.testing import FlaskClient
from jinja2 import MemcachedBytecodeCache

from bench import launcher
from scorer import create_app
from scorer.network import ENV_LAN_ADDRESS

# The shared helpers that assert (imported by the test modules, after this file): their
# failures are shown as a test's own are.
pytest.register_assert_rewrite("serving", "stored")

# The tests never look for this machine's network address: a page opened on 127.0.0.1 puts
# this one in its QR codes. Discovery itself is tested as a unit, on made-up addresses.
os.environ.setdefault(ENV_LAN_ADDRESS, "127.0.0.1")
# A test reads a club's page or a sheet far more often than a person does: the heavy-read
# budget (scorer.web.ratelimit) is opened for every app and server the tests start, except
# where a test sets it (a config given to create_app wins over the environment).
os.environ.setdefault("RATELIMIT_HEAVY_READ", "100000/minute")
# The same for the heavy reads made at once (scorer.web.priority): a test client that never
# reads an answer to its end keeps its slot until the answer is made, while the next request
# starts; tests/web/test_heavy_reads.py sets its own.
os.environ.setdefault("SCORER_HEAVY_READS_AT_ONCE", "16")

# --- tiers: `make test-fast` runs what is neither browser, served nor pdf -------------------
#
# The marks are given here, at collection, from what a test does, so a new test is tiered
# without anyone remembering to mark it: under tests/browser/ it is `browser`; a test whose
# module starts servers (imports serving, bench.launcher or subprocess) is `served`; a test that
# makes or reads a PDF (its code, its fixtures' or its module's helpers' GET a .pdf or use
# pdfplumber or weasyprint; or a parameter names a .pdf) is `pdf`.
BROWSER_FOLDER = Path(__file__).parent / "browser"
SERVED_IMPORTS = frozenset({"serving", "bench.launcher", "subprocess"})
PDF_WORDS = re.compile(r"pdfplumber|weasyprint|get\w*\([^)\n]*\.pdf\b")


@cache
def _imports(module: ModuleType) -> frozenset[str]:
    tree = ast.parse(inspect.getsource(module))
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            names.add(node.module)
            names.update(f"{node.module}.{alias.name}" for alias in node.names)
    return frozenset(names)


@cache  # a fixture or helper is read once, not once per test using it (tokenizing is slow)
def _source(function: object) -> str:
    """A function's body (its decorators left out: a parameter list is judged by value)."""
    try:
        text = inspect.getsource(function)  # type: ignore[arg-type]
    except (OSError, TypeError):
        return ""
    return text[text.find("def ") :]


def _code_of(item: pytest.Function) -> str:
    """The test's source, its fixtures' and that of the module's functions it calls."""
    texts = [_source(item.function)]
    for definitions in item._fixtureinfo.name2fixturedefs.values():
        texts.extend(_source(definition.func) for definition in definitions)
    module = item.module
    called = set(re.findall(r"\b(\w+)\(", "\n".join(texts)))
    for name in called:
        helper = getattr(module, name, None)
        if inspect.isfunction(helper) and helper.__module__ == module.__name__:
            texts.append(_source(helper))
    return "\n".join(texts)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if not isinstance(item, pytest.Function):
            continue
        if BROWSER_FOLDER in Path(item.path).parents:
            item.add_marker(pytest.mark.browser)
        if _imports(item.module) & SERVED_IMPORTS:
            item.add_marker(pytest.mark.served)
        params = getattr(item, "callspec", None)
        pdf_param = params and any(".pdf" in str(value) for value in params.params.values())
        if pdf_param or PDF_WORDS.search(_code_of(item)):
            item.add_marker(pytest.mark.pdf)


# --- served tests: the logs of every server a failing test started -------------------------
#
# Every server started through bench.launcher.Server notes its log there (a test's own, or
# one a bench helper the test calls starts), and so does anything started another way
# (launcher.show_on_failure): one list, emptied before each test, shown when it fails.


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_setup(item: pytest.Item) -> None:
    launcher.LOGS.clear()


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Iterator[None]:
    outcome = yield
    report = outcome.get_result()
    if report.failed:
        report.sections.extend(launcher.failure_sections())


class _Shelf(dict[str, bytes]):
    """The dict-like client MemcachedBytecodeCache asks for: a get (dict's own) and a set."""

    def set(self, key: str, value: bytes, timeout: int | None = None) -> None:
        self[key] = value


# Every test gets a new app, and a new app's Jinja compiles each template afresh on its
# first page (~0.08 s a test). The compiled templates are shared instead, through Jinja's
# own bytecode cache: a bucket is keyed by the template's name and its source's checksum,
# so a template edited between two tests is compiled again. Nothing else is shared.
TEMPLATE_BYTECODE = MemcachedBytecodeCache(_Shelf(), prefix="")


@pytest.fixture
def app(tmp_path: Path) -> Iterator[Flask]:
    app = create_app(
        {
            "TESTING": True,
            "DATABASE": str(tmp_path / "scorer.sqlite3"),
            "SECRET_KEY": "test-secret",
            "WTF_CSRF_ENABLED": False,
        }
    )
    app.jinja_env.bytecode_cache = TEMPLATE_BYTECODE
    yield app


@pytest.fixture
def client(app: Flask) -> FlaskClient:
    return app.test_client()
