"""The SQLite store: one transaction per action, versions, idempotency keys, import."""

from __future__ import annotations

import base64
import multiprocessing
import sqlite3
from collections.abc import Iterator
from pathlib import Path

import pytest
import sqlite_utils

from scorer import store
from scorer.core.errors import GameFinished, RuleError
from scorer.core.game import Side
from scorer.core.hands import CardCounts, Hand, SideHand
from scorer.store import club_games, clubs, writes
from scorer.store import db as dbmod
from scorer.web.api_contract import parse_game

SIDES = [Side("North", ("Ann", "Bob")), Side("South", ("Cy", "Di"))]
HAND_ONE = Hand(sides=(SideHand(meld_points=120), SideHand(meld_points=90)), went_out=None)


@pytest.fixture
def db(tmp_path: Path) -> Iterator[sqlite_utils.Database]:
    path = tmp_path / "store.sqlite3"
    dbmod.prepare(path)
    database = dbmod.connect(path)
    yield database
    database.close()


def rows(db: sqlite_utils.Database) -> list[str]:
    return list(db.conn.iterdump())


def new(db: sqlite_utils.Database, target: int | None = None) -> str:
    return store.create_game(db, name="Test", profile_key=None, target=target, sides=SIDES)


def plain(a_meld: int, b_meld: int, a_left: int = 0) -> Hand:
    """Stock exhausted; each side's score is its meld points minus what it holds."""
    return Hand((SideHand(meld_points=a_meld, hand_points=a_left), SideHand(meld_points=b_meld)))


# A wins a game to 1 000 at once: 300 + 500 + 200 + 100 = 1 100.
WINNING = Hand(
    (SideHand(meld_points=300, natural_canastas=1, red_threes=2), SideHand(meld_points=50)),
    went_out=0,
)


def test_database_runs_in_wal_with_foreign_keys(db):
    assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert db.execute("PRAGMA foreign_keys").fetchone()[0] == 1


def test_migrations_apply_once_and_keep_data(tmp_path, db):
    game_id = new(db)
    dbmod.prepare(tmp_path / "store.sqlite3")  # a second start applies nothing new
    assert store.load_game(db, game_id).name == "Test"


def test_create_and_load(db):
    game_id = new(db)
    record = store.load_game(db, game_id)
    assert record.id == game_id
    assert record.version == 1
    assert record.table.sides == tuple(SIDES)
    assert record.state.totals == (0, 0)
    assert record.table.profile.target == 5000


def test_game_ids_carry_128_random_bits(db):
    ids = [new(db) for _ in range(64)]
    assert len(set(ids)) == 64
    raw = [base64.urlsafe_b64decode(i + "==") for i in ids]
    assert all(len(r) == 16 for r in raw)
    # Every one of the 128 bit positions takes both values across 64 ids: no fixed part.
    as_ints = [int.from_bytes(r, "big") for r in raw]
    for bit in range(128):
        assert len({(n >> bit) & 1 for n in as_ints}) == 2, bit


def test_unknown_game_is_not_found(db):
    with pytest.raises(store.NotFound):
        store.load_game(db, "nope")
    with pytest.raises(store.NotFound):
        store.record_hand(db, "nope", plain(50, 50))
    with pytest.raises(store.NotFound):
        store.delete_game(db, "nope")


def test_each_write_bumps_the_version(db):
    game_id = new(db)
    assert store.record_hand(db, game_id, plain(50, 60)).version == 2
    assert store.record_hand(db, game_id, plain(70, 80)).version == 3
    assert store.replace_hand(db, game_id, 1, plain(100, 60)).version == 4
    assert store.delete_hand(db, game_id, 2).version == 5
    assert store.load_game(db, game_id).state.totals == (100, 60)


def test_a_stale_version_is_refused_and_nothing_is_stored(db):
    game_id = new(db)
    store.record_hand(db, game_id, plain(50, 60), version=1)
    before = rows(db)
    with pytest.raises(store.StaleGame):
        store.record_hand(db, game_id, plain(70, 80), version=1)
    with pytest.raises(store.StaleGame):
        store.replace_hand(db, game_id, 1, plain(70, 80), version=1)
    with pytest.raises(store.StaleGame):
        store.delete_hand(db, game_id, 1, version=1)
    with pytest.raises(store.StaleGame):
        store.undo_last_hand(db, game_id, version=1)
    assert rows(db) == before
    assert store.record_hand(db, game_id, plain(70, 80), version=2).version == 3


def test_same_key_same_hand_records_once(db):
    game_id = new(db)
    first = store.record_hand(db, game_id, plain(50, 60), idempotency_key="tap-1")
    again = store.record_hand(db, game_id, plain(50, 60), idempotency_key="tap-1")
    assert len(again.state.results) == 1
    assert again.state.totals == first.state.totals == (50, 60)
    assert again.version == first.version


def test_same_key_other_hand_is_refused(db):
    game_id = new(db)
    store.record_hand(db, game_id, plain(50, 60), idempotency_key="tap-1")
    before = rows(db)
    with pytest.raises(store.KeyReused) as caught:
        store.record_hand(db, game_id, plain(55, 60), idempotency_key="tap-1")
    assert caught.value.field == "Idempotency-Key"
    assert rows(db) == before


def test_a_retry_with_an_old_version_still_gets_the_first_result(db):
    game_id = new(db)
    store.record_hand(db, game_id, plain(50, 60), version=1, idempotency_key="k")
    again = store.record_hand(db, game_id, plain(50, 60), version=1, idempotency_key="k")
    assert len(again.state.results) == 1


def test_keys_belong_to_their_game(db):
    one, two = new(db), new(db)
    store.record_hand(db, one, plain(50, 60), idempotency_key="k")
    store.record_hand(db, two, plain(50, 60), idempotency_key="k")
    assert len(store.load_game(db, two).state.results) == 1


def test_a_refused_hand_does_not_use_up_its_key(db):
    game_id = new(db)
    with pytest.raises(RuleError):
        store.record_hand(db, game_id, plain(-5, 60), idempotency_key="k")
    saved = store.record_hand(db, game_id, plain(55, 60), idempotency_key="k")
    assert saved.state.totals == (55, 60)
    assert store.key_recorded(db, game_id, "k", plain(55, 60))
    assert not store.key_recorded(db, game_id, "k", plain(65, 60))
    assert not store.key_recorded(db, game_id, "other", plain(55, 60))


def test_the_winning_hand_retried_is_answered_not_refused(db):
    game_id = new(db, target=1000)
    store.record_hand(db, game_id, WINNING, idempotency_key="win")
    again = store.record_hand(db, game_id, WINNING, idempotency_key="win")
    assert again.state.winner == 0 and len(again.state.results) == 1
    with pytest.raises(GameFinished):
        store.record_hand(db, game_id, plain(50, 50))


def test_card_counts_are_stored_as_counts(db):
    game_id = new(db)
    hand = Hand(
        (
            SideHand(meld_cards=CardCounts(jokers=1, ten=3)),  # 50 + 30
            SideHand(meld_points=50, hand_cards=CardCounts(five=2)),  # 50 - 10
        )
    )
    record = store.record_hand(db, game_id, hand)
    assert store.load_game(db, game_id).state.results[0].hand == hand
    assert record.state.totals == (80, 40)


def test_delete_renumbers_later_hands(db):
    game_id = new(db)
    for meld in (50, 60, 70, 80):
        store.record_hand(db, game_id, plain(meld, 55))
    store.delete_hand(db, game_id, 2)
    numbers = [r["number"] for r in db.query("select number from hands order by number")]
    assert numbers == [1, 2, 3]
    record = store.load_game(db, game_id)
    assert [r.hand.sides[0].meld_points for r in record.state.results] == [50, 70, 80]
    assert record.state.totals == (200, 165)


def test_undo_last_hand(db):
    game_id = new(db)
    store.record_hand(db, game_id, plain(50, 60))
    store.record_hand(db, game_id, plain(70, 80))
    assert store.undo_last_hand(db, game_id).state.totals == (50, 60)
    store.undo_last_hand(db, game_id)
    with pytest.raises(store.NotFound):
        store.undo_last_hand(db, game_id)


def test_hand_numbers_out_of_range_are_not_found(db):
    game_id = new(db)
    store.record_hand(db, game_id, plain(50, 60))
    for number in (0, 2, -1):
        with pytest.raises(store.NotFound):
            store.replace_hand(db, game_id, number, plain(50, 60))
        with pytest.raises(store.NotFound):
            store.delete_hand(db, game_id, number)


def test_delete_game_removes_every_row(db):
    game_id = new(db)
    keep = new(db)
    store.record_hand(db, game_id, plain(50, 60), idempotency_key="k")
    store.delete_game(db, game_id)
    for table in ("games", "sides", "hands", "idempotency_keys"):
        column = "id" if table == "games" else "game_id"
        count = db.execute(f"select count(*) from {table} where {column} = ?", [game_id])
        assert count.fetchone()[0] == 0, table
    assert store.load_game(db, keep).id == keep


def test_a_failure_inside_a_write_leaves_nothing_half_stored(db, monkeypatch):
    game_id = new(db)
    store.record_hand(db, game_id, plain(50, 60), idempotency_key="a")
    before = rows(db)

    def broken_stamp(*_args, **_kwargs):
        raise sqlite3.OperationalError("disk I/O error")

    # The stamp is taken inside the write lock, after the hand's rows are written.
    monkeypatch.setattr(writes, "now", broken_stamp)
    with pytest.raises(sqlite3.OperationalError):
        store.record_hand(db, game_id, plain(70, 80), idempotency_key="b")
    with pytest.raises(sqlite3.OperationalError):
        store.delete_hand(db, game_id, 1)
    assert rows(db) == before
    assert not db.conn.in_transaction


def test_a_failure_creating_a_game_stores_no_part_of_it(db, monkeypatch):
    before = rows(db)
    real_insert = writes.insert_game

    def insert_then_fail(*args, **kwargs):
        real_insert(*args, **kwargs)
        raise sqlite3.OperationalError("disk full")

    monkeypatch.setattr(writes, "insert_game", insert_then_fail)
    with pytest.raises(sqlite3.OperationalError):
        new(db)
    assert rows(db) == before


def test_import_game_stores_all_hands_at_once(db):
    hands = [plain(50, 60), plain(70, 80, a_left=10)]
    game_id = store.import_game(
        db,
        name="Copied",
        profile_key="classic",
        target=5000,
        sides=SIDES,
        first_dealer="Cy",
        hands=hands,
        created_at="2026-01-01T20:00:00+00:00",
    )
    record = store.load_game(db, game_id)
    assert [r.hand for r in record.state.results] == hands
    assert record.state.totals == (110, 140)
    assert record.created_at == "2026-01-01T20:00:00+00:00"
    assert record.table.seating[record.table.first_dealer] == "Cy"


def test_import_refuses_a_bad_hand_naming_it_and_stores_nothing(db):
    before = rows(db)
    with pytest.raises(RuleError) as caught:
        store.import_game(
            db,
            name="",
            profile_key=None,
            target=None,
            sides=SIDES,
            hands=[plain(50, 60), plain(52, 60)],
        )
    assert caught.value.field == "hands[1].sides[0].meld_points"
    # Every rule of §2 holds on import, even one added after the game was exported.
    with pytest.raises(RuleError) as caught:
        store.import_game(
            db, name="", profile_key=None, target=None, sides=SIDES, hands=[plain(10, 60)]
        )
    assert caught.value.field == "hands[0].sides[0].meld_points"
    assert rows(db) == before


def test_import_keeps_hands_played_after_the_end(db):
    game_id = store.import_game(
        db, name="", profile_key=None, target=1000, sides=SIDES, hands=[WINNING, WINNING]
    )
    state = store.load_game(db, game_id).state
    assert (state.winner, state.ended_at, state.after_end) == (0, 1, (2,))
    assert state.totals == (1100, 50)


def test_a_game_the_rules_no_longer_accept_does_not_break_the_others(db):
    good, broken = new(db), new(db)
    store.record_hand(db, broken, plain(50, 60))
    # As if a stricter rules fix came after this hand was stored.
    db.execute(
        "update hands set sides = ? where game_id = ?", ['[{"meld_points": -5}, {}]', broken]
    )
    with pytest.raises(RuleError):
        store.load_game(db, broken)
    assert store.load_game(db, good).id == good


def test_the_club_games_version_migration_keeps_every_row_and_counts_from_then(tmp_path):
    """A database made before m011 (a club with a played game): the migration adds the
    counter and its triggers, drops nothing, and the next hand moves the counter."""
    path = tmp_path / "old.sqlite3"
    old = dbmod.connect(path)
    dbmod.migrations.apply(old, stop_before="m011_club_games_version")
    # Today's code writes each game's family (m014's column): given here, as m014 would.
    dbmod.m014_families(old)
    club_id = clubs.create_club(old, name="Sunday", players=["Ann", "Bob", "Cy", "Di"])
    sides = [{"players": ["Ann", "Bob"]}, {"players": ["Cy", "Di"]}]
    game_id = club_games.create_club_game(old, club_id, parse_game({"sides": sides}))
    store.record_hand(old, game_id, HAND_ONE)
    before = {table: old[table].count for table in ("clubs", "club_games", "games", "hands")}
    old.close()
    dbmod.prepare(path)
    db = dbmod.connect(path)
    assert {table: db[table].count for table in before} == before
    assert db.execute("select games_version from clubs").fetchone() == (0,)
    store.record_hand(db, game_id, HAND_ONE)
    assert db.execute("select games_version from clubs").fetchone() == (1,)
    db.close()


def _prepare_at_once(path: str, barrier) -> None:
    barrier.wait()
    dbmod.prepare(path)


def test_workers_switching_a_fresh_file_to_wal_at_the_same_instant_all_come_up(tmp_path):
    """gunicorn's workers all run prepare() as they boot. Switching a new file to WAL needs
    it alone, and SQLite refuses a second switcher at once rather than through its busy
    timeout: one worker died with "database is locked" and took its shard down (CI)."""
    context = multiprocessing.get_context("fork")  # no import to wait for: a true race
    for attempt in range(40):
        path = str(tmp_path / f"fresh-{attempt}.sqlite3")
        barrier = context.Barrier(6)
        workers = [context.Process(target=_prepare_at_once, args=(path, barrier)) for _ in range(6)]
        for worker in workers:
            worker.start()
        for worker in workers:
            worker.join(60)
        assert [worker.exitcode for worker in workers] == [0] * 6, f"attempt {attempt}"
