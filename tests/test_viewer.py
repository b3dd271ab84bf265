"""``cloversolve view``: one self-contained page per deal and route; bad input in one line."""

from __future__ import annotations

import json
import os
import re
import stat
import subprocess
from pathlib import Path

import pytest
from click.testing import CliRunner
from external_tools import node
from helpers import assert_one_line_error, run

from cloversolve.catalogue.daily import lookup
from cloversolve.catalogue.files import CATALOGUE_DIR_ENV, default_catalogue, open_catalogue
from cloversolve.cli.main import main
from cloversolve.games.dealing import deal
from cloversolve.web import asset_text, module_path
from cloversolve.web.viewer import RouteChoice, inline_script, inlined_module, page


def page_data(path: Path) -> dict:
    text = path.read_text(encoding="utf-8")
    match = re.search(
        r'<script type="application/json" id="viewer-data">(.*?)</script>', text, re.S
    )
    assert match is not None
    return json.loads(match[1])


def test_page_is_self_contained_with_the_module_inlined(tmp_path: Path) -> None:
    out = tmp_path / "deal.html"
    result = run("view", "cloverleaf", "1", "--out", str(out))
    assert result.exit_code == 0, result.output
    assert "(catalogue)" in result.output and "won" in result.output
    text = out.read_text(encoding="utf-8")
    for outside in ("http://", "https://", " src=", "<link", "@import", "import(", 'from "./'):
        assert outside not in text, outside
    assert inlined_module() in text and asset_text("presets.js") in text
    assert "const cs = Object.freeze({" in text and "replay, " in text
    data = page_data(out)
    entry = lookup(open_catalogue("cloverleaf"), 1)
    assert data["route"] == entry["route"] and data["source"] == "catalogue"
    assert data["layout"]["piles"] == deal("cloverleaf", 1).to_json()["piles"]


def test_every_module_export_reaches_the_viewer() -> None:
    """The page's namespace holds what node finds the module to export, and the inlined
    module imports and re-exports nothing."""
    listing = "import(process.argv[1]).then((m) => console.log(JSON.stringify(Object.keys(m))));"
    run_js = subprocess.run(
        [node(), "--input-type=module", "-e", listing, module_path().as_uri()],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert run_js.returncode == 0, run_js.stderr
    exports = json.loads(run_js.stdout)
    assert "PRESETS" in exports and "deal" in exports
    assert re.search(r"^(import|export) (\*|\{)[^;]*? from ", inlined_module(), re.M) is None
    namespace = re.search(r"const cs = Object\.freeze\(\{ (.*?) \}\);", inline_script())
    assert namespace is not None
    assert sorted(namespace[1].split(", ")) == sorted(exports)


def test_page_data_cannot_close_its_script_element() -> None:
    text = page(deal("thirteen", 1), RouteChoice(("</script><b>",), "given"))
    assert "</script><b>" not in text
    assert text.count("</script>") == 2


def test_given_route_and_route_file(tmp_path: Path) -> None:
    out = tmp_path / "given.html"
    result = run("view", "thirteen", "1", "--route", "4>1 4>F", "--out", str(out))
    assert result.exit_code == 1, result.output
    assert "not won: all 2 moves are legal" in result.output
    assert page_data(out)["route"] == ["4>1", "4>F"]
    route_file = tmp_path / "route.json"
    route_file.write_text(json.dumps({"route": ["4>1", "4>F"]}), encoding="utf-8")
    result = run("view", "thirteen", "1", "--route-file", str(route_file), "--out", str(out))
    assert result.exit_code == 1 and page_data(out)["source"] == "given"


def test_the_page_never_replaces_the_route_file_it_reads(tmp_path: Path) -> None:
    route_file = tmp_path / "route.json"
    route_file.write_text(json.dumps({"route": ["4>1", "4>F"]}), encoding="utf-8")
    (tmp_path / "link.json").symlink_to(route_file)
    for given in (route_file, tmp_path / "link.json"):
        result = run("view", "thirteen", "1", "--route-file", str(given), "--out", str(route_file))
        # (refused as no page the toolkit wrote, before the files are compared)
        assert_one_line_error(result, 2, f"bad page file: {str(route_file)!r}", "not a page")
        assert json.loads(route_file.read_text(encoding="utf-8"))["route"] == ["4>1", "4>F"]


def test_the_page_never_replaces_the_catalogue_it_reads(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    shelf = tmp_path / "shelf"
    (shelf / "sub").mkdir(parents=True)
    catalogue = shelf / "thirteen.json"
    catalogue.write_bytes(default_catalogue("thirteen").read_bytes())
    monkeypatch.setenv(CATALOGUE_DIR_ENV, str(shelf))
    (tmp_path / "link.json").symlink_to(catalogue)
    os.link(catalogue, tmp_path / "hard.json")
    for out in [tmp_path / "hard.json"]:
        result = run("view", "thirteen", "1", "--out", str(out))
        assert_one_line_error(result, 2, f"bad page file: {str(out)!r}", "not a page")
        assert open_catalogue("thirteen", catalogue)["preset"] == "thirteen"
    for out in [catalogue, tmp_path / "link.json", shelf / "sub" / ".." / "thirteen.json"]:
        result = run("view", "thirteen", "1", "--out", str(out))
        assert_one_line_error(result, 2, f"bad page file: {str(out)!r} is in the catalogue folder")
        assert open_catalogue("thirteen", catalogue)["preset"] == "thirteen"


def test_a_route_file_named_dash_is_standard_input(tmp_path: Path) -> None:
    out = tmp_path / "stdin.html"
    result = CliRunner().invoke(
        main,
        ["view", "thirteen", "1", "--route-file", "-", "--out", str(out)],
        input=json.dumps({"preset": "thirteen", "number": 1, "route": ["4>1", "4>F"]}),
    )
    assert result.exit_code == 1, result.output
    assert page_data(out)["route"] == ["4>1", "4>F"]


def test_illegal_route_still_writes_the_page(tmp_path: Path) -> None:
    out = tmp_path / "illegal.html"
    result = run("view", "thirteen", "1", "--route", "4>1 4>4", "--out", str(out))
    assert result.exit_code == 1
    assert "illegal at move 2: 4>4: a card cannot move onto its own pile" in result.output
    assert out.is_file()


def test_solver_route_outside_the_catalogue(tmp_path: Path) -> None:
    assert lookup(open_catalogue("thirteen"), 5002) is None
    out = tmp_path / "solved.html"
    result = run("view", "thirteen", "5002", "--out", str(out))
    assert result.exit_code == 0, result.output
    assert "(solver)" in result.output and page_data(out)["source"] == "solver"


@pytest.mark.parametrize(
    ("args", "quoted"),
    [
        (("view", "thirten", "1"), "unknown preset: 'thirten'"),
        (("view", "blackhole", "1"), "not 'blackhole'"),
        (("view", "thirteen", "0"), "bad deal number: '0'"),
        (("view", "thirteen", "1", "--route", "4>1 x"), "not a move: 'x'"),
        (("view", "thirteen", "1", "--route", "4>1", "--route-file", "r"), "not both"),
        (("view", "thirteen", "1", "--route", "4>1", "--memory", "abc"), "bad --memory: 'abc'"),
        (("view", "thirteen", "5002", "--memory", "1K"), "bad --memory: '1K' (at least 1M)"),
    ],
)
def test_bad_input_gives_one_line(tmp_path: Path, args: tuple[str, ...], quoted: str) -> None:
    out = tmp_path / "never.html"
    assert_one_line_error(run(*args, "--out", str(out)), 2, quoted)
    assert not out.exists()


@pytest.mark.parametrize(
    ("args", "status", "quoted"),
    [
        (("view", "thirteen", "5000"), 3, "thirteen deal 5000 is unsolvable"),
        (("view", "thirteen", "5008", "--max-nodes", "1"), 4, "give --route or --route-file"),
    ],
)
def test_no_route_to_show_exits_as_solve_does(
    tmp_path: Path, args: tuple[str, ...], status: int, quoted: str
) -> None:
    out = tmp_path / "never.html"
    result = run(*args, "--out", str(out))
    assert result.exit_code == status, result.output
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("cloversolve: "), result.stderr
    assert "error" not in lines[0]  # (an answer, not an error)
    assert quoted in lines[0]
    assert not out.exists()


def test_unwritable_output_gives_one_line(tmp_path: Path) -> None:
    out = tmp_path / "missing-directory" / "deal.html"
    assert_one_line_error(run("view", "thirteen", "1", "--out", str(out)), 2, "no folder")
    fifo = tmp_path / "fifo.html"
    os.mkfifo(fifo)
    result = run("view", "thirteen", "1", "--route", "4>1", "--out", str(fifo))
    assert_one_line_error(result, 2, f"bad page file: {str(fifo)!r} is a named pipe")
    assert stat.S_ISFIFO(fifo.lstat().st_mode)


def test_the_page_is_written_through_a_symbolic_link(tmp_path: Path) -> None:
    target = tmp_path / "pages" / "deal.html"
    target.parent.mkdir()
    link = tmp_path / "deal.html"
    link.symlink_to(target)
    result = run("view", "thirteen", "1", "--route", "4>1", "--out", str(link))
    assert result.exit_code == 1 and result.output.startswith(f"wrote {link}:")  # not won
    assert link.is_symlink() and page_data(target)["source"] == "given"
