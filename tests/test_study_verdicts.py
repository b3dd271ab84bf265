"""The per-deal verdicts of the long studies in ``benchmarks/results/verdicts/`` (one letter a
deal: ``s`` solvable, ``u`` unsolvable, ``?`` undecided at the time limit) agree with their
study's counts and with the 1..10,000 data in ``tests/data``, and the solver reproduces a
sample of them."""

import csv
import random
from collections import Counter
from pathlib import Path

import orjson
import pytest

from cloversolve.games.presets import PRESETS
from cloversolve.runs.study import read_verdicts
from cloversolve.solving.solver import solve

ROOT = Path(__file__).parent.parent
RESULTS = ROOT / "benchmarks" / "results"
#: Every preset has its study's verdicts (named here, so a missing file fails, not skips).
VERDICTS = [RESULTS / "verdicts" / f"{preset}.verdicts" for preset in sorted(PRESETS)]
STATUS = {"s": "solved", "u": "unsolvable", "?": "limit"}


def test_every_preset_has_its_verdicts_and_no_other_file_is_there() -> None:
    assert set((RESULTS / "verdicts").glob("*.verdicts")) == set(VERDICTS)


@pytest.mark.parametrize("path", VERDICTS, ids=lambda p: p.stem)
def test_verdicts_agree_with_their_study(path: Path) -> None:
    header, letters = read_verdicts(path)
    assert header["preset"] == path.stem and header["first"] == 1
    assert set(letters) <= set(STATUS)
    study = orjson.loads((RESULTS / f"study_{path.stem}.json").read_bytes())
    assert study["deals"] == {"first": 1, "last": len(letters), "count": len(letters)}
    counts = Counter(letters)
    assert (counts["s"], counts["u"], counts["?"]) == (
        study["solvable"],
        study["unsolvable"],
        study["undecided"],
    )
    assert study["budget"]["time_limit"] == header["time_limit"]


def first_ten_thousand(path: Path) -> Path:
    return ROOT / "tests" / "data" / f"{path.stem}_verdicts_1_10000.csv"


#: The presets whose verdicts of deals 1..10,000 are committed in tests/data.
FIRST_TEN_THOUSAND = ["alexander", "cloverleaf", "thirteen", "thirteen-return"]


def test_the_first_ten_thousand_are_committed_for_those_presets_only() -> None:
    committed = sorted(p.stem for p in VERDICTS if first_ten_thousand(p).exists())
    assert committed == FIRST_TEN_THOUSAND


@pytest.mark.parametrize(
    "path", [p for p in VERDICTS if p.stem in FIRST_TEN_THOUSAND], ids=lambda p: p.stem
)
def test_verdicts_agree_with_the_committed_first_ten_thousand(path: Path) -> None:
    data = first_ten_thousand(path)
    _, letters = read_verdicts(path)
    with data.open(newline="") as handle:
        for row in csv.DictReader(handle):
            number, status = int(row["number"]), row["status"]
            mine = STATUS[letters[number - 1]]
            if "limit" not in (status, mine):
                assert mine == status, number


@pytest.mark.parametrize("path", VERDICTS, ids=lambda p: p.stem)
def test_the_solver_reproduces_a_sample(path: Path) -> None:
    _, letters = read_verdicts(path)
    draw = random.Random(f"{path.stem}-study")
    for letter in "su":
        numbers = [i + 1 for i, c in enumerate(letters) if c == letter]
        for number in sorted(draw.sample(numbers, 15)):
            result = solve(path.stem, number, max_nodes=20_000_000)
            assert result.status.value == STATUS[letter], number


def test_the_undecided_deals_run_again_are_those_of_the_studies() -> None:
    """The record of the undecided deals run again with a later search lists exactly the ``?``
    deals of each verdict file, and its counts are those of its rows."""
    again = orjson.loads((RESULTS / "study_1-1000000_undecided_again.json").read_bytes())
    for preset in ("cloverleaf", "alexander"):
        _, letters = read_verdicts(RESULTS / "verdicts" / f"{preset}.verdicts")
        rows = again[preset]["deals"]
        assert [row[0] for row in rows] == [i + 1 for i, c in enumerate(letters) if c == "?"]
        counts = Counter(row[1] for row in rows)
        assert (counts["solved"], counts["unsolvable"], counts["limit"]) == (
            again[preset]["solved"],
            again[preset]["unsolvable"],
            again[preset]["undecided"],
        )
