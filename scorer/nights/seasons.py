"""A club's season (issue 33): its request, its table worked out from its nights, its API
(``POST /api/clubs/<id>/seasons``, ``GET /api/seasons/<id>``) and its CSV.

A season's table counts each player's best N nights (scorer.core.seasons); a night's result
for a player is their match points and card points that night (scorer.core.match_points), as
its tables' games stand, whatever ranking the night itself shows. A player who sat every
round out, or whose games are not over, did not play that night.

The season's ETag is read from its rows (scorer.store.season_tag) before any night is worked
out: a hand recorded on any of its nights changes it, and a client that holds the current
one gets its 304 for a few rows' reading, not the whole season's replay.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, date, datetime
from typing import Any

from flask import Blueprint, Response, jsonify

from scorer import store
from scorer.core.errors import N_, RuleError
from scorer.core.limits import check_best_of, check_club_name
from scorer.core.seasons import NightScore, SeasonStanding, champions, season_standings
from scorer.nights.tournament import night_match_standings, time_results
from scorer.nights.view import night_view
from scorer.store import NotFound, get_db
from scorer.web.api_contract import PayloadError
from scorer.web.http import creation_key, is_current, json_body, not_modified, tagged
from scorer.web.routes import budget, heavy_read

bp = Blueprint("nights_seasons", __name__)

SEASON_FIELDS = frozenset({"name", "from", "to", "best_of"})


def parse_season(data: Any) -> store.SeasonSettings:
    """A season's settings from a POST .../seasons body; refusals name the field."""
    if not isinstance(data, dict):
        raise PayloadError(None, N_("must be a JSON object"))
    unknown = sorted(set(data) - SEASON_FIELDS)
    if unknown:
        raise PayloadError(unknown[0][:100], N_("is not a field this address takes"))
    name = check_club_name(data.get("name"), "name")
    starts, ends = _day(data.get("from"), "from"), _day(data.get("to"), "to")
    if ends < starts:
        raise RuleError("to", N_("must be on or after the season's first day"))
    return store.SeasonSettings(name, starts, ends, check_best_of(data.get("best_of")))


def _day(value: Any, field: str) -> date:
    if isinstance(value, str) and len(value) == 10:
        try:
            return date.fromisoformat(value)
        except ValueError:
            pass
    raise RuleError(field, N_("must be a date written YYYY-MM-DD"))


@dataclass(frozen=True)
class SeasonNight:
    """One night of the season: its id, its date, and each player's result that night."""

    id: str
    day: str
    scores: dict[str, NightScore]


@dataclass(frozen=True)
class SeasonView:
    season: store.StoredSeason
    nights: tuple[SeasonNight, ...]
    standings: tuple[SeasonStanding, ...]
    etag: str  # read before the nights: a change made meanwhile makes it older, never newer

    @property
    def champions(self) -> tuple[str, ...]:
        return champions(self.standings)


def season_view(season_id: str, tag: str | None = None) -> SeasonView:
    """The season worked out from its nights as they stand now, with its tag (`tag`, when
    the caller read it already); SeasonNotFound for an unknown season (a 404)."""
    db = get_db()
    tag = tag or store.season_tag(db, season_id)
    season = store.load_season(db, season_id)
    now = datetime.now(UTC)
    counted = []
    for night_id in season.night_ids:
        view = night_view(db, store.load_night(db, night_id))
        tournament = store.load_tournament(db, night_id)
        ended = time_results(view, now) if tournament.timed else {}
        scores = {
            line.player: NightScore(line.match_points, line.card_points)
            for line in night_match_standings(view, tournament, ended)
            if line.games
        }
        counted.append(SeasonNight(night_id, view.night.created_at[:10], scores))
    lines = season_standings([night.scores for night in counted], season.settings.best_of)
    return SeasonView(season, tuple(counted), tuple(lines), tag)


def season_json(view: SeasonView) -> dict[str, Any]:
    ids = [night.id for night in view.nights]
    return {
        "id": view.season.id,
        "club": view.season.club_id,
        **view.season.settings.to_json(),
        "nights": [
            {"id": night.id, "date": night.day, "url": f"/api/nights/{night.id}"}
            for night in view.nights
        ],
        "standings": [
            {
                "rank": line.rank,
                "player": line.player,
                "nights_played": line.played,
                "nights_counted": [ids[k] for k in line.counted],
                "match_points": line.match_points,
                "card_points": line.card_points,
            }
            for line in view.standings
        ],
        "champion": list(view.champions),
    }


def season_csv(view: SeasonView) -> str:
    """The season's table as CSV: one row per player, a column per night (blank: not played,
    a star: not counted among the player's best)."""
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(
        ["rank", "player", "match_points", "card_points", "nights_played"]
        + [night.day for night in view.nights]
    )
    for line in view.standings:
        cells = []
        for k, night in enumerate(view.nights):
            score = night.scores.get(line.player)
            if score is None:
                cells.append("")
            else:
                mark = "" if k in line.counted else "*"
                cells.append(f"{score.match_points}{mark}")
        writer.writerow(
            [line.rank, line.player, line.match_points, line.card_points, line.played, *cells]
        )
    return out.getvalue()


def season_answer(season_id: str, body: Callable[[SeasonView], Response]) -> Response:
    """The season's answer made by `body`, tagged; a 304 from the tag alone when the client
    holds the current version (no night worked out, no game replayed)."""
    tag = store.season_tag(get_db(), season_id)
    if is_current(tag):
        return not_modified(tag)
    view = season_view(season_id, tag)
    return tagged(body(view), view.etag)


@bp.post("/api/clubs/<club_id>/seasons")
@budget("club_roster")
def create_season(club_id: str) -> Response:
    key = creation_key()
    settings = parse_season(json_body())
    try:
        season_id = store.create_season(get_db(), club_id, settings, idempotency_key=key)
    except store.ClubNotFound:
        raise NotFound(club_id, N_("no club at this address")) from None
    view = season_view(season_id)
    response = tagged(jsonify(season_json(view)), view.etag)
    response.status_code = 201
    response.headers["Location"] = f"/api/seasons/{season_id}"
    return response


@bp.get("/api/seasons/<season_id>")
@heavy_read  # as the season's page: every night worked out, every game replayed
def get_season(season_id: str) -> Response:
    return season_answer(season_id, lambda view: jsonify(season_json(view)))


@bp.get("/seasons/<season_id>.csv")
@heavy_read
def season_csv_download(season_id: str) -> Response:
    return season_answer(season_id, csv_download)


def csv_download(view: SeasonView) -> Response:
    response = Response(season_csv(view), mimetype="text/csv")
    response.headers["Content-Type"] = "text/csv; charset=utf-8"
    response.headers["Content-Disposition"] = f'attachment; filename="season-{view.season.id}.csv"'
    return response
