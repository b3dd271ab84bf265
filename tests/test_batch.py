"""``solve --batch`` and ``hint --batch``: one JSON answer per request line, in order."""

from __future__ import annotations

import io
import json
import os
import subprocess

import pytest
from click.testing import CliRunner
from helpers import CLOVERSOLVE, run
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cloversolve.cli.batch import run_batch
from cloversolve.cli.main import main
from cloversolve.core.inputs import capped_lines
from cloversolve.games.dealing import deal
from cloversolve.search.common import Limits
from cloversolve.solving.solver import hint, solve


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
    assert answers[6]["error"] == "'number' must be a whole number, got true"
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
    assert errors[0]["error"] == "bad 'memory': \"lots\" (expected a size, e.g. 512M or 2G)"
    _, errors = batch("solve", [json.dumps({**request, "memory": "\u0665\u0661\u0662M"})])
    assert errors[0]["error"].startswith("bad 'memory': ")  # (ASCII digits only)
    _, errors = batch("solve", [json.dumps({**request, "max_nodes": 1.5})])
    assert errors[0]["error"] == "'max_nodes' must be a whole number from 1 to 2**62, got 1.5"
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
    assert answers[4]["status"] == "not-searched" and answers[4]["keeps_win"] is False


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
    result = run(*args)
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


@pytest.mark.parametrize("kind", ["solve", "hint"])
def test_a_closed_standard_input_is_one_line_as_for_a_route_file(kind: str) -> None:
    def no_stdin() -> None:
        os.close(0)

    done = subprocess.run(
        [*CLOVERSOLVE, kind, "--batch"],
        capture_output=True,
        preexec_fn=no_stdin,
        timeout=120,
        check=False,
    )
    assert (done.returncode, done.stdout) == (2, b""), done.stderr
    assert (
        done.stderr == b"cloversolve: error: cannot read the requests: standard input is closed\n"
    )


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
    counts = run_batch("solve", lines, out, Limits())
    first, second = (json.loads(line) for line in out.getvalue().splitlines())
    assert first == {"line": 1, "error": "not UTF-8 text (byte 0xff at column 1)"}
    assert second["status"] == "solved" and counts.errors == 1


def test_the_quoted_stream_answers_both_lines() -> None:
    """A lone surrogate beside a number past 64 bits (read by the standard library) is an
    error of its line, and the next line is answered."""
    lines = (
        b'{"preset":"thirteen","number":2,"id":"\\ud800","n":12345678901234567890}\n'
        b'{"preset":"thirteen","number":3}\n'
    )
    done = subprocess.run(
        [*CLOVERSOLVE, "solve", "--batch"], input=lines, capture_output=True, check=False
    )
    assert done.returncode == 0, done.stderr
    first, second = (json.loads(line) for line in done.stdout.splitlines())
    assert first["line"] == 1 and "lone surrogate" in first["error"] and "id" not in first
    assert second["number"] == 3 and second["status"] == "solved"


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"memory": True}, "'memory' must be a whole number of bytes from 1 MiB"),
        ({"memory": 5}, "'memory' must be a whole number of bytes from 1 MiB"),
        ({"max_nodes": None, "time_limit": False}, "'time_limit' must be a finite number"),
        ({"time_limit": "x"}, "'time_limit' must be a finite number of seconds above 0, got \"x\""),
        ({"preset": None}, "'preset' must be a preset name, got null"),
        ({"number": [1]}, "'number' must be a whole number, got [1]"),
        ({"route": [None]}, "move 1 of 'route' is null, not a move"),
        ({"route": ["4>1", {"a": False}]}, "move 2 of 'route' is {\"a\":false}, not a move"),
        ({"route": 7}, "'route' must be a list of moves, got 7"),
        ({"number": 1, "time_limit": 1e400, "big": 10**20}, "past a double's range"),
    ],
)
def test_errors_speak_json_and_the_requests_field_names(fields: dict, message: str) -> None:
    request = {"preset": "thirteen", "number": 1, **fields}
    text = json.dumps(request).replace("Infinity", "1e400")  # (beyond a double, as sent)
    _, answers = batch("hint", [text, '{"preset": "fifteen", "number": 1}'])
    assert answers[0]["line"] == 1 and message in answers[0]["error"], answers[0]
    assert answers[1]["status"] is not None and "error" not in answers[1]


@pytest.mark.parametrize(
    ("layout", "message"),
    [
        ({"number": True, "piles": []}, "layout number must be an integer or null, got true"),
        ({"number": 1.5, "piles": []}, "layout number must be an integer or null, got 1.5"),
        ({"preset": None, "piles": []}, "layout is for preset null, not 'thirteen'"),
    ],
)
def test_layout_errors_speak_json_too(layout: dict, message: str) -> None:
    request = {"preset": "thirteen", "layout": {"preset": "thirteen", **layout}}
    _, answers = batch("solve", [json.dumps(request), '{"preset": "fifteen", "number": 1}'])
    assert answers[0]["line"] == 1 and message in answers[0]["error"], answers[0]
    assert answers[1]["number"] == 1


@pytest.mark.parametrize("value", ["NaN", "-Infinity", "1e999", '"\\udfff"', '"a\\ud800b"'])
@pytest.mark.parametrize("huge", ["", ', "big": 123456789012345678901234'])
def test_what_json_readers_refuse_is_refused_beside_huge_integers(value: str, huge: str) -> None:
    """Lines holding a 20-digit integer take another JSON reader: it refuses the same."""
    line = '{"preset": "fifteen", "number": 1, "id": ' + value + huge + "}"
    _, answers = batch("solve", [line, '{"preset": "fifteen", "number": 2}'])
    assert answers[0]["line"] == 1 and answers[0]["error"].startswith("not JSON: ")
    assert "id" not in answers[0] and answers[1]["number"] == 2


def test_a_card_that_is_no_text_is_named_as_json() -> None:
    _, answers = batch("solve", ['{"preset": "thirteen", "layout": {"piles": [[true, null]]}}'])
    assert answers == [{"line": 1, "error": "not a card: true"}]


def test_nesting_too_deep_to_read_or_to_echo_is_an_error_of_its_line() -> None:
    echoed, too_deep = ("[" * n + "]" * n for n in (600, 1000))  # (both read by orjson)
    lines = [
        "[" * 5000 + "]" * 5000,
        '{"id": 1, "x": ' + "[" * 3000 + "]" * 3000 + ", " + '"y": 12345678901234567890}',
        '{"id": ' + echoed + ', "preset": "fifteen", "number": 1}',
        '{"id": ' + too_deep + ', "preset": "fifteen", "number": 1}',
        '{"id": 5, "preset": "fifteen", "number": 1}',
    ]
    code, answers = batch("solve", lines)
    assert code == 0 and len(answers) == 5
    assert [answer.get("line") for answer in answers] == [1, 2, None, 4, None]
    assert all(answer["error"].startswith("not JSON: ") for answer in answers[:2])
    assert answers[2]["id"] == json.loads(echoed) and answers[2]["status"] == "solved"
    assert answers[3] == {"line": 4, "error": "'id' is nested too deeply to be echoed"}
    assert answers[4]["id"] == 5 and answers[4]["status"] == "solved"


def test_a_line_over_the_input_cap_is_skipped_unread_and_the_stream_goes_on() -> None:
    limit = 1000
    stream = io.BytesIO(
        b'{"preset": "fifteen", "number": 1}\n'
        + b"x" * 5000
        + b"\n"
        + b" " * limit
        + b"\n"
        + b'{"preset": "fifteen", "number": 2, "id": "'
        + b"y" * (limit + 10)
        + b'"}'
    )
    out = io.BytesIO()
    run_batch("solve", capped_lines(stream, "request line", limit), out, Limits())
    answers = [json.loads(line) for line in out.getvalue().splitlines()]
    assert [answer.get("line") for answer in answers] == [None, 2, 4]
    too_long = "request line {} is larger than 1000 bytes; refusing to read it"
    assert answers[1]["error"] == too_long.format(2)
    assert answers[2]["error"] == too_long.format(4)


def test_capped_lines_reads_a_long_line_in_pieces() -> None:
    class Counting(io.BytesIO):
        largest = 0

        def readline(self, size: int | None = -1) -> bytes:
            line = super().readline(size)
            self.largest = max(self.largest, len(line))
            return line

    stream = Counting(b"a" * 10**6 + b"\nok\n")
    lines = list(capped_lines(stream, "line", 1000))
    assert str(lines[0]) == "line 1 is larger than 1000 bytes; refusing to read it"
    assert lines[1:] == [b"ok\n"] and stream.largest <= 2**16


def test_the_command_caps_a_line_as_it_caps_an_input_file() -> None:
    lines = b"[" + b" " * (16 * 2**20) + b"]\n" + b'{"preset": "fifteen", "number": 1}\n'
    done = subprocess.run(
        [*CLOVERSOLVE, "solve", "--batch"], input=lines, capture_output=True, check=False
    )
    first, second = (json.loads(line) for line in done.stdout.splitlines())
    assert first == {
        "line": 1,
        "error": "request line 1 is larger than 16 MiB; refusing to read it",
    }
    assert second["status"] == "solved" and done.returncode == 0


_REQUEST_FIELDS = ("id", "preset", "number", "layout", "route", "max_nodes", "time_limit", "memory")
_JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=4), inner),
    max_leaves=6,
)
_NOT_TEXT = st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False)
_NOT_NUMBER = st.none() | st.booleans() | st.floats(allow_nan=False) | st.lists(_JSON, max_size=2)
_WRONG_FIELDS = st.one_of(
    st.builds(lambda v: ("preset", {"preset": v}), _NOT_TEXT | st.lists(_JSON, max_size=2)),
    st.builds(lambda v: ("number", {"number": v}), _NOT_NUMBER),
    st.builds(lambda v: ("route", {"route": v}), _NOT_TEXT.filter(lambda v: v is not None)),
    st.builds(lambda v: ("route", {"route": ["4>1", v]}), _NOT_TEXT | st.lists(_JSON)),
    st.builds(lambda v: ("max_nodes", {"max_nodes": v}), st.booleans() | st.text() | st.floats()),
    st.builds(lambda v: ("memory", {"memory": v}), st.integers(max_value=2**20 - 1)),
    st.builds(lambda v: ("time_limit", {"time_limit": v}), st.booleans() | st.lists(_JSON)),
    st.builds(
        lambda k: ("unknown", {k: 1}),
        st.text(min_size=1, max_size=8).filter(lambda k: k not in _REQUEST_FIELDS),
    ),
)
_LINES = st.one_of(
    st.builds(lambda n: ("good", n), st.integers(1, 10**20 - 1)),
    st.builds(lambda b: ("bytes", b), st.binary(max_size=40).map(lambda b: b.replace(b"\n", b""))),
    st.builds(lambda v: ("json", v), _JSON),
    _WRONG_FIELDS.map(lambda wrong: ("wrong", wrong)),
    st.builds(lambda n: ("long", n), st.integers(2001, 2200)),
    st.sampled_from([("blank", b""), ("blank", b" \t "), ("blank", b"\r")]),
)


def _line_bytes(kind: str, value: object) -> bytes:
    if kind == "good":
        return json.dumps({"id": value, "preset": "fifteen", "number": value}).encode()
    if kind in ("bytes", "blank"):
        assert isinstance(value, bytes)
        return value
    if kind == "json":
        return json.dumps(value, allow_nan=True).replace("Infinity", "1e999").encode()
    if kind == "long":
        assert isinstance(value, int)
        return b'{"id": "' + b"z" * value + b'"}'
    _, fields = value  # type: ignore[misc]
    request = {"preset": "fifteen", "number": 1, **fields}
    return json.dumps(request).replace("Infinity", "1e999").encode()


@settings(
    derandomize=True,
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(st.lists(_LINES, min_size=1, max_size=12))
def test_garbage_between_good_lines_gets_one_answer_per_line_in_order(lines: list) -> None:
    data = b"".join(_line_bytes(kind, value) + b"\n" for kind, value in lines)
    out = io.BytesIO()
    run_batch("hint", capped_lines(io.BytesIO(data), "request line", 2000), out, Limits())
    answers = [json.loads(line) for line in out.getvalue().splitlines()]
    expected = []
    for number, (kind, value) in enumerate(lines, start=1):
        text = _line_bytes(kind, value)
        if number == 1:
            text = text.removeprefix(b"\xef\xbb\xbf")
        if not text.strip(b" \t\r"):
            continue
        expected.append((number, kind, value))
    assert len(answers) == len(expected)
    for answer, (number, kind, value) in zip(answers, expected, strict=True):
        if kind == "good":
            written = value if value <= 2**53 - 1 else str(value)  # (decimal text past 2**53-1)
            assert answer["id"] == written and answer["number"] == written, answer
            assert answer["status"] in ("solved", "unsolvable", "not-searched")
            continue
        assert answer["line"] == number and answer["error"], answer
        if kind == "long":
            assert "larger than 2000 bytes" in answer["error"]
        if kind == "wrong":
            field = value[0]
            assert field in answer["error"] or field == "unknown", answer
            assert not {"True", "False", "None"} & set(answer["error"].split()), answer


def test_batch_values_are_quoted_as_json_and_a_route_is_a_list() -> None:
    lines = [
        json.dumps({"preset": "thirteen", "number": "1_000"}),
        json.dumps({"preset": "thirteen", "number": " 5 "}),
        json.dumps({"preset": "thirteen", "number": 1, "route": "4>1 4>F"}),
    ]
    _, answers = batch("hint", lines)
    assert [answer["error"] for answer in answers] == [
        "'number' must be a deal number (1 .. 10**20-1, plain digits), got \"1_000\"",
        "'number' must be a deal number (1 .. 10**20-1, plain digits), got \" 5 \"",
        "'route' must be a list of moves, got \"4>1 4>F\"",
    ]


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ('{"preset": "thirteen", "number": 1e3}', "'number' must be a whole number, got 1e3"),
        ('{"number": 1.0, "preset": "thirteen"}', "'number' must be a whole number, got 1.0"),
        (
            '{"preset": "thirteen", "number": 5, "max_nodes": 2E1}',
            "'max_nodes' must be a whole number from 1 to 2**62, got 2E1",
        ),
        (
            '{"preset": "thirteen", "number": 5, "time_limit" : -0.5e1}',
            "'time_limit' must be a finite number of seconds above 0, got -0.5e1",
        ),
        (
            '{"preset": "thirteen", "number": 5, "memory": 1.5e9}',
            "'memory' must be a whole number of bytes from 1 MiB (2**20) to 256 TiB (2**48), "
            "got 1.5e9",
        ),
        (
            '{"preset": "thirteen", "number": 5, "memory": "1_0M"}',
            "bad 'memory': \"1_0M\" (expected a size, e.g. 512M or 2G)",
        ),
        (
            '{"preset": "thirteen", "number": 5, "memory": "\\u0031G "}',
            "bad 'memory': \"\\u0031G \" (expected a size, e.g. 512M or 2G)",
        ),
        ('{"preset": ["x", 1e0], "number": 5}', "'preset' must be a preset name, got [\"x\", 1e0]"),
        ("[1e3, 2]", "a request must be a JSON object, got [1e3, 2]"),
    ],
)
def test_batch_errors_quote_a_value_as_the_line_wrote_it(line: str, message: str) -> None:
    _, answers = batch("solve", [line, '{"preset": "fifteen", "number": 1}'])
    assert answers[0] == {"line": 1, "error": message}
    assert answers[1]["number"] == 1 and "error" not in answers[1]
