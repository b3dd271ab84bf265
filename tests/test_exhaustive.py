"""The plain exhaustive solver (``cloversolve.rules.exhaustive``) over every preset's small
fixture positions: its losses against a breadth-first closure of the reachable positions,
its wins replayed by the reference engine, its budget and its position count."""

from __future__ import annotations

import json
from operator import methodcaller
from pathlib import Path

import pytest
from helpers import replays_to_win

from cloversolve.core.cards import parse_cards
from cloversolve.families.hole.rules import HolePosition
from cloversolve.games.layout import Layout
from cloversolve.games.registry import PRESETS
from cloversolve.rules import Position, position_from_layout
from cloversolve.rules.exhaustive import count_reachable, solve_exhaustively

FIXTURES = Path(__file__).parent / "fixtures"


def small_positions(preset: str) -> list[tuple[str, Position, bool]]:
    """``(name, position, solvable)`` of the fixture positions small enough to search whole."""
    entries = json.loads((FIXTURES / preset / "positions.json").read_text())
    return [
        (e["name"], position_from_layout(Layout.from_json(e["layout"])), e["verdict"] == "solvable")
        for e in entries
        if e["established_by"] == "naive"
    ]


def closure(position: Position) -> tuple[int, bool]:
    """Breadth-first over every reachable position: how many distinct keys, and whether any
    of them is won."""
    seen = {position.key()}
    frontier = [position.copy()]
    won = position.is_won()
    while frontier:
        following = []
        for board in frontier:
            for move in list(board.legal_moves()):
                board.push(move)
                if board.key() not in seen:
                    seen.add(board.key())
                    won = won or board.is_won()
                    following.append(board.copy())
                board.pop()
        frontier = following
    return len(seen), won


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_wins_replay_and_losses_match_a_breadth_first_closure(preset: str) -> None:
    cases = small_positions(preset)
    assert {solvable for _, _, solvable in cases} == {True, False}
    for name, position, solvable in cases:
        before = position.key()
        outcome = solve_exhaustively(position)
        assert position.key() == before, name
        if solvable:
            assert outcome.solvable is True, name
            assert outcome.route and replays_to_win(position, outcome.route), name
        else:  # the whole reachable graph: the closure sees no win and as many positions
            assert (outcome.solvable, outcome.route) == (False, None), name
            assert (outcome.positions, False) == closure(position), name


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_a_budget_that_runs_out_gives_no_verdict(preset: str) -> None:
    for name, position, _ in small_positions(preset):
        needed = solve_exhaustively(position)
        assert solve_exhaustively(position, max_positions=needed.positions) == needed, name
        if needed.positions > 1:
            short = solve_exhaustively(position, max_positions=needed.positions - 1)
            assert (short.solvable, short.route) == (None, None), name
            assert short.positions == needed.positions - 1, name


def test_a_won_position_is_solvable_with_an_empty_route() -> None:
    name, position, _ = next(case for case in small_positions("blackhole") if case[2])
    route = solve_exhaustively(position).route
    assert route, name
    for move in route:
        position.push_checked(move)
    outcome = solve_exhaustively(position)
    assert (outcome.solvable, outcome.route, outcome.positions) == (True, (), 1)


def test_the_position_and_its_history_are_left_alone() -> None:
    _, position, _ = small_positions("thirteen")[0]
    first = next(position.legal_moves())
    position.push(first)
    before = position.key()
    solve_exhaustively(position)
    count_reachable(position, 3)
    assert position.key() == before and position.pop() == first


@pytest.mark.parametrize("budget", [0, -3])
def test_a_budget_below_one_position_is_refused(budget: int) -> None:
    _, position, _ = small_positions("fifteen")[0]
    with pytest.raises(ValueError, match=str(budget)):
        solve_exhaustively(position, max_positions=budget)


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_reachable_counts_start_at_one_and_follow_the_moves(preset: str) -> None:
    for name, position, _ in small_positions(preset):
        assert count_reachable(position, 0) == 1, name
        children = set()
        for move in list(position.legal_moves()):
            position.push(move)
            children.add(position.play_state())
            position.pop()
        assert count_reachable(position, 1) == len(children), name
        by_key = count_reachable(position, 2, state=methodcaller("key"))
        assert count_reachable(position, 2) <= by_key, name


def test_play_states_of_the_hole_games_forget_the_foundation_suit() -> None:
    # Fans and the foundation's top rank decide a hole game. From 2S, the lines 3D 2H 3C and
    # 3C 2H 3D empty the same fans onto a Three: two positions, one play state.
    fans = [parse_cards(["3D"]), parse_cards(["3C"]), parse_cards(["2H"])]
    position = HolePosition(fans, parse_cards(["2S"]))
    assert count_reachable(position, 3, state=methodcaller("key")) == 2
    assert count_reachable(position, 3) == 1
    outcome = solve_exhaustively(position)
    assert outcome.solvable and [str(move) for move in outcome.route or ()] == ["1>F", "3>F", "2>F"]
