"""Output files: names checked before any work starts (empty, a folder, a pipe, a device, a
dash, too long, the same file twice), links written through, and atomic writes."""

from __future__ import annotations

import json
import os
import stat
from pathlib import Path

import pytest
from helpers import BUILD_PRESET, STUDY_PRESET, run

import cloversolve.catalogue.build as catalogue_module
import cloversolve.cli.bench as cli_bench_module
import cloversolve.runs.output as output_module
import cloversolve.runs.study as study_module
from cloversolve.catalogue.build import checkpoint_path
from cloversolve.runs.output import (
    OutputPathError,
    atomic_output,
    check_output_folder,
    check_output_path,
    write_atomic,
)
from cloversolve.runs.study_files import read_verdicts


@pytest.mark.parametrize(
    ("name", "why"),
    [
        ("", "empty"),
        (".", "is a directory"),
        ("missing/out.json", "no folder"),
        ("/sys/out.json", "cannot write"),
    ],
)
def test_unusable_out_files_fail_before_any_grading(
    name: str, why: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    graded: list[int] = []
    monkeypatch.setattr(catalogue_module, "grade_worker", lambda *args: graded.append(1))
    with pytest.raises(OutputPathError, match=why):
        check_output_path(name, "catalogue")
    result = run(
        "catalogue", "build", "fifteen", "--deals", "1..50", "--per-difficulty", "1", "--out", name
    )
    assert result.exit_code != 0 and not graded
    assert list(tmp_path.iterdir()) == []  # no stray temporary or checkpoint file


def _special_files(folder: Path) -> dict[str, Path]:
    fifo = folder / "fifo"
    os.mkfifo(fifo)
    device = folder / "device.json"
    device.symlink_to(os.devnull)  # a link to a device: writing it must not replace the link
    return {"a named pipe": fifo, "a character device": device, "a directory": folder}


def test_outputs_that_are_not_regular_files_are_refused(tmp_path: Path) -> None:
    for kind, path in _special_files(tmp_path).items():
        with pytest.raises(OutputPathError, match=f"is {kind}"):
            check_output_path(path, "catalogue")
    with pytest.raises(OutputPathError, match="'/dev/full' is a character device"):
        check_output_path("/dev/full", "catalogue")
    with (
        pytest.raises(OutputPathError, match="is a named pipe"),
        atomic_output(tmp_path / "fifo") as out,
    ):
        out.write(b"never")
    assert stat_kind(tmp_path / "fifo") == "fifo"


def stat_kind(path: Path) -> str:
    return "fifo" if stat.S_ISFIFO(path.lstat().st_mode) else "other"


@pytest.mark.parametrize("option", ["--verdicts", "--checkpoint"])
def test_study_outputs_that_are_not_regular_files_are_refused_before_any_deal(
    tmp_path: Path, option: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    decided: list[int] = []
    monkeypatch.setattr(study_module, "study_deal", lambda *args: decided.append(1))
    for kind, path in _special_files(tmp_path).items():
        if kind == "a directory":
            continue
        result = run("study", STUDY_PRESET, "--deals", "1..5", option, str(path))
        assert result.exit_code == 2, (kind, result.output)
        assert result.output == (
            f"cloversolve: error: bad {option[2:]} file: {str(path)!r} is {kind}, not a "
            "regular file\n"
        )
    assert not decided and (tmp_path / "device.json").is_symlink()


def test_one_file_for_verdicts_and_checkpoint_is_refused_before_any_deal(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    decided: list[int] = []
    monkeypatch.setattr(study_module, "study_deal", lambda *args: decided.append(1))
    same = tmp_path / "same.txt"
    args = ["study", STUDY_PRESET, "--deals", "1..5", "--verdicts", str(same)]
    result = run(*args, "--checkpoint", str(same))
    assert result.exit_code == 2, result.output
    assert result.output == (
        f"cloversolve: error: the verdicts and the checkpoint are both {str(same)!r}\n"
    )
    assert not decided and not same.exists()


def test_outputs_are_written_through_symbolic_links(tmp_path: Path) -> None:
    (tmp_path / "real").mkdir()
    target = tmp_path / "real" / "verdicts.txt"
    earlier = {"format": "cloversolve-verdicts", "preset": STUDY_PRESET, "first": 1}
    target.write_bytes(json.dumps(earlier).encode() + b"\n")  # an earlier verdict file
    link = tmp_path / "link.verdicts"
    link.symlink_to(target)
    dangling = tmp_path / "new.verdicts"
    dangling.symlink_to(tmp_path / "real" / "new.txt")
    for path in (link, dangling):
        result = run("study", STUDY_PRESET, "--deals", "1..5", "--verdicts", str(path))
        assert result.exit_code == 0, result.output
        assert path.is_symlink()
        assert read_verdicts(path)[1] == read_verdicts(path.resolve())[1] != ""
    assert sorted(p.name for p in (tmp_path / "real").iterdir()) == ["new.txt", "verdicts.txt"]
    write_atomic(link, b"through the link")
    assert link.is_symlink() and target.read_bytes() == b"through the link"


def test_atomic_writes_never_open_a_file_already_at_the_temporary_name(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    victim = tmp_path / "victim.txt"
    victim.write_bytes(b"untouched")
    target = tmp_path / "out.json"
    tokens = iter(["aa", "aa", "bb"])  # the second try meets the planted link again
    monkeypatch.setattr(output_module.secrets, "token_hex", lambda size: next(tokens))
    planted = tmp_path / f".out.json.{os.getpid()}.aa.tmp"
    planted.symlink_to(victim)  # a link planted at the first name tried
    write_atomic(target, b"new content")
    assert target.read_bytes() == b"new content" and victim.read_bytes() == b"untouched"
    assert planted.is_symlink() and sorted(p.name for p in tmp_path.iterdir()) == sorted(
        [planted.name, "out.json", "victim.txt"]
    )
    mask = os.umask(0o022)
    os.umask(mask)
    assert stat.S_IMODE(target.stat().st_mode) == 0o666 & ~mask


def test_atomic_writes_reach_a_file_whose_name_is_as_long_as_names_go(tmp_path: Path) -> None:
    longest = os.pathconf(tmp_path, "PC_NAME_MAX")
    target = tmp_path / ("v" * longest)
    write_atomic(target, b"content")  # (its temporary file's name is no longer)
    assert [p.name for p in tmp_path.iterdir()] == [target.name]
    assert target.read_bytes() == b"content"


@pytest.mark.parametrize("option", ["--checkpoint", "--out"])
def test_a_name_too_long_for_an_output_or_its_checkpoint_is_refused_in_one_line(
    option: str, tmp_path: Path
) -> None:
    longest = os.pathconf(tmp_path, "PC_NAME_MAX")
    if option == "--out":  # (a name that fits, but not with ``.checkpoint`` after it)
        name = "c" * (longest - 3)
        command = ["catalogue", "build", BUILD_PRESET, "--per-difficulty", "1"]
    else:
        name, command = "c" * (longest + 1), ["study", STUDY_PRESET]
    result = run(*command, "--deals", "1..50", option, str(tmp_path / name))
    assert result.exit_code == 2
    assert result.output.startswith("cloversolve: error: bad ") and result.output.count("\n") == 1
    assert "File name too long" in result.output and list(tmp_path.iterdir()) == []


@pytest.mark.parametrize(
    "args",
    [
        [
            "catalogue",
            "build",
            BUILD_PRESET,
            "--deals",
            "1..50",
            "--per-difficulty",
            "1",
            "--out",
            "-",
        ],
        ["study", STUDY_PRESET, "--deals", "1..5", "--verdicts", "-"],
        ["bench", STUDY_PRESET, "--deals", "1..5", "--out", "-"],  # (a folder)
    ],
)
def test_a_dash_for_an_output_file_is_refused_not_taken_as_a_file_name(
    args: list[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    result = run(*args)
    assert result.exit_code == 2
    assert result.output.startswith("cloversolve: error: bad ") and "'-'" in result.output
    assert result.output.count("\n") == 1 and list(tmp_path.iterdir()) == []


def test_a_build_output_that_is_not_a_regular_file_is_refused(tmp_path: Path) -> None:
    fifo = tmp_path / "out.json"
    os.mkfifo(fifo)
    args = ["catalogue", "build", BUILD_PRESET, "--deals", "1..50", "--per-difficulty", "1"]
    result = run(*args, "--out", str(fifo))
    assert result.exit_code == 2
    assert result.output == (
        f"cloversolve: error: bad catalogue file: {str(fifo)!r} is a named pipe, not a "
        "regular file\n"
    )
    assert stat_kind(fifo) == "fifo" and sorted(tmp_path.iterdir()) == [fifo]
    out = tmp_path / "cat.json"
    os.mkfifo(checkpoint_path(out))
    result = run(*args, "--out", str(out))
    assert result.exit_code == 2 and "is a named pipe" in result.output


def test_a_build_whose_checkpoint_is_its_output_under_another_name_is_refused(
    tmp_path: Path,
) -> None:
    args = ["catalogue", "build", BUILD_PRESET, "--deals", "1..50", "--per-difficulty", "1"]
    for link in (os.symlink, os.link):
        out = tmp_path / link.__name__ / "cat.json"
        out.parent.mkdir()
        out.write_bytes(b"")
        link(out, checkpoint_path(out))
        result = run(*args, "--out", str(out))
        assert result.exit_code == 2, result.output
        assert result.output == (
            f"cloversolve: error: the catalogue and the checkpoint are both {str(out)!r} "
            f"(as {str(checkpoint_path(out))!r})\n"
        )
        assert out.read_bytes() == b""


def test_an_unusable_bench_folder_fails_before_any_deal(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    benched: list[int] = []
    monkeypatch.setattr(cli_bench_module, "bench", lambda *args, **kwargs: benched.append(1))
    plain = tmp_path / "notes.txt"
    plain.write_text("notes")
    cases = {
        str(plain): f"{str(plain)!r} is not a folder",
        str(plain / "out"): f"{str(plain / 'out')!r} ({str(plain)!r} is not a folder)",
        "": "'' (empty)",
    }
    for out, why in cases.items():
        result = run("bench", STUDY_PRESET, "--deals", "1..3", "--no-warm-start", "--out", out)
        assert result.exit_code == 2, result.output
        assert result.output == f"cloversolve: error: bad bench output folder: {why}\n"
    for name in ("bench.md", "bench_fifteen.json", "bench_fifteen.png"):
        taken = tmp_path / f"taken_{name}" / name  # a folder where the file would go
        taken.mkdir(parents=True)
        result = run("bench", STUDY_PRESET, "--deals", "1..3", "--out", str(taken.parent))
        assert result.exit_code == 2, result.output
        assert result.output == (
            f"cloversolve: error: bad bench output file: {str(taken)!r} is a directory\n"
        )
    assert not benched and plain.read_text() == "notes"
    assert check_output_folder(tmp_path / "new" / "deeper") == tmp_path / "new" / "deeper"
    assert not (tmp_path / "new").exists()  # checked, not made
