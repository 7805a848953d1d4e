"""The table as text for the terminal and as BENCHMARKS.md."""

from __future__ import annotations

from pathlib import Path

from bench.measure import Row, Section

FINDINGS = Path(__file__).with_name("findings.md")
RULE = "| --- | --- | --- | --- | --- |"


def _met(row: Row) -> str:
    if row.met is None:
        return ""
    return "yes" if row.met else "**no**"


def writes_row(row: Row) -> str:
    cells = (row.measure, row.value, row.ratio, row.goal, _met(row))
    return "| " + " | ".join(cell.replace("|", "/") for cell in cells) + " |"


def section_body(section: Section) -> list[str]:
    lines: list[str] = []
    if section.missing:
        lines.append(f"Not available: {section.missing}")
        lines.append("")
    if section.rows:
        value, ratio = section.columns
        header = f"| Measure | {value} | {ratio} | Goal | Met |"
        lines += [header, RULE, *(writes_row(row) for row in section.rows), ""]
    lines += [f"- {note}" for note in section.notes]
    return lines


def section_text(section: Section) -> str:
    title = f"## {section.number}. {section.title} ({section.seconds:.0f} s)"
    return "\n".join([title, "", *section_body(section)]) + "\n"


def goals(sections: list[Section]) -> tuple[list[str], list[str]]:
    """Lines for the goals met and the goals missed, each naming its figure."""
    met, missed = [], []
    for section in sections:
        for row in section.rows:
            if row.met is None:
                continue
            line = f"{section.number}. {row.measure}: {row.value} (goal: {row.goal})"
            (met if row.met else missed).append(line)
    return met, missed


def summary_text(sections: list[Section], total: float) -> str:
    met, missed = goals(sections)
    lines = [f"== {len(met)} goals met, {len(missed)} missed, in {total:.0f} s"]
    lines += [f"   MISSED {line}" for line in missed]
    lines += [f"   not run: {s.number}. {s.title}: {s.missing}" for s in sections if s.missing]
    return "\n".join(lines)


def markdown(sections: list[Section], machine: dict[str, str], total: float, quick: bool) -> str:
    met, missed = goals(sections)
    lines = [
        "# Benchmarks",
        "",
        "Written by `make bench` (`python -m bench`); do not edit by hand: the findings at the "
        "end come from `bench/findings.md`. Every figure is the median of repeated runs, and "
        "every timing is set against a baseline measured in the same run, because absolute "
        "times on a shared machine drift.",
        "",
        "## Machine",
        "",
        "| | |",
        "| --- | --- |",
        *(f"| {key} | {value} |" for key, value in machine.items()),
        f"| Run | {total:.0f} s{' (--quick: fewer repeats)' if quick else ''} |",
        "",
        "## Goals",
        "",
        f"{len(met)} met, {len(missed)} missed.",
        "",
        *(f"- met: {line}" for line in met),
        *(f"- **missed**: {line}" for line in missed),
        *(f"- not measured: {s.number}. {s.title}: {s.missing}" for s in sections if s.missing),
        "",
    ]
    for section in sections:
        lines += [f"## {section.number}. {section.title}", "", *section_body(section), ""]
    if FINDINGS.exists():
        lines += [FINDINGS.read_text().rstrip(), ""]
    return "\n".join(lines).rstrip() + "\n"
