"""The numba kernels of the ``thirteen`` search: the board arrays, moves applied and undone, the
move generator and its ordering scores, the loss tests, the depth-first search itself and the
move counts (:mod:`.search` describes the encoding and runs them)."""

from __future__ import annotations

import numpy as np
from numba import njit

from ...search.kernel import (
    EXHAUSTED,
    FIRST_FAMILY_SLOT,
    FOUND,
    MAX_DEPTH_SLOT,
    NODES_SLOT,
    PAUSED,
    STACK_FULL,
    STATES_SLOT,
    TABLE_FULL,
    inner_kernel,
    kernel,
)
from ...search.ordering import sort_by_score
from ...search.table import insert, mix

# -- kernel layout ----------------------------------------------------------------------------

#: Move code ``src * _CODE + dst``; the foundation is ``_FND``.
_CODE = 64
_FND = 63
_MAX_PILES = 62

#: Seed of the Zobrist words of the two independent keys (fixed: searches are deterministic).
_KEY_SEED = 0x5EED_C10E

# params
_P, _R, _RETURN, _KING_RULE, _LAST, _CARDS, _RANK_RULE = range(7)
# counters
_NODES, _STATES, _MAXDEPTH = NODES_SLOT, STATES_SLOT, MAX_DEPTH_SLOT
_DEPTH, _FCOUNT, _TABLEAU, _KINGS, _STARTED = range(FIRST_FAMILY_SLOT, FIRST_FAMILY_SLOT + 5)
_N_COUNTERS = _STARTED + 1

_UNBOUNDED = 1 << 62


@inner_kernel
def _push_rank(pile, rank, grid, lens, hz, keys, zob):
    """Put ``rank`` on ``pile``, updating both pile hashes and both state keys."""
    height = lens[pile]
    grid[pile, height] = rank
    lens[pile] = height + 1
    for k in range(2):
        old = hz[k, pile]
        new = old ^ zob[k, height, rank]
        hz[k, pile] = new
        keys[k] = keys[k] - mix(old) + mix(new)


@inner_kernel
def _pop_rank(pile, grid, lens, hz, keys, zob):
    """Take the top rank off ``pile``, updating hashes and keys; return the rank."""
    height = lens[pile] - 1
    rank = grid[pile, height]
    lens[pile] = height
    for k in range(2):
        old = hz[k, pile]
        new = old ^ zob[k, height, rank]
        hz[k, pile] = new
        keys[k] = keys[k] - mix(old) + mix(new)
    return np.int64(rank)


@njit(cache=True)
def _load(grid, lens, hz, keys, zob):
    """Compute the pile hashes and state keys of the piles in ``grid``."""
    for k in range(2):
        keys[k] = np.uint64(0)
        for pile in range(grid.shape[0]):
            word = np.uint64(0)
            for height in range(lens[pile]):
                word ^= zob[k, height, grid[pile, height]]
            hz[k, pile] = word
            keys[k] += mix(word)


@inner_kernel
def _apply(move, params, grid, lens, hz, keys, ctr, zob):
    """Play ``move`` on the kernel state."""
    src = move // _CODE
    dst = move % _CODE
    ranks = params[_R]
    if src == _FND:
        rank = (ctr[_FCOUNT] - 1) % ranks + 1
        _push_rank(dst, rank, grid, lens, hz, keys, zob)
        ctr[_FCOUNT] -= 1
        ctr[_TABLEAU] += 1
        return
    if lens[src] == 1 and grid[src, 0] == params[_LAST]:
        ctr[_KINGS] -= 1
    rank = _pop_rank(src, grid, lens, hz, keys, zob)
    if dst == _FND:
        ctr[_FCOUNT] += 1
        ctr[_TABLEAU] -= 1
    else:
        _push_rank(dst, rank, grid, lens, hz, keys, zob)


@inner_kernel
def _undo(move, params, grid, lens, hz, keys, ctr, zob):
    """Take back ``move`` (the last move played) on the kernel state."""
    src = move // _CODE
    dst = move % _CODE
    ranks = params[_R]
    if src == _FND:
        _pop_rank(dst, grid, lens, hz, keys, zob)
        ctr[_FCOUNT] += 1
        ctr[_TABLEAU] -= 1
        return
    if dst == _FND:
        rank = (ctr[_FCOUNT] - 1) % ranks + 1
        ctr[_FCOUNT] -= 1
        ctr[_TABLEAU] += 1
    else:
        rank = _pop_rank(dst, grid, lens, hz, keys, zob)
    _push_rank(src, rank, grid, lens, hz, keys, zob)
    if lens[src] == 1 and rank == params[_LAST]:
        ctr[_KINGS] += 1


@inner_kernel
def _neighbours(a, b, ranks):
    return b == a % ranks + 1 or a == b % ranks + 1


@inner_kernel
def _need_depth(pile, need, grid, lens):
    """How many cards lie above the highest card of rank ``need`` in ``pile`` (-1: none)."""
    top = lens[pile] - 1
    for height in range(top, -1, -1):
        if grid[pile, height] == need:
            return top - height
    return -1


@inner_kernel
def _score(src, dst, need, params, grid, lens):
    """Move-ordering score, higher first: foundation moves, then moves that dig towards the
    rank the foundation needs, then the rest; returns from the foundation last."""
    if dst == _FND:
        return 1_000_000
    if src == _FND:
        return -1_000
    score = 0
    below = _need_depth(src, need, grid, lens)
    if below == 1:
        score += 10_000
    elif below > 1:
        score += 1_000 - 10 * below
    covered = _need_depth(dst, need, grid, lens)
    if covered >= 0:
        score -= 2_000 - 10 * covered
    return score


@njit(cache=True)
def _generate(params, grid, lens, ctr, out, scores):
    """Write the legal moves of the state into ``out`` in search order; return their count.

    Generation order before sorting: foundation moves by pile, pile-to-pile moves by
    (source, target), returns by target. Sorting is stable, by descending score.
    """
    piles = params[_P]
    ranks = params[_R]
    need = ctr[_FCOUNT] % ranks + 1
    count = np.int64(0)  # (typed: literals would compile second copies of the callees)
    for src in range(piles):
        if lens[src] > 0 and grid[src, lens[src] - 1] == need:
            out[count] = src * _CODE + _FND
            count += 1
    for src in range(piles):
        if lens[src] == 0:
            continue
        rank = np.int64(grid[src, lens[src] - 1])
        for dst in range(piles):
            if dst != src and lens[dst] > 0 and _neighbours(rank, grid[dst, lens[dst] - 1], ranks):
                out[count] = src * _CODE + dst
                count += 1
    if params[_RETURN] and ctr[_FCOUNT] > 0:
        rank = (ctr[_FCOUNT] - 1) % ranks + 1
        for dst in range(piles):
            if lens[dst] > 0 and _neighbours(rank, grid[dst, lens[dst] - 1], ranks):
                out[count] = _FND * _CODE + dst
                count += 1
    for i in range(count):
        scores[i] = _score(out[i] // _CODE, out[i] % _CODE, need, params, grid, lens)
    sort_by_score(out, scores, count)
    return count


@inner_kernel
def _target_exposable(params, grid, lens, target, free_from, free_count, extra, dug, exposable):
    """Whether a card of rank ``target`` in the piles could ever be uncovered (the relaxation
    of the buried-rank rule): True if none is in the piles or the fixed point reaches one.

    A pile is dug from the top; a card comes off when it may go to the foundation (its rank
    is one of the ``free_count`` ranks from ``free_from`` up) or some other card of a
    neighbouring rank is uncovered or is a foundation card that may come back (ranks
    ``1..extra``). Uncovered cards are counted by rank in ``exposable``.
    """
    ranks = params[_R]
    piles = params[_P]
    present = False
    for pile in range(piles):
        for height in range(lens[pile]):
            if grid[pile, height] == target:
                present = True
    if not present:
        return True
    exposable[:] = 0
    for rank in range(1, extra + 1):
        exposable[rank] += 1
    for pile in range(piles):
        dug[pile] = 0
        if lens[pile] > 0:
            rank = grid[pile, lens[pile] - 1]
            if rank == target:
                return True
            exposable[rank] += 1
    changed = True
    while changed:
        changed = False
        for pile in range(piles):
            height = lens[pile] - 1 - dug[pile]
            if height < 0:
                continue
            rank = grid[pile, height]
            to_foundation = (rank - free_from + ranks) % ranks < free_count
            above, below = rank % ranks + 1, (rank + ranks - 2) % ranks + 1
            if to_foundation or exposable[above] > 0 or exposable[below] > 0:
                dug[pile] += 1
                changed = True
                if height > 0:
                    under = grid[pile, height - 1]
                    if under == target:
                        return True
                    exposable[under] += 1
    return False


@inner_kernel
def _rank_buried(params, grid, lens, ctr, dug, exposable):
    """True when the buried-rank rule proves the state lost (FACTS.md, fact 6)."""
    ranks = params[_R]
    fcount = ctr[_FCOUNT]
    need = fcount % ranks + 1
    if params[_RETURN]:
        for target in range(fcount + 1, ranks + 1):
            if not _target_exposable(
                params, grid, lens, target, np.int64(1), target - 1, fcount, dug, exposable
            ):
                return True
        return False
    for span in range(ranks):
        target = (need - 1 + span) % ranks + 1
        if not _target_exposable(
            params, grid, lens, target, need, span, np.int64(0), dug, exposable
        ):
            return True
    return False


@kernel
def _run(params, grid, lens, hz, keys, ctr, zob, moves, frames, table, work, node_stop, fill_stop):
    """Run (or resume) the depth-first search until a result or a pause.

    The stack: ``frames[d] = (start, count, cursor)`` says that the moves of the state at
    depth ``d`` are ``moves[start:start + count]`` and the next one to try is at ``cursor``.
    Returns ``FOUND`` (the route is ``moves[start + cursor - 1]`` of the frames ``0..depth``,
    ``depth = ctr[_DEPTH]``), ``EXHAUSTED``, ``PAUSED`` (``node_stop`` nodes reached),
    ``TABLE_FULL`` (the table holds ``fill_stop`` entries) or ``STACK_FULL`` (the stack is full).
    Every pause leaves the state consistent, so the caller may enlarge arrays and call again.
    ``work`` holds scratch arrays: move scores (one per possible move), and the dug count per
    pile and exposed count per rank of :func:`_target_exposable`.
    """
    scores, dug, exposable = work
    width = params[_P] * (params[_P] + 1)
    king_rule = params[_KING_RULE] != 0
    rank_rule = params[_RANK_RULE] != 0
    if ctr[_STARTED] == 0:
        ctr[_STARTED] = 1
        if rank_rule and _rank_buried(params, grid, lens, ctr, dug, exposable):
            return EXHAUSTED
        insert(table, keys[0], keys[1])
        ctr[_STATES] += 1
        ctr[_DEPTH] = 0
        frames[0, 0] = 0
        frames[0, 1] = _generate(params, grid, lens, ctr, moves[0:width], scores)
        frames[0, 2] = 0
    depth = ctr[_DEPTH]
    while True:
        start, count, cursor = frames[depth, 0], frames[depth, 1], frames[depth, 2]
        if cursor < count:
            if ctr[_NODES] >= node_stop:
                ctr[_DEPTH] = depth
                return PAUSED
            if ctr[_STATES] >= fill_stop:
                ctr[_DEPTH] = depth
                return TABLE_FULL
            if depth + 2 >= frames.shape[0] or start + count + width > moves.shape[0]:
                ctr[_DEPTH] = depth
                return STACK_FULL
            move = moves[start + cursor]
            frames[depth, 2] = cursor + 1
            _apply(move, params, grid, lens, hz, keys, ctr, zob)
            ctr[_NODES] += 1
            if ctr[_TABLEAU] == 0:
                ctr[_DEPTH] = depth
                return FOUND
            if (king_rule and ctr[_KINGS] == 0) or not insert(table, keys[0], keys[1]):
                _undo(move, params, grid, lens, hz, keys, ctr, zob)
                continue
            ctr[_STATES] += 1
            if (
                rank_rule
                and move % _CODE == _FND
                and _rank_buried(params, grid, lens, ctr, dug, exposable)
            ):
                _undo(move, params, grid, lens, hz, keys, ctr, zob)
                continue  # (the lost state stays in the table: never tested twice)
            depth += 1
            if depth > ctr[_MAXDEPTH]:
                ctr[_MAXDEPTH] = depth
            start += count
            frames[depth, 0] = start
            frames[depth, 1] = _generate(
                params, grid, lens, ctr, moves[start : start + width], scores
            )
            frames[depth, 2] = 0
        else:
            if depth == 0:
                ctr[_DEPTH] = 0
                return EXHAUSTED
            depth -= 1
            move = moves[frames[depth, 0] + frames[depth, 2] - 1]
            _undo(move, params, grid, lens, hz, keys, ctr, zob)


@njit(cache=True)
def _perft(params, grid, lens, hz, keys, ctr, zob, depth):
    """Count the move sequences of length ``depth`` from the state (no table, no pruning)."""
    if depth == 0:
        return 1
    width = params[_P] * (params[_P] + 1)
    out = np.empty(width, dtype=np.int16)
    scores = np.empty(width, dtype=np.int64)
    count = _generate(params, grid, lens, ctr, out, scores)
    if depth == 1:
        return count
    total = 0
    for i in range(count):
        _apply(out[i], params, grid, lens, hz, keys, ctr, zob)
        total += _perft(params, grid, lens, hz, keys, ctr, zob, depth - 1)
        _undo(out[i], params, grid, lens, hz, keys, ctr, zob)
    return total
