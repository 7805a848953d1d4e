"""A club night on one page of PDF: the night's standings and each game's result."""

from __future__ import annotations

from datetime import date

from flask import abort, render_template, request
from flask_babel import gettext as _
from werkzeug.wrappers import Response

from scorer.clubs.pages.blueprint import bp
from scorer.clubs.pages.clubs import load_board, per_hand, rate, streak_text
from scorer.core.stats import club_stats
from scorer.sheets import render
from scorer.sheets.cache import cached_sheet
from scorer.store import GameLine
from scorer.web.display import game_status, points
from scorer.web.i18n import date_text
from scorer.web.routes import heavy_read

# Games listed on a night's sheet: a real night is a handful; a night of more (an import
# with one date for every game) lists its latest ones and says how many more there were.
# The night's standings count them all.
NIGHT_GAMES_MAX = 60


def night_date(days: list[str]) -> str:
    """The ?date= asked for (400 when not YYYY-MM-DD), else today's or the latest with games."""
    asked = request.args.get("date", "").strip()
    if asked:
        try:
            return date.fromisoformat(asked).isoformat() if len(asked) == 10 else _bad_date()
        except ValueError:
            return _bad_date()
    today = date.today().isoformat()
    return today if today in days or not days else days[0]


def _bad_date() -> str:
    abort(render.refused("date", _("date must be written YYYY-MM-DD")))


def result_text(line: GameLine) -> str:
    winner = None if line.winner is None else line.sides[line.winner]
    return game_status(winner, line.tied)


@bp.get("/clubs/<club_id>/night.pdf")
@heavy_read
def club_night(club_id: str) -> Response:
    """The night's sheet, from the games' stored summaries (no replay), kept per club
    version and games' versions, rendered in the server's one turn like every sheet."""
    size = render.paper_size()
    board = load_board(club_id)
    night = night_date(board.days())
    lines = [line for line in board.games if line.day == night]
    shown = lines[-NIGHT_GAMES_MAX:]

    def make_pdf() -> bytes:
        stats = club_stats(board.summaries_of(night), night[:4])
        html = render_template(
            "pdf/club_night.html",
            club=board.club,
            night=date_text(date.fromisoformat(night), "long"),
            games=shown,
            count=len(lines),
            more=len(lines) - len(shown),
            standings=stats.players,
            result_text=result_text,
            points=points,
            rate=rate,
            per_hand=per_hand,
            streak_text=streak_text,
            page_size=size,
            page_counter=render.page_counter_css(),
        )
        return render.render_pdf(html)

    data = cached_sheet(("night", club_id, board.tag, night), make_pdf)
    return render.pdf_response(data, f"club-{render.slug(board.club.name)}-{night}.pdf")
