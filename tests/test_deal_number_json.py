"""Deal numbers in JSON: an integer up to 2**53 - 1, decimal text beyond it, in everything the
toolkit writes; both forms read everywhere; and the same deal after a trip through
cloversolve.js (``JSON.parse``, the module, ``JSON.stringify``) and back."""

from __future__ import annotations

import io
import json
import re
import subprocess
from pathlib import Path

import pytest
from click.testing import CliRunner
from external_tools import node
from helpers import run

from cloversolve.catalogue.daily import daily, lookup
from cloversolve.catalogue.files import CatalogueError, dump, load, with_int_numbers
from cloversolve.cli.batch import run_batch
from cloversolve.cli.main import main
from cloversolve.core.jsonio import MAX_EXACT_INT, dumps, json_integer, loads
from cloversolve.games.dealing import deal
from cloversolve.games.layout import Layout, LayoutError
from cloversolve.rules.layout_check import check_layout
from cloversolve.search.common import Limits
from cloversolve.web import module_path
from cloversolve.web.viewer import VIEWER_PRESETS, RouteChoice, page

REPO = Path(__file__).resolve().parent.parent
#: The edges: the smallest deal, the last and first numbers past JavaScript's exact integers,
#: and the largest deal.
EDGES = (1, 2**53 - 1, 2**53, 2**53 + 1, 10**20 - 1)
SCRIPT = Path(__file__).resolve().parent / "web" / "deal_numbers.mjs"


def json_form(number: int) -> int | str:
    """What the toolkit must write for ``number`` (stated here, not taken from the code)."""
    return number if number <= 9007199254740991 else str(number)


# -- the writer -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("value", "text"),
    [
        (2**53 - 1, b"9007199254740991"),
        (2**53, b'"9007199254740992"'),
        (-(2**53 - 1), b"-9007199254740991"),
        (-(2**53), b'"-9007199254740992"'),
        (2**64, b'"18446744073709551616"'),
        (10**20 - 1, b'"99999999999999999999"'),
        ({"a": [1, (2**53 + 1,)], "b": True}, b'{"a":[1,["9007199254740993"]],"b":true}'),
    ],
)
def test_dumps_writes_integers_past_2_53_as_decimal_text(value: object, text: bytes) -> None:
    assert dumps(value) == text
    assert MAX_EXACT_INT == 2**53 - 1 and json_integer(2**53) == "9007199254740992"


@pytest.mark.parametrize(
    "text",
    [b'{"a":1e400}', b'{"a":-1e400}', b'{"a":"x\\ud800"}', b'["\\udc00y"]', b'["\xed\xa0\x80"]'],
)
@pytest.mark.parametrize("form", ["orjson", "unique keys", "long digits"])
def test_both_parsers_refuse_what_is_no_json_value(text: bytes, form: str) -> None:
    # (a number past a double, a lone surrogate: orjson's reader and the standard library's
    # alike, whichever reads the text)
    data = text.replace(b"[", b"[12345678901234567890,", 1) if form == "long digits" else text
    with pytest.raises(ValueError):
        loads(data, unique_keys=form == "unique keys")
    assert loads(b'["\\ud83d\\ude00", 1e300, "\\\\ud800"]', unique_keys=True) == [
        "\U0001f600",
        1e300,
        "\\ud800",
    ]


def test_dumps_keeps_exact_integers_and_indents_when_asked() -> None:
    assert dumps({"n": 10**20 - 1}, exact_integers=True) == b'{"n":99999999999999999999}'
    assert loads(dumps([10**20 - 1], exact_integers=True)) == [10**20 - 1]
    assert dumps({"n": [2**53]}, indent=True) == b'{\n  "n": [\n    "9007199254740992"\n  ]\n}'
    assert dumps({"n": [1]}, indent=True) == b'{\n  "n": [\n    1\n  ]\n}'


@pytest.mark.parametrize("number", EDGES)
def test_deal_and_solve_json_write_the_number_in_its_json_form(number: int) -> None:
    dealt = run("deal", "thirteen", str(number), "--json")
    assert dealt.exit_code == 0, dealt.output
    assert json.loads(dealt.output)["number"] == json_form(number)
    assert Layout.from_json(json.loads(dealt.output)) == deal("thirteen", number)
    solved = CliRunner().invoke(
        main, ["solve", "thirteen", str(number), "--json", "--max-nodes", "5"]
    )
    assert solved.exit_code in (0, 3, 4), solved.output
    assert json.loads(solved.stdout)["number"] == json_form(number)


def test_batch_answers_write_and_read_both_forms() -> None:
    layout = {**deal("thirteen", 2**53 + 1).to_json(), "number": "9007199254740993"}
    requests = [
        {"id": 1, "preset": "thirteen", "number": "99999999999999999999", "max_nodes": 5},
        {"id": 2, "preset": "thirteen", "number": 2**53, "max_nodes": 5},
        {"id": 3, "preset": "thirteen", "layout": layout, "max_nodes": 5},
        {"id": 4, "preset": "thirteen", "number": 7, "max_nodes": 5},
    ]
    lines = [dumps(r, exact_integers=True).decode() for r in requests]
    out = io.BytesIO()
    run_batch("solve", lines, out, Limits())
    answers = [json.loads(line) for line in out.getvalue().splitlines()]
    assert [a["number"] for a in answers] == [
        "99999999999999999999",
        "9007199254740992",
        "9007199254740993",
        7,
    ], answers
    out = io.BytesIO()
    run_batch("hint", lines[:1], out, Limits())
    assert json.loads(out.getvalue())["number"] == "99999999999999999999"


def test_the_viewer_page_embeds_the_number_in_its_json_form() -> None:
    for number in (5, 2**53 + 1):
        text = page(deal("thirteen", number), RouteChoice((), "given"))
        match = re.search(r'id="viewer-data">(.*?)</script>', text, re.S)
        assert match is not None
        assert json.loads(match[1])["number"] == json_form(number)


def test_study_json_writes_its_deal_range_in_the_json_form() -> None:
    result = run(
        "study", "thirteen", "--deals", "9007199254740991..9007199254740992", "--json",
        "--per-deal", "--max-nodes", "5", "--jobs", "1",
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["deals"]["first"] == 9007199254740991
    assert data["deals"]["last"] == "9007199254740992"
    assert set(data["per_deal"]) == {"9007199254740991", "9007199254740992"}


# -- the readers ------------------------------------------------------------------------------


@pytest.mark.parametrize("number", [2**53 + 1, 10**20 - 1, 42])
def test_a_layout_reads_its_number_as_an_integer_or_as_decimal_text(number: int) -> None:
    expected = deal("fifteen", number)
    for form in (number, str(number)):
        read = Layout.from_json({**expected.to_json(), "number": form})
        assert read == expected and read.number == number
        assert check_layout(read) == expected


@pytest.mark.parametrize(
    ("form", "quoted"),
    [("0", "'0'"), ("100000000000000000000", "'100000000000000000000'"), ("4x", "'4x'")],
)
def test_a_layout_with_a_bad_number_text_is_refused_quoting_it(form: str, quoted: str) -> None:
    with pytest.raises(LayoutError, match=re.escape(f"bad deal number: {quoted}")):
        Layout.from_json({**deal("thirteen", 1).to_json(), "number": form})


def test_layout_and_route_files_take_the_number_as_text(tmp_path: Path) -> None:
    number = 10**20 - 1
    layout = tmp_path / "layout.json"
    layout.write_text(run("deal", "thirteen", str(number), "--json").output)
    assert '"number":"99999999999999999999"' in layout.read_text()
    route = tmp_path / "route.json"
    route.write_text(json.dumps({"preset": "thirteen", "number": str(number), "route": ["1>2"]}))
    for source in ([str(number)], ["--layout", str(layout)]):
        replayed = run("replay", "thirteen", *source, "--route-file", str(route), "--json")
        assert replayed.exit_code == 1, replayed.output
        assert json.loads(replayed.stdout)["illegal_at"] == 1
    other = run("replay", "thirteen", "5", "--route-file", str(route))
    assert other.exit_code == 2 and "not of thirteen deal 5" in other.stderr
    route.write_text(json.dumps({"preset": "thirteen", "number": "9x", "route": ["1>2"]}))
    bad = run("replay", "thirteen", str(number), "--route-file", str(route))
    assert bad.exit_code == 2, bad.output
    assert bad.stderr.strip().splitlines() == [
        f"cloversolve: error: route file {str(route)!r}: 'number' is \"9x\", not a deal number"
    ]


def test_a_layout_file_with_a_bad_number_text_gives_one_line(tmp_path: Path) -> None:
    path = tmp_path / "layout.json"
    path.write_text(json.dumps({**deal("thirteen", 1).to_json(), "number": "-3"}))
    result = run("solve", "thirteen", "--layout", str(path))
    assert result.exit_code == 2, result.output
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and "bad deal number: '-3'" in lines[0], result.stderr


def test_catalogue_numbers_written_as_text_read_as_the_integers(tmp_path: Path) -> None:
    shipped = load(REPO / "catalogues" / "fifteen.json")
    textual = json.loads((REPO / "catalogues" / "fifteen.json").read_text(encoding="utf-8"))
    scanned = textual["parameters"]["deals"]
    textual["parameters"]["deals"] = {key: str(value) for key, value in scanned.items()}
    for entry in textual["deals"]:
        entry["number"] = str(entry["number"])
        entry["layout"]["number"] = str(entry["layout"]["number"])
    path = tmp_path / "fifteen.json"
    path.write_bytes(dump(textual))  # (format 2 wants each number in its JSON form)
    with pytest.raises(CatalogueError, match="must be written as a JSON integer"):
        load(path)
    path.write_bytes(dump({**textual, "format_version": 1}))  # (format 1 takes either)
    assert load(path) == {**shipped, "format_version": 1}
    first = shipped["deals"][0]["number"]
    assert lookup(load(path), str(first)) == shipped["deals"][0]


def test_catalogue_dump_writes_big_numbers_as_text() -> None:
    entry = {"number": 2**53 + 1, "layout": deal("thirteen", 2**53 + 1).to_json()}
    text = dump({"format": "cloversolve-catalogue", "deals": [entry, {"number": 3}]})
    assert b'"number":"9007199254740993"' in text and b'{"number":3}' in text
    assert with_int_numbers(loads(text))["deals"] == [entry, {"number": 3}]


# -- Python -> JSON -> cloversolve.js -> JSON.stringify -> Python -----------------------------


def test_every_edge_number_survives_a_trip_through_the_javascript_module(tmp_path: Path) -> None:
    program = node()
    deals = [
        {"preset": preset, "text": run("deal", preset, str(number), "--json").output}
        for preset in VIEWER_PRESETS
        for number in EDGES
    ]
    answers = []
    for number in EDGES:
        solved = CliRunner().invoke(
            main, ["solve", "alexander", str(number), "--json", "--max-nodes", "5"]
        )
        answers.append({"preset": "alexander", "text": solved.stdout})
    out = io.BytesIO()
    lines = [dumps({"preset": "fifteen", "number": n, "max_nodes": 5}).decode() for n in EDGES]
    run_batch("solve", lines, out, Limits())
    answers += [
        {"preset": "fifteen", "text": line.decode()} for line in out.getvalue().splitlines()
    ]
    entries = [{"number": n, "difficulty": "easy"} for n in (10**20 - 1, 5, 2**53 + 1)]
    catalogue = dump({"deals": entries}).decode()
    cases = tmp_path / "cases.json"
    cases.write_text(
        json.dumps(
            {
                "module": str(module_path()),
                "deals": deals,
                "answers": answers,
                "catalogue": catalogue,
            }
        ),
        encoding="utf-8",
    )
    done = subprocess.run(
        [program, str(SCRIPT), str(cases)], capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0, done.stderr[-3000:]
    found = json.loads(done.stdout)

    for case, reply in zip(deals, found["deals"], strict=True):
        preset, layout = case["preset"], json.loads(case["text"])
        expected = deal(preset, int(layout["number"]))
        # The module writes exactly what the toolkit writes, in every form it was given.
        assert reply["dealt"] == case["text"].strip()
        assert set(reply["forms"].values()) == {case["text"].strip()}
        assert reply["numberType"] == ("number" if expected.number <= 2**53 - 1 else "string")
        for key in ("dealt", "checked", "checkedBigInt"):
            read = check_layout(Layout.from_json(loads(reply[key].encode())))
            assert read == expected and read.number == expected.number, (preset, key)
        start = loads(reply["start"].encode())
        replayed = loads(reply["replay"].encode())
        for shown in (
            start["layout"],
            start["position"],
            replayed["layout"],
            *replayed["positions"],
        ):
            assert shown["number"] == json_form(expected.number)
        assert Layout.from_json(start["layout"]) == expected
        assert loads(reply["replayLayout"].encode())["layout"]["number"] == layout["number"]
        played = loads(reply["play"].encode())
        assert played is None or played["position"]["number"] == layout["number"]
        if expected.number > 2**53 - 1:  # a Number this large is refused, not rounded
            assert reply["asNumber"]["name"] == "DealNumberError"
            rounded = int(float(expected.number))  # (the Number JSON.parse would make)
            why = "deals are 1" if rounded > 10**20 - 1 else "pass a BigInt or a decimal string"
            assert why in reply["asNumber"]["message"], reply["asNumber"]
        else:
            assert reply["asNumber"] is None

    for case, reply in zip(answers, found["answers"], strict=True):
        written = json.loads(case["text"])["number"]
        assert reply == {"number": written, "redealt": written}
    assert [json.loads(c["text"])["number"] for c in answers] == [json_form(n) for n in EDGES] * 2

    read_back = with_int_numbers(loads(catalogue.encode()))
    for day, text in zip(("2000-01-01", "2000-01-02", "2000-01-03"), found["daily"], strict=True):
        mine = with_int_numbers({"deals": [loads(text.encode())]})["deals"][0]
        assert mine == daily(read_back, day, "easy")
