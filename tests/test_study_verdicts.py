"""The per-deal verdicts of the long studies in ``benchmarks/results/verdicts/`` (one letter a
deal: ``s`` solvable, ``u`` unsolvable, ``?`` undecided at the time limit) agree with their
study's counts and with the 1..10,000 data in ``tests/data``, and the solver reproduces a
sample of them. The deals the clover studies left undecided hold the verdicts of their runs
alone, each listed in its file's decided-alone record, and the solvability page counts them.
The clover studies at 30 s and at 5 s in ``benchmarks/results/studies_30s/`` and
``studies_5s/`` agree with their counts and, deal by deal, with the verdict files."""

import csv
import random
import re
from collections import Counter
from pathlib import Path

import orjson
import pytest
from helpers import load_benchmark

from cloversolve.games.registry import PRESETS
from cloversolve.runs.decided_alone import decided_alone_path, read_decided_alone, study_letters
from cloversolve.runs.study_files import read_verdicts
from cloversolve.solving.solver import solve

ROOT = Path(__file__).parent.parent
RESULTS = ROOT / "benchmarks" / "results"
#: Every preset has its study's verdicts (named here, so a missing file fails, not skips).
VERDICTS = [RESULTS / "verdicts" / f"{preset}.verdicts" for preset in sorted(PRESETS)]
#: The clover studies at 30 s per deal, over the deals their checkpoints hold so far.
STUDIES_30S = RESULTS / "studies_30s"
VERDICTS_30S = [STUDIES_30S / f"{preset}.verdicts" for preset in ("alexander", "cloverleaf")]
#: The clover studies at 5 s per deal, with the search whose slowest deals are timed in
#: ``clover_tail.md``, over the deals their checkpoints hold so far.
VERDICTS_5S = [
    RESULTS / "studies_5s" / f"{preset}.verdicts" for preset in ("alexander", "cloverleaf")
]
STATUS = {"s": "solved", "u": "unsolvable", "?": "limit"}
#: The deals the clover studies of 1..1,000,000 left undecided, run again alone at 30 s, and
#: those still undecided then, at 600 s; their verdicts are merged into the verdict files.
RUN_ALONE = [
    RESULTS / "study_1-1000000_undecided_again.json",
    RESULTS / "study_1-1000000_undecided_longer.json",
]
CLOVERS = ("cloverleaf", "alexander")


def test_every_preset_has_its_verdicts_and_no_other_file_is_there() -> None:
    assert set((RESULTS / "verdicts").glob("*.verdicts")) == set(VERDICTS)
    sides = {decided_alone_path(RESULTS / "verdicts" / f"{preset}.verdicts") for preset in CLOVERS}
    assert set((RESULTS / "verdicts").iterdir()) == set(VERDICTS) | sides


@pytest.mark.parametrize(
    "path", VERDICTS + VERDICTS_30S + VERDICTS_5S, ids=lambda p: f"{p.parent.name}/{p.stem}"
)
def test_verdicts_agree_with_their_study(path: Path) -> None:
    """The letters the study wrote (``?`` again where a deal decided alone was merged since)
    are counted as in its JSON."""
    header, letters = study_letters(path)
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
    _, letters = study_letters(path)  # (the study's verdicts; the merged deals are below)
    draw = random.Random(f"{path.stem}-study")
    for letter in "su":
        numbers = [i + 1 for i, c in enumerate(letters) if c == letter]
        for number in sorted(draw.sample(numbers, 15)):
            result = solve(path.stem, number, max_nodes=20_000_000)
            assert result.status.value == STATUS[letter], number


@pytest.mark.parametrize(
    "path", VERDICTS_30S + VERDICTS_5S, ids=lambda p: f"{p.parent.name}/{p.stem}"
)
def test_no_deal_changed_sides_between_the_clover_studies(path: Path) -> None:
    """Every deal that both a later clover study (30 s, 5 s) and the million-deal study decided
    has one verdict."""
    _, letters = read_verdicts(path)
    _, earlier = read_verdicts(RESULTS / "verdicts" / path.name)
    changed = [
        number
        for number, (mine, theirs) in enumerate(zip(letters, earlier, strict=False), start=1)
        if mine != theirs and "?" not in (mine, theirs)
    ]
    assert changed == []


def test_the_undecided_deals_run_again_are_those_of_the_30s_studies() -> None:
    """The record of the undecided deals of the 30 s studies run again alone lists exactly the
    ``?`` deals of each verdict file, its counts are those of its rows, and where the
    million-deal study decided one of those deals, the verdict run again is the same."""
    again = orjson.loads((STUDIES_30S / "undecided_again.json").read_bytes())
    for preset in CLOVERS:
        _, letters = read_verdicts(STUDIES_30S / f"{preset}.verdicts")
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
    again, longer = (orjson.loads(path.read_bytes()) for path in RUN_ALONE)
    for preset in CLOVERS:
        still = [row[0] for row in again[preset]["deals"] if row[1] == "limit"]
        assert [row[0] for row in longer[preset]["deals"]] == still


@pytest.mark.parametrize("preset", CLOVERS)
def test_the_undecided_deals_hold_the_verdicts_of_their_runs_alone(preset: str) -> None:
    """The million-deal clover files hold no ``?``: the deals their studies left undecided (all
    run again at 30 s) hold the verdicts of their runs alone, each merged deal's letter is its
    record's verdict, and the decided-alone record lists exactly those deals, each with the
    record it comes from and that record's time limit; their counts are the records'."""
    path = RESULTS / "verdicts" / f"{preset}.verdicts"
    _, letters = read_verdicts(path)
    _, studied = study_letters(path)
    assert "?" not in letters
    records = [(record, orjson.loads(record.read_bytes())) for record in RUN_ALONE]
    again = records[0][1][preset]["deals"]
    assert [row[0] for row in again] == [i + 1 for i, c in enumerate(studied) if c == "?"]
    side = decided_alone_path(path)
    merged = read_decided_alone(side, preset)
    decided = {}
    for record, data in records:
        rows = data[preset]["deals"]
        counts = Counter(row[1] for row in rows)
        assert (counts["solved"], counts["unsolvable"], counts["limit"]) == (
            data[preset]["solved"],
            data[preset]["unsolvable"],
            data[preset]["undecided"],
        )
        for number, status, *_ in rows:
            if status != "limit":
                assert number not in decided, number  # (no deal decided twice)
                decided[number] = (status, record, data["time_limit"])
    assert sorted(merged) == sorted(decided)
    for number, (status, record, time_limit) in decided.items():
        entry = merged[number]
        assert STATUS[letters[number - 1]] == STATUS[entry.letter] == status, number
        assert (side.parent / entry.record).resolve() == record.resolve(), number
        assert entry.time_limit == time_limit, number


def test_the_solver_reproduces_the_quickest_merged_deals() -> None:
    """The merged deals decided alone in under half a second have their letter's verdict
    (without a time limit, so the machine's speed does not matter)."""
    again = orjson.loads(RUN_ALONE[0].read_bytes())
    for preset in CLOVERS:
        _, letters = read_verdicts(RESULTS / "verdicts" / f"{preset}.verdicts")
        quick = [row[0] for row in again[preset]["deals"] if row[1] != "limit" and row[3] < 0.5]
        assert len(quick) >= 2
        for number in quick[:5]:
            result = solve(preset, number, max_nodes=20_000_000)
            assert result.status.value == STATUS[letters[number - 1]], number


def test_the_study_table_is_written_from_the_files() -> None:
    """``STUDY.md`` is what ``benchmarks/study.py --table-only`` writes: the studies' rows,
    and the verdict files counted with the deals decided alone since."""
    text = load_benchmark("study").table_text(RESULTS)
    assert (RESULTS / "STUDY.md").read_text(encoding="utf-8") == text
    assert "`verdicts/cloverleaf.decided-alone.json`" in text


def test_the_audit_report_is_of_the_merged_files() -> None:
    """``AUDIT.md`` is what ``benchmarks/audit.py --table-only`` writes; the clover audits ran
    on the files with their decided-alone deals merged, so they skipped none."""
    text = load_benchmark("audit").table_text()
    assert (RESULTS / "AUDIT.md").read_text(encoding="utf-8") == text
    for preset in CLOVERS:
        assert read_decided_alone(
            decided_alone_path(RESULTS / "verdicts" / f"{preset}.verdicts"), preset
        )
        summary = orjson.loads((RESULTS / f"audit_{preset}.json").read_bytes())
        assert summary["undecided_skipped"] == 0 and "skipped" not in text


#: A row of the table of docs/solvability.md: preset, first and last deal, counts.
_SOLVABILITY_ROW = re.compile(
    r"^\| ([a-z-]+) \| 1\.\.([\d,]+) \| ([\d,]+) \| ([\d,]+) \| ([\d,]+) \|"
)


def test_the_solvability_table_counts_the_verdict_files() -> None:
    """Each row of the solvability page's table counts its preset's verdict file, the merged
    deals included."""
    text = (ROOT / "docs" / "solvability.md").read_text(encoding="utf-8")
    rows = {
        m[1]: m.groups()[1:] for line in text.splitlines() if (m := _SOLVABILITY_ROW.match(line))
    }
    assert sorted(rows) == sorted(PRESETS)
    for preset, figures in rows.items():
        _, letters = read_verdicts(RESULTS / "verdicts" / f"{preset}.verdicts")
        counts = Counter(letters)
        expected = (len(letters), counts["s"], counts["u"], counts["?"])
        assert tuple(int(f.replace(",", "")) for f in figures) == expected, preset
