"""Search kernel for the ``hole`` family (Black Hole, All in a Row).

The facts this search rests on (the state, the reversed game, rank walks, lone cards and fan
order) are argued in FACTS.md, fact 12; below is only what this module does with them.

A position is the number of cards left in each fan plus the foundation's top rank, so the
kernel works on fan heights, the rank counts and the foundation rank, all flat ``int64``
arrays. The search is an iterative depth-first search with an explicit stack; the game graph
has no cycles, so a state met again is skipped. States are identified by a 128-bit key (two
64-bit words) updated incrementally on every move: a random pair for each (fan, height) and
for each foundation rank, summed (FACTS.md, fact 13; the table stores and compares the whole
key).

The transposition table is an open-addressing array of keys that starts small and doubles
while half full, up to the size ``Limits.max_memory`` allows (16 bytes an entry; the two
directions of ``reverse`` share the budget, and a table grows only while the old and the new
array together fit in its share: the rule of :mod:`cloversolve.search.table`); once at that
size, a new state overwrites an entry of its probe window (forgetting a state costs time,
never correctness). Every search allocates its own tables and drops them when it ends.

Reductions (each switchable with the ``prune`` argument of :func:`search`; all are on by
default, and the tests compare verdicts with each one off):

``reverse``
    The reversed game (fans upside down, an empty foundation, a last card one rank from the
    old top) is searched alongside the position, alternating equal node budgets; the first
    verdict decides, and a route of the reversed game read backwards is a route of the
    position. (Unsolvable All in a Row deals need about 2.5 times fewer states this way.)

``rank-walk``
    A state whose cards left admit no rank walk of the foundation (:func:`_walk_exists`),
    ending on the rank of a bottom card (in a reversed game, on one a rank from the required
    last rank), is not expanded. (This contains black-hole-solver's rank reachability prune,
    which checks the connectivity only.)

``lone-card``
    A playable card alone in its fan is not tried when another playable card of its rank is;
    among several lone cards of one rank with no other playable card of that rank, the lowest
    fan is kept.

``fan-symmetry``
    The key gives every (fan, height) the random pair of the rank sequence from the fan's
    bottom up to that height instead of its own, so states whose fans hold the same rank
    sequences in some order, under the same foundation rank, share a key and one search
    serves both.

Move ordering (it only changes which route is found first and how fast, never a verdict):
first the cards whose rank has the most cards left (on Black Hole deals 1..600 this needs a
half to a third of the states that taller-fans-first needs), then cards from taller fans,
then lower fan numbers.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ..notation import FOUNDATION, Move, Transfer
from ..rules.hole import HolePosition, ranks_adjacent
from .common import Limits, Method, SearchOutcome, Status, StopReason
from .driver import Budget
from .kernel import EXHAUSTED, FOUND, PAUSED, TABLE_FULL, inner_kernel, kernel
from .table import max_entries

#: Reductions :func:`search` knows (see the module docstring).
PRUNES = ("rank-walk", "lone-card", "fan-symmetry", "reverse")
#: Nodes of the first kernel call and the most of any; the wallclock limit is checked
#: between calls, whose budgets double from the first to the most.
FIRST_SLICE_NODES = 1 << 12
SLICE_NODES = 1 << 18
#: log2 of the first table's entry count; it doubles while half full.
INITIAL_TABLE_BITS = 12
#: Slots looked at for one key before a full table overwrites one of them.
PROBE_WINDOW = 8
#: Seed of the random key parts (fixed: searches are deterministic).
KEY_SEED = 20240611

_STAMP_BITS = 16
_STAMP_MASK = (1 << _STAMP_BITS) - 1
#: The stamp of a search's entries (a fresh table is all zeros: no entry has it).
_FRESH_STAMP = 1

# Registers of the resumable kernel (an int64 array).
_DEPTH, _FOUND, _NODES, _STORED, _LEFT, _MAX_DEPTH, _STARTED, _PRUNED, _HITS, _STAMP = range(10)
_NUM_REGS = 10


@inner_kernel
def _visit(table, shift, k1, k2, regs):
    """Look the key up and insert it if new; True if it was already there.

    An entry is (k1, k2 with its low bits replaced by the search's stamp); entries with
    another stamp are left over from earlier searches and count as empty.
    """
    stamp = np.uint64(regs[_STAMP])
    tag = (k2 & ~np.uint64(_STAMP_MASK)) | stamp
    mask = (len(table) >> 1) - 1
    start = np.int64(k1 >> np.uint64(shift))
    for probe in range(PROBE_WINDOW):
        i = ((start + probe) & mask) << 1
        second = table[i + 1]
        if second == tag and table[i] == k1:
            return True
        if (second & np.uint64(_STAMP_MASK)) != stamp:
            table[i] = k1
            table[i + 1] = tag
            regs[_STORED] += 1
            return False
    i = ((start + np.int64(k2 >> np.uint64(61))) & mask) << 1
    table[i] = k1
    table[i + 1] = tag
    return False


@kernel
def _rehash(old, new, shift, stamp):
    """Copy this search's entries of ``old`` into the larger ``new``; return their number."""
    mask = (len(new) >> 1) - 1
    s = np.uint64(stamp)
    low = np.uint64(_STAMP_MASK)
    stored = 0
    for j in range(0, len(old), 2):
        a, b = old[j], old[j + 1]
        if (b & low) != s:
            continue
        start = np.int64(a >> np.uint64(shift))
        for probe in range(len(new) >> 1):
            i = ((start + probe) & mask) << 1
            if (new[i + 1] & low) != s:
                new[i] = a
                new[i + 1] = b
                stored += 1
                break
    return stored


@inner_kernel
def _walk_exists(counts, bottoms, found, m, edges, end_ok):
    """True if a walk from rank ``found`` (steps of one rank on the cycle of ``m`` ranks)
    can visit each rank ``r`` exactly ``counts[r]`` times and end on a rank with
    ``bottoms[r] > 0`` and ``end_ok[r]`` (FACTS.md, fact 12, "Rank walk")."""
    for end in range(m):
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
                    return True
    return False


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
    for step in range(m):
        k = (first_gap + 1 + step) % m
        if counts[k] > 0 or k == found:
            if visited_arc < 0:
                visited_arc = arc
            elif visited_arc != arc:
                return False
        e = edges[k] - x if k % 2 == 0 else edges[k] + x
        if e == 0:
            arc += 1
    return True


@inner_kernel
def _generate(depth, game, heights, counts, found, stack, work, lone):
    """Store the moves worth trying at ``depth`` (fan numbers), best first; return their
    number. ``game`` is (ranks_of, stride, adj), ``stack`` is (moves, nmoves, index) and
    ``work`` is scratch: one slot a rank, then one a fan."""
    ranks_of, stride, adj = game
    moves, nmoves, index = stack
    m = len(counts)
    best = work[:m]
    scores = work[m:]
    fan_count = len(heights)
    base = depth * fan_count
    if lone:
        # best[r]: the fan kept for rank r among lone cards: -1 if a taller fan plays r.
        for r in range(len(best)):
            best[r] = -2
        for fan in range(fan_count):
            h = heights[fan]
            if h > 0:
                r = ranks_of[fan * stride + h - 1]
                if adj[found, r]:
                    if h > 1:
                        best[r] = -1
                    elif best[r] == -2:
                        best[r] = fan
    n = 0
    for fan in range(fan_count):
        h = heights[fan]
        if h == 0:
            continue
        r = ranks_of[fan * stride + h - 1]
        if not adj[found, r]:
            continue
        if lone and h == 1 and best[r] != fan:
            continue
        # Insertion sort, best first: more cards of the card's rank left, then taller fan.
        score = counts[r] * 64 + h
        j = n
        while j > 0 and scores[j - 1] < score:
            moves[base + j] = moves[base + j - 1]
            scores[j] = scores[j - 1]
            j -= 1
        moves[base + j] = fan
        scores[j] = score
        n += 1
    nmoves[depth] = n
    index[depth] = 0
    return n


@kernel
def _run(
    ranks_of,
    stride,
    adj,
    heights,
    counts,
    bottoms,
    zfan,
    zfound,
    moves,
    nmoves,
    index,
    prev_found,
    regs,
    key,
    table,
    shift,
    grow_at,
    budget,
    prune_walk,
    lone,
    scratch,
    goal,
):
    """Depth-first search until solved, exhausted, ``budget`` nodes, or a table to grow.

    A win needs every card played and, unless ``goal`` is the number of ranks, a last card
    one rank from ``goal``. Resumable: the whole search state lives in the arrays, ``regs``
    and ``key``.
    """
    fan_count = len(heights)
    m = len(counts)
    zs = stride + 1
    game = (ranks_of, stride, adj)
    stack = (moves, nmoves, index)
    z1, z2 = zfan[0], zfan[1]
    f1, f2 = zfound[0], zfound[1]
    if regs[_STARTED] == 0:
        regs[_STARTED] = 1
        regs[_NODES] += 1
        if regs[_LEFT] == 0:
            return FOUND
        _visit(table, shift, key[0], key[1], regs)
        found = regs[_FOUND]
        if (
            prune_walk
            and found < m
            and not _walk_exists(counts, bottoms, found, m, scratch, adj[goal])
        ):
            regs[_PRUNED] += 1
            return EXHAUSTED
        if _generate(np.int64(0), game, heights, counts, found, stack, scratch, lone) == 0:
            return EXHAUSTED
    depth = regs[_DEPTH]
    found = regs[_FOUND]
    left = regs[_LEFT]
    nodes = regs[_NODES]
    k1 = key[0]
    k2 = key[1]
    while True:
        if index[depth] >= nmoves[depth]:
            if depth == 0:
                regs[_DEPTH], regs[_FOUND], regs[_LEFT], regs[_NODES] = depth, found, left, nodes
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
            counts[rank] += 1
            if h == 0:
                bottoms[rank] += 1
            heights[fan] = h + 1
            left += 1
            found = back
            index[depth] += 1
            continue
        if nodes >= budget or regs[_STORED] >= grow_at:
            regs[_DEPTH], regs[_FOUND], regs[_LEFT], regs[_NODES] = depth, found, left, nodes
            key[0], key[1] = k1, k2
            return PAUSED if nodes >= budget else TABLE_FULL
        # Play the next move of this node.
        fan = moves[depth * fan_count + index[depth]]
        h = heights[fan] - 1
        rank = ranks_of[fan * stride + h]
        at = fan * zs + h
        k1 += z1[at] - z1[at + 1] + f1[rank] - f1[found]
        k2 += z2[at] - z2[at + 1] + f2[rank] - f2[found]
        heights[fan] = h
        counts[rank] -= 1
        if h == 0:
            bottoms[rank] -= 1
        left -= 1
        prev_found[depth] = found
        back = found
        found = rank
        nodes += 1
        if left == 0 and adj[goal, found]:
            regs[_DEPTH], regs[_FOUND], regs[_LEFT], regs[_NODES] = depth + 1, found, left, nodes
            key[0], key[1] = k1, k2
            regs[_MAX_DEPTH] = max(regs[_MAX_DEPTH], depth + 1)
            return FOUND
        dead = False
        if _visit(table, shift, k1, k2, regs):
            regs[_HITS] += 1
            dead = True
        elif prune_walk and not _walk_exists(counts, bottoms, found, m, scratch, adj[goal]):
            regs[_PRUNED] += 1
            dead = True
        elif _generate(depth + 1, game, heights, counts, found, stack, scratch, lone) == 0:
            dead = True
        if dead:
            k1 += z1[at + 1] - z1[at] + f1[back] - f1[found]
            k2 += z2[at + 1] - z2[at] + f2[back] - f2[found]
            counts[rank] += 1
            if h == 0:
                bottoms[rank] += 1
            heights[fan] = h + 1
            left += 1
            found = back
            index[depth] += 1
        else:
            depth += 1
            regs[_MAX_DEPTH] = max(regs[_MAX_DEPTH], depth)


@njit(cache=True)  # (builds its stack: see kernel.kernel)
def _perft(ranks_of, stride, adj, heights, counts, found, zfan, depth_goal, work, out):
    """Write to ``out`` the keys (first words) of the states reached by every sequence of
    ``depth_goal`` moves of the search's move generator (no reductions); return their
    number, or -1 if ``out`` is too short."""
    fan_count = len(heights)
    zs = stride + 1
    moves = np.zeros((depth_goal + 1) * max(1, fan_count), dtype=np.int64)
    nmoves = np.zeros(depth_goal + 1, dtype=np.int64)
    index = np.zeros(depth_goal + 1, dtype=np.int64)
    prev = np.zeros(depth_goal + 1, dtype=np.int64)
    if depth_goal == 0:
        out[0] = 0
        return 1
    written = 0
    game = (ranks_of, stride, adj)
    stack = (moves, nmoves, index)
    _generate(np.int64(0), game, heights, counts, found, stack, work, False)
    depth = 0
    while depth >= 0:
        if index[depth] >= nmoves[depth]:
            depth -= 1
            if depth >= 0:
                fan = moves[depth * fan_count + index[depth]]
                counts[ranks_of[fan * stride + heights[fan]]] += 1
                heights[fan] += 1
                found = prev[depth]
                index[depth] += 1
            continue
        fan = moves[depth * fan_count + index[depth]]
        heights[fan] -= 1
        prev[depth] = found
        found = ranks_of[fan * stride + heights[fan]]
        counts[found] -= 1
        if depth + 1 == depth_goal:
            key = np.uint64(found)
            for other in range(fan_count):
                key += zfan[0, other * zs + heights[other]]
            if written == len(out):
                return -1
            out[written] = key
            written += 1
            counts[found] += 1
            heights[fan] += 1
            found = prev[depth]
            index[depth] += 1
        else:
            depth += 1
            _generate(depth, game, heights, counts, found, stack, work, False)
    return written


def count_reachable(position: HolePosition, depth: int) -> int:
    """The number of distinct states (fans and foundation rank) the kernel's move generator
    reaches in exactly ``depth`` moves (a perft count, for testing)."""
    enc = _Encoded(position, symmetry=False)
    work = np.zeros(position.ranks + enc.fan_count + 1, dtype=np.int64)
    size = 1024
    while True:
        out = np.zeros(size, dtype=np.uint64)
        written = _perft(
            enc.ranks_of,
            enc.stride,
            enc.adj,
            enc.heights.copy(),
            enc.counts.copy(),
            enc.found,
            enc.zfan,
            depth,
            work,
            out,
        )
        if written >= 0:
            return len(np.unique(out[:written]))
        size *= 4


class _Encoded:
    """A reference position as the kernel's flat arrays."""

    def __init__(self, position: HolePosition, symmetry: bool) -> None:
        m = position.ranks
        piles = position.piles
        self.fan_count = len(piles)
        self.stride = max([1] + [len(p) for p in piles])
        self.ranks_of = np.zeros(self.fan_count * self.stride, dtype=np.int64)
        self.heights = np.array([len(p) for p in piles], dtype=np.int64)
        self.counts = np.zeros(m, dtype=np.int64)
        self.bottoms = np.zeros(m, dtype=np.int64)
        for fan, pile in enumerate(piles):
            for height, card in enumerate(pile):
                self.ranks_of[fan * self.stride + height] = card.rank - 1
                self.counts[card.rank - 1] += 1
            if pile:
                self.bottoms[pile[0].rank - 1] += 1
        self.adj = np.zeros((m + 1, m), dtype=np.bool_)
        for top in range(m):
            for rank in range(m):
                self.adj[top, rank] = ranks_adjacent(top + 1, rank + 1, m)
        self.adj[m, :] = True  # an empty foundation takes any card
        foundation_top = position.foundation_top
        self.found = m if foundation_top is None else foundation_top.rank - 1
        self.left = int(self.heights.sum())
        self._make_keys(piles, m, symmetry)

    def _make_keys(self, piles: list, m: int, symmetry: bool) -> None:
        """Random key parts: one pair per fan content (its ranks bottom up, or the fan and
        height without ``symmetry``) and one per foundation rank (``m``: empty)."""
        zs = self.stride + 1
        contents: dict[tuple, int] = {}
        ids = np.zeros(self.fan_count * zs, dtype=np.int64)
        for fan, pile in enumerate(piles):
            for height in range(len(pile) + 1):
                content = tuple(c.rank for c in pile[:height]) if symmetry else (fan, height)
                ids[fan * zs + height] = contents.setdefault(content, len(contents))
        # (numpy's generator, not the shared splitmix64 stream: the table forgets states
        # when a probe window is full, so other keys would change node counts, not verdicts)
        rng = np.random.default_rng(KEY_SEED)
        parts = rng.integers(0, 2**64, size=(2, len(contents) + m + 1), dtype=np.uint64)
        self.zfan = np.ascontiguousarray(parts[:, ids])
        self.zfound = np.ascontiguousarray(parts[:, len(contents) :])
        mask = 2**64 - 1
        self.key = np.zeros(2, dtype=np.uint64)
        for word in range(2):
            total = int(self.zfound[word, self.found])
            for fan, height in enumerate(self.heights):
                total += int(self.zfan[word, fan * zs + int(height)])
            self.key[word] = total & mask


class _Search:
    """One resumable kernel search (one direction) and its transposition table."""

    def __init__(
        self, position: HolePosition, goal: int | None, prune: set[str], memory: int
    ) -> None:
        self.enc = enc = _Encoded(position, "fan-symmetry" in prune)
        self.walk, self.lone = "rank-walk" in prune, "lone-card" in prune
        self.goal = position.ranks if goal is None else goal
        depth_cap = enc.left + 1
        self.moves = np.zeros(depth_cap * max(1, enc.fan_count), dtype=np.int64)
        self.nmoves = np.zeros(depth_cap, dtype=np.int64)
        self.index = np.zeros(depth_cap, dtype=np.int64)
        self.prev_found = np.zeros(depth_cap, dtype=np.int64)
        self.scratch = np.zeros(position.ranks + enc.fan_count + 1, dtype=np.int64)
        self.regs = np.zeros(_NUM_REGS, dtype=np.int64)
        self.regs[_FOUND], self.regs[_LEFT] = enc.found, enc.left
        self.regs[_STAMP] = _FRESH_STAMP
        self.max_bits = max(INITIAL_TABLE_BITS, max_entries(memory).bit_length() - 1)
        self.bits = INITIAL_TABLE_BITS
        self.table = np.zeros(2 << self.bits, dtype=np.uint64)
        self.code = PAUSED

    @property
    def nodes(self) -> int:
        return int(self.regs[_NODES])

    def advance(self, budget: int) -> int:
        """Search on until ``budget`` nodes in all; return the kernel's last code."""
        enc = self.enc
        while True:
            self.code = _run(
                enc.ranks_of,
                enc.stride,
                enc.adj,
                enc.heights,
                enc.counts,
                enc.bottoms,
                enc.zfan,
                enc.zfound,
                self.moves,
                self.nmoves,
                self.index,
                self.prev_found,
                self.regs,
                enc.key,
                self.table,
                64 - self.bits,
                (1 << (self.bits - 1)) if self.bits < self.max_bits else 1 << 62,
                budget,
                self.walk,
                self.lone,
                self.scratch,
                self.goal,
            )
            if self.code != TABLE_FULL:
                return self.code
            self.bits += 1
            bigger = np.zeros(2 << self.bits, dtype=np.uint64)
            self.regs[_STORED] = _rehash(self.table, bigger, 64 - self.bits, self.regs[_STAMP])
            self.table = bigger

    def fans_played(self) -> list[int]:
        """The fans (0-based) of the winning line found, in playing order."""
        fans = self.enc.fan_count
        return [int(self.moves[d * fans + self.index[d]]) for d in range(int(self.regs[_DEPTH]))]


def reversed_game(position: HolePosition) -> tuple[HolePosition, int | None]:
    """The game played backwards: fans turned upside down, an empty foundation, and the
    0-based rank the last card must neighbour (the foundation's top, if any)."""
    top = position.foundation_top
    backwards = HolePosition([pile[::-1] for pile in position.piles], (), position.ranks)
    return backwards, None if top is None else top.rank - 1


def search(
    position: HolePosition,
    limits: Limits | None = None,
    *,
    prune: tuple[str, ...] | frozenset[str] = PRUNES,
) -> SearchOutcome:
    """Decide ``position`` by exhaustive depth-first search; a SOLVED outcome has a route.

    Args:
        position: the position to search from (not modified).
        limits: node, time and memory budgets (nodes and memory shared by both directions).
        prune: the reductions to use (see the module docstring); all by default.
    """
    limits = limits or Limits()
    chosen = set(prune)
    unknown = chosen - set(PRUNES)
    if unknown:
        raise ValueError(f"unknown prune {sorted(unknown)[0]!r}; known: {', '.join(PRUNES)}")
    two_way = "reverse" in chosen and position.cards_left() > 0
    memory = limits.max_memory // 2 if two_way else limits.max_memory
    searches = [_Search(position, None, chosen, memory)]
    if two_way:
        backwards, goal = reversed_game(position)
        searches.append(_Search(backwards, goal, chosen, memory))
    budget = Budget(limits)
    slice_nodes = FIRST_SLICE_NODES
    while True:
        for direction, current in enumerate(searches):
            nodes = budget.slice(sum(s.nodes for s in searches), slice_nodes)
            if nodes <= 0:
                continue
            code = current.advance(current.nodes + nodes)
            if code == FOUND:
                fans = current.fans_played()
                if direction == 1:
                    fans.reverse()
                route = tuple(Transfer(fan + 1, FOUNDATION) for fan in fans)
                return _outcome(Status.SOLVED, Method.ROUTE_FOUND, route, searches, direction)
            if code == EXHAUSTED:
                return _outcome(Status.UNSOLVABLE, Method.EXHAUSTED, (), searches, direction)
        stopped = budget.stop(sum(s.nodes for s in searches))
        if stopped is not None:
            return _outcome(Status.LIMIT_REACHED, Method.BUDGET, (), searches, None, stopped)
        slice_nodes = min(2 * slice_nodes, SLICE_NODES)


def _outcome(
    status: Status,
    method: Method,
    route: tuple[Move, ...],
    searches: list[_Search],
    direction: int | None,
    stopped: StopReason | None = None,
) -> SearchOutcome:
    regs = [s.regs for s in searches]
    return SearchOutcome(
        status,
        method,
        route,
        nodes=sum(int(r[_NODES]) for r in regs),
        states=sum(int(r[_STORED]) for r in regs),
        max_depth=max(int(r[_MAX_DEPTH]) for r in regs),
        details={
            "decided_by": ("forward", "reverse", "none")[2 if direction is None else direction],
            "pruned": sum(int(r[_PRUNED]) for r in regs),
            "table_hits": sum(int(r[_HITS]) for r in regs),
            "table_bytes": sum(int(s.table.nbytes) for s in searches),
            **({} if stopped is None else {"stopped_by": stopped.value}),
        },
        stopped_by=stopped,
    )


#: The kernels a search calls from Python (compiling them compiles every kernel they call).
SEARCH_KERNELS = (_run,)
