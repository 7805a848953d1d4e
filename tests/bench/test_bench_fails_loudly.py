"""A bench row that breaks fails `make bench` (issue 30): a 500 or an exception in a row is
said in its place and the run exits non-zero, where a broken experiment once dropped out of
BENCHMARKS.md without a word; and the experiment that broke (/bench/cached) answers again."""

from __future__ import annotations

import pytest

from bench import run, wsgi
from bench.measure import BenchFailure, Row, Section, answered


def _sections(*runners):
    return lambda: [(n, f"section {n}", runner) for n, runner in enumerate(runners, 1)]


def test_an_exception_in_a_section_fails_the_bench(monkeypatch, capsys):
    def broken(section: Section, bench: object) -> None:
        raise RuntimeError("the route moved")

    def fine(section: Section, bench: object) -> None:
        section.rows.append(Row("a figure", "1 ms"))

    monkeypatch.setattr(run, "sections", _sections(fine, broken))
    assert run.main(["--no-write", "--quick"]) == 1
    out = capsys.readouterr().out
    assert "BENCH FAILED: 2. section 2" in out and "the route moved" in out


def test_a_broken_row_fails_the_bench_and_the_others_are_kept(monkeypatch, capsys):
    def one_row_breaks(section: Section, bench: object) -> None:
        section.rows.append(Row("kept", "1 ms"))
        section.unavailable("a 500", BenchFailure("/x answered 500, not 200"))

    monkeypatch.setattr(run, "sections", _sections(one_row_breaks))
    assert run.main(["--no-write", "--quick"]) == 1
    out = capsys.readouterr().out
    assert "kept" in out and "BENCH FAILED" in out


def test_a_whole_run_passes(monkeypatch):
    monkeypatch.setattr(run, "sections", _sections(lambda section, bench: None))
    assert run.main(["--no-write", "--quick"]) == 0


def test_a_route_that_does_not_answer_200_fails_its_row():
    answered(200, "/fine")
    with pytest.raises(BenchFailure, match="answered 500"):
        answered(500, "/bench/cached/x")


def test_the_cached_scoreboard_experiment_answers(tmp_path, monkeypatch):
    monkeypatch.setenv("BENCH_DATABASE", str(tmp_path / "bench.sqlite3"))
    app = wsgi.create()
    client = app.test_client()
    sides = [{"players": ["Ann", "Bob"]}, {"players": ["Cy", "Di"]}]
    game = client.post("/api/games", json={"sides": sides}).get_json()["id"]
    first = client.get(wsgi.CACHED_SCOREBOARD.format(id=game))
    again = client.get(wsgi.CACHED_SCOREBOARD.format(id=game))
    assert first.status_code == again.status_code == 200
    assert first.data == again.data
    assert client.get(wsgi.CACHED_SCOREBOARD.format(id="nope")).status_code == 404
