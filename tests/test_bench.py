"""The benchmark library, its command and the comparison suite's plumbing (no timing asserted)."""

from __future__ import annotations

import json
import time

import click
import pytest
from click.testing import CliRunner
from external_tools import require_module
from helpers import load_benchmark, run

from cloversolve.cli.bench import register
from cloversolve.cli.groups import OneLineErrors
from cloversolve.games.dealing import deal
from cloversolve.runs import bench as bench_module
from cloversolve.runs.bench import bench, markdown_table, measure_warm_start, write_outputs


def load_suite():
    """``benchmarks/run.py`` as a module (it is a script, not part of the package)."""
    return load_benchmark("run")


@pytest.fixture(scope="module")
def report():
    return bench("fifteen", range(1, 9), jobs=2, warm_start=False)


def test_bench_reports_every_figure_with_sane_values(report) -> None:
    summary = report.summary()
    assert summary["count"] == 8
    assert summary["deals"] == "1..8"
    assert summary["solvable"] + summary["unsolvable"] + summary["undecided"] == 8
    assert summary["solvable"] > 0 and summary["unsolvable"] > 0
    assert 0 < summary["p50_ms"] <= summary["p90_ms"] <= summary["p99_ms"] <= summary["max_ms"]
    assert summary["deals_per_second"] > 0
    assert summary["nodes"] >= 8
    assert summary["peak_rss_mib"] > 1
    assert summary["warm_start_seconds"] is None
    assert set(report.to_json(per_deal=True)["per_deal"]) == {str(n) for n in range(1, 9)}


def test_bench_verdicts_match_the_solver(report) -> None:
    from cloversolve.solving.solver import solve

    for number in report.numbers:
        assert report.records[number]["status"] == solve("fifteen", number).status.value


def test_bench_rejects_an_empty_range() -> None:
    with pytest.raises(ValueError):
        bench("fifteen", [], warm_start=False)


def test_warm_start_times_a_fresh_process() -> None:
    started = time.perf_counter()
    seconds = measure_warm_start("fifteen", 1, runs=1)
    assert 0 < seconds <= time.perf_counter() - started


def test_markdown_table_has_a_row_per_report(report) -> None:
    rows = [report.summary(), {**report.summary(), "preset": "other", "p99_ms": None}]
    lines = markdown_table(rows).splitlines()
    assert len(lines) == 4
    assert lines[0].startswith("| preset | deals | deals/s")
    assert all(line.count("|") == lines[0].count("|") for line in lines)
    assert lines[2].startswith("| fifteen | 1..8 |")
    assert "–" in lines[3]


def test_outputs_are_written_without_matplotlib(report, tmp_path, monkeypatch) -> None:
    monkeypatch.setattr(bench_module, "have_matplotlib", lambda: False)
    written = write_outputs([report], tmp_path)
    data = json.loads((tmp_path / "bench_fifteen.json").read_text())
    assert data["count"] == 8 and len(data["per_deal"]) == 8
    assert (tmp_path / "bench.md").read_text().startswith("| preset |")
    assert not (tmp_path / "bench_fifteen.png").exists()
    assert set(written) == {tmp_path / "bench_fifteen.json", tmp_path / "bench.md"}


def test_outputs_include_the_plot_with_matplotlib(report, tmp_path) -> None:
    require_module("matplotlib", "the benchmark's latency plot needs it")
    assert bench_module.have_matplotlib()
    written = write_outputs([report], tmp_path)
    png = tmp_path / "bench_fifteen.png"
    assert png in written and png.read_bytes().startswith(b"\x89PNG\r\n")


def test_missing_matplotlib_skips_the_plot_in_one_line(report, tmp_path, monkeypatch, capsys):
    monkeypatch.setattr(bench_module, "have_matplotlib", lambda: False)
    assert bench_module.plot_latencies(report, tmp_path / "x.png") is None
    captured = capsys.readouterr()
    assert len(captured.err.strip().splitlines()) == 1 and "matplotlib" in captured.err
    assert "python -m pip install '.[bench]' in a cloversolve checkout" in captured.err
    assert not (tmp_path / "x.png").exists()


def make_group() -> click.Group:
    @click.group(cls=OneLineErrors)
    def group() -> None:
        """Test group."""

    register(group)
    return group


def test_bench_command_prints_json_and_table() -> None:
    group = make_group()
    args = ["bench", "fifteen", "--deals", "3..5", "--no-warm-start"]
    as_json = CliRunner().invoke(group, [*args, "--json"], catch_exceptions=False)
    assert as_json.exit_code == 0, as_json.output
    data = json.loads(as_json.stdout)
    assert data["count"] == 3 and data["deals"] == "3..5"
    table = CliRunner().invoke(group, args, catch_exceptions=False)
    assert table.exit_code == 0
    assert table.stdout.splitlines()[2].startswith("| fifteen | 3..5 |")


@pytest.mark.parametrize(
    ("args", "quoted"),
    [
        (["nosuch", "--deals", "1..2"], "'nosuch'"),
        (["fifteen", "--deals", "9..2"], "'9..2'"),
        (["fifteen", "--deals", "x"], "'x'"),
        (["fifteen", "--deals", "1..2", "--memory", "lots"], "'lots'"),
    ],
)
def test_bench_command_bad_input_is_one_line(args, quoted) -> None:
    result = CliRunner().invoke(make_group(), ["bench", *args], catch_exceptions=False)
    assert result.exit_code == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and quoted in lines[0] and "Traceback" not in result.output


def test_missing_black_hole_solver_is_one_line(capsys) -> None:
    suite = load_suite()
    assert suite.load_black_hole_solver("libno_such_solver.so.1", "no_such_solver") is None
    out = capsys.readouterr().out
    assert len(out.strip().splitlines()) == 1 and "libno_such_solver.so.1" in out


@pytest.mark.parametrize(
    ("preset", "game"), [("blackhole", "black_hole"), ("allinarow", "all_in_a_row")]
)
def test_black_hole_solver_boards_match_pysol_cards(preset, game) -> None:
    pysol = require_module("pysol_cards.deal_game", "the boards are compared with pysol-cards")
    from pysol_cards.cards import CardRenderer
    from pysol_cards.random_base import RandomBase

    suite = load_suite()
    for number in (1, 2, 1000):
        expected = pysol.Game(game, number, RandomBase.DEALS_PYSOLFC).calc_layout_string(
            CardRenderer(True)
        )
        board = suite.bhs_board(deal(preset, number))
        assert board.split() == expected.split()
        assert board.endswith("\n")


def test_cpu_cap_stops_a_runaway_solver() -> None:
    suite = load_suite()

    def forever() -> bool:
        while True:
            pass

    # The kernel's alarm counts in scheduler ticks and may ring early; several short caps in a
    # row make an early stop likely to show if the cap were not checked against CPU time.
    for _ in range(4):
        result, seconds = suite.run_capped(forever, 0.05)
        assert result is None and 0.05 <= seconds < 1.0
    assert suite.run_capped(lambda: True, 5.0)[0] is True


def test_naive_comparison_agrees_and_is_summarised(tmp_path) -> None:
    suite = load_suite()
    row = suite.compare_naive("fifteen", range(1, 6), 5.0, 10.0, suite.naive_winnable)
    assert row["naive_finished"] == 5
    assert row["disagreements"] == []
    assert {verdict for verdict, *_ in row["per_deal"].values()} == {"solved", "unsolvable"}
    part = {"command": "python benchmarks/run.py --parts naive", "measured": "now"}
    suite.write_json(tmp_path / "run.json", {"naive": {**part, "problems": ["x: differs"]}})
    suite.write_json(tmp_path / "naive.json", [row])
    text = suite.write_summary(tmp_path).read_text()
    assert "| fifteen | 1..5 | 5/5 (5) |" in text
    assert "--parts naive" in text and "## DISAGREEMENTS" in text


def test_bench_never_replaces_a_file_that_is_not_its_own(tmp_path) -> None:
    cli = OneLineErrors()
    register(cli)
    args = ["bench", "fifteen", "--deals", "1..3", "--no-warm-start", "--out", str(tmp_path)]
    assert CliRunner().invoke(cli, args).exit_code == 0  # its own earlier files are replaced
    assert CliRunner().invoke(cli, args).exit_code == 0
    for name, kind in (("bench.md", "a bench table"), ("bench_fifteen.json", "a bench report")):
        (tmp_path / name).write_text("someone's notes")
        refused = CliRunner().invoke(cli, args)
        assert refused.exit_code == 2 and (tmp_path / name).read_text() == "someone's notes"
        assert refused.stderr == (
            f"cloversolve: error: bad bench output file: {str(tmp_path / name)!r} (it exists "
            f"and is not {kind}{' of fifteen' if name.endswith('json') else ''}; remove it or "
            "name another file)\n"
        )
        (tmp_path / name).unlink()


def test_bench_never_replaces_another_json_of_its_preset(tmp_path) -> None:
    """A route file, a solve's or a study's JSON of the preset starts as a report does."""
    cli = OneLineErrors()
    register(cli)
    solved = run("solve", "fifteen", "1", "--json")
    for text in (solved.output, '{"preset": "fifteen"}', '{"preset": "fifteen", "deals": "1..3"}'):
        (tmp_path / "bench_fifteen.json").write_text(text)
        args = ["bench", "fifteen", "--deals", "1..3", "--no-warm-start", "--out", str(tmp_path)]
        refused = CliRunner().invoke(cli, args)
        assert refused.exit_code == 2, text
        assert (tmp_path / "bench_fifteen.json").read_text() == text
