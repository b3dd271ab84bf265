"""Where an output may go: never into the toolkit's own files or a catalogue folder (a page,
a study's results, a bench folder), except a catalogue build's own catalogue; and a bad name
(a loop of symbolic links included) is one line, exit 2."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from cloversolve.catalogue.files import CATALOGUE_DIR_ENV, shipped_dir
from cloversolve.cli.main import main
from cloversolve.core.places import PACKAGE_DIR
from cloversolve.runs.output import OutputPathError, check_output_path


def run(*args: str):
    return CliRunner().invoke(main, list(args), catch_exceptions=False)


def assert_refused(result, *quoted: str) -> None:
    assert result.exit_code == 2, result.output
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("cloversolve: error: "), result.stderr
    for text in quoted:
        assert text in lines[0]


@pytest.mark.parametrize(
    "args",
    [
        ("play", "thirteen", "1"),
        ("view", "cloverleaf", "1"),
    ],
)
def test_a_page_never_replaces_a_shipped_catalogue_of_another_preset(
    args: tuple[str, ...],
) -> None:
    for name in ("cloverleaf.json", "thirteen.json"):
        target = shipped_dir() / name
        before = target.read_bytes()
        assert_refused(run(*args, "--out", str(target)), repr(str(target)), "catalogues")
        assert target.read_bytes() == before


def test_a_page_never_goes_into_the_configured_catalogue_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    shutil.copy(shipped_dir() / "thirteen.json", tmp_path / "thirteen.json")
    before = (tmp_path / "thirteen.json").read_bytes()
    monkeypatch.setenv(CATALOGUE_DIR_ENV, str(tmp_path))
    for out in (tmp_path / "thirteen.json", tmp_path / "page.html"):
        assert_refused(run("view", "cloverleaf", "1", "--out", str(out)), CATALOGUE_DIR_ENV)
    assert (tmp_path / "thirteen.json").read_bytes() == before
    assert not (tmp_path / "page.html").exists()


def test_a_page_never_replaces_the_packages_own_files(tmp_path: Path) -> None:
    module = PACKAGE_DIR / "web" / "cloversolve.js"
    before = module.read_bytes()
    (tmp_path / "link.js").symlink_to(module)
    for out in (module, tmp_path / "link.js", PACKAGE_DIR / "new.html"):
        assert_refused(run("view", "thirteen", "1", "--out", str(out)), "toolkit's own folder")
    assert module.read_bytes() == before
    assert not (PACKAGE_DIR / "new.html").exists()


def test_study_and_bench_outputs_never_go_into_the_package() -> None:
    results = PACKAGE_DIR / "verdicts.txt"
    assert_refused(
        run("study", "blackhole", "--deals", "1..2", "--verdicts", str(results)),
        "toolkit's own folder",
    )
    assert_refused(
        run("bench", "blackhole", "--deals", "1..2", "--out", str(PACKAGE_DIR / "bench")),
        "toolkit's own folder",
    )
    assert not results.exists() and not (PACKAGE_DIR / "bench").exists()


def test_a_catalogue_build_may_rebuild_its_own_catalogue_in_a_catalogue_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(CATALOGUE_DIR_ENV, str(tmp_path))
    for folder in (tmp_path, shipped_dir()):
        for name in ("thirteen.json", "thirteen.json.checkpoint"):
            target = folder / name
            assert check_output_path(target, "catalogue", own_catalogue="thirteen") == target
        with pytest.raises(OutputPathError, match="catalogue folder|catalogues"):
            check_output_path(folder / "cloverleaf.json", "catalogue", own_catalogue="thirteen")
    with pytest.raises(OutputPathError, match="toolkit's own folder"):
        check_output_path(PACKAGE_DIR / "thirteen.json", "catalogue", own_catalogue="thirteen")
    result = run(
        "catalogue", "build", "thirteen", "--deals", "1..2", "--per-difficulty", "1",
        "--out", str(shipped_dir() / "cloverleaf.json"),
    )  # fmt: skip
    assert_refused(result, "cloverleaf.json")


def test_a_loop_of_symbolic_links_is_one_line(tmp_path: Path) -> None:
    (tmp_path / "loop1").symlink_to(tmp_path / "loop2")
    (tmp_path / "loop2").symlink_to(tmp_path / "loop1")
    loop = str(tmp_path / "loop1")
    result = run("bench", "blackhole", "--deals", "1..5", "--no-warm-start", "--out", loop)
    assert_refused(result, "bad bench output folder", repr(loop))
    assert_refused(run("view", "thirteen", "1", "--out", loop), "bad page file", repr(loop))


@pytest.mark.parametrize(
    ("args", "name"),
    [
        (("view", "thirteen", "1", "--route", "4>1"), "thirteen.json"),
        (("view", "thirteen", "1", "--route", "4>1"), "README.md"),
        (("play", "thirteen", "1"), "cloversolve.js"),
        (("play", "thirteen", "1"), "RECORD"),
    ],
)
def test_a_page_replaces_only_a_page_the_toolkit_wrote(
    tmp_path: Path, args: tuple[str, ...], name: str
) -> None:
    # A checkout's catalogue, a script, an installed package's record: outside the running
    # package's folders, yet never a page's to replace.
    other = tmp_path / name
    other.write_text('<!doctype html>\n{"preset": "thirteen"}\n', encoding="utf-8")
    before = other.read_bytes()
    assert_refused(
        run(*args, "--out", str(other)), repr(str(other)), "not a page cloversolve wrote"
    )
    assert other.read_bytes() == before
    page = tmp_path / "deal.html"
    for command in (("view", "thirteen", "1", "--route", "4>1"), ("play", "thirteen", "1")):
        result = run(*command, "--out", str(page))  # a page of either command is replaced
        assert result.exit_code in (0, 1) and result.output.startswith(f"wrote {page}:")
    page.write_bytes(b"")
    assert run(*args, "--out", str(page)).output.startswith(f"wrote {page}:")  # empty: replaced
