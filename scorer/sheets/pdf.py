"""Printable score sheets rendered by WeasyPrint: a game's sheet and a blank one."""

from __future__ import annotations

import functools
import gc
import re
import unicodedata
from datetime import date
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit
from urllib.request import url2pathname

import weasyprint
from flask import Blueprint, Response, abort, current_app, render_template, request
from flask_babel import gettext
from weasyprint.text.fonts import FontConfiguration
from weasyprint.urls import URLFetcher

from scorer import store
from scorer.core.game import HandResult, Side
from scorer.core.rules import RuleProfile
from scorer.core.seatings import TEAMS, Seating, blank_seating, blank_seatings
from scorer.sheets import sheet_pages
from scorer.sheets.sheet_cache import cached_sheet, release_memory
from scorer.sheets.sheet_html import (
    BLANK_ROW_PITCH_PT,
    SheetHTML,
    SheetRow,
    SideCells,
    grid_columns,
    hand_number_width,
    ruling,
)
from scorer.sheets.sheet_pages import Overflow, SheetPage
from scorer.web import display
from scorer.web.display import points, result_line, seating_label, side_label
from scorer.web.failures import load_game
from scorer.web.folders import STATIC_FOLDER
from scorer.web.i18n import PROFILE_LABELS, date_text

bp = Blueprint("pdf", __name__)

# Paper sizes a sheet can be printed on (?paper=...), as CSS @page sizes.
PAPERS = {"a4": "A4", "letter": "letter"}
# Fonts come from the machine; nothing else outside the app folder is ever read.
FONT_FOLDER = Path("/usr/share/fonts")
NAME_MAX = 40
# Rows of a blank grid: as many as fit on one page of each paper, upright or turned.
BLANK_ROWS = {"A4": 25, "letter": 23, "A4 landscape": 14, "letter landscape": 13}
# Blank sheets of more sides than this keep only Min, Score and Total for each.
BLANK_FULL_SIDES = 3
# Sheets of this many hands or more are planned and rendered page by page, their rows laid
# out as columns (scorer/sheet_html.py); a game without hands is one small document.
PAGED_FROM_HANDS = 1


class LocalOnlyFetcher(URLFetcher):
    """Serves the sheet's files from the app folder and the system fonts; never the network."""

    def __init__(self, roots: tuple[Path, ...]) -> None:
        super().__init__(allowed_protocols=("file", "data"), allow_redirects=False)
        self.roots = tuple(root.resolve() for root in roots)

    def fetch(self, url: str, headers: Any = None) -> Any:
        scheme = urlsplit(url).scheme.lower()
        if scheme == "file":
            path = Path(url2pathname(urlsplit(url).path)).resolve()
            if not any(path.is_relative_to(root) for root in self.roots):
                raise ValueError(f"the sheet may not read {url}")
        elif scheme != "data":
            raise ValueError(f"the sheet loads nothing from the network: {url}")
        return super().fetch(url, headers)


def render_pdf(html: str) -> bytes:
    """The PDF of a rendered sheet template (relative URLs resolve in the app folder)."""
    fetcher = LocalOnlyFetcher((STATIC_FOLDER, FONT_FOLDER))
    base = STATIC_FOLDER.as_uri() + "/"
    return SheetHTML(string=html, base_url=base, url_fetcher=fetcher).write_pdf()


@functools.lru_cache(maxsize=2)
def parsed_sheet_css(text: str) -> tuple[weasyprint.CSS, FontConfiguration]:
    """sheet.css parsed once, with the fonts it loads: every page of a long sheet shares them."""
    fonts = FontConfiguration()
    fetcher = LocalOnlyFetcher((STATIC_FOLDER, FONT_FOLDER))
    base = STATIC_FOLDER.as_uri() + "/"
    css = weasyprint.CSS(string=text, base_url=base, url_fetcher=fetcher, font_config=fonts)
    return css, fonts


def render_document(html: str) -> Any:
    """A laid-out WeasyPrint Document of a template rendered with `css_apart` (no inline CSS)."""
    css, fonts = parsed_sheet_css(render_template("pdf/sheet.css"))
    fetcher = LocalOnlyFetcher((STATIC_FOLDER, FONT_FOLDER))
    base = STATIC_FOLDER.as_uri() + "/"
    document = SheetHTML(string=html, base_url=base, url_fetcher=fetcher)
    return document.render(stylesheets=[css], font_config=fonts)


def slug(name: str) -> str:
    """A file-name-safe form of a game's name (ASCII letters, digits and hyphens)."""
    ascii_name = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode()
    cleaned = re.sub(r"[^a-z0-9]+", "-", ascii_name.lower()).strip("-")
    return cleaned[:NAME_MAX].strip("-") or "game"


def page_counter_css() -> str:
    """CSS `content` for "page N of M" in the reader's language."""
    text = gettext("page %(page)s of %(pages)s", page="\x01", pages="\x02")
    parts = re.split(r"(\x01|\x02)", text)
    css = []
    for part in parts:
        if part == "\x01":
            css.append("counter(page)")
        elif part == "\x02":
            css.append("counter(pages)")
        elif part:
            css.append(css_string(part))
    return " ".join(css)


def css_string(text: str) -> str:
    """A quoted CSS string that cannot close its rule nor the <style> element."""
    escaped = "".join(
        ch if ch.isalnum() or ch in " .,:;!?()-" else f"\\{ord(ch):x} " for ch in text
    )
    return f'"{escaped}"'


def paper_size() -> str:
    """The @page size asked for with ?paper=, A4 by default; 400 for an unknown paper."""
    paper = request.args.get("paper", "a4").strip().lower()
    if paper not in PAPERS:
        abort(refused("paper", gettext("paper must be a4 or letter")))
    return PAPERS[paper]


def refused(field: str, message: str) -> Response:
    """A plain page saying which query parameter is wrong (HTTP 400)."""
    page = render_template("pdf/refused.html", field=field, message=message)
    return Response(page, status=400, mimetype="text/html")


def pdf_response(data: bytes, filename: str) -> Response:
    response = Response(data, mimetype="application/pdf")
    response.headers["Content-Disposition"] = f'inline; filename="{filename}"'
    return response


def sheet_row(result: HandResult) -> SheetRow:
    went_out = result.hand.went_out
    cells = tuple(
        SideCells(
            minimum=result.minimums[i],
            cards=score.cards,
            canastas=score.canastas,
            red_threes=score.red_threes,
            going_out=score.going_out if went_out == i else None,
            concealed=went_out == i and result.hand.concealed,
            hand=score.hand,
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


def oriented(size: str, sides_across: int) -> str:
    """Two sides' columns fit across portrait paper; three need it turned (landscape)."""
    return f"{size} landscape" if sides_across > 2 else size


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


def game_date(record: store.GameRecord) -> date:
    return date.fromisoformat(record.created_at[:10])


@bp.get("/games/<game_id>/sheet.pdf")
def game_sheet(game_id: str) -> Response:
    """The game's score sheet, hand by hand, ready to print."""
    size = paper_size()
    record = load_game(game_id)
    played = game_date(record)
    data = cached_sheet(("game", game_id, record.version), lambda: game_sheet_pdf(record, size))
    return pdf_response(data, f"canasta-{slug(record.name)}-{played.isoformat()}.pdf")


def game_sheet_pdf(record: store.GameRecord, size: str) -> bytes:
    """The sheet page by page (bounded memory); as one document when it has no hand."""
    context = sheet_context(record, size)
    count, groups = len(context["rows"]), len(context["groups"])
    if count >= PAGED_FROM_HANDS:
        try:
            return paged_sheet_pdf(context, count, groups)
        except Overflow as error:  # a page did not come out as planned: the slow way
            current_app.logger.warning("sheet of %s paged wrongly: %s", record.id, error)
            release_memory()
    whole = sheet_pages.whole_sheet(count, groups)
    return render_pdf(render_template("pdf/game_sheet.html", pages=[whole], **context))


def paged_sheet_pdf(context: dict[str, Any], count: int, groups: int) -> bytes:
    """Measure a sample page, plan whole rows per page, render the pages a few at a time.

    A short sheet is first tried on one page, without measuring (`sheet_pages.one_page`).
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
    single = sheet_pages.one_page(count, groups, "landscape" if turned else "portrait")
    if single is not None:
        first_try = document([single], 1)
        if len(first_try.pages) == 1:
            return first_try.write_pdf()
        del first_try  # longer than a page after all: measured and planned below
    sample = document([sheet_pages.sample_page(count, groups)], None)
    fit = sheet_pages.measure(sample)
    del sample
    pages = sheet_pages.plan_pages(count, fit)

    def render_some(some: list[SheetPage]) -> Any:
        gc.collect()  # the previous pages' layout is cyclic garbage: free it first
        return document(some, len(pages))

    return sheet_pages.render_pages(pages, render_some)


def sheet_context(record: store.GameRecord, size: str) -> dict[str, Any]:
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


def blank_sides() -> tuple[Seating, list[str]]:
    """Sides and names asked for by a blank sheet; 400 naming the parameter otherwise."""
    raw_names = request.args.get("names")
    names = [name.strip() for name in raw_names.split(",")] if raw_names else []
    if any(len(name) > NAME_MAX for name in names):
        abort(
            refused("names", gettext("each name may have at most %(max)s characters", max=NAME_MAX))
        )
    raw_sides = request.args.get("sides", str(max(len(names), 2))).strip()
    if raw_sides not in {str(s.sides) for s in blank_seatings()}:
        abort(refused("sides", gettext("sides must be a number from 2 to 6")))
    count = int(raw_sides)
    seating = blank_seating(count, request.args.get("seating", "").strip().lower())
    if seating is None:
        keys = ", ".join(
            [TEAMS] * (count <= 3) + [s.key for s in blank_seatings() if s.sides == count]
        )
        abort(refused("seating", gettext("seating must be one of: %(keys)s", keys=keys)))
    if len(names) > count:
        abort(
            refused("names", gettext("give at most one name for each of the %(n)s sides", n=count))
        )
    return seating, names + [""] * (count - len(names))


def card_values(profile: RuleProfile) -> list[tuple[str, str]]:
    return [(label, points(value)) for label, value in display.card_values(profile)]


def bonuses(profile: RuleProfile) -> list[tuple[str, str]]:
    """The bonus list of a profile, in the order a table counts them."""
    all_threes = profile.red_threes_in_packs
    return [
        (gettext("Natural canasta"), points(profile.natural_canasta)),
        (gettext("Mixed canasta"), points(profile.mixed_canasta)),
        (gettext("Red three, each"), points(profile.red_three)),
        (gettext("All %(n)s red threes", n=all_threes), points(profile.all_red_threes())),
        (gettext("Going out"), points(profile.going_out)),
        (gettext("Going out concealed (in all)"), points(profile.concealed_going_out)),
    ]


@bp.get("/sheets/blank.pdf")
def blank_sheet() -> Response:
    """An empty score grid for tables that keep score with a pen."""
    seating, names = blank_sides()
    size = oriented(paper_size(), len(names))
    key = ("blank", len(names), seating.key, tuple(names))

    def make_pdf() -> bytes:  # with sheet.css parsed once, as for game sheets
        return render_document(blank_sheet_html(seating, names, size)).write_pdf()

    data = cached_sheet(key, make_pdf)
    return pdf_response(data, f"canasta-blank-sheet-{len(names)}-sides-{seating.key}.pdf")


def blank_sheet_html(seating: Seating, names: list[str], size: str) -> str:
    profile = seating.profile()
    return render_template(
        "pdf/blank_sheet.html",
        profile=profile,
        profile_label=PROFILE_LABELS.get(profile.key, profile.key),
        seating_label=seating_label(seating),
        names=names,
        full=len(names) <= BLANK_FULL_SIDES,
        rows=range(1, BLANK_ROWS[size] + 1),
        ruling=ruling(BLANK_ROWS[size], BLANK_ROW_PITCH_PT, shaded=False),
        minimums=display.minimum_ranges(profile),
        card_values=card_values(profile),
        bonuses=bonuses(profile),
        page_size=size,
        page_counter=page_counter_css(),
        points=points,
        css_apart=True,
    )
