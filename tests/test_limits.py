"""Search budgets: one check (``Limits``) for every family, the library and the command line."""

from __future__ import annotations

import math
from collections.abc import Iterator

import click
import numpy as np
import pytest
from click.testing import CliRunner

import cloversolve.solving.solver as solver_module
from cloversolve.cli.common import Seconds, WholeNumber
from cloversolve.cli.main import main
from cloversolve.core.verdicts import Status
from cloversolve.games.registry import PRESETS
from cloversolve.runs.bench import DEFAULT_TIME_LIMIT
from cloversolve.runs.study import study
from cloversolve.search.common import (
    DEFAULT_MAX_MEMORY,
    MAX_MEMORY,
    MAX_NODES,
    LimitError,
    Limits,
)
from cloversolve.solving.solver import hint, solve

BAD_LIMITS = [
    ("max_nodes", 1000.5),
    ("max_nodes", 1000.0),
    ("max_nodes", "100"),
    ("max_nodes", math.inf),
    ("max_nodes", math.nan),
    ("max_nodes", True),
    ("max_nodes", 0),
    ("max_nodes", -5),
    ("max_nodes", MAX_NODES + 1),
    ("max_nodes", 2**64),
    ("time_limit", math.nan),
    ("time_limit", math.inf),
    ("time_limit", -math.inf),
    ("time_limit", 0),
    ("time_limit", -1.0),
    ("time_limit", "1"),
    ("time_limit", True),
    ("time_limit", [1]),
    ("time_limit", 10**400),  # (too large for a float)
    ("max_memory", math.inf),
    ("max_memory", math.nan),
    ("max_memory", 1e9),
    ("max_memory", float(DEFAULT_MAX_MEMORY)),  # (the default's value, not a whole number)
    ("max_memory", "512M"),
    ("max_memory", None),
    ("max_memory", False),
    ("max_memory", 2**20 - 1),
    ("max_memory", MAX_MEMORY + 1),
    ("max_memory", 2**64),
]


@pytest.mark.parametrize(("parameter", "value"), BAD_LIMITS)
def test_bad_limits_raise_a_value_error_naming_the_parameter(parameter: str, value: object) -> None:
    with pytest.raises(LimitError, match=f"^{parameter} must be ") as caught:
        Limits(**{parameter: value})  # type: ignore[arg-type]
    assert isinstance(caught.value, ValueError)
    assert caught.value.parameter == parameter


def test_a_limit_error_quotes_a_huge_value_in_a_short_line() -> None:
    for value in (10**400, 10**5000):
        with pytest.raises(LimitError) as caught:
            Limits(max_nodes=value)
        assert len(str(caught.value)) < 200


@pytest.mark.parametrize("preset", sorted(PRESETS))
@pytest.mark.parametrize(("parameter", "value"), BAD_LIMITS)
def test_every_family_refuses_bad_limits_before_searching(
    preset: str, parameter: str, value: object, monkeypatch: pytest.MonkeyPatch
) -> None:
    searched: list[str] = []
    monkeypatch.setattr(solver_module, "search_position", lambda *args: searched.append("x"))
    monkeypatch.setattr(solver_module, "warm_up", lambda *args: searched.append("warm-up"))
    with pytest.raises(LimitError, match=f"^{parameter} must be "):
        solve(preset, 25, **{parameter: value})  # type: ignore[arg-type]
    assert searched == []


@pytest.mark.parametrize("preset", ["thirteen", "cloverleaf", "blackhole"])
def test_hint_refuses_bad_limits(preset: str) -> None:
    with pytest.raises(LimitError, match="^max_nodes must be "):
        hint(preset, 25, max_nodes=1000.5)  # type: ignore[arg-type]


def test_study_refuses_bad_limits_before_any_work(tmp_path) -> None:
    checkpoint = tmp_path / "study.jsonl"
    with pytest.raises(LimitError, match="^time_limit must be "):
        study(
            "blackhole", range(1, 3), limits=Limits(time_limit=math.nan), checkpoint=str(checkpoint)
        )
    assert not checkpoint.exists()


def test_good_limits_are_stored_as_plain_numbers() -> None:
    limits = Limits(max_nodes=np.int64(5_000), time_limit=2, max_memory=np.int32(2**21))
    assert limits == Limits(max_nodes=5_000, time_limit=2.0, max_memory=2**21)
    assert type(limits.max_nodes) is int and type(limits.max_memory) is int
    assert type(limits.time_limit) is float
    assert Limits(max_nodes=MAX_NODES, max_memory=MAX_MEMORY).max_nodes == MAX_NODES


@pytest.mark.parametrize("preset", ["cloverleaf", "thirteen", "fifteen", "blackhole"])
def test_the_largest_node_budget_still_searches(preset: str) -> None:
    result = solve(preset, 1, max_nodes=MAX_NODES, time_limit=30.0)
    assert result.nodes < MAX_NODES


def test_a_memory_size_beyond_a_float_is_refused_in_one_line() -> None:
    for value in ("1" + "0" * 400, "2" + "0" * 400 + "K"):
        for command in ("solve", "hint"):
            result = CliRunner().invoke(main, [command, "thirteen", "1", "--memory", value])
            assert result.exit_code == 2, result.output
            errors = [line for line in result.stderr.splitlines() if "error" in line]
            assert len(errors) == 1 and errors[0].startswith("cloversolve: error: bad --memory")
            assert "at most 256T" in errors[0]


@pytest.mark.parametrize(
    ("option", "value"),
    [
        ("--time-limit", "nan"),
        ("--time-limit", "inf"),
        ("--time-limit", "1e400"),
        ("--time-limit", "0"),
        ("--max-nodes", str(2**64)),
        ("--memory", "1000T"),
        ("--memory", "300T"),
        ("--memory", "1P"),
        ("--time-limit", "\uff11"),  # a fullwidth 1
        ("--time-limit", "+1"),
        ("--memory", "\uff15\uff11\uff12M"),  # a fullwidth 512
        ("--memory", "\u0665\u0661\u0662M"),  # an Arabic-Indic 512
        ("--memory", "+512M"),
    ],
)
def test_cli_limits_are_checked_in_one_line(option: str, value: str) -> None:
    for command in ("solve", "hint"):
        result = CliRunner().invoke(main, [command, "thirteen", "1", option, value])
        assert result.exit_code == 2, result.output
        errors = [line for line in result.stderr.splitlines() if "error" in line]
        assert len(errors) == 1 and errors[0].startswith("cloversolve: error: ")
        assert f"bad {option}: " in errors[0]  # the option, not the library's field
        assert value in errors[0]  # as typed (not 'inf' for 1e400, nor 300T in bytes)


LIMIT_REACHED = Status.LIMIT_REACHED


def test_solve_and_hint_take_the_budgets_as_one_limits() -> None:
    limits = Limits(max_nodes=20, max_memory=2**22)
    given = solve("cloverleaf", 1, limits=limits)
    spelled = solve("cloverleaf", 1, max_nodes=20, max_memory=2**22)
    assert (given.status, given.nodes) == (spelled.status, spelled.nodes) == (LIMIT_REACHED, 20)
    assert given.details["stopped_by"] == spelled.details["stopped_by"] == "nodes"
    assert hint("cloverleaf", 1, limits=limits).status is LIMIT_REACHED


@pytest.mark.parametrize("keywords", [{"max_nodes": 5}, {"time_limit": 1.0}, {"max_memory": 2**21}])
def test_limits_and_a_budget_keyword_together_are_refused(keywords: dict) -> None:
    for call in (solve, hint):
        with pytest.raises(ValueError, match="^give the budgets as limits or as "):
            call("thirteen", 1, limits=Limits(), **keywords)


def test_limits_must_be_a_limits() -> None:
    with pytest.raises(TypeError, match="^limits must be a Limits, got "):
        solve("thirteen", 1, limits={"max_nodes": 5})  # type: ignore[arg-type]


def _budget_options(command: click.Command, path: str = "") -> Iterator[tuple[str, click.Option]]:
    """The budget options of ``command`` and its subcommands, with the command's path."""
    if isinstance(command, click.Group):
        context = click.Context(command)
        for name in command.list_commands(context):
            sub = command.get_command(context, name)
            assert sub is not None
            yield from _budget_options(sub, f"{path} {name}".strip())
    for param in command.params:
        if isinstance(param, click.Option) and param.name in BUDGET_OPTIONS:
            yield path, param


#: The budget options' names, as the one decorator declares them.
BUDGET_OPTIONS = ("max_nodes", "time_limit", "memory")


def test_every_searching_command_declares_the_budgets_once() -> None:
    """The commands that search take the three budgets from the one decorator: the same
    types and the same help (a command running many searches says a budget is per deal)."""
    found: dict[str, dict[str, click.Option]] = {}
    for path, option in _budget_options(main):
        assert option.name is not None
        found.setdefault(path, {})[option.name] = option
    searching = {path for path, options in found.items() if "memory" in options}
    assert searching == {"solve", "hint", "study", "bench", "view"}
    found = {path: found[path] for path in searching}  # (audit's --time-limit is its own)
    for path, options in found.items():
        assert set(options) == set(BUDGET_OPTIONS), path
        assert isinstance(options["max_nodes"].type, WholeNumber)
        assert isinstance(options["time_limit"].type, Seconds)
    helps = {options["memory"].help for options in found.values()}
    assert len(helps) == 1
    nodes_help = {options["max_nodes"].help for options in found.values()}
    assert all(text and text.startswith("Stop after this many search nodes") for text in nodes_help)
    assert found["study"]["time_limit"].help == found["bench"]["time_limit"].help
    assert found["bench"]["time_limit"].default == DEFAULT_TIME_LIMIT
