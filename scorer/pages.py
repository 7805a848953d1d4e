"""The pages people touch at the table."""

from __future__ import annotations

from flask import Blueprint, render_template

bp = Blueprint("pages", __name__)


@bp.get("/")
def home() -> str:
    return render_template("games/home.html", games=[])
