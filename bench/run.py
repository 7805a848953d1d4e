"""Runs the sections, prints the table and writes BENCHMARKS.md."""

from __future__ import annotations

import argparse
import time
import traceback
from collections.abc import Callable
from pathlib import Path

from bench import (
    club_limit,
    clubs,
    engine,
    http_load,
    inprocess,
    lighthouse,
    live,
    locks,
    memory,
    nights,
    push,
    report,
    sheet,
    taps,
    weight,
)
from bench.context import Bench
from bench.measure import FAILED, Section, machine

ROOT = Path(__file__).resolve().parent.parent

Runner = Callable[[Section, Bench], None]


def sections() -> list[tuple[int, str, Runner]]:
    return [
        (1, "Engine", engine.run),
        (2, "Server in process", inprocess.run),
        (3, "Server over HTTP", http_load.run),
        (4, "PDF score sheet", sheet.run),
        (5, "Weight", weight.run),
        (6, "Memory", memory.run),
        (7, "Lighthouse", lighthouse.run),
        (8, "Club page", clubs.run),
        (9, "Phones at the table", live.run),
        (10, "Write locks", locks.run),
        (11, "A club at its limit", club_limit.run),
        (12, "Club nights", nights.run),
        (13, "A hand at the table", taps.run),
        (14, "Push and slow readers", push.run),
    ]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench", description=__doc__)
    parser.add_argument("--quick", action="store_true", help="fewer repeats (a smoke run)")
    parser.add_argument("--only", help="comma-separated section numbers, e.g. 1,4")
    parser.add_argument("--no-write", action="store_true", help="print only, keep BENCHMARKS.md")
    args = parser.parse_args(argv)
    bench = Bench(args.quick)
    wanted = {int(n) for n in args.only.split(",")} if args.only else None
    started = time.perf_counter()
    done: list[Section] = []
    try:
        for number, title, runner in sections():
            if wanted and number not in wanted:
                continue
            done.append(run_section(number, title, runner, bench))
            print(report.section_text(done[-1]), flush=True)
    finally:
        bench.close()
    total = time.perf_counter() - started
    text = report.markdown(done, machine(), total, quick=args.quick)
    print(report.summary_text(done, total))
    if not args.no_write:
        (ROOT / "BENCHMARKS.md").write_text(text)
        print(f"wrote {ROOT / 'BENCHMARKS.md'}")
    broken = [f"{s.number}. {s.title}" for s in done if s.failed]
    if broken:  # loudly: a row that broke is a bench that failed, not a missing line
        print(f"BENCH FAILED: {', '.join(broken)} (see the tracebacks and notes above)")
        return 1
    return 0


def run_section(number: int, title: str, runner: Runner, bench: Bench) -> Section:
    """One section; a failure is reported in its place instead of stopping the benchmark."""
    section = Section(number, title)
    print(f"== {number}. {title} ...", flush=True)
    start = time.perf_counter()
    try:
        runner(section, bench)
    except Exception as error:  # noqa: BLE001 - the report must still be written
        section.missing = f"{FAILED}{type(error).__name__}: {error}"
        traceback.print_exc()
    section.seconds = time.perf_counter() - start
    return section
