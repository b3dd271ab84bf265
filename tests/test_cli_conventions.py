"""Command-line conventions: colour switches, suit letters, broken pipes, bare help, date
formats, option names in errors, time limits that time the search, and the bench's peak RSS."""

from __future__ import annotations

import json
import os
import subprocess
from collections.abc import Iterator
from pathlib import Path
from types import SimpleNamespace

import click
import pytest
from helpers import CLOVERSOLVE, assert_one_line_error, run

import cloversolve.cli.common as cli_common
import cloversolve.solving.solver as solver
from cloversolve.catalogue.daily import daily
from cloversolve.catalogue.files import open_catalogue
from cloversolve.cli.common import EXIT_BROKEN_PIPE, WholeNumber
from cloversolve.cli.main import main
from cloversolve.core.wording import count
from cloversolve.solving.replay import ReplayResult, ReplayStatus

CLI = CLOVERSOLVE


@pytest.mark.parametrize(
    ("env", "coloured"),
    [({}, True), ({"NO_COLOR": "1"}, False), ({"TERM": "dumb"}, False), ({"NO_COLOR": ""}, True)],
)
def test_colour_follows_no_color_and_term(
    monkeypatch: pytest.MonkeyPatch, env: dict[str, str], coloured: bool
) -> None:
    monkeypatch.delenv("NO_COLOR", raising=False)
    monkeypatch.setenv("TERM", "xterm")
    monkeypatch.setattr(cli_common, "_stdout_is_terminal", lambda: True)
    for args in (["deal", "thirteen", "1"], ["replay", "thirteen", "1", "4>1", "--verbose"]):
        result = run(*args, env=env, color=True)
        assert ("\x1b[" in result.output) is coloured, (args, env)


def _environment(**extra: str) -> dict[str, str]:
    return {**os.environ, **extra}


@pytest.mark.parametrize("encoding", ["latin-1", "ascii", "ascii:replace"])
def test_suits_fall_back_to_letters_without_symbols(encoding: str) -> None:
    """Also for ASCII, where click would write UTF-8 anyway if left alone."""
    done = subprocess.run(
        [*CLI, "deal", "thirteen", "1"],
        capture_output=True,
        env=_environment(PYTHONIOENCODING=encoding),
    )
    assert done.returncode == 0, done.stderr
    assert b"JD QC TS 7D" in done.stdout and b"Traceback" not in done.stderr
    done.stdout.decode(encoding.split(":")[0])  # nothing the encoding cannot hold


def test_a_closed_pipe_ends_quietly_with_status_141(tmp_path: Path) -> None:
    route = tmp_path / "route.json"
    solved = subprocess.run(
        [*CLI, "solve", "thirteen", "1", "--json"], capture_output=True, check=True
    )
    route.write_bytes(solved.stdout)
    # The reader is gone before the command writes (as `| head -1` once it has its line):
    # reading a line first would race, since the whole output fits in the pipe's buffer.
    reader, writer = os.pipe()
    os.close(reader)
    try:
        process = subprocess.Popen(
            [*CLI, "replay", "thirteen", "1", "--route-file", str(route), "--verbose"],
            stdout=writer,
            stderr=subprocess.PIPE,
        )
    finally:
        os.close(writer)
    assert process.stderr is not None
    status = process.wait(timeout=120)
    assert status == EXIT_BROKEN_PIPE
    assert process.stderr.read() == b""


@pytest.mark.parametrize(
    "args",
    [
        ["deal", "thirteen", "1", "--json"],
        ["solve", "thirteen", "1"],
        ["study", "blackhole", "--deals", "1..20", "--json"],
        ["solve", "--batch"],
        [],  # the help, as bare commands print it
        ["catalogue"],
        ["grading"],
        ["--help"],
    ],
)
def test_an_output_that_cannot_be_written_is_one_line(args: list[str]) -> None:
    with open("/dev/full", "wb") as full:
        done = subprocess.run(
            [*CLI, *args],
            stdout=full,
            stderr=subprocess.PIPE,
            input=b'{"preset": "thirteen", "number": 1}\n',
        )
    assert done.returncode == 1
    errors = done.stderr.decode().splitlines()
    assert errors[-1] == "cloversolve: error: cannot write the output: No space left on device"
    assert "Traceback" not in done.stderr.decode()


def test_a_closed_standard_output_is_one_line() -> None:
    done = subprocess.run(
        [*CLI, "deal", "thirteen", "1"],
        stderr=subprocess.PIPE,
        preexec_fn=lambda: os.close(1),  # as the shell's `>&-`
    )
    assert done.returncode == 1
    assert done.stderr == b"cloversolve: error: cannot write the output: Bad file descriptor\n"


def test_bare_command_prints_help_without_an_error() -> None:
    result = run()
    assert result.exit_code == 0
    assert "Usage:" in result.output and "error" not in result.output.lower()
    group = run("catalogue")
    assert group.exit_code == 0 and "verify" in group.output and "error" not in group.output


@pytest.mark.parametrize("text", ["2025-W01-1", "2025-001", "20250101", "2025-01-01T00:00"])
def test_only_calendar_dates_are_accepted(text: str) -> None:
    result = run("daily", "thirteen", "--date", text, "--difficulty", "easy")
    assert result.exit_code == 2
    assert f"bad date: {text!r}" in result.stderr and "YYYY-MM-DD" in result.stderr


def test_daily_without_a_difficulty_is_one_line() -> None:
    result = run("daily", "thirteen", "--date", "2026-12-01")
    assert result.exit_code == 2 and result.stdout == ""
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and "--difficulty" in lines[0], result.stderr
    assert "easy, normal, hard" in lines[0]


def test_calendar_dates_are_accepted() -> None:
    result = run("daily", "thirteen", "--date", "2025-01-01", "--difficulty", "easy")
    chosen = daily(open_catalogue("thirteen"), "2025-01-01", "easy")["number"]
    assert result.exit_code == 0 and f"deal {chosen}\n" in result.output


def _options(command: click.Command, path: tuple[str, ...] = ()) -> Iterator[tuple]:
    """Every option of ``command`` and its subcommands, with the command's path."""
    if isinstance(command, click.Group):
        context = click.Context(command)
        for name in command.list_commands(context):
            sub = command.get_command(context, name)
            assert sub is not None
            yield from _options(sub, (*path, name))
    for param in command.params:
        if isinstance(param, click.Option):
            yield path, param


def test_every_whole_number_option_has_the_one_type() -> None:
    whole = [(path, option) for path, option in _options(main) if option.type.name == "integer"]
    assert len(whole) >= 10
    for path, option in whole:
        assert isinstance(option.type, WholeNumber), (path, option.opts)


@pytest.mark.parametrize("text", ["1_000", "+10", " 5", "5 ", "1e3", "\u0665", "0x10", "010"])
@pytest.mark.parametrize(
    "args",
    [
        ["solve", "thirteen", "1", "--max-nodes"],
        ["study", "fifteen", "--deals", "1..3", "--jobs"],
        ["audit", "catalogues/fifteen.json", "--seed"],
        ["catalogue", "build", "fifteen", "--deals", "1..3", "--out", "c.json", "--per-difficulty"],
    ],
)
def test_whole_numbers_are_plain_decimal_digits_as_deal_numbers_are(
    args: list[str], text: str
) -> None:
    result = run(*args, text)
    assert result.exit_code == 2, result.output
    assert result.stderr.startswith(
        f"cloversolve: error: bad {args[-1]}: {text!r} (must be a whole number from "
        f"{0 if args[-1] == '--seed' else 1} to "
    )
    for deal_number in ("1_000", "+5", " 5", "5 ", "05"):  # (the rule of deal numbers too)
        assert run("deal", "thirteen", deal_number).exit_code == 2


def test_every_whole_number_option_has_a_largest_value() -> None:
    huge = "9" * 32
    for _path, option in _options(main):
        if isinstance(option.type, WholeNumber):
            with pytest.raises(click.ClickException, match=f"bad {option.opts[0]}: '{huge}'"):
                option.type.convert(huge, option, None)


@pytest.mark.parametrize(
    ("args", "largest"),
    [
        (["study", "thirteen", "--deals", "1..2", "--jobs"], "1024"),
        (["study", "thirteen", "--deals", "1..2", "--chunk-size"], "2**63 - 1"),
        (["solve", "thirteen", "1", "--max-nodes"], "2**62"),
        (["audit", "catalogues/thirteen.json", "--seed"], "2**63 - 1"),
        (["audit", "catalogues/thirteen.json", "--sample"], "2**63 - 1"),
        (["audit", "catalogues/thirteen.json", "--max-positions"], "2**63 - 1"),
        (
            [
                "catalogue",
                "build",
                "thirteen",
                "--deals",
                "1..3",
                "--out",
                "c.json",
                "--per-difficulty",
            ],
            "2**63 - 1",
        ),
        (["grading", "calibrate", "thirteen", "--outcomes", "o.csv", "--jobs"], "1024"),
    ],
)
def test_a_whole_number_past_its_largest_value_is_refused_quoted(
    args: list[str], largest: str
) -> None:
    bound = {"1024": 1024, "2**62": 2**62, "2**63 - 1": 2**63 - 1}[largest]
    for value in ("9" * 32, str(bound + 1)):
        result = run(*args, value)
        assert_one_line_error(result, 2, f"bad {args[-1]}: '{value}'", f" to {largest}, ")


@pytest.mark.parametrize(
    ("option", "value"),
    [("--time-limit", " 5"), ("--time-limit", "5 "), ("--memory", " 512M"), ("--memory", "1G ")],
)
def test_a_budget_value_with_spaces_around_it_is_refused_as_a_whole_number_is(
    option: str, value: str
) -> None:
    result = run("solve", "thirteen", "1", option, value)
    assert result.exit_code == 2, result.output
    assert result.stderr.startswith(f"cloversolve: error: bad {option}: {value!r} (")


@pytest.mark.parametrize("size", ["0", "512K", "lots"])
def test_memory_errors_name_the_option(size: str) -> None:
    result = run("solve", "thirteen", "1", "--memory", size)
    assert result.exit_code == 2
    assert "--memory" in result.stderr and f"{size!r}" in result.stderr
    assert "max_memory" not in result.stderr


def test_time_limit_starts_after_the_kernels_are_loaded(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[tuple[float | None, bool]] = []
    search = solver.search_position

    def spy(position, family, limits):
        calls.append((limits.time_limit, "blackhole" in solver._WARM))
        return search(position, family, limits)

    monkeypatch.setattr(solver, "search_position", spy)
    solver._WARM.discard("blackhole")
    solver.solve("blackhole", 3, time_limit=30)
    assert calls[0] == (None, True)  # the warm-up search, without a clock
    assert calls[-1] == (30, True)
    calls.clear()
    solver.solve("blackhole", 4, time_limit=30)
    assert calls == [(30, True)]  # loaded once per process


def test_bench_peak_rss_is_what_the_os_reports() -> None:
    process = subprocess.Popen(
        [*CLI, "bench", "blackhole", "--deals", "1..4", "--jobs", "2", "--json"],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
    )
    assert process.stdout is not None
    output = process.stdout.read()
    _, status, usage = os.wait4(process.pid, 0)
    process.returncode = os.waitstatus_to_exitcode(status)
    assert process.returncode == 0
    reported = json.loads(output)["peak_rss_mib"]
    measured = usage.ru_maxrss / 1024  # KiB on Linux
    assert measured * 0.95 <= reported <= measured + 1, (reported, measured)


def test_counts_in_messages_agree_with_their_nouns() -> None:
    assert [count(n, "move") for n in (0, 1, 2)] == ["0 moves", "1 move", "2 moves"]
    not_won = [ReplayResult(ReplayStatus.NOT_WON, n).describe() for n in (0, 1, 2)]
    assert not_won == [
        "not won: no moves played but the game is not finished",
        "not won: the one move is legal but the game is not finished",
        "not won: all 2 moves are legal but the game is not finished",
    ]
    won = ReplayResult(ReplayStatus.WON, 1).describe()
    assert won == "won: the route's 1 move put every card away"
    first, second = solver.solve("thirteen", 1).route_strings[:2]
    replayed = run("replay", "thirteen", "1", first)
    assert "the one move is legal" in replayed.output
    assert second.endswith(">F")  # the foundation then holds one card
    verbose = run("replay", "thirteen", "1", first, second, "--verbose").output
    assert "(1 card)" in verbose and "1 cards" not in verbose
    studied = run("study", "thirteen", "--deals", "1..1", "--no-progress")
    assert ": 1 deal in " in studied.output, studied.output
    shown = run("deal", "thirteen", "1")
    assert "(0 cards)" in shown.output


def _exit_status_and_lines(result) -> tuple[int, list[str]]:
    return result.exit_code, result.stderr.strip().splitlines()


@pytest.mark.parametrize(
    "args",
    [
        ["replay", "thirteen", "1", "99>F"],  # no pile 99: illegal, not malformed
        ["replay", "fifteen", "1", "1+99"],  # no cell 99: illegal, not malformed
        ["replay", "thirteen", "1", "4>1 4>F"],  # two moves in one argument: legal, not a win
        ["hint", "thirteen", "1", "99>F"],  # hint refuses an illegal route as replay does
    ],
)
def test_a_route_that_is_illegal_or_does_not_win_exits_1(args: list[str]) -> None:
    result = run(*args)
    assert result.exit_code == 1, result.output
    assert "error" not in result.stderr  # an answer, not an error


def test_answers_are_not_called_errors_and_keep_their_status(tmp_path: Path) -> None:
    illegal = run("hint", "thirteen", "1", "4>F")
    assert illegal.exit_code == 1
    assert illegal.stderr.startswith("cloversolve: route is illegal at move 1"), illegal.stderr
    unsolvable = next(
        n for n in range(1, 50) if solver.solve("thirteen", n).status.value == "unsolvable"
    )
    shown = run("view", "thirteen", str(unsolvable), "--out", str(tmp_path / "page.html"))
    assert shown.exit_code == 3
    assert shown.stderr.startswith("cloversolve: ") and "error" not in shown.stderr


def test_replay_hint_and_view_read_a_route_the_same_way(tmp_path: Path) -> None:
    spaced = run("replay", "thirteen", "1", "4>1 4>F", "--json")
    apart = run("replay", "thirteen", "1", "4>1", "4>F", "--json")
    assert json.loads(spaced.output) == json.loads(apart.output)
    assert json.loads(spaced.output)["moves_played"] == 2
    hint = run("hint", "thirteen", "1", "99>F 4>1")
    assert hint.exit_code == 1 and "illegal at move 1" in hint.stderr
    out = tmp_path / "x.html"
    view = run("view", "thirteen", "1", "--route", "4>1 4>F", "--out", str(out))
    assert view.exit_code == 1 and "2 moves" in view.output


def test_an_empty_route_is_refused_by_replay_and_view(tmp_path: Path) -> None:
    empty = tmp_path / "empty.json"
    empty.write_text("[]", encoding="utf-8")
    out = tmp_path / "x.html"
    for args in (
        ["replay", "thirteen", "1", "--route-file", str(empty)],
        ["view", "thirteen", "1", "--route-file", str(empty), "--out", str(out)],
        ["view", "thirteen", "1", "--route", " ", "--out", str(out)],
    ):
        status, lines = _exit_status_and_lines(run(*args))
        assert status == 2 and len(lines) == 1 and "no moves" in lines[0], (args, lines)
        if args[0] == "replay":  # (the file is named, and no advice about quoting moves)
            assert repr(str(empty)) in lines[0] and "quote" not in lines[0]
    assert not out.exists()


def test_a_lost_deal_exits_3_in_hint_and_view_as_in_solve(tmp_path: Path) -> None:
    out = tmp_path / "x.html"
    assert run("solve", "thirteen", "7").exit_code == 3
    hint = run("hint", "thirteen", "7")
    assert hint.exit_code == 3 and "no move" in hint.output
    status, lines = _exit_status_and_lines(run("view", "thirteen", "7", "--out", str(out)))
    assert status == 3 and len(lines) == 1 and "unsolvable" in lines[0]
    assert not out.exists()


@pytest.mark.parametrize(
    ("args", "message", "command"),
    [
        (["deal", "thirteen"], "Missing argument 'NUMBER'.", "cloversolve deal"),
        (["daily", "thirteen"], "Missing option '--date'.", "cloversolve daily"),
        (["solve", "thirteen", "1", "--nope"], "No such option '--nope'.", "cloversolve solve"),
        (["audit", "x.json", "--only", "nope"], "Invalid value", "cloversolve audit"),
        (["catalogue", "verify"], "Missing argument 'FILE'.", "cloversolve catalogue verify"),
        (["nosuch"], "No such command 'nosuch'.", "cloversolve"),
        (["solve"], "Missing argument 'PRESET'.", "cloversolve solve"),
    ],
)
def test_usage_errors_are_one_line_naming_the_help(
    args: list[str], message: str, command: str
) -> None:
    result = run(*args)
    assert result.exit_code == 2 and result.stdout == ""
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith(f"cloversolve: error: {message}"), lines
    assert lines[0].endswith(f"(see '{command} -h')"), lines


def test_reported_seconds_leave_out_loading_the_kernels(monkeypatch: pytest.MonkeyPatch) -> None:
    # The solver's clock is a counter here: each reading adds a millisecond, and loading the
    # kernels (a process's first search) adds 1,000 s. No real time is waited or measured.
    search = solver.search_position
    clock = [0.0]
    loading = 1000.0
    loaded: list[bool] = []

    def perf_counter() -> float:
        clock[0] += 0.001
        return clock[0]

    def first_search_loads_the_kernels(position, family, limits):
        if not loaded:  # as compiling or loading the kernels makes a process's first search
            loaded.append(True)
            clock[0] += loading
        return search(position, family, limits)

    monkeypatch.setattr(solver, "time", SimpleNamespace(perf_counter=perf_counter))
    monkeypatch.setattr(solver, "search_position", first_search_loads_the_kernels)
    monkeypatch.setattr(solver, "_WARM", set())
    result = run("solve", "blackhole", "3", "--json")
    assert result.exit_code in (0, 3), result.output
    assert loaded and clock[0] > loading
    assert 0 < json.loads(result.output)["seconds"] < 1
