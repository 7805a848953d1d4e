"""scorer: a Canasta scorekeeping companion for card tables.

Importing the package (or its pure core, ``scorer.core``) loads no Flask and no WeasyPrint:
the app is built by :func:`scorer.app.create_app`, which ``scorer.create_app`` (as gunicorn's
``'scorer:create_app()'`` names it) reaches on first use.
"""

from __future__ import annotations

import importlib
import importlib.util
from typing import Any

# Names the package has always offered, and the module that holds each.
_LAZY: dict[str, str] = {
    "create_app": "scorer.app",
    "load_secret_key": "scorer.app",
    "csrf": "scorer.app",
    "compress": "scorer.app",
    "ENV_DATABASE": "scorer.app",
    "ENV_INSTANCE_PATH": "scorer.app",
    "ENV_SECRET_KEY_FILE": "scorer.app",
    "PACKAGE": "scorer.web.folders",
    "ROOT": "scorer.web.folders",
    "STATIC_FOLDER": "scorer.web.folders",
    "TEMPLATE_FOLDER": "scorer.web.folders",
    "shipped": "scorer.web.folders",
}
__all__ = sorted(_LAZY)


def __getattr__(name: str) -> Any:
    """``scorer.create_app`` and its neighbours, imported when first asked for (PEP 562).

    Any other public name the package held when it built the app on import (``scorer.pages``
    in a bench script...) is still the app module's."""
    # A subpackage ("from scorer import store") is the import system's to load, never the app.
    if name.startswith("_") or importlib.util.find_spec(f"{__name__}.{name}") is not None:
        raise AttributeError(f"module 'scorer' has no attribute {name!r}")
    module = importlib.import_module(_LAZY.get(name, "scorer.app"))
    try:
        return getattr(module, name)
    except AttributeError:
        raise AttributeError(f"module 'scorer' has no attribute {name!r}") from None
