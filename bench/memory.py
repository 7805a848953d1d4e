"""Section 6: peak resident memory of the gunicorn workers after the load of section 3."""

from __future__ import annotations

from bench.context import Bench
from bench.measure import Row, Section, fmt_bytes
from bench.served import peak_rss


def run(section: Section, bench: Bench) -> None:
    server = bench.server
    master = peak_rss(server.process.pid)
    section.rows.append(Row("baseline: gunicorn master (no app loaded)", fmt_bytes(master)))
    for number, pid in enumerate(server.workers(), start=1):
        peak = peak_rss(pid)
        section.rows.append(
            Row(
                f"worker {number}, peak RSS (VmHWM)",
                fmt_bytes(peak),
                f"{peak / master:.1f}× the master",
            )
        )
    section.notes.append(
        "Read from /proc/<pid>/status after the load of section 3 (so after its page renders, "
        "API reads and recorded hands); the master runs gunicorn alone, without the app."
    )
