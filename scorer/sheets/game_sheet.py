"""A game's score sheet: hand by hand, page by page, ready to print."""

from __future__ import annotations

import gc
from datetime import date
from typing import Any

from flask import Response, current_app, render_template
from flask_babel import gettext

from scorer import store
from scorer.core.game import HandResult, Side
from scorer.core.rules import RuleProfile
from scorer.sheets import paging
from scorer.sheets.cache import cached_sheet, release_memory
from scorer.sheets.html import SheetRow, SideCells, grid_columns, hand_number_width, ruling
from scorer.sheets.paging import Overflow, SheetPage
from scorer.sheets.render import (
    bp,
    css_string,
    oriented,
    page_counter_css,
    paper_size,
    pdf_response,
    render_document,
    render_pdf,
    slug,
)
from scorer.store.corrections import corrections_of
from scorer.store.db import get_db
from scorer.web import display
from scorer.web.display import points, result_line, side_label
from scorer.web.failures import load_game
from scorer.web.i18n import PROFILE_LABELS, date_text
from scorer.web.routes import heavy_read

# Sheets of this many hands or more are planned and rendered page by page, their rows laid
# out as columns (scorer/sheets/html.py); a game without hands is one small document.
PAGED_FROM_HANDS = 1


def sheet_row(result: HandResult) -> SheetRow:
    """A hand's row. The parts only some families have go in the nearest column, so a row
    still adds up to its score: black threes with the red ones (the "3s" column), the
    family's penalties with the cards left in hand, a special hand's value as its cards."""
    went_out = result.hand.went_out
    cells = tuple(
        SideCells(
            minimum=result.minimums[i],
            cards=score.cards + score.special,
            canastas=score.canastas,
            red_threes=score.red_threes + score.black_threes,
            going_out=score.going_out if went_out == i else None,
            concealed=went_out == i and result.hand.concealed,
            hand=score.hand + score.penalties,
            score=score.total,
            total=result.totals[i],
            adjustment=score.adjustment,
            adjustment_note=result.hand.sides[i].adjustment_note,
        )
        for i, score in enumerate(result.scores)
    )
    return SheetRow(
        result.number,
        result.dealer,
        went_out is None,
        cells,
        irregular=bool(result.irregular),
        after_end=result.after_end,
    )


def side_groups(count: int) -> list[list[int]]:
    """Side indices per table: at most 3 sides fit across (landscape) paper, so 4 to 6 split."""
    tables = -(-count // 3)
    size = -(-count // tables)
    return [list(range(start, min(start + size, count))) for start in range(0, count, size)]


def profile_label(profile: RuleProfile, sides: tuple[Side, ...]) -> str:
    """The variant's name, saying so when a team variant is played every player alone."""
    label = str(PROFILE_LABELS.get(profile.key, profile.key))
    teams = any(size > 1 for layout in profile.layouts for size in layout.team_sizes)
    if teams and all(len(side.players) == 1 for side in sides):
        return gettext("%(variant)s, every player for themselves", variant=label)
    return label


def house_rules(profile: RuleProfile) -> list[str]:
    """The rules this game changed, as "label value" phrases."""
    lines = display.house_rule_lines(profile, minimums="ranges", separator="; ")
    return [f"{label} {value}" for label, value in lines]


def game_date(record: store.ReplayedGame) -> date:
    return date.fromisoformat(record.created_at[:10])


@bp.get("/games/<game_id>/sheet.pdf")
@heavy_read
def game_sheet(game_id: str) -> Response:
    """The game's score sheet, hand by hand, ready to print."""
    size = paper_size()
    record = load_game(game_id)
    played = game_date(record)
    data = cached_sheet(("game", game_id, record.version), lambda: game_sheet_pdf(record, size))
    return pdf_response(data, f"canasta-{slug(record.name)}-{played.isoformat()}.pdf")


def game_sheet_pdf(record: store.ReplayedGame, size: str) -> bytes:
    """The sheet page by page (bounded memory); as one document when it has no hand."""
    context = sheet_context(record, size)
    count, groups = len(context["rows"]), len(context["groups"])
    if count >= PAGED_FROM_HANDS:
        try:
            return paged_sheet_pdf(context, count, groups)
        except Overflow as error:  # a page did not come out as planned: the slow way
            current_app.logger.warning("sheet of %s paged wrongly: %s", record.id, error)
            release_memory()
    whole = paging.whole_sheet(count, groups)
    return render_pdf(render_template("pdf/game_sheet.html", pages=[whole], **context))


def paged_sheet_pdf(context: dict[str, Any], count: int, groups: int) -> bytes:
    """Measure a sample page, plan whole rows per page, render the pages a few at a time.

    A short sheet is first tried on one page, without measuring (`paging.one_page`).
    """

    def document(pages: list[SheetPage], total: int | None) -> Any:
        values: dict[str, Any] = {**context, "pages": pages}
        if total is not None:  # "page N of M" as text: a document holds some of the pages
            values["page_labels"] = [
                css_string(gettext("page %(page)s of %(pages)s", page=p.number, pages=total))
                for p in pages
            ]
            values["page_counter"] = "string(sheet-page)"
        return render_document(render_template("pdf/game_sheet.html", css_apart=True, **values))

    turned = "landscape" in context["page_size"]
    single = paging.one_page(count, groups, "landscape" if turned else "portrait")
    if single is not None:
        first_try = document([single], 1)
        if len(first_try.pages) == 1:
            return first_try.write_pdf()
        del first_try  # longer than a page after all: measured and planned below
    sample = document([paging.sample_page(count, groups)], None)
    fit = paging.measure(sample)
    del sample
    pages = paging.plan_pages(count, fit)

    def render_some(some: list[SheetPage]) -> Any:
        gc.collect()  # the previous pages' layout is cyclic garbage: free it first
        return document(some, len(pages))

    return paging.render_pages(pages, render_some)


def sheet_context(record: store.ReplayedGame, size: str) -> dict[str, Any]:
    """What every page of a game's sheet is drawn from."""
    state = record.state
    profile = state.table.profile
    played = game_date(record)
    title = record.name or gettext("Canasta game")
    played_text = date_text(played, "long")
    groups = side_groups(len(state.table.sides))
    rows = [sheet_row(result) for result in state.results]
    return dict(
        record=record,
        state=state,
        profile=profile,
        profile_label=profile_label(profile, state.table.sides),
        house_rules=house_rules(profile),
        sides=[side_label(side, i) for i, side in enumerate(state.table.sides)],
        rows=rows,
        hand_width=hand_number_width,
        grid_columns=grid_columns,
        ruling=ruling,
        groups=groups,
        result=result_line(state),
        played=played_text,
        footer_title=css_string(title),
        footer_date=css_string(played_text),
        page_size=oriented(size, max(map(len, groups))),
        page_counter=page_counter_css(),
        points=points,
        adjustments=adjustment_lines(
            rows, [side_label(s, i) for i, s in enumerate(state.table.sides)]
        ),
        # Every correction and removal of a club game's hands (a tournament sees who changed
        # what); a correction bumps the game's version, so the cached sheet follows it.
        corrections=corrections_of(get_db(), record.id),
    )


def adjustment_lines(rows: list[SheetRow], sides: list[str]) -> list[str]:
    """Each penalty or correction of the game, for the sheet's legend: where, how much, why."""
    lines = []
    for row in rows:
        for name, cell in zip(sides, row.sides, strict=True):
            if not cell.adjustment:
                continue
            where = gettext(
                "hand %(number)s, %(side)s %(points)s",
                number=row.number,
                side=name,
                points=display.signed(cell.adjustment),
            )
            lines.append(f"{where} ({cell.adjustment_note})" if cell.adjustment_note else where)
    return lines
