"""The committed per-deal verdicts of `thirteen` and `thirteen-return` deals 1..10,000 (made by
`cloversolve study PRESET --deals 1..10000 --json --per-deal`) are reproduced by the solver."""

import csv
import random
from collections import Counter
from pathlib import Path

import pytest

from cloversolve.solver import solve

DATA = Path(__file__).parent / "data"


def verdicts(preset: str) -> dict[int, tuple[str, str]]:
    with (DATA / f"{preset}_verdicts_1_10000.csv").open(newline="") as handle:
        return {
            int(row["number"]): (row["status"], row["method"]) for row in csv.DictReader(handle)
        }


@pytest.mark.parametrize("preset", ["thirteen", "thirteen-return"])
def test_the_data_is_complete_and_decided(preset: str) -> None:
    table = verdicts(preset)
    assert sorted(table) == list(range(1, 10001))
    statuses = Counter(status for status, _ in table.values())
    assert set(statuses) == {"solved", "unsolvable"}


@pytest.mark.parametrize("preset", ["thirteen", "thirteen-return"])
def test_the_solver_reproduces_a_sample(preset: str) -> None:
    table = verdicts(preset)
    by_status: dict[str, list[int]] = {}
    for number, (status, _) in table.items():
        by_status.setdefault(status, []).append(number)
    sample_source = random.Random(f"{preset}-verdicts")
    sample = [n for numbers in by_status.values() for n in sample_source.sample(numbers, 40)]
    for number in sorted(sample):
        result = solve(preset, number, max_nodes=20_000_000)
        assert result.status.value == table[number][0], number
