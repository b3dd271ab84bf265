"""The manifest of the shipped catalogues: it lists exactly their digests and each passes the
full shape check; readers skip the schema for exactly those bytes and check any other bytes in
full; ``catalogue verify`` always runs the full check; ``catalogue vouch`` writes it."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import orjson
import pytest
from click.testing import CliRunner, Result
from helpers import assert_one_line_error

import cloversolve.catalogue.files as files_module
import cloversolve.catalogue.manifest as manifest_module
import cloversolve.cli.catalogue as cli_module
from cloversolve.catalogue.files import dump, load, shape_problems, shipped_dir
from cloversolve.catalogue.manifest import digest, is_vouched_for, read_manifest
from cloversolve.cli.main import main
from cloversolve.core.inputs import parse_json
from cloversolve.core.places import CATALOGUE_DIR_ENV, MANIFEST_NAME, SCHEMA_NAME

REGENERATE = f"regenerate {MANIFEST_NAME} with `cloversolve catalogue vouch`"


def run(*args: str | Path) -> Result:
    return CliRunner().invoke(main, [str(arg) for arg in args])


class SchemaRuns:
    """Counts the runs of the catalogue JSON Schema (it stands in for the validator)."""

    def __init__(self) -> None:
        self.count = 0
        self.real = files_module.validator()

    def iter_errors(self, data: Any) -> Any:
        self.count += 1
        return self.real.iter_errors(data)


@pytest.fixture()
def schema_runs(monkeypatch: pytest.MonkeyPatch) -> SchemaRuns:
    runs = SchemaRuns()
    monkeypatch.setattr(files_module, "validator", lambda: runs)
    return runs


def test_the_manifest_lists_exactly_the_shipped_catalogues_and_each_passes_the_full_check() -> None:
    listed = read_manifest(shipped_dir() / MANIFEST_NAME)
    shipped = {path.name: digest(path.read_bytes()) for path in shipped_dir().glob("*.json")}
    assert listed == shipped, f"{MANIFEST_NAME} does not list the shipped files: {REGENERATE}"
    for name in sorted(set(listed) - {SCHEMA_NAME}):
        data = parse_json((shipped_dir() / name).read_bytes(), "catalogue", name)
        problems = [str(problem) for _, problem in shape_problems(data)]
        assert problems == [], f"{name} fails the shape check: fix it, then {REGENERATE}"


def test_a_shipped_catalogue_is_read_without_running_the_schema(schema_runs: SchemaRuns) -> None:
    assert load(shipped_dir() / "fifteen.json")["preset"] == "fifteen"
    assert schema_runs.count == 0


def test_catalogue_verify_always_runs_the_full_check(schema_runs: SchemaRuns) -> None:
    result = run("catalogue", "verify", shipped_dir() / "fifteen.json")
    assert result.exit_code == 0, result.output
    assert schema_runs.count == 1


def _with_an_extra_key(tmp_path: Path) -> Path:
    """A copy of the shipped thirteen catalogue whose sixth entry has a key the schema does not
    name (nothing but the schema refuses it)."""
    data = orjson.loads((shipped_dir() / "thirteen.json").read_bytes())
    data["deals"][5]["note"] = "easy enough"
    path = tmp_path / "edited" / "thirteen.json"
    path.parent.mkdir()
    path.write_bytes(dump(data))
    return path


@pytest.mark.parametrize("how", ["--catalogue", CATALOGUE_DIR_ENV])
def test_an_edited_copy_of_a_shipped_catalogue_gets_the_full_check(
    how: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, schema_runs: SchemaRuns
) -> None:
    """The digest of other bytes is not listed: the schema runs and refuses the extra key in
    one line; the same bytes as shipped, from the same place, are read without it."""
    edited = _with_an_extra_key(tmp_path)
    same = tmp_path / "same" / "thirteen.json"
    same.parent.mkdir()
    shutil.copyfile(shipped_dir() / "thirteen.json", same)
    for path, accepted in ((edited, False), (same, True)):
        schema_runs.count = 0
        args = ["lookup", "thirteen", "2"]
        if how == "--catalogue":
            args += ["--catalogue", str(path)]
        else:
            monkeypatch.setenv(CATALOGUE_DIR_ENV, str(path.parent))
        result = run(*args)
        if accepted:
            assert result.exit_code == 0, result.output
            assert result.stdout.startswith("thirteen deal 2: verified")
            assert schema_runs.count == 0
        else:
            assert_one_line_error(result, 2, repr(str(path)), "deals/5", "'note'")
            assert schema_runs.count == 1


@pytest.fixture()
def shipped_here(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A folder that stands for the shipped catalogues' (the schema copied into it)."""
    folder = tmp_path / "shipped"
    folder.mkdir()
    shutil.copyfile(shipped_dir() / SCHEMA_NAME, folder / SCHEMA_NAME)
    monkeypatch.setattr(cli_module, "shipped_dir", lambda: folder)
    monkeypatch.setattr(manifest_module, "shipped_dir", lambda: folder)
    return folder


def _build(out: Path) -> Result:
    return run(
        "catalogue", "build", "fifteen", "--deals", "1..60", "--per-difficulty", "1", "--out", out
    )


def test_vouch_lists_exactly_the_sound_catalogues_and_build_says_when_to_run_it(
    shipped_here: Path, tmp_path: Path
) -> None:
    built = shipped_here / "fifteen.json"
    first = _build(built)
    assert first.exit_code == 0, first.output
    assert "`cloversolve catalogue vouch`" in first.stderr  # no manifest lists it yet
    assert not is_vouched_for(built.read_bytes())

    vouched = run("catalogue", "vouch")
    assert vouched.exit_code == 0, vouched.output
    assert vouched.stdout.splitlines()[0] == "fifteen.json: ok"
    manifest = shipped_here / MANIFEST_NAME
    schema = digest((shipped_here / SCHEMA_NAME).read_bytes())
    assert manifest.read_text() == (
        f"{schema}  {SCHEMA_NAME}\n{digest(built.read_bytes())}  fifteen.json\n"
    )
    assert is_vouched_for(built.read_bytes())
    again = _build(built)  # the same bytes: listed already
    assert again.exit_code == 0 and "vouch" not in again.stderr, again.output
    elsewhere = _build(tmp_path / "fifteen.json")  # not a shipped catalogue
    assert elsewhere.exit_code == 0 and "vouch" not in elsewhere.stderr, elsewhere.output

    data = orjson.loads(built.read_bytes())
    data["deals"][0]["note"] = "x"
    (shipped_here / "broken.json").write_bytes(dump(data))
    refused = run("catalogue", "vouch")
    assert refused.exit_code == 1, refused.output
    assert "broken.json: 1 problem, left out" in refused.stdout
    assert "fifteen.json: ok" in refused.stdout
    assert set(read_manifest(manifest)) == {"fifteen.json", SCHEMA_NAME}
    assert not is_vouched_for((shipped_here / "broken.json").read_bytes())


@pytest.mark.parametrize(
    "change",
    ["another schema", "a line of another form", "no manifest"],
)
def test_a_manifest_that_does_not_fit_vouches_for_nothing(shipped_here: Path, change: str) -> None:
    catalogue = (shipped_dir() / "fifteen.json").read_bytes()
    manifest = shipped_here / MANIFEST_NAME
    manifest.write_bytes((shipped_dir() / MANIFEST_NAME).read_bytes())
    assert is_vouched_for(catalogue)
    if change == "another schema":
        with (shipped_here / SCHEMA_NAME).open("a") as schema:
            schema.write("\n")
    elif change == "a line of another form":
        manifest.write_text(manifest.read_text() + "not a digest  thirteen.json\n")
    else:
        manifest.unlink()
    assert not is_vouched_for(catalogue)


@pytest.mark.parametrize("kind", ["a link to the schema", "a dangling link", "someone's file"])
def test_vouch_replaces_only_a_manifest(shipped_here: Path, tmp_path: Path, kind: str) -> None:
    """``vouch`` refuses, before any work and in one line, to write through a link (it would
    replace what the link points at: the schema, or a missing folder's file) or over a file
    that is not a manifest."""
    manifest = shipped_here / MANIFEST_NAME
    schema = (shipped_here / SCHEMA_NAME).read_bytes()
    if kind == "a link to the schema":
        manifest.symlink_to(SCHEMA_NAME)
    elif kind == "a dangling link":
        manifest.symlink_to(tmp_path / "nowhere" / "file")
    else:
        manifest.write_text("my notes\n")
    refused = run("catalogue", "vouch")
    assert_one_line_error(refused, 2, repr(str(manifest)))
    assert (shipped_here / SCHEMA_NAME).read_bytes() == schema
    if kind == "someone's file":
        assert manifest.read_text() == "my notes\n"
