"""What the pages of every feature share: this browser's games and clubs, form error helpers;
and the few routes of the toolkit itself: the service worker, served from the root so it may
look after every page, and the favicon. Each feature's pages have their own blueprint."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from flask import (
    Blueprint,
    current_app,
    send_from_directory,
    session,
)
from flask_babel import gettext as _
from werkzeug.wrappers import Response
from wtforms import Field, FieldList, FormField

from scorer import store
from scorer.core.errors import RuleError
from scorer.store import clubs
from scorer.store.cache import replayed_game
from scorer.store.db import get_db
from scorer.web.folders import STATIC_FOLDER

# The toolkit's own routes (registered by scorer.web.init_app); no feature adds to it.
bp = Blueprint("web", __name__)

# The games this browser created or opened, kept in its signed session cookie.
MY_GAMES = "games"
MY_GAMES_MAX = 40
# The clubs this browser created or opened, the same way.
MY_CLUBS = "clubs"
MY_CLUBS_MAX = 20
Page = str | tuple[str, int] | Response


def my_game_ids() -> list[str]:
    ids = session.get(MY_GAMES)
    return [i for i in ids if isinstance(i, str)] if isinstance(ids, list) else []


def remember(game_id: str) -> None:
    """Put a game first in this browser's list (it survives closing the browser)."""
    ids = [game_id] + [i for i in my_game_ids() if i != game_id]
    if ids != my_game_ids():
        session[MY_GAMES] = ids[:MY_GAMES_MAX]
    if not session.permanent:
        # Setting it again would re-sign and resend the cookie on every page.
        session.permanent = True


def forget(game_id: str) -> None:
    session[MY_GAMES] = [i for i in my_game_ids() if i != game_id]


def my_games() -> list[store.ReplayedGame]:
    games = []
    db = get_db()
    ids = my_game_ids()
    for game_id in ids:
        try:
            games.append(replayed_game(db, game_id))
        except (store.NotFound, RuleError):
            continue  # deleted elsewhere, or no longer readable: leave it out
    # Latest change first; within the same second, the one this browser touched last.
    games.sort(key=lambda game: ids.index(game.id))
    games.sort(key=lambda game: game.updated_at, reverse=True)
    return games


def leaf_fields(form: Any) -> Iterator[Field]:
    """Every input field of a form, inside its lists and sub-forms."""
    for field in form:
        if isinstance(field, FieldList):
            for entry in field.entries:
                yield from leaf_fields([entry])
        elif isinstance(field, FormField):
            yield from leaf_fields(field.form)
        else:
            yield field


def label_errors(form: Any) -> None:
    """Prefix each field's own refusal with its label: "Meld points: enter a whole number"."""
    for field in leaf_fields(form):
        if field.errors:
            field.errors = [
                _("%(label)s: %(message)s", label=field.label.text, message=message)
                for message in field.errors
            ]


def field_errors_note(form: Any) -> str | None:
    """A line at the top of a refused form: the messages themselves sit at their boxes."""
    if any(field.errors for field in leaf_fields(form)):
        return _("Nothing was saved: see the message in red below.")
    return None


# --- this browser's clubs --------------------------------------------------------------------


def my_club_ids() -> list[str]:
    ids = session.get(MY_CLUBS)
    return [i for i in ids if isinstance(i, str)] if isinstance(ids, list) else []


def remember_club(club_id: str) -> None:
    """Put a club first in this browser's list, as games are remembered."""
    ids = [club_id] + [i for i in my_club_ids() if i != club_id]
    if ids != my_club_ids():
        session[MY_CLUBS] = ids[:MY_CLUBS_MAX]
    if not session.permanent:
        session.permanent = True


def my_clubs() -> list[clubs.StoredClub]:
    found = []
    for club_id in my_club_ids():
        try:
            found.append(clubs.load_club(get_db(), club_id))
        except clubs.ClubNotFound:
            continue  # gone: leave it out
    return found


@bp.get("/sw.js")
def service_worker() -> Response:
    """The service worker from the root, so it may look after every page of the app."""
    response = send_from_directory(current_app.static_folder or "static", "sw.js", max_age=0)
    response.headers["Service-Worker-Allowed"] = "/"
    response.headers["Cache-Control"] = "no-cache"  # a new version is picked up at once
    return response


@bp.get("/favicon.ico")
def favicon() -> Response:
    """Browsers ask for it on every page: the app's icon, small."""
    icon = (STATIC_FOLDER / "favicon.ico").read_bytes()
    response = Response(icon, mimetype="image/vnd.microsoft.icon")
    response.cache_control.max_age = 86400
    return response
