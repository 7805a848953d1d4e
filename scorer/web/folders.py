"""Where this installation keeps its templates and static files."""

from __future__ import annotations

from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent  # scorer/
ROOT = PACKAGE.parent  # the checkout, when running from one


def shipped(name: str) -> Path:
    """The folder `name` (templates, static) of this installation.

    A checkout keeps it beside the package; an installed package carries it inside, where
    the build (setup.py) copied it.
    """
    inside = PACKAGE / name
    return inside if inside.is_dir() else ROOT / name


TEMPLATE_FOLDER = shipped("templates")
STATIC_FOLDER = shipped("static")
