"""Exact search for the 15-sum game (preset ``fifteen``), and a grid-only hint for players.

The state is the set of removed cards (FACTS.md, fact 2)
--------------------------------------------------------
The cards of a position are numbered in *order of visibility*: the grid cards in cell order,
then the stock in drawing order. With ``g`` grid cards at the start and ``k`` cards removed, a
group can be taken iff none of its cards is removed and its last card in that order has index
``< g + k``. So the kernel's state is a bitmask over at most 48 cards, and each candidate group
is a mask, the number of removals it needs before it is all visible, and a Zobrist key.

The kernel is an iterative depth-first search over these masks with an explicit stack, a
transposition table of visited masks (:mod:`cloversolve.search.table`; a row holds the mask's
Zobrist hash, updated incrementally, and the mask itself, so two states are never confused:
FACTS.md, fact 13), and a fixed move order: court trios first (see below), then each suit's number
groups (C, D, H, S; within a suit the order of :data:`NUMBER_GROUPS`, pairs before triples).
A state already in the table has been, or is being, fully explored without a win (masks only
grow along a line, so a line never meets its own ancestors); skipping it loses nothing. The
table grows by the rule of :mod:`cloversolve.search.table`; once its largest size is full, new
states are simply not stored: the search stays exact, only slower. ``UNSOLVABLE`` is reported only
when the whole tree has been exhausted.

The route is decoded by replaying the card groups on the real grid (cells refill in ascending
cell number), which gives the cell numbers of every move.

Forced court trios (``force_courts=True``, the default; FACTS.md, fact 10)
--------------------------------------------------------------------------
When a suit's J, Q and K are all visible, the trio is taken at once, as the only move tried.
``force_courts=False`` turns this off (``test_search_fifteen`` compares the verdicts).

The hint (FACTS.md, fact 11)
----------------------------
:func:`visible_hint` chooses a legal group from the visible grid alone, so it reveals nothing
about the stock.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence

import numpy as np
from numba import njit

from ...core.cards import SUITS, Card
from ...core.notation import Group
from ...search.common import Limits, Method, SearchOutcome, Status
from ...search.driver import Budget, run_sliced, verdict
from ...search.kernel import (
    EXHAUSTED,
    FIRST_FAMILY_SLOT,
    FOUND,
    MAX_DEPTH_SLOT,
    NODES_SLOT,
    PAUSED,
    RUNNING,
    STATES_SLOT,
    TABLE_FULL,
    kernel,
)
from ...search.ordering import zobrist
from ...search.table import fill_stop, grow_within, insert, max_entries, new_table, probe
from .rules import COURT_RANKS, TARGET, FifteenPosition

#: Every set of number ranks (A..9) totalling 15: 17 of them.
NUMBER_GROUPS: tuple[tuple[int, ...], ...] = tuple(
    combo
    for size in range(2, 6)
    for combo in itertools.combinations(range(1, 10), size)
    if sum(combo) == TARGET
)

#: The 9 ways to split A..9 into three groups of 15.
SUIT_SPLITS: tuple[tuple[tuple[int, ...], ...], ...] = tuple(
    trio
    for trio in itertools.combinations(NUMBER_GROUPS, 3)
    if sorted(rank for group in trio for rank in group) == list(range(1, 10))
)

#: Nodes the kernel expands between two looks at the clock.
SLICE_NODES = 1 << 18
#: Initial transposition table entries (a power of two); it doubles as it fills.
INITIAL_TABLE = 1 << 11
#: Deepest line: at most 48 cards, at least 2 per move.
MAX_DEPTH = 32

# Slots of the kernel's counter array.
_NODES, _STATES, _MAX_DEPTH = NODES_SLOT, STATES_SLOT, MAX_DEPTH_SLOT
_DEPTH, _BUDGET = range(FIRST_FAMILY_SLOT, FIRST_FAMILY_SLOT + 2)


#: Fixed pseudo-random 64-bit keys, one per card.
_CARD_KEYS = zobrist(0x9E3779B97F4A7C15, (64,)).copy()


# -- kernels --------------------------------------------------------------------------------


@njit(cache=True)
def _legal_groups(masks, needs, removed, count):
    """Indices of the groups that can be taken with ``removed`` cards gone (``count`` of them)."""
    found = np.empty(masks.shape[0], dtype=np.int64)
    total = 0
    for index in range(masks.shape[0]):
        if masks[index] & removed == 0 and needs[index] <= count:
            found[total] = index
            total += 1
    return found[:total]


@njit(cache=True)
def _count_lines(masks, needs, sizes, depth):
    """Perft: the number of move sequences of exactly ``depth`` moves from the start."""
    groups = masks.shape[0]
    stack_mask = np.zeros(depth + 1, dtype=np.int64)
    stack_count = np.zeros(depth + 1, dtype=np.int64)
    stack_next = np.zeros(depth + 1, dtype=np.int64)
    if depth == 0:
        return 1
    lines = 0
    level = 0
    while level >= 0:
        index = stack_next[level]
        while index < groups and not (
            masks[index] & stack_mask[level] == 0 and needs[index] <= stack_count[level]
        ):
            index += 1
        if index == groups:
            level -= 1
            continue
        stack_next[level] = index + 1
        if level + 1 == depth:
            lines += 1
            continue
        stack_mask[level + 1] = stack_mask[level] | masks[index]
        stack_count[level + 1] = stack_count[level] + sizes[index]
        stack_next[level + 1] = 0
        level += 1
    return lines


@kernel
def _dfs(
    masks,
    needs,
    sizes,
    courts,
    group_keys,
    full,
    force_courts,
    stack_mask,
    stack_count,
    stack_next,
    stack_move,
    stack_hash,
    counters,
    table,
    max_table,
    full_at,
):
    """Depth-first search from the frames on the stack; resumable.

    Runs until a win, exhaustion, ``counters[_BUDGET]`` more nodes, or (``TABLE_FULL``) a table
    that holds ``full_at`` states and should double before the next state is stored (only
    while smaller than ``max_table``; a full largest table stores no more states, which keeps
    the search exact).
    The route is ``stack_move[:counters[_DEPTH]]`` after a win.
    """
    groups = masks.shape[0]
    budget_end = counters[_NODES] + counters[_BUDGET]
    depth = counters[_DEPTH]
    status = RUNNING
    while status == RUNNING:
        if depth == 0:
            status = EXHAUSTED
            break
        if counters[_NODES] >= budget_end:
            status = PAUSED
            break
        if counters[_STATES] >= full_at and table.shape[0] < max_table:
            status = TABLE_FULL
            break
        top = depth - 1
        removed = stack_mask[top]
        count = stack_count[top]
        index = stack_next[top]
        while index < groups and not (masks[index] & removed == 0 and needs[index] <= count):
            index += 1
        if index == groups:
            depth -= 1
            continue
        stack_next[top] = groups if force_courts and courts[index] else index + 1
        child = removed | masks[index]
        stack_move[top] = index
        counters[_NODES] += 1
        if child == full:
            if depth + 1 > counters[_MAX_DEPTH]:
                counters[_MAX_DEPTH] = depth + 1
            status = FOUND
            break
        child_hash = stack_hash[top] ^ group_keys[index]
        if probe(table, child_hash, child):
            continue
        if counters[_STATES] < full_at:
            insert(table, child_hash, child)
            counters[_STATES] += 1
        stack_mask[depth] = child
        stack_count[depth] = count + sizes[index]
        stack_next[depth] = 0
        stack_hash[depth] = child_hash
        depth += 1
        if depth > counters[_MAX_DEPTH]:
            counters[_MAX_DEPTH] = depth
    counters[_DEPTH] = depth
    return status


# -- encoding ---------------------------------------------------------------------------


def _deck_slot(card: Card) -> int:
    """A card's slot in the candidate-group table: suit-major (C D H S), ranks A..9 J Q K."""
    rank_slot = card.rank - 1 if card.rank < 10 else card.rank - 2
    return 12 * SUITS.index(card.suit) + rank_slot


def _group_table() -> tuple[np.ndarray, np.ndarray]:
    """Every candidate group of the full deck as deck slots (rows padded with -1): the four
    court trios first, then each suit's 17 number groups; and the court flags."""
    rows: list[list[int]] = []
    for suit in SUITS:
        rows.append([_deck_slot(Card(rank, suit)) for rank in COURT_RANKS])
    for suit in SUITS:
        rows.extend([_deck_slot(Card(rank, suit)) for rank in ranks] for ranks in NUMBER_GROUPS)
    table = np.full((len(rows), 5), -1, dtype=np.int64)
    for row, slots in zip(table, rows, strict=True):
        row[: len(slots)] = slots
    courts = np.zeros(len(rows), dtype=np.bool_)
    courts[: len(SUITS)] = True
    return table, courts


_GROUP_SLOTS, _GROUP_COURTS = _group_table()
_SLOT_OF = {
    Card(rank, suit): _deck_slot(Card(rank, suit))
    for suit in SUITS
    for rank in (*range(1, 10), *COURT_RANKS)
}


@njit(cache=True)
def _encode(group_slots, group_courts, order_slots, slot_count, grid_count, card_keys):
    """The candidate groups of a position whose cards are all present, as flat arrays.

    ``order_slots`` gives the deck slot of each card in visibility order (``slot_count``
    slots in the deck). Returns members (indices, -1 padded), masks, needs (removals before
    the group is all visible), sizes, court flags and Zobrist keys.
    """
    index_of_slot = np.empty(slot_count, dtype=np.int64)
    for slot in range(slot_count):  # (loops instead of np.full: quicker to compile)
        index_of_slot[slot] = -1
    for index in range(order_slots.shape[0]):
        index_of_slot[order_slots[index]] = index
    total = group_slots.shape[0]
    members = np.empty((total, group_slots.shape[1]), dtype=np.int64)
    for row in range(total):
        for column in range(group_slots.shape[1]):
            members[row, column] = -1
    masks = np.zeros(total, dtype=np.int64)
    needs = np.zeros(total, dtype=np.int64)
    sizes = np.zeros(total, dtype=np.int64)
    courts = np.zeros(total, dtype=np.bool_)
    keys = np.zeros(total, dtype=np.uint64)
    count = 0
    for row in range(total):
        present = True
        for column in range(group_slots.shape[1]):
            slot = group_slots[row, column]
            if slot >= 0 and index_of_slot[slot] < 0:
                present = False
        if not present:
            continue
        last = -1
        for column in range(group_slots.shape[1]):
            slot = group_slots[row, column]
            if slot < 0:
                break
            index = index_of_slot[slot]
            members[count, column] = index
            masks[count] |= np.int64(1) << index
            keys[count] ^= card_keys[index]
            sizes[count] += 1
            last = max(last, index)
        needs[count] = max(0, last - grid_count + 1)
        courts[count] = group_courts[row]
        count += 1
    return (
        members[:count],
        masks[:count],
        needs[:count],
        sizes[:count],
        courts[:count],
        keys[:count],
    )


@njit(cache=True)
def _route_cells(members, moves, grid_cells, card_count):
    """The cells of each group in ``moves`` (rows ascending, padded with 0), replayed on the
    real grid: each freed cell takes the next stock card, in ascending cell order.

    ``grid_cells`` holds the cell numbers of the grid cards in visibility order.
    """
    cell_of = np.zeros(card_count, dtype=np.int64)
    for card in range(grid_cells.shape[0]):  # (a loop: a slice copy compiles shape checks)
        cell_of[card] = grid_cells[card]
    next_card = grid_cells.shape[0]
    route = np.zeros((moves.shape[0], members.shape[1]), dtype=np.int64)
    for step in range(moves.shape[0]):
        size = 0
        for card in members[moves[step]]:
            if card < 0:
                break
            cell = cell_of[card]
            column = size
            while column > 0 and route[step, column - 1] > cell:
                route[step, column] = route[step, column - 1]
                column -= 1
            route[step, column] = cell
            size += 1
        for column in range(size):
            if next_card < card_count:
                cell_of[next_card] = route[step, column]
                next_card += 1
    return route


class _Encoding:
    """A position as flat arrays: cards in visibility order and the candidate groups."""

    def __init__(self, position: FifteenPosition) -> None:
        grid = position.grid_cards()
        self.order: list[Card] = grid + list(position.stock)
        self.grid_count = len(grid)
        order_slots = np.array([_SLOT_OF[card] for card in self.order], dtype=np.int64)
        (
            self.members,
            self.masks,
            self.needs,
            self.sizes,
            self.courts,
            self.group_keys,
        ) = _encode(
            _GROUP_SLOTS, _GROUP_COURTS, order_slots, len(_SLOT_OF), self.grid_count, _CARD_KEYS
        )
        self.full = (1 << len(self.order)) - 1
        self._cells = tuple(position.cells)

    def group_cards(self, group: int) -> frozenset[Card]:
        return frozenset(self.order[i] for i in self.members[group] if i >= 0)

    def cells_route(self, moves: Sequence[int] | np.ndarray) -> tuple[Group, ...]:
        """The group indices as cell moves, replayed on the real grid: each freed cell takes
        the next stock card, in ascending cell order."""
        grid_cells = [cell for cell, card in enumerate(self._cells, start=1) if card is not None]
        rows = _route_cells(
            self.members,
            np.asarray(moves, dtype=np.int64),
            np.array(grid_cells, dtype=np.int64),
            len(self.order),
        )
        return tuple([Group(tuple(filter(None, row))) for row in rows.tolist()])


# -- public API ---------------------------------------------------------------------------


class _Run:
    """One resumable kernel search, as :func:`cloversolve.search.driver.run_sliced` drives it."""

    def __init__(
        self,
        encoding: _Encoding,
        force_courts: bool,
        counters: np.ndarray,
        table: np.ndarray,
        memory: int,
        max_table: int,
        stack: tuple[np.ndarray, ...],
    ) -> None:
        self.encoding, self.force_courts, self.counters = encoding, force_courts, counters
        self.table, self.memory, self.max_table, self.stack = table, memory, max_table, stack
        self.full_at = fill_stop(table.shape[0], max_table)

    @property
    def nodes(self) -> int:
        return int(self.counters[_NODES])

    def step(self, node_stop: int) -> int:
        self.counters[_BUDGET] = node_stop - self.nodes
        enc = self.encoding
        return int(
            _dfs(  # type: ignore[call-arg]
                enc.masks,
                enc.needs,
                enc.sizes,
                enc.courts,
                enc.group_keys,
                enc.full,
                self.force_courts,
                *self.stack,
                self.counters,
                self.table,
                self.max_table,
                self.full_at,
            )
        )

    def grow_table(self) -> bool:
        bigger = grow_within(self.table, self.memory)  # (asked only below ``max_table``)
        if bigger is None:
            return False
        self.table = bigger
        self.full_at = fill_stop(bigger.shape[0], self.max_table)
        return True

    def grow_stack(self) -> bool:
        return False  # (the stack holds the deepest line from the start)


def search(
    position: FifteenPosition, limits: Limits | None = None, *, force_courts: bool = True
) -> SearchOutcome:
    """Decide a 15-sum position exactly (within the limits); a win comes with its route.

    Args:
        position: the position to search (not modified).
        limits: node, time and memory budgets; unbounded nodes and time by default.
        force_courts: take a visible court trio as the only move (FACTS.md, fact 10).

    Returns:
        ``SOLVED`` with a route of cell groups from ``position``, ``UNSOLVABLE`` after an
        exhausted search, or ``LIMIT_REACHED``. The route is decoded from the kernel's
        groups but not replayed in the reference engine here: :func:`cloversolve.solve`
        replays every route it returns, and a direct caller that needs the check replays
        the route itself (:func:`cloversolve.solving.replay.replay_moves`).
    """
    limits = limits or Limits()
    encoding = _Encoding(position)
    details: dict[str, int | float | str] = {
        "groups": len(encoding.masks),
        "force_courts": int(force_courts),
    }
    if encoding.full == 0:
        return SearchOutcome(Status.SOLVED, Method.ROUTE_FOUND, details=details)
    max_table = max_entries(limits.max_memory)
    table = new_table(min(INITIAL_TABLE, max_table))
    stack = (
        np.zeros(MAX_DEPTH, dtype=np.int64),
        np.zeros(MAX_DEPTH, dtype=np.int64),
        np.zeros(MAX_DEPTH, dtype=np.int64),
        np.zeros(MAX_DEPTH, dtype=np.int64),
        np.zeros(MAX_DEPTH, dtype=np.uint64),
    )
    stack_move = stack[3]
    counters = np.zeros(_BUDGET + 1, dtype=np.int64)
    counters[_DEPTH] = 1
    counters[_MAX_DEPTH] = 1
    run = _Run(encoding, force_courts, counters, table, limits.max_memory, max_table, stack)
    budget = Budget(limits)
    slices = itertools.repeat(SLICE_NODES)
    status, stopped = run_sliced(run, limits.max_nodes, budget.deadline, slices)
    if stopped is not None:
        details["stopped_by"] = stopped.value  # (before the table's size, as ever)
    details["table_entries"] = int(run.table.shape[0])
    counters[_MAX_DEPTH] -= 1  # (the kernel counts stack frames, the root's included)
    if status == FOUND:
        route = encoding.cells_route(stack_move[: counters[_DEPTH]])
        return verdict(Status.SOLVED, Method.ROUTE_FOUND, [counters], route, details)
    if status == EXHAUSTED:
        return verdict(Status.UNSOLVABLE, Method.EXHAUSTED, [counters], (), details)
    return verdict(Status.LIMIT_REACHED, Method.BUDGET, [counters], (), details, stopped)


def kernel_legal_groups(position: FifteenPosition) -> list[frozenset[Card]]:
    """The groups the kernel's move generator allows at the start, as card sets (for tests)."""
    encoding = _Encoding(position)
    indices = _legal_groups(encoding.masks, encoding.needs, 0, 0)
    return [encoding.group_cards(int(k)) for k in indices]


def kernel_perft(position: FifteenPosition, depth: int) -> int:
    """Move sequences of exactly ``depth`` moves, counted by the kernel's move generator."""
    encoding = _Encoding(position)
    return int(_count_lines(encoding.masks, encoding.needs, encoding.sizes, depth))


def legal_moves(position: FifteenPosition) -> list[Group]:
    """The groups the kernel's move generator allows at the start, as grid moves."""
    cell_of = {card: cell for cell, card in enumerate(position.cells, start=1) if card}
    return [
        Group(tuple(sorted(cell_of[card] for card in cards)))
        for cards in kernel_legal_groups(position)
    ]


#: The kernel contract's name for :func:`kernel_perft`.
perft = kernel_perft

#: Seed of the Zobrist words of :func:`state_key`.
_STATE_KEY_SEED = 0x15_5EED


def state_key(position: FifteenPosition) -> tuple[int, int]:
    """The 128-bit key of the state the search works on: the set of grid cards and the stock
    in order, so positions whose grids hold the same cards in other cells share it (the
    kernel's table keys are the same states, counted from each search's root: its removed
    cards). Each key is the XOR of one Zobrist word per card and place (the grid, or an
    index in the stock)."""
    places = len(_SLOT_OF) + 1  # (the grid, then every index of a stock)
    words = zobrist(_STATE_KEY_SEED, (2, places, len(_SLOT_OF)))
    slots = [_SLOT_OF[card] for card in position.grid_cards()]
    where = [0] * len(slots) + list(range(1, len(position.stock) + 1))
    slots += [_SLOT_OF[card] for card in position.stock]
    key1, key2 = np.bitwise_xor.reduce(words[:, where, slots], axis=1, initial=np.uint64(0))
    return int(key1), int(key2)


# -- hint ---------------------------------------------------------------------------------

#: How many of the 9 splits of A..9 into three 15s contain each number group.
_SPLITS_CONTAINING = {
    group: sum(group in split for split in SUIT_SPLITS) for group in NUMBER_GROUPS
}


def visible_hint(position: FifteenPosition) -> Group | None:
    """A legal group chosen from the visible grid alone; ``None`` when there is none.

    The stock is never looked at, so the hint reveals nothing about it. The rule:

    1. a court trio (J, Q, K of one suit), which can only ever leave together;
    2. otherwise the number group that belongs to the most of the 9 ways to split a suit's
       A..9 into three groups of 15 (it keeps that suit's options open), then the one with
       the most cards (it uncovers the most cells);
    3. remaining ties go to the first group in :meth:`FifteenPosition.legal_moves` order.

    A hint is a sensible legal move, not a promise that the game can still be won.
    """
    best: Group | None = None
    best_score: tuple[int, int, int] | None = None
    for move in position.legal_moves():
        cards = [position.cells[cell - 1] for cell in move.cells]
        ranks = tuple(sorted(card.rank for card in cards if card is not None))
        if ranks == COURT_RANKS:
            score = (1, 0, 0)
        else:
            score = (0, _SPLITS_CONTAINING.get(ranks, 0), len(ranks))
        if best_score is None or score > best_score:
            best, best_score = move, score
    return best


#: The kernels a search calls from Python (compiling them compiles every kernel they call).
SEARCH_KERNELS = (
    _encode,
    _dfs,
    _route_cells,
)
