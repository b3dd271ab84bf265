"""Solvability studies: counts, the interval with undecided deals, parallel runs, resuming."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

import cloversolve.study as study_module
from cloversolve import solve
from cloversolve.cli import main
from cloversolve.study import study, wilson_interval

DEALS = range(1, 25)


def without_seconds(records: dict[int, dict]) -> dict[int, dict]:
    return {n: {k: v for k, v in r.items() if k != "seconds"} for n, r in records.items()}


def test_counts_match_the_solver_deal_by_deal() -> None:
    report = study("blackhole", DEALS)
    for number in DEALS:
        assert report.records[number]["status"] == solve("blackhole", number).status.value
    counts = report.counts
    assert sum(counts.values()) == len(DEALS) and counts["undecided"] == 0
    assert counts["solvable"] > 0 and counts["unsolvable"] > 0


def test_undecided_deals_widen_the_interval_both_ways() -> None:
    report = study("blackhole", DEALS, max_nodes=2_000)
    counts = report.counts
    assert counts["undecided"] > 0
    low, high = report.interval
    assert low == wilson_interval(counts["solvable"], len(DEALS))[0]
    assert high == wilson_interval(counts["solvable"] + counts["undecided"], len(DEALS))[1]


def test_parallel_runs_give_the_same_verdicts() -> None:
    one = study("allinarow", DEALS, max_nodes=50_000)
    two = study("allinarow", DEALS, jobs=2, max_nodes=50_000)
    assert without_seconds(one.records) == without_seconds(two.records)


def test_a_study_resumes_from_its_checkpoint(tmp_path, monkeypatch) -> None:
    checkpoint = tmp_path / "blackhole.ckpt"
    first = study("blackhole", range(1, 11), checkpoint=str(checkpoint))
    decided: list[int] = []
    real_study_deal = study_module.study_deal

    def counting(*args):
        decided.append(args[-1])
        return real_study_deal(*args)

    monkeypatch.setattr(study_module, "study_deal", counting)
    second = study("blackhole", range(1, 21), checkpoint=str(checkpoint))
    assert sorted(decided) == list(range(11, 21))
    assert without_seconds({n: second.records[n] for n in range(1, 11)}) == without_seconds(
        first.records
    )


def test_kernels_are_warmed_up_before_the_clock_starts(monkeypatch) -> None:
    warmed: list[str] = []
    monkeypatch.setattr(study_module, "warm_up", warmed.append)
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
