"""``cloversolve play``: one self-contained page to play a deal (the browser tests are in
``test_play_browser.py``); bad input in one line."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from click.testing import CliRunner
from helpers import run

from cloversolve.catalogue.daily import daily, lookup
from cloversolve.catalogue.files import open_catalogue
from cloversolve.cli.main import main
from cloversolve.web import asset_text
from cloversolve.web.play import PAGE_ENTRY_FIELDS, play_page
from cloversolve.web.viewer import inline_script, inlined_module


def page_data(path: Path) -> dict:
    text = path.read_text(encoding="utf-8")
    match = re.search(r'<script type="application/json" id="play-data">(.*?)</script>', text, re.S)
    assert match is not None
    return json.loads(match[1])


def test_the_page_is_self_contained_with_the_module_and_the_catalogue(tmp_path: Path) -> None:
    out = tmp_path / "play.html"
    result = run("play", "cloverleaf", "1", "--out", str(out))
    assert result.exit_code == 0, result.output
    assert result.output == f"wrote {out}: cloverleaf deal 1 (verified solvable)\n"
    text = out.read_text(encoding="utf-8")
    for outside in ("http://", "https://", " src=", "<link", "@import", "import(", 'from "./'):
        assert outside not in text, outside
    assert inlined_module() in text and inline_script("play.js") in text
    assert asset_text("play.css") in text and asset_text("viewer.css") in text
    data = page_data(out)
    assert (data["preset"], data["number"], data["date"]) == ("cloverleaf", 1, None)
    catalogue = open_catalogue("cloverleaf")
    assert data["catalogue"]["deals"] == [
        {key: entry[key] for key in PAGE_ENTRY_FIELDS} for entry in catalogue["deals"]
    ]


def test_a_number_outside_the_catalogue_is_not_called_verified(tmp_path: Path) -> None:
    assert lookup(open_catalogue("thirteen"), 5002) is None
    out = tmp_path / "play.html"
    result = run("play", "thirteen", "5002", "--out", str(out))
    assert result.exit_code == 0, result.output
    assert "thirteen deal 5002 (solvability not checked)" in result.output
    assert page_data(out)["number"] == 5002


def test_the_daily_deal_of_a_date_and_of_the_day_the_page_is_opened(tmp_path: Path) -> None:
    out = tmp_path / "daily.html"
    result = run(
        "play", "fifteen", "--date", "2025-01-01", "--difficulty", "hard", "--out", str(out)
    )
    assert result.exit_code == 0, result.output
    number = daily(open_catalogue("fifteen"), "2025-01-01", "hard")["number"]
    assert f"fifteen hard deal of 2025-01-01: deal {number} (verified solvable)" in result.output
    data = page_data(out)
    assert (data["number"], data["date"], data["difficulty"]) == (None, "2025-01-01", "hard")
    result = run("play", "fifteen", "--out", str(out))
    assert result.exit_code == 0, result.output
    assert "the fifteen normal deal of the day the page is opened" in result.output
    assert (page_data(out)["date"], page_data(out)["difficulty"]) == (None, "normal")


def test_a_catalogue_file_given(tmp_path: Path) -> None:
    """``--catalogue FILE`` in place of the shipped catalogue: its deals are the verified ones."""
    catalogue = open_catalogue("thirteen")
    mine = {**catalogue, "deals": [lookup(catalogue, 5)]}
    given = tmp_path / "mine.json"
    given.write_text(json.dumps(mine), encoding="utf-8")
    out = tmp_path / "play.html"
    result = run("play", "thirteen", "1", "--catalogue", str(given), "--out", str(out))
    assert "thirteen deal 1 (solvability not checked)" in result.output
    assert [entry["number"] for entry in page_data(out)["catalogue"]["deals"]] == [5]
    result = run("play", "thirteen", "5", "--catalogue", str(given), "--out", str(out))
    assert "thirteen deal 5 (verified solvable)" in result.output


def test_the_play_script_imports_nothing_but_the_module() -> None:
    imports = re.findall(r"^import .*$", asset_text("play.js"), re.M)
    assert imports == ['import * as cs from "./cloversolve.js";']


def test_page_data_cannot_close_its_script_element() -> None:
    catalogue = {"format": "x", "preset": "thirteen", "deals": []}
    catalogue["deals"].append({"number": 1, "difficulty": "easy", "route": ["</script><b>"]})
    text = play_page("thirteen", catalogue, number=1)
    assert "</script><b>" not in text and text.count("</script>") == 2


@pytest.mark.parametrize(
    ("args", "quoted"),
    [
        (("play", "thirten", "1"), "unknown preset: 'thirten'"),
        (("play", "blackhole", "1"), "not 'blackhole'"),
        (("play", "thirteen", "0"), "bad deal number: '0'"),
        (("play", "thirteen", "1", "--date", "2025-01-01"), "not both"),
        (("play", "thirteen", "--date", "2025-13-01"), "bad date: '2025-13-01'"),
    ],
)
def test_bad_input_gives_one_line(tmp_path: Path, args: tuple[str, ...], quoted: str) -> None:
    out = tmp_path / "bad.html"
    result = run(*args, "--out", str(out))
    assert result.exit_code == 2, result.output
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("cloversolve: error: "), result.stderr
    assert quoted in lines[0]
    assert not out.exists()


@pytest.mark.parametrize("alias", ["same", "hard link", "sub/.."])
def test_the_page_never_replaces_the_catalogue_it_reads(tmp_path: Path, alias: str) -> None:
    given = tmp_path / "mine.json"
    given.write_text(json.dumps(open_catalogue("thirteen")), encoding="utf-8")
    before = given.read_bytes()
    (tmp_path / "sub").mkdir()
    out = {
        "same": given,
        "hard link": tmp_path / "link.json",
        "sub/..": tmp_path / "sub/../mine.json",
    }
    if alias == "hard link":
        out[alias].hardlink_to(given)
    result = CliRunner().invoke(
        main, ["play", "thirteen", "1", "--catalogue", str(given), "--out", str(out[alias])]
    )
    assert result.exit_code == 2 and "not a page cloversolve wrote" in result.output
    assert given.read_bytes() == before


def test_the_page_never_replaces_the_shipped_catalogue(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With no --catalogue, the catalogue read is the one found in CLOVERSOLVE_CATALOGUES."""
    (tmp_path / "thirteen.json").write_text(json.dumps(open_catalogue("thirteen")), "utf-8")
    before = (tmp_path / "thirteen.json").read_bytes()
    monkeypatch.setenv("CLOVERSOLVE_CATALOGUES", str(tmp_path))
    result = CliRunner().invoke(
        main, ["play", "thirteen", "--out", str(tmp_path / "thirteen.json")]
    )
    assert result.exit_code == 2
    assert "is in the catalogue folder CLOVERSOLVE_CATALOGUES" in result.output
    assert (tmp_path / "thirteen.json").read_bytes() == before
