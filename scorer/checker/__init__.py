"""The opening-meld checker (JSON API and plain form) and the rules of play page.

The checker's modules hang their routes on api.bp; the rules of play page is rulebook.bp.
"""

from __future__ import annotations

from flask import Flask

from scorer.checker import api, form, rulebook
from scorer.web.routes import register_json_api

__all__ = ["api", "form", "init_app", "rulebook"]


def init_app(app: Flask) -> None:
    """The checker's routes (JSON only, or a form that changes nothing) and the rule book's."""
    app.register_blueprint(rulebook.bp)
    register_json_api(app, api.bp)
