"""The documented promises about ``solve`` and ``hint`` (``docs/library.md``,
``docs/solvability.md``), each checked so that its loss fails a test: every route is replayed
by the reference engine before ``solve`` returns it; a hint keeps a win possible;
``thirteen-return``'s verdicts are ``thirteen``'s deal by deal."""

from __future__ import annotations

import csv
import dataclasses
import json
from pathlib import Path

import pytest
from click.testing import CliRunner

import cloversolve.solving.solver as solver_module
from cloversolve import replay, solve
from cloversolve.cli.main import main
from cloversolve.core.verdicts import Status
from cloversolve.rules import Position
from cloversolve.runs.study_files import read_verdicts
from cloversolve.search.common import Limits, SearchOutcome
from cloversolve.solving.solver import RouteCheckError, SolveResult, hint

DATA = Path(__file__).parent / "data"


@pytest.mark.parametrize(
    ("preset", "number"), [("thirteen", 1), ("fifteen", 1), ("cloverleaf", 1), ("blackhole", 2)]
)
def test_solve_refuses_a_route_the_reference_engine_does_not_win(
    preset: str, number: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    real = solver_module.search_position

    def one_move_short(position: Position, family: str, limits: Limits) -> SearchOutcome:
        outcome = real(position, family, limits)
        assert outcome.status is Status.SOLVED and len(outcome.route) > 1
        return dataclasses.replace(outcome, route=outcome.route[:-1])

    monkeypatch.setattr(solver_module, "search_position", one_move_short)
    with pytest.raises(RouteCheckError, match=f"route found for {preset} {number} does not"):
        solve(preset, number)


@pytest.mark.parametrize(("preset", "number"), [("fifteen", 1), ("fifteen", 2), ("thirteen", 1)])
def test_a_solve_result_holds_every_field_and_equals_the_result_its_fields_make(
    preset: str, number: int
) -> None:
    result = solve(preset, number)
    names = [field.name for field in dataclasses.fields(SolveResult)]
    assert sorted(vars(result)) == sorted(names)
    assert result == SolveResult(**{name: getattr(result, name) for name in names})
    with pytest.raises(dataclasses.FrozenInstanceError):
        result.nodes = 0  # type: ignore[misc]


#: Positions (a deal and the first moves of its route) where the first legal move loses and
#: another one keeps a win: a hint that named any legal move would be caught there.
HINT_POSITIONS = [
    ("thirteen", 1, 9),
    ("thirteen-return", 1, 12),
    ("cloverleaf", 8, 17),
    ("alexander", 3, 1),
    ("blackhole", 2, 1),
    ("allinarow", 3, 15),
]


def solved_after(preset: str, number: int, moves: list[str]) -> Status:
    played = replay(preset, number, moves)
    assert played.position is not None and played.illegal_at is None
    return solve(preset, played.position.to_layout(preset, number)).status


@pytest.mark.parametrize(("preset", "number", "played"), HINT_POSITIONS)
def test_a_hint_keeps_a_win_possible(preset: str, number: int, played: int) -> None:
    route = solve(preset, number).route_strings[:played]
    position = replay(preset, number, route).position
    assert position is not None
    first_legal = str(next(iter(position.legal_moves())))
    assert solved_after(preset, number, [*route, first_legal]) is Status.UNSOLVABLE
    advice = hint(preset, number, route)
    assert advice.keeps_win and advice.move is not None
    assert solved_after(preset, number, [*route, str(advice.move)]) is Status.SOLVED
    command = CliRunner().invoke(main, ["hint", preset, str(number), "--json", *route])
    assert command.exit_code == 0, command.output
    assert json.loads(command.stdout)["move"] == str(advice.move)


def committed_verdicts(preset: str) -> dict[int, str]:
    with (DATA / f"{preset}_verdicts_1_10000.csv").open(newline="") as handle:
        return {int(row["number"]): row["status"] for row in csv.DictReader(handle)}


def test_thirteen_return_verdicts_are_thirteen_verdicts_deal_by_deal() -> None:
    # Both files come from the solver (regression data); the sample below is solved again.
    plain, returning = committed_verdicts("thirteen"), committed_verdicts("thirteen-return")
    assert sorted(plain) == sorted(returning) == list(range(1, 10001))
    differing = [n for n in plain if plain[n] != returning[n]]
    assert differing == []
    assert {"solved", "unsolvable"} <= set(plain.values())


def test_the_million_deal_verdict_files_of_both_thirteen_presets_agree_deal_by_deal() -> None:
    # docs/solvability.md: thirteen-return's verdicts are thirteen's, deal by deal, over
    # 1..1,000,000.
    folder = DATA.parent.parent / "benchmarks" / "results" / "verdicts"
    plain_header, plain = read_verdicts(folder / "thirteen.verdicts")
    returning_header, returning = read_verdicts(folder / "thirteen-return.verdicts")
    assert plain_header["first"] == returning_header["first"] == 1
    assert len(plain) == len(returning) == 1_000_000
    differing = [n for n, (a, b) in enumerate(zip(plain, returning, strict=True), 1) if a != b]
    assert differing == []


@pytest.mark.parametrize("number", [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 31999, 32000, 10**19])
def test_thirteen_return_decides_a_sample_as_thirteen(number: int) -> None:
    plain, returning = solve("thirteen", number), solve("thirteen-return", number)
    assert Status.LIMIT_REACHED not in (plain.status, returning.status)
    assert returning.status is plain.status, number


def test_a_fifteen_hint_never_reaches_a_limit_and_a_won_game_is_solved() -> None:
    # docs/library.md: the fifteen hint is chosen without a search, so within any budget; a won game
    # has no move to give, and that is status solved, exit 0.
    number = next(n for n in range(1, 40) if solve("fifteen", n).status is Status.SOLVED)
    route = solve("fifteen", number).route_strings
    tight = ["--max-nodes", "1", "--time-limit", "0.000001", "--memory", str(2**20)]
    for played in (route[:0], route[: len(route) // 2]):
        given = CliRunner().invoke(
            main, ["hint", "fifteen", str(number), "--json", *tight, *played]
        )
        assert given.exit_code == 0, given.output
        answer = json.loads(given.stdout)
        assert answer["status"] == "not-searched" and answer["move"] is not None
    won = CliRunner().invoke(main, ["hint", "fifteen", str(number), "--json", *route])
    assert won.exit_code == 0, won.output
    assert (json.loads(won.stdout)["status"], json.loads(won.stdout)["move"]) == ("solved", None)
