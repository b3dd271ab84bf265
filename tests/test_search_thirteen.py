"""Tests of the Four Leaf Clovers search kernel against the reference engine and the plain
exhaustive solver (presets thirteen and thirteen-return)."""

from __future__ import annotations

import itertools
import random
from types import SimpleNamespace

import pytest
from helpers import engine_perft, random_walk, replays_to_win
from hypothesis import given, settings
from hypothesis import strategies as st
from small_games import round_robin_tiny_game
from verdict_checks import assert_outcome_sound

from cloversolve.core.cards import SUITS, Card
from cloversolve.core.verdicts import Method, Status
from cloversolve.families.thirteen import search as kernel
from cloversolve.families.thirteen.rules import ThirteenPosition
from cloversolve.families.thirteen.search import (
    has_king_bottom,
    legal_moves,
    perft,
    search,
    state_key,
)
from cloversolve.games.dealing import deal
from cloversolve.rules.exhaustive import solve_exhaustively
from cloversolve.search import driver
from cloversolve.search.common import Limits, SearchOutcome
from cloversolve.search.table import ENTRY_BYTES
from cloversolve.solving.solver import solve

PRESETS = ("thirteen", "thirteen-return")
#: A budget no real deal needs (the restarts decide them in far fewer nodes).
GENEROUS = Limits(max_nodes=20_000_000)


def real(preset: str, number: int) -> ThirteenPosition:
    return ThirteenPosition.from_layout(deal(preset, number))


def assert_route_wins(position: ThirteenPosition, outcome: SearchOutcome) -> None:
    assert outcome.status is Status.SOLVED and outcome.method is Method.ROUTE_FOUND
    assert replays_to_win(position, outcome.route)


def verdict(outcome: SearchOutcome) -> bool | None:
    """True for solved, False for unsolvable, None for undecided."""
    if outcome.status is Status.LIMIT_REACHED:
        return None
    return outcome.status is Status.SOLVED


# -- the kernel's move generator agrees with the engine ---------------------------------------


def random_position(rng: random.Random, preset: str, number: int, steps: int):
    return random_walk(real(preset, number), rng, steps)


@settings(max_examples=40, deadline=None)
@given(
    number=st.integers(1, 10**6),
    preset=st.sampled_from(PRESETS),
    steps=st.integers(0, 80),
    rng=st.randoms(use_true_random=False),
)
def test_kernel_moves_equal_engine_moves(number, preset, steps, rng):
    position = random_position(rng, preset, number, steps)
    moves = legal_moves(position)
    assert len(set(moves)) == len(moves)
    assert set(moves) == set(position.legal_moves())


@pytest.mark.parametrize("preset", PRESETS)
@pytest.mark.parametrize("number", [1, 2, 3, 40_000])
def test_perft_engine_equals_kernel(preset, number):
    position = real(preset, number)
    for depth in range(4):
        assert perft(position, depth) == engine_perft(position, depth)


# -- the table key forgets suits and pile numbers, nothing else --------------------------------


def test_state_key_ignores_pile_order_and_suits():
    position = real("thirteen", 5)
    rng = random.Random(5)
    piles = [list(p) for p in position.piles]
    rng.shuffle(piles)
    swap = dict(zip(SUITS, "SHDC", strict=True))
    resuited = [[Card(c.rank, swap[c.suit]) for c in pile] for pile in piles]
    assert state_key(ThirteenPosition(resuited)) == state_key(position)


def canonical(position: ThirteenPosition) -> tuple:
    """The position up to suits and pile numbers."""
    piles = sorted(tuple(card.rank for card in pile) for pile in position.piles)
    return tuple(piles), len(position.foundation)


@pytest.mark.parametrize("preset", PRESETS)
def test_state_key_is_one_to_one_on_positions_up_to_symmetry(preset):
    rng = random.Random(3)
    key_of: dict[tuple, tuple[int, int]] = {}
    for number in range(1, 6):
        position = real(preset, number)
        for _ in range(300):
            key = state_key(position)
            assert key_of.setdefault(canonical(position), key) == key
            moves = list(position.legal_moves())
            if not moves:
                break
            position.push(rng.choice(moves))
    assert len(key_of) > 300
    assert len(set(key_of.values())) == len(key_of)


# -- verdicts equal the exhaustive solver on tiny games ----------------------------------------

TINY_THIRTEEN = [
    {"ranks": 4, "suits": 2, "piles": 3},
    {"ranks": 4, "suits": 2, "piles": 4},
    {"ranks": 2, "suits": 4, "piles": 3},
    {"ranks": 4, "suits": 4, "piles": 3, "on_foundation": 8},
    {"ranks": 5, "suits": 4, "piles": 3, "on_foundation": 12},
    {"ranks": 6, "suits": 4, "piles": 3, "on_foundation": 16},
    {"ranks": 6, "suits": 4, "piles": 4, "on_foundation": 16},
    {"ranks": 13, "suits": 4, "piles": 4, "on_foundation": 43},
    {"ranks": 6, "suits": 2, "piles": 2},
]
TINY_RETURN = [
    {"ranks": 4, "suits": 2, "piles": 3},
    {"ranks": 4, "suits": 2, "piles": 4},
    {"ranks": 2, "suits": 4, "piles": 3},
    {"ranks": 2, "suits": 4, "piles": 4},
    {"ranks": 3, "suits": 2, "piles": 3},
    {"ranks": 6, "suits": 2, "piles": 2},
]


def tiny_games(families: list[dict], per_family: int, allow_return: bool):
    for index, family in enumerate(families):
        for seed in range(per_family):
            yield round_robin_tiny_game(
                ThirteenPosition, 1000 * index + seed, allow_return=allow_return, **family
            )


#: The switchable pruning rules: (king_bottom, buried_rank).
RULES = [(True, True), (True, False), (False, True), (False, False)]


@pytest.mark.parametrize(
    ("allow_return", "families", "per_family"),
    [(False, TINY_THIRTEEN, 56), (True, TINY_RETURN, 84)],
    ids=PRESETS,
)
def test_verdicts_equal_exhaustive_solver_on_tiny_games(allow_return, families, per_family):
    kinds = {True: 0, False: 0}
    king_root_cuts = king_search_cuts = rank_root_cuts = rank_search_cuts = 0
    for position in tiny_games(families, per_family, allow_return):
        expected = solve_exhaustively(position).solvable
        kinds[expected] += 1
        plain = {}
        for king_bottom, buried_rank in RULES:
            for restarts in (True, False):
                outcome = search(
                    position, king_bottom=king_bottom, buried_rank=buried_rank, restarts=restarts
                )
                assert verdict(outcome) is expected, (position, king_bottom, buried_rank, restarts)
                if expected:
                    assert_route_wins(position, outcome)
                elif outcome.method is Method.KING_BOTTOM:
                    assert king_bottom and outcome.nodes == 0
                elif outcome.method is Method.BURIED_RANK:
                    assert buried_rank and outcome.nodes == outcome.states == 0
                else:
                    assert outcome.method is Method.EXHAUSTED
                if not restarts:
                    plain[king_bottom, buried_rank] = outcome
        none = plain[False, False]
        king, rank = plain[True, False], plain[False, True]
        king_root_cuts += king.method is Method.KING_BOTTOM
        king_search_cuts += king.method is not Method.KING_BOTTOM and king != none
        rank_root_cuts += rank.method is Method.BURIED_RANK and none.nodes > 0
        rank_search_cuts += rank.nodes > 0 and rank != none  # the rule changed the search
    assert kinds[True] >= 20 and kinds[False] >= 20, kinds
    assert king_root_cuts > 0 and king_search_cuts > 0, (king_root_cuts, king_search_cuts)
    assert rank_root_cuts > 0, rank_root_cuts
    if not allow_return:
        assert rank_search_cuts > 0, rank_search_cuts


def test_buried_rank_rule_proves_a_lock_lost():
    # Every Seven and Nine of deal 26816 lies under an Eight, and an Eight moves only onto a
    # Seven or a Nine: no Seven is ever uncovered.
    for preset in PRESETS:
        position = real(preset, 26816)
        assert has_king_bottom(position)
        outcome = search(position)
        assert (outcome.status, outcome.method, outcome.nodes) == (
            Status.UNSOLVABLE,
            Method.BURIED_RANK,
            0,
        )
        data = solve(preset, 26816).to_json()
        assert (data["status"], data["method"], data["nodes"]) == ("unsolvable", "buried-rank", 0)
        unpruned = search(position, Limits(max_nodes=20_000), buried_rank=False)
        assert unpruned.status is Status.LIMIT_REACHED


# -- real deals ------------------------------------------------------------------------------


@pytest.mark.parametrize("preset", PRESETS)
def test_every_route_on_real_deals_replays_to_a_win(preset):
    counts = {Status.SOLVED: 0, Status.UNSOLVABLE: 0}
    for number in range(1, 201):
        position = real(preset, number)
        outcome = search(position, GENEROUS)
        assert outcome.status is not Status.LIMIT_REACHED, number
        counts[outcome.status] += 1
        if outcome.status is Status.SOLVED:
            assert_route_wins(position, outcome)
        else:
            assert outcome.method is Method.KING_BOTTOM
        assert (outcome.method is Method.KING_BOTTOM) == (not has_king_bottom(position))
    assert counts[Status.SOLVED] >= 50 and counts[Status.UNSOLVABLE] >= 20, counts


@settings(max_examples=25, deadline=None)
@given(number=st.integers(1, 10**20 - 1), preset=st.sampled_from(PRESETS))
def test_routes_of_any_deal_number_replay(number, preset):
    position = real(preset, number)
    outcome = search(position, GENEROUS)
    assert_outcome_sound(position, outcome, "thirteen")
    if outcome.status is Status.SOLVED:
        assert_route_wins(position, outcome)
    assert (outcome.method is Method.KING_BOTTOM) == (not has_king_bottom(position))


@pytest.mark.parametrize("preset", PRESETS)
def test_pruning_rules_keep_verdicts_on_real_deals(preset):
    compared = 0
    for number in range(1, 31):
        position = real(preset, number)
        verdicts = set()
        for king_bottom, buried_rank in RULES:
            outcome = search(
                position,
                Limits(max_nodes=100_000),
                king_bottom=king_bottom,
                buried_rank=buried_rank,
            )
            if verdict(outcome) is True:
                assert_route_wins(position, outcome)
            if verdict(outcome) is not None:
                verdicts.add(verdict(outcome))
        assert len(verdicts) <= 1, number
        compared += len(verdicts)
    assert compared >= 15


def late_positions(preset: str, numbers: range, rng: random.Random):
    """Positions near the end of won real deals, some pushed off the winning line by a few
    random moves (so some are lost)."""
    for number in numbers:
        position = real(preset, number)
        outcome = search(position, GENEROUS)
        if outcome.status is not Status.SOLVED:
            continue
        cut = max(0, len(outcome.route) - rng.randint(8, 18))
        for move in outcome.route[:cut]:
            position.push(move)
        for _ in range(rng.randint(0, 4)):
            moves = list(position.legal_moves())
            if moves:
                position.push(rng.choice(moves))
        yield position.copy()


def test_pruning_rules_keep_verdicts_on_late_positions_of_real_deals():
    kinds = {True: 0, False: 0}
    for position in late_positions("thirteen", range(1, 121), random.Random(7)):
        expected = solve_exhaustively(position).solvable
        kinds[expected] += 1
        for king_bottom, buried_rank in RULES:
            outcome = search(
                position,
                Limits(max_nodes=2_000_000),
                king_bottom=king_bottom,
                buried_rank=buried_rank,
            )
            assert verdict(outcome) is expected
    assert kinds[True] >= 10 and kinds[False] >= 5, kinds


def test_pruning_rules_keep_verdicts_on_late_positions_with_returns():
    kinds = {True: 0, False: 0}
    for position in late_positions("thirteen-return", range(1, 61), random.Random(11)):
        unpruned = search(position, Limits(max_nodes=300_000), king_bottom=False, buried_rank=False)
        if verdict(unpruned) is None:
            continue
        for king_bottom, buried_rank in RULES[:3]:
            pruned = search(
                position,
                Limits(max_nodes=300_000),
                king_bottom=king_bottom,
                buried_rank=buried_rank,
            )
            assert verdict(pruned) is verdict(unpruned)
        kinds[verdict(unpruned)] += 1
    assert kinds[True] >= 10 and kinds[False] >= 1, kinds


# -- search behaviour ------------------------------------------------------------------------


@pytest.mark.parametrize("preset", PRESETS)
def test_search_is_deterministic(preset):
    for number in (1, 2, 3, 10, 2548):
        first = search(real(preset, number), GENEROUS)
        second = search(real(preset, number), GENEROUS)
        assert first == second


def test_growing_table_and_stack_do_not_change_the_result(monkeypatch):
    position = real("thirteen", 2548)
    expected = search(position, GENEROUS)
    monkeypatch.setattr(kernel, "INITIAL_TABLE_ENTRIES", 4)
    monkeypatch.setattr(kernel, "INITIAL_STACK_DEPTH", 4)
    assert search(position, GENEROUS) == expected


def test_already_won_and_hopeless_positions():
    won = search(ThirteenPosition([[], []], [Card(1, "S"), Card(2, "S")], ranks=2))
    assert won.status is Status.SOLVED and won.route == ()
    hopeless = next(
        position
        for position in (real("thirteen", n) for n in range(1, 100))
        if not has_king_bottom(position)
    )
    outcome = search(hopeless)
    assert (outcome.status, outcome.method, outcome.nodes) == (
        Status.UNSOLVABLE,
        Method.KING_BOTTOM,
        0,
    )
    assert verdict(search(hopeless, Limits(max_nodes=10_000), king_bottom=False)) is not True


def test_an_exhausted_restart_is_a_proof():
    position = ThirteenPosition.parse([["4S", "2S"], ["AS", "3S"]], ranks=4)
    assert has_king_bottom(position) and solve_exhaustively(position).solvable is False
    outcome = search(position, buried_rank=False)
    assert (outcome.status, outcome.method) == (Status.UNSOLVABLE, Method.EXHAUSTED)
    assert outcome.details["decided_by"] == "restart 1" and outcome.nodes > 0


def hard_position() -> ThirteenPosition:
    """A deal that plain depth-first search (no restarts) does not decide quickly."""
    return real("thirteen", 5463)


def test_node_limit_stops_the_search():
    outcome = search(hard_position(), Limits(max_nodes=5_000), restarts=False)
    assert (outcome.status, outcome.method) == (Status.LIMIT_REACHED, Method.BUDGET)
    assert outcome.nodes <= 5_000 and outcome.details["stopped_by"] == "nodes"


def test_memory_limit_stops_the_search():
    outcome = search(hard_position(), Limits(max_memory=2**20), restarts=False)
    assert (outcome.status, outcome.method) == (Status.LIMIT_REACHED, Method.BUDGET)
    assert outcome.details["stopped_by"] == "memory"
    assert outcome.states <= 2**20 // ENTRY_BYTES


def test_time_limit_stops_the_search(monkeypatch: pytest.MonkeyPatch) -> None:
    # The search's clock is a counter here: each reading adds a second, so the limit has passed
    # at the first check, after one slice of nodes, however fast or loaded the machine is.
    ticks = itertools.count(1)
    monkeypatch.setattr(driver, "time", SimpleNamespace(perf_counter=lambda: float(next(ticks))))
    outcome = search(hard_position(), Limits(time_limit=0.05), restarts=False)
    assert (outcome.status, outcome.method) == (Status.LIMIT_REACHED, Method.BUDGET)
    assert outcome.details["stopped_by"] == "time"
    assert outcome.nodes > 0
