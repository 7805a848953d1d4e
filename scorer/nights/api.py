"""The JSON API of club nights, in the style of the games API: ETag, If-Match, 304,
Idempotency-Key, and the same errors (scorer.web.failures).

A night's ETag is `night-<id>.<version>.<digest of its tables' game versions>`: a hand
recorded at a table changes the standings, so the tag changes too. Drawing or redrawing a
round requires If-Match (428 without): two organisers drawing at once draw it once, the
second is told the night changed (412).
"""

from __future__ import annotations

from flask import Blueprint, Response, jsonify, request
from flask_babel import gettext as _

from scorer.core.errors import N_
from scorer.nights.payloads import parse_name, parse_night
from scorer.nights.view import NightView, night_json, night_view
from scorer.store import clubs, nights
from scorer.store.db import get_db
from scorer.store.games import NotFound
from scorer.web.api_contract import PreconditionRequired
from scorer.web.http import creation_key, json_body

bp = Blueprint("nights_api", __name__, url_prefix="/api")


def table_name(round_number: int, table: int) -> str:
    """A table's game name, in the organiser's language (as if they had typed it)."""
    return _("Table %(table)s, round %(round)s", table=table, round=round_number)


def load_view(night_id: str) -> NightView:
    return night_view(get_db(), nights.load_night(get_db(), night_id))


def night_response(view: NightView, status: int = 200) -> Response:
    tag = view.etag
    if status == 200 and request.method == "GET" and tag in request.if_none_match:
        response = Response(status=304)
    else:
        response = jsonify(night_json(view))
        response.status_code = status
    response.set_etag(tag)
    response.headers["Cache-Control"] = "no-cache"
    return response


def expected_version(view: NightView) -> int | None:
    """The night version an If-Match header expects (0, no night's, for a foreign tag)."""
    if "If-Match" not in request.headers:
        return None
    if request.if_match.star_tag:
        return view.night.version
    prefix = f"night-{view.night.id}.{view.night.version}."
    tags = request.if_match.as_set()
    return view.night.version if any(tag.startswith(prefix) for tag in tags) else 0


def required_version(view: NightView) -> int:
    version = expected_version(view)
    if version is None:
        raise PreconditionRequired(
            "If-Match",
            N_("send If-Match with the night's ETag: without it a retry could draw twice"),
        )
    return version


@bp.post("/clubs/<club_id>/nights")
def create_night(club_id: str) -> Response:
    key = creation_key()
    players, settings = parse_night(json_body())
    try:
        night_id = nights.create_night(get_db(), club_id, players, settings, idempotency_key=key)
    except clubs.ClubNotFound:
        raise NotFound(club_id, N_("no club at this address")) from None
    response = night_response(load_view(night_id), 201)
    response.headers["Location"] = f"/api/nights/{night_id}"
    return response


@bp.get("/nights/<night_id>")
def get_night(night_id: str) -> Response:
    return night_response(load_view(night_id))


@bp.post("/nights/<night_id>/rounds")
def draw_round(night_id: str) -> Response:
    view = load_view(night_id)
    night = nights.draw_next_round(
        get_db(),
        night_id,
        version=required_version(view),
        table_name=table_name,
        ratings=view.ratings,
    )
    response = night_response(night_view(get_db(), night), 201)
    response.headers["Location"] = f"/api/nights/{night_id}"
    return response


@bp.post("/nights/<night_id>/rounds/last/redraw")
def redraw_round(night_id: str) -> Response:
    view = load_view(night_id)
    night = nights.redraw_round(
        get_db(),
        night_id,
        version=required_version(view),
        table_name=table_name,
        ratings=view.ratings,
    )
    return night_response(night_view(get_db(), night))


@bp.post("/nights/<night_id>/players")
def add_player(night_id: str) -> Response:
    view = load_view(night_id)
    name = parse_name(json_body())
    nights.add_player(get_db(), night_id, name, version=expected_version(view))
    return night_response(load_view(night_id), 201)
