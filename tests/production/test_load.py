"""A bounded load test on loopback: several clients, several games, the production server.

4 clients x 25 hands on 3 games (two clients share one game, as two phones at one table
would), through gunicorn as `make run` serves. Some requests are sent twice (a retry
after a lost answer), some carry If-Match and are re-read and resent when another client
saved first. Afterwards every acknowledged hand is stored exactly once and every total and
running total equals an independent recomputation from the rule book.
"""

from __future__ import annotations

import random
import threading

from serving import (
    call,
    expected_score,
    free_port,
    gunicorn_command,
    long_games,
    random_hand,
    running,
    server_env,
)

CLIENTS = 4
HANDS = 25
GAME_OF_CLIENT = [0, 0, 1, 2]  # clients 0 and 1 share game 0
ATTEMPTS = 20  # a bound on re-reads after a 412, per hand
JOIN_LIMIT = 180  # seconds; reached only if something hangs


def test_concurrent_clients_every_hand_stored_once_and_totals_right(tmp_path):
    env = server_env(tmp_path / "scorer.sqlite3", tmp_path / "instance")
    port = free_port()
    acked: list[list[dict]] = [[] for _ in range(CLIENTS)]
    failures: list[str] = []
    with running(gunicorn_command(port), env, port, tmp_path / "gunicorn.log") as server:
        games = long_games(server.base, 3)

        def client(c: int) -> None:
            rng = random.Random(100 + c)
            game_id = games[GAME_OF_CLIENT[c]]
            url = f"{server.base}/api/games/{game_id}/hands"
            sharing = GAME_OF_CLIENT.count(GAME_OF_CLIENT[c])
            slot = [i for i, g in enumerate(GAME_OF_CLIENT) if g == GAME_OF_CLIENT[c]].index(c)
            for i in range(HANDS):
                # Side B's points in hand tell which request a stored hand came from.
                body = random_hand(rng, unique_left=5 * (1 + i * sharing + slot))
                headers = {"Idempotency-Key": f"client{c}-hand{i}"}
                if i % 3 == 0:
                    status, answer = save_with_if_match(url, body, headers)
                else:
                    status, answer, _ = call("POST", url, body, headers)
                if i % 5 == 0:  # the answer was "lost": send the very same request again
                    status, answer, _ = call("POST", url, body, headers)
                if status != 201:
                    failures.append(f"client {c} hand {i}: {status} {answer}")
                    return
                acked[c].append(body)

        threads = [threading.Thread(target=client, args=(c,)) for c in range(CLIENTS)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(timeout=JOIN_LIMIT)
        assert not any(thread.is_alive() for thread in threads)
        assert failures == []
        assert [len(a) for a in acked] == [HANDS] * CLIENTS

        for g, game_id in enumerate(games):
            status, game, _ = call("GET", f"{server.base}/api/games/{game_id}")
            assert status == 200
            sent = [body for c in range(CLIENTS) if GAME_OF_CLIENT[c] == g for body in acked[c]]
            stored_left = [h["sides"][1]["hand_points"] for h in game["hands"]]
            # Every acknowledged hand once, nothing else.
            assert sorted(stored_left) == sorted(b["sides"][1]["hand_points"] for b in sent)
            assert len(set(stored_left)) == len(stored_left)
            by_left = {b["sides"][1]["hand_points"]: b for b in sent}
            running_totals = [0, 0]
            for number, stored in enumerate(game["hands"], start=1):
                body = by_left[stored["sides"][1]["hand_points"]]
                assert stored["number"] == number
                for index in (0, 1):
                    running_totals[index] += expected_score(body, index)
                    assert stored["sides"][index]["score"]["total"] == expected_score(body, index)
                    assert stored["sides"][index]["running_total"] == running_totals[index]
            assert [s["total"] for s in game["sides"]] == running_totals
            assert game["finished"] is False


def save_with_if_match(url: str, body: dict, headers: dict) -> tuple[int, object]:
    """Read the game's ETag, then save with If-Match; on 412 read again and resend."""
    game_url = url.rsplit("/hands", 1)[0]
    for _ in range(ATTEMPTS):
        _status, _game, got = call("GET", game_url)
        status, answer, _ = call("POST", url, body, {**headers, "If-Match": got["ETag"]})
        if status != 412:
            return status, answer
    return status, answer
