"""A JSON input that names a key twice is refused in one line, whatever the input: a reader
would otherwise silently take the last value."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner
from helpers import assert_one_line_error, run

from cloversolve.catalogue.files import default_catalogue
from cloversolve.cli.main import main


def test_a_route_file_with_a_key_twice_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "route.json"
    path.write_text('{"preset": "thirteen", "number": 2, "number": 1, "route": ["4>1"]}')
    result = run("replay", "thirteen", "1", "--route-file", str(path))
    assert_one_line_error(result, 2, "given twice")


def test_a_catalogue_with_a_key_twice_is_refused(tmp_path: Path) -> None:
    text = default_catalogue("thirteen").read_text(encoding="utf-8")
    forged = tmp_path / "k.json"
    forged.write_text(text.replace('"preset"', '"preset": "alexander", "preset"', 1))
    assert json.loads(forged.read_text())["preset"] == "thirteen"  # (the last one wins)
    assert run("catalogue", "verify", str(forged)).exit_code == 2
    assert_one_line_error(run("lookup", "thirteen", "1", "--catalogue", str(forged)), 2, "twice")


def test_a_batch_request_with_a_key_twice_is_answered_with_an_error() -> None:
    line = '{"preset": "thirteen", "number": 1, "number": 2}\n'
    result = CliRunner().invoke(main, ["solve", "--batch"], input=line)
    answer = json.loads(result.output)
    assert "error" in answer and "twice" in answer["error"], answer
