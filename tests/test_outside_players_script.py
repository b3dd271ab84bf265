"""The pieces of ``benchmarks/outside_players.py``: records resume where a run stopped and
only the missing players play, and the report's rates, gaps, correlations and variance
shares follow from the records. No deal is played here."""

from __future__ import annotations

import json
from pathlib import Path
from types import ModuleType

import pytest
from helpers import load_benchmark

from cloversolve.runs.study import wilson_interval


@pytest.fixture
def study(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> ModuleType:
    module = load_benchmark("outside_players")
    monkeypatch.setattr(module, "RESULTS", tmp_path)
    return module


def _record(study: ModuleType, number: int, level: str, rate: float) -> dict:
    panel = dict.fromkeys(study.PANEL, rate)
    return {
        "set": "fresh",
        "number": number,
        "difficulty": level,
        "score": rate,
        "panel": panel,
        "wins": dict.fromkeys(study.PLAYED, rate),
    }


def test_a_stopped_run_resumes_and_plays_only_missing_players(
    study: ModuleType, tmp_path: Path
) -> None:
    path = tmp_path / "x_deals.jsonl"
    saved = _record(study, 1, "easy", 1.0)
    del saved["wins"]["tips-undo"]
    path.write_text(json.dumps(saved) + "\n", "utf-8")
    asked: list[dict] = []

    def play(done: dict) -> dict:
        asked.append(dict(done))
        return {**done, **{p: 0.0 for p in study.PLAYED if p not in done}}

    fresh = _record(study, 2, "hard", 0.0)
    source = [("fresh/1", _record(study, 1, "easy", 1.0), play), ("fresh/2", fresh, play)]
    records = study.play_all(path, [iter(source)])
    assert [set(a) for a in asked] == [set(study.PLAYED) - {"tips-undo"}, set()]
    assert records["fresh/1"]["wins"]["tips-undo"] == 0.0
    again = study.play_all(path, [iter(source)])
    assert len(asked) == 2 and again == records


def test_rates_by_grade_and_gaps(study: ModuleType) -> None:
    records = [_record(study, n, "easy", 1.0) for n in range(10)]
    records += [_record(study, n, "normal", n % 2) for n in range(10, 20)]
    records += [_record(study, n, "hard", 0.0) for n in range(20, 30)]
    row = study.by_grade(records, "tips-undo", lambda r: r["difficulty"])
    normal = row["by_difficulty"]["normal"]
    assert normal["deals"] == 10 and normal["rate"] == 0.5
    low, high = wilson_interval(5, 10)
    assert normal["interval_95"] == [round(low, 4), round(high, 4)]
    easy_low = row["by_difficulty"]["easy"]["interval_95"][0]
    assert row["gaps"][0] == round(100 * (easy_low - round(high, 4)), 1)


def test_correlation_and_variance_shares(study: ModuleType) -> None:
    assert study.correlation([0, 1, 2], [0, 2, 4]) == 1.0
    assert study.correlation([0, 1, 2], [4, 2, 0]) == -1.0
    assert study.correlation([1, 1, 1], [0, 1, 2]) is None
    records = [_record(study, n, "easy", n / 10) for n in range(10)]
    records[3]["panel"]["home"] = 0.9
    shares = study.variance_shares(records)
    assert sum(shares.values()) == pytest.approx(1, abs=0.01)
    assert shares["home"] != shares["dig"]


def test_players_that_undo_are_marked_assisted(study: ModuleType) -> None:
    row = {
        "player": "patient50",
        "by_difficulty": {
            level: {"rate": 0.5, "interval_95": [0.4, 0.6], "deals": 10}
            for level in ("easy", "normal", "hard")
        },
        "gaps": [0.0, 0.0],
    }
    lines = study._grade_table([row, {**row, "player": "hint"}], "grade")
    assert lines[2].startswith("| shipped grade | patient50 (assisted) |")
    assert lines[3].startswith("| shipped grade | hint |")
    assert {"tips-undo", "patient", "dig500"} <= study.ASSISTED
    assert not {"tips", "hint", "montecarlo", "dig", "dig again"} & study.ASSISTED
