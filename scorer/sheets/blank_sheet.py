"""A blank score sheet: an empty grid, with the variant's tables, for scoring with a pen."""

from __future__ import annotations

from flask import Response, abort, render_template, request
from flask_babel import gettext

from scorer.core.errors import RuleError
from scorer.core.families import DEFAULT_FAMILY, RuleFamily, get_family
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
from scorer.web.i18n import CANASTA_LABELS, PROFILE_LABELS, SHORT_PENALTY_LABELS, error_text
from scorer.web.routes import heavy_read

# Rows of a blank grid: as many as fit on one page of each paper, upright or turned.
BLANK_ROWS = {"A4": 25, "letter": 23, "A4 landscape": 14, "letter landscape": 13}
# A family with penalties of its own and more kinds of canasta (Modern American) prints a
# longer reference box: its grid gives up this many rows to stay on one page.
LONG_REFERENCE_ROWS = 6
# Blank sheets of more sides than this keep only Min, Score and Total for each.
BLANK_FULL_SIDES = 3


def blank_family() -> RuleFamily:
    """The game a blank sheet is of (`family`, Classic when absent); 400 at it otherwise."""
    try:
        return get_family(request.args.get("family", "").strip().lower() or None)
    except RuleError as error:
        abort(refused("family", error_text(error)))


def blank_sides(family: RuleFamily) -> tuple[Seating, list[str]]:
    """Sides and names asked for by a blank sheet; 400 naming the parameter otherwise."""
    raw_names = request.args.get("names")
    names = [name.strip() for name in raw_names.split(",")] if raw_names else []
    if any(len(name) > NAME_MAX for name in names):
        abort(
            refused("names", gettext("each name may have at most %(max)s characters", max=NAME_MAX))
        )
    raw_sides = request.args.get("sides", str(max(len(names), 2))).strip()
    counts = sorted({s.sides for s in blank_seatings(family)})
    if raw_sides not in {str(count) for count in counts}:
        if counts == list(range(counts[0], counts[-1] + 1)):
            abort(refused("sides", gettext("sides must be a number from 2 to 6")))
        listed = ", ".join(map(str, counts))
        abort(refused("sides", gettext("sides must be one of: %(counts)s", counts=listed)))
    count = int(raw_sides)
    seating = blank_seating(count, request.args.get("seating", "").strip().lower(), family)
    if seating is None:
        choices = [s for s in blank_seatings(family) if s.sides == count]
        teams = any(not s.alone for s in choices)
        keys = ", ".join([TEAMS] * teams + [s.key for s in choices])
        abort(refused("seating", gettext("seating must be one of: %(keys)s", keys=keys)))
    if len(names) > count:
        abort(
            refused("names", gettext("give at most one name for each of the %(n)s sides", n=count))
        )
    return seating, names + [""] * (count - len(names))


def card_values(profile: RuleProfile) -> list[tuple[str, str]]:
    return [(label, points(value)) for label, value in display.card_values(profile)]


def bonuses(profile: RuleProfile) -> list[tuple[str, str]]:
    """The bonus list of a profile, in the order a table counts them: threes scored by colour
    (Modern American) by their count, and going out concealed only where it earns more."""
    all_threes = profile.red_threes_in_packs
    if profile.family.black_threes_bonus:
        # One line: 1, 2, 3 or 4 threes of a colour (100, 300, 500, 1 000).
        threes = [
            (
                gettext(
                    "Threes of one colour: %(counts)s",
                    counts=", ".join(str(n) for n in range(1, all_threes + 1)),
                ),
                ", ".join(points(profile.red_threes_score(n)) for n in range(1, all_threes + 1)),
            )
        ]
    else:
        threes = [
            (gettext("Red three, each"), points(profile.red_three)),
            (gettext("All %(n)s red threes", n=all_threes), points(profile.all_red_threes())),
        ]
    concealed = (
        [(gettext("Going out concealed (in all)"), points(profile.concealed_going_out))]
        if profile.concealed_going_out != profile.going_out
        else []
    )
    return [
        *((str(CANASTA_LABELS[kind]), points(bonus)) for kind, bonus in profile.canasta_bonuses),
        *threes,
        (gettext("Going out"), points(profile.going_out)),
        *concealed,
    ]


def penalties(profile: RuleProfile) -> list[tuple[str, str]]:
    """The family's own penalties at the end of a hand (none in Classic), taken off; and
    Bolivia's black threes left in hand, each."""
    family = profile.family
    taken = [
        (str(SHORT_PENALTY_LABELS.get(key, key)), points(-value)) for key, value in family.penalties
    ]
    if family.black_three_in_hand:
        taken.append(
            (gettext("Black three left in hand, each"), points(-family.black_three_in_hand))
        )
    return taken


@bp.get("/sheets/blank.pdf")
@heavy_read
def blank_sheet() -> Response:
    """An empty score grid for tables that keep score with a pen."""
    family = blank_family()
    seating, names = blank_sides(family)
    size = oriented(paper_size(), len(names))
    key = ("blank", len(names), seating.profile_key, seating.key, tuple(names))

    def make_pdf() -> bytes:  # with sheet.css parsed once, as for game sheets
        return render_document(blank_sheet_html(seating, names, size)).write_pdf()

    data = cached_sheet(key, make_pdf)
    game = "" if family is DEFAULT_FAMILY else f"-{family.key}"
    return pdf_response(data, f"canasta-blank-sheet{game}-{len(names)}-sides-{seating.key}.pdf")


def blank_sheet_html(seating: Seating, names: list[str], size: str) -> str:
    profile = seating.profile()
    taken = penalties(profile)
    count = BLANK_ROWS[size] - (LONG_REFERENCE_ROWS if taken else 0)
    return render_template(
        "pdf/blank_sheet.html",
        profile=profile,
        profile_label=PROFILE_LABELS.get(profile.key, profile.key),
        seating_label=seating_label(seating),
        names=names,
        full=len(names) <= BLANK_FULL_SIDES,
        rows=range(1, count + 1),
        ruling=ruling(count, BLANK_ROW_PITCH_PT, shaded=False),
        minimums=display.minimum_ranges(profile),
        card_values=card_values(profile),
        bonuses=bonuses(profile),
        penalties=taken,
        # Threes of both colours have their own column where the side's canastas give them
        # their own sign (Modern American's swing), as on the game's own sheet.
        threes_column=profile.family.black_threes_bonus,
        page_size=size,
        page_counter=page_counter_css(),
        points=points,
        css_apart=True,
    )
