"""Hands played after the end (docs/rules.md §2c): removed in one step, after asking."""

from __future__ import annotations

from flask import flash, request
from flask_babel import gettext as _
from flask_babel import ngettext

from scorer import store
from scorer.games.pages.blueprint import back_to, bp, confirm_page, posted_version
from scorer.store import get_db
from scorer.web.failures import load_game
from scorer.web.pages import Page
from scorer.web.routes import budget


@bp.route("/games/<game_id>/hands/after-end/delete", methods=["GET", "POST"])
@budget("record_hand")
def delete_after_end(game_id: str) -> Page:
    record = load_game(game_id)
    after_end = record.state.after_end
    if not after_end:
        flash(_("No hand was played after the end."))
        return back_to(record)
    if request.method == "GET":
        return confirm_page(record, "after_end", after_end=after_end)
    try:
        store.delete_after_end(
            get_db(), record.id, version=posted_version(), base=record, screen="after_end"
        )
    except store.StaleGame:
        flash(_("The game changed on another phone meanwhile: nothing was removed."))
    else:
        flash(
            ngettext(
                "The hand played after the end was removed.",
                "The %(num)s hands played after the end were removed.",
                len(after_end),
            )
        )
    return back_to(record)
