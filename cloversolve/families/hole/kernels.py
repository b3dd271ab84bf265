"""The numba kernels of the ``hole`` family's search (:mod:`.search`): the rank-walk test
and its cache, the move generator, the resumable search and the move counts."""

from __future__ import annotations

import numpy as np
from numba import njit
from numba.cpython.unsafe.numbers import trailing_zeros

from ...search.kernel import (
    EXHAUSTED,
    FIRST_FAMILY_SLOT,
    FOUND,
    MAX_DEPTH_SLOT,
    NODES_SLOT,
    PAUSED,
    STATES_SLOT,
    TABLE_FULL,
    inlined_kernel,
    inner_kernel,
    kernel,
)
from ...search.table import NEW_ROW, SEEN, mix, prefetch, visit

#: Rows looked at for one key before a table at its largest size replaces one of them.
PROBE_WINDOW = 8
#: Rows of the rank-walk test's cache (:func:`_walk_cached`), and the most ranks and cards of
#: one rank it can pack into its keys (3 bits a rank, the foundation's rank above them).
WALK_CACHE_ENTRIES = 1 << 12
WALK_CACHE_RANKS = 18
WALK_CACHE_COUNT = 7
_PACK_BITS = 3
_VALID = 1 << 60
_HAS_WALK = 1 << 61
_GOLDEN = np.uint64(0x9E3779B97F4A7C15)

# Registers of the resumable kernel (an int64 array).
_NODES, _STORED, _MAX_DEPTH = NODES_SLOT, STATES_SLOT, MAX_DEPTH_SLOT
_DEPTH, _FOUND, _LEFT, _STARTED, _PRUNED, _HITS = range(FIRST_FAMILY_SLOT, FIRST_FAMILY_SLOT + 6)
_NUM_REGS = _HITS + 1


@inner_kernel
def _walk_exists(counts, bottoms, found, m, edges, end_ok):
    """True if a walk from rank ``found`` (steps of one rank on the cycle of ``m`` ranks)
    can visit each rank ``r`` exactly ``counts[r]`` times and end on a rank with
    ``bottoms[r] > 0`` and ``end_ok[r]`` (FACTS.md, fact 12, "Rank walk"). ``edges`` is
    scratch of more than ``m`` slots; its last slot keeps the end rank that last had a walk,
    tried first (the next state's walk usually ends there too)."""
    hint = len(edges) - 1
    first = edges[hint]
    for step in range(m):
        end = first + step
        if end >= m:
            end -= m
        if bottoms[end] == 0 or not end_ok[end]:
            continue
        # edges[k] joins ranks k and k+1; with x = e[m-1], e[k] = edges[k] + (-1)**(k+1) * x.
        s = 0
        for k in range(m):
            d = 2 * counts[k] + (1 if k == found else 0) - (1 if k == end else 0)
            s = d - s
            edges[k] = s
        if m % 2 == 1:
            if s % 2 == 0 and _edges_fit(counts, found, m, edges, s // 2):
                edges[hint] = end
                return True
        elif s == 0:
            low, high = 0, 1 << 30
            for k in range(m):
                if k % 2 == 0:
                    high = min(high, edges[k])
                else:
                    low = max(low, -edges[k])
            # With low + 1 < high every edge is positive; otherwise try both ends.
            for x in (low, low + 1, high):
                if low <= x <= high and _edges_fit(counts, found, m, edges, x):
                    edges[hint] = end
                    return True
    return False


@inner_kernel
def _walk_cached(cache, packed_counts, packed_bottoms, counts, bottoms, found, m, edges, end_ok):
    """:func:`_walk_exists`, remembered in ``cache`` (rows of two words, direct-mapped) under
    the exact packed counts, bottom counts and foundation rank (``packed_counts`` and
    ``packed_bottoms``: 3 bits a rank), so a row answers only for the very same arguments."""
    key1 = packed_counts | (found << (_PACK_BITS * m)) | _VALID
    mask = cache.shape[0] - 1
    row = np.int64(mix(np.uint64(key1) ^ (np.uint64(packed_bottoms) * _GOLDEN)) & np.uint64(mask))
    if cache[row, 0] == key1 and cache[row, 1] & ~_HAS_WALK == packed_bottoms:
        return cache[row, 1] & _HAS_WALK != 0
    exists = _walk_exists(counts, bottoms, found, m, edges, end_ok)
    cache[row, 0] = key1
    cache[row, 1] = packed_bottoms | (_HAS_WALK if exists else 0)
    return exists


@inner_kernel
def _packed(values, m):
    """``values[:m]`` packed 3 bits a rank (each value below 8)."""
    packed = 0
    for r in range(m):
        packed |= values[r] << (_PACK_BITS * r)
    return packed


@inner_kernel
def _edges_fit(counts, found, m, edges, x):
    """The multiplicities given by ``edges`` and ``x`` are non-negative and the positive
    edges connect every rank the walk visits."""
    first_gap = -1
    for k in range(m):
        e = edges[k] - x if k % 2 == 0 else edges[k] + x
        if e < 0:
            return False
        if e == 0 and first_gap < 0:
            first_gap = k
    if first_gap < 0:
        return True
    # Go round the cycle from just after a missing edge: visited ranks must share one arc.
    arc = 0
    visited_arc = -1
    k = first_gap
    for _ in range(m):
        k = k + 1 if k + 1 < m else 0
        if counts[k] > 0 or k == found:
            if visited_arc < 0:
                visited_arc = arc
            elif visited_arc != arc:
                return False
        e = edges[k] - x if k % 2 == 0 else edges[k] + x
        if e == 0:
            arc += 1
    return True


#: The most fans whose exposed cards the kernels keep as bit masks (:func:`_generate`); a
#: game with more fans (empty ones: 52 cards fill at most 52) is scanned fan by fan instead.
MASK_FANS = 63


@inner_kernel
def _take(tops, ranks_of, stride, fan, h, rank):
    """Update the exposed-card masks ``tops`` (see :func:`_generate`) when ``fan``'s card of
    ``rank`` leaves it, ``h`` cards staying (nothing when ``tops`` is empty)."""
    if len(tops) == 0:
        return
    bit = np.int64(1) << fan
    tops[rank] &= ~bit
    if h > 0:
        tops[ranks_of[fan * stride + h - 1]] |= bit
    lone = len(tops) - 1
    if h == 1:
        tops[lone] |= bit
    elif h == 0:
        tops[lone] &= ~bit


@inner_kernel
def _put_back(tops, ranks_of, stride, fan, h, rank):
    """Undo :func:`_take` (``fan`` has ``h`` cards and gets its card of ``rank`` back)."""
    if len(tops) == 0:
        return
    bit = np.int64(1) << fan
    if h > 0:
        tops[ranks_of[fan * stride + h - 1]] &= ~bit
    tops[rank] |= bit
    lone = len(tops) - 1
    if h == 1:
        tops[lone] &= ~bit
    elif h == 0:
        tops[lone] |= bit


@inlined_kernel
def _insert_by_score(moves, scores, base, n, fan, score):
    """Insert ``fan`` with ``score`` among the ``n`` moves from ``moves[base]``, kept best first
    (after those of an equal score: the sort is stable); ``scores`` holds theirs from 0."""
    j = n
    while j > 0 and scores[j - 1] < score:
        moves[base + j] = moves[base + j - 1]
        scores[j] = scores[j - 1]
        j -= 1
    moves[base + j] = fan
    scores[j] = score


@inner_kernel
def _generate(depth, game, heights, counts, tops, found, stack, work, lone):
    """Store the moves worth trying at ``depth`` (fan numbers), best first; return their
    number. ``game`` is (ranks_of, stride, adj, near), ``stack`` is (moves, nmoves, index)
    and ``work`` is scratch: one slot a rank, then one a fan. ``tops`` holds, per rank, the
    bit mask of the fans whose exposed card has that rank, and last the mask of the fans of
    one card (kept up to date by :func:`_take` and :func:`_put_back`); empty: the fans are
    scanned instead (more than :data:`MASK_FANS` fans)."""
    ranks_of, stride, adj, near = game
    moves, nmoves, index = stack
    if len(tops) == 0:
        return _generate_scan(
            depth, ranks_of, stride, adj, heights, counts, found, stack, work, lone
        )
    m = len(counts)
    scores = work[m:]
    base = depth * len(heights)
    # The fans worth trying: those whose exposed card is playable, except lone cards of a
    # rank some taller fan plays, and all but the lowest fan's of a rank only lone cards play.
    lone_fans = tops[m]
    kept = np.int64(0)
    for i in range(near[found, 0]):
        fans = tops[near[found, i + 1]]
        if lone and fans != 0:
            taller = fans & ~lone_fans
            fans = taller if taller != 0 else fans & -fans
        kept |= fans
    # Sorted best first (insertion sort in fan order, stable): more cards of the card's
    # rank left, then taller fan.
    n = 0
    while kept != 0:
        fan = trailing_zeros(kept)
        kept &= kept - 1
        h = heights[fan]
        score = counts[ranks_of[fan * stride + h - 1]] * 64 + h
        _insert_by_score(moves, scores, base, n, fan, score)
        n += 1
    nmoves[depth] = n
    index[depth] = 0
    return n


@inner_kernel
def _generate_scan(depth, ranks_of, stride, adj, heights, counts, found, stack, work, lone):
    """:func:`_generate` by scanning every fan (the same moves in the same order)."""
    moves, nmoves, index = stack
    m = len(counts)
    best = work[:m]
    scores = work[m:]
    fan_count = len(heights)
    base = depth * fan_count
    # First the fans whose exposed card is playable, in fan order (kept in the move slots),
    # and best[r]: the fan kept for rank r among lone cards: -1 if a taller fan plays r.
    if lone:
        for r in range(m):
            best[r] = -2
    playable = 0
    for fan in range(fan_count):
        h = heights[fan]
        if h > 0:
            r = ranks_of[fan * stride + h - 1]
            if adj[found, r]:
                moves[base + playable] = fan
                playable += 1
                if lone:
                    if h > 1:
                        best[r] = -1
                    elif best[r] == -2:
                        best[r] = fan
    # Then those worth trying, sorted best first (insertion sort, stable): more cards of the
    # card's rank left, then taller fan. (Slot n is written only after slot k >= n is read.)
    n = 0
    for k in range(playable):
        fan = moves[base + k]
        h = heights[fan]
        r = ranks_of[fan * stride + h - 1]
        if lone and h == 1 and best[r] != fan:
            continue
        score = counts[r] * 64 + h
        _insert_by_score(moves, scores, base, n, fan, score)
        n += 1
    nmoves[depth] = n
    index[depth] = 0
    return n


@inner_kernel
def _prefetch_children(table, depth, stack, game, heights, z1, f1, k1, found):
    """Start loading the table rows of the states the moves stored at ``depth`` lead to
    (first words from ``k1``, ``z1`` and ``f1``), which the search looks up soon."""
    moves, nmoves = stack[0], stack[1]
    ranks_of, stride = game[0], game[1]
    fan_count = len(heights)
    base = depth * fan_count
    zs = stride + 1
    for i in range(nmoves[depth]):
        fan = moves[base + i]
        h = heights[fan] - 1
        at = fan * zs + h
        prefetch(table, k1 + z1[at] - z1[at + 1] + f1[ranks_of[fan * stride + h]] - f1[found])


@kernel
def _run(
    game, keys, position, stack, regs, table, grow_at, node_stop, prune_walk, lone, goal, walk_cache
):
    """Depth-first search until solved, exhausted, ``node_stop`` nodes in all, or a table to
    grow (``grow_at`` new rows stored).

    ``game`` is (ranks_of, stride, adj, near), ``keys`` the key parts (zfan, zfound),
    ``position`` (heights, counts, bottoms, key, tops: see :func:`_generate`) and ``stack``
    (moves, nmoves, index, prev_found, scratch). A win needs every card played and, unless
    ``goal`` is the number of ranks, a last card one rank from ``goal``. Resumable: the whole
    search state lives in the arrays. ``walk_cache`` is the rank-walk test's cache
    (:func:`_walk_cached`; no rows: none).
    """
    ranks_of, stride, adj = game[0], game[1], game[2]
    zfan, zfound = keys
    heights, counts, bottoms, key, tops = position
    moves, nmoves, index, prev_found, scratch = stack
    generated = (moves, nmoves, index)
    fan_count = len(heights)
    m = len(counts)
    end_ok = adj[goal]
    zs = stride + 1
    z1, z2 = zfan[0], zfan[1]
    f1, f2 = zfound[0], zfound[1]
    if regs[_STARTED] == 0:
        regs[_STARTED] = 1
        regs[_NODES] += 1
        if regs[_LEFT] == 0:
            return FOUND
        if visit(table, key[0], key[1], PROBE_WINDOW) == NEW_ROW:
            regs[_STORED] += 1
        found = regs[_FOUND]
        if (
            prune_walk
            and found < m
            and not _walk_exists(counts, bottoms, found, m, scratch, adj[goal])
        ):
            regs[_PRUNED] += 1
            return EXHAUSTED
        if (
            _generate(np.int64(0), game, heights, counts, tops, found, generated, scratch, lone)
            == 0
        ):
            return EXHAUSTED
    depth = regs[_DEPTH]
    found = regs[_FOUND]
    left = regs[_LEFT]
    nodes = regs[_NODES]
    # (counters live in locals and go back to ``regs`` at every exit)
    stored, hits, pruned, deepest = regs[_STORED], regs[_HITS], regs[_PRUNED], regs[_MAX_DEPTH]
    k1 = key[0]
    k2 = key[1]
    cached = walk_cache.shape[0] > 0
    packed_counts = _packed(counts, m) if cached else 0
    packed_bottoms = _packed(bottoms, m) if cached else 0
    while True:
        if index[depth] >= nmoves[depth]:
            if depth == 0:
                regs[_DEPTH], regs[_FOUND], regs[_LEFT], regs[_NODES] = depth, found, left, nodes
                regs[_STORED], regs[_HITS], regs[_PRUNED] = stored, hits, pruned
                regs[_MAX_DEPTH] = deepest
                key[0], key[1] = k1, k2
                return EXHAUSTED
            # Take back the move that led here and try the next one one level up.
            depth -= 1
            fan = moves[depth * fan_count + index[depth]]
            h = heights[fan]
            back = prev_found[depth]
            at = fan * zs + h
            k1 += z1[at + 1] - z1[at] + f1[back] - f1[found]
            k2 += z2[at + 1] - z2[at] + f2[back] - f2[found]
            rank = ranks_of[fan * stride + h]
            _put_back(tops, ranks_of, stride, fan, h, rank)
            counts[rank] += 1
            if h == 0:
                bottoms[rank] += 1
            if cached:
                packed_counts += 1 << (_PACK_BITS * rank)
                if h == 0:
                    packed_bottoms += 1 << (_PACK_BITS * rank)
            heights[fan] = h + 1
            left += 1
            found = back
            index[depth] += 1
            continue
        if nodes >= node_stop or stored >= grow_at:
            regs[_DEPTH], regs[_FOUND], regs[_LEFT], regs[_NODES] = depth, found, left, nodes
            regs[_STORED], regs[_HITS], regs[_PRUNED] = stored, hits, pruned
            regs[_MAX_DEPTH] = deepest
            key[0], key[1] = k1, k2
            return PAUSED if nodes >= node_stop else TABLE_FULL
        # Play the next move of this node.
        fan = moves[depth * fan_count + index[depth]]
        h = heights[fan] - 1
        rank = ranks_of[fan * stride + h]
        at = fan * zs + h
        k1 += z1[at] - z1[at + 1] + f1[rank] - f1[found]
        k2 += z2[at] - z2[at + 1] + f2[rank] - f2[found]
        heights[fan] = h
        _take(tops, ranks_of, stride, fan, h, rank)
        counts[rank] -= 1
        if h == 0:
            bottoms[rank] -= 1
        if cached:
            packed_counts -= 1 << (_PACK_BITS * rank)
            if h == 0:
                packed_bottoms -= 1 << (_PACK_BITS * rank)
        left -= 1
        prev_found[depth] = found
        back = found
        found = rank
        nodes += 1
        if left == 0 and adj[goal, found]:
            regs[_DEPTH], regs[_FOUND], regs[_LEFT], regs[_NODES] = depth + 1, found, left, nodes
            regs[_STORED], regs[_HITS], regs[_PRUNED] = stored, hits, pruned
            regs[_MAX_DEPTH] = max(deepest, depth + 1)
            key[0], key[1] = k1, k2
            return FOUND
        # (the rank-walk test and the move generator first: mostly answered by its cache and
        # cheap, they give the table row prefetched when this move was generated time to
        # arrive, and the states they end, pruned or without moves, take no table rows)
        dead = False
        if prune_walk and not (
            _walk_cached(
                walk_cache,
                packed_counts,
                packed_bottoms,
                counts,
                bottoms,
                found,
                m,
                scratch,
                end_ok,
            )
            if cached
            else _walk_exists(counts, bottoms, found, m, scratch, end_ok)
        ):
            pruned += 1
            dead = True
        elif (
            _generate(depth + 1, game, heights, counts, tops, found, generated, scratch, lone) == 0
        ):
            dead = True
        else:
            seen = visit(table, k1, k2, PROBE_WINDOW)
            if seen == SEEN:
                hits += 1
                dead = True
            else:
                if seen == NEW_ROW:
                    stored += 1
                _prefetch_children(table, depth + 1, generated, game, heights, z1, f1, k1, found)
        if dead:
            k1 += z1[at + 1] - z1[at] + f1[back] - f1[found]
            k2 += z2[at + 1] - z2[at] + f2[back] - f2[found]
            _put_back(tops, ranks_of, stride, fan, h, rank)
            counts[rank] += 1
            if h == 0:
                bottoms[rank] += 1
            if cached:
                packed_counts += 1 << (_PACK_BITS * rank)
                if h == 0:
                    packed_bottoms += 1 << (_PACK_BITS * rank)
            heights[fan] = h + 1
            left += 1
            found = back
            index[depth] += 1
        else:
            depth += 1
            deepest = max(deepest, depth)


@njit(cache=True)  # (builds its stack: see kernel.kernel)
def _perft(game, heights, counts, tops, found, zfan, depth_goal, work, out):
    """The number of sequences of ``depth_goal`` moves of the search's move generator (no
    reductions); unless ``out`` is empty, the keys (first words) of the states they reach
    are written to it (-1: ``out`` is too short)."""
    ranks_of, stride = game[0], game[1]
    fan_count = len(heights)
    zs = stride + 1
    moves = np.zeros((depth_goal + 1) * max(1, fan_count), dtype=np.int64)
    nmoves = np.zeros(depth_goal + 1, dtype=np.int64)
    index = np.zeros(depth_goal + 1, dtype=np.int64)
    prev = np.zeros(depth_goal + 1, dtype=np.int64)
    keep = len(out) > 0
    if depth_goal == 0:
        if keep:
            out[0] = 0
        return 1
    written = 0
    stack = (moves, nmoves, index)
    _generate(np.int64(0), game, heights, counts, tops, found, stack, work, False)
    depth = 0
    while depth >= 0:
        if index[depth] >= nmoves[depth]:
            depth -= 1
            if depth >= 0:
                fan = moves[depth * fan_count + index[depth]]
                h = heights[fan]
                _put_back(tops, ranks_of, stride, fan, h, ranks_of[fan * stride + h])
                counts[ranks_of[fan * stride + h]] += 1
                heights[fan] = h + 1
                found = prev[depth]
                index[depth] += 1
            continue
        fan = moves[depth * fan_count + index[depth]]
        heights[fan] -= 1
        prev[depth] = found
        found = ranks_of[fan * stride + heights[fan]]
        _take(tops, ranks_of, stride, fan, heights[fan], found)
        counts[found] -= 1
        if depth + 1 == depth_goal:
            if keep:
                if written == len(out):
                    return -1
                key = np.uint64(found)
                for other in range(fan_count):
                    key += zfan[0, other * zs + heights[other]]
                out[written] = key
            written += 1
            _put_back(tops, ranks_of, stride, fan, heights[fan], found)
            counts[found] += 1
            heights[fan] += 1
            found = prev[depth]
            index[depth] += 1
        else:
            depth += 1
            _generate(depth, game, heights, counts, tops, found, stack, work, False)
    return written


@kernel
def _root_moves(game, heights, counts, tops, found, moves, nmoves, index, work):
    """The number of moves of the search's move generator (no reductions) at the root,
    stored in ``moves`` best first."""
    stack = (moves, nmoves, index)
    return _generate(np.int64(0), game, heights, counts, tops, found, stack, work, False)
