"""One clover position in flat arrays (:class:`_Board`: encoding, its Zobrist tables, the search
stack and the decoding of a route) and one pausable depth-first run of it (:class:`_Run`)."""

from __future__ import annotations

import functools
import math

import numpy as np

from ...core.cards import Card
from ...core.notation import FOUNDATION, SUIT_FOUNDATIONS, Place, Transfer
from ...core.verdicts import StopReason
from ...search.driver import doubling, run_sliced
from ...search.kernel import (
    EXHAUSTED,
    FOUND,
)
from ...search.ordering import zobrist
from ...search.table import (
    fill_stop,
    first_entries,
    grow_within,
    max_entries,
    new_table,
)
from .kernels import (
    _CLEARED,
    _CTL_SLOTS,
    _DEPTH,
    _NODE_STOP,
    _NODES,
    _OPT_PROJECT,
    _TABLE_LIMIT,
    _WORK_STOP,
    _abandon,
    _run,
    _setup,
)
from .moves import _CODES
from .projection import PROJECTION_NODES_SLOT, ProjectionWork
from .rules import SUITS, CloverPosition

# Tunables.
_FIRST_SLICE_NODES = 1 << 10
_SLICE_NODES = 1 << 15
_INITIAL_TABLE = 1 << 16
_INITIAL_STACK = 64


_ZOBRIST_SEED = 0x5EED_C10E


#: A slice of the main search pauses after this many projection nodes per node of the slice.
PROJECTION_WORK = 4


@functools.lru_cache(maxsize=8)
def _zobrist(ranks: int) -> tuple[np.ndarray, np.ndarray]:
    """The Zobrist tables of fan cards (by depth) and foundation heights (fixed seed), made
    once per rank count (the kernels only read them)."""
    fan_shape, found_shape = (2, 4 * ranks, _CODES), (2, 4, ranks + 1)
    fan_words = math.prod(fan_shape)
    words = zobrist(_ZOBRIST_SEED + ranks, (fan_words + math.prod(found_shape),))
    zfan = words[:fan_words].reshape(fan_shape).copy()
    zfound = words[fan_words:].reshape(found_shape).copy()
    return zfan, zfound


class _Board:
    """The flat arrays of one position, its Zobrist tables and a search stack."""

    def __init__(self, position: CloverPosition, stack_depth: int) -> None:
        self.nfans = len(position.fans)
        self.ranks = position.ranks
        ncards = 4 * self.ranks
        if self.nfans > 250 or ncards > 64:
            raise ValueError("the kernel handles at most 250 fans and 16 ranks")
        zfan, zfound = _zobrist(self.ranks)
        self.board = (
            np.zeros((self.nfans, ncards), dtype=np.int32),
            np.zeros(self.nfans, dtype=np.int32),
            np.zeros(4, dtype=np.int32),
            np.full(_CODES, -1, dtype=np.int32),
            np.zeros(_CODES, dtype=np.int32),
        )
        self.hashes = (
            np.zeros((self.nfans, 2), dtype=np.uint64),
            np.zeros(2, dtype=np.uint64),
            zfan,
            zfound,
        )
        cards = [self.card_code(c) for fan in position.fans for c in fan]
        _setup(
            np.array(cards, dtype=np.int32),
            np.array([len(fan) for fan in position.fans], dtype=np.int32),
            np.array([position.heights[s] for s in SUITS], dtype=np.int32),
            self.nfans,
            self.board,
            self.hashes,
        )
        self.max_moves = (self.nfans + 4) * (self.nfans + 2)
        self.stack = self._new_stack(stack_depth)

    def _new_stack(self, depth: int) -> tuple[np.ndarray, ...]:
        ncards = 4 * self.ranks
        return (
            np.zeros((depth, self.max_moves), dtype=np.int32),
            np.zeros(depth, dtype=np.int32),
            np.zeros(depth, dtype=np.int32),
            np.zeros((depth, ncards), dtype=np.int32),
            np.zeros(depth, dtype=np.int32),
            np.zeros(self.max_moves, dtype=np.int64),
            np.zeros((4, 8 * _CODES), dtype=np.int32),
        )

    @property
    def stack_depth(self) -> int:
        return self.stack[0].shape[0]

    def stack_bytes(self, depth: int) -> int:
        return depth * (self.max_moves + 4 * self.ranks + 3) * 4

    def grow_stack(self) -> None:
        """Double the stack's depth, keeping its contents."""
        bigger = self._new_stack(2 * self.stack_depth)
        for old, new in zip(self.stack[:5], bigger[:5], strict=True):
            new[: old.shape[0]] = old
        self.stack = bigger

    def card_code(self, card: Card) -> int:
        return 16 * SUITS.index(card.suit) + card.rank - 1

    def decode(self, move: int) -> Transfer:
        source, target = move >> 8, move & 255
        src: Place
        src = source + 1 if source < self.nfans else SUIT_FOUNDATIONS[source - self.nfans]
        return Transfer(src, target + 1 if target < self.nfans else FOUNDATION)

    def route(self, depth: int) -> tuple[Transfer, ...]:
        """The moves on the stack from the root to ``depth``."""
        moves, nexts = self.stack[0], self.stack[2]
        return tuple(self.decode(int(moves[k, nexts[k] - 1])) for k in range(depth))


class _Run:
    """One depth-first search of a position with one set of ordering weights. It runs in
    node-bounded steps (:meth:`advance`), so it can be paused and resumed."""

    def __init__(
        self,
        position: CloverPosition,
        weights: np.ndarray,
        options: np.ndarray,
        max_memory: int,
        work: ProjectionWork,
        initial_rows: int = _INITIAL_TABLE,
    ) -> None:
        self.board = _Board(position, _INITIAL_STACK)
        self.weights = weights
        self.options = options
        self.projections = work
        self._raises = work.raises  # (the budget raises this run has taken in)
        self.work = work.tuple
        self.max_memory = max_memory
        rows = first_entries(initial_rows, max_memory - self.board.stack_bytes(_INITIAL_STACK))
        self.table = new_table(rows)
        self.ctl = np.zeros(_CTL_SLOTS, dtype=np.int64)
        self.ctl[_DEPTH] = -1  # (a new search: the first call stores the root)
        self.limit: StopReason | None = None
        self.kind = "search"
        self._slices = doubling(_FIRST_SLICE_NODES, _SLICE_NODES)  # (kept across advances)
        self._status = self._call()

    def _call(self) -> int:
        """One call of the kernel :func:`_run` on this run's arrays (the table is full at the
        fill stop of :mod:`cloversolve.search.table` for the memory the run has now)."""
        board = self.board
        largest = max_entries(self.max_memory - board.stack_bytes(board.stack_depth))
        self.ctl[_TABLE_LIMIT] = fill_stop(self.table.shape[0], largest)
        return int(
            _run(  # type: ignore[call-arg]
                board.nfans,
                board.ranks,
                self.options,
                board.board,
                board.hashes,
                self.table,
                board.stack,
                self.weights,
                self.ctl,
                self.work,
            )
        )

    @property
    def solved(self) -> bool:
        return self._status == FOUND

    @property
    def exhausted(self) -> bool:
        return self._status == EXHAUSTED

    @property
    def nodes(self) -> int:
        return int(self.ctl[_NODES])

    def step(self, node_stop: int) -> int:
        """Run the kernel until ``node_stop`` nodes in all at most (see :func:`_run`), or
        until its projections have searched ``PROJECTION_WORK`` nodes per node of the slice
        (so a slice takes about as long whatever the projections' budget). The in-search
        projections' budget is adapted first (:meth:`ProjectionWork.next_budget`); once it
        has grown, the run starts again from its root as a restart does (same weights), so the
        positions near the root are looked at again with the larger budget."""
        if self.options[_OPT_PROJECT] > 0:
            self.options[_OPT_PROJECT] = self.projections.next_budget(
                int(self.options[_OPT_PROJECT])
            )
            if self._raises != self.projections.raises:
                self._raises = self.projections.raises
                self.restart(self.weights)
        self.ctl[_NODE_STOP] = node_stop
        slice_nodes = max(node_stop - self.nodes, 1)
        self.ctl[_WORK_STOP] = self.work[6][PROJECTION_NODES_SLOT] + PROJECTION_WORK * slice_nodes
        return self._call()

    def grow_table(self) -> bool:
        stack = self.board.stack_bytes(self.board.stack_depth)
        bigger = grow_within(self.table, self.max_memory, stack)
        if bigger is None:
            return False
        self.table = bigger
        self.ctl[_CLEARED] = 0  # (the new table holds no cleared rows)
        return True

    def grow_stack(self) -> bool:
        board = self.board
        # (the old and the new stack both exist while it grows)
        if self.table.nbytes + board.stack_bytes(3 * board.stack_depth) > self.max_memory:
            return False
        board.grow_stack()
        return True

    def advance(self, node_stop: int | None, deadline: float | None) -> None:
        """Search until decided, or until ``node_stop`` nodes in all, the ``deadline``
        (``time.perf_counter``) or the memory bound stops it (``self.limit`` says which)."""
        self.limit = None
        code, stopped = run_sliced(self, node_stop, deadline, self._slices, self._status)
        self._status = code
        if stopped is not None:
            self.limit = stopped

    @property
    def nbytes(self) -> int:
        """Bytes of the run's table and stack."""
        return int(self.table.nbytes) + self.board.stack_bytes(self.board.stack_depth)

    def release(self) -> None:
        """Drop the arrays of a run that will not be resumed; only its counters stay."""
        del self.table, self.board

    def route(self) -> tuple[Transfer, ...]:
        return self.board.route(int(self.ctl[_DEPTH]))

    def restart(self, weights: np.ndarray) -> None:
        """Abandon the current path and search again from the root with ``weights``,
        keeping every finished state in the table (see "Restarts")."""
        board = self.board
        _abandon(board.nfans, board.ranks, board.board, board.hashes, self.table,
                 board.stack, self.ctl)  # fmt: skip
        self.weights = weights
        self._status = self._call()
