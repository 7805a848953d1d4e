"""Printable score sheets rendered by WeasyPrint."""

from __future__ import annotations

from flask import Blueprint

bp = Blueprint("pdf", __name__)
