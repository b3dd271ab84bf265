"""Tests of the 15-sum search kernel, against the reference engine, the plain exhaustive solver
and an independent partition-based decision method."""

from __future__ import annotations

import itertools
import random
from functools import cache

import numpy as np
import pytest
from helpers import engine_perft, random_walk, replays_to_win
from hypothesis import given, settings
from hypothesis import strategies as st
from small_games import small_fifteen_position

import cloversolve.families.fifteen.search as fifteen_search
from cloversolve.core.cards import SUITS, Card
from cloversolve.core.verdicts import Method, Status
from cloversolve.families.fifteen.hint import visible_hint
from cloversolve.families.fifteen.rules import FifteenPosition
from cloversolve.families.fifteen.search import (
    kernel_legal_groups,
    perft,
    search,
    state_key,
)
from cloversolve.games.dealing import deal
from cloversolve.games.layout import Layout
from cloversolve.rules.exhaustive import solve_exhaustively
from cloversolve.search.common import Limits

DEAL_NUMBERS = st.integers(min_value=1, max_value=10**20 - 1)
COURTS = (11, 12, 13)


# -- an independent decision method: partitions and schedules --------------------------------


@cache
def suit_splits() -> tuple[tuple[tuple[int, ...], ...], ...]:
    """The ways to split A..9 into three sets of 15 (found by brute force over labellings)."""
    splits = set()
    for labels in itertools.product(range(3), repeat=9):
        parts = [tuple(r + 1 for r in range(9) if labels[r] == p) for p in range(3)]
        if all(sum(part) == 15 for part in parts):
            splits.add(tuple(sorted(parts)))
    return tuple(sorted(splits))


def partition_verdict(layout: Layout) -> bool:
    """Whether a full deal is winnable, by trying all 6,561 partitions into legal groups.

    A group becomes takeable once enough cards are removed for its last card (in dealing
    order) to be in the grid: card i (0-based) needs ``max(0, i - 15)`` removals. A fixed
    partition can be played out iff every group's need is at most the number of cards in the
    partition's groups of smaller need (take groups in order of need; conversely, the first
    group of need >= t can only be taken after groups of need < t). That count is a sum over
    suits, so it is tabulated per suit and split for every need t = 0..33, and the 9**4
    partitions are formed by adding the tables (two suits at a time).
    """
    order = list(layout.cells) + list(layout.stock)
    need = {card: max(0, index - 15) for index, card in enumerate(order)}
    thresholds = np.arange(34)
    halves = []
    for pair in (SUITS[:2], SUITS[2:]):
        tables = [split_table(need, suit, thresholds) for suit in pair]
        below = tables[0][0][:, None, :] + tables[1][0][None, :, :]
        needed = tables[0][1][:, None, :] | tables[1][1][None, :, :]
        halves.append((below.reshape(-1, 34), needed.reshape(-1, 34)))
    (below_a, needed_a), (below_b, needed_b) = halves
    below = below_a[:, None, :] + below_b[None, :, :]
    needed = needed_a[:, None, :] | needed_b[None, :, :]
    return bool((~(needed & (thresholds > below))).all(axis=2).any())


def split_table(
    need: dict[Card, int], suit: str, thresholds: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """Per split of the suit (court trio included): cards in groups of need < t, and whether
    some group has need t, for every t."""
    court = max(need[Card(r, suit)] for r in COURTS)
    below = np.zeros((len(suit_splits()), len(thresholds)), dtype=np.int8)
    hit = np.zeros_like(below, dtype=bool)
    below += 3 * (court < thresholds)
    hit |= court == thresholds
    for index, split in enumerate(suit_splits()):
        for part in split:
            part_need = max(need[Card(r, suit)] for r in part)
            below[index] += len(part) * (part_need < thresholds)
            hit[index] |= part_need == thresholds
    return below, hit


def test_partition_method_sees_nine_splits_per_suit() -> None:
    assert len(suit_splits()) == 9


# -- helpers ---------------------------------------------------------------------------------


def mid_game(number: int, seed: int, moves: int) -> FifteenPosition:
    """Deal ``number`` after up to ``moves`` random legal moves (history dropped)."""
    position = FifteenPosition.from_layout(deal("fifteen", number))
    return random_walk(position, random.Random(seed), moves)


@cache
def first_deals() -> list[tuple[int, FifteenPosition, object]]:
    """Deals 1..1000 with their search outcomes."""
    result = []
    for number in range(1, 1001):
        position = FifteenPosition.from_layout(deal("fifteen", number))
        result.append((number, position, search(position)))
    return result


# -- real deals ----------------------------------------------------------------------------


def test_verdicts_equal_the_partition_method_on_1000_deals() -> None:
    kinds = set()
    for number, _, outcome in first_deals():
        assert outcome.status in (Status.SOLVED, Status.UNSOLVABLE)
        won = partition_verdict(deal("fifteen", number))
        assert (outcome.status is Status.SOLVED) == won, number
        kinds.add(won)
    assert kinds == {True, False}


def test_solved_routes_replay_to_a_win_on_deals() -> None:
    solved = [(pos, out) for _, pos, out in first_deals() if out.status is Status.SOLVED]
    assert len(solved) >= 200
    for position, outcome in solved:
        assert outcome.method is Method.ROUTE_FOUND
        assert replays_to_win(position, outcome.route)
        assert len(outcome.route) == outcome.max_depth


def test_unsolvable_verdicts_come_from_exhausted_searches() -> None:
    lost = [out for _, _, out in first_deals() if out.status is Status.UNSOLVABLE]
    assert lost and all(out.method is Method.EXHAUSTED and out.route == () for out in lost)


@settings(max_examples=40, deadline=None)
@given(number=DEAL_NUMBERS)
def test_any_deal_number_is_decided_like_the_partition_method(number: int) -> None:
    position = FifteenPosition.from_layout(deal("fifteen", number))
    outcome = search(position)
    assert (outcome.status is Status.SOLVED) == partition_verdict(deal("fifteen", number))
    if outcome.status is Status.SOLVED:
        assert replays_to_win(position, outcome.route)


def test_verdicts_equal_the_exhaustive_solver_on_real_deals_it_finishes() -> None:
    finished = {True: 0, False: 0}
    for number in range(2, 80):
        position = FifteenPosition.from_layout(deal("fifteen", number))
        won = solve_exhaustively(position, max_positions=3000).solvable
        if won is None:
            continue
        assert (search(position).status is Status.SOLVED) == won, number
        finished[won] += 1
    assert finished[True] >= 10 and finished[False] >= 10


def test_mid_game_positions_agree_with_the_exhaustive_solver() -> None:
    """Winnable deals after a few random moves: stock cards now lie in scattered cells."""
    winnable = [n for n, _, out in first_deals() if out.status is Status.SOLVED][:40]
    compared = {True: 0, False: 0}
    for seed, number in enumerate(winnable):
        position = mid_game(number, seed, moves=1 + seed % 6)
        outcome = search(position)
        if outcome.status is Status.SOLVED:
            assert replays_to_win(position, outcome.route)
        won = solve_exhaustively(position, max_positions=5000).solvable
        if won is None:
            continue
        assert (outcome.status is Status.SOLVED) == won, (number, seed)
        compared[won] += 1
    assert compared[True] >= 10 and compared[False] >= 5


def test_forced_court_trios_change_no_verdict_on_deals() -> None:
    for number, position, outcome in first_deals()[:400]:
        free = search(position, force_courts=False)
        assert free.status is outcome.status, number
        if free.status is Status.SOLVED:
            assert replays_to_win(position, free.route)


# -- tiny games against the exhaustive solver -------------------------------------------------


def test_verdicts_equal_the_exhaustive_solver_on_small_positions() -> None:
    rng = random.Random(2024)
    kinds = set()
    for _ in range(300):
        position = small_fifteen_position(rng)
        won = solve_exhaustively(position).solvable
        for force in (True, False):
            outcome = search(position, force_courts=force)
            assert (outcome.status is Status.SOLVED) == won, position
            if won:
                assert replays_to_win(position, outcome.route)
        kinds.add((won, len(position.stock) > 0))
    assert kinds == {(True, True), (True, False), (False, True), (False, False)}


def test_won_and_blocked_positions() -> None:
    empty = FifteenPosition([None] * 16)
    assert search(empty).status is Status.SOLVED and search(empty).route == ()
    blocked = FifteenPosition([Card.parse("7S"), Card.parse("9S")] + [None] * 14)
    outcome = search(blocked)
    assert outcome.status is Status.UNSOLVABLE and outcome.method is Method.EXHAUSTED


# -- move generation ---------------------------------------------------------------------------


def engine_groups(position: FifteenPosition) -> list[frozenset[Card]]:
    return [frozenset(position.cells[c - 1] for c in m.cells) for m in position.legal_moves()]


@settings(max_examples=60, deadline=None)
@given(number=DEAL_NUMBERS, seed=st.integers(0, 2**32 - 1), moves=st.integers(0, 12))
def test_kernel_moves_equal_engine_moves(number: int, seed: int, moves: int) -> None:
    position = mid_game(number, seed, moves)
    assert sorted(map(sorted, kernel_legal_groups(position))) == sorted(
        map(sorted, engine_groups(position))
    )


@pytest.mark.parametrize(("number", "seed", "moves"), [(5, 0, 0), (77, 1, 3)])
def test_perft_counts_agree(number: int, seed: int, moves: int) -> None:
    position = mid_game(number, seed, moves)
    for depth in range(5):
        assert perft(position, depth) == engine_perft(position, depth)


# -- state keys --------------------------------------------------------------------------------


def search_state(position: FifteenPosition) -> tuple[frozenset[Card], tuple[Card, ...]]:
    """What the search knows of a position: the cards of the grid and the stock in order."""
    return frozenset(position.grid_cards()), position.stock


def test_state_key_is_equal_for_one_state_reached_in_two_orders() -> None:
    rearranged = 0
    for number in range(1, 21):
        position = FifteenPosition.from_layout(deal("fifteen", number))
        moves = list(position.legal_moves())
        for first, second in itertools.combinations(moves, 2):
            if set(first.cells) & set(second.cells):
                continue
            ends = []
            for order in ((first, second), (second, first)):
                board = position.copy()
                for move in order:
                    board.push(move)
                ends.append(board)
            assert search_state(ends[0]) == search_state(ends[1])
            assert state_key(ends[0]) == state_key(ends[1])
            rearranged += ends[0].cells != ends[1].cells
    assert rearranged > 0  # (some pairs leave the same cards in other cells)


def test_state_key_differs_for_different_states() -> None:
    states: dict[tuple[int, int], tuple[frozenset[Card], tuple[Card, ...]]] = {}
    keys: dict[tuple[frozenset[Card], tuple[Card, ...]], tuple[int, int]] = {}
    rng = random.Random(15)
    for number in range(1, 41):
        start = FifteenPosition.from_layout(deal("fifteen", number))
        for steps in range(0, 12):
            position = random_walk(start, rng, steps)
            state, key = search_state(position), state_key(position)
            assert states.setdefault(key, state) == state
            assert keys.setdefault(state, key) == key
    assert len(states) > 300


# -- limits and determinism --------------------------------------------------------------------


def busiest_deal() -> tuple[FifteenPosition, object]:
    _, position, outcome = max(first_deals(), key=lambda item: item[2].nodes)
    return position, outcome


def test_node_limit_stops_the_search() -> None:
    position, outcome = busiest_deal()
    assert outcome.nodes > 50
    limited = search(position, Limits(max_nodes=20))
    assert limited.status is Status.LIMIT_REACHED and limited.method is Method.BUDGET
    assert limited.nodes == 20 and limited.route == ()
    assert search(position, Limits(time_limit=30.0)).status is outcome.status


def test_search_in_slices_gives_the_same_outcome(monkeypatch: pytest.MonkeyPatch) -> None:
    position, outcome = busiest_deal()
    monkeypatch.setattr(fifteen_search, "SLICE_NODES", 3)
    assert search(position) == outcome


def test_a_full_table_keeps_verdicts_exact(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(fifteen_search, "max_entries", lambda memory: 16)
    for _, position, outcome in first_deals()[:150]:
        small = search(position)
        assert small.status is outcome.status
        assert small.details["table_entries"] == 16
        if small.status is Status.SOLVED:
            assert replays_to_win(position, small.route)


def test_search_is_deterministic_and_leaves_the_position_alone() -> None:
    for number in (1, 2, 26, 35, 40000):
        position = FifteenPosition.from_layout(deal("fifteen", number))
        key = position.key()
        first = search(position)
        assert position.key() == key
        assert search(position) == first
        assert search(FifteenPosition.from_layout(position.to_layout())) == first


# -- the grid-only hint ---------------------------------------------------------------------------


@settings(max_examples=80, deadline=None)
@given(number=DEAL_NUMBERS, seed=st.integers(0, 2**32 - 1), moves=st.integers(0, 12))
def test_hint_is_legal_and_ignores_the_stock(number: int, seed: int, moves: int) -> None:
    position = mid_game(number, seed, moves)
    hint = visible_hint(position)
    if hint is None:
        assert next(position.legal_moves(), None) is None
    else:
        assert position.is_legal(hint)
    stock = list(position.stock)
    random.Random(seed).shuffle(stock)
    assert visible_hint(FifteenPosition(position.cells, stock)) == hint
    assert visible_hint(FifteenPosition(position.cells, stock[: len(stock) // 2])) == hint


def test_hint_prefers_a_court_trio_then_flexible_groups() -> None:
    def cells(*texts: str) -> list[Card | None]:
        return [Card.parse(t) for t in texts] + [None] * (16 - len(texts))

    trio_last = FifteenPosition(cells("6C", "9C", "JD", "QD", "KD"))
    assert str(visible_hint(trio_last)) == "3+4+5"
    # {6,9} lies in 4 of the 9 splits of A..9, {1,5,9} in 2, {1,6,8} in 1.
    numbers = FifteenPosition(cells("AC", "5C", "6C", "8C", "9C"))
    assert str(visible_hint(numbers)) == "3+5"
    assert visible_hint(FifteenPosition(cells("7S", "9S"))) is None
