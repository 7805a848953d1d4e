"""The scoreboard and its view helpers (totals, bars, chart, hands), and the game's QR code."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from flask import Response, abort, render_template
from flask_babel import get_locale
from flask_babel import gettext as _
from markupsafe import Markup

from scorer import store
from scorer.core.limits import MAX_HANDS_PER_GAME
from scorer.core.round_clock import over_by_time, read_clock, winner_at_time
from scorer.games.pages.blueprint import bp, game_title
from scorer.qr import qr_svg
from scorer.store import app_cache, corrections_of, get_db
from scorer.web import display
from scorer.web.addresses import absolute_url, svg_response
from scorer.web.failures import load_game
from scorer.web.forms import number_arg
from scorer.web.i18n import PROFILE_LABELS
from scorer.web.pages import Page, remember


def progress(total: int, target: int) -> int:
    """Per cent of the way to the target, for the bars (0 to 100)."""
    return max(0, min(100, round(100 * total / target))) if target > 0 else 0


def sides_view(record: store.ReplayedGame) -> list[dict[str, Any]]:
    state = record.state
    target = record.table.profile.target
    return [
        {
            "index": i,
            "name": side.name,
            "players": side.players,
            "total": state.totals[i],
            "minimum": state.minimums[i],
            "progress": progress(state.totals[i], target),
            "winner": state.winner == i,
        }
        for i, side in enumerate(record.table.sides)
    ]


def chart(record: store.ReplayedGame) -> dict[str, Any] | None:
    """The chart's points, worked out once per game version: they follow every hand."""
    return app_cache("chart").get_or_make((record.id, record.version), lambda: chart_of(record))


def chart_of(record: store.ReplayedGame) -> dict[str, Any] | None:
    """Running totals hand by hand as SVG polylines (a 100 x 50 box), the target on top; a
    game of a fixed number of hands has no target line (its target only sets the minimums).
    None for a game without hands (app_cache keeps no None: it is worked out each time)."""
    results = record.state.results
    if not results:
        return None
    fixed = record.table.profile.fixed_hands is not None
    target = record.table.profile.target
    totals = [(0,) * len(record.table.sides)] + [r.totals for r in results]
    low = min(0, *(t for row in totals for t in row))
    high = max(0 if fixed else target, *(t for row in totals for t in row))
    span = (high - low) or 1

    def y(value: int) -> float:
        return round(50 - 50 * (value - low) / span, 2)

    step = 100 / max(1, len(totals) - 1)
    lines = []
    for i in range(len(record.table.sides)):
        line = [row[i] for row in totals]
        lines.append(" ".join(f"{round(k * step, 2)},{y(line[k])}" for k in drawn(line)))
    return {"lines": lines, "target_y": None if fixed else y(target), "zero_y": y(0)}


# The most points a line of the chart is drawn with: a phone shows it 300 to 400 pixels wide,
# so a long game's line is drawn from each run of hands' lowest and highest totals, its
# peaks and dips kept, in a page of bounded size (a game of 1 000 hands took 65 KB).
CHART_POINTS = 200


def drawn(line: list[int]) -> list[int]:
    """The indexes of a line's points to draw: every one up to CHART_POINTS; past it, the
    first, the last, and the lowest and highest of each of CHART_POINTS / 2 runs."""
    if len(line) <= CHART_POINTS:
        return list(range(len(line)))
    size = -(-len(line) // (CHART_POINTS // 2))
    kept = {0, len(line) - 1}
    for start in range(0, len(line), size):
        run = range(start, min(start + size, len(line)))
        kept.update((min(run, key=line.__getitem__), max(run, key=line.__getitem__)))
    return sorted(kept)


@bp.get("/games/<game_id>")
def scoreboard(game_id: str) -> Page:
    record = load_game(game_id)
    remember(record.id)
    # ?hands=2, 3...: the earlier hands, a page at a time (the newest without it).
    most = display.hand_pages(MAX_HANDS_PER_GAME)
    block = display.hand_block(len(record.state.results), number_arg("hands", most))
    return render_template(
        "games/scoreboard.html",
        hands_html=hands_html(record, block),
        # A club night's table: its end leads back to the night (never on the watch page,
        # which names no night).
        night=store.night_of_table(get_db(), record.id),
        corrections_html=corrections_html(record),
        **board_context(record, block),
    )


def hands_html(
    record: store.ReplayedGame, block: display.HandBlock, *, read_only: bool = False
) -> Markup:
    """One page of a game's hands (`block`), newest first, each with its breakdown and, but
    on the watch page (`read_only`), its button to correct it; rendered once per game
    version, page and language.

    It is most of a game's page. Every change to a game bumps its version, so a stored
    fragment never goes stale: a new version is a new key.
    """
    key = (record.id, record.version, str(get_locale()), block.page, read_only)
    shown = record.state.results[block.first - 1 : block.last]
    return app_cache("hands_html").get_or_make(
        key,
        lambda: Markup(
            render_template(
                "games/_hands.html",
                game=record,
                hands=list(reversed(shown)),
                newest=block.newest,
                read_only=read_only,
            )
        ),
    )


def full_note() -> str:
    """What a game at the cap on hands says instead of offering to record one."""
    return _(
        "This game has reached %(max)s hands, the most a game can hold: start a new game "
        "to play on.",
        max=MAX_HANDS_PER_GAME,
    )


def board_context(record: store.ReplayedGame, block: display.HandBlock) -> dict[str, Any]:
    """What the scoreboard and the watch page show around their page of hands (`block`)."""
    state = record.state
    clock = table_clock(record)
    return {
        "game": record,
        "title": game_title(record),
        "sides": sides_view(record),
        # Whether the game has hands (the list itself is hands_html's), and which are shown.
        "hands": bool(state.results),
        "block": block,
        "profile": record.table.profile,
        "profile_label": PROFILE_LABELS.get(record.profile_key, record.profile_key),
        "house_rules": display.house_rule_lines(record.table.profile),
        "chart": chart(record),
        "full_note": full_note() if record.full else None,
        # A table of a timed round: the time left, as the server reads it now.
        "round_clock": clock,
        # Time has ended this game (not finished by its own end): no record bar.
        "time_over": bool(clock and clock["over"]),
    }


def corrections_html(record: store.ReplayedGame) -> Markup:
    """A club game's record of corrections (issue 33), shown under its hands ("" for none):
    read and rendered once per game version (a correction bumps it, in its own transaction)
    and language. Each entry holds a hand before and after: reading and writing out the
    record's 200 entries at most took 90 ms a request."""

    def made() -> Markup:
        found = corrections_of(get_db(), record.id)
        if not found:
            return Markup()
        shown = render_template(
            "games/_corrections.html", corrections=found, sides=sides_view(record)
        )
        return Markup(shown)

    key = (record.id, record.version, str(get_locale()))
    return app_cache("corrections_html").get_or_make(key, made)


def table_clock(record: store.ReplayedGame) -> dict[str, Any] | None:
    """The clock of the timed round this game is a table of (None: not a timed table), and
    whether time has ended the game: time called and its last hand recorded, so it takes no
    new hand; then ``winner`` is the side with the higher total (None on a tie at the top)."""
    db = get_db()
    clock = store.clock_of_game(db, record.id)
    if clock is None:
        return None
    now = datetime.now(UTC)
    hands_at = store.hands_at(db, record.id)
    over = not record.state.finished and over_by_time(clock, now, hands_at)
    winner = winner_at_time(record.state.totals) if over else None
    return {
        "reading": read_clock(clock, now),
        "ends_at": clock.ends_at,
        "over": over,
        "winner": None if winner is None else record.table.sides[winner].name,
    }


def game_exists(game_id: str) -> bool:
    try:
        store.version_of(get_db(), game_id)  # no replay: only whether it is there
    except store.NotFound:
        return False
    return True


@bp.get("/games/<game_id>/qr.svg")
def game_qr(game_id: str) -> Response:
    if not game_exists(game_id):
        abort(404)
    return svg_response(qr_svg(absolute_url(f"/games/{game_id}")))
