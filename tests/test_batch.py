"""``solve --batch`` and ``hint --batch``: one JSON answer per request line, in order."""

from __future__ import annotations

import io
import json
import subprocess

import pytest
from click.testing import CliRunner
from helpers import CLOVERSOLVE

from cloversolve.batch import BatchLimits, run_batch
from cloversolve.cli import main
from cloversolve.dealing import deal
from cloversolve.solver import hint, solve


def batch(kind: str, lines: list[str], *options: str) -> tuple[int, list[dict]]:
    result = CliRunner().invoke(
        main, [kind, "--batch", *options], input="\n".join(lines) + "\n", catch_exceptions=False
    )
    return result.exit_code, [json.loads(line) for line in result.stdout.splitlines()]


def without_timing(result: dict) -> dict:
    return {key: value for key, value in result.items() if key != "seconds"}


def test_solve_answers_in_order_and_bad_lines_do_not_stop_the_stream() -> None:
    layout = deal("cloverleaf", 2).to_json()
    lines = [
        '{"preset": "thirteen", "number": 1}',
        "not json",
        '{"id": 7, "preset": "thirteen", "number": "5000"}',
        "   ",
        '{"preset": "thirten", "number": 1}',
        json.dumps({"preset": "cloverleaf", "layout": layout}),
        '{"id": "b", "preset": "thirteen", "number": 1, "max_node": 3}',
        '{"preset": "thirteen", "number": true}',
        '{"preset": "thirteen"}',
        "[1, 2]",
        '{"preset": "fifteen", "number": 99999999999999999999, "max_nodes": 50}',
    ]
    code, answers = batch("solve", lines)
    assert code == 0
    assert len(answers) == len(lines) - 1  # the blank line gets no answer
    assert without_timing(answers[0]) == without_timing(solve("thirteen", 1).to_json())
    assert answers[1] == {"line": 2, "error": answers[1]["error"]}
    assert answers[1]["error"].startswith("not JSON: 'not json'")
    assert answers[2]["id"] == 7 and answers[2]["status"] == "unsolvable"
    assert answers[3] == {"line": 5, "error": "unknown preset: 'thirten'; did you mean 'thirteen'?"}
    assert answers[4]["status"] == "solved" and answers[4]["number"] == 2
    assert answers[4]["route"] == solve("cloverleaf", 2).route_strings
    assert answers[5]["id"] == "b" and answers[5]["error"].startswith("unknown field 'max_node'")
    assert answers[6]["error"] == "'number' must be a whole number, got True"
    assert answers[7]["error"] == "give exactly one of 'number' and 'layout'"
    assert answers[8]["error"].startswith("a request must be a JSON object")
    assert answers[9]["number"] == "99999999999999999999"  # (decimal text past 2**53 - 1)


def test_limits_from_the_command_line_and_from_a_request() -> None:
    request = {"preset": "thirteen", "number": 5008}
    code, answers = batch(
        "solve",
        [json.dumps(request), json.dumps({**request, "max_nodes": 10**6})],
        "--max-nodes",
        "1",
    )
    assert code == 0
    assert answers[0]["status"] == "limit"
    assert answers[1]["status"] == "solved"
    _, errors = batch("solve", [json.dumps({**request, "memory": "lots"})])
    assert errors[0]["error"] == "bad 'memory': 'lots' (expected a size, e.g. 512M or 2G)"
    _, errors = batch("solve", [json.dumps({**request, "max_nodes": 1.5})])
    assert errors[0]["error"].startswith("max_nodes must be a whole number")
    for huge in ("1" + "0" * 400, "2" + "0" * 400 + "K"):  # (beyond a float: inf)
        code, answers = batch(
            "solve",
            [json.dumps({**request, "memory": huge}), '{"preset": "thirteen", "number": 1}'],
        )
        assert code == 0 and answers[0]["error"].startswith("bad 'memory': ")
        assert "at most 256T" in answers[0]["error"] and answers[1]["status"] == "solved"


def test_hint_answers_after_the_moves_played() -> None:
    lines = [
        '{"preset": "thirteen", "number": 1}',
        '{"id": 2, "preset": "thirteen", "number": 1, "route": ["4>1", "4>F"]}',
        '{"preset": "thirteen", "number": 1, "route": ["4>4"]}',
        '{"preset": "thirteen", "number": 1, "route": ["4>x"]}',
        '{"preset": "fifteen", "number": 1}',
    ]
    code, answers = batch("hint", lines)
    assert code == 0
    assert answers[0] == {"preset": "thirteen", "number": 1, **hint("thirteen", 1).to_json()}
    assert answers[1]["id"] == 2 and answers[1]["keeps_win"] is True
    assert answers[2]["status"] == "illegal" and answers[2]["illegal_at"] == 1
    assert answers[2]["reason"] == "4>4: a card cannot move onto its own pile"
    assert answers[3]["error"].startswith("move 1 of the route: not a move: '4>x'")
    assert answers[4]["move"] == hint("fifteen", 1).to_json()["move"]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("solve",), "Missing argument 'PRESET'."),
        (("hint",), "Missing argument 'PRESET'."),
        (("solve", "thirteen", "--batch"), "give no PRESET"),
        (("hint", "--batch", "--layout", "x.json"), "give no PRESET"),
    ],
)
def test_batch_usage_errors(args: tuple[str, ...], message: str) -> None:
    result = CliRunner().invoke(main, list(args), catch_exceptions=False)
    assert result.exit_code == 2
    assert result.stderr.strip() == f"cloversolve: error: {message}" or message in result.stderr


def test_one_process_answers_each_line_as_it_arrives() -> None:
    command = [*CLOVERSOLVE, "solve", "--batch", "--max-nodes", "10000"]
    with subprocess.Popen(
        command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE
    ) as process:
        assert process.stdin is not None and process.stdout is not None
        for number in (1, 2, 3):
            process.stdin.write(json.dumps({"preset": "thirteen", "number": number}).encode())
            process.stdin.write(b"\n")
            process.stdin.flush()
            answer = json.loads(process.stdout.readline())
            assert answer["number"] == number and answer["status"] in ("solved", "unsolvable")
        process.stdin.close()
        assert process.wait(timeout=60) == 0


def test_an_integer_beyond_pythons_digit_limit_is_named_and_the_stream_goes_on() -> None:
    lines = [
        '{"preset": "thirteen", "number": ' + "9" * 5000 + "}",
        '{"preset": "fifteen", "number": 1}',
    ]
    code, answers = batch("solve", lines)
    assert code == 0 and "an integer of 5000 digits, more than 4300" in answers[0]["error"]
    assert "sys.set_int_max_str_digits" not in answers[0]["error"]
    assert answers[1]["status"] == "solved"


def test_an_illegal_route_is_answered_as_hint_json_prints_it() -> None:
    request = {"id": 2, "preset": "thirteen", "number": 1, "route": ["4>1", "4>4"]}
    _, answers = batch("hint", ["\ufeff" + json.dumps(request)])  # (a byte order mark first)
    command = CliRunner().invoke(main, ["hint", "thirteen", "1", "4>1", "4>4", "--json"])
    assert answers == [{"id": 2, "preset": "thirteen", "number": 1, **json.loads(command.stdout)}]
    assert answers[0]["illegal_at"] == 2


def test_a_line_that_is_not_utf8_is_named_so_and_the_stream_goes_on() -> None:
    lines = [b"\xff\xfe{}\n", b'{"preset": "thirteen", "number": 1}\n']
    out = io.BytesIO()
    counts = run_batch("solve", lines, out, BatchLimits())
    first, second = (json.loads(line) for line in out.getvalue().splitlines())
    assert first == {"line": 1, "error": "not UTF-8 text (byte 0xff at column 1)"}
    assert second["status"] == "solved" and counts.errors == 1
