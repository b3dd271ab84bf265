"""The per-deal verdicts of the long studies in ``benchmarks/results/verdicts/`` (one letter a
deal: ``s`` solvable, ``u`` unsolvable, ``?`` undecided at the time limit) agree with their
study's counts and with the 1..10,000 data in ``tests/data``, and the solver reproduces a
sample of them. The clover studies at 30 s in ``benchmarks/results/studies_30s/`` agree with
their counts and, deal by deal, with the verdict files."""

import csv
import random
from collections import Counter
from pathlib import Path

import orjson
import pytest

from cloversolve.games.registry import PRESETS
from cloversolve.runs.study import read_verdicts
from cloversolve.solving.solver import solve

ROOT = Path(__file__).parent.parent
RESULTS = ROOT / "benchmarks" / "results"
#: Every preset has its study's verdicts (named here, so a missing file fails, not skips).
VERDICTS = [RESULTS / "verdicts" / f"{preset}.verdicts" for preset in sorted(PRESETS)]
#: The clover studies at 30 s per deal, over the deals their checkpoints hold so far.
STUDIES_30S = RESULTS / "studies_30s"
VERDICTS_30S = [STUDIES_30S / f"{preset}.verdicts" for preset in ("alexander", "cloverleaf")]
STATUS = {"s": "solved", "u": "unsolvable", "?": "limit"}


def test_every_preset_has_its_verdicts_and_no_other_file_is_there() -> None:
    assert set((RESULTS / "verdicts").glob("*.verdicts")) == set(VERDICTS)


@pytest.mark.parametrize("path", VERDICTS + VERDICTS_30S, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_verdicts_agree_with_their_study(path: Path) -> None:
    header, letters = read_verdicts(path)
    assert header["preset"] == path.stem and header["first"] == 1
    assert set(letters) <= set(STATUS)
    folder = RESULTS if path.parent.name == "verdicts" else path.parent
    study = orjson.loads((folder / f"study_{path.stem}.json").read_bytes())
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


@pytest.mark.parametrize("path", VERDICTS_30S, ids=lambda p: p.stem)
def test_no_deal_changed_sides_between_the_clover_studies(path: Path) -> None:
    """Every deal that both the 30 s study and the million-deal study decided has one verdict."""
    _, letters = read_verdicts(path)
    _, earlier = read_verdicts(RESULTS / "verdicts" / path.name)
    changed = [
        number
        for number, (mine, theirs) in enumerate(zip(letters, earlier, strict=False), start=1)
        if mine != theirs and "?" not in (mine, theirs)
    ]
    assert changed == []


@pytest.mark.parametrize(
    ("again_file", "folder"),
    [
        (RESULTS / "study_1-1000000_undecided_again.json", RESULTS / "verdicts"),
        (STUDIES_30S / "undecided_again.json", STUDIES_30S),
    ],
    ids=["1-1000000", "30s"],
)
def test_the_undecided_deals_run_again_are_those_of_the_studies(
    again_file: Path, folder: Path
) -> None:
    """The record of the undecided deals run again alone lists exactly the ``?`` deals of each
    verdict file, its counts are those of its rows, and where the million-deal study decided
    one of those deals, the verdict run again is the same."""
    again = orjson.loads(again_file.read_bytes())
    for preset in ("cloverleaf", "alexander"):
        _, letters = read_verdicts(folder / f"{preset}.verdicts")
        _, million = read_verdicts(RESULTS / "verdicts" / f"{preset}.verdicts")
        rows = again[preset]["deals"]
        assert [row[0] for row in rows] == [i + 1 for i, c in enumerate(letters) if c == "?"]
        for number, status, *_ in rows:
            if "limit" not in (status, STATUS[million[number - 1]]):
                assert STATUS[million[number - 1]] == status, number
        counts = Counter(row[1] for row in rows)
        assert (counts["solved"], counts["unsolvable"], counts["limit"]) == (
            again[preset]["solved"],
            again[preset]["unsolvable"],
            again[preset]["undecided"],
        )


def test_the_deals_run_with_more_time_are_those_still_undecided() -> None:
    """The record of the longer runs holds exactly the deals still undecided at 30 s."""
    again = orjson.loads((RESULTS / "study_1-1000000_undecided_again.json").read_bytes())
    longer = orjson.loads((RESULTS / "study_1-1000000_undecided_longer.json").read_bytes())
    for preset in ("cloverleaf", "alexander"):
        still = [row[0] for row in again[preset]["deals"] if row[1] == "limit"]
        assert [row[0] for row in longer[preset]["deals"]] == still
