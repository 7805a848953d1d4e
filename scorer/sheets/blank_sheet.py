"""A blank score sheet: an empty grid, with the variant's tables, for scoring with a pen."""

from __future__ import annotations

from flask import Response, abort, render_template, request
from flask_babel import gettext

from scorer.core.rules import RuleProfile
from scorer.core.seatings import TEAMS, Seating, blank_seating, blank_seatings
from scorer.sheets.cache import cached_sheet
from scorer.sheets.html import BLANK_ROW_PITCH_PT, ruling
from scorer.sheets.render import (
    NAME_MAX,
    bp,
    oriented,
    page_counter_css,
    paper_size,
    pdf_response,
    refused,
    render_document,
)
from scorer.web import display
from scorer.web.display import points, seating_label
from scorer.web.i18n import CANASTA_LABELS, PROFILE_LABELS
from scorer.web.routes import heavy_read

# Rows of a blank grid: as many as fit on one page of each paper, upright or turned.
BLANK_ROWS = {"A4": 25, "letter": 23, "A4 landscape": 14, "letter landscape": 13}
# Blank sheets of more sides than this keep only Min, Score and Total for each.
BLANK_FULL_SIDES = 3


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
        *((str(CANASTA_LABELS[kind]), points(bonus)) for kind, bonus in profile.canasta_bonuses),
        (gettext("Red three, each"), points(profile.red_three)),
        (gettext("All %(n)s red threes", n=all_threes), points(profile.all_red_threes())),
        (gettext("Going out"), points(profile.going_out)),
        (gettext("Going out concealed (in all)"), points(profile.concealed_going_out)),
    ]


@bp.get("/sheets/blank.pdf")
@heavy_read
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
