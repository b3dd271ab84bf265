"""JSON output of the command line for deal numbers beyond 64 bits (up to 10**20 - 1)."""

from __future__ import annotations

import json

from click.testing import CliRunner

from cloversolve.cli import main

LARGEST = 10**20 - 1


def test_deal_and_solve_print_the_largest_number_as_json() -> None:
    runner = CliRunner()
    dealt = runner.invoke(main, ["deal", "thirteen", str(LARGEST), "--json"])
    assert dealt.exit_code == 0, dealt.output
    assert json.loads(dealt.output)["number"] == LARGEST
    solved = runner.invoke(main, ["solve", "thirteen", str(LARGEST), "--json", "--max-nodes", "5"])
    assert solved.exception is None or isinstance(solved.exception, SystemExit), solved.output
    assert json.loads(solved.stdout)["number"] == LARGEST
