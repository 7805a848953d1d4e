"""scorer: a Canasta scorekeeping companion for card tables.

Importing the package (or its pure core, ``scorer.core``) loads no Flask and no WeasyPrint:
the app is built by :func:`scorer.app.create_app`, which ``scorer.create_app`` (as gunicorn's
``'scorer:create_app()'`` names it) reaches on first use.
"""

from __future__ import annotations

import importlib
from typing import Any

# Names the package has always offered, and the module that holds each.
_LAZY: dict[str, str] = {
    "create_app": "scorer.app",
    "load_secret_key": "scorer.app",
    "csrf": "scorer.app",
    "compress": "scorer.app",
    "ENV_DATABASE": "scorer.app",
    "ENV_INSTANCE_PATH": "scorer.app",
    "PACKAGE": "scorer.web.folders",
    "ROOT": "scorer.web.folders",
    "STATIC_FOLDER": "scorer.web.folders",
    "TEMPLATE_FOLDER": "scorer.web.folders",
    "shipped": "scorer.web.folders",
}
__all__ = sorted(_LAZY)


def __getattr__(name: str) -> Any:
    """``scorer.create_app`` and its neighbours, imported when first asked for (PEP 562)."""
    if name not in _LAZY:
        raise AttributeError(f"module 'scorer' has no attribute {name!r}")
    return getattr(importlib.import_module(_LAZY[name]), name)
