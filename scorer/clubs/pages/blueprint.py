"""The clubs' pages' own blueprint (registered by scorer.clubs.init_app): "clubs.club",
"clubs.new_club", "clubs.new_club_game"..."""

from __future__ import annotations

from flask import Blueprint

bp = Blueprint("clubs", __name__)
