"""Checkpoints: runs that resume on any backend, files that are not theirs refused and kept,
torn or forged records, and interrupted runs that say what they saved."""

from __future__ import annotations

import hashlib
import itertools
import json
import re
from collections.abc import Callable
from pathlib import Path

import orjson
import pytest
from helpers import (
    BUILD_DEALS,
    BUILD_PRESET,
    PER_DIFFICULTY,
    STUDY_DEALS,
    STUDY_PRESET,
    backend,
    run,
    without_timing,
)

import cloversolve.catalogue.build as catalogue_module
import cloversolve.runs.study as study_module
from cloversolve.catalogue.build import build, checkpoint_path
from cloversolve.runs.checkpoints import Checkpoint, CheckpointError
from cloversolve.runs.executors import open_pool
from cloversolve.runs.study import study


class Interrupt(Exception):
    pass


@pytest.mark.dask
@pytest.mark.parametrize(("first", "then"), [("cluster", "jobs2"), ("jobs2", "cluster")])
def test_an_interrupted_client_resumes_on_either_backend(
    first: str,
    then: str,
    request: pytest.FixtureRequest,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    reference = study(STUDY_PRESET, STUDY_DEALS, verdicts=tmp_path / "ref.verdicts")
    checkpoint, verdicts = tmp_path / "run.ckpt", tmp_path / "run.verdicts"
    real_add = study_module.StudyReport.add
    calls = itertools.count()

    def add_then_stop(self: study_module.StudyReport, results: list) -> None:
        if next(calls) == 3:
            raise Interrupt
        real_add(self, results)

    monkeypatch.setattr(study_module.StudyReport, "add", add_then_stop)
    with pytest.raises(Interrupt):
        study(
            STUDY_PRESET,
            STUDY_DEALS,
            checkpoint=checkpoint,
            verdicts=verdicts,
            chunk_size=50,
            **backend(first, request),
        )
    assert not verdicts.exists()  # no half-written verdict file ...
    assert len(checkpoint.read_bytes().splitlines()) >= 1 + 3  # ... but finished chunks kept
    monkeypatch.setattr(study_module.StudyReport, "add", real_add)
    resumed = study(
        STUDY_PRESET,
        STUDY_DEALS,
        checkpoint=checkpoint,
        verdicts=verdicts,
        **backend(then, request),
    )
    assert without_timing(resumed.to_json()) == without_timing(reference.to_json())
    assert verdicts.read_bytes() == (tmp_path / "ref.verdicts").read_bytes()


def test_a_checkpoint_in_use_by_another_run_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "c.ckpt"
    first = checkpoint_of(path)
    list(first.records(range(1, 10)))
    first.open()
    first.commit(range(1, 3), [1, 2])
    second = checkpoint_of(path)
    assert list(second.records(range(1, 10))) == [(range(1, 3), [1, 2])]
    with pytest.raises(CheckpointError, match="in use by another run"):
        second.open()
    first.commit(range(3, 4), [3])  # (the first run's file as it was)
    first.close()
    second.open()  # free once the first run has closed it
    second.commit(range(3, 5), [3, 4])
    second.close()
    assert [c for c, _ in checkpoint_of(path).records(range(1, 10))] == [range(1, 3), range(3, 5)]


def checkpoint_of(path: Path) -> Checkpoint:
    return Checkpoint(path, {"kind": "test", "preset": "x"})


def test_checkpoint_header_is_on_disk_before_any_deal(tmp_path: Path) -> None:
    path = tmp_path / "c.ckpt"
    seen: list[bytes] = []

    def look(number: int) -> int:
        seen.append(path.read_bytes())
        return number

    with open_pool(1) as pool:
        from cloversolve.runs.checkpoints import run_checkpointed

        list(run_checkpointed(pool, look, range(1, 3), checkpoint_of(path)))
    assert seen[0].count(b"\n") == 1 and orjson.loads(seen[0])["kind"] == "test"


@pytest.mark.parametrize(
    "content", [b"", b'{"kind": "catalogue", "other": 1}\n', b'{"format":"cloversolve-che']
)
def test_an_empty_or_header_only_checkpoint_is_a_fresh_start(
    tmp_path: Path, content: bytes
) -> None:
    path = tmp_path / "ckpt"
    path.write_bytes(content)
    reference = study(STUDY_PRESET, range(1, 50))
    again = study(STUDY_PRESET, range(1, 50), checkpoint=path)
    assert without_timing(again.to_json()) == without_timing(reference.to_json())


def _route_and_layout_files() -> list[bytes]:
    route = run("solve", "thirteen", "1", "--json")
    layout = run("deal", "thirteen", "1", "--json")
    return [route.stdout.encode(), layout.stdout.encode()]


@pytest.mark.parametrize(
    "content",
    [b"my precious notes\n", b"my notes", b"line one\nline two\n", *_route_and_layout_files()],
    # (ids that do not hold the route file's timing: every worker of a parallel run must
    # collect the same tests)
    ids=["notes", "notes-unended", "two-lines", "route-file", "layout-file"],
)
def test_a_file_that_is_not_a_checkpoint_is_refused_and_kept(
    tmp_path: Path, content: bytes
) -> None:
    path = tmp_path / "notes.txt"
    path.write_bytes(content)
    result = run("study", "thirteen", "--deals", "1..10", "--checkpoint", str(path))
    assert result.exit_code == 2
    assert result.output == (
        f"cloversolve: error: {str(path)!r} is not a cloversolve checkpoint (its first line "
        "is not a checkpoint header); refusing to overwrite it\n"
    )
    assert path.read_bytes() == content
    with pytest.raises(CheckpointError, match="is not a cloversolve checkpoint"):
        list(checkpoint_of(path).records(range(1, 10)))


def _saved_checkpoint(path: Path) -> Checkpoint:
    saved = checkpoint_of(path)
    with open_pool(1) as pool:
        from cloversolve.runs.checkpoints import run_checkpointed

        list(run_checkpointed(pool, abs, range(1, 31), saved, chunk_size=10))
    saved.close()
    return checkpoint_of(path)


@pytest.mark.parametrize(
    ("line", "why"),
    [
        (b"5", "not a chunk record"),
        (b'{"number": 31, "result": {}}', "not a chunk record"),
        (b'{"first": 31, "results": [31], "digest": "00"}', "digest"),
    ],
)
def test_checkpoint_lines_that_are_not_records_of_this_run_are_refused(
    tmp_path: Path, line: bytes, why: str
) -> None:
    path = tmp_path / "c.ckpt"
    _saved_checkpoint(path)
    with path.open("ab") as handle:
        handle.write(line + b"\n")
    with pytest.raises(CheckpointError, match=why):
        list(checkpoint_of(path).records(range(1, 100)))


def test_an_edited_checkpoint_record_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "c.ckpt"
    _saved_checkpoint(path)
    path.write_bytes(path.read_bytes().replace(b"[11,12,13", b"[11,99,13"))
    with pytest.raises(CheckpointError, match="line 3 .*digest"):
        list(checkpoint_of(path).records(range(1, 100)))


def _never(number: int) -> int:
    raise AssertionError(f"deal {number} was decided again")


@pytest.mark.parametrize("stop", [31, 25, 16, 11, 3])
def test_a_checkpoint_of_a_longer_run_resumes_a_shorter_one(tmp_path: Path, stop: int) -> None:
    path = tmp_path / "c.ckpt"
    _saved_checkpoint(path)  # deals 1..30 in chunks of 10
    before = path.read_bytes()
    saved = checkpoint_of(path)
    with open_pool(1) as pool:
        from cloversolve.runs.checkpoints import run_checkpointed

        chunks = list(run_checkpointed(pool, _never, range(1, stop), saved))
    saved.close()
    assert [n for _, results in chunks for n in results] == list(range(1, stop))
    assert path.read_bytes() == before  # the deals past the range are kept


def test_a_study_resumes_from_the_checkpoint_of_a_longer_study(tmp_path: Path) -> None:
    path = tmp_path / "long.ckpt"
    study(STUDY_PRESET, range(1, 120), checkpoint=path, chunk_size=7)
    before = path.read_bytes()
    short = study(STUDY_PRESET, range(1, 40), checkpoint=path)
    assert without_timing(short.to_json()) == without_timing(
        study(STUDY_PRESET, range(1, 40)).to_json()
    )
    assert short.work.deals == 0 and path.read_bytes() == before


def test_a_checkpoint_of_another_first_deal_is_refused_plainly(tmp_path: Path) -> None:
    path = tmp_path / "c.ckpt"
    _saved_checkpoint(path)
    with pytest.raises(CheckpointError, match=r"starts at deal 1, this run at deal 11: .*1\.\.B"):
        list(checkpoint_of(path).records(range(11, 100)))


def test_an_interrupted_study_says_how_many_deals_its_checkpoint_keeps(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "x.ckpt"
    real_add = study_module.StudyReport.add
    calls = itertools.count()

    def add_then_stop(self: study_module.StudyReport, results: list) -> None:
        if next(calls) == 3:
            raise KeyboardInterrupt
        real_add(self, results)

    monkeypatch.setattr(study_module.StudyReport, "add", add_then_stop)
    args = ["study", STUDY_PRESET, "--deals", "1..100", "--chunk-size", "10"]
    result = run(*args, "--checkpoint", str(path))
    assert result.exit_code == 130
    saved = sum(len(orjson.loads(line)["results"]) for line in path.read_bytes().splitlines()[1:])
    assert saved == 40  # four chunks recorded; the fourth stopped before it was tallied
    assert result.output.splitlines()[-1] == (
        f"cloversolve: interrupted; 40 deals are saved in {str(path)!r}, run the same "
        "command again to resume"
    )
    monkeypatch.setattr(study_module.StudyReport, "add", real_add)
    without = run(*args)
    assert without.exit_code == 0


def test_an_interruption_before_the_checkpoint_exists_says_only_interrupted(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def interrupted_while_workers_start(*args: object, **kwargs: object) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(study_module, "open_pool", interrupted_while_workers_start)
    path = tmp_path / "never.ckpt"
    args = ["study", STUDY_PRESET, "--deals", "1..100", "--checkpoint", str(path)]
    result = run(*args)
    assert result.exit_code == 130 and not path.exists()
    assert result.output == "cloversolve: interrupted\n"  # no "0 deals are saved"


@pytest.mark.parametrize(
    ("before", "now", "shown"),
    [
        (["--time-limit", "5"], ["--time-limit", "7"], "time_limit: 5.0 there, 7.0 here"),
        ([], ["--max-nodes", "100"], "max_nodes: not set there, 100 here"),
    ],
)
def test_a_checkpoint_of_other_parameters_names_them(
    before: list[str], now: list[str], shown: str, tmp_path: Path
) -> None:
    path = tmp_path / "run.ckpt"
    args = ["study", STUDY_PRESET, "--deals", "1..20", "--checkpoint", str(path)]
    assert run(*args, *before).exit_code == 0
    result = run(*args, *now)
    assert result.exit_code == 2
    assert result.output == (
        f"cloversolve: error: checkpoint {str(path)!r} belongs to a run with other parameters "
        f"({shown}); give the same parameters to resume it, or give another checkpoint file\n"
    )


def test_a_catalogue_checkpoint_of_another_build_is_named_in_one_short_line(
    tmp_path: Path,
) -> None:
    """Another preset's build differs in its preset and in many fields of its grading rule:
    the message names the first with their values and counts the rest, no object shown."""
    out = tmp_path / "x.json"
    fifteen = Checkpoint(
        checkpoint_path(out),
        catalogue_module._checkpoint_header("fifteen", catalogue_module.grading_rule("fifteen")),
    )
    checkpoint_path(out).write_bytes(fifteen.header_bytes + b"\n" + b'{"first": 1}\n')
    result = run(
        "catalogue", "build", "thirteen", "--deals", "1..9", "--per-difficulty", "1",
        "--out", str(out),
    )  # fmt: skip
    assert result.exit_code == 2 and result.stdout == ""
    line = result.stderr.strip()
    assert "\n" not in line and "{" not in line and len(line) < 300 + len(str(out)), line
    assert "(preset: 'fifteen' there, 'thirteen' here; grading." in line
    assert re.search(r"; \d+ more in grading\)", line), line


def stop_builds_at_chunk(
    monkeypatch: pytest.MonkeyPatch, index: int, error: type[BaseException] = KeyboardInterrupt
) -> Callable[[], None]:
    """Make catalogue builds raise ``error`` when chunk ``index`` (from 0) reaches the
    selection; the function returned puts the real selection back."""
    real_advance = catalogue_module._Selection.advance
    calls = itertools.count()

    def advance_then_stop(self, chunk, results):  # type: ignore[no-untyped-def]
        if next(calls) == index:
            raise error
        real_advance(self, chunk, results)

    monkeypatch.setattr(catalogue_module._Selection, "advance", advance_then_stop)
    return lambda: monkeypatch.setattr(catalogue_module._Selection, "advance", real_advance)


def test_an_interrupted_build_says_how_many_deals_its_checkpoint_keeps(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    out = tmp_path / "cat.json"
    stop_builds_at_chunk(monkeypatch, 2)
    args = ["catalogue", "build", BUILD_PRESET, "--deals", "1..399", "--per-difficulty", "2"]
    result = run(*args, "--out", str(out), "--chunk-size", "3")
    assert result.exit_code == 130 and not out.exists()
    assert result.output.splitlines()[-1] == (
        f"cloversolve: interrupted; 9 deals are saved in {str(checkpoint_path(out))!r}, "
        "run the same command again to resume"
    )


@pytest.mark.parametrize(
    ("tail", "dropped"), [(b'{"first": 31, "resu', 1), (b"\n", 0), (b"  \n", 0)]
)
def test_a_torn_last_line_is_dropped_and_counted(tail: bytes, dropped: int, tmp_path: Path) -> None:
    path = tmp_path / "c.ckpt"
    _saved_checkpoint(path)
    with path.open("ab") as handle:
        handle.write(tail)
    saved = checkpoint_of(path)
    chunks = list(saved.records(range(1, 100)))
    assert [c for c, _ in chunks] == [range(1, 11), range(11, 21), range(21, 31)]
    assert saved.dropped == dropped  # (a blank line held no deals: no note of a loss)
    saved.open()  # resuming cuts the torn line off
    saved.close()
    assert path.read_bytes().endswith(b"}\n") and path.read_bytes().count(b"\n") == 1 + 3


def test_a_damaged_line_before_the_last_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "c.ckpt"
    _saved_checkpoint(path)
    header, first, *rest = path.read_bytes().splitlines(keepends=True)
    path.write_bytes(header + first[: len(first) // 2] + b"\n" + b"".join(rest))
    with pytest.raises(CheckpointError, match="line 2 is damaged"):
        list(checkpoint_of(path).records(range(1, 100)))


@pytest.mark.parametrize(
    ("result", "why"),
    [
        (["bogus", "route-found", 1, 0.1], 'status "bogus"'),
        (["solved", "nonsense", 1, 0.1], 'method "nonsense"'),
        (["solved", "route-found", -5, 0.1], "nodes -5"),
        (["solved", "route-found", 1, "NaN"], 'seconds "NaN"'),
        ([1, 2, 3], "[1,2,3] is not"),
        (None, "null is not"),
    ],
)
def test_a_forged_study_record_is_refused_in_one_line(
    tmp_path: Path, result: object, why: str
) -> None:
    path = tmp_path / "s.ckpt"
    args = ["study", STUDY_PRESET, "--deals", "1..30", "--chunk-size", "10", "--no-progress"]
    assert run(*args, "--checkpoint", str(path)).exit_code == 0
    header, first, *rest = path.read_bytes().splitlines(keepends=True)
    saved = Checkpoint(path, {})
    saved.header_bytes = orjson.dumps(orjson.loads(header), option=orjson.OPT_SORT_KEYS)
    saved.key = hashlib.sha256(saved.header_bytes).digest()
    record = orjson.loads(first)
    record["results"][3] = result
    record["digest"] = saved.digest(record["first"], record["results"])  # a valid digest
    path.write_bytes(header + orjson.dumps(record) + b"\n" + b"".join(rest))
    refused = run(*args, "--checkpoint", str(path))
    assert refused.exit_code == 2, refused.output
    lines = refused.stderr.splitlines()
    assert len(lines) == 1 and "line 2 is not a record of this run (deal 4: " in lines[0]
    assert why in lines[0]


def _torn(path: Path) -> None:
    """Cut the last line of ``path`` short, as a kill during a write does."""
    data = path.read_bytes()
    path.write_bytes(data[: data.rstrip(b"\n").rfind(b"\n") + 20])


def test_a_resumed_study_and_build_say_they_dropped_a_torn_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    checkpoint = tmp_path / "s.ckpt"
    args = ["study", STUDY_PRESET, "--deals", "1..60", "--chunk-size", "10", "--no-progress"]
    first = run(*args, "--json", "--checkpoint", str(checkpoint))
    _torn(checkpoint)
    again = run(*args, "--json", "--checkpoint", str(checkpoint))
    assert again.exit_code == 0 and json.loads(again.stdout) != {}
    assert without_timing(json.loads(again.stdout)) == without_timing(json.loads(first.stdout))
    assert again.stderr == (
        f"resuming from {str(checkpoint)!r}: 50 of 60 deals done\n"
        f"note: dropped 1 line of checkpoint {str(checkpoint)!r} cut short by an interrupted "
        "write (or unreadable); any deals they held were done again\n"
    )
    out = tmp_path / "cat.json"
    build_args = ["catalogue", "build", BUILD_PRESET, "--deals", "1..399", "--per-difficulty"]
    build_args += ["2", "--out", str(out), "--chunk-size", "3", "--no-progress"]
    undo = stop_builds_at_chunk(monkeypatch, 4)
    assert run(*build_args).exit_code == 130
    undo()
    _torn(checkpoint_path(out))
    built = run(*build_args)
    assert built.exit_code == 0, built.output
    resumed, dropped = built.stderr.splitlines()[:2]
    assert resumed.startswith(f"resuming from {str(checkpoint_path(out))!r}: ")
    assert dropped.startswith(
        f"note: dropped 1 line of checkpoint {str(checkpoint_path(out))!r} cut short"
    )


def test_a_resumed_record_whose_route_does_not_win_is_not_listed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    out = tmp_path / "forged.json"
    undo = stop_builds_at_chunk(monkeypatch, 3, Interrupt)
    with pytest.raises(Interrupt):
        build(BUILD_PRESET, BUILD_DEALS, PER_DIFFICULTY, out, chunk_size=2)
    undo()
    path = checkpoint_path(out)
    header, *records = path.read_bytes().splitlines()
    saved = Checkpoint(path, {})
    saved.header_bytes = orjson.dumps(orjson.loads(header), option=orjson.OPT_SORT_KEYS)
    saved.key = __import__("hashlib").sha256(saved.header_bytes).digest()
    forged = []
    for line in records:
        record = orjson.loads(line)
        for result in record["results"]:
            if result["status"] == "solved" and not forged:
                result["route"] = result["route"][:-1]  # one move short of the win
                forged.append(result["number"])
        record["digest"] = saved.digest(record["first"], record["results"])
        path.write_bytes(path.read_bytes().replace(line, orjson.dumps(record)))
    assert forged
    report = build(BUILD_PRESET, BUILD_DEALS, PER_DIFFICULTY, out)
    assert [problem.number for problem in report.rejected] == forged
    assert "route does not replay to a win" in report.rejected[0].message
    assert forged[0] not in [entry["number"] for entry in orjson.loads(out.read_bytes())["deals"]]
