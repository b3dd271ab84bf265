"""Search kernel of Four Leaf Clovers (presets ``thirteen`` and ``thirteen-return``).

The search is an iterative depth-first graph search with an explicit stack over a compact
state, a transposition table of visited states (:mod:`cloversolve.search.table`) and ordered moves.
A deal is first tried by a few short searches with the piles relabelled (same game, different move
order), then by one full search that is exhaustive. Each shortcut rests on a fact argued in
FACTS.md; below is only what this module does with it.

**Search.** Depth-first over the graph of states, with a table of every state entered; a state
met again is skipped (FACTS.md, fact 13). The full search therefore enters every state
reachable from the root at most once (except states the rules below prove lost) and reports
UNSOLVABLE only when none of them is won. A full table stops the search ("limit reached"),
never makes it report a loss. Moves are tried in a fixed order: foundation moves first, then
pile-to-pile moves that uncover the rank the foundation needs (the nearest first), then the
rest, moves that bury the needed rank late, and returns from the foundation last.

**State and key** (FACTS.md, fact 5: suits and pile numbers do not matter). The kernel keeps
the ranks of the piles and the number of cards on the foundation, nothing else. The state key
is the sum, modulo 2**64, of one hash per pile, and a pile's hash depends only on its ranks
from bottom to top (a Zobrist hash: XOR of one random word per (height, rank), passed through
the splitmix64 finaliser so that sums of different piles do not cancel); so positions that
differ only by a renumbering of the piles share one table entry. Two such keys from
independent random words are kept (FACTS.md, fact 13), and the table slot comes from the
first. The route is read off the search path itself, so its pile numbers and cards are those
of the real position.

**A King must lie at the bottom of a pile** (``king_bottom=True``; FACTS.md, fact 1). The
card that completes the foundation has rank :func:`last_rank` (the King for every full deck).
A position where no non-empty pile has a bottom card of that rank is lost: the search reports
such a deal UNSOLVABLE at once (``Method.KING_BOTTOM``, no nodes), and in the search a move
that empties the last such pile is a dead end unless it wins. ``king_bottom=False`` switches
the rule off (tests compare the verdicts).

**Every rank must be uncoverable** (``buried_rank=True``; FACTS.md, fact 6). The kernel
computes fact 6's digging (:func:`_target_exposable`) for every rank with a card on the piles;
with returns (``thirteen-return``) only for the ranks above the foundation's size. It tests
the root (a lost root is reported UNSOLVABLE at once, ``Method.BURIED_RANK``, no nodes) and
every state reached by a foundation move. ``buried_rank=False`` switches the rule off (tests
compare the verdicts).

**Restarts** (``restarts=True``; FACTS.md, fact 7). Depth-first search on these deals is
heavy-tailed: one bad early choice can keep it busy for tens of millions of nodes
(``thirteen`` deal 5463), while another move order wins in a few thousand. So :func:`search`
first runs a fixed portfolio of short searches, each on the piles relabelled by a fixed-seed
permutation (``RESTART_SEED``) and each with a fixed node budget (``RESTART_BUDGETS``), and only
then the full search. A short search that finds a win returns it; one that runs out of budget
proves nothing and is discarded with its table; one that exhausts the whole state graph
within its budget proves the deal lost like the full search. All budgets are fixed numbers, so
the same input always gives the same result and route (unless the time limit stops a search)."""

from __future__ import annotations

import functools
import itertools
from collections.abc import Sequence

import numpy as np

from ...core.notation import FOUNDATION, Move, Place, Transfer
from ...core.verdicts import Method, Status, StopReason
from ...search.common import Limits, SearchOutcome
from ...search.driver import Budget, run_sliced, verdict
from ...search.kernel import FOUND
from ...search.ordering import permutation, zobrist
from ...search.table import MAX_LOAD as TABLE_MAX_LOAD
from ...search.table import fill_stop, grow_within, max_entries, new_table
from .kernels import (
    _CODE,
    _DEPTH,
    _FCOUNT,
    _FND,
    _KEY_SEED,
    _KINGS,
    _LAST,
    _MAX_PILES,
    _MAXDEPTH,
    _N_COUNTERS,
    _NODES,
    _STATES,
    _TABLEAU,
    _UNBOUNDED,
    _generate,
    _load,
    _perft,
    _run,
)
from .rules import ThirteenPosition

# -- tunables -------------------------------------------------------------------------------

#: Node budgets of the short relabelled searches run before the full search. A relabelling
#: that wins usually wins within a few hundred nodes, so many short tries come first.
RESTART_BUDGETS = (1_000,) * 24 + (4_000,) * 12 + (16_000,) * 8 + (64_000,) * 4
#: Seed of the pile permutations used by the restarts (restart ``k`` uses seed + k).
RESTART_SEED = 20_240_613
#: Nodes searched between two checks of the clock.
SLICE_NODES = 1 << 18
#: Table entries of a fresh search. It grows by the rule of :mod:`cloversolve.search.table` within
#: the table's share of ``Limits.max_memory``; when the largest one is full, the search stops
#: (``stopped_by="memory"``).
INITIAL_TABLE_ENTRIES = 1 << 12
#: Depth capacity of a fresh stack (it grows by doubling, within its memory share).
INITIAL_STACK_DEPTH = 256
#: Share of ``Limits.max_memory`` the search stack may use (old and new copy while it
#: grows); the transposition table uses the rest.
STACK_MEMORY_SHARE = 0.25
#: Highest fill (entries per row) of the largest table before the search stops (the rule of
#: :mod:`cloversolve.search.table`).
MAX_LOAD = TABLE_MAX_LOAD


def last_rank(position: ThirteenPosition) -> int:
    """The rank of the card that completes the foundation: the top rank for a full deck."""
    cards = len(position.foundation) + sum(len(pile) for pile in position.piles)
    return (cards - 1) % position.ranks + 1


def has_king_bottom(position: ThirteenPosition) -> bool:
    """True when some non-empty pile has a last-rank card (a King) at its bottom."""
    last = last_rank(position)
    return any(pile and pile[0].rank == last for pile in position.piles)


class _Search:
    """One depth-first search over the piles of ``position`` taken in ``order``."""

    def __init__(
        self,
        position: ThirteenPosition,
        order: Sequence[int],
        *,
        king_bottom: bool,
        buried_rank: bool,
        table_bytes: int,
        max_stack_bytes: int = 2**62,
    ) -> None:
        self.order = order
        piles = [position.piles[i] for i in order]
        cards = len(position.foundation) + sum(len(p) for p in piles)
        self.params = np.array(
            [
                len(piles),
                position.ranks,
                int(position.allow_return),
                int(king_bottom),
                last_rank(position),
                cards,
                int(buried_rank),
            ],
            dtype=np.int64,
        )
        self.grid = np.zeros((len(piles), cards + 1), dtype=np.int8)
        self.lens = np.zeros(len(piles), dtype=np.int64)
        self.hz = np.zeros((2, len(piles)), dtype=np.uint64)
        self.keys = np.zeros(2, dtype=np.uint64)
        self.ctr = np.zeros(_N_COUNTERS, dtype=np.int64)
        self.zob = zobrist(_KEY_SEED, (2, cards + 1, position.ranks + 1))  # zob[key, height, rank]
        for index, pile in enumerate(piles):
            self.grid[index, : len(pile)] = [card.rank for card in pile]
            self.lens[index] = len(pile)
        _load(self.grid, self.lens, self.hz, self.keys, self.zob)
        self.ctr[_FCOUNT] = len(position.foundation)
        self.ctr[_TABLEAU] = cards - len(position.foundation)
        self.ctr[_KINGS] = sum(1 for p in piles if p and p[0].rank == self.params[_LAST])
        self.width = len(piles) * (len(piles) + 1)
        self.moves = np.zeros(INITIAL_STACK_DEPTH * 16 + self.width, dtype=np.int16)
        self.frames = np.zeros((INITIAL_STACK_DEPTH, 3), dtype=np.int64)
        self.work = (
            np.zeros(self.width, dtype=np.int64),
            np.zeros(len(piles), dtype=np.int64),
            np.zeros(position.ranks + 1, dtype=np.int64),
        )
        self.table_bytes = table_bytes
        self.max_entries = max_entries(table_bytes)
        self.max_stack_bytes = max_stack_bytes
        self.table = new_table(min(INITIAL_TABLE_ENTRIES, self.max_entries))

    @property
    def nodes(self) -> int:
        return int(self.ctr[_NODES])

    @property
    def states(self) -> int:
        return int(self.ctr[_STATES])

    @property
    def max_depth(self) -> int:
        return int(self.ctr[_MAXDEPTH])

    def step(self, node_stop: int) -> int:
        """Run the kernel until ``node_stop`` nodes in all at most (see :func:`_run`)."""
        return int(
            _run(
                self.params,
                self.grid,
                self.lens,
                self.hz,
                self.keys,
                self.ctr,
                self.zob,
                self.moves,
                self.frames,
                self.table,
                self.work,
                node_stop,
                fill_stop(self.table.shape[0], self.max_entries),
            )
        )

    def grow_table(self) -> bool:
        bigger = grow_within(self.table, self.table_bytes)
        if bigger is None:
            return False
        self.table = bigger
        return True

    def run(self, node_budget: int, deadline: float | None) -> tuple[int, StopReason | None]:
        """Search until decided or a budget stops it: the kernel's last code (:data:`FOUND`
        or :data:`EXHAUSTED` when decided) and the budget that stopped it, if any."""
        # (slices only so that the clock is looked at: without one, a single slice)
        slices = itertools.repeat(node_budget if deadline is None else SLICE_NODES)
        return run_sliced(self, node_budget, deadline, slices)

    def grow_stack(self) -> bool:
        """Double the part of the stack that is full; False if that would pass its bound."""
        moves, frames = self.moves, self.frames
        depth = int(self.ctr[_DEPTH])
        if depth + 2 >= frames.shape[0]:
            frames = np.zeros((2 * frames.shape[0], 3), dtype=np.int64)
            frames[: self.frames.shape[0]] = self.frames
        if self.frames[depth, 0] + self.frames[depth, 1] + self.width > moves.shape[0]:
            moves = np.zeros(2 * moves.shape[0], dtype=np.int16)
            moves[: self.moves.shape[0]] = self.moves
        old_bytes = self.moves.nbytes + self.frames.nbytes
        if old_bytes + moves.nbytes + frames.nbytes > self.max_stack_bytes:
            return False  # (both copies exist while the stack grows)
        self.moves, self.frames = moves, frames
        return True

    def route(self) -> tuple[Move, ...]:
        """The moves from the root to the win, with the position's own pile numbers."""
        frames = self.frames[: int(self.ctr[_DEPTH]) + 1]
        codes = self.moves[frames[:, 0] + frames[:, 2] - 1]
        transfers = _transfers(tuple(self.order))
        return tuple(transfers[code] for code in codes.tolist())

    def transfer(self, code: int) -> Transfer:
        """The move a kernel move code stands for, with the position's own pile numbers."""
        return _transfers(tuple(self.order))[code]


@functools.lru_cache(maxsize=64)
def _transfers(order: tuple[int, ...]) -> dict[int, Transfer]:
    """The move of each kernel move code when the kernel's piles are the position's piles
    taken in ``order`` (made once per order: a solve's orders come from a fixed portfolio)."""
    places: dict[int, Place] = {index: pile + 1 for index, pile in enumerate(order)}
    places[_FND] = FOUNDATION
    return {
        src * _CODE + dst: Transfer(places[src], places[dst])
        for src in places
        for dst in places
        if src != dst
    }


def state_key(position: ThirteenPosition) -> tuple[int, int]:
    """The two 64-bit table keys of ``position`` (equal for positions that differ only in
    suits or in the numbering of the piles)."""
    run = _Search(
        position, range(len(position.piles)), king_bottom=False, buried_rank=False, table_bytes=0
    )
    return int(run.keys[0]), int(run.keys[1])


def legal_moves(position: ThirteenPosition) -> list[Move]:
    """The kernel's legal moves of ``position`` in its search order (for tests)."""
    run = _Search(
        position, range(len(position.piles)), king_bottom=False, buried_rank=False, table_bytes=0
    )
    scores = np.empty(run.width, dtype=np.int64)
    count = _generate(run.params, run.grid, run.lens, run.ctr, run.moves, scores)
    return [run.transfer(int(code)) for code in run.moves[:count]]


def perft(position: ThirteenPosition, depth: int) -> int:
    """The number of move sequences of length ``depth`` by the kernel's move generator."""
    run = _Search(
        position, range(len(position.piles)), king_bottom=False, buried_rank=False, table_bytes=0
    )
    return int(_perft(run.params, run.grid, run.lens, run.hz, run.keys, run.ctr, run.zob, depth))


@functools.lru_cache(maxsize=64)
def _portfolio(piles: int, restarts: bool) -> tuple[tuple[Sequence[int], int | None, str], ...]:
    """Every search to run, in order: (pile order, node budget or None, label); made once
    per pile count."""
    plan: list[tuple[Sequence[int], int | None, str]] = []
    if restarts:
        for index, budget in enumerate(RESTART_BUDGETS):
            order = permutation(piles, RESTART_SEED + index)
            plan.append((order, budget, f"restart {index + 1}"))
    plan.append((range(piles), None, "full"))
    return tuple(plan)


class _Tally:
    """Counters summed over the searches of one call, and the outcome built from them."""

    def __init__(self) -> None:
        self.counters: list[np.ndarray] = []
        self.restarts = 0

    @property
    def nodes(self) -> int:
        return sum(int(counters[_NODES]) for counters in self.counters)

    def add(self, run: _Search, label: str) -> None:
        self.counters.append(run.ctr)
        self.restarts += label != "full"

    def outcome(
        self,
        status: Status,
        method: Method,
        route: tuple[Move, ...] = (),
        stopped: StopReason | None = None,
        **details: str,
    ) -> SearchOutcome:
        return verdict(
            status, method, self.counters, route, {"restarts": self.restarts, **details}, stopped
        )


def search(
    position: ThirteenPosition,
    limits: Limits | None = None,
    *,
    king_bottom: bool = True,
    buried_rank: bool = True,
    restarts: bool = True,
) -> SearchOutcome:
    """Decide ``position``: a winning route, a proof that none exists, or a budget stop.

    Args:
        position: the position to search (not modified).
        limits: node budget (over all restarts and the full search), time limit, and the
            memory bound of the transposition table.
        king_bottom: use the King-bottom condition (root test and in-search cut).
        buried_rank: use the buried-rank rule (at the root and after foundation moves).
        restarts: run the portfolio of short relabelled searches before the full one.

    Returns:
        A :class:`SearchOutcome`; its route uses the position's pile numbers and replays to
        a win in the reference engine. ``details`` holds ``restarts`` (short searches run),
        ``decided_by`` (``restart k`` or ``full``) once decided by a search, and
        ``stopped_by`` (``nodes``, ``time`` or ``memory``) when a budget stopped it.
    """
    limits = limits or Limits()
    if len(position.piles) > _MAX_PILES:
        raise ValueError(f"at most {_MAX_PILES} piles are supported, got {len(position.piles)}")
    tally = _Tally()
    if position.is_won():
        return tally.outcome(Status.SOLVED, Method.ROUTE_FOUND)
    if king_bottom and not has_king_bottom(position):
        return tally.outcome(Status.UNSOLVABLE, Method.KING_BOTTOM)
    deadline = Budget(limits).deadline
    stack_bytes = int(limits.max_memory * STACK_MEMORY_SHARE)
    table_bytes = limits.max_memory - stack_bytes
    for order, budget, label in _portfolio(len(position.piles), restarts):
        if limits.max_nodes is not None:
            left = limits.max_nodes - tally.nodes
            if left <= 0:
                return tally.outcome(Status.LIMIT_REACHED, Method.BUDGET, (), StopReason.NODES)
            budget = left if budget is None else min(budget, left)
        run = _Search(
            position,
            order,
            king_bottom=king_bottom,
            buried_rank=buried_rank,
            table_bytes=table_bytes,
            max_stack_bytes=stack_bytes,
        )
        code, stopped = run.run(_UNBOUNDED if budget is None else budget, deadline)
        tally.add(run, label)
        if stopped is StopReason.NODES and label != "full":
            del run  # (a discarded restart's table goes before the next one is made)
            continue
        if stopped is not None:
            return tally.outcome(Status.LIMIT_REACHED, Method.BUDGET, (), stopped)
        if code == FOUND:
            return tally.outcome(Status.SOLVED, Method.ROUTE_FOUND, run.route(), decided_by=label)
        if run.states == 0:  # lost at the root: no state stored
            return tally.outcome(Status.UNSOLVABLE, Method.BURIED_RANK)
        return tally.outcome(Status.UNSOLVABLE, Method.EXHAUSTED, decided_by=label)
    raise AssertionError("the full search always ends the portfolio")


#: The kernels a search calls from Python (compiling them compiles every kernel they call).
SEARCH_KERNELS = (
    _load,
    _run,
)
