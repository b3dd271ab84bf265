"""Search kernel for the ``hole`` family (Black Hole, All in a Row).

The facts this search rests on (the state, the reversed game, rank walks, lone cards and fan
order) are argued in FACTS.md, fact 12; below is only what this module does with them.

A position is the number of cards left in each fan plus the foundation's top rank, so the
kernel works on fan heights, the rank counts and the foundation rank, all flat ``int64``
arrays. The search is an iterative depth-first search with an explicit stack; the game graph
has no cycles, so a state met again is skipped. States are identified by a 128-bit key (two
64-bit words) updated incrementally on every move: a random pair
(:func:`cloversolve.search.ordering.zobrist`) for each (fan, height) and for each foundation rank,
summed (FACTS.md, fact 13; the table stores and compares the whole key). A state the
rank-walk test prunes, or one without moves, is not stored: meeting it again costs only that
test or the move generator. The moves of a state are generated from bit masks of the fans
whose exposed card has each rank, kept up to date move by move, and the table rows of the
states they lead to are prefetched at once.

The transposition table is the lossy mode of :mod:`cloversolve.search.table`: it starts small
and grows by that module's rule up to the size ``Limits.max_memory`` allows (the two
directions of ``reverse`` share the budget equally); at that size, a new state replaces one of
its probe window (forgetting a state costs time, never correctness). Every search allocates
its own tables and drops them when it ends. The search runs in slices under
:func:`cloversolve.search.driver.run_sliced`.

Reductions (each switchable with the ``prune`` argument of :func:`search`; all are on by
default, and the tests compare verdicts with each one off):

``reverse``
    The reversed game (fans upside down, an empty foundation, a last card one rank from the
    old top) is searched alongside the position, alternating equal node budgets; the first
    verdict decides, and a route of the reversed game read backwards is a route of the
    position. (Unsolvable All in a Row deals need about 2.5 times fewer states this way.)
    The reversed game's search is set up only when its first turn comes: many deals are
    decided within the first turn of the position's.

``rank-walk``
    A state whose cards left admit no rank walk of the foundation (:func:`_walk_exists`),
    ending on the rank of a bottom card (in a reversed game, on one a rank from the required
    last rank), is not expanded. (This contains black-hole-solver's rank reachability prune,
    which checks the connectivity only.) The test's answers are kept in a small cache per
    direction under the exact cards left per rank, bottom cards per rank and foundation rank
    (its only arguments), so the many states that share them are tested once.

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

import functools
import itertools
from collections.abc import Callable, Sequence

import numpy as np

from ...core.notation import FOUNDATION, Move, Transfer
from ...core.verdicts import Method, Status, StopReason
from ...search.common import MAX_NODES, Limits, SearchOutcome
from ...search.driver import Budget, doubling, run_sliced, verdict
from ...search.kernel import (
    EXHAUSTED,
    PAUSED,
    TABLE_FULL,
)
from ...search.ordering import zobrist
from ...search.table import fill_stop, grow_within, max_entries, new_table
from .kernels import (
    _DEPTH,
    _FOUND,
    _HITS,
    _LEFT,
    _NODES,
    _NUM_REGS,
    _PRUNED,
    MASK_FANS,
    WALK_CACHE_COUNT,
    WALK_CACHE_ENTRIES,
    WALK_CACHE_RANKS,
    _perft,
    _root_moves,
    _run,
)
from .rules import HolePosition, ranks_adjacent

#: Reductions :func:`search` knows (see the module docstring).
PRUNES = ("rank-walk", "lone-card", "fan-symmetry", "reverse")
#: Nodes of the first slice of each direction and the most of any; the clock is looked at
#: between slices, whose sizes double from the first to the most.
FIRST_SLICE_NODES = 1 << 12
SLICE_NODES = 1 << 18
#: Entries of a fresh table; it grows by the rule of :mod:`cloversolve.search.table`.
INITIAL_TABLE_ENTRIES = 1 << 14
#: Seed of the random key parts (fixed: searches are deterministic).
KEY_SEED = 20240611


def _run_perft(position: HolePosition, depth: int, out: np.ndarray) -> int:
    enc = _Encoded(position, symmetry=False)
    return int(
        _perft(
            enc.game, enc.heights, enc.counts, enc.tops, enc.found, enc.zfan, depth, enc.work(), out
        )
    )


def perft(position: HolePosition, depth: int) -> int:
    """Number of move sequences of length ``depth`` from ``position``, counted with the
    kernel's move generator (no reductions)."""
    return _run_perft(position, depth, np.zeros(0, dtype=np.uint64))


def count_reachable(position: HolePosition, depth: int) -> int:
    """The number of distinct states (fans and foundation rank) the kernel's move generator
    reaches in exactly ``depth`` moves (a perft count of states, for testing)."""
    size = 1024
    while True:
        out = np.zeros(size, dtype=np.uint64)
        written = _run_perft(position, depth, out)
        if written >= 0:
            return len(np.unique(out[:written]))
        size *= 4


def legal_moves(position: HolePosition) -> list[Transfer]:
    """The kernel's moves of ``position`` (no reductions), in its search order."""
    enc = _Encoded(position, symmetry=False)
    moves = np.zeros(max(1, enc.fan_count), dtype=np.int64)
    nmoves, index = np.zeros(1, dtype=np.int64), np.zeros(1, dtype=np.int64)
    n = _root_moves(
        enc.game, enc.heights, enc.counts, enc.tops, enc.found, moves, nmoves, index, enc.work()
    )
    return [Transfer(int(fan) + 1, FOUNDATION) for fan in moves[:n]]


def state_key(position: HolePosition) -> tuple[int, int]:
    """The search's 128-bit key of ``position`` (equal for positions whose fans hold the same
    rank sequences in some order, under the same foundation rank)."""
    enc = _Encoded(position, symmetry=True)
    return int(enc.key[0]), int(enc.key[1])


@functools.lru_cache(maxsize=8)
def _adjacency(ranks: int) -> np.ndarray:
    """``adj[top, rank]``: a card of 0-based ``rank`` goes on a foundation whose top is of
    rank ``top`` (row ``ranks``: an empty foundation, which takes any card); read-only."""
    adj = np.zeros((ranks + 1, ranks), dtype=np.bool_)
    for top in range(ranks):
        for rank in range(ranks):
            adj[top, rank] = ranks_adjacent(top + 1, rank + 1, ranks)
    adj[ranks, :] = True
    adj.setflags(write=False)
    return adj


@functools.lru_cache(maxsize=8)
def _neighbours(ranks: int) -> np.ndarray:
    """``near[top, 0]``: how many ranks go on a foundation whose top is of rank ``top`` (row
    ``ranks``: an empty foundation), and ``near[top, 1:]`` those ranks; read-only."""
    adj = _adjacency(ranks)
    near = np.zeros((ranks + 1, ranks + 1), dtype=np.int64)
    for top in range(ranks + 1):
        fitting = np.flatnonzero(adj[top])
        near[top, 0] = len(fitting)
        near[top, 1 : 1 + len(fitting)] = fitting
    near.setflags(write=False)
    return near


class _Encoded:
    """A reference position as the kernel's flat arrays (``backwards``: its reversed game,
    :func:`reversed_game`)."""

    def __init__(self, position: HolePosition, symmetry: bool, backwards: bool = False) -> None:
        m = position.ranks
        rows = [[card.rank - 1 for card in pile] for pile in position.piles]
        if backwards:
            for row in rows:
                row.reverse()
        self.ranks = m
        self.fan_count = fan_count = len(rows)
        lengths = [len(row) for row in rows]
        self.stride = stride = max(1, *lengths) if rows else 1
        flat = [0] * (fan_count * stride)
        counts, bottoms = [0] * m, [0] * m
        for fan, row in enumerate(rows):
            if row:
                flat[fan * stride : fan * stride + len(row)] = row
                for rank in row:
                    counts[rank] += 1
                bottoms[row[0]] += 1
        self.ranks_of = np.array(flat, dtype=np.int64)
        self.heights = np.array(lengths, dtype=np.int64)
        self.counts = np.array(counts, dtype=np.int64)
        self.bottoms = np.array(bottoms, dtype=np.int64)
        self.most_of_a_rank = max(counts)
        self.game = (self.ranks_of, stride, _adjacency(m), _neighbours(m))
        self.tops = self._exposed_masks(rows, m)
        foundation_top = None if backwards else position.foundation_top
        self.found = m if foundation_top is None else foundation_top.rank - 1
        self.left = sum(lengths)
        self._make_keys(rows, lengths, m, symmetry)

    def _exposed_masks(self, rows: list[list[int]], m: int) -> np.ndarray:
        """The move generator's masks (``kernels._generate``): per rank, the fans whose
        exposed card has it, then the fans of one card; none beyond ``MASK_FANS`` fans."""
        if self.fan_count > MASK_FANS:
            return np.zeros(0, dtype=np.int64)
        tops = [0] * (m + 1)
        for fan, row in enumerate(rows):
            if row:
                tops[row[-1]] |= 1 << fan
            if len(row) == 1:
                tops[m] |= 1 << fan
        return np.array(tops, dtype=np.int64)

    def work(self) -> np.ndarray:
        """Scratch of the move generator and the rank-walk test: one slot a rank, then one a
        fan, one spare, and the rank-walk test's last end rank."""
        return np.zeros(self.ranks + self.fan_count + 2, dtype=np.int64)

    def _make_keys(self, rows: list[list[int]], lengths: list[int], m: int, symmetry: bool) -> None:
        """Random key parts: one pair per fan content (its ranks bottom up, or the fan and
        height without ``symmetry``) and one per foundation rank (``m``: empty)."""
        zs = self.stride + 1
        # A content is numbered in order of first appearance; with ``symmetry`` it is named
        # by the number of the content one card shorter and its top rank (the empty fan: 0).
        ids = [0] * (self.fan_count * zs)
        if symmetry:
            contents: dict[tuple[int, int], int] = {}
            count = 1
            for fan, row in enumerate(rows):
                content = 0
                at = fan * zs
                for rank in row:
                    at += 1
                    name = (content, rank)
                    content = contents.get(name, count)
                    if content == count:
                        contents[name] = count
                        count += 1
                    ids[at] = content
        else:
            count = 0
            for fan, length in enumerate(lengths):
                at = fan * zs
                ids[at : at + length + 1] = range(count, count + length + 1)
                count += length + 1
        # (a power-of-two count of parts, so that few shapes are ever made)
        needed = count + m + 1
        parts = zobrist(KEY_SEED, (2, 1 << (needed - 1).bit_length()))
        # (take and add.reduce: a fraction of the time of indexing with lists and sum; the
        # parts in Fortran order, so a (fan, height)'s two words share a cache line)
        self.zfan = parts.T.take(np.array(ids, dtype=np.intp), axis=0).T
        self.zfound = parts[:, count:needed].copy()
        tops = np.array([fan * zs + length for fan, length in enumerate(lengths)], dtype=np.intp)
        self.key = self.zfound[:, self.found] + np.add.reduce(self.zfan.take(tops, axis=1), axis=1)


class _Direction:
    """One resumable kernel search (the position or its reversed game) and its table."""

    def __init__(
        self, position: HolePosition, backwards: bool, prune: set[str], memory: int
    ) -> None:
        self.enc = enc = _Encoded(position, "fan-symmetry" in prune, backwards)
        self.walk, self.lone = "rank-walk" in prune, "lone-card" in prune
        # (the reversed game's last card goes one rank from the position's foundation top)
        top = position.foundation_top if backwards else None
        self.goal = position.ranks if top is None else top.rank - 1
        packable = enc.ranks <= WALK_CACHE_RANKS and enc.most_of_a_rank <= WALK_CACHE_COUNT
        rows = WALK_CACHE_ENTRIES if self.walk and packable else 0
        self.walk_cache = np.zeros((rows, 2), dtype=np.int64)
        depth_cap = enc.left + 1
        self.stack = (
            np.zeros(depth_cap * max(1, enc.fan_count), dtype=np.int64),  # moves
            np.zeros(depth_cap, dtype=np.int64),  # nmoves
            np.zeros(depth_cap, dtype=np.int64),  # index
            np.zeros(depth_cap, dtype=np.int64),  # prev_found
            enc.work(),
        )
        self.position = (enc.heights, enc.counts, enc.bottoms, enc.key, enc.tops)
        self.keys = (enc.zfan, enc.zfound)
        self.regs = np.zeros(_NUM_REGS, dtype=np.int64)
        self.regs[_FOUND], self.regs[_LEFT] = enc.found, enc.left
        self.memory = memory
        self.max_entries = max_entries(memory)
        self.table = new_table(min(INITIAL_TABLE_ENTRIES, self.max_entries))

    @property
    def nodes(self) -> int:
        return int(self.regs[_NODES])

    def step(self, node_stop: int) -> int:
        """Search on until ``node_stop`` nodes of this direction at most (see :func:`_run`)."""
        return int(
            _run(  # type: ignore[call-arg]
                self.enc.game,
                self.keys,
                self.position,
                self.stack,
                self.regs,
                self.table,
                fill_stop(self.table.shape[0], self.max_entries, True),
                node_stop,
                self.walk,
                self.lone,
                self.goal,
                self.walk_cache,
            )
        )

    def grow_table(self) -> bool:
        """Double the table within the memory rule (the kernel asks only below its largest
        size, which is that rule's)."""
        bigger = grow_within(self.table, self.memory)
        if bigger is None:
            return False
        self.table = bigger
        return True

    def fans_played(self) -> list[int]:
        """The fans (0-based) of the winning line found, in playing order."""
        moves, _, index = self.stack[:3]
        depth = int(self.regs[_DEPTH])
        return moves[np.arange(depth) * self.enc.fan_count + index[:depth]].tolist()


class _Alternating:
    """The searches of the position and of its reversed game as one resumable search for
    :func:`cloversolve.search.driver.run_sliced`: the directions take turns, each turn a
    slice of nodes of the direction's own doubling sequence (a turn interrupted by a table
    to grow goes on to the same stop), so both directions get equal node budgets; the
    driver's own slices only bring in the search's node budget. A direction is built when
    its first turn comes (many deals are decided within the first)."""

    def __init__(self, makers: Sequence[Callable[[], _Direction]]) -> None:
        self.makers = makers
        self.built: list[_Direction | None] = [None] * len(makers)
        self.turn = 0
        self.sizes = [doubling(FIRST_SLICE_NODES, SLICE_NODES) for _ in makers]
        self.turn_stop: int | None = None

    @property
    def directions(self) -> list[_Direction]:
        """The directions built so far."""
        return [direction for direction in self.built if direction is not None]

    @property
    def nodes(self) -> int:
        return sum(direction.nodes for direction in self.directions)

    def current(self) -> _Direction:
        """The direction whose turn it is (built now if this is its first turn)."""
        direction = self.built[self.turn]
        if direction is None:
            direction = self.built[self.turn] = self.makers[self.turn]()
        return direction

    def step(self, node_stop: int) -> int:
        current = self.current()
        if self.turn_stop is None:
            self.turn_stop = current.nodes + next(self.sizes[self.turn])
        code = current.step(min(self.turn_stop, current.nodes + node_stop - self.nodes))
        if code != TABLE_FULL:
            self.turn_stop = None
        if code == PAUSED:
            self.turn = (self.turn + 1) % len(self.makers)
        return code

    def grow_table(self) -> bool:
        return self.current().grow_table()

    def grow_stack(self) -> bool:
        return False  # (each stack holds the longest line from the start)


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
    makers = [functools.partial(_Direction, position, False, chosen, memory)]
    if two_way:  # (the reversed game, read from the position: see reversed_game)
        makers.append(functools.partial(_Direction, position, True, chosen, memory))
    both = _Alternating(makers)
    # (the turns size the slices: the driver's slice ends only at the node budget)
    slices = itertools.repeat(MAX_NODES)
    code, stopped = run_sliced(both, limits.max_nodes, Budget(limits).deadline, slices)
    directions = both.directions
    if stopped is not None:
        return _outcome(Status.LIMIT_REACHED, Method.BUDGET, (), directions, None, stopped)
    decider = both.turn
    if code == EXHAUSTED:
        return _outcome(Status.UNSOLVABLE, Method.EXHAUSTED, (), directions, decider)
    fans = both.current().fans_played()
    if decider == 1:
        fans.reverse()
    plays = [Transfer(fan + 1, FOUNDATION) for fan in range(len(position.piles))]
    route = tuple([plays[fan] for fan in fans])
    return _outcome(Status.SOLVED, Method.ROUTE_FOUND, route, directions, decider)


def _outcome(
    status: Status,
    method: Method,
    route: tuple[Move, ...],
    directions: list[_Direction],
    decider: int | None,
    stopped: StopReason | None = None,
) -> SearchOutcome:
    regs = [d.regs for d in directions]
    details: dict[str, int | float | str] = {
        "decided_by": ("forward", "reverse", "none")[2 if decider is None else decider],
        "pruned": sum(int(r[_PRUNED]) for r in regs),
        "table_hits": sum(int(r[_HITS]) for r in regs),
        "table_bytes": sum(int(d.table.nbytes) for d in directions),
    }
    return verdict(status, method, regs, route, details, stopped)


#: The kernels a search calls from Python (compiling them compiles every kernel they call).
SEARCH_KERNELS = (_run,)
