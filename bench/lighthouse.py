"""Section 7: Lighthouse (mobile, simulated throttling) on the home page, scoreboard, hand form.

Runs bench/lighthouse.mjs (Lighthouse 12.2.3 from bench/node_modules, the last release that
runs on Debian's Node 20) against Debian's Chromium, on the gunicorn server of section 3.
"""

from __future__ import annotations

import json
import os
import shutil
import statistics
import subprocess
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from bench.context import Bench
from bench.measure import Row, Section
from bench.served import SCOREBOARD_LENGTH
from bench.site import HAND_FORM, HOME, SCOREBOARD
from bench.wsgi import BARE_PATH

HERE = Path(__file__).resolve().parent
SCRIPT = HERE / "lighthouse.mjs"
MODULES = HERE / "node_modules" / "lighthouse"
CHROME = os.environ.get("CHROME_PATH", "/usr/bin/chromium")
CATEGORIES = ("performance", "accessibility", "best-practices", "seo")
SHORT = {"performance": "perf", "accessibility": "a11y", "best-practices": "best", "seo": "SEO"}
METRICS = ("first-contentful-paint", "largest-contentful-paint", "total-blocking-time")
# A run takes about 10 s: fewer runs when the benchmark is already late (5-minute budget).
LATE = 150.0


def why_not() -> str:
    """Empty when Lighthouse can run here; otherwise what is missing."""
    if not shutil.which("node"):
        return "node is not installed (apt-get install nodejs)"
    if not MODULES.exists():
        return "bench/node_modules is missing: run `npm ci --prefix bench` (make bench does)"
    if not Path(CHROME).exists():
        return f"no Chromium at {CHROME} (make chromium installs Debian's)"
    return ""


def run(section: Section, bench: Bench) -> None:
    section.columns = (
        "Scores (perf · a11y · best practices · SEO)",
        "FCP · LCP · TBT (against the bare page)",
    )
    missing = why_not()
    if missing:
        section.missing = missing
        return
    server = bench.server
    pages = {"baseline: bare route (a 2-byte page)": BARE_PATH, "home": HOME}
    for name, address in (
        (f"scoreboard, {SCOREBOARD_LENGTH}-hand game", SCOREBOARD),
        ("hand form", HAND_FORM),
    ):
        path = address.format(id=server.game)
        if server.status(path) == 200:
            pages[name] = path
        else:
            section.rows.append(Row(name, "not available yet"))
    runs = 1 if bench.quick else 3 if bench.elapsed() < LATE else 2
    results = lighthouse(runs, [server.base + path for path in pages.values()])
    broken = [r for r in results if r["runtimeError"]]
    results = [r for r in results if not r["runtimeError"]]
    for result in broken:
        section.notes.append(f"A run of {result['url']} failed twice: {result['runtimeError']}")
    by_url: dict[str, list[dict[str, Any]]] = {}
    for result in results:
        by_url.setdefault(result["url"], []).append(result)
    bare = _medians(by_url.get(server.base + BARE_PATH, []))
    for name, path in pages.items():
        found = by_url.get(server.base + path, [])
        if not found:
            section.rows.append(Row(name, "no run succeeded"))
            continue
        _report(section, name, found, bare, is_baseline=path == BARE_PATH)
    hosts = {urlsplit(url).netloc for r in results for url in r["requests"]}
    foreign = sorted(hosts - {f"127.0.0.1:{server.port}"})
    section.rows.append(
        Row(
            "requests to another host (Lighthouse's network log)",
            str(len(foreign)) + (f" ({', '.join(foreign)})" if foreign else ""),
            "",
            "none",
            not foreign,
        )
    )
    if not results:
        raise RuntimeError("no Lighthouse run succeeded")
    first = results[0]
    section.notes.append(
        f"Lighthouse {first['version']}, {first['formFactor']} form factor, "
        f"{first['throttling']} throttling (the defaults), {runs} run(s) per page in one "
        "headless Chromium; medians. FCP and LCP are Lighthouse's simulated slow-4G, "
        "4×-CPU-slowdown estimates, so the bare page sets their floor."
    )


def lighthouse(runs: int, urls: list[str]) -> list[dict[str, Any]]:
    done = subprocess.run(
        ["node", str(SCRIPT), str(runs), *urls],
        capture_output=True,
        text=True,
        timeout=60 + 40 * runs * len(urls),
        env={**os.environ, "CHROME_PATH": CHROME},
        cwd=HERE,
    )
    if done.returncode:
        raise RuntimeError(f"lighthouse failed: {done.stderr[-1500:]}")
    return list(json.loads(done.stdout))


def _medians(results: list[dict[str, Any]]) -> dict[str, float]:
    values: dict[str, float] = {}
    if not results:
        return {key: 0.0 for key in (*CATEGORIES, *METRICS)}
    for key in CATEGORIES:
        values[key] = statistics.median(r["scores"][key] for r in results)
    for key in METRICS:
        values[key] = statistics.median(r["metrics"][key] for r in results)
    return values


def _report(
    section: Section,
    name: str,
    results: list[dict[str, Any]],
    bare: dict[str, float],
    is_baseline: bool,
) -> None:
    medians = _medians(results)
    scores = " · ".join(f"{SHORT[k]} {round(medians[k] * 100)}" for k in CATEGORIES)
    timings = []
    for key, label in zip(METRICS, ("FCP", "LCP", "TBT"), strict=True):
        text = f"{label} {medians[key]:.0f} ms"
        if not is_baseline and bare[key] > 0:
            text += f" ({medians[key] / bare[key]:.1f}×)"
        timings.append(text)
    perfect = all(medians[k] == 1 for k in CATEGORIES)
    if is_baseline:
        section.rows.append(Row(name, scores, " · ".join(timings)))
        return
    section.rows.append(Row(name, scores, " · ".join(timings), "100 in each category", perfect))
    failing: dict[str, str] = {}
    for result in results:
        for audit in result["failing"]:
            items = [item for item in audit.get("items", []) if item]
            detail = f": {' / '.join(items)}" if items else ""
            failing[f"{SHORT[audit['category']]}: `{audit['id']}`"] = f"{audit['title']}{detail}"
    if failing:
        listed = "; ".join(f"{key} ({text})" for key, text in sorted(failing.items()))
        section.notes.append(f"{name}: weighted audits that lost points in some run: {listed}.")
