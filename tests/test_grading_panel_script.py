"""The guards of ``benchmarks/grading_panel.py``: one run per name, no writing through links,
the held-out thresholds checked before the fresh deals, the status of a stopped run. No deal is
played: the results folder is a temporary one and the long stages are replaced."""

from __future__ import annotations

import errno
import math
import os
import signal
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import orjson
import pytest
from helpers import load_benchmark

from cloversolve.grading.grading import grading_rule, panel_score
from cloversolve.runs import interrupts
from cloversolve.runs.interrupts import STOP_SIGNALS


@pytest.fixture
def panel(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[ModuleType]:
    """``benchmarks/grading_panel.py`` as a module (it is a script), writing to ``tmp_path``;
    the signal handlers its ``main`` installs, and the signal that stopped it, go with the
    test."""
    handlers = {signum: signal.getsignal(signum) for signum in STOP_SIGNALS}
    for signum in STOP_SIGNALS - {signal.SIGINT}:  # (whatever this process was started with)
        signal.signal(signum, signal.SIG_DFL)
    monkeypatch.setattr(interrupts, "_stopped_by", [])
    module = load_benchmark("grading_panel")
    monkeypatch.setattr(module, "RESULTS", tmp_path)
    yield module
    for signum, handler in handlers.items():
        signal.signal(signum, handler)


def test_a_second_run_under_the_same_name_is_refused(panel: ModuleType) -> None:
    refused = pytest.raises(panel.PanelError, match="another run under the name 'first'")
    with panel.only_run("first"):
        with refused, panel.only_run("first"):
            pass
        with panel.only_run("second"):  # (another name is another run)
            pass
    with panel.only_run("first"):  # (the lock went with the run)
        pass


@pytest.mark.parametrize("output", ["linked.json", "linked.md", "linked_deals_fifteen.json"])
def test_outputs_that_are_symbolic_links_are_refused(
    panel: ModuleType, tmp_path: Path, output: str, capsys: pytest.CaptureFixture[str]
) -> None:
    committed = tmp_path / "grading_panel.json"
    committed.write_bytes(b"[]")
    (tmp_path / output).symlink_to(committed)
    arguments = ["--name", "linked", "--presets", "fifteen", "--train", "5", "--fresh", "5"]
    assert panel.main(arguments) == 1
    error = capsys.readouterr().err
    assert error.count("\n") == 1 and "is a symbolic link" in error and output in error
    assert committed.read_bytes() == b"[]"
    # (refused before anything was played or written)
    assert {path.name for path in tmp_path.iterdir()} == {"grading_panel.json", output}


def test_held_out_thresholds_are_checked_before_the_fresh_deals(
    panel: ModuleType, monkeypatch: pytest.MonkeyPatch
) -> None:
    # In `fifteen` only the `random` player ever wins: the full panel's scores give
    # thresholds, but the score without `random` is 0 on every training deal and gives none.
    # In `thirteen` every player wins on some deals: its thresholds are fine.
    def record(preset: str, number: int) -> dict[str, Any]:
        rule = grading_rule(preset)
        wins = {
            player: number % 3 if preset == "thirteen" or player == "random" else 0
            for player in rule.panel
        }
        score = panel_score(wins, rule.games)
        return {"status": "solved", "panel_games": rule.games, "panel_wins": wins, "score": score}

    stages: list[tuple[str, str]] = []

    def records(preset: str, numbers: range, jobs: int, name: str, stage: str) -> dict:
        stages.append((preset, stage))
        return {number: record(preset, number) for number in numbers}

    monkeypatch.setattr(panel, "records", records)
    with pytest.raises(panel.PanelError, match="fifteen without random"):
        panel.run(["thirteen", "fifteen"], {"thirteen": (30, 90), "fifteen": (30, 90)}, 1, "t")
    # (no fresh stage, not even the first preset's)
    assert stages == [("thirteen", "training"), ("fifteen", "training")]


@pytest.mark.parametrize(("signum", "status"), [(signal.SIGINT, 130), (signal.SIGTERM, 143)])
def test_a_stopped_run_exits_with_its_signal(
    panel: ModuleType,
    monkeypatch: pytest.MonkeyPatch,
    signum: signal.Signals,
    status: int,
    capsys: pytest.CaptureFixture[str],
) -> None:
    def stopped(*args: Any) -> dict:
        interrupts.stop_on_signals()
        signal.raise_signal(signum)
        return {}

    monkeypatch.setattr(panel, "training", stopped)
    assert panel.run(["fifteen"], {"fifteen": (5, 5)}, 1, "stopped") == status
    assert "records made so far are saved" in capsys.readouterr().out


def test_a_hang_up_exits_with_its_signal_when_nothing_can_be_printed(
    panel: ModuleType, monkeypatch: pytest.MonkeyPatch
) -> None:
    def hung_up(*args: Any) -> dict:
        try:
            signal.raise_signal(signal.SIGHUP)  # (``main`` made it stop the run)
        except KeyboardInterrupt:  # (the progress bar's last words fail: no terminal)
            raise OSError(errno.EIO, os.strerror(errno.EIO)) from None
        return {}

    def no_terminal(*args: Any, **kwargs: Any) -> None:
        raise OSError(errno.EIO, os.strerror(errno.EIO))

    monkeypatch.setattr(panel, "training", hung_up)
    monkeypatch.setattr("builtins.print", no_terminal)
    arguments = ["--name", "hung", "--presets", "fifteen", "--train", "5", "--fresh", "5"]
    assert panel.main(arguments) == 129


@pytest.mark.parametrize(
    ("arguments", "quoted"),
    [(["--jobs", "0"], "'0'"), (["--name", "_x"], "'_x'"), (["--presets", "nine"], "'nine'")],
)
def test_usage_errors_take_one_line(
    panel: ModuleType, arguments: list[str], quoted: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as stopped:
        panel.main(arguments)
    error = capsys.readouterr().err
    assert stopped.value.code == 2 and error.count("\n") == 1 and quoted in error, error


def test_a_record_whose_score_is_not_its_panels_is_refused(panel: ModuleType) -> None:
    rule = grading_rule("fifteen")
    wins = {player: 1 for player in rule.panel}
    record = {"status": "solved", "panel_games": rule.games, "panel_wins": wins}
    assert panel._is_record({**record, "score": panel_score(wins, rule.games)}, rule.panel)
    assert not panel._is_record({**record, "score": 1e300}, rule.panel)


def test_a_held_out_player_is_not_judged_without_deals_in_every_grade(
    panel: ModuleType,
) -> None:
    rule = grading_rule("thirteen")
    wins = {player: 1 for player in rule.panel}
    fresh = [{"panel_games": rule.games, "panel_wins": wins}] * 20  # (every deal Easy)
    row = panel.held_out(fresh, "dig", list(rule.panel), (0.0, -1.0))
    assert row["gaps"] == [None, None]
    assert panel._target(row) == "n/a (a grade with no deals)"


def test_outside_players_get_rows_and_extend_records_made_without_them(
    panel: ModuleType, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A records file made before the outside players: the panel's wins of solved deals.
    rule = grading_rule("fifteen")
    key = {k: v for k, v in rule.to_json().items() if "threshold" not in k and k != "rule"}

    def panel_record(number: int) -> dict[str, Any]:
        wins = {player: number % (rule.games + 1) for player in rule.panel}
        score = panel_score(wins, rule.games)
        return {"status": "solved", "panel_games": rule.games, "panel_wins": wins, "score": score}

    numbers = [*range(100_001, 100_031), *range(200_001, 200_007)]
    deals = {str(n): panel_record(n) for n in numbers}
    deals["200003"] = {"status": "unsolvable"}
    path = tmp_path / "older_deals_fifteen.json"
    path.write_bytes(orjson.dumps({"rule": key, "deals": deals}))

    def not_again(*args: Any, **kwargs: Any) -> None:
        raise AssertionError("a saved record was made again")

    monkeypatch.setattr(panel, "solve", not_again)
    monkeypatch.setattr(panel, "play_metrics", not_again)
    sizes = {"fifteen": (30, 6)}
    assert panel.run(["fifteen"], sizes, 1, "older", {"montecarlo": 4, "hint": 4}) == 0

    saved = orjson.loads(path.read_bytes())["deals"]
    played = {n for n, r in saved.items() if "outside_wins" in r}
    assert played == {"200001", "200002", "200004"}  # (the solvable ones of the first 4)
    assert all(saved[n]["outside_wins"].keys() == {"montecarlo", "hint"} for n in played)
    kept = {n: {k: v for k, v in r.items() if k != "outside_wins"} for n, r in saved.items()}
    assert kept == deals  # (the panel's records are kept as they were)
    report = orjson.loads((tmp_path / "older.json").read_bytes())[0]
    [row] = [row for row in report["outside"] if row["player"] == "montecarlo"]
    assert row["fresh_deals"] == [200_001, 200_004] and not row["assisted"]
    assert sum(level["deals"] for level in row["by_difficulty"].values()) == 3
    lines = (tmp_path / "older.md").read_text().splitlines()
    assert any(line.startswith("| fifteen | montecarlo (outside) |") for line in lines)
    assert any(line.startswith("| fifteen | patient (assisted) |") for line in lines)

    # The next run resumes: the games saved are kept, the others played.
    monkeypatch.setattr(panel, "outside_wins", lambda preset, number, players: {"montecarlo": 1})
    assert panel.run(["fifteen"], sizes, 1, "older", {"montecarlo": 6, "hint": 4}) == 0
    resumed = orjson.loads(path.read_bytes())["deals"]
    assert all(resumed[n] == saved[n] for n in played)
    assert (
        resumed["200005"]["outside_wins"] == resumed["200006"]["outside_wins"] == {"montecarlo": 1}
    )


def test_low_rates_are_told_apart_by_a_ratio_and_the_others_by_points(panel: ModuleType) -> None:
    def rates(easy: int, normal: int, hard: int, deals: int = 2000) -> dict[str, list[float]]:
        return {
            level: [1.0] * wins + [0.0] * (deals - wins)
            for level, wins in zip(("easy", "normal", "hard"), (easy, normal, hard), strict=True)
        }

    # 12%, 5%, 2%: the lower grades are under 10%, more than 1.5-fold apart, disjoint.
    assert panel.graded_rates(rates(240, 100, 40))["met"]
    # 5% and 4% are disjoint on 20,000 deals but only 1.25-fold apart.
    assert not panel.graded_rates(rates(2400, 1000, 800, 20_000))["met"]
    # 40%, 30%, 20%: 3 points apart at least, and not when the two last are 25% and 20%.
    assert panel.graded_rates(rates(800, 600, 400))["met"]
    assert not panel.graded_rates(rates(800, 500, 400))["met"]


def test_a_row_short_of_the_target_says_how_many_deals_it_needs(panel: ModuleType) -> None:
    def rates(easy: int, normal: int, hard: int, deals: int) -> dict[str, list[float]]:
        return {
            level: [1.0] * wins + [0.0] * (deals - wins)
            for level, wins in zip(("easy", "normal", "hard"), (easy, normal, hard), strict=True)
        }

    short = panel.graded_rates(rates(40, 30, 20, 100))  # (40%, 30%, 20% on 100 deals each)
    scale = panel.deals_needed(short)
    assert scale is not None and 2 < scale < 20
    deals = 10 * math.ceil(10 * scale)  # (the needed deals, a multiple of 10)
    assert panel.graded_rates(rates(4 * deals // 10, 3 * deals // 10, 2 * deals // 10, deals))[
        "met"
    ]
    assert "NOT met (needs " in panel._target(short)
    close = panel.graded_rates(rates(40, 38, 20, 100))  # (40% and 38%: 2 points apart)
    assert panel.deals_needed(close) is None
    assert panel._target(close) == "NOT met (no sample would: rates too close)"
