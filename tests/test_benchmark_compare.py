"""``benchmarks/compare.py``: two checkouts side by side, verdicts compared deal by deal."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from helpers import load_benchmark


def load_compare() -> Any:
    """``benchmarks/compare.py`` as a module (a script, not part of the package)."""
    return load_benchmark("compare")


def fake_bench(rates: dict[str, float], statuses: dict[str, dict[str, str]]) -> Any:
    """A stand-in for one ``run.py --parts bench`` per checkout: fixed rates and verdicts."""

    def run_bench(tree: Path, preset: str, deals: str, out: Path) -> dict[str, Any]:
        return {
            "deals_per_cpu_second": rates[tree.name],
            "per_deal": {n: {"status": s} for n, s in statuses[tree.name].items()},
        }

    return run_bench


def checkouts(tmp_path: Path) -> tuple[Path, Path]:
    for name in ("old", "new"):
        (tmp_path / name / "cloversolve").mkdir(parents=True)
        (tmp_path / name / "cloversolve" / "__init__.py").write_text("")
    return tmp_path / "old", tmp_path / "new"


def test_the_ratio_is_new_over_old_and_equal_verdicts_pass(tmp_path, monkeypatch) -> None:
    compare = load_compare()
    old, new = checkouts(tmp_path)
    same = {"1": "solved", "2": "unsolvable"}
    monkeypatch.setattr(
        compare, "run_bench", fake_bench({"old": 100.0, "new": 110.0}, {"old": same, "new": same})
    )
    status = compare.main(
        [
            "--old",
            str(old),
            "--new",
            str(new),
            "--presets",
            "thirteen",
            "--rounds",
            "2",
            "--out",
            str(tmp_path / "out"),
        ]
    )
    assert status == 0
    table = (tmp_path / "out" / "compare.md").read_text()
    assert "| thirteen | 1..3000 | 100.0 | 110.0 | 1.100 | 1.100, 1.100 | same |" in table


def test_a_changed_verdict_is_listed_and_fails_the_run(tmp_path, monkeypatch) -> None:
    compare = load_compare()
    old, new = checkouts(tmp_path)
    monkeypatch.setattr(
        compare,
        "run_bench",
        fake_bench(
            {"old": 100.0, "new": 100.0},
            {"old": {"1": "solved", "2": "limit"}, "new": {"1": "unsolvable", "2": "solved"}},
        ),
    )
    status = compare.main(
        [
            "--old",
            str(old),
            "--new",
            str(new),
            "--presets",
            "fifteen",
            "--rounds",
            "1",
            "--out",
            str(tmp_path / "out"),
        ]
    )
    assert status == 1
    rows = compare.orjson.loads((tmp_path / "out" / "compare.json").read_bytes())["rows"]
    # (a deal undecided within its budget in one checkout is no disagreement)
    assert rows[0]["verdict_differences"] == ["fifteen deal 1: old solved, new unsolvable"]


def test_a_folder_that_is_no_checkout_is_refused(tmp_path, capsys) -> None:
    compare = load_compare()
    with pytest.raises(SystemExit) as stopped:
        compare.main(["--old", str(tmp_path), "--rounds", "1"])
    assert stopped.value.code == 2
    assert f"not a checkout of the package: {str(tmp_path)!r}" in capsys.readouterr().err
