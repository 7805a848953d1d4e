"""The rules page: card values, bonuses, minimums and variants, in our own words."""

from __future__ import annotations

from flask import Blueprint

bp = Blueprint("rulebook", __name__)
