"""The store's one face: what the features read and write in SQLite, by name.

A feature imports `scorer.store` only (`from scorer import store`, or names from it), never
one of its modules (tests/test_layers.py fails otherwise); the modules behind it are the
store's own business:

    writes       a game's life: create, import, record, correct and remove a hand, delete
                 (each write caches its result; `on_game_written` hooks run in its transaction)
    games        a game's rows read back and replayed; cache: replayed games, per version
    clubs        a club and its roster; club_games its games (start, file, export, import);
                 club_board what its page shows; club_digest a club game's line, kept
    nights, tournaments, seasons, round_time   club nights, as tournaments, seasons, clocks
    db           the connection, migrations, transactions; corrections, game_json, ids...
"""

from __future__ import annotations

from scorer.core.game import Side
from scorer.store.cache import app_cache, replayed_game
from scorer.store.club_board import ClubBoard, ClubView, board_cache, club_tag
from scorer.store.club_board import club_board as load_club_board
from scorer.store.club_digest import GameLine
from scorer.store.club_digest import written as club_game_written
from scorer.store.club_games import (
    EXPORT_FIELDS,
    create_club_game,
    export_games,
    export_head,
    file_game,
    import_club,
    import_into_club,
)
from scorer.store.clubs import (
    Ambiguous,
    ClubNotFound,
    StoredClub,
    create_club,
    load_club,
    remove_player,
    rename_player,
)
from scorer.store.clubs import add_player as add_club_player
from scorer.store.clubs import set_house_rule as set_club_house_rule
from scorer.store.corrections import corrections_of
from scorer.store.corrections import record_json as corrections_json
from scorer.store.db import get_db, now
from scorer.store.game_json import game_to_export
from scorer.store.games import (
    NotFound,
    ReplayedGame,
    StoredGame,
    build_table,
    load_game,
    load_inputs,
    replay,
    side_to_dict,
    version_of,
)
from scorer.store.idempotency import KeyReused, game_of_key, key_recorded
from scorer.store.nights import (
    NightNotFound,
    NightSettings,
    StaleNight,
    StoredNight,
    create_night,
    load_night,
    night_counts,
    night_of_table,
    night_of_watch,
    night_stamp,
    nights_of_club,
    undo_round,
)
from scorer.store.round_time import clock_of_game, ended_by_time, hands_at
from scorer.store.seasons import (
    SeasonNotFound,
    SeasonSettings,
    StoredSeason,
    create_season,
    load_season,
    season_tag,
    seasons_of_club,
)
from scorer.store.tournaments import (
    MOVEMENTS,
    Tournament,
    TournamentSettings,
    draw_next_round,
    load_tournament,
    redraw_round,
    round_clocks,
    seat_final_table,
    set_forfeit,
)
from scorer.store.tournaments import add_player as add_night_player
from scorer.store.writes import (
    GameFull,
    GameWritten,
    StaleGame,
    check_hand_number,
    check_version,
    create_game,
    delete_after_end,
    delete_game,
    delete_game_rows,
    delete_hand,
    import_game,
    insert_game,
    new_game_id,
    on_game_written,
    play_again,
    record_hand,
    replace_hand,
    undo_last_hand,
    watch_id_of,
)

__all__ = [
    "EXPORT_FIELDS",
    "MOVEMENTS",
    "Ambiguous",
    "ClubBoard",
    "ClubNotFound",
    "ClubView",
    "GameFull",
    "GameLine",
    "GameWritten",
    "KeyReused",
    "NightNotFound",
    "NightSettings",
    "NotFound",
    "ReplayedGame",
    "SeasonNotFound",
    "SeasonSettings",
    "Side",
    "StaleGame",
    "StaleNight",
    "StoredClub",
    "StoredGame",
    "StoredNight",
    "StoredSeason",
    "Tournament",
    "TournamentSettings",
    "add_club_player",
    "add_night_player",
    "app_cache",
    "board_cache",
    "build_table",
    "check_hand_number",
    "check_version",
    "clock_of_game",
    "club_game_written",
    "club_tag",
    "corrections_of",
    "corrections_json",
    "create_club",
    "create_club_game",
    "create_game",
    "create_night",
    "create_season",
    "delete_after_end",
    "delete_game",
    "delete_game_rows",
    "delete_hand",
    "draw_next_round",
    "ended_by_time",
    "export_games",
    "export_head",
    "file_game",
    "game_of_key",
    "game_to_export",
    "get_db",
    "hands_at",
    "import_club",
    "import_into_club",
    "import_game",
    "insert_game",
    "key_recorded",
    "load_club",
    "load_club_board",
    "load_game",
    "load_inputs",
    "load_night",
    "load_season",
    "load_tournament",
    "new_game_id",
    "night_counts",
    "night_of_table",
    "night_of_watch",
    "night_stamp",
    "nights_of_club",
    "now",
    "on_game_written",
    "play_again",
    "record_hand",
    "redraw_round",
    "remove_player",
    "rename_player",
    "replace_hand",
    "replay",
    "replayed_game",
    "round_clocks",
    "season_tag",
    "seasons_of_club",
    "seat_final_table",
    "set_club_house_rule",
    "set_forfeit",
    "side_to_dict",
    "undo_last_hand",
    "undo_round",
    "version_of",
    "watch_id_of",
]
