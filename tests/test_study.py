"""Solvability studies: counts, the interval with undecided deals, parallel runs, resuming."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

import cloversolve.runs.study as study_module
import cloversolve.runs.workers as workers_module
from cloversolve import Limits, solve
from cloversolve.catalogue.files import default_catalogue
from cloversolve.cli.main import main
from cloversolve.runs.study import StudyReport, study, wilson_interval

DEALS = range(1, 25)
TIMING = ("seconds", "search_seconds", "deals_over_1s", "slowest_seconds")


def without_timing(data: dict) -> dict:
    return {k: v for k, v in data.items() if k not in TIMING}


def test_counts_match_the_solver_deal_by_deal() -> None:
    report = study("blackhole", DEALS, per_deal=True)
    verdicts = report.verdicts()
    for number in DEALS:
        assert verdicts[number] == solve("blackhole", number).status.value
    counts = report.counts
    assert sum(counts.values()) == len(DEALS) and counts["undecided"] == 0
    assert counts["solvable"] > 0 and counts["unsolvable"] > 0


def test_undecided_deals_widen_the_interval_both_ways() -> None:
    report = study("blackhole", DEALS, limits=Limits(max_nodes=2_000))
    counts = report.counts
    assert counts["undecided"] > 0
    low, high = report.interval
    assert report.count == len(DEALS)
    assert low == wilson_interval(counts["solvable"], len(DEALS))[0]
    assert high == wilson_interval(counts["solvable"] + counts["undecided"], len(DEALS))[1]


def test_parallel_runs_give_the_same_verdicts() -> None:
    one = study("allinarow", DEALS, limits=Limits(max_nodes=50_000), per_deal=True)
    two = study("allinarow", DEALS, jobs=2, limits=Limits(max_nodes=50_000), per_deal=True)
    assert without_timing(one.to_json(per_deal=True)) == without_timing(two.to_json(per_deal=True))


def test_a_study_resumes_from_its_checkpoint(tmp_path, monkeypatch) -> None:
    checkpoint = tmp_path / "blackhole.ckpt"
    first = study("blackhole", range(1, 11), checkpoint=str(checkpoint), per_deal=True)
    decided: list[int] = []
    real_study_deal = study_module.study_deal

    def counting(*args):
        decided.append(args[-1])
        return real_study_deal(*args)

    monkeypatch.setattr(study_module, "study_deal", counting)
    second = study("blackhole", range(1, 21), checkpoint=str(checkpoint), per_deal=True)
    assert sorted(decided) == list(range(11, 21))
    assert {n: v for n, v in second.verdicts().items() if n <= 10} == first.verdicts()


def test_the_workers_time_is_tallied() -> None:
    report = study("fifteen", range(1, 200), jobs=2)
    assert report.work.deals == 199
    assert report.work.cpu_seconds > 0 and report.work.seconds > 0


def test_kernels_are_warmed_up_before_the_clock_starts(monkeypatch) -> None:
    warmed: list[str] = []
    clock_started: list[bool] = []
    real_perf_counter = study_module.time.perf_counter

    def warm(preset: str) -> None:
        warmed.append(preset)
        assert not clock_started

    def perf_counter() -> float:
        clock_started.append(True)
        return real_perf_counter()

    monkeypatch.setattr(workers_module, "_WARMED", set())
    monkeypatch.setattr("cloversolve.solving.solver.warm_up", warm)
    monkeypatch.setattr(study_module.time, "perf_counter", perf_counter)
    study("thirteen", range(1, 3))
    assert warmed == ["thirteen"]


@pytest.mark.parametrize("per_deal", [False, True])
def test_study_command_json(per_deal: bool) -> None:
    args = ["study", "blackhole", "--deals", "1..12", "--json", "--no-progress"]
    result = CliRunner().invoke(main, args + (["--per-deal"] if per_deal else []))
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["solvable"] + data["unsolvable"] + data["undecided"] == 12
    low, high = data["interval_95"]
    assert low <= data["solvable_rate"] <= high
    if per_deal:
        assert set(data["per_deal"]) == {str(n) for n in range(1, 13)}
        assert set(data["per_deal"].values()) <= {"solved", "unsolvable", "limit"}
    else:
        assert "per_deal" not in data


def test_a_study_that_decides_no_deal_has_no_rate() -> None:
    args = ["study", "thirteen", "--deals", "5008..5010", "--max-nodes", "1", "--no-progress"]
    text = CliRunner().invoke(main, args)
    assert text.exit_code == 0 and "undecided 3" in text.output
    assert "solvable rate n/a (no deal decided)  (95% interval 0.00% .. 100.00%" in text.output
    data = json.loads(CliRunner().invoke(main, [*args, "--json"]).output)
    assert data["undecided"] == 3 and data["solvable_rate"] is None
    assert data["interval_95"] == [0.0, 1.0]
    decided = StudyReport("thirteen", 1, 2, {})
    decided.add([["unsolvable", "exhausted-search", 5, 0.1], ["limit", "budget-exhausted", 9, 1]])
    assert decided.solvable_rate == 0.0


def test_report_counts_slow_deals_and_the_slowest() -> None:
    report = StudyReport("cloverleaf", 1, 3, {})
    report.add([["solved", "route-found", 10, 0.25], ["unsolvable", "suit-projection", 5, 2.5]])
    report.add([["limit", "budget-exhausted", 99, 1.0]])
    data = report.to_json()
    assert (data["deals_over_1s"], data["slowest_seconds"]) == (1, 2.5)


def test_verdicts_never_replace_a_file_that_is_not_a_verdict_file(tmp_path) -> None:
    checkpoint, verdicts = tmp_path / "run.ckpt", tmp_path / "run.verdicts"
    args = ["study", "fifteen", "--deals", "1..40", "--no-progress"]
    assert CliRunner().invoke(main, [*args, "--checkpoint", str(checkpoint)]).exit_code == 0
    kept = checkpoint.read_bytes()
    refused = CliRunner().invoke(main, [*args, "--verdicts", str(checkpoint)])
    assert refused.exit_code == 2 and checkpoint.read_bytes() == kept
    assert refused.stderr == (
        f"cloversolve: error: bad verdicts file: {str(checkpoint)!r} (it exists and is not a "
        "verdict file of fifteen deals from 1; remove it or name another file)\n"
    )
    # An earlier verdict file, or an empty one, is replaced as before.
    for _ in range(2):
        assert CliRunner().invoke(main, [*args, "--verdicts", str(verdicts)]).exit_code == 0
    verdicts.write_bytes(b"")
    assert CliRunner().invoke(main, [*args, "--verdicts", str(verdicts)]).exit_code == 0


def test_verdicts_of_another_preset_or_first_deal_are_never_replaced(tmp_path) -> None:
    verdicts = tmp_path / "run.verdicts"
    args = ["study", "fifteen", "--deals", "1..5", "--no-progress", "--verdicts", str(verdicts)]
    assert CliRunner().invoke(main, args).exit_code == 0
    kept = verdicts.read_bytes()
    for preset, deals in (("cloverleaf", "1..5"), ("fifteen", "2..5")):
        other = ["study", preset, "--deals", deals, "--verdicts", str(verdicts)]
        refused = CliRunner().invoke(main, other)
        assert refused.exit_code == 2 and verdicts.read_bytes() == kept
        assert refused.stderr == (
            f"cloversolve: error: bad verdicts file: {str(verdicts)!r} (it exists and is not a "
            f"verdict file of {preset} deals from {deals[0]}; remove it or name another file)\n"
        )
    # The same study with a longer range or another budget replaces its earlier file.
    longer = ["study", "fifteen", "--deals", "1..8", "--max-nodes", "500"]
    assert CliRunner().invoke(main, [*longer, "--verdicts", str(verdicts)]).exit_code == 0
    assert verdicts.read_bytes() != kept


def test_the_summary_names_the_range_decided_and_budgets_are_per_deal() -> None:
    result = CliRunner().invoke(main, ["study", "fifteen", "--deals", "1..5"])
    assert result.exit_code == 0, result.output
    assert result.output.startswith("fifteen deals 1..5: 5 deals in ")
    helped = CliRunner().invoke(main, ["study", "-h"]).output
    assert "seconds per deal" in helped and "search nodes per deal" in helped


def test_certificates_never_replace_a_file_that_is_not_a_certificates_file(tmp_path) -> None:
    catalogue = tmp_path / "copy.json"
    catalogue.write_bytes(default_catalogue("fifteen").read_bytes())
    kept = catalogue.read_bytes()
    verdicts, certificates = tmp_path / "run.verdicts", tmp_path / "run.certificates"
    args = ["study", "fifteen", "--deals", "1..5", "--no-progress", "--verdicts", str(verdicts)]
    refused = CliRunner().invoke(main, [*args, "--certificates", str(catalogue)])
    assert refused.exit_code == 2 and catalogue.read_bytes() == kept
    assert refused.stderr == (
        f"cloversolve: error: bad certificates file: {str(catalogue)!r} (it exists and is not a "
        "certificates file of fifteen deals from 1; remove it or name another file)\n"
    )
    # An earlier certificates file is replaced as before.
    for _ in range(2):
        done = CliRunner().invoke(main, [*args, "--certificates", str(certificates)])
        assert done.exit_code == 0, done.output


def test_a_resumed_study_and_build_say_so_on_stderr(tmp_path) -> None:
    checkpoint = tmp_path / "run.ckpt"
    args = ["study", "fifteen", "--no-progress", "--checkpoint", str(checkpoint)]
    fresh = CliRunner().invoke(main, [*args, "--deals", "1..5"])
    assert fresh.exit_code == 0 and fresh.stderr == ""
    resumed = CliRunner().invoke(main, [*args, "--deals", "1..12"])
    assert resumed.exit_code == 0, resumed.output
    assert resumed.stderr == f"resuming from {str(checkpoint)!r}: 5 of 12 deals done\n"
    out = tmp_path / "fifteen.json"
    build = ["catalogue", "build", "fifteen", "--per-difficulty", "1", "--out", str(out)]
    short = CliRunner().invoke(main, [*build, "--deals", "1..2", "--no-progress"])
    assert short.exit_code == 2 and "widen --deals" in short.stderr  # (its deals are kept)
    assert "resuming" not in short.stderr
    wider = CliRunner().invoke(main, [*build, "--deals", "1..200", "--no-progress"])
    assert wider.exit_code == 0, wider.output
    kept = f"{str(out) + '.checkpoint'!r}"
    assert wider.stderr == f"resuming from {kept}: 2 deals done\n"


@pytest.mark.parametrize("deals", [" 1..5", "1 .. 5", "1..5 ", "01..5", "1..05"])
def test_a_range_is_plain_digits_as_every_deal_number_is(deals: str) -> None:
    """No spaces around the numbers and no leading zeros, as a whole-number option."""
    result = CliRunner().invoke(main, ["study", "fifteen", "--deals", deals])
    assert result.exit_code == 2
    assert result.stderr.startswith(f"cloversolve: error: bad deal range: {deals!r} (")
