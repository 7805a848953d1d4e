"""The core is pure: importing it (or the package) boots no app.

A script, a test or another game's engine that needs only the rules must not pay for Flask,
WeasyPrint and every feature (`import scorer.core.rules` once loaded a thousand modules).
"""

from __future__ import annotations

import json
import pkgutil
import subprocess
import sys

import scorer.core

CORE_MODULES = sorted(f"scorer.core.{m.name}" for m in pkgutil.iter_modules(scorer.core.__path__))
# Packages of the web edge and of printing: none belongs to the core.
WEB = ("flask", "werkzeug", "jinja2", "weasyprint", "flask_babel", "sqlite_utils", "wtforms")


def loaded_after(statement: str) -> list[str]:
    """The modules a fresh interpreter holds after running ``statement``."""
    script = f"import sys, json\n{statement}\nprint(json.dumps(sorted(sys.modules)))"
    answer = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, check=True, timeout=60
    )
    return json.loads(answer.stdout)


def test_importing_the_core_loads_no_flask_and_no_weasyprint() -> None:
    assert len(CORE_MODULES) > 10
    loaded = loaded_after("\n".join(f"import {name}" for name in CORE_MODULES))
    web = [name for name in loaded if name.split(".")[0] in WEB]
    assert web == []
    outside = [n for n in loaded if n.startswith("scorer.") and not n.startswith("scorer.core")]
    assert outside == []


def test_the_app_factory_is_still_reached_from_the_package() -> None:
    loaded = loaded_after("import scorer\nassert callable(scorer.create_app)")
    assert "flask" in loaded  # asked for, it is there: the check above can fail
    assert loaded_after("import scorer").count("flask") == 0


def test_the_store_imported_alone_boots_no_app() -> None:
    """`from scorer import store` (the store's face) imports the store, not the app."""
    loaded = loaded_after("from scorer import store")
    assert "scorer.app" not in loaded
    assert "scorer.games.api" not in loaded
