"""cloversolve.js gives exactly what the Python toolkit gives.

The Python side's answers (layouts, replay results of corrupted routes, legal moves, reasons,
parse errors, daily deals) go to a JSON file; node's own test runner then runs
``tests/web/cloversolve.test.mjs``, which checks the module against them.
"""

from __future__ import annotations

import copy
import json
import random
import re
import tempfile
from pathlib import Path

import orjson
import pytest
from click.testing import CliRunner
from external_tools import run_node_tests

from cloversolve.catalogue.daily import daily
from cloversolve.catalogue.files import CatalogueError, entry_shape_problem, load
from cloversolve.cli.main import main
from cloversolve.core.deal_numbers import DealNumberError, check_deal_number
from cloversolve.core.notation import MoveParseError, parse_move, parse_route
from cloversolve.games.dealing import deal
from cloversolve.games.layout import Layout, LayoutError
from cloversolve.rules import position_from_layout
from cloversolve.solving.replay import replay
from cloversolve.web import module_path
from cloversolve.web.viewer import VIEWER_PRESETS

ROOT = Path(__file__).resolve().parent.parent
CATALOGUES = sorted(p for p in (ROOT / "catalogues").glob("*.json") if "schema" not in p.name)
NODE_TESTS = Path(__file__).resolve().parent / "web" / "cloversolve.test.mjs"
FRONT_END = VIEWER_PRESETS


def big_numbers() -> list[int]:
    """200 deal numbers of 32000 and more: the edges of the generators' words, then seeded
    numbers of every size up to 20 digits."""
    edges = [32000, 32001, 2**31 - 1, 2**31, 2**32 - 1, 2**32, 2**32 + 1, 2**53 - 1, 2**53]
    edges += [2**53 + 1, 2**63, 2**64 - 1, 2**64, 2**64 + 1, 10**20 - 2]
    rng = random.Random(14)
    rest = [rng.randrange(32000, 10 ** rng.randint(5, 20)) for _ in range(200 - len(edges))]
    return edges + rest


def catalogue_errors() -> list[dict]:
    """Catalogues the toolkit's reader refuses, each with its message without the file name
    (as ``daily`` in cloversolve.js words it): the reader's own checks, then the checks of an
    entry's fields (which the JSON Schema makes first in a file)."""
    shipped = json.loads(CATALOGUES[0].read_text(encoding="utf-8"))
    entries = shipped["deals"][:4]
    changes = [
        lambda deals: deals[0].update(number=str(deals[0]["number"])),
        lambda deals: deals[1].update(number=2**60),
        lambda deals: deals[2].update(number=deals[0]["number"]),
    ]
    found = []
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "catalogue.json"
        for change in changes:
            deals = copy.deepcopy(entries)
            change(deals)
            path.write_text(json.dumps({**shipped, "deals": deals}), encoding="utf-8")
            with pytest.raises(CatalogueError) as error:
                load(path)
            message = str(error.value).removeprefix(repr(str(path)) + " is ")
            found.append({"catalogue": {"deals": deals}, "message": message})
    good = entries[0]
    for bad in (
        {**good, "number": 0},
        {**good, "number": 10**20},
        {**good, "number": "x" * 80},
        {**good, "number": None},
        {**good, "difficulty": "Hard"},
        {key: value for key, value in good.items() if key != "number"},
        {key: value for key, value in good.items() if key != "difficulty"},
        5,
        [good],
    ):
        message = f"not a valid catalogue: deals/0: {entry_shape_problem(bad)}"
        found.append({"catalogue": {"deals": [bad, *entries[1:]]}, "message": message})
    return found


def layout_json(layout: Layout) -> dict:
    data = layout.to_json()
    data["number"] = None if layout.number is None else str(layout.number)
    return data


def corrupt(route: list[str], preset: str, rng: random.Random) -> list[str]:
    """The route with one move replaced, dropped or swapped with the next one."""
    k = rng.randrange(len(route))
    kind = rng.choice(("replace", "replace", "drop", "swap"))
    if kind == "drop" or (kind == "swap" and k == len(route) - 1):
        return route[:k] + route[k + 1 :]
    if kind == "swap":
        return route[:k] + [route[k + 1], route[k]] + route[k + 2 :]
    if preset == "fifteen":
        cells = sorted(rng.sample(range(1, 17), rng.randint(2, 4)))
        move = "+".join(map(str, cells))
    else:
        sources = [str(rng.randint(1, 17)), "F", "FC", "FD", "FH", "FS"]
        src = rng.choice(sources[:1] * 6 + sources[1:])
        dst = "F" if src[0] != "F" and rng.random() < 0.3 else str(rng.randint(1, 17))
        move = f"{src}>{dst}"
    return route[:k] + [move] + route[k + 1 :]


def probe_moves(preset: str) -> list[str]:
    """Moves of every kind, legal or not, to compare the reasons for."""
    if preset == "fifteen":
        rng = random.Random(15)
        groups = {
            "+".join(map(str, sorted(rng.sample(range(1, 17), 2 + i % 3)))) for i in range(80)
        }
        return sorted(groups) + ["1>F", "1>2"]
    places = [str(i) for i in range(1, 18)]
    moves = [f"{s}>{d}" for s in places for d in [*places, "F"]]
    moves += [f"{f}>{d}" for f in ("F", "FC", "FD", "FH", "FS") for d in places]
    return moves + ["99999999999999999999>1", "1>99999999999999999999", "1+2"]


def python_reasons(preset: str, number: int, route: list[str]) -> list[str | None]:
    position = position_from_layout(deal(preset, number))
    for move in parse_route(route):
        position.push(move)
    return [position.why_illegal(parse_move(text)) for text in probe_moves(preset)]


def legal_along(preset: str, number: int, route: list[str]) -> list[list[str]]:
    position = position_from_layout(deal(preset, number))
    lists = [[str(m) for m in position.legal_moves()]]
    for move in parse_route(route):
        position.push(move)
        lists.append([str(m) for m in position.legal_moves()])
    return lists


def guide_daily_vectors() -> tuple[list[dict], list[dict]]:
    """The guide's index vectors and its table of daily deals of the shipped catalogues."""
    text = (ROOT / "catalogues" / "README.md").read_text(encoding="utf-8")
    index_rows = re.findall(r"^\| (\d{4}-\d\d-\d\d) \| (\d+) \| (\d+) \|$", text, re.M)
    deal_rows = re.findall(
        r"^\| `([a-z-]+)` \| (\d{4}-\d\d-\d\d) \| deal (\d+) \| deal (\d+) \| deal (\d+) \|$",
        text,
        re.M,
    )
    indices = [{"date": d, "count": int(c), "index": int(i)} for d, c, i in index_rows]
    deals = [
        {"preset": preset, "date": date, "difficulty": level, "number": int(number)}
        for preset, date, *numbers in deal_rows
        for level, number in zip(("easy", "normal", "hard"), numbers, strict=True)
    ]
    return indices, deals


def daily_command_vectors() -> list[dict]:
    """What ``cloversolve daily --json`` says for every preset and difficulty on a few dates."""
    runner = CliRunner()
    found = []
    for preset in FRONT_END:
        for date in ("1999-12-31", "2000-01-01", "2024-02-29", "2026-12-01", "2101-03-01"):
            for level in ("easy", "normal", "hard"):
                args = ["daily", preset, "--date", date, "--difficulty", level, "--json"]
                result = runner.invoke(main, args, catch_exceptions=False)
                assert result.exit_code == 0, result.output
                data = json.loads(result.output)
                found.append(
                    {
                        k: data[k]
                        for k in ("preset", "date", "difficulty", "index", "count", "number")
                    }
                )
    return found


def expected_data() -> dict:
    catalogues = [json.loads(path.read_text(encoding="utf-8")) for path in CATALOGUES]
    assert {c["preset"] for c in catalogues} == set(FRONT_END)
    numbers = [*range(1, 1001), *big_numbers(), 10**20 - 1]
    layouts = {p: [layout_json(deal(p, n)) for n in numbers] for p in FRONT_END}
    rng = random.Random(2024)
    corrupted, legal, probes = [], [], []
    for catalogue in catalogues:
        preset = catalogue["preset"]
        for entry in catalogue["deals"][::10]:
            route = corrupt(list(entry["route"]), preset, rng)
            result = replay(preset, entry["number"], route)
            assert result.position is not None
            position = result.position.to_layout(preset, entry["number"])
            expected = {
                "status": result.status.value,
                "moves_played": result.moves_played,
                "illegal_at": result.illegal_at,
                "reason": result.reason,
                "position": layout_json(position),
            }
            corrupted.append(
                {"preset": preset, "number": entry["number"], "route": route, "expected": expected}
            )
        for entry in catalogue["deals"][:4]:
            route = entry["route"]
            legal.append(
                {
                    "preset": preset,
                    "number": entry["number"],
                    "route": route,
                    "legal": legal_along(preset, entry["number"], route),
                }
            )
            for cut in (0, len(route) // 3, len(route) // 2):
                probes.append(
                    {
                        "preset": preset,
                        "number": entry["number"],
                        "route": route[:cut],
                        "moves": probe_moves(preset),
                        "reasons": python_reasons(preset, entry["number"], route[:cut]),
                    }
                )
    indices, guide_deals = guide_daily_vectors()
    assert len(indices) >= 7 and len(guide_deals) == 30
    bad_numbers = []
    for bad in ("0", "100000000000000000000", "-5", "1.5", "abc", "", " 1", "5 ", "05", "007"):
        with pytest.raises(DealNumberError) as error:
            check_deal_number(bad)
        bad_numbers.append({"number": bad, "message": str(error.value)})
    parse_errors = []
    for text in (
        "0>F",
        "01>2",
        "-1>F",
        "FH>0",
        "0+3",
        "3+07",
        "4>F>",
        "F>F",
        "FH>F",
        "3+3",
        "5+3",
        "4 >5",
        "",
        "x",
        "it's",
        "4>G",
        "FX>1",
        "a\"b'c",
        "4>0",
        "+3",
    ):
        with pytest.raises(MoveParseError) as error:
            parse_move(text)
        parse_errors.append({"text": text, "message": str(error.value)})
    route_errors = []
    for route in (["4>F", "bad"], "4>1 4>F 5+5"):
        with pytest.raises(MoveParseError) as error:
            parse_route(route)
        route_errors.append({"route": route, "message": str(error.value)})
    with pytest.raises(MoveParseError) as error:
        parse_route({"4>1", "4>F"})
    unordered = str(error.value)
    difficulty_errors = []
    catalogue = {"deals": orjson.loads(CATALOGUES[0].read_bytes())["deals"]}
    for level in ("EASY", "Easy", "easy ", "medium", "", "hard" * 30):
        with pytest.raises(CatalogueError) as error:
            daily(catalogue, "2025-01-01", level)
        difficulty_errors.append({"difficulty": level, "message": str(error.value)})
    layout_errors = []
    for preset, key in (("thirteen", "foundation"), ("cloverleaf", "cells"), ("fifteen", "stok")):
        data = {**deal(preset, 1).to_json(), key: []}
        with pytest.raises(LayoutError) as error:
            Layout.from_json(data)
        layout_errors.append({"layout": data, "message": str(error.value)})
    return {
        "module": str(module_path()),
        "layout_errors": layout_errors,
        "catalogues": [str(path) for path in CATALOGUES],
        "layouts": layouts,
        "bad_numbers": bad_numbers,
        "corrupted": corrupted,
        "legal": legal,
        "probes": probes,
        "parse_errors": parse_errors,
        "route_errors": route_errors,
        "unordered_route_error": unordered,
        "good_moves": ["4>F", "4>11", "F>7", "FH>7", "3+7+12", "1+16", "13>12"],
        "daily_index": indices,
        "daily": guide_deals + daily_command_vectors(),
        "difficulty_errors": difficulty_errors,
        "catalogue_errors": catalogue_errors(),
    }


def test_javascript_module_matches_python(tmp_path: Path) -> None:
    expected = tmp_path / "expected.json"
    expected.write_text(json.dumps(expected_data()), encoding="utf-8")
    run_node_tests(NODE_TESTS, "CLOVERSOLVE_EXPECTED", expected)


def test_module_is_package_data_with_a_package_json() -> None:
    """The JS package's manifest sits at the top of the Python package (its modules are in
    ``web/`` and in the families' folders) and its entry point is ``cloversolve.js``."""
    path = module_path()
    assert path.name == "cloversolve.js" and path.is_file()
    package = path.parent.parent
    manifest = json.loads((package / "package.json").read_text(encoding="utf-8"))
    assert manifest["name"] == "cloversolve"
    assert manifest["type"] == "module"
    assert (package / manifest["exports"]["."]["default"]).resolve() == path.resolve()
