"""Catalogue checks: verify finds every broken invariant the file states (``deep`` regrades),
readers refuse malformed files in one line, and the shipped catalogues are found."""

from __future__ import annotations

import copy
import datetime as dt
import json
import re
import subprocess
import sys
import tomllib
import zipfile
from collections.abc import Callable
from pathlib import Path

import orjson
import pytest
from click.testing import CliRunner

from cloversolve.catalogue.build import build
from cloversolve.catalogue.daily import DAILY_EPOCH, daily, lookup, scanned_deals
from cloversolve.catalogue.files import (
    CATALOGUE_DIR_ENV,
    CatalogueError,
    default_catalogue,
    dump,
    load,
    number_of,
    open_catalogue,
    shipped_dir,
)
from cloversolve.catalogue.verify import verify
from cloversolve.cli.main import main
from cloversolve.games.dealing import deal
from cloversolve.solving.replay import replay
from cloversolve.solving.solver import solve
from cloversolve.web.viewer import default_route

REPO = Path(__file__).resolve().parent.parent

#: A tiny catalogue: the 15-sum game grades quickly.
PRESET = "fifteen"


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("checks") / "fifteen.json"
    build(PRESET, range(1, 400), 2, out, jobs=1)
    return out


@pytest.fixture()
def data(built: Path) -> dict:
    return orjson.loads(built.read_bytes())


def _hard_entry(data: dict) -> dict:
    return next(entry for entry in data["deals"] if entry["difficulty"] == "hard")


def _drop_one_deal(data: dict) -> None:
    entry = data["deals"].pop(0)
    data["counts"][entry["difficulty"]] -= 1


def _empty(data: dict) -> None:
    data["deals"] = []
    data["counts"] = {"easy": 0, "normal": 0, "hard": 0}


def _set(path: str, value: object) -> Callable[[dict], None]:
    def tamper(data: dict) -> None:
        *parents, last = path.split(".")
        target = data
        for key in parents:
            target = target[int(key)] if key.isdigit() else target[key]
        target[last] = value

    return tamper


def _metric(key: str, change: Callable[[object], object]) -> Callable[[dict], None]:
    def tamper(data: dict) -> None:
        metrics = data["deals"][0]["metrics"]
        metrics[key] = change(metrics[key])

    return tamper


TAMPERINGS = {
    "deleted deal, counts adjusted": (_drop_one_deal, "per_difficulty is 2"),
    "per_difficulty 1000": (_set("parameters.per_difficulty", 1000), "per_difficulty is 1000"),
    "empty deal list": (_empty, "lists no deals"),
    "first_moves": (_metric("first_moves", lambda n: n + 1), "first_moves"),
    "safe > first": (_metric("safe_first_moves", lambda n: 99), "more safe"),
    "branching": (_metric("branching", lambda b: b + 1), "branching"),
    "panel games": (_metric("panel_games", lambda n: n * 2), "panel_games"),
    "easy threshold": (_set("parameters.grading.easy_threshold", 0.9), "easy_threshold"),
    "games of the rule": (_set("parameters.grading.games", 16), "games is 16"),
    "panel": (_set("parameters.grading.panel", ["random", "largest"]), "panel"),
    "grading version": (_set("parameters.grading.version", 1), "version"),
    "rule text": (_set("parameters.grading.rule", "anything goes"), "rule is"),
    "statuses": (_set("parameters.statuses.solved", 1), "statuses count"),
    "scanned_to": (_set("parameters.deals.scanned_to", 300), "scanned_to is 300"),
    "first > last": (_set("parameters.deals.first", 500), "not in order"),
    "difficulty a list": (_set("deals.0.difficulty", ["easy"]), "schema"),
    "difficulty a dict": (_set("deals.0.difficulty", {"a": 1}), "schema"),
}


def test_the_built_catalogue_verifies_deeply(built: Path) -> None:
    assert verify(built, deep=True) == []


@pytest.mark.parametrize("name", sorted(TAMPERINGS))
def test_verify_finds_each_broken_invariant(data: dict, name: str) -> None:
    tamper, expected = TAMPERINGS[name]
    tampered = copy.deepcopy(data)
    tamper(tampered)
    messages = [str(problem) for problem in verify(dump(tampered))]
    assert any(expected in message for message in messages), messages


REGRADED = {
    "panel wins, score and grade": "panel_wins",
    "solver_nodes": "solver_nodes",
}


@pytest.mark.parametrize("name", sorted(REGRADED))
def test_deep_verify_recomputes_metrics_and_grades(data: dict, name: str) -> None:
    tampered = copy.deepcopy(data)
    entry = _hard_entry(tampered)
    metrics = entry["metrics"]
    if name == "panel wins, score and grade":
        metrics["panel_wins"] = dict.fromkeys(metrics["panel_wins"], metrics["panel_games"])
        metrics["score"] = 1.0
        entry["difficulty"] = "easy"
    else:
        metrics["solver_nodes"] += 1
    raw = dump(tampered)
    if name == "panel wins, score and grade":
        assert [p for p in verify(raw) if p.number == entry["number"]] == []
    deep = [str(p) for p in verify(raw, deep=True) if p.number == entry["number"]]
    assert any(f"regrading: {REGRADED[name]}" in message for message in deep), deep
    if name == "panel wins, score and grade":
        assert any("recomputed hard" in message for message in deep), deep


def test_cli_verify_deep(built: Path) -> None:
    result = CliRunner().invoke(main, ["catalogue", "verify", str(built), "--deep"])
    assert result.exit_code == 0 and result.output.strip().endswith(": ok")


def test_huge_digit_strings_are_one_short_problem(data: dict) -> None:
    as_text = copy.deepcopy(data)
    as_text["deals"][0]["number"] = "9" * 5000
    problems = [str(p) for p in verify(as_text)]
    assert len(problems) == 1, problems
    assert "is not valid under any of the given schemas" in problems[0], problems
    assert len(problems[0]) < 400
    as_number = dump(data).replace(b'{"number":' + str(data["deals"][0]["number"]).encode(),
                                   b'{"number":' + b"9" * 5000, 1)  # fmt: skip
    problems = [str(p) for p in verify(as_number)]
    assert len(problems) == 1 and "not valid JSON" in problems[0], problems


def test_verify_takes_numbers_as_text_and_wants_each_in_its_json_form(data: dict) -> None:
    as_text = copy.deepcopy(data)
    as_text["parameters"]["deals"] = {k: str(v) for k, v in data["parameters"]["deals"].items()}
    for entry in as_text["deals"]:
        entry["number"] = str(entry["number"])
        entry["layout"]["number"] = str(entry["layout"]["number"])
    problems = verify(dump(as_text))
    assert len(problems) == 3 + 2 * len(data["deals"]), problems
    assert all("must be written as a JSON integer (format 2)" in p.message for p in problems)
    assert verify(dump({**as_text, "format_version": 1})) == []  # (a version 1 file is read)
    first = data["deals"][0]["number"]
    wanted = f'deal {first}: number "{first}" must be written as a JSON integer (format 2)'
    assert str(problems[3]) == wanted
    big = copy.deepcopy(data)
    big["deals"][0]["number"] = 2**53 + 1  # (written below as a JSON integer)
    found = [str(p) for p in verify(json.dumps(big).encode())]
    wanted = "deal 9007199254740993: number 9007199254740993 must be written as decimal text"
    assert f"{wanted} (format 2)" in found, found


# -- readers --------------------------------------------------------------------------------

MALFORMED_ENTRIES: dict[str, Callable[[dict], object]] = {
    "entry 5": lambda entry: 5,
    "entry null": lambda entry: None,
    "no number": lambda entry: {k: v for k, v in entry.items() if k != "number"},
    "number text not digits": lambda entry: {**entry, "number": f"{entry['number']}x"},
    "no route_length": lambda entry: {k: v for k, v in entry.items() if k != "route_length"},
    "difficulty a list": lambda entry: {**entry, "difficulty": ["easy"]},
    "route_length not the route's": lambda entry: {
        **entry,
        "route_length": 1 + len(entry["route"]),
    },
    "number as text": lambda entry: {**entry, "number": str(entry["number"])},
    "layout number as text": lambda entry: {
        **entry,
        "layout": {**entry["layout"], "number": str(entry["number"])},
    },
    "unknown key": lambda entry: {**entry, "note": "checked by hand"},
    "unknown metric": lambda entry: {**entry, "metrics": {**entry["metrics"], "fun": 1}},
    "move not in the notation": lambda entry: {**entry, "route": ["1+2+", *entry["route"][1:]]},
}


@pytest.mark.parametrize("name", sorted(MALFORMED_ENTRIES))
def test_readers_refuse_malformed_catalogues_in_one_line(
    data: dict, tmp_path: Path, name: str
) -> None:
    data["deals"] = [MALFORMED_ENTRIES[name](entry) for entry in data["deals"]]
    path = tmp_path / "bad.json"
    path.write_bytes(dump(data))
    refused = verify(path)  # (what catalogue verify refuses, every reader refuses)
    assert refused and refused[0].number in (None, number_of(data["deals"][0])), refused
    first = number_of(data["deals"][0]) if isinstance(data["deals"][0], dict) else None
    where = rf"(deals/0\b|deal {first}: )"  # (the entry's place, or its deal number)
    with pytest.raises(CatalogueError, match=where):
        load(path)
    for args in (
        ["daily", PRESET, "--date", "2025-01-01", "--difficulty", "hard"],
        ["lookup", PRESET, "42"],
        ["play", PRESET, "42", "--out", str(tmp_path / "page.html")],
        ["play", PRESET, "--out", str(tmp_path / "page.html")],
    ):
        result = CliRunner().invoke(main, [*args, "--catalogue", str(path)])
        assert result.exit_code == 2, (args, result.output)
        lines = result.stderr.strip().splitlines()
        assert len(lines) == 1 and lines[0].startswith("cloversolve: error: "), result.output
        assert str(path) in lines[0] and re.search(where, lines[0]), lines[0]
    assert not (tmp_path / "page.html").exists()


def test_load_refuses_a_broken_header(data: dict, tmp_path: Path) -> None:
    data["parameters"]["per_difficulty"] = "many"
    path = tmp_path / "bad.json"
    path.write_bytes(dump(data))
    with pytest.raises(CatalogueError, match="per_difficulty"):
        load(path)


def test_daily_and_lookup_still_answer(built: Path) -> None:
    data = load(built)
    assert daily(data, "2025-01-01", "easy")["difficulty"] == "easy"
    assert lookup(data, data["deals"][0]["number"]) == data["deals"][0]


# -- locating the shipped catalogues ----------------------------------------------------------


def test_installed_catalogues_come_first(tmp_path: Path) -> None:
    package = tmp_path / "site" / "cloversolve"
    (package / "catalogues").mkdir(parents=True)
    assert shipped_dir(package) == tmp_path / "site" / "catalogues"  # a source checkout
    (package / "catalogues" / "catalogue.schema.json").write_text("{}")
    assert shipped_dir(package) == package / "catalogues"  # an installed package


def test_the_package_build_installs_the_catalogues() -> None:
    config = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))["tool"]
    setuptools = config["setuptools"]
    assert "cloversolve.catalogues" in setuptools["packages"]
    assert setuptools["package-dir"]["cloversolve.catalogues"] == "catalogues"
    assert {"*.json", "VERIFIED.sha256"} <= set(
        setuptools["package-data"]["cloversolve.catalogues"]
    )


def test_the_wheel_holds_every_module_and_data_file(tmp_path: Path) -> None:
    """A non-editable install gets every module of the source tree, every file of the front
    ends' JS module (the families' ``rules.js`` too) with its manifest, and the shipped
    catalogues with theirs (a package left out of ``pyproject.toml`` breaks the CLI)."""
    built = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "-q"]
        + ["-w", str(tmp_path), str(REPO)],
        capture_output=True,
        text=True,
    )
    assert built.returncode == 0, built.stderr[-3000:]
    (wheel,) = tmp_path.glob("cloversolve-*.whl")
    names = set(zipfile.ZipFile(wheel).namelist())
    sources = {p.relative_to(REPO).as_posix() for p in (REPO / "cloversolve").rglob("*.py")}
    assert sources <= names, sorted(sources - names)
    shipped = {
        p.relative_to(REPO).as_posix()
        for pattern in ("*.js", "*.d.ts", "package.json")
        for p in (REPO / "cloversolve").rglob(pattern)
    }
    assert {"cloversolve/web/cloversolve.js", "cloversolve/families/clover/rules.js"} <= shipped
    shipped |= {"cloversolve/catalogues/thirteen.json", "cloversolve/catalogues/VERIFIED.sha256"}
    assert shipped <= names, sorted(shipped - names)


def test_shipped_catalogues_are_found_by_default(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("CLOVERSOLVE_CATALOGUES", raising=False)
    assert default_catalogue("thirteen") == shipped_dir() / "thirteen.json"
    assert open_catalogue("thirteen")["preset"] == "thirteen"


def test_the_catalogue_directory_setting_is_where_catalogues_are_looked_up(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """No fallback to the shipped catalogues once ``CLOVERSOLVE_CATALOGUES`` is set."""
    (tmp_path / "thirteen.json").write_bytes((shipped_dir() / "thirteen.json").read_bytes())
    monkeypatch.setenv("CLOVERSOLVE_CATALOGUES", str(tmp_path))
    assert default_catalogue("thirteen") == tmp_path / "thirteen.json"
    assert CliRunner().invoke(main, ["lookup", "thirteen", "1"]).exit_code == 0
    for args in (
        ["lookup", "fifteen", "1"],
        ["daily", "fifteen", "--date", "2025-01-01", "--difficulty", "easy"],
    ):
        result = CliRunner().invoke(main, args)
        assert result.exit_code == 2, result.output
        lines = result.stderr.strip().splitlines()
        assert len(lines) == 1 and result.stdout == ""
        assert f"no fifteen catalogue in {str(tmp_path)!r} (CLOVERSOLVE_CATALOGUES)" in lines[0]


@pytest.mark.parametrize("kind", ["missing", "file"])
def test_a_bad_catalogue_directory_setting_is_reported(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, kind: str
) -> None:
    target = tmp_path / "nowhere"
    if kind == "file":
        target.write_text("x")
    monkeypatch.setenv("CLOVERSOLVE_CATALOGUES", str(target))
    result = CliRunner().invoke(main, ["lookup", "thirteen", "42"])
    assert result.exit_code == 2
    line = result.stderr.strip()
    assert "CLOVERSOLVE_CATALOGUES" in line and str(target) in line
    assert ("does not exist" if kind == "missing" else "is not a directory") in line


def test_an_empty_catalogue_directory_setting_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CLOVERSOLVE_CATALOGUES", "")
    for args in (
        ["lookup", "thirteen", "42"],
        ["daily", "thirteen", "--date", "2025-01-01", "--difficulty", "easy"],
    ):
        result = CliRunner().invoke(main, args)
        assert result.exit_code == 2 and result.stdout == ""
        assert result.stderr == (
            "cloversolve: error: CLOVERSOLVE_CATALOGUES='' is set but empty; name a directory, "
            "or unset it for the shipped catalogues\n"
        )


# -- lookup and daily replay the entry before calling it verified -----------------------------


def _shipped_thirteen() -> dict:
    return orjson.loads((shipped_dir() / "thirteen.json").read_bytes())


def _tampered(tmp_path: Path, number: int) -> tuple[Path, dict]:
    """The shipped thirteen catalogue with two moves of deal ``number``'s route swapped (the
    first swap of neighbouring moves that stops the route from winning)."""
    data = _shipped_thirteen()
    entry = next(e for e in data["deals"] if e["number"] == number)
    route = entry["route"]
    for index in range(len(route) - 1):
        swapped = [*route[:index], route[index + 1], route[index], *route[index + 2 :]]
        if not replay("thirteen", number, swapped).won:
            entry["route"] = swapped
            break
    else:
        pytest.fail("no swap of neighbouring moves breaks the route")
    path = tmp_path / "tamper_route.json"
    path.write_bytes(dump(data))
    return path, entry


def test_lookup_and_daily_refuse_an_entry_whose_route_does_not_win(tmp_path: Path) -> None:
    path, entry = _tampered(tmp_path, 8)
    level = entry["difficulty"]
    numbers = [e["number"] for e in _shipped_thirteen()["deals"] if e["difficulty"] == level]
    day = (DAILY_EPOCH + dt.timedelta(days=sorted(numbers).index(8))).isoformat()
    for args in (
        ["lookup", "thirteen", "8"],
        ["lookup", "thirteen", "8", "--json"],
        ["daily", "thirteen", "--date", day, "--difficulty", level],
    ):
        result = CliRunner().invoke(main, [*args, "--catalogue", str(path)])
        assert result.exit_code == 2, result.output
        assert result.stdout == ""
        lines = result.stderr.strip().splitlines()
        assert len(lines) == 1, result.stderr
        assert "thirteen deal 8" in lines[0] and "does not win" in lines[0]
        assert f"cloversolve catalogue verify {path}" in lines[0]
    # The other entries are still served.
    other = CliRunner().invoke(main, ["lookup", "thirteen", "1", "--catalogue", str(path)])
    assert other.exit_code == 0 and "verified" in other.output


def test_readers_refuse_a_deal_listed_twice(tmp_path: Path) -> None:
    data = _shipped_thirteen()
    data["deals"].insert(0, copy.deepcopy(data["deals"][0]))
    path = tmp_path / "twice.json"
    path.write_bytes(dump(data))
    with pytest.raises(CatalogueError, match="listed 2 times"):
        load(path)
    level = data["deals"][0]["difficulty"]
    for args in (
        ["daily", "thirteen", "--date", "2025-01-01", "--difficulty", level],
        ["lookup", "thirteen", str(data["deals"][0]["number"])],
    ):
        result = CliRunner().invoke(main, [*args, "--catalogue", str(path)])
        assert result.exit_code == 2 and result.stdout == ""
        assert "listed 2 times" in result.stderr and len(result.stderr.splitlines()) == 1


def test_the_viewer_refuses_a_tampered_entry_as_play_does(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path, _ = _tampered(tmp_path, 8)
    folder = tmp_path / "catalogues"
    folder.mkdir()
    (folder / "thirteen.json").write_bytes(path.read_bytes())
    monkeypatch.setenv(CATALOGUE_DIR_ENV, str(folder))
    assert default_route("thirteen", 1).source == "catalogue"  # the other entries still count
    with pytest.raises(CatalogueError, match="thirteen deal 8 is not verified"):
        default_route("thirteen", 8)
    out = str(tmp_path / "page.html")
    for command in (
        ["view", "thirteen", "8", "--out", out],
        ["play", "thirteen", "8", "--out", out],
    ):
        result = CliRunner().invoke(main, command)
        assert result.exit_code == 2 and "thirteen deal 8 is not verified" in result.stderr
    assert not (tmp_path / "page.html").exists()


@pytest.mark.parametrize("setting", ["", "nonexistent", "empty", "corrupt"])
def test_the_viewer_refuses_a_broken_catalogue_setting_as_lookup_does(
    setting: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = tmp_path / "catalogues"
    if setting in ("empty", "corrupt"):
        folder.mkdir()
    if setting == "corrupt":
        (folder / "thirteen.json").write_text('{"format": "cloversolve-catalogue", ', "utf-8")
    value = "" if setting == "" else str(folder)
    monkeypatch.setenv(CATALOGUE_DIR_ENV, value)
    out = str(tmp_path / "page.html")
    looked_up = CliRunner().invoke(main, ["lookup", "thirteen", "1"])
    viewed = CliRunner().invoke(main, ["view", "thirteen", "1", "--out", out])
    assert looked_up.exit_code == viewed.exit_code == 2, viewed.output
    assert viewed.stderr.splitlines() == looked_up.stderr.splitlines()
    assert len(viewed.stderr.splitlines()) == 1 and not (tmp_path / "page.html").exists()


def test_lookup_refuses_an_entry_whose_layout_is_not_the_deal(tmp_path: Path) -> None:
    data = _shipped_thirteen()
    entry = next(e for e in data["deals"] if e["number"] == 8)
    entry["layout"]["number"] = 9
    path = tmp_path / "tamper_layout.json"
    path.write_bytes(dump(data))
    result = CliRunner().invoke(main, ["lookup", "thirteen", "8", "--catalogue", str(path)])
    assert result.exit_code == 2 and "layout is not the deal" in result.stderr


# -- lookup of a deal the catalogue does not list ---------------------------------------------


def test_lookup_tells_a_scanned_deal_from_an_unchecked_one() -> None:
    data = _shipped_thirteen()
    scanned = scanned_deals(data)
    listed = {e["number"] for e in data["deals"]}
    left_out = next(n for n in scanned if n not in listed)
    assert solve("thirteen", left_out).status.value == "unsolvable"  # deal 6
    result = CliRunner().invoke(main, ["lookup", "thirteen", str(left_out)])
    assert result.exit_code == 0
    assert "not checked" not in result.output
    assert "not a catalogued deal" in result.output and "unsolvable" in result.output
    assert f"cloversolve solve thirteen {left_out}" in result.output
    as_json = orjson.loads(
        CliRunner().invoke(main, ["lookup", "thirteen", str(left_out), "--json"]).output
    )
    assert as_json["verified"] is False and as_json["scanned"] is True
    beyond = scanned.stop
    result = CliRunner().invoke(main, ["lookup", "thirteen", str(beyond)])
    assert result.exit_code == 0 and "solvability not checked" in result.output
    as_json = orjson.loads(
        CliRunner().invoke(main, ["lookup", "thirteen", str(beyond), "--json"]).output
    )
    assert as_json["verified"] is False and as_json["scanned"] is False


def test_catalogues_with_numbers_past_64_bits_are_written_and_checked() -> None:
    data = _shipped_thirteen()
    largest = 10**20 - 1
    entry = data["deals"][-1]
    entry["number"] = largest
    entry["layout"] = deal("thirteen", largest).to_json()
    problems = verify(dump(data))
    assert problems and not any("not valid JSON" in p.message for p in problems)
    assert any(p.number == largest for p in problems)  # outside the scanned deals


def _nested(levels: int) -> list:
    value: list = []
    for _ in range(levels):
        value = [value]
    return value


@pytest.mark.parametrize("bad", [10**40, _nested(300)], ids=["huge-number", "deep-nesting"])
def test_an_entry_no_json_encoder_takes_is_refused_in_one_line(tmp_path: Path, bad) -> None:
    """An entry's field that orjson cannot write back (an integer past 64 bits, nesting past
    its depth) is quoted in the one-line refusal, not a traceback."""
    data = _shipped_thirteen()
    entry = next(e for e in data["deals"] if e["number"] == 8)
    entry["number"] = bad
    path = tmp_path / "odd.json"
    path.write_bytes(dump(data))
    result = CliRunner().invoke(main, ["lookup", "thirteen", "1", "--catalogue", str(path)])
    assert result.exit_code == 2, result.output
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and "schema: deals/5/number: " in lines[0], result.stderr


@pytest.mark.parametrize(
    ("old", "new"),
    [
        (b'"branching":7.39', b'"branching":1e400'),  # past a double's range
        (b'"toolkit_version": "0.1.0"', b'"toolkit_version": "0.1.0\\ud800"'),  # no character
    ],
)
def test_json_that_verify_refuses_every_reader_refuses(
    tmp_path: Path, old: bytes, new: bytes
) -> None:
    raw = default_catalogue("thirteen").read_bytes()
    assert old in raw
    path = tmp_path / "thirteen.json"
    path.write_bytes(raw.replace(old, new, 1))
    for args in (
        ["catalogue", "verify", str(path)],
        ["lookup", "thirteen", "1", "--catalogue", str(path)],
        ["daily", "thirteen", "--date", "2025-01-01", "--difficulty", "hard", "--catalogue", path],
        ["play", "thirteen", "1", "--catalogue", str(path), "--out", str(tmp_path / "p.html")],
    ):
        result = CliRunner().invoke(main, [str(arg) for arg in args])
        assert result.exit_code == 2, (args, result.output)
        lines = result.stderr.strip().splitlines()
        assert len(lines) == 1 and "not valid JSON" in lines[0] and str(path) in lines[0], lines
    assert [problem.message for problem in verify(path)][0].startswith("not valid JSON")


def test_a_catalogue_built_for_other_rules_is_refused_by_every_reader(tmp_path: Path) -> None:
    raw = default_catalogue("thirteen").read_bytes()
    old = b'"rules_version": 1,'
    assert old in raw
    path = tmp_path / "thirteen.json"
    path.write_bytes(raw.replace(old, b'"rules_version": 2,', 1))
    said = "built for rules version 2; this toolkit checks version 1"
    assert [problem.message for problem in verify(path)] == [said]
    for args in (
        ["lookup", "thirteen", "1", "--catalogue", str(path)],
        ["daily", "thirteen", "--date", "2025-01-01", "--difficulty", "hard", "--catalogue", path],
        ["play", "thirteen", "1", "--catalogue", str(path), "--out", str(tmp_path / "p.html")],
        ["audit", str(path)],
    ):
        result = CliRunner().invoke(main, [str(arg) for arg in args])
        assert result.exit_code == 2, (args, result.output)
        lines = result.stderr.strip().splitlines()
        assert len(lines) == 1 and said in lines[0] and str(path) in lines[0], lines
