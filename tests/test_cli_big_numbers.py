"""JSON output of the command line for deal numbers beyond 64 bits (up to 10**20 - 1): written
as decimal text (past 2**53 - 1), read back exactly."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import time
from pathlib import Path

from click.testing import CliRunner

from cloversolve.cli.main import main

LARGEST = 10**20 - 1


def test_deal_and_solve_print_the_largest_number_as_json() -> None:
    runner = CliRunner()
    dealt = runner.invoke(main, ["deal", "thirteen", str(LARGEST), "--json"])
    assert dealt.exit_code == 0, dealt.output
    assert json.loads(dealt.output)["number"] == str(LARGEST)
    solved = runner.invoke(main, ["solve", "thirteen", str(LARGEST), "--json", "--max-nodes", "5"])
    assert solved.exception is None or isinstance(solved.exception, SystemExit), solved.output
    assert json.loads(solved.stdout)["number"] == str(LARGEST)


def test_layout_files_of_numbers_past_64_bits_read_back_exactly(tmp_path: Path) -> None:
    runner = CliRunner()
    for number in (2**64, LARGEST):
        dealt = runner.invoke(main, ["deal", "thirteen", str(number), "--json"])
        assert dealt.exit_code == 0, dealt.output
        layout = tmp_path / f"{number}.json"
        layout.write_text(dealt.output)
        solved = runner.invoke(
            main, ["solve", "thirteen", "--layout", str(layout), "--json", "--max-nodes", "5"]
        )
        assert solved.exit_code in (0, 3, 4), solved.output
        assert json.loads(solved.stdout)["number"] == str(number)
        replayed = runner.invoke(main, ["replay", "thirteen", "--layout", str(layout), "1>2"])
        assert replayed.exit_code == 1, replayed.output
        assert "layout number" not in replayed.output
        assert "illegal at move 1" in replayed.output


def test_a_layout_file_with_a_long_number_and_nan_is_refused_in_one_line(tmp_path: Path) -> None:
    layout = tmp_path / "nan.json"
    layout.write_text('{"preset": "thirteen", "number": 99999999999999999999, "x": NaN}')
    result = CliRunner().invoke(main, ["solve", "thirteen", "--layout", str(layout)])
    assert result.exit_code == 2, result.output
    assert "is not valid JSON" in result.output
    assert len(result.output.strip().splitlines()) == 1


def test_a_study_of_more_deals_than_a_length_holds_runs() -> None:
    """A range of 2**63 deals or more is studied like any other (until interrupted here)."""
    process = subprocess.Popen(
        [sys.executable, "-m", "cloversolve", "study", "blackhole"]
        + ["--deals", f"1..{LARGEST}", "--max-nodes", "1", "--no-progress"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    try:
        time.sleep(3)
        assert process.poll() is None, process.communicate()
    finally:
        process.send_signal(signal.SIGINT)
        _, errors = process.communicate(timeout=60)
    assert "Traceback" not in errors.decode() and "interrupted" in errors.decode()
