"""Suit projections of the ``clover`` kernel: a position whose projection onto two suits is lost
is lost (FACTS.md, fact 4; how the search uses it is under "Suit projections" in
:mod:`cloversolve.families.clover.search`).

The projection of a position onto a set of suits (a bit mask, bit ``s`` for suit code ``s``) is
the position with every card of the other suits deleted from the fans (the others keep their
fans and order) and those suits' foundations complete. Its key is the kernel's fan-order-free
key of that position, computed from the full board without building it. A projection is
searched by a small depth-first search of its own (:func:`_solve`, with the kernel's move
generator, dead-end test and ordering, but no projections of its own) within a node budget; a
lost verdict is kept in one cache and any other outcome (won, or out of budget: it proves
nothing) in another, both keyed by the projection's key, so a projection is searched once
(per budget: see :meth:`ProjectionWork.next_budget`).

A sub-search that ends without a win has proved every state it stored lost (FACTS.md, fact 15),
so all of them go into the lost cache, and later sub-searches skip any state found there: the
projections of nearby positions share most of their states, and a loss proved once is not
searched again. Likewise every state on the path of a won sub-search can be won, so those go
into a won cache, and a later sub-search that reaches one of them has won (fact 16).

Sub-search order. The sub-searches order their moves with the fixed weights of :mod:`.order`,
not with those of the run whose positions they project: a restart of the main search draws
weights that make it try other moves first (:mod:`cloversolve.families.clover.search`,
"Restarts"), and with them a sub-search that can be won, most of them, takes many times longer
to find its win (`alexander` 34146: 2,080,000 nodes of sub-searches with the restarts'
weights, 127,000 with the fixed ones, for the same 32,997 projections searched and the same
cuts).

Only the moves of the position being expanded can change its projections, so the caller
passes the suits that moved since its parent (whose projections were not lost) and only the
projections holding one of them are looked at.

The work arrays are owned by the wrapper (:class:`ProjectionWork`) and passed as one tuple::

    work = (board, hashes, stack, table, lost, open, pctl, won)

``board``, ``hashes``, ``stack`` are the sub-search's own arrays (shaped like the main
search's, sharing its Zobrist tables), ``table`` its transposition table, ``lost``, ``open``
and ``won`` the three caches (tables of :mod:`cloversolve.search.table`), ``pctl`` the counters
below.
"""

from __future__ import annotations

import numpy as np

from ...search.kernel import (
    EXHAUSTED,
    FOUND,
    PAUSED,
    STACK_FULL,
    TABLE_FULL,
    inlined_kernel,
    inner_kernel,
    kernel,
)
from ...search.table import (
    ENTRY_BYTES,
    fill_stop_kernel,
    grow_prefix,
    insert,
    mix,
    new_table,
    probe,
)
from .dead_ends import _is_dead
from .moves import (
    _CODES,
    _apply,
    _fan_pop,
    _fan_push,
    _foundation_next,
    _foundation_push,
    _generate,
    _is_settled,
    _is_won,
    _undo,
)
from .order import _WEIGHTS, _order

#: The six two-suit projections (bit masks of suit codes), tried in this order.
PAIRS = np.array((0b0011, 0b0101, 0b1001, 0b0110, 0b1010, 0b1100), dtype=np.int64)
#: Rows of the sub-search's table, of the cache of projections neither lost nor searched to
#: the end, and of the cache of lost states (large: every state of an exhausted sub-search goes
#: there); a cache is cleared when full (the fill stop of :mod:`cloversolve.search.table` at its
#: largest size).
SUB_TABLE_ROWS = 1 << 19
OPEN_CACHE_ROWS = 1 << 18
LOST_CACHE_ROWS = 1 << 19
#: Rows of the cache of states on the paths of won sub-searches.
WON_CACHE_ROWS = 1 << 17
#: Depth of the sub-search's stack (a projection deeper than this proves nothing).
SUB_STACK_DEPTH = 512
#: The in-search budget (see :meth:`ProjectionWork.next_budget`) doubles, up to this many
#: nodes, once the sub-searches it stopped have taken at least half of the projections' nodes
#: since it last changed, and at least ``BUDGET_PATIENCE`` budgets' worth of them.
MAX_NODE_BUDGET = 480_000
BUDGET_PATIENCE = 4
#: Rows of the sub-search's table prefix at the start of a projection search.
_FIRST_SUB_ROWS = 256

# Slots of ``pctl`` (``_BUDGET_STOPS``, ``_BUDGET_NODES``: the sub-searches the budget stopped
# and their nodes).
_SEARCHED, _SUB_NODES, _LOST_HITS, _OPEN_HITS, _LOST_ROWS, _OPEN_ROWS, _KNOWN_LOST = range(7)
_BUDGET_STOPS, _BUDGET_NODES, _WON_ROWS, _KNOWN_WON = 7, 8, 9, 10
PCTL_SLOTS = 11
_COUNTERS = {"searched": _SEARCHED, "nodes": _SUB_NODES, "lost_hits": _LOST_HITS,
             "open_hits": _OPEN_HITS, "known_lost": _KNOWN_LOST,
             "budget_stops": _BUDGET_STOPS, "known_won": _KNOWN_WON}  # fmt: skip
#: The counter of nodes searched by projections (the main search's slices watch it).
PROJECTION_NODES_SLOT = _SUB_NODES


@kernel
def projection_key(nfans, ranks, board, hashes, mask):
    """The kernel key of the projection of the position in ``board`` onto the suits of
    ``mask`` (equal to :func:`.search.state_key` of that projection)."""
    fans, flen, height = board[0], board[1], board[2]
    zfan, zfound = hashes[2], hashes[3]
    key0 = np.uint64(0)
    key1 = np.uint64(0)
    for f in range(nfans):
        h0 = np.uint64(0)
        h1 = np.uint64(0)
        d = 0
        for i in range(flen[f]):
            card = fans[f, i]
            if (mask >> (card >> 4)) & 1:
                h0 ^= zfan[0, d, card]
                h1 ^= zfan[1, d, card]
                d += 1
        key0 += mix(h0)
        key1 += mix(h1)
    for s in range(4):
        h = height[s] if (mask >> s) & 1 else ranks
        key0 += zfound[0, s, h]
        key1 += zfound[1, s, h]
    return key0, key1


@inner_kernel  # (not inlined: too long; see inlined_kernel)
def _load(nfans, ranks, board, mask, pboard, phashes):
    """Set up the projection onto ``mask`` in the sub-search's arrays, automatic moves played."""
    fans, flen, height = board[0], board[1], board[2]
    pflen, pheight, ptop = pboard[1], pboard[2], pboard[3]
    fan_hash, total_hash, zfound = phashes[0], phashes[1], phashes[3]
    pflen[:] = 0
    ptop[:] = -1
    fan_hash[:, :] = 0
    total_hash[:] = 0
    for s in range(4):
        pheight[s] = height[s] if (mask >> s) & 1 else ranks
        for t in range(2):
            total_hash[t] += zfound[t, s, pheight[s]]
    for f in range(nfans):
        for i in range(flen[f]):
            card = fans[f, i]
            if (mask >> (card >> 4)) & 1:
                _fan_push(f, np.int64(card), pboard, phashes)
    progress = True
    while progress:
        progress = False
        for s in range(4):
            due = _foundation_next(s, pheight, ranks)
            if due >= 0 and ptop[due] >= 0:
                _fan_pop(np.int64(ptop[due]), pboard, phashes)
                _foundation_push(s, pboard, phashes)
                progress = True


@inner_kernel  # (not inlined: too long; see inlined_kernel)
def _solve(nfans, ranks, pboard, phashes, pstack, ptable, lost, won, weights, returns, budget,
           pctl):  # fmt: skip
    """Depth-first search of the position loaded in the sub-search's arrays, at most
    ``budget`` nodes: FOUND (won), EXHAUSTED (lost) or another code (undecided). A won
    search leaves the board at its root."""
    moves, nmoves, nexts, autos, nauto = pstack[0], pstack[1], pstack[2], pstack[3], pstack[4]
    scratch = pstack[6]
    height, top_fan = pboard[2], pboard[3]
    total_hash = phashes[1]
    if _is_won(height, ranks):
        return FOUND
    if probe(won, total_hash[0], total_hash[1]):
        pctl[_KNOWN_WON] += 1
        return FOUND
    # (the search uses a prefix of ``whole`` that starts small and grows as it fills, so
    # clearing it costs no more than the search: see :func:`cloversolve.search.table.grow_prefix`)
    whole = ptable
    largest = whole.shape[0] // 2
    rows = min(_FIRST_SUB_ROWS, largest)
    ptable = whole[:rows]
    ptable[:, :] = 0
    insert(ptable, total_hash[0], total_hash[1])
    entries = 1
    entry_cap = fill_stop_kernel(rows, largest, False)
    depth_cap = moves.shape[0]
    nodes = 0
    d = np.int64(0)  # (not the literal 0: numba would compile the callees twice)
    expand = True
    while True:
        if expand:
            expand = False
            nmoves[d] = 0
            nexts[d] = 0
            if not (
                _is_settled(height, top_fan, ranks) and _is_dead(nfans, ranks, pboard, scratch)
            ):
                n = _generate(moves[d], nfans, ranks, pboard, returns, True)
                nmoves[d] = _order(moves[d], n, d, nfans, ranks, pboard, phashes, pstack,
                                   weights, ptable)  # fmt: skip
        if nexts[d] >= nmoves[d]:
            if d == 0:
                pctl[_SUB_NODES] += nodes
                _remember_all(lost, ptable, pctl)
                return EXHAUSTED
            d -= 1
            _undo(moves[d, nexts[d] - 1], d, nfans, ranks, pboard, phashes, autos, nauto)
            continue
        if nodes >= budget:
            pctl[_SUB_NODES] += nodes
            pctl[_BUDGET_STOPS] += 1
            pctl[_BUDGET_NODES] += nodes
            return PAUSED
        if d + 1 >= depth_cap:
            pctl[_SUB_NODES] += nodes
            return STACK_FULL
        if entries >= entry_cap:
            if rows >= largest:
                pctl[_SUB_NODES] += nodes
                return TABLE_FULL
            grow_prefix(whole, rows)
            rows *= 2
            ptable = whole[:rows]
            entry_cap = fill_stop_kernel(rows, largest, False)
        move = moves[d, nexts[d]]
        nexts[d] += 1
        _apply(move, d, nfans, ranks, pboard, phashes, autos, nauto)
        nodes += 1
        won_here = _is_won(height, ranks)
        if won_here or probe(won, total_hash[0], total_hash[1]):
            pctl[_SUB_NODES] += nodes
            if not won_here:
                pctl[_KNOWN_WON] += 1
            _undo(move, d, nfans, ranks, pboard, phashes, autos, nauto)
            _remember_path(d, nfans, ranks, pboard, phashes, pstack, won, pctl)
            return FOUND
        if probe(lost, total_hash[0], total_hash[1]):
            pctl[_KNOWN_LOST] += 1
            _undo(move, d, nfans, ranks, pboard, phashes, autos, nauto)
            continue
        if not insert(ptable, total_hash[0], total_hash[1]):
            _undo(move, d, nfans, ranks, pboard, phashes, autos, nauto)
            continue
        entries += 1
        d += 1
        expand = True


@inner_kernel
def _remember(cache, key0, key1, pctl, rows_slot):
    """Store a projection's key in ``cache``, clearing the cache first when it is full."""
    if pctl[rows_slot] >= fill_stop_kernel(cache.shape[0], cache.shape[0], False):
        cache[:, :] = 0
        pctl[rows_slot] = 0
    if insert(cache, key0, key1):
        pctl[rows_slot] += 1


@inner_kernel
def _remember_path(depth, nfans, ranks, pboard, phashes, pstack, won, pctl):
    """Store the states on the path of a won sub-search, from the one at ``depth`` (whose
    winning move was taken back) to the root, in the won cache, taking the moves back."""
    moves, nexts, autos, nauto = pstack[0], pstack[2], pstack[3], pstack[4]
    total_hash = phashes[1]
    d = depth
    while True:
        _remember(won, total_hash[0], total_hash[1], pctl, np.int64(_WON_ROWS))
        if d == 0:
            return
        d -= 1
        _undo(moves[d, nexts[d] - 1], d, nfans, ranks, pboard, phashes, autos, nauto)


@inner_kernel
def _remember_all(lost, ptable, pctl):
    """Store every state of an exhausted sub-search's table in the lost cache."""
    for i in range(ptable.shape[0]):
        if ptable[i, 0] & np.uint64(1):
            _remember(lost, ptable[i, 0], ptable[i, 1], pctl, np.int64(_LOST_ROWS))


@inlined_kernel  # (one caller)
def lost_projection(nfans, ranks, board, hashes, returns, budget, moved, work):
    """The mask of a two-suit projection of the position in ``board`` proved lost within
    ``budget`` nodes (from the caches or by a search), or 0 when none is; only projections
    holding a suit of the mask ``moved`` are looked at. The sub-searches order their moves
    with the fixed weights ``_WEIGHTS`` of :mod:`.order`, whatever the weights of the run
    that calls them (see "Sub-search order" in the module docstring)."""
    pboard, phashes, pstack, ptable, lost, open_, pctl, won = work
    for k in range(PAIRS.shape[0]):
        mask = PAIRS[k]
        if mask & moved == 0:
            continue
        key0, key1 = projection_key(nfans, ranks, board, hashes, mask)
        if probe(lost, key0, key1):
            pctl[_LOST_HITS] += 1
            return mask
        if probe(open_, key0, key1):
            pctl[_OPEN_HITS] += 1
            continue
        _load(nfans, ranks, board, mask, pboard, phashes)
        pctl[_SEARCHED] += 1
        status = _solve(nfans, ranks, pboard, phashes, pstack, ptable, lost, won, _WEIGHTS,
                        returns, budget, pctl)  # fmt: skip
        if status == EXHAUSTED:
            _remember(lost, key0, key1, pctl, np.int64(_LOST_ROWS))
            return mask
        _remember(open_, key0, key1, pctl, np.int64(_OPEN_ROWS))
    return 0


class ProjectionWork:
    """The arrays of the in-search projections: a sub-search's board, stack and table, and the
    two caches. They are sized once, as large as the defaults allow within ``allowance``
    bytes (halving the stack, the table and the caches together), and counted against the
    search's memory bound."""

    def __init__(
        self, nfans: int, ranks: int, zfan: np.ndarray, zfound: np.ndarray, allowance: int
    ) -> None:
        depth, sub_rows, open_rows, lost_rows, won_rows = (
            SUB_STACK_DEPTH, SUB_TABLE_ROWS, OPEN_CACHE_ROWS, LOST_CACHE_ROWS, WON_CACHE_ROWS
        )  # fmt: skip
        while (
            won_rows > 4
            and self._bytes(nfans, ranks, depth, sub_rows + open_rows + lost_rows + won_rows)
            > allowance
        ):
            depth, sub_rows = max(depth // 2, 4), sub_rows // 2
            open_rows, lost_rows, won_rows = open_rows // 2, lost_rows // 2, won_rows // 2
        self.nbytes = self._bytes(nfans, ranks, depth, sub_rows + open_rows + lost_rows + won_rows)
        ncards = 4 * ranks
        max_moves = (nfans + 4) * (nfans + 2)
        board = (
            np.zeros((nfans, ncards), dtype=np.int32),
            np.zeros(nfans, dtype=np.int32),
            np.zeros(4, dtype=np.int32),
            np.full(_CODES, -1, dtype=np.int32),
            np.zeros(_CODES, dtype=np.int32),
        )
        hashes = (np.zeros((nfans, 2), dtype=np.uint64), np.zeros(2, dtype=np.uint64), zfan, zfound)
        stack = (
            np.zeros((depth, max_moves), dtype=np.int32),
            np.zeros(depth, dtype=np.int32),
            np.zeros(depth, dtype=np.int32),
            np.zeros((depth, ncards), dtype=np.int32),
            np.zeros(depth, dtype=np.int32),
            np.zeros(max_moves, dtype=np.int64),
            np.zeros((4, 8 * _CODES), dtype=np.int32),
        )
        self.tuple = (
            board,
            hashes,
            stack,
            new_table(sub_rows),
            new_table(lost_rows),
            new_table(open_rows),
            np.zeros(PCTL_SLOTS, dtype=np.int64),
            new_table(won_rows),
        )
        #: The projection nodes, and those of sub-searches stopped by the budget, when the
        #: budget last changed.
        self._since = (0, 0)
        #: How many times the budget has grown.
        self.raises = 0

    def next_budget(self, budget: int) -> int:
        """The in-search budget for the next slice of a search that used ``budget``: doubled
        (up to ``MAX_NODE_BUDGET``) when budget-stopped sub-searches have taken at least half
        of the projections' nodes since it last changed, and ``BUDGET_PATIENCE`` budgets'
        worth; the cache of open projections is then emptied, so the projections the smaller
        budget left open are searched again. (Any budget is sound: a projection proved lost is
        lost whatever the budget that proved it.)"""
        pctl = self.tuple[6]
        nodes, wasted = int(pctl[_SUB_NODES]), int(pctl[_BUDGET_NODES])
        nodes_since, wasted_since = nodes - self._since[0], wasted - self._since[1]
        if (
            budget >= MAX_NODE_BUDGET
            or wasted_since < BUDGET_PATIENCE * budget
            or 2 * wasted_since < nodes_since
        ):
            return budget
        self._since = (nodes, wasted)
        self.raises += 1
        self.tuple[5][:, :] = 0
        pctl[_OPEN_ROWS] = 0
        return min(2 * budget, MAX_NODE_BUDGET)

    @staticmethod
    def _bytes(nfans: int, ranks: int, depth: int, rows: int) -> int:
        """The bytes of the work arrays with a stack ``depth`` deep and ``rows`` table rows."""
        max_moves = (nfans + 4) * (nfans + 2)
        stack = depth * (max_moves + 4 * ranks + 3) * 4 + max_moves * 8 + 4 * 8 * _CODES * 4
        board = nfans * 4 * ranks * 4 + nfans * 4 + 16 + 2 * _CODES * 4 + nfans * 16 + 16
        return stack + board + rows * ENTRY_BYTES

    def counter(self, name: str) -> int:
        """One of the counters: ``searched`` (projections searched), ``nodes`` (their
        nodes), ``lost_hits`` and ``open_hits`` (answers from the caches), ``known_lost``
        (states a sub-search skipped because the lost cache holds them), ``budget_stops``
        (sub-searches stopped by the node budget), ``known_won`` (sub-searches won by
        reaching a state of the won cache)."""
        return int(self.tuple[6][_COUNTERS[name]])
