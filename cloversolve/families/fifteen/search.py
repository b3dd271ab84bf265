"""Exact search for the 15-sum game (preset ``fifteen``); its kernels are in :mod:`.kernels`.

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
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence

import numpy as np

from ...core.cards import SUITS, Card
from ...core.notation import GRID_CELLS, Group
from ...core.verdicts import Method, Status
from ...search.common import Limits, SearchOutcome
from ...search.driver import Budget, run_sliced, verdict
from ...search.kernel import (
    EXHAUSTED,
    FOUND,
)
from ...search.ordering import zobrist
from ...search.table import fill_stop, grow_within, max_entries, new_table
from .kernels import (
    _BUDGET,
    _DEPTH,
    _MAX_DEPTH,
    _NODES,
    _count_lines,
    _dfs,
    _encode,
    _legal_groups,
    _route_cells,
)
from .rules import COURT_RANKS, NUMBER_GROUPS, FifteenPosition

#: Nodes the kernel expands between two looks at the clock.
SLICE_NODES = 1 << 18
#: Initial transposition table entries (a power of two); it doubles as it fills.
INITIAL_TABLE = 1 << 11
#: Deepest line: at most 48 cards, at least 2 per move.
MAX_DEPTH = 32


#: Fixed pseudo-random 64-bit keys, one per card.
_CARD_KEYS = zobrist(0x9E3779B97F4A7C15, (64,)).copy()


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
#: The cells of a full grid, for a route's decoding.
_EVERY_CELL = np.arange(1, GRID_CELLS + 1, dtype=np.int64)
_SLOT_OF = {
    Card(rank, suit): _deck_slot(Card(rank, suit))
    for suit in SUITS
    for rank in (*range(1, 10), *COURT_RANKS)
}


class _Encoding:
    """A position as flat arrays: cards in visibility order and the candidate groups."""

    def __init__(self, position: FifteenPosition) -> None:
        grid = position.grid_cards()
        self.order: list[Card] = grid + list(position.stock)
        self.grid_count = len(grid)
        order_slots = np.fromiter(map(_SLOT_OF.__getitem__, self.order), np.int64, len(self.order))
        rows, width = _GROUP_SLOTS.shape
        members = np.empty((rows, width), dtype=np.int64)
        masks = np.empty(rows, dtype=np.int64)
        needs = np.empty(rows, dtype=np.int64)
        sizes = np.empty(rows, dtype=np.int64)
        courts = np.empty(rows, dtype=np.bool_)
        keys = np.empty(rows, dtype=np.uint64)
        groups = _encode(
            _GROUP_SLOTS,
            _GROUP_COURTS,
            order_slots,
            len(_SLOT_OF),
            self.grid_count,
            _CARD_KEYS,
            members,
            masks,
            needs,
            sizes,
            courts,
            keys,
        )
        self.members, self.masks, self.needs = members[:groups], masks[:groups], needs[:groups]
        self.sizes, self.courts, self.group_keys = sizes[:groups], courts[:groups], keys[:groups]
        self.full = (1 << len(self.order)) - 1
        self._cells = tuple(position.cells)

    def group_cards(self, group: int) -> frozenset[Card]:
        return frozenset(self.order[i] for i in self.members[group] if i >= 0)

    def cells_route(self, moves: Sequence[int] | np.ndarray) -> tuple[Group, ...]:
        """The group indices as cell moves, replayed on the real grid: each freed cell takes
        the next stock card, in ascending cell order."""
        if self.grid_count == GRID_CELLS:
            grid_cells = _EVERY_CELL
        else:
            cells = [cell for cell, card in enumerate(self._cells, start=1) if card is not None]
            grid_cells = np.array(cells, dtype=np.int64)
        groups = np.asarray(moves, dtype=np.int64)
        rows = _route_cells(self.members, groups, grid_cells, len(self.order)).tolist()
        sizes = self.sizes[groups].tolist()
        return tuple([Group(tuple(row[:size])) for row, size in zip(rows, sizes, strict=True)])


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


def perft(position: FifteenPosition, depth: int) -> int:
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


#: The kernels a search calls from Python (compiling them compiles every kernel they call).
SEARCH_KERNELS = (
    _encode,
    _dfs,
    _route_cells,
)
