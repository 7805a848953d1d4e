"""Quick measure of one score sheet's cost: time and the worker's peak memory, by length.

    .venv/bin/python -m bench.sheet_cost 60 500 1000

Times are the process's CPU time. Each length renders in a fresh process (so peak RSS is
that sheet's alone): the first request renders, the second is a reprint (from the cache).
"""

from __future__ import annotations

import json
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from bench import fixtures
from scorer import create_app


def rss_mb() -> float:
    with open("/proc/self/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return 0.0


def measure(length: int) -> dict[str, float]:
    """Render the sheet of a `length`-hand game in this process."""
    folder = Path(tempfile.mkdtemp(prefix="sheet-cost-"))
    database = folder / "scorer.sqlite3"
    app = create_app({"DATABASE": str(database), "SECRET_KEY": "bench", "TESTING": True})
    db = fixtures.open_db(database)
    game = fixtures.make_game(db, length)
    warm = fixtures.make_game(db, 1, name="Warm-up")
    client = app.test_client()
    # A warm worker: it has printed a blank sheet and another game's sheet before, so the
    # fonts, the parsed CSS, the compiled templates and the hyphenation dictionary are loaded
    # (a one-time cost of every worker, reported apart as warmup_ms). The sheet measured is
    # still a first render: nothing of it is in any cache.
    client.get("/sheets/blank.pdf")
    start = time.process_time()
    assert client.get(f"/games/{warm}/sheet.pdf").status_code == 200
    warmup = time.process_time() - start
    before = rss_mb()
    # CPU time, not wall time: on a shared machine the wall clock measures the neighbours.
    start = time.process_time()
    first = client.get(f"/games/{game}/sheet.pdf")
    took = time.process_time() - start
    assert first.status_code == 200, first.status_code
    start = time.process_time()
    again = client.get(f"/games/{game}/sheet.pdf")
    reprint = time.process_time() - start
    assert again.data == first.data
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    return {
        "hands": length,
        "cpu_seconds": round(took, 3),
        "ms_per_hand": round(1000 * took / length, 2),
        "reprint_ms": round(1000 * reprint, 2),
        "warmup_ms": round(1000 * warmup, 1),
        "rss_before_mb": round(before, 1),
        "peak_rss_mb": round(peak, 1),
        "rss_after_mb": round(rss_mb(), 1),
        "bytes": len(first.data),
    }


def measure_apart(lengths: list[int]) -> list[dict[str, float]]:
    """`measure` for each length, each in a fresh process."""
    return [json.loads(one_process(length)) for length in lengths]


def one_process(length: int) -> str:
    out = subprocess.run(
        [sys.executable, "-m", "bench.sheet_cost", "--one", str(length)],
        capture_output=True,
        text=True,
        check=True,
        cwd=Path(__file__).resolve().parent.parent,
    )
    return out.stdout.strip().splitlines()[-1]


def main(lengths: list[int]) -> None:
    for length in lengths:
        print(one_process(length), flush=True)


if __name__ == "__main__":
    if sys.argv[1:2] == ["--one"]:
        print(json.dumps(measure(int(sys.argv[2]))))
    else:
        main([int(n) for n in sys.argv[1:]] or [60, 500, 1000])
