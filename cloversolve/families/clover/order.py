"""Move ordering of the ``clover`` kernel (the main search and the projection sub-searches):
the moves leading to stored positions are dropped and the others sorted, best first, by the
value of the position each leads to."""

import numpy as np

from ...search.kernel import inner_kernel
from ...search.ordering import sort_by_score
from ...search.table import probe
from .moves import _apply, _foundation_card, _undo

#: Move ordering: each child position is scored ``FOUNDATION * cards on the foundations
#: - sum_k BURIED[k] * (cards above the k-th next card of each suit) + EMPTY * empty fans``.
_W_FOUNDATION = 1000
_W_BURIED = (24, 12, 6, 3)
_W_EMPTY = 4
_WEIGHTS = np.array((_W_FOUNDATION, *_W_BURIED, _W_EMPTY), dtype=np.int64)


@inner_kernel
def _evaluate(nfans, ranks, board, weights):
    """Heuristic value of a position (higher is more promising); see ``_W_*``."""
    flen, height, place = board[1], board[2], board[4]
    value = 0
    for s in range(4):
        h = height[s]
        value += weights[0] * h
        for k in range(1, weights.shape[0] - 1):
            if h + k > ranks:
                break
            # Cards beyond a foundation's height lie on fans, so their place is current.
            where = place[_foundation_card(s, h + k, ranks)]
            value -= weights[k] * (flen[where >> 6] - 1 - (where & 63))
    empty = 0
    for f in range(nfans):
        if flen[f] == 0:
            empty += 1
    return value + weights[weights.shape[0] - 1] * empty


@inner_kernel
def _order(moves, n, depth, nfans, ranks, board, hashes, stack, weights, table):
    """Drop the moves leading to stored positions, sort the others by the value of the
    position each leads to, best first (stable); return how many are left."""
    autos, nauto, scores = stack[3], stack[4], stack[5]
    total_hash = hashes[1]
    kept = np.int64(0)
    for i in range(n):
        move = moves[i]
        _apply(move, depth, nfans, ranks, board, hashes, autos, nauto)
        if not probe(table, total_hash[0], total_hash[1]):
            moves[kept] = move
            scores[kept] = _evaluate(nfans, ranks, board, weights)
            kept += 1
        _undo(move, depth, nfans, ranks, board, hashes, autos, nauto)
    sort_by_score(moves, scores, kept)
    return kept
