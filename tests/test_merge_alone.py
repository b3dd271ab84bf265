"""``benchmarks/merge_alone.py`` and :mod:`cloversolve.runs.decided_alone`: the verdicts of deals
run again alone fill the ``?`` letters of a verdict file, its decided-alone record says where
each came from, anything else is refused before a file is written, and running it again
changes nothing. No deal is played: the verdict files and records are small made-up ones."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

import orjson
import pytest
from helpers import load_benchmark

from cloversolve.runs.decided_alone import (
    DecidedRun,
    MergeError,
    decided_alone_path,
    plan_merge,
    read_decided_alone,
    study_letters,
)
from cloversolve.runs.output import atomic_output
from cloversolve.runs.study import VerdictWriter
from cloversolve.runs.study_files import read_verdicts

BENCHMARKS = Path(__file__).resolve().parent.parent / "benchmarks"
STATUS = {"s": "solved", "u": "unsolvable", "?": "limit"}
#: A study's letters of deals 1..250: three ``?`` (deals 5, 120 and 250).
LETTERS = "".join("?" if n in (5, 120, 250) else "su"[n % 3 == 0] for n in range(1, 251))


@pytest.fixture
def merge(monkeypatch: pytest.MonkeyPatch) -> Iterator[ModuleType]:
    """``benchmarks/merge_alone.py`` as a module (it imports ``run_alone`` beside it)."""
    monkeypatch.syspath_prepend(str(BENCHMARKS))
    yield load_benchmark("merge_alone")


def write_verdicts(path: Path, preset: str, letters: str = LETTERS) -> Path:
    """A verdict file as a study of ``preset`` over deals 1..len(letters) at 10 s writes it."""
    with atomic_output(path) as out:
        writer = VerdictWriter(
            out,
            {
                "preset": preset,
                "first": 1,
                "max_nodes": None,
                "time_limit": 10.0,
                "max_memory": 2**29,
            },
        )
        writer.add([[STATUS[letter]] for letter in letters])
        writer.finish()
    return path


def write_record(path: Path, time_limit: float, **deals: list[tuple[int, str]]) -> Path:
    """A record as ``benchmarks/run_alone.py`` writes it: rows by preset."""
    record: dict = {"what": "test", "time_limit": time_limit, "columns": ["deal", "status"]}
    for preset, rows in deals.items():
        record[preset] = {"deals": [[number, status, "m", 1.0] for number, status in rows]}
    path.write_bytes(orjson.dumps(record))
    return path


def snapshot(folder: Path) -> dict[str, tuple[bytes, int]]:
    return {p.name: (p.read_bytes(), p.stat().st_mtime_ns) for p in sorted(folder.iterdir())}


@pytest.fixture
def study(tmp_path: Path) -> dict[str, Path]:
    """A cloverleaf verdict file, and two records: one at 30 s deciding deals 5 and 120 and
    leaving 250 undecided, one at 600 s deciding 250."""
    verdicts = tmp_path / "verdicts"
    verdicts.mkdir()
    return {
        "verdicts": write_verdicts(verdicts / "cloverleaf.verdicts", "cloverleaf"),
        "again": write_record(
            tmp_path / "again.json",
            30.0,
            cloverleaf=[(5, "solved"), (120, "unsolvable"), (250, "limit")],
        ),
        "longer": write_record(tmp_path / "longer.json", 600.0, cloverleaf=[(250, "solved")]),
    }


def run(merge: ModuleType, verdicts: list[Path], records: list[Path]) -> int:
    arguments = [*map(str, verdicts), "--records", *map(str, records)]
    return int(merge.main(arguments))


def test_the_records_fill_the_undecided_letters_and_say_where_each_came_from(
    merge: ModuleType, study: dict[str, Path]
) -> None:
    verdicts = study["verdicts"]
    header_before = verdicts.read_bytes().partition(b"\n")[0]
    assert run(merge, [verdicts], [study["again"], study["longer"]]) == 0
    header, letters = read_verdicts(verdicts)
    assert verdicts.read_bytes().partition(b"\n")[0] == header_before  # (the study's header)
    assert "?" not in letters
    expected = LETTERS[:4] + "s" + LETTERS[5:119] + "u" + LETTERS[120:249] + "s"
    assert letters == expected
    side = read_decided_alone(decided_alone_path(verdicts), "cloverleaf")
    assert {deal: (e.letter, e.record, e.time_limit) for deal, e in side.items()} == {
        5: ("s", "../again.json", 30.0),
        120: ("u", "../again.json", 30.0),
        250: ("s", "../longer.json", 600.0),
    }
    for entry in side.values():  # (each record named is found from the side record's folder)
        assert (verdicts.parent / entry.record).resolve() in (study["again"], study["longer"])
    assert study_letters(verdicts) == (header, LETTERS)  # the study's letters, read back


def test_running_it_again_changes_nothing(merge: ModuleType, study: dict[str, Path]) -> None:
    records = [study["again"], study["longer"]]
    assert run(merge, [study["verdicts"]], records) == 0
    before = snapshot(study["verdicts"].parent)
    assert run(merge, [study["verdicts"]], records) == 0
    assert run(merge, [study["verdicts"]], records[1:]) == 0
    assert snapshot(study["verdicts"].parent) == before


def test_an_undecided_row_leaves_its_letter_undecided(
    merge: ModuleType, study: dict[str, Path]
) -> None:
    assert run(merge, [study["verdicts"]], [study["again"]]) == 0
    _, letters = read_verdicts(study["verdicts"])
    assert [n + 1 for n, letter in enumerate(letters) if letter == "?"] == [250]
    assert sorted(read_decided_alone(decided_alone_path(study["verdicts"]), "cloverleaf")) == [
        5,
        120,
    ]


@pytest.mark.parametrize(
    ("rows", "refusal"),
    [
        ([(6, "solved")], r"deal 6 is not undecided \(\?\) in .*: it holds 'u'"),
        ([(251, "solved")], "deal 251 is not one of"),
        ([(5, "won")], "deal 5 has the status 'won'"),
    ],
    ids=["decided-deal", "outside-the-file", "not-a-verdict"],
)
def test_a_record_deal_that_is_not_an_undecided_deal_is_refused(
    merge: ModuleType,
    study: dict[str, Path],
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    rows: list[tuple[int, str]],
    refusal: str,
) -> None:
    bad = write_record(tmp_path / "bad.json", 30.0, cloverleaf=rows)
    before = snapshot(study["verdicts"].parent)
    assert run(merge, [study["verdicts"]], [study["again"], bad]) == 2
    error = capsys.readouterr().err
    assert error.startswith("merge_alone: error: ") and error.count("\n") == 1
    assert "bad.json" in error and re.search(refusal, error), error
    assert snapshot(study["verdicts"].parent) == before  # (the good record is not merged)


def test_a_record_of_another_preset_is_refused(
    merge: ModuleType, study: dict[str, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    other = write_record(tmp_path / "other.json", 30.0, alexander=[(5, "unsolvable")])
    before = snapshot(study["verdicts"].parent)
    assert run(merge, [study["verdicts"]], [other]) == 2
    assert "decides 1 deals of 'alexander', and no verdict file of 'alexander'" in (
        capsys.readouterr().err
    )
    assert snapshot(study["verdicts"].parent) == before
    with pytest.raises(MergeError, match="holds verdicts of \"cloverleaf\", not 'alexander'"):
        plan_merge(study["verdicts"], "alexander", [DecidedRun(other, 30.0, {5: "unsolvable"})])


def test_a_deal_decided_otherwise_by_a_later_record_is_refused(
    merge: ModuleType, study: dict[str, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert run(merge, [study["verdicts"]], [study["again"]]) == 0
    before = snapshot(study["verdicts"].parent)
    other = write_record(tmp_path / "other.json", 30.0, cloverleaf=[(5, "unsolvable")])
    assert run(merge, [study["verdicts"]], [other]) == 2
    assert "deal 5 is unsolvable, but '../again.json' decided it solved" in (
        capsys.readouterr().err
    )
    assert snapshot(study["verdicts"].parent) == before


def test_a_merge_cut_short_before_the_verdict_file_is_finished_by_running_it_again(
    merge: ModuleType, study: dict[str, Path]
) -> None:
    verdicts, records = study["verdicts"], [study["again"], study["longer"]]
    plan = plan_merge(
        verdicts, "cloverleaf", [DecidedRun(study["again"], 30.0, {5: "solved", 120: "unsolvable"})]
    )
    decided_alone_path(verdicts).write_bytes(plan.side_text())  # (and no more: cut short)
    assert read_verdicts(verdicts)[1] == LETTERS
    assert run(merge, [verdicts], records) == 0
    assert "?" not in read_verdicts(verdicts)[1]
    assert sorted(read_decided_alone(decided_alone_path(verdicts), "cloverleaf")) == [5, 120, 250]


def test_a_verdict_file_that_contradicts_its_decided_alone_record_is_refused(
    merge: ModuleType, study: dict[str, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    verdicts = study["verdicts"]
    assert run(merge, [verdicts], [study["again"]]) == 0
    letters = read_verdicts(verdicts)[1]
    write_verdicts(verdicts, "cloverleaf", letters[:4] + "u" + letters[5:])
    assert run(merge, [verdicts], [study["again"]]) == 2
    assert "lists deal 5 as 's', but" in capsys.readouterr().err


def test_run_alone_chooses_the_merged_deals_again(
    merge: ModuleType, study: dict[str, Path]
) -> None:
    """The command that chose the undecided deals chooses the same ones after the merge."""
    run_alone = load_benchmark("run_alone")
    chosen = run_alone.chosen_deals(study["verdicts"], None)
    assert chosen == {"cloverleaf": [5, 120, 250]}
    assert run(merge, [study["verdicts"]], [study["again"], study["longer"]]) == 0
    assert run_alone.chosen_deals(study["verdicts"], None) == chosen


def test_run_alone_chooses_the_slowest_deals_of_a_record_and_tabulates_them(
    tmp_path: Path,
) -> None:
    run_alone = load_benchmark("run_alone")
    rows = [[1, "solved", "m", 2.5, 900, 3.1], [2, "limit", "b", 30.0, 9000, 31.0]]
    rows += [[3, "unsolvable", "m", 7.0, 5000, 7.5], [4, "solved", "m", 0.5, 10, 1.2]]
    record = {"what": "test", "command": "run", "time_limit": 30.0, "columns": run_alone.COLUMNS}
    record["cloverleaf"] = {"deals": rows}
    record["alexander"] = {"deals": [[7, "solved", "m", 1.0, 5, 1.1]]}
    path = tmp_path / "record.json"
    path.write_bytes(orjson.dumps(record))
    chosen = run_alone.chosen_deals(path, None, 3)
    assert chosen == {"cloverleaf": [2, 3, 1], "alexander": [7]}
    table = run_alone.markdown(record).splitlines()
    assert "| cloverleaf | 3 | unsolvable | m | 7.0 | 5000 | 7.5 |" in table
    assert sum(line.startswith("| alexander | 7 |") for line in table) == 1
    verdicts = write_verdicts(tmp_path / "v.verdicts", "cloverleaf")
    with pytest.raises(run_alone.InputError, match="--slowest chooses deals of records"):
        run_alone.chosen_deals(verdicts, None, 3)


def test_run_alone_keeps_rows_of_one_node_budget_apart(tmp_path: Path) -> None:
    run_alone = load_benchmark("run_alone")
    known = write_record(tmp_path / "known.json", 30.0, cloverleaf=[(5, "solved")])
    out = tmp_path / "out.json"
    deals = {"cloverleaf": [5]}
    assert run_alone.known_rows(out, [known], 30.0, deals)
    assert not run_alone.known_rows(out, [known], 30.0, deals, 1000)
    partial = tmp_path / "out.json.partial"
    partial.write_bytes(b'{"time_limit": 30.0, "max_nodes": 1000}\n["cloverleaf", [5, "limit"]]\n')
    assert run_alone.read_partial(partial, 30.0, 1000) == {("cloverleaf", 5): [5, "limit"]}
    with pytest.raises(run_alone.InputError, match="--time-limit 30 --max-nodes 1000"):
        run_alone.read_partial(partial, 30.0)
