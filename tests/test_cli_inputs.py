"""Input files and arguments at the edges: every one gives one clear line, never a traceback."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import orjson
import pytest
from click.testing import CliRunner
from helpers import assert_one_line_error, run

from cloversolve.cli.main import main
from cloversolve.core.inputs import InputFileError, read_bytes
from cloversolve.games.dealing import deal
from cloversolve.rules import position_from_layout
from cloversolve.solving.solver import solve


def legal_first_moves(preset: str) -> set[str]:
    return {str(move) for move in position_from_layout(deal(preset, 1)).legal_moves()}


def test_replay_without_moves_says_so_and_reminds_to_quote() -> None:
    result = run("replay", "thirteen", "1", "--verbose")
    line = assert_one_line_error(result, 2, "no moves", "quote")
    example = re.search(r"e\.g\. '([^']*)'", line)
    assert example is not None and example[1] in legal_first_moves("thirteen")


def test_hint_without_moves_notes_it_and_reminds_to_quote() -> None:
    result = run("hint", "thirteen", "1", "--max-nodes", "100000")
    assert result.exit_code == 0
    assert "no moves given" in result.stderr and "quote" in result.stderr


def test_the_note_of_no_moves_comes_only_after_good_inputs_in_the_presets_notation(
    tmp_path: Path,
) -> None:
    refused = run("hint", "thirteen", "1", "--memory", "0")
    assert refused.exit_code == 2 and "note" not in refused.stderr
    layout = tmp_path / "layout.json"
    layout.write_bytes(orjson.dumps(deal("thirteen", 1).to_json()))
    from_layout = run("hint", "thirteen", "--layout", str(layout), "--max-nodes", "100000")
    assert from_layout.exit_code == 0 and from_layout.stderr == ""
    fifteen = run("hint", "fifteen", "1")
    assert fifteen.exit_code == 0 and "no moves given" in fifteen.stderr
    assert ">" not in fifteen.stderr
    example = fifteen.stderr.split()[-1]
    assert example in legal_first_moves("fifteen")


def test_help_examples_quote_their_moves() -> None:
    for command in ("replay", "hint"):
        text = run(command, "--help").output
        assert "'4>1'" in text
        assert " 4>1" not in text.replace("'4>1'", "")


@pytest.mark.parametrize(
    ("args", "what"),
    [
        (["catalogue", "verify", "/dev/zero"], "catalogue"),
        (["solve", "thirteen", "--layout", "/dev/zero"], "layout file"),
        (["replay", "thirteen", "1", "--route-file", "/dev/zero"], "route file"),
        (["daily", "thirteen", "--date", "2025-01-01", "--difficulty", "easy",
          "--catalogue", "/dev/zero"], "catalogue"),
    ],
)  # fmt: skip
def test_endless_input_files_are_refused(args: list[str], what: str) -> None:
    assert_one_line_error(run(*args), 2, "'/dev/zero'", "larger than", what)


def test_capped_reader_reads_up_to_its_cap(tmp_path: Path) -> None:
    path = tmp_path / "f"
    path.write_bytes(b"x" * 10)
    assert read_bytes(path, "file", limit=10) == b"x" * 10
    with pytest.raises(InputFileError, match="larger than 9 bytes"):
        read_bytes(path, "file", limit=9)
    with pytest.raises(InputFileError, match=r"cannot read file .*missing.*: No such file"):
        read_bytes(tmp_path / "missing", "file")
    with pytest.raises(InputFileError, match="cannot read file"):
        read_bytes(tmp_path, "file")  # a directory


def test_route_file_with_bom_and_bad_encoding(tmp_path: Path) -> None:
    route = " ".join(solve("thirteen", 1).route_strings)
    with_bom = tmp_path / "bom.txt"
    with_bom.write_bytes(b"\xef\xbb\xbf" + route.encode())
    assert run("replay", "thirteen", "1", "--route-file", str(with_bom)).exit_code == 0
    latin = tmp_path / "latin.txt"
    latin.write_bytes(b"4>F \xe9")
    assert_one_line_error(
        run("replay", "thirteen", "1", "--route-file", str(latin)), 2, str(latin), "UTF-8"
    )


@pytest.mark.parametrize("content", ["[]", '"thirteen"', "5", '"7"', "null"])
def test_layout_file_must_hold_a_layout_object(tmp_path: Path, content: str) -> None:
    path = tmp_path / "layout.json"
    path.write_text(content)
    assert_one_line_error(
        run("solve", "thirteen", "--layout", str(path)), 2, str(path), "not a layout object"
    )


@pytest.mark.parametrize(
    ("change", "reason"),
    [
        (lambda d: d.update(foundation={}), "unknown layout key 'foundation'"),
        (lambda d: d.update(piles=d["piles"][:-1]), "needs 13 piles"),
        (lambda d: d["piles"][0].__setitem__(0, d["piles"][1][0]), "duplicate card"),
        (lambda d: d["piles"][0].__setitem__(0, "ZZ"), "not a card: 'ZZ'"),
        (lambda d: d.update(preset="fifteen"), "preset 'fifteen'"),
        (lambda d: d.update(piles=7), "'piles' must be"),
    ],
)
def test_a_bad_layout_file_is_named_with_the_reason(
    tmp_path: Path, change: Callable[[dict[str, Any]], None], reason: str
) -> None:
    data = deal("thirteen", 1).to_json()
    change(data)
    path = tmp_path / "layout.json"
    path.write_bytes(orjson.dumps(data))
    result = run("solve", "thirteen", "--layout", str(path))
    assert_one_line_error(result, 2, f"layout file {str(path)!r}: ", reason)


@pytest.mark.parametrize(
    ("content", "expected"),
    [
        ('{"route": ["4>1", "0>F"]}', "move 2 of the route: not a move: '0>F'"),
        ("4>1 x>F", "move 2 of the route: not a move: 'x>F'"),
        ('["4>1", 5]', "(5 is not a move text)"),
    ],
)
def test_a_bad_move_in_a_route_file_names_the_file(
    tmp_path: Path, content: str, expected: str
) -> None:
    path = tmp_path / "route.json"
    path.write_text(content)
    result = run("replay", "thirteen", "1", "--route-file", str(path))
    assert_one_line_error(result, 2, f"route file {str(path)!r}", expected)


def test_layout_file_with_bom_is_read(tmp_path: Path) -> None:
    path = tmp_path / "layout.json"
    path.write_bytes(b"\xef\xbb\xbf" + orjson.dumps(deal("thirteen", 1).to_json()))
    assert run("solve", "thirteen", "--layout", str(path)).exit_code == 0


def test_huge_digit_strings_are_quoted_as_out_of_range() -> None:
    digits = "9" * 5000
    line = assert_one_line_error(run("deal", "thirteen", digits), 2, "bad deal number", "9999")
    assert "4300" not in line and len(line) < 300


def test_an_option_value_past_its_limit_is_quoted() -> None:
    for value in ("99999999999999999999999999", str(2**62 + 1)):
        result = run("solve", "thirteen", "1", "--max-nodes", value)
        assert_one_line_error(result, 2, f"bad --max-nodes: '{value}' (must be")


def test_huge_option_values_are_quoted_short() -> None:
    line = assert_one_line_error(run("solve", "thirteen", "1", "--max-nodes", "9" * 5000), 2)
    assert "--max-nodes" in line and "9999" in line and len(line) < 500


def test_negative_deal_number_is_out_of_range() -> None:
    assert_one_line_error(run("deal", "thirteen", "-1"), 2, "'-1'", "bad deal number")


@pytest.mark.parametrize("command", ["replay", "hint"])
@pytest.mark.parametrize(
    ("moves", "expected"),
    [
        (("4>1", "-1>F"), "move 2 of the route: not a move: '-1>F' (piles and cells are numbered"),
        (("-5",), "move 1 of the route: not a move: '-5'"),
        (("4>1", "4>F", "12>F", "-3>F"), "move 4 of the route: not a move: '-3>F'"),
        (("4>1", "-1e3"), "move 2 of the route: not a move: '-1e3'"),
    ],
)
def test_a_move_with_a_minus_sign_is_named_as_that_move(
    command: str, moves: tuple[str, ...], expected: str
) -> None:
    line = assert_one_line_error(run(command, "thirteen", "1", *moves), 2, expected)
    assert "deal number" not in line


@pytest.mark.parametrize("arguments", [("-5",), ("--", "-5")])
def test_a_negative_deal_number_is_out_of_range_however_it_is_given(
    arguments: tuple[str, ...],
) -> None:
    result = run("solve", "thirteen", *arguments)
    assert_one_line_error(result, 2, "bad deal number: '-5' (deals are 1 .. 10**20-1)")


def test_an_extra_minus_digit_argument_is_quoted_as_typed() -> None:
    line = assert_one_line_error(run("solve", "thirteen", "1", "-5"), 2, "extra argument (-5)")
    assert "\x00" not in line


@pytest.mark.parametrize("command", ["replay", "hint"])
def test_a_deal_number_beside_a_layout_file_is_refused(command: str, tmp_path: Path) -> None:
    path = tmp_path / "layout.json"
    path.write_bytes(orjson.dumps(deal("thirteen", 1).to_json()))
    for number in ("1", "-5"):
        result = run(command, "thirteen", number, "4>1", "--layout", str(path))
        assert_one_line_error(result, 2, "give a deal NUMBER or --layout FILE, not both")


def test_options_keep_their_own_errors_beside_minus_digit_arguments() -> None:
    assert_one_line_error(run("replay", "thirteen", "1", "-x"), 2, "No such option '-x'")
    result = run("solve", "thirteen", "1", "--time-limit", "-5")
    assert_one_line_error(result, 2, "bad --time-limit: '-5'")
    result = run("solve", "thirteen", "1", "--time-limit", "1_0")  # (float() would read 10)
    assert_one_line_error(result, 2, "bad --time-limit: '1_0'")
    result = run("solve", "thirteen", "1", "--max-nodes", "-3")
    assert_one_line_error(result, 2, "bad --max-nodes: '-3' (must be a whole number from 1 to")


@pytest.mark.parametrize(
    ("change", "expected"),
    [
        ({"number": "2x"}, "'number' is \"2x\", not a deal number"),
        ({"number": True}, "'number' is true, not a deal number"),
        ({"number": -5}, "'number' is -5, not a deal number"),
        ({"preset": 5}, "'preset' is 5, not a preset name"),
    ],
)
def test_a_route_file_that_names_no_deal_is_refused(
    tmp_path: Path, change: dict[str, Any], expected: str
) -> None:
    path = tmp_path / "route.json"
    path.write_bytes(orjson.dumps({**solve("thirteen", 1).to_json(), **change}))
    result = run("replay", "thirteen", "1", "--route-file", str(path))
    assert_one_line_error(result, 2, f"route file {str(path)!r}: {expected}")


@pytest.fixture(scope="module")
def deal_1_route(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """``solve thirteen 1 --json`` as a route file."""
    result = CliRunner().invoke(main, ["solve", "thirteen", "1", "--json"])
    assert result.exit_code == 0, result.output
    path = tmp_path_factory.mktemp("routes") / "route.json"
    path.write_text(result.stdout)
    return path


@pytest.mark.parametrize(
    ("args", "ours"),
    [
        (["replay", "thirteen", "2"], "thirteen deal 2"),
        (["replay", "fifteen", "1"], "fifteen deal 1"),
        (["view", "thirteen", "2", "--out", "page.html"], "thirteen deal 2"),
        (["view", "fifteen", "1", "--out", "page.html"], "fifteen deal 1"),
    ],
)
def test_a_route_file_of_another_deal_is_refused(
    deal_1_route: Path,
    args: list[str],
    ours: str,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    workdir = tmp_path / "work"
    workdir.mkdir()
    monkeypatch.chdir(workdir)
    result = run(*args, "--route-file", str(deal_1_route))
    assert not (workdir / "page.html").exists()
    assert_one_line_error(
        result,
        2,
        f"route file {str(deal_1_route)!r} holds a route of thirteen deal 1, not of {ours}",
    )


def test_a_layout_file_given_as_a_route_file_is_said_to_hold_no_route(tmp_path: Path) -> None:
    layout = tmp_path / "deal2.json"
    layout.write_bytes(orjson.dumps(deal("thirteen", 2).to_json()))
    result = run("replay", "thirteen", "1", "--route-file", str(layout))
    assert_one_line_error(result, 2, "must hold moves")


def test_a_route_file_of_its_own_deal_or_without_owner_replays(
    deal_1_route: Path, tmp_path: Path
) -> None:
    assert run("replay", "thirteen", "1", "--route-file", str(deal_1_route)).exit_code == 0
    bare = tmp_path / "bare.json"
    bare.write_bytes(orjson.dumps({"route": orjson.loads(deal_1_route.read_bytes())["route"]}))
    assert run("replay", "thirteen", "1", "--route-file", str(bare)).exit_code == 0
    layout = tmp_path / "layout.json"
    layout.write_bytes(orjson.dumps(deal("thirteen", 1).to_json()))
    replayed = run("replay", "thirteen", "--layout", str(layout), "--route-file", str(deal_1_route))
    assert replayed.exit_code == 0, replayed.output


def test_every_input_names_bad_utf8_in_the_same_words(tmp_path: Path) -> None:
    bad = tmp_path / "latin.json"
    bad.write_bytes(b'{"route": ["4>F \xe9"]}')
    wording = f"{str(bad)!r} is not UTF-8 text (byte 16)"
    for args in (
        ("replay", "thirteen", "1", "--route-file", str(bad)),
        ("solve", "thirteen", "--layout", str(bad)),
        ("lookup", "thirteen", "1", "--catalogue", str(bad)),
        ("catalogue", "verify", str(bad)),
    ):
        assert_one_line_error(run(*args), 2, wording)


def test_catalogue_verify_calls_a_file_that_is_not_json_malformed_as_lookup_does(
    tmp_path: Path,
) -> None:
    empty, cut = tmp_path / "empty.json", tmp_path / "cut.json"
    empty.write_bytes(b"")
    cut.write_bytes(b'{"preset": ')
    for path in (empty, cut):
        for args in (
            ("catalogue", "verify", str(path)),
            ("catalogue", "verify", str(path), "--json"),
        ):
            assert_one_line_error(run(*args), 2, f"catalogue {str(path)!r} is not valid JSON")
        assert_one_line_error(run("lookup", "thirteen", "1", "--catalogue", str(path)), 2)


def test_a_checkpoint_given_for_a_result_is_named_as_one(tmp_path: Path) -> None:
    """A build's checkpoint passed where a catalogue or a route file goes is said to be a
    checkpoint (run the command again to finish), not "not valid JSON"."""
    checkpoint = tmp_path / "run.ckpt"
    header = {"format": "cloversolve-checkpoint", "kind": "catalogue", "version": 2}
    checkpoint.write_bytes(orjson.dumps(header) + b"\n" + orjson.dumps({"first": 1}) + b"\n")
    for args in (
        ("lookup", "thirteen", "1", "--catalogue", str(checkpoint)),
        ("replay", "thirteen", "1", "--route-file", str(checkpoint)),
        ("catalogue", "verify", str(checkpoint)),
    ):
        line = assert_one_line_error(run(*args), 2, repr(str(checkpoint)), "checkpoint")
        assert "not valid JSON" not in line and "checkpoint, not its result" in line


@pytest.mark.parametrize(
    "args",
    [
        ("lookup", "blackhole", "1"),
        ("daily", "allinarow", "--date", "2026-01-01", "--difficulty", "easy"),
    ],
)
def test_a_preset_that_cannot_have_a_catalogue_is_told_so_and_not_sent_for_one(
    args: tuple[str, ...], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    for catalogues in (None, tmp_path):
        if catalogues is not None:
            monkeypatch.setenv("CLOVERSOLVE_CATALOGUES", str(catalogues))
        line = assert_one_line_error(run(*args), 2, f"{args[1]} has no catalogue", "graded")
        assert "--catalogue" not in line and "CLOVERSOLVE_CATALOGUES" not in line


def test_a_route_file_list_holds_one_move_an_element(tmp_path: Path) -> None:
    """As the library reads a list: an element with two moves is no move."""
    path = tmp_path / "route.json"
    path.write_text('["4>1 4>F"]')
    result = run("replay", "thirteen", "1", "--route-file", str(path))
    assert_one_line_error(result, 2, f"route file {str(path)!r}", "not a move: '4>1 4>F'")
    path.write_text('["4>1", "4>F"]')
    assert run("replay", "thirteen", "1", "--route-file", str(path)).exit_code == 1  # (no win)
