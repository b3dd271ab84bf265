"""``benchmarks/compare.py`` and ``benchmarks/side_by_side.py``: two checkouts side by side,
verdicts compared deal by deal."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from helpers import load_benchmark

REPO = Path(__file__).resolve().parent.parent


def load_compare() -> Any:
    """``benchmarks/compare.py`` as a module (a script, not part of the package)."""
    return load_benchmark("compare")


def fake_side_by_side(rates: dict[str, list[float]], differences: list[int]) -> Any:
    """A stand-in for one ``side_by_side.py`` run: fixed rates per pass and differences."""

    def run_side_by_side(
        old: Path, new: Path, preset: str, deals: str, through: str, passes: int
    ) -> dict[str, Any]:
        return {"deals_per_cpu_second": rates, "verdict_differences": differences}

    return run_side_by_side


def checkouts(tmp_path: Path) -> tuple[Path, Path]:
    for name in ("old", "new"):
        (tmp_path / name / "cloversolve").mkdir(parents=True)
        (tmp_path / name / "cloversolve" / "__init__.py").write_text("")
    return tmp_path / "old", tmp_path / "new"


def run_compare(compare: Any, tmp_path: Path, preset: str, passes: int) -> int:
    old, new = checkouts(tmp_path)
    arguments = ["--old", str(old), "--new", str(new), "--presets", preset]
    arguments += ["--passes", str(passes), "--out", str(tmp_path / "out")]
    status: int = compare.main(arguments)
    return status


def test_the_ratio_is_the_median_of_new_over_old_per_pass(tmp_path, monkeypatch) -> None:
    compare = load_compare()
    rates = {"old": [100.0, 100.0, 200.0], "new": [110.0, 130.0, 220.0]}
    monkeypatch.setattr(compare, "run_side_by_side", fake_side_by_side(rates, []))
    assert run_compare(compare, tmp_path, "thirteen", 3) == 0
    table = (tmp_path / "out" / "compare.md").read_text()
    line = "| thirteen | 1..3000 | 100.0 | 130.0 | 1.100 | 1.100, 1.300, 1.100 | same |"
    assert line in table


def test_a_changed_verdict_is_listed_and_fails_the_run(tmp_path, monkeypatch) -> None:
    compare = load_compare()
    rates = {"old": [100.0], "new": [100.0]}
    monkeypatch.setattr(compare, "run_side_by_side", fake_side_by_side(rates, [1]))
    assert run_compare(compare, tmp_path, "fifteen", 1) == 1
    rows = compare.orjson.loads((tmp_path / "out" / "compare.json").read_bytes())["rows"]
    assert rows[0]["verdict_differences"] == ["fifteen deal 1"]


def test_a_folder_that_is_no_checkout_is_refused(tmp_path, capsys) -> None:
    compare = load_compare()
    with pytest.raises(SystemExit) as stopped:
        compare.main(["--old", str(tmp_path), "--passes", "1"])
    assert stopped.value.code == 2
    assert f"not a checkout of the package: {str(tmp_path)!r}" in capsys.readouterr().err


def fake_checkout(root: Path, name: str) -> Path:
    """A package named like ours whose function imports, when called, the module that says
    which checkout it is."""
    package = root / name / "cloversolve"
    package.mkdir(parents=True)
    (package / "__init__.py").write_text(
        "def who():\n    from .which import NAME\n    return NAME\n"
    )
    (package / "which.py").write_text(f"NAME = {name!r}\n")
    return root / name


def test_each_checkout_runs_its_own_modules_even_those_imported_late(tmp_path) -> None:
    side_by_side = load_benchmark("side_by_side")
    first = side_by_side.Checkout(fake_checkout(tmp_path, "first"))
    second = side_by_side.Checkout(fake_checkout(tmp_path, "second"))
    ours = sys.modules["cloversolve"]
    for checkout, name in ((first, "first"), (second, "second"), (first, "first")):
        who = checkout.module("cloversolve").who
        with checkout.active():
            assert who() == name
    # (the test process's own package is back in place)
    assert sys.modules["cloversolve"] is ours and "cloversolve.which" not in sys.modules


def test_the_same_checkout_twice_gives_the_same_verdicts() -> None:
    command = [sys.executable, str(REPO / "benchmarks" / "side_by_side.py")]
    command += ["--old", str(REPO), "--new", str(REPO), "--preset", "blackhole"]
    command += ["--deals", "1..20", "--passes", "2", "--through", "solve"]
    done = subprocess.run(command, capture_output=True, check=False)
    assert done.returncode == 0, done.stderr.decode()
    report = json.loads(done.stdout)
    assert report["verdict_differences"] == []
    assert len(report["deals_per_cpu_second"]["old"]) == 2
