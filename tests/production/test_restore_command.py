"""`python -m scorer.cli restore` (issue 34): a shard restored from its Litestream replica
cannot be made worse. The old database is moved aside with its -wal and -shm (a leftover
WAL beside a restored file corrupts it: shown here too), the copy is checked, the fleet's
key comes back on a fresh box, and a shard still serving is refused.

Real parts: the generated settings file and litestream.yml, Litestream's binary, SQLite,
the command run as a host runs it (a subprocess).
"""

from __future__ import annotations

import getpass
import shutil
import signal
import socket
import sqlite3
import subprocess
import sys
import time
from contextlib import closing
from pathlib import Path

import pytest
from s3store import s3_store
from serving import show_on_failure
from test_restore_drill import LITESTREAM, wait_until

from scorer import ROOT, create_app, deploy
from scorer.cli.restore import read_settings

FOUR = [{"players": ["Ann", "Bob"]}, {"players": ["Cy", "Di"]}]


@pytest.fixture
def store(tmp_path):
    with s3_store(tmp_path / "s3.log") as running:
        yield running


@pytest.fixture
def shard(tmp_path, store):
    """A shard's files as the generator lays them out under tmp_path/root, with games in
    its database and Litestream's replica of it in an S3-compatible store on loopback
    (then Litestream stopped)."""
    assert Path(LITESTREAM).exists(), "litestream is missing: run `make test`"
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    plan = deploy.Plan(shards=1, ports=(port,), root=str(tmp_path / "root"))
    settings = tmp_path / "shard-1.env"
    bucket = "".join(f"{name}={value}\n" for name, value in store.settings().items())
    settings.write_text(deploy.shard_env(plan, 1) + bucket)
    config = tmp_path / "litestream.yml"
    config.write_text(deploy.litestream_config())
    env = read_settings(settings)
    deploy.main(["--key", env["SCORER_SECRET_KEY_FILE"], "--user", getpass.getuser()])
    app = create_app({"DATABASE": env["SCORER_DATABASE"], "SHARD": 1,
                      "SECRET_KEY_FILE": env["SCORER_SECRET_KEY_FILE"]})  # fmt: skip
    client = app.test_client()
    games = [client.post("/api/games", json={"sides": FOUR}).json["id"] for _ in range(5)]
    log = tmp_path / "litestream.log"
    show_on_failure(log)
    with open(log, "wb") as out:
        backup = subprocess.Popen(
            [LITESTREAM, "replicate", "-config", str(config)],
            env={**env, "PATH": "/usr/bin:/bin"},
            stdout=out,
            stderr=subprocess.STDOUT,
        )
    try:
        wait_until(lambda: store.replicated_txid() > 0, "Litestream's first copy", log)
        time.sleep(1.5)  # a sync interval more: every game is in the replica
    finally:
        backup.send_signal(signal.SIGTERM)
        backup.wait(timeout=30)
    return settings, config, env, games


def restore(settings: Path, config: Path) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "scorer.cli", "restore", str(settings), "--config", str(config)],
        capture_output=True, text=True, timeout=120, cwd=ROOT,
        env={"PATH": f"{Path(sys.executable).parent}:/usr/bin:/bin"},
    )  # fmt: skip


def leave_a_wal(database: Path) -> None:
    """The old box's last writes after the replica's last copy: some checkpointed into the
    file, the last still in its -wal (the process died before the next checkpoint), as a
    host finds them beside a dead shard's database."""
    code = (
        "import os, sqlite3, sys; c = sqlite3.connect(sys.argv[1]); "
        "c.execute('pragma wal_autocheckpoint = 0'); "
        "c.execute('create table late (v)'); "
        "c.executemany('insert into late values (?)', [('y' * 900,)] * 300); c.commit(); "
        "c.execute('pragma wal_checkpoint(truncate)'); "
        "c.executemany('insert into late values (?)', [('z' * 900,)] * 300); "
        "c.execute('update games set name = ?', ('late',)); c.commit(); "
        "os._exit(0)"
    )
    subprocess.run([sys.executable, "-c", code, str(database)], check=True, timeout=60)
    assert Path(f"{database}-wal").stat().st_size > 0


def integrity(database: Path) -> str:
    """PRAGMA integrity_check once the file is opened as a shard opens it (in WAL mode)."""
    try:
        with closing(sqlite3.connect(database)) as conn:
            conn.execute("PRAGMA journal_mode = WAL")
            return conn.execute("PRAGMA integrity_check").fetchone()[0]
    except sqlite3.DatabaseError as error:
        return str(error)


def test_a_leftover_wal_beside_the_old_database_is_moved_aside_with_it(shard, tmp_path):
    settings, config, env, games = shard
    database = Path(env["SCORER_DATABASE"])
    leave_a_wal(database)
    # The README's old step taken literally: the restored file put in place, the old -wal
    # left beside it. The shard, opening it in WAL mode, reads that WAL into it.
    naive = tmp_path / "naive" / "scorer.sqlite3"
    naive.parent.mkdir()
    command = [LITESTREAM, "restore", "-config", str(config), "-o", str(naive), str(database)]
    subprocess.run(command, env=env, check=True, capture_output=True, timeout=60)
    shutil.copy(f"{database}-wal", f"{naive}-wal")
    assert integrity(naive) != "ok"

    done = restore(settings, config)
    assert done.returncode == 0, done.stderr
    assert "integrity_check ok" in done.stdout and "migrations current" in done.stdout
    assert integrity(database) == "ok"
    assert not Path(f"{database}-wal").exists()
    (aside,) = database.parent.glob("aside-*")
    assert {"scorer.sqlite3", "scorer.sqlite3-wal"} <= {p.name for p in aside.iterdir()}
    # Moved together, the old database is whole too, its last writes included.
    assert integrity(aside / "scorer.sqlite3") == "ok"
    with closing(sqlite3.connect(aside / "scorer.sqlite3")) as conn:
        assert conn.execute("select count(*) from late").fetchone() == (600,)
    assert database.stat().st_mode & 0o777 == 0o600
    # The restored shard serves every game of the replica.
    app = create_app({"DATABASE": str(database), "SHARD": 1,
                      "SECRET_KEY_FILE": env["SCORER_SECRET_KEY_FILE"]})  # fmt: skip
    for game_id in games:
        assert app.test_client().get(f"/api/games/{game_id}").status_code == 200


def test_a_fresh_box_gets_the_database_and_the_fleet_key_back(shard):
    settings, config, env, games = shard
    key_file = Path(env["SCORER_SECRET_KEY_FILE"])
    key = key_file.read_text()
    # The disk died: no database, no key, no folder at all (the replica is in the bucket).
    shutil.rmtree(key_file.parent)
    done = restore(settings, config)
    assert done.returncode == 0, done.stderr
    assert "secret key restored" in done.stdout
    restored_key = Path(env["SCORER_SECRET_KEY_FILE"])
    assert restored_key.read_text() == key.strip() and restored_key.stat().st_mode & 0o77 == 0
    assert integrity(Path(env["SCORER_DATABASE"])) == "ok"
    with closing(sqlite3.connect(env["SCORER_DATABASE"])) as conn:
        assert {row[0] for row in conn.execute("select id from games")} == set(games)


def test_a_shard_still_serving_is_refused_and_left_alone(shard):
    settings, config, env, _ = shard
    database = Path(env["SCORER_DATABASE"])
    before = database.read_bytes()
    with socket.socket() as listener:
        listener.bind(("127.0.0.1", int(env["PORT"])))
        listener.listen()
        done = restore(settings, config)
    assert done.returncode != 0 and "is serving" in done.stderr
    assert database.read_bytes() == before
    assert not list(database.parent.glob("aside-*"))
