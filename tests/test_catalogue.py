"""Catalogues: deterministic, resumable builds; verify catches tampering; daily and lookup;
every shipped catalogue verifies."""

from __future__ import annotations

import copy
import datetime as dt
import json
import re
from pathlib import Path

import orjson
import pytest
from click.testing import CliRunner
from helpers import assert_one_line_error

import cloversolve.catalogue.build as catalogue_module
from cloversolve.catalogue.build import build, checkpoint_path
from cloversolve.catalogue.daily import DAILY_EPOCH, daily, daily_index, lookup, parse_date
from cloversolve.catalogue.files import (
    FORMAT_VERSION,
    CatalogueError,
    default_catalogue,
    dump,
    load,
    schema,
)
from cloversolve.catalogue.verify import verify
from cloversolve.cli.catalogue import register
from cloversolve.cli.groups import OneLineErrors
from cloversolve.games.dealing import deal
from cloversolve.grading.grading import DIFFICULTIES, GRADING_VERSION, KNOWN_GRADING_VERSIONS
from cloversolve.runs.checkpoints import CheckpointError
from cloversolve.runs.locks import open_locked

REPO = Path(__file__).resolve().parent.parent
SHIPPED = REPO / "catalogues"
SHIPPED_PRESETS = ("thirteen", "thirteen-return", "fifteen", "cloverleaf", "alexander")
DAYS_IN_A_YEAR = 366

#: A tiny catalogue: the 15-sum game grades quickly.
PRESET = "fifteen"
DEALS = range(1, 400)
PER_DIFFICULTY = 2


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("built") / "fifteen.json"
    build(PRESET, DEALS, PER_DIFFICULTY, out, jobs=1)
    return out


@pytest.fixture()
def data(built: Path) -> dict:
    return load(built)


# -- build ----------------------------------------------------------------------------------


def test_build_content(built: Path, data: dict) -> None:
    assert data["preset"] == PRESET and data["format_version"] == FORMAT_VERSION == 2
    assert data["counts"] == {level: PER_DIFFICULTY for level in DIFFICULTIES}
    numbers = [entry["number"] for entry in data["deals"]]
    assert numbers == sorted(numbers) and len(set(numbers)) == len(numbers)
    for entry in data["deals"]:
        assert entry["layout"] == deal(PRESET, entry["number"]).to_json()
        assert entry["route_length"] == len(entry["route"])
    # The first deals of each difficulty, in ascending order: a deal left out before the last
    # chosen one must be unsolvable or of a difficulty that was already full.
    assert not checkpoint_path(built).exists()
    assert verify(built) == []


def test_build_is_byte_identical_whatever_jobs(built: Path, tmp_path: Path) -> None:
    two = tmp_path / "two.json"
    small_batches = tmp_path / "small.json"
    build(PRESET, DEALS, PER_DIFFICULTY, two, jobs=2)
    build(PRESET, DEALS, PER_DIFFICULTY, small_batches, jobs=1, chunk_size=3)
    assert two.read_bytes() == built.read_bytes()
    assert small_batches.read_bytes() == built.read_bytes()


class Crash(RuntimeError):
    pass


def chosen_numbers(path: Path) -> set[int]:
    return {entry["number"] for entry in load(path)["deals"]}


def test_interrupted_build_resumes_without_losing_work(
    built: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    out = tmp_path / "resumed.json"
    real_worker = catalogue_module.grade_worker
    graded: list[int] = []

    def crashing_worker(preset: str, rule: dict, number: int) -> dict:
        if len(graded) == 7:
            raise Crash("killed")
        graded.append(number)
        return real_worker(preset, rule, number)

    monkeypatch.setattr(catalogue_module, "grade_worker", crashing_worker)
    with pytest.raises(Crash):
        build(PRESET, DEALS, PER_DIFFICULTY, out, jobs=1, chunk_size=4)
    assert not out.exists()
    saved = checkpoint_path(out).read_bytes().splitlines()
    assert len(saved) == 1 + 1  # the header and the one finished chunk (deals 1..4)
    # A kill in the middle of writing a line leaves half a line: it must not hurt.
    with checkpoint_path(out).open("ab") as handle:
        handle.write(b'{"first": 5, "res')

    resumed: list[int] = []

    def counting_worker(preset: str, rule: dict, number: int) -> dict:
        resumed.append(number)
        return real_worker(preset, rule, number)

    monkeypatch.setattr(catalogue_module, "grade_worker", counting_worker)
    build(PRESET, DEALS, PER_DIFFICULTY, out, jobs=1, chunk_size=4)
    assert out.read_bytes() == built.read_bytes()
    assert resumed[:3] == [5, 6, 7]  # the unfinished chunk is graded again ...
    assert min(resumed) == 5  # ... and the finished one is not
    assert not checkpoint_path(out).exists()


def test_checkpoint_of_other_parameters_is_refused(tmp_path: Path) -> None:
    out = tmp_path / "x.json"
    checkpoint_path(out).write_bytes(
        b'{"kind": "catalogue", "preset": "thirteen"}\n{"first": 1, "results": [], "digest": ""}\n'
    )
    with pytest.raises(ValueError, match="other parameters") as refused:
        build(PRESET, DEALS, PER_DIFFICULTY, out)
    assert_offers_the_builds_own_remedy(str(refused.value))


def assert_offers_the_builds_own_remedy(message: str) -> None:
    """A build has no checkpoint option: its refusals offer what it has instead."""
    assert "another checkpoint file" not in message, message
    assert "delete it, or give another --out" in message, message


def test_a_checkpoint_of_another_first_deal_offers_the_builds_own_remedy(tmp_path: Path) -> None:
    out = tmp_path / "small.json"
    with pytest.raises(CatalogueError, match="widen"):
        build(PRESET, range(1, 6), PER_DIFFICULTY, out)
    with pytest.raises(ValueError, match="starts at deal 1") as refused:
        build(PRESET, range(3, 9), PER_DIFFICULTY, out)
    assert_offers_the_builds_own_remedy(str(refused.value))


def test_too_small_range_fails_and_keeps_the_checkpoint(tmp_path: Path) -> None:
    out = tmp_path / "small.json"
    with pytest.raises(CatalogueError, match="widen"):
        build(PRESET, range(1, 6), PER_DIFFICULTY, out)
    assert not out.exists() and checkpoint_path(out).exists()


def test_a_build_complete_from_a_longer_checkpoint_leaves_it_as_it_is(tmp_path: Path) -> None:
    out = tmp_path / "x.json"
    with pytest.raises(CatalogueError, match="widen"):  # (every deal of 1..40 is checkpointed)
        build(PRESET, range(1, 41), 1000, out)
    kept = checkpoint_path(out).read_bytes()
    build(PRESET, range(1, 41), 1, out)  # (complete after a few of the checkpoint's deals)
    assert out.exists() and checkpoint_path(out).read_bytes() == kept


def test_a_build_whose_checkpoint_another_run_writes_is_refused_before_any_work(
    tmp_path: Path,
) -> None:
    out = tmp_path / "x.json"
    with pytest.raises(CatalogueError, match="widen"):
        build(PRESET, range(1, 41), 1000, out)
    kept = checkpoint_path(out).read_bytes()
    held = open_locked(checkpoint_path(out))  # (as the other run holds it while it writes)
    assert held is not None
    with held, pytest.raises(CheckpointError, match="in use by another run"):
        build(PRESET, range(1, 41), 1, out)  # (its deals are all in the checkpoint)
    assert not out.exists() and checkpoint_path(out).read_bytes() == kept


# -- verify ---------------------------------------------------------------------------------


def problems_of(data: dict) -> list:
    return verify(dump(data))


def test_verify_detects_a_changed_card(data: dict) -> None:
    entry = data["deals"][1]
    cells = entry["layout"]["cells"]
    cells[0], cells[1] = cells[1], cells[0]
    problems = problems_of(data)
    assert [p.number for p in problems] == [entry["number"]]
    assert "layout" in problems[0].message


def test_verify_detects_a_foreign_card_and_a_broken_route(data: dict) -> None:
    first, second = data["deals"][0], data["deals"][2]
    first["layout"]["stock"][0] = "TD"
    second["route"] = second["route"][:-1]
    second["route_length"] -= 1
    numbers = {p.number for p in problems_of(data)}
    assert numbers == {first["number"], second["number"]}


def test_verify_detects_an_illegal_route(data: dict) -> None:
    entry = data["deals"][3]
    entry["route"][0], entry["route"][1] = entry["route"][1], entry["route"][0]
    problems = problems_of(data)
    assert [p.number for p in problems] == [entry["number"]]
    assert "route" in problems[0].message


def test_verify_detects_duplicates(data: dict) -> None:
    duplicate = copy.deepcopy(data["deals"][0])
    data["deals"].insert(1, duplicate)
    messages = [str(p) for p in problems_of(data)]
    assert any(f"deal {duplicate['number']}: listed 2 times" in m for m in messages)


def test_verify_detects_wrong_grades(data: dict) -> None:
    entry = next(e for e in data["deals"] if e["difficulty"] == "easy")
    entry["difficulty"] = "hard"
    data["counts"] = {"easy": 1, "normal": 2, "hard": 3}
    problems = problems_of(data)
    by_deal = [p for p in problems if p.number is not None]
    assert [p.number for p in by_deal] == [entry["number"]]
    assert "graded hard" in by_deal[0].message
    # one easy and three hard deals where two of each are stated
    assert sorted(p.message for p in problems if p.number is None) == [
        "per_difficulty is 2, the list has 1 easy deals",
        "per_difficulty is 2, the list has 3 hard deals",
    ]


def test_verify_checks_the_panel_rule(data: dict) -> None:
    assert data["parameters"]["grading"]["version"] == GRADING_VERSION
    entry = data["deals"][0]
    player = next(iter(entry["metrics"]["panel_wins"]))
    entry["metrics"]["panel_wins"][player] = entry["metrics"]["panel_games"] + 1
    problems = problems_of(data)
    assert [p.number for p in problems] == [entry["number"]]
    assert f"{player} won" in problems[0].message
    del entry["metrics"]["panel_wins"][player]
    assert "do not fit the grading rule" in problems_of(data)[0].message
    renamed = copy.deepcopy(data)
    renamed["parameters"]["grading"]["easy_threshold"] = 0.99
    assert any("grading" in p.message for p in problems_of(renamed))


def test_verify_accepts_the_previous_grading_version_as_stated(data: dict) -> None:
    """Catalogues built before the panel (grading version 1) state their rule; verify checks
    their grades by it (the first two deals of each difficulty of the last version-1
    ``fifteen`` catalogue, with the verdicts of deals up to the last of them). A version this
    toolkit does not know is refused."""
    previous = REPO / "tests" / "data" / "fifteen_catalogue_grading_v1.json"
    assert load(previous)["parameters"]["grading"]["version"] == 1 in KNOWN_GRADING_VERSIONS
    assert verify(previous) == []
    v1 = load(previous)
    v1["deals"][0]["metrics"]["playout_wins"] = v1["deals"][0]["metrics"]["playouts"] + 1
    assert [p.number for p in problems_of(v1)] == [v1["deals"][0]["number"]]
    data["parameters"]["grading"]["version"] = 9
    assert any("grading" in p.message for p in problems_of(data))


@pytest.mark.parametrize(
    "tamper",
    [
        lambda d: d.pop("format_version"),
        lambda d: d.update(format_version=3),
        lambda d: d["deals"][0].update(difficulty="medium"),
        lambda d: d["deals"][0]["route"].append("4>>F"),
        lambda d: d["deals"][0]["metrics"].pop("score"),
        lambda d: d["parameters"]["grading"].update(easy_threshold="high"),
        lambda d: d.update(extra=True),
    ],
)
def test_verify_detects_schema_violations(data: dict, tamper) -> None:
    tamper(data)
    problems = problems_of(data)
    assert problems and any(p.message.startswith("schema:") for p in problems)


def test_a_schema_error_of_a_fixed_value_quotes_the_value_found(data: dict) -> None:
    data["parameters"]["daily_epoch"] = "2000-1-1"
    messages = [p.message for p in problems_of(data)]
    expected = "'2000-1-1' is not '2000-01-01', the one value allowed"
    assert f"schema: parameters/daily_epoch: {expected}" in messages, messages


def test_verify_detects_truncated_json(built: Path, tmp_path: Path) -> None:
    truncated = tmp_path / "cut.json"
    truncated.write_bytes(built.read_bytes()[:-200])
    problems = verify(truncated)
    assert len(problems) == 1 and "not valid JSON" in problems[0].message
    assert verify(tmp_path / "missing.json")[0].message.startswith("cannot read")


@pytest.mark.parametrize("data", [{}, {"preset": 5}], ids=["no preset", "a number"])
def test_verify_of_a_catalogue_without_a_preset_name_reports_the_schema_only(data: dict) -> None:
    problems = verify(data)
    assert problems and all(p.message.startswith("schema:") for p in problems), problems
    assert any("preset" in p.message for p in problems)


def test_schema_has_one_source() -> None:
    assert not (REPO / "cloversolve" / "catalogue.schema.json").exists()
    shipped = SHIPPED / "catalogue.schema.json"
    assert schema() == json.loads(shipped.read_text(encoding="utf-8"))


# -- daily and lookup -----------------------------------------------------------------------

#: (date, count, index) vectors of the daily rule, as printed in catalogues/README.md.
DAILY_VECTORS = [
    ("2000-01-01", 366, 0),
    ("2000-12-31", 366, 365),
    ("2001-01-01", 366, 0),
    ("2025-01-01", 366, 348),
    ("2025-01-01", 400, 332),
    ("1999-12-31", 366, 365),
    ("2024-02-29", 366, 41),
]


@pytest.mark.parametrize(("day", "count", "index"), DAILY_VECTORS)
def test_daily_index_vectors(day: str, count: int, index: int) -> None:
    assert daily_index(parse_date(day), count) == index


def test_daily_picks_by_number_order(data: dict) -> None:
    shuffled = dict(data, deals=list(reversed(data["deals"])))
    for level in DIFFICULTIES:
        numbers = sorted(e["number"] for e in data["deals"] if e["difficulty"] == level)
        for offset in range(4):
            day = DAILY_EPOCH + dt.timedelta(days=offset)
            assert daily(shuffled, day, level)["number"] == numbers[offset % len(numbers)]
    with pytest.raises(CatalogueError, match="bad date"):
        daily(data, "2025-02-30", "easy")
    with pytest.raises(CatalogueError, match="unknown difficulty"):
        daily(data, "2025-02-03", "medium")


def test_lookup(data: dict) -> None:
    listed = data["deals"][0]
    assert lookup(data, listed["number"]) is listed
    unlisted = next(n for n in DEALS if all(e["number"] != n for e in data["deals"]))
    assert lookup(data, unlisted) is None
    with pytest.raises(ValueError, match="bad deal number"):
        lookup(data, 0)


# -- command line ---------------------------------------------------------------------------


@pytest.fixture(scope="module")
def cli():
    import click

    @click.group(cls=OneLineErrors)
    def group() -> None:
        pass

    register(group)
    runner = CliRunner()
    return lambda *args: runner.invoke(group, [str(a) for a in args], catch_exceptions=False)


def test_a_build_never_replaces_a_file_that_is_not_a_catalogue(
    cli, built: Path, tmp_path: Path
) -> None:
    notes = tmp_path / "notes.txt"
    notes.write_bytes(b"my notes\n")
    args = ["catalogue", "build", PRESET, "--deals", "1..399", "--per-difficulty", 2]
    refused = cli(*args, "--out", notes, "--no-progress")
    assert_one_line_error(refused, 2, repr(str(notes)))
    assert f"is not a cloversolve catalogue of {PRESET}; remove it or name" in refused.stderr
    assert notes.read_bytes() == b"my notes\n"
    assert sorted(tmp_path.iterdir()) == [notes]  # no checkpoint beside it either
    other = tmp_path / "other.json"  # a catalogue of another preset: someone's, kept
    other.write_bytes(default_catalogue("thirteen").read_bytes())
    refused = cli(*args, "--out", other, "--no-progress")
    assert_one_line_error(refused, 2, f"is not a cloversolve catalogue of {PRESET}; remove it")
    assert other.read_bytes() == default_catalogue("thirteen").read_bytes()
    other.unlink()
    # A catalogue of this preset (this build's or another's) or an empty file is replaced.
    for start in (built.read_bytes(), b""):
        out = tmp_path / "out.json"
        out.write_bytes(start)
        assert cli(*args, "--out", out, "--no-progress").exit_code == 0
        assert out.read_bytes() == built.read_bytes()


def test_cli_build_verify_daily_lookup(cli, built: Path, tmp_path: Path) -> None:
    out = tmp_path / "cli.json"
    args = ["catalogue", "build", PRESET, "--deals", "1..399", "--per-difficulty", 2]
    made = cli(*args, "--jobs", 2, "--out", out, "--no-progress")
    assert made.exit_code == 0, made.output
    assert out.read_bytes() == built.read_bytes()
    assert "2 easy, 2 normal, 2 hard" in made.output

    checked = cli("catalogue", "verify", out)
    assert checked.exit_code == 0 and checked.output.strip().endswith("ok")

    data = load(out)
    today = daily(data, "2025-01-01", "normal")
    shown = cli(
        "daily", PRESET, "--date", "2025-01-01", "--difficulty", "normal", "--catalogue", out
    )
    assert shown.exit_code == 0 and f"deal {today['number']}" in shown.output
    as_json = json.loads(
        cli(
            "daily",
            PRESET,
            "--date",
            "2025-01-01",
            "--difficulty",
            "normal",
            "--catalogue",
            out,
            "--json",
        ).output
    )
    assert as_json["number"] == today["number"] and as_json["route"] == today["route"]

    listed = data["deals"][0]
    found = cli("lookup", PRESET, listed["number"], "--catalogue", out)
    assert found.exit_code == 0
    assert f"verified, difficulty {listed['difficulty']}" in found.output
    missing = cli("lookup", PRESET, 10**12, "--catalogue", out)
    assert missing.exit_code == 0 and "solvability not checked" in missing.output
    assert (
        json.loads(cli("lookup", PRESET, 10**12, "--catalogue", out, "--json").output)["verified"]
        is False
    )


def test_cli_verify_lists_problems_and_exits_1(cli, data: dict, tmp_path: Path) -> None:
    entry = data["deals"][2]
    entry["route"] = entry["route"][:-1]
    entry["route_length"] -= 1
    bad = tmp_path / "bad.json"
    bad.write_bytes(dump(data))
    result = cli("catalogue", "verify", bad)
    assert result.exit_code == 1
    assert f"deal {entry['number']}: route does not win" in result.output
    report = json.loads(cli("catalogue", "verify", bad, "--json").output)
    assert report["ok"] is False and report["problems"][0]["number"] == entry["number"]


@pytest.mark.parametrize(
    ("args", "quoted"),
    [
        (["daily", PRESET, "--date", "2025-13-01", "--difficulty", "easy"], "'2025-13-01'"),
        (["daily", "fiftee", "--date", "2025-01-01", "--difficulty", "easy"], "'fiftee'"),
        (["lookup", PRESET, "0"], "'0'"),
        (["lookup", PRESET, "3", "--catalogue", "/nonexistent/x.json"], "/nonexistent/x.json"),
        (
            [
                "catalogue",
                "build",
                PRESET,
                "--deals",
                "9..1",
                "--per-difficulty",
                "1",
                "--out",
                "x.json",
            ],
            "'9..1'",
        ),
        (
            [
                "catalogue",
                "build",
                "blackhole",
                "--deals",
                "1..9",
                "--per-difficulty",
                "1",
                "--out",
                "x.json",
            ],
            "'blackhole'",
        ),
    ],
)
def test_cli_bad_input_is_one_line(cli, args: list[str], quoted: str) -> None:
    assert_one_line_error(cli(*args), 2, quoted)


def test_cli_catalogue_of_another_preset(cli, built: Path) -> None:
    assert_one_line_error(cli("lookup", "thirteen", "1", "--catalogue", built), 2, "'fifteen'")


# -- shipped catalogues ---------------------------------------------------------------------


@pytest.mark.parametrize("preset", SHIPPED_PRESETS)
def test_shipped_catalogue_verifies(preset: str) -> None:
    path = SHIPPED / f"{preset}.json"
    assert path.is_file(), f"no shipped catalogue {path}"
    problems = verify(path)
    assert problems == [], "\n".join(map(str, problems[:20]))
    counts = orjson.loads(path.read_bytes())["counts"]
    assert all(counts[level] >= DAYS_IN_A_YEAR for level in DIFFICULTIES), counts


def guide_daily_rows() -> list[tuple[str, str, list[int]]]:
    """(preset, date, [easy, normal, hard] deal numbers) of the consumer guide's daily table."""
    text = (SHIPPED / "README.md").read_text(encoding="utf-8")
    pattern = r"^\| `([a-z-]+)` \| (\d{4}-\d\d-\d\d) \| deal (\d+) \| deal (\d+) \| deal (\d+) \|$"
    return [
        (preset, day, [int(n) for n in numbers])
        for preset, day, *numbers in re.findall(pattern, text, flags=re.MULTILINE)
    ]


def test_the_guide_shows_the_daily_deals_of_the_shipped_catalogues() -> None:
    rows = guide_daily_rows()
    assert {preset for preset, _, _ in rows} == set(SHIPPED_PRESETS)
    for preset, day, numbers in rows:
        data = orjson.loads((SHIPPED / f"{preset}.json").read_bytes())
        shown = [daily(data, day, level)["number"] for level in DIFFICULTIES]
        assert shown == numbers, (preset, day)


def test_every_shipped_file_is_known() -> None:
    names = {p.name for p in SHIPPED.glob("*.json")}
    expected = {f"{p}.json" for p in SHIPPED_PRESETS} | {"catalogue.schema.json"}
    assert names == expected
