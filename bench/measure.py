"""Timing helpers, the result rows and the machine the benchmark ran on."""

from __future__ import annotations

import contextlib
import gc
import os
import platform
import shutil
import sqlite3
import statistics
import subprocess
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from importlib import metadata


@dataclass
class Row:
    """One line of the table: a figure, its baseline ratio and, when it has one, its goal."""

    measure: str
    value: str
    ratio: str = ""
    goal: str = ""
    met: bool | None = None


@dataclass
class Section:
    """A numbered part of the benchmark with its rows and notes (or why it is missing)."""

    number: int
    title: str
    rows: list[Row] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    missing: str = ""  # non-empty: the section could not run, and this says why
    seconds: float = 0.0
    columns: tuple[str, str] = ("Median", "Against the baseline")

    broken: list[str] = field(default_factory=list)  # rows that failed: the bench fails

    def unavailable(self, measure: str, error: Exception) -> None:
        """A row that broke (a 500, an exception): said in its place, the other rows still
        measured, and `make bench` fails at the end (a broken row never drops out unseen)."""
        self.rows.append(Row(measure, "failed"))
        self.notes.append(f"{measure}: {type(error).__name__}: {str(error)[:160]}")
        self.broken.append(measure)

    @property
    def failed(self) -> bool:
        """The section broke (an exception stopped it) or one of its rows did."""
        return bool(self.broken) or self.missing.startswith(FAILED)


FAILED = "failed: "


class BenchFailure(RuntimeError):
    """A bench row that cannot be measured: its route did not answer as it must."""


def answered(status: int, path: str, expected: int = 200) -> None:
    """Fail the row when `path` did not answer `expected` (a 500 never drops out unseen)."""
    if status != expected:
        raise BenchFailure(f"{path} answered {status}, not {expected}")


def sample(fn: Callable[[], object], number: int) -> float:
    """Seconds per call of fn over `number` calls (the collector paused, as timeit does)."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        start = time.perf_counter()
        for _ in range(number):
            fn()
        return (time.perf_counter() - start) / number
    finally:
        if enabled:
            gc.enable()


def calls_for(fn: Callable[[], object], budget: float = 0.02) -> int:
    """How many calls make one sample last about `budget` seconds (at least one)."""
    fn()  # warm caches and lazy imports before deciding
    number = 1
    while True:
        if sample(fn, number) * number >= budget or number >= 1_000_000:
            return number
        number *= 2


def compare(
    subject: Callable[[], object],
    baseline: Callable[[], object],
    repeat: int,
    budget: float = 0.02,
    warmup: int = 3,
) -> tuple[float, float]:
    """Median seconds per call of subject and baseline, sampled in alternation.

    Alternating the two keeps a slow patch of a shared machine from landing on one side only.
    """
    n_subject, n_baseline = calls_for(subject, budget), calls_for(baseline, budget)
    for _ in range(warmup):  # warm up in alternation too: the first rounds run measurably slower
        sample(baseline, n_baseline)
        sample(subject, n_subject)
    subjects, baselines = [], []
    for _ in range(repeat):
        baselines.append(sample(baseline, n_baseline))
        subjects.append(sample(subject, n_subject))
    return statistics.median(subjects), statistics.median(baselines)


def median_of(values: list[float]) -> float:
    return statistics.median(values)


def fmt_time(seconds: float) -> str:
    """A duration in the unit that keeps 3 significant figures readable."""
    if seconds < 1e-3:
        return f"{seconds * 1e6:.1f} µs"
    if seconds < 1:
        return f"{seconds * 1e3:.2f} ms"
    return f"{seconds:.2f} s"


def fmt_count(count: int) -> str:
    """1 000 rather than 1,000 or 1000."""
    return f"{count:,}".replace(",", " ")


def fmt_ratio(value: float, baseline: float, name: str) -> str:
    return f"{value / baseline:.1f}× {name}" if baseline else "n/a"


def fmt_bytes(count: int) -> str:
    if count >= 1024 * 1024:
        return f"{count / 1024 / 1024:.1f} MiB"
    return f"{fmt_count(count)} B ({count / 1024:.1f} KiB)"


def machine() -> dict[str, str]:
    """CPU model, cores, memory, OS, Python and the date, for the report's header."""
    return {
        "CPU": _cpu_model(),
        "Cores": str(os.cpu_count()),
        "Memory": _memory(),
        "OS": f"{platform.system()} {platform.release()} ({_os_name()})",
        "Python": platform.python_version(),
        "Software": _software(),
        "Date": datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC"),
    }


def _software() -> str:
    """Versions of what the figures depend on (the server stack, the PDF engine, the tools)."""
    parts = [f"SQLite {sqlite3.sqlite_version}"]
    for name in ("flask", "jinja2", "flask-babel", "weasyprint", "gunicorn"):
        with contextlib.suppress(metadata.PackageNotFoundError):
            parts.append(f"{name} {metadata.version(name)}")
    for command in (["wrk", "-v"], ["chromium", "--version"]):
        if shutil.which(command[0]):
            done = subprocess.run(command, capture_output=True, text=True, timeout=20)
            words = (done.stdout or done.stderr).split()
            parts.append(" ".join(words[:2]))
    return ", ".join(parts)


def _cpu_model() -> str:
    """The model name, with family and model numbers when the name is as short as "AMD EPYC"."""
    fields: dict[str, str] = {}
    try:
        with open("/proc/cpuinfo") as info:
            for line in info:
                key, _, value = line.partition(":")
                fields.setdefault(key.strip(), value.strip())
    except OSError:
        return platform.processor() or "unknown"
    name = fields.get("model name", "unknown")
    return f"{name} (family {fields.get('cpu family', '?')}, model {fields.get('model', '?')})"


def _memory() -> str:
    try:
        with open("/proc/meminfo") as info:
            for line in info:
                if line.startswith("MemTotal:"):
                    return f"{int(line.split()[1]) / 1024 / 1024:.1f} GiB"
    except OSError:
        pass
    return "unknown"


def _os_name() -> str:
    try:
        return platform.freedesktop_os_release().get("PRETTY_NAME", "")
    except OSError:
        return ""


def compare_each(
    subjects: list[Callable[[], object]],
    baseline: Callable[[], object],
    warmup: int = 2,
    budget: float = 0.02,
) -> tuple[float, float]:
    """Like :func:`compare` for actions that run once each (each adds a hand somewhere).

    The first `warmup` subjects are run and not counted.
    """
    n_baseline = calls_for(baseline, budget)
    subject_times, baselines = [], []
    for index, subject in enumerate(subjects):
        base = sample(baseline, n_baseline)
        took = sample(subject, 1)
        if index >= warmup:
            baselines.append(base)
            subject_times.append(took)
    return statistics.median(subject_times), statistics.median(baselines)
