"""The command line: every command runs, and bad input gives one line and the right exit code."""

import json
import subprocess
from pathlib import Path

import pytest
from click.testing import CliRunner
from helpers import CLOVERSOLVE, assert_one_line_error, run

from cloversolve.cli.main import main
from cloversolve.core.verdicts import Status
from cloversolve.games.dealing import deal
from cloversolve.solving.replay import ReplayStatus, replay
from cloversolve.solving.solver import HintVerdict, IllegalRouteError, hint, solve


def test_presets_and_rules() -> None:
    listing = run("presets")
    assert listing.exit_code == 0
    names = [line.split()[0] for line in listing.output.splitlines()]
    assert names == [
        "thirteen",
        "thirteen-return",
        "fifteen",
        "cloverleaf",
        "alexander",
        "blackhole",
        "allinarow",
    ]
    assert json.loads(run("presets", "--json").output)[0]["name"] == "thirteen"
    rules = run("rules", "thirteen-return")
    assert rules.exit_code == 0 and "back onto" in rules.output


@pytest.mark.parametrize("preset", ["thirteen", "fifteen", "cloverleaf", "blackhole"])
def test_deal_text_and_json(preset: str) -> None:
    text = run("deal", preset, "7")
    assert text.exit_code == 0 and f"{preset} deal 7" in text.output
    assert "♠" in text.output or "♣" in text.output
    data = json.loads(run("deal", preset, "7", "--json").output)
    assert data == deal(preset, 7).to_json()


@pytest.mark.parametrize(
    ("args", "quoted"),
    [
        (["deal", "thirten", "1"], "'thirten'"),
        (["deal", "thirteen", "0"], "'0'"),
        (["deal", "thirteen", "-3"], "'-3'"),
        (["deal", "thirteen", "1.5"], "'1.5'"),
        (["deal", "thirteen", "100000000000000000000"], "'100000000000000000000'"),
        (["replay", "blackhole", "1", "3>>F"], "'3>>F'"),
        (["solve", "blackhole", "1", "--memory", "lots"], "'lots'"),
        (["study", "blackhole", "--deals", "5..2"], "'5..2'"),
    ],
)
def test_bad_input_is_one_line_exit_2(args: list[str], quoted: str) -> None:
    assert_one_line_error(run(*args), 2, quoted)


@pytest.mark.parametrize(
    "args",
    [
        ["study", "blackhole", "--deals", "1..5", "--jobs", "abc"],
        ["study", "blackhole", "--deals", "1..5", "--chunk-size", "1.5"],
        ["solve", "blackhole", "1", "--max-nodes", "lots"],
        ["catalogue", "build", "fifteen", "--out", "c.json", "--per-difficulty", "x"],
    ],
)
def test_a_count_that_is_not_a_whole_number_is_called_so(args: list[str]) -> None:
    result = run(*args)
    assert_one_line_error(result, 2, f"{args[-1]!r} (must be a whole number from 1 to")


def test_missing_argument_is_one_line() -> None:
    result = run("solve")
    assert result.exit_code == 2 and len(result.stderr.strip().splitlines()) == 1


def test_replay_exit_codes(tmp_path) -> None:
    solved = next(solve("blackhole", n) for n in range(1, 20) if solve("blackhole", n).solved)
    number, route = str(solved.number), solved.route_strings
    assert run("replay", "blackhole", number, *route).exit_code == 0
    not_won = run("replay", "blackhole", number, *route[:-1])
    assert not_won.exit_code == 1 and "not won" in not_won.output
    illegal = run("replay", "blackhole", number, route[1], *route)
    assert illegal.exit_code == 1 and "illegal at move 1" in illegal.output
    route_file = tmp_path / "route.json"
    route_file.write_text(json.dumps({"route": route}))
    assert run("replay", "blackhole", number, "--route-file", str(route_file)).exit_code == 0
    (tmp_path / "route.txt").write_text(" ".join(route) + "\n")
    assert (
        run("replay", "blackhole", number, "--route-file", str(tmp_path / "route.txt")).exit_code
        == 0
    )
    verbose = run("replay", "blackhole", number, "--verbose", *route[:2])
    assert verbose.output.count("F:") >= 3


def test_malformed_files_are_one_line(tmp_path) -> None:
    bad_json = tmp_path / "bad.json"
    bad_json.write_text("[1, 2")
    assert_one_line_error(
        run("replay", "blackhole", "1", "--route-file", str(bad_json)), 2, str(bad_json)
    )
    layout = deal("thirteen", 4).to_json()
    layout["piles"][0][0] = "ZZ"
    layout_file = tmp_path / "layout.json"
    layout_file.write_text(json.dumps(layout))
    assert_one_line_error(run("solve", "thirteen", "--layout", str(layout_file)), 2, "'ZZ'")
    layout["piles"][0][0] = layout["piles"][1][0]
    layout_file.write_text(json.dumps(layout))
    assert_one_line_error(run("solve", "thirteen", "--layout", str(layout_file)), 2, "duplicate")
    assert_one_line_error(
        run("solve", "thirteen", "--layout", str(tmp_path / "none.json")), 2, "none.json"
    )


def test_solve_json_and_exit_codes() -> None:
    for number in range(1, 30):
        result = run("solve", "blackhole", str(number), "--json")
        data = json.loads(result.output)
        expected = {"solved": 0, "unsolvable": 3, "limit": 4}[data["status"]]
        assert result.exit_code == expected
        assert (data["route"] != []) == (data["status"] == "solved")
    limited = run("solve", "thirteen", "3", "--max-nodes", "1", "--json")
    assert limited.exit_code in (0, 3, 4)
    if limited.exit_code == 4:
        assert json.loads(limited.output)["route"] == []


def test_solve_text_names_the_limit_that_stopped_it() -> None:
    for option, value, reason in (("--max-nodes", "1", "nodes"), ("--memory", "1M", "memory")):
        result = run("solve", "cloverleaf", "24937", option, value)
        assert result.exit_code == 4
        assert f"limit (budget-exhausted), stopped by the {reason} limit" in result.output
    solved = run("solve", "cloverleaf", "1")
    assert solved.exit_code == 0 and "stopped by" not in solved.output


def test_solve_layout_file(tmp_path) -> None:
    layout_file = tmp_path / "layout.json"
    data = deal("blackhole", 2).to_json()
    del data["number"]
    layout_file.write_text(json.dumps(data))
    by_file = json.loads(run("solve", "blackhole", "--layout", str(layout_file), "--json").output)
    by_number = json.loads(run("solve", "blackhole", "2", "--json").output)
    assert by_file["status"] == by_number["status"] and by_file["route"] == by_number["route"]


def test_hint_keeps_the_win() -> None:
    solved = next(solve("blackhole", n) for n in range(1, 20) if solve("blackhole", n).solved)
    played = solved.route_strings[:3]
    result = json.loads(run("hint", "blackhole", str(solved.number), "--json", *played).output)
    assert result["keeps_win"] is True and result["move"] is not None
    after = replay("blackhole", solved.number, [*played, result["move"]])
    assert after.position is not None
    position = after.position.to_layout("blackhole")
    assert solve("blackhole", position).solved


def test_library_hint_plays_the_route_first_as_the_command_does() -> None:
    solved = next(solve("blackhole", n) for n in range(1, 20) if solve("blackhole", n).solved)
    played = solved.route_strings[:3]
    advice = hint("blackhole", solved.number, played)
    after = replay("blackhole", solved.number, [*played, str(advice.move)])
    assert advice.keeps_win and after.position is not None
    assert solve("blackhole", after.position.to_layout("blackhole")).solved
    command = json.loads(run("hint", "blackhole", str(solved.number), "--json", *played).output)
    assert command["move"] == str(advice.move)


def test_an_illegal_route_given_to_hint_is_a_result_in_json_and_an_error_in_the_library() -> None:
    result = run("hint", "thirteen", "1", "4>1", "99>F", "--json")
    assert result.exit_code == 1 and result.stderr == ""
    assert json.loads(result.stdout) == json.loads(
        run("replay", "thirteen", "1", "4>1", "99>F", "--json").stdout
    )
    assert json.loads(result.stdout)["illegal_at"] == 2
    with pytest.raises(IllegalRouteError, match="illegal at move 2: 99>F") as error:
        hint("thirteen", 1, ["4>1", "99>F"])
    assert error.value.result.illegal_at == 2


def test_hint_on_a_lost_deal() -> None:
    lost = next(n for n in range(1, 40) if solve("blackhole", n).status is Status.UNSOLVABLE)
    result = run("hint", "blackhole", str(lost))
    assert result.exit_code == 3 and result.stdout.startswith("no move")


def test_fifteen_hint_is_a_visible_grid_hint_with_its_own_status() -> None:
    lost = next(n for n in range(1, 40) if solve("fifteen", n).status is Status.UNSOLVABLE)
    result = run("hint", "fifteen", str(lost), "--json")
    answer = json.loads(result.stdout)
    assert result.exit_code == 0 and answer["move"] is not None
    assert answer["status"] == "not-searched" and answer["keeps_win"] is False
    assert replay("fifteen", lost, [answer["move"]]).status is not ReplayStatus.ILLEGAL
    played: list[str] = []  # (the visible hints to the end: a lost deal runs out of moves)
    while (advice := hint("fifteen", lost, played)).move is not None:
        assert advice.status is HintVerdict.NOT_SEARCHED
        played.append(str(advice.move))
    assert advice.status is Status.UNSOLVABLE and not replay("fifteen", lost, played).won
    end = run("hint", "fifteen", str(lost), *played, "--json")
    assert end.exit_code == 3 and json.loads(end.stdout)["status"] == "unsolvable"


def test_a_route_file_named_dash_is_standard_input(tmp_path, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "-").write_text("4>4")  # (a file named '-' is not read)
    route = " ".join(solve("thirteen", 1).route_strings)
    result = CliRunner().invoke(
        main, ["replay", "thirteen", "1", "--route-file", "-"], input=route + "\n"
    )
    assert result.exit_code == 0 and result.output.startswith("won:"), result.output
    empty = CliRunner().invoke(main, ["replay", "thirteen", "1", "--route-file", "-"], input="")
    assert_one_line_error(empty, 2, "route file '-' holds none")


def test_solve_of_a_won_position_says_so_without_a_trailing_space(tmp_path: Path) -> None:
    played = replay("thirteen", 1, solve("thirteen", 1).route)
    assert played.won and played.position is not None
    layout = tmp_path / "won.json"
    layout.write_text(json.dumps(played.position.to_layout("thirteen", 1).to_json()))
    result = run("solve", "thirteen", "--layout", str(layout))
    assert result.exit_code == 0
    assert result.output.splitlines()[1] == "route (0 moves): the position is already won"
    assert all(line == line.rstrip() for line in result.output.splitlines())


def test_console_script_has_no_traceback() -> None:
    process = subprocess.run(
        [*CLOVERSOLVE, "deal", "nosuch", "1"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert process.returncode == 2
    assert process.stderr.strip() == (
        "cloversolve: error: unknown preset: 'nosuch'; "
        "known: thirteen, thirteen-return, fifteen, cloverleaf, "
        "alexander, blackhole, allinarow"
    )


def test_a_layout_file_is_named_a_deal_only_when_it_is_that_deals_start(tmp_path: Path) -> None:
    """A layout's number passes a necessary check only: a won position numbered 6 is not
    "deal 6"; the dealt layout of deal 6, given as a file, is."""
    won = [rank + suit for suit in "CDHS" for rank in "A23456789TJQK"]
    path = tmp_path / "won6.json"
    path.write_text(
        json.dumps({**deal("thirteen", 6).to_json(), "piles": [[]] * 13, "foundations": {"F": won}})
    )
    result = run("solve", "thirteen", "--layout", str(path))
    assert result.exit_code == 0, result.output
    assert result.output.startswith("thirteen layout (numbered 6): solved")
    path.write_text(json.dumps(deal("thirteen", 6).to_json()))
    assert run("solve", "thirteen", "--layout", str(path)).output.startswith("thirteen deal 6: ")
    path.write_text(json.dumps({**deal("thirteen", 6).to_json(), "number": None}))
    assert run("solve", "thirteen", "--layout", str(path)).output.startswith("thirteen layout: ")
