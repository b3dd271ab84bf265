"""The numba kernels of the clover search: the board set up from flat arrays, one node's
expansion, the depth-first run in node-bounded slices, a run abandoned, and the move counts
(:mod:`.search` describes the encoding and the search)."""

from __future__ import annotations

import numpy as np

from ...search.kernel import (
    EXHAUSTED,
    FIRST_FAMILY_SLOT,
    FOUND,
    MAX_DEPTH_SLOT,
    NODES_SLOT,
    PAUSED,
    RUNNING,
    STACK_FULL,
    STATES_SLOT,
    TABLE_FULL,
    inlined_kernel,
    kernel,
)
from ...search.table import (
    insert,
    remove,
)
from .dead_ends import _is_dead
from .moves import (
    _apply,
    _fan_push,
    _generate,
    _is_settled,
    _is_won,
    _moved_suits,
    _undo,
)
from .order import _order
from .projection import PROJECTION_NODES_SLOT, lost_projection

# Counter slots of the ``ctl`` array.
# (``_CLEARED``: rows cleared by restarts since the table last grew; they still take room.)
_NODES, _ENTRIES, _MAX_DEPTH = NODES_SLOT, STATES_SLOT, MAX_DEPTH_SLOT
_DEPTH, _NODE_STOP, _TABLE_LIMIT, _DEAD_ENDS, _PROJECTED, _CLEARED = range(
    FIRST_FAMILY_SLOT, FIRST_FAMILY_SLOT + 6
)
# (``_WORK_STOP``: the slice also pauses when the projections' nodes reach this count.)
_WORK_STOP = _CLEARED + 1
_CTL_SLOTS = _WORK_STOP + 1
# Slots of the ``options`` array (``_OPT_PROJECT``: the in-search projection budget, 0 = off).
_OPT_RETURNS, _OPT_DEAD_ENDS, _OPT_PROJECT = range(3)


# --- the search ------------------------------------------------------------------------------


@kernel
def _setup(cards, lengths, heights, nfans, board, hashes):
    """Load a position (``cards`` concatenated fan by fan) into empty board arrays."""
    height = board[2]
    total_hash, zfound = hashes[1], hashes[3]
    for s in range(4):
        height[s] = heights[s]
        for t in range(2):
            total_hash[t] += zfound[t, s, heights[s]]
    k = 0
    for i in range(nfans):
        for _ in range(lengths[i]):
            _fan_push(i, np.int64(cards[k]), board, hashes)
            k += 1


@inlined_kernel
def _expand(depth, nfans, ranks, options, board, hashes, table, stack, weights, ctl, work):
    """Generate and order the moves of the position at ``depth`` (none in a dead end or
    when a projection is lost). (Inlined: :func:`_run` is its one caller.)"""
    moves, nmoves, nexts, scratch = stack[0], stack[1], stack[2], stack[6]
    autos, nauto = stack[3], stack[4]
    nmoves[depth] = 0
    nexts[depth] = 0
    if (
        options[_OPT_DEAD_ENDS]
        and _is_settled(board[2], board[3], ranks)
        and _is_dead(nfans, ranks, board, scratch)
    ):
        ctl[_DEAD_ENDS] += 1
        return
    if options[_OPT_PROJECT] > 0:
        # (a projection onto suits none of whose cards moved since the parent is the
        # parent's, which was not lost)
        moved = 15 if depth == 0 else _moved_suits(
            moves[depth - 1, nexts[depth - 1] - 1], depth - 1, nfans, board, autos, nauto
        )  # fmt: skip
        if lost_projection(nfans, ranks, board, hashes, options[_OPT_RETURNS],
                           options[_OPT_PROJECT], moved, work):  # fmt: skip
            ctl[_PROJECTED] += 1
            return
    n = _generate(moves[depth], nfans, ranks, board, options[_OPT_RETURNS], True)
    nmoves[depth] = _order(
        moves[depth], n, depth, nfans, ranks, board, hashes, stack, weights, table
    )


@kernel
def _run(nfans, ranks, options, board, hashes, table, stack, weights, ctl, work):
    """Continue the depth-first search until solved, exhausted, or a budget runs out.

    Resumable: everything lives in the arrays; ``ctl`` holds the depth and the counters. A new
    search (depth ``-1`` in ``ctl``) stores the root and its moves and returns RUNNING, or
    FOUND if the root is already won.
    """
    moves, nmoves, nexts, autos, nauto = stack[0], stack[1], stack[2], stack[3], stack[4]
    height = board[2]
    total_hash = hashes[1]
    depth_cap = moves.shape[0]
    fresh = ctl[_DEPTH] < 0
    if fresh:
        ctl[_DEPTH] = 0
        if _is_won(height, ranks):
            return FOUND
        insert(table, total_hash[0], total_hash[1])
        ctl[_ENTRIES] += 1
    expand = fresh
    while True:
        d = ctl[_DEPTH]
        # (one call site, so the inlined expansion is compiled once)
        if expand:
            expand = False
            _expand(d, nfans, ranks, options, board, hashes, table, stack, weights, ctl, work)
            if fresh:
                return RUNNING
        if ctl[_NODES] >= ctl[_NODE_STOP] or work[6][PROJECTION_NODES_SLOT] >= ctl[_WORK_STOP]:
            return PAUSED
        if nexts[d] >= nmoves[d]:
            if d == 0:
                return EXHAUSTED
            d -= 1
            _undo(moves[d, nexts[d] - 1], d, nfans, ranks, board, hashes, autos, nauto)
            ctl[_DEPTH] = d
            continue
        if d + 1 >= depth_cap:
            return STACK_FULL
        if ctl[_ENTRIES] + ctl[_CLEARED] >= ctl[_TABLE_LIMIT]:
            return TABLE_FULL
        move = moves[d, nexts[d]]
        nexts[d] += 1
        _apply(move, d, nfans, ranks, board, hashes, autos, nauto)
        ctl[_NODES] += 1
        if _is_won(height, ranks):
            ctl[_DEPTH] = d + 1
            return FOUND
        if not insert(table, total_hash[0], total_hash[1]):
            _undo(move, d, nfans, ranks, board, hashes, autos, nauto)
            continue
        ctl[_ENTRIES] += 1
        d += 1
        ctl[_DEPTH] = d
        if d > ctl[_MAX_DEPTH]:
            ctl[_MAX_DEPTH] = d
        expand = True


@kernel
def _abandon(nfans, ranks, board, hashes, table, stack, ctl):
    """Give up the current path: take back its moves to the root, clear the states on it
    (they are not finished) from the table, and leave a new search (depth ``-1``) to start.
    Every other stored state stays: its search was finished."""
    moves, nexts, autos, nauto = stack[0], stack[2], stack[3], stack[4]
    total_hash = hashes[1]
    d = ctl[_DEPTH]
    while d >= 0:
        if remove(table, total_hash[0], total_hash[1]):
            ctl[_ENTRIES] -= 1
            ctl[_CLEARED] += 1
        if d > 0:
            _undo(moves[d - 1, nexts[d - 1] - 1], d - 1, nfans, ranks, board, hashes, autos, nauto)
        d -= 1
    ctl[_DEPTH] = -1


@kernel
def _perft(depth, nfans, ranks, board, hashes, stack):
    """Count the move sequences of length ``depth`` (every legal move, no symmetry)."""
    moves, nmoves, nexts, autos, nauto = stack[0], stack[1], stack[2], stack[3], stack[4]
    if depth == 0:
        return 1
    count = 0
    nmoves[0] = _generate(moves[0], nfans, ranks, board, 1, False)
    nexts[0] = 0
    d = 0
    while True:
        if nexts[d] >= nmoves[d]:
            if d == 0:
                return count
            d -= 1
            _undo(moves[d, nexts[d] - 1], d, nfans, ranks, board, hashes, autos, nauto)
            continue
        move = moves[d, nexts[d]]
        nexts[d] += 1
        if d + 1 == depth:
            count += 1
            continue
        _apply(move, d, nfans, ranks, board, hashes, autos, nauto)
        d += 1
        nmoves[d] = _generate(moves[d], nfans, ranks, board, 1, False)
        nexts[d] = 0
