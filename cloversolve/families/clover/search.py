"""Depth-first search for the clover family (``cloverleaf``, ``alexander``).

The kernel is an iterative depth-first search over *player* moves with an explicit stack; each
move is followed by the automatic moves, exactly as :class:`~cloversolve.families.clover.rules.
CloverPosition` plays them. Visited positions go into a transposition table of 128-bit keys
(:mod:`cloversolve.search.table`). The kernels are in :mod:`.kernels`, a position's flat arrays and
one pausable run in :mod:`.runs`, the board primitives and the move generator in
:mod:`.moves`, the move ordering in :mod:`.order`, the dead-end test in
:mod:`.dead_ends` and the in-search projections in :mod:`.projection`. Every
shortcut rests on a fact argued in FACTS.md; below is only what this module does with it.

Encoding. Card ``16 * suit + rank - 1`` with suits in foundation order C, D, H, S (so the
suit and rank of a card are a shift and a mask away). A move is
``source << 8 | target``: sources ``0..N-1`` are fans and ``N + s`` the foundation of suit ``s``;
targets ``0..N-1`` are fans and ``N + s`` is the foundation of suit ``s``.

Fan order (FACTS.md, fact 8). The key of a position is
``sum over fans of mix(fan_hash) + sum over suits of Z[suit, height]`` (mod 2**64), where
``fan_hash`` is the XOR of ``Z[depth, card]`` over the fan's cards and ``mix`` is the splitmix64
finaliser (a bijection, so the sum has no XOR-linear coincidences). The sum does not depend on
which fan holds which content, so positions that differ by a permutation of the fans share one
table entry. Two such keys from separate random tables are kept (FACTS.md, fact 13). The move
generator tries an empty fan as a target once (the lowest-numbered one) and never moves a fan's
only card to an empty fan.

Foundation returns (FACTS.md, fact 3: returns are never needed). Call a position *settled*
when no fan top card is the card its foundation accepts next. Dealt positions, and positions
after any player move that is not a return, are settled: the automatic moves ran with nothing
exempt. By default the kernel generates returns only in positions that are not settled (only a
searched root and positions reached from it by returns can be one); ``foundation_returns=True``
generates them everywhere.

Dead ends (``dead_ends=True``; FACTS.md, fact 9). Before expanding a settled position the
kernel computes the least set of cards that may ever move (:mod:`.dead_ends`); if some
card on a fan cannot even become a top card, the position is lost and is not expanded.
Positions that are not settled are never cut.

Suit projections (``projections=True``; FACTS.md, fact 4). A position is lost when one of its
projections onto a set of suits is lost. The search uses this three times:

- at the root, the six two-suit projections are searched as ordinary runs of this module (no
  projections of their own), in rounds of growing node budgets (``ROOT_PROJECTION_ROUNDS``; a
  projection won or lost in a round is not searched again), within
  ``ROOT_PROJECTION_SHARE`` of the node budget and of the time limit. One that is exhausted
  proves the deal lost: the verdict's method is ``SUIT_PROJECTION`` and
  ``details["projection_suits"]`` names the suits;
- when the main search has not decided within ``MAIN_FIRST_NODES`` nodes, the four
  three-suit projections of the root (``TRIPLES``) are searched beside it, as searches with
  in-search projections of their own (a three-suit game can be lost when every two-suit one
  is won, and its two-suit projections cut its search as they cut the main one). Each first
  gets ``TRIPLE_FIRST_NODES`` nodes; after that, each segment of the main search between
  two restarts is followed by ``TRIPLE_NODES_PER_MAIN_NODE`` nodes per node of the segment
  for the projections still open, shared equally, a rate doubled each time the main
  search's nodes double from ``TRIPLE_BOOST_NODES`` on (:func:`_triple_rate`). Their runs
  are resumed, not started again, so none of their work is lost; a won one is closed, a lost
  one proves the deal lost. A deal whose three-suit projection is lost after millions of
  nodes is decided in little more than that projection's nodes (``cloverleaf`` 389295 and
  506438, lost in projections of 2.9 and 2.5 million nodes, took 5.8 and 5.1 million in all
  with the rate kept at one, 3.4 and 3.0 million with it doubling from 62,500); a deal
  that the main search decides late pays more for the projections still open (those of a
  solvable deal can all be won, and each is closed once it is). Their arrays take at most
  ``1 / TRIPLE_MEMORY_SHARE`` of the memory, and are freed when the main search needs
  the room;
- in the search, every position the kernel expands (and does not cut as a dead end) has its
  two-suit projections searched by a kernel search within a node budget each
  (:mod:`.projection`); a lost one cuts the position like a dead end. A projection
  changes only when a card of its suits moves, so only those holding a suit that moved since
  the parent are looked at. Outcomes are cached by the projection's own fan-order-free key,
  lost ones in one cache and the others in another, and every state of a projection search
  that ends without a win goes into the lost cache too (FACTS.md, fact 15), so later
  projection searches skip it; every state on the path of a won one goes into a won cache,
  and a later projection search that reaches one has won. The budget starts at
  ``NODE_PROJECTION_NODES`` and doubles (up to ``clover_projection.MAX_NODE_BUDGET``) where
  searches stopped by it take most of the projections' work; the projections it left open
  are then searched again, and each run starts again from its root as a restart does, so
  the positions near the root, expanded with the smaller budget, get the larger one. On the
  ``cloverleaf`` deals 195287, 312952, 489344 and 584005 (undecided at 10 s with a fixed
  budget of 30,000 nodes, most of it spent in projection searches that stopped undecided),
  this decides each in under 4 s; 385741 is proved lost in 4 s.

The three-suit projections of positions inside the search are not searched. Tried (from the main
search's 2,000,000th node, after the pairs), they proved ``cloverleaf`` 60640 lost in 6.5 s
instead of 17.7 s, but took 35070 from 9.5 s to 28 s and left 86053 (10.1 s) undecided after
30 s: most of their sub-searches are large and cut nothing. The study of 1..100,000 at 10 s a
deal then left 5 deals undecided where the same code without them left 4.

A projection search that runs out of its budget (or its table or stack) proves nothing and
cuts nothing, so the budgets never affect soundness, only speed. The arrays of the in-search
projections take at most ``1 / PROJECTION_MEMORY_SHARE`` of ``limits.max_memory`` and count
against it; the root projections' runs are freed before the main search starts.

Move ordering (:mod:`.order`). The moves leading to positions already in the table are
dropped; the others are tried best first by the value of the position they lead to: cards home,
minus the weighted number of cards lying above each suit's next four cards, plus the empty fans
(the weights ``_W_*`` there; ties keep the generator's order).

Restarts (``restarts=True``; FACTS.md, fact 14). After its first ``MAIN_FIRST_NODES`` nodes,
the main search restarts from the root after ``RESTART_UNIT_NODES`` times each term of Luby's
sequence (1, 1, 2, 1, 1, 2, 4, ...) in nodes, each time with other ordering weights (drawn from
``RESTART_SEED``). A restart abandons the current path: its states, not finished, are cleared
from the table (:func:`_abandon`), and every other stored state stays, since its search was
finished and it is lost. Nothing searched is searched again but the abandoned path, and a
deal that the first ordering leads astray near the root gets other first moves.

The restarts' weights must make really other orders (:func:`_restart_weights`): each weight
of a buried card and of the empty fans may be negative (a move that buries a suit's next
cards, or fills an empty fan, may come first), and the weight of the cards home ranges from
0 to 2,000, so that it does not always outweigh the rest. With weights all of one sign and a
large weight of the cards home, every restart tried much the same moves first, and the slowest
solvable deals were won only after most of their lost states had been searched: ``cloverleaf``
556507 in 9.1 million nodes with any seed, and as many without restarts. A deal is then won
in the segment of the restart whose weights suit it, at much the same restart whatever the
unit, so a small unit reaches it sooner: 669348 is won at the 14th restart with units of
25,000, 10,000 and 5,000 nodes, after 1,250,000, 530,000 and 290,000 nodes. With units of
5,000 nodes, 556507 takes 45,000 nodes, 133552 75,000 instead of 10.6 million, 35070 50,000
instead of 5.7 million, and 669348 was undecided after 19 million. A deal that must be
searched to the end pays for the paths abandoned and searched again: 60640 is proved lost in
9,560,000 nodes instead of 9,480,000.

Limits: the kernel runs in slices of nodes (growing from 1,024 to 32,768); between slices the
wrapper checks the clock and the node budget. The table grows by the rule of
:mod:`cloversolve.search.table` (rehashing) and when the stack is full the wrapper doubles it, as
long as the old and the new arrays, with the rest of the run's arrays, fit in the run's memory:
``limits.max_memory`` less the in-search projections' share, less the other runs alive beside it
(the main search and the open three-suit projections, whose arrays together take at most ``1 /
TRIPLE_MEMORY_SHARE`` of it). A slice also ends once the in-search projections have searched
``PROJECTION_WORK`` nodes per node of the slice, so the clock is read as often whatever their
budget. Otherwise the search stops with "limit reached". Everything is deterministic: fixed Zobrist
seeds, fixed move order."""

from __future__ import annotations

import itertools
import time
from collections.abc import Iterable

import numpy as np

from ...core.cards import Card
from ...core.notation import Transfer
from ...core.verdicts import FORMER_STOPPED_BY, Method, Status, StopReason
from ...search.common import Limits, SearchOutcome
from ...search.driver import Budget, verdict
from ...search.ordering import splitmix64
from ...search.table import ENTRY_BYTES
from .kernels import _DEAD_ENDS, _ENTRIES, _OPT_PROJECT, _PROJECTED, _perft, _run, _setup
from .moves import _generate
from .order import _WEIGHTS
from .projection import PAIRS, ProjectionWork
from .rules import SUITS, UP_SUITS, CloverPosition
from .runs import _Board, _Run, _zobrist

# The kernel hard-codes suit codes 1 and 2 (D, H) as the foundations that build up.
assert {SUITS[1], SUITS[2]} == UP_SUITS


#: The least memory left beside the main search for the three-suit projections to start.
_MIN_RUN_BYTES = 1024 * ENTRY_BYTES + 256 * 1024


#: Restarts (see the module docstring): the main search runs this many nodes first, ...
MAIN_FIRST_NODES = 25_000
#: ... and later restarts after Luby's sequence times this many nodes.
RESTART_UNIT_NODES = 5_000
#: Seed of the ordering weights of the restarts (restart ``k`` uses seed + k - 1).
RESTART_SEED = 20_261_130


#: Projections (see "Suit projections"): node budgets of the rounds in which the two-suit
#: projections of the root are searched, ...
ROOT_PROJECTION_ROUNDS = (5_000, 2_000_000)
#: ... within this share of the node budget and of the time limit, if there are any; ...
ROOT_PROJECTION_SHARE = 0.5
#: ... and first node budget of each projection searched inside the search (cached): enough
#: to finish most two-suit games, whose state graphs are small (it grows where it is not).
NODE_PROJECTION_NODES = 30_000
#: The four three-suit projections (bit masks of suit codes), searched beside the main search
#: once its first nodes have not decided: each first gets this many nodes, ...
TRIPLES = (0b0111, 0b1011, 0b1101, 0b1110)
TRIPLE_FIRST_NODES = 10_000
#: ... then, after every segment of the main search, the open ones together get this many
#: nodes per node of the segment (shared equally), ...
TRIPLE_NODES_PER_MAIN_NODE = 1
#: ... doubled each time the main search's nodes double from this many on (a deal the main
#: search has not decided by then is more often lost, and a lost projection proves it), ...
TRIPLE_BOOST_NODES = 62_500
#: ... and their arrays take at most this fraction (1/n) of the memory the runs share.
TRIPLE_MEMORY_SHARE = 4


#: The in-search projections' arrays take at most this fraction (1/n) of the memory bound.
PROJECTION_MEMORY_SHARE = 16


class _Triples:
    """The three-suit projections of a position, searched beside its main search: one
    resumable run per projection still open (neither won nor lost), advanced in turns."""

    def __init__(
        self,
        position: CloverPosition,
        options: np.ndarray,
        memory: int,
        work: ProjectionWork,
        runs: list[_Run],
    ) -> None:
        self.memory = memory
        self.open: dict[int, _Run] = {}
        for mask in TRIPLES:
            self.open[mask] = _projection_run(position, mask, options, memory, work, runs)
        #: The run advanced last (its ``limit`` says why it stopped).
        self.last: _Run | None = None

    @property
    def nbytes(self) -> int:
        return sum(run.nbytes for run in self.open.values())

    def advance(
        self, nodes: int, left: int | None, deadline: float | None, beside: int
    ) -> str | None:
        """Give the open projections ``nodes`` more nodes in all, shared equally (within
        ``left`` nodes of the search's budget and the ``deadline``), their arrays within
        ``1 / TRIPLE_MEMORY_SHARE`` of the memory and beside the main search's ``beside``
        bytes. Returns the suits of a projection proved lost, or None; a projection won, or
        stopped by memory, is closed (it proves nothing)."""
        for mask, run in list(self.open.items()):
            share = max(1, nodes // len(self.open))
            if left is not None:
                share = min(share, left)
                if share <= 0:
                    return None
            others = self.nbytes - run.nbytes
            run.max_memory = min(self.memory // TRIPLE_MEMORY_SHARE, self.memory - beside) - others
            before = run.nodes
            run.advance(before + share, deadline)
            self.last = run
            if left is not None:
                left -= run.nodes - before
            if run.exhausted:
                self.close()
                return "".join(SUITS[s] for s in range(4) if mask >> s & 1)
            if run.solved or run.limit is StopReason.MEMORY:
                del self.open[mask]
                run.release()
            if run.limit is StopReason.TIME:
                return None
        return None

    def close(self) -> None:
        """Stop searching the projections (their arrays are freed)."""
        for run in self.open.values():
            run.release()
        self.open.clear()


def _restart_weights(index: int) -> np.ndarray:
    """The ordering weights of restart ``index`` (drawn from ``RESTART_SEED``; see
    "Restarts" in the module docstring for their ranges)."""
    words = splitmix64(RESTART_SEED + index - 1)
    foundation = int(next(words) % 2001)
    buried = (int(next(words) % 101) - 40 for _ in range(4))
    empty = int(next(words) % 121) - 60
    return np.array((foundation, *buried, empty), dtype=np.int64)


def _triple_rate(main_nodes: int) -> int:
    """The three-suit projections' nodes per node of a main segment ending at ``main_nodes``:
    ``TRIPLE_NODES_PER_MAIN_NODE``, doubled for each doubling of the main search's nodes
    from ``TRIPLE_BOOST_NODES`` on."""
    doublings = (main_nodes // TRIPLE_BOOST_NODES).bit_length()
    return TRIPLE_NODES_PER_MAIN_NODE << doublings


def _luby(index: int) -> int:
    """Term ``index`` (from 1) of Luby's sequence 1, 1, 2, 1, 1, 2, 4, 1, 1, 2, ..."""
    while True:
        k = index.bit_length()
        if index == (1 << k) - 1:
            return 1 << (k - 1)
        index -= (1 << (k - 1)) - 1


def search(
    position: CloverPosition,
    limits: Limits | None = None,
    *,
    foundation_returns: bool = False,
    dead_ends: bool = True,
    restarts: bool = True,
    projections: bool = True,
    root_projections: bool = True,
) -> SearchOutcome:
    """Decide whether ``position`` can be won, and find a route if it can.

    Args:
        position: the position to search from (not modified).
        limits: node, time and memory budgets (default: no node or time bound, 512 MiB);
            the node budget counts the nodes of every run (root projections and main search,
            restarts included).
        foundation_returns: also try moves from a foundation back to a fan in settled
            positions (never needed: FACTS.md, fact 3; for verification).
        dead_ends: cut settled positions where some card can provably never move (FACTS.md,
            fact 9); ``False`` for verification.
        restarts: after its first ``MAIN_FIRST_NODES`` nodes, restart the main search
            from the root at the node counts of Luby's sequence, keeping its finished states
            (see "Restarts" in the module docstring).
        projections: search the two-suit projections of the root, and of every position
            the search expands, and the three-suit projections of the root beside the main
            search once its first nodes have not decided, and stop or cut where one is
            lost (see "Suit projections" in the module docstring); ``False`` for
            verification.
        root_projections: with ``projections``, also search the root's projections with the
            large budgets of ``ROOT_PROJECTION_ROUNDS`` and the three-suit ones
            (``False``: only the in-search ones, whose budget starts at
            ``NODE_PROJECTION_NODES``; for verification).

    Returns:
        The verdict; for SOLVED, the route of player moves from ``position`` (which
        :func:`cloversolve.solve` replays in the reference engine, as every family's).
        ``details["decided_by"]`` names the run that decided (``projection`` or ``main``) and
        ``details["restarts"]`` counts the restarts; a loss proved by a root projection has
        method ``SUIT_PROJECTION`` and
        ``details["projection_suits"]`` (e.g. ``"CH"`` or ``"CHS"``);
        ``details["root_projection_nodes"]`` counts the nodes of both kinds of root
        projection, and ``details["projection_budget"]`` is the in-search projections' budget
        when the search ended.
    """
    limits = limits or Limits()
    clock = Budget(limits)
    started, deadline = clock.started, clock.deadline
    allowance = limits.max_memory // PROJECTION_MEMORY_SHARE if projections else 0
    work = ProjectionWork(len(position.fans), position.ranks, *_zobrist(position.ranks), allowance)
    memory = limits.max_memory - work.nbytes
    in_search = NODE_PROJECTION_NODES if projections else 0
    options = np.array((int(foundation_returns), int(dead_ends), in_search), dtype=np.int64)
    runs: list[_Run] = []

    def left() -> int | None:
        if limits.max_nodes is None:
            return None
        return limits.max_nodes - sum(run.nodes for run in runs)

    decided: tuple[_Run, str] | None = None
    proof = None
    last: _Run | None = None  # the run advanced last: its ``limit`` says why the search stopped
    restarted = 0
    deep = projections and root_projections
    if deep:
        budgets = _share(limits, ROOT_PROJECTION_SHARE, started, deadline)
        root_options = np.array((0, 1, 0), dtype=np.int64)
        proof, last = _projection_rounds(
            position, PAIRS, ROOT_PROJECTION_ROUNDS, root_options, budgets, memory, work, runs
        )
    main = None
    if proof is None and (last is None or last.limit is not StopReason.TIME) and left() != 0:
        main = _Run(position, _WEIGHTS, options, memory, work)
        runs.append(main)
        last = main
    triples: _Triples | None = None
    if main is not None and (restarts or deep):
        main.advance(_capped(MAIN_FIRST_NODES, left()), deadline)
        if main.solved or main.exhausted:
            decided = (main, "main")
        elif (
            main.limit is StopReason.NODES
            and left() != 0
            and deep
            and memory - main.nbytes >= _MIN_RUN_BYTES
        ):
            # The three-suit projections, beside the main search from now on.
            triples = _Triples(position, options, memory, work, runs)
            proof = triples.advance(
                TRIPLE_FIRST_NODES * len(TRIPLES), left(), deadline, main.nbytes
            )
            last = triples.last or last
    if (
        main is not None
        and decided is None
        and proof is None
        and (last is None or last.limit is not StopReason.TIME)
        and left() != 0
    ):
        for index in itertools.count(1):
            remaining = left()
            stop = None if remaining is None else main.nodes + remaining
            begun = main.nodes
            if restarts or (triples and triples.open):
                segment_stop = main.nodes + _luby(index) * RESTART_UNIT_NODES
                stop = segment_stop if stop is None else min(stop, segment_stop)
            main.max_memory = memory - (triples.nbytes if triples else 0)
            main.advance(stop, deadline)
            last = main
            if main.solved or main.exhausted:
                decided = (main, "main")
                break
            if main.limit is StopReason.MEMORY and triples and triples.open:
                triples.close()  # (the main search takes their memory)
                continue
            if main.limit is not StopReason.NODES or left() == 0:
                break
            if triples and triples.open:
                share = _triple_rate(main.nodes) * (main.nodes - begun)
                proof = triples.advance(share, left(), deadline, main.nbytes)
                last = triples.last or last
                if proof is not None or last.limit is StopReason.TIME or left() == 0:
                    break
            if restarts:
                main.restart(_restart_weights(index))
                restarted += 1
    if triples is not None:
        triples.close()

    details: dict[str, int | float | str] = {
        "foundation_returns": int(foundation_returns),
        "dead_ends": int(dead_ends),
        "dead_ends_cut": sum(int(run.ctl[_DEAD_ENDS]) for run in runs),
        "projections": int(projections),
        "root_projection_nodes": sum(run.nodes for run in runs if run.kind == "projection"),
        "projection_cuts": sum(int(run.ctl[_PROJECTED]) for run in runs),
        "projections_searched": work.counter("searched"),
        "projection_nodes": work.counter("nodes"),
        "projection_states_known_lost": work.counter("known_lost"),
        "projection_budget_stops": work.counter("budget_stops"),
        "projection_states_known_won": work.counter("known_won"),
        "projection_budget": int(options[_OPT_PROJECT]),
        "restarts": restarted,
        "seconds": round(time.perf_counter() - started, 6),
        "table_entries": int(main.ctl[_ENTRIES]) if main is not None else 0,
        "table_bytes": int(main.table.nbytes) if main is not None else 0,
    }
    counters = [run.ctl for run in runs]
    if proof is not None:
        details["decided_by"] = "projection"
        details["projection_suits"] = proof
        return verdict(Status.UNSOLVABLE, Method.SUIT_PROJECTION, counters, (), details)
    if decided is not None:
        run, label = decided
        details["decided_by"] = label
        if run.solved:
            return verdict(Status.SOLVED, Method.ROUTE_FOUND, counters, run.route(), details)
        return verdict(Status.UNSOLVABLE, Method.EXHAUSTED, counters, (), details)
    assert last is not None
    stopped = StopReason.NODES if left() == 0 or last.limit is None else last.limit
    details["stopped_by"] = details[FORMER_STOPPED_BY] = stopped.value
    return verdict(Status.LIMIT_REACHED, Method.BUDGET, counters, (), details, stopped)


def _projection(position: CloverPosition, mask: int, *, automatic: bool = True) -> CloverPosition:
    """The projection of ``position`` onto the suits of ``mask`` (bit ``s``: ``SUITS[s]``): the
    other suits' cards leave the fans (order kept) and complete their foundations; then the
    automatic moves (unless ``automatic`` is false)."""
    kept = {SUITS[s] for s in range(4) if mask >> s & 1}
    ranks = position.ranks
    foundations = {
        suit: position.foundation_cards(suit)
        if suit in kept
        else [Card(h if suit in UP_SUITS else ranks + 1 - h, suit) for h in range(1, ranks + 1)]
        for suit in SUITS
    }
    fans = [[card for card in fan if card.suit in kept] for fan in position.fans]
    return CloverPosition(fans, foundations, ranks=position.ranks, automatic=automatic)


def _projection_run(
    position: CloverPosition,
    mask: int,
    options: np.ndarray,
    memory: int,
    work: ProjectionWork,
    runs: list[_Run],
) -> _Run:
    """A new run searching the projection of ``position`` onto ``mask`` (it joins ``runs``)."""
    run = _Run(_projection(position, mask), _WEIGHTS, options, memory, work, 1 << 12)
    run.kind = "projection"
    runs.append(run)
    return run


def _share(
    limits: Limits, share: float, now: float, deadline: float | None
) -> tuple[int | None, float | None]:
    """``share`` of the node budget, and the deadline ``share`` of the time limit after ``now``
    (within ``deadline``): None where ``limits`` has no such bound."""
    nodes = None if limits.max_nodes is None else int(limits.max_nodes * share)
    if deadline is None or limits.time_limit is None:
        return nodes, None
    return nodes, min(deadline, now + limits.time_limit * share)


def _projection_rounds(
    position: CloverPosition,
    masks: Iterable[int],
    rounds: tuple[int, ...],
    options: np.ndarray,
    budgets: tuple[int | None, float | None],
    memory: int,
    work: ProjectionWork,
    runs: list[_Run],
) -> tuple[str | None, _Run | None]:
    """Search the projections of ``position`` onto the suit sets ``masks``, in rounds of the
    node budgets ``rounds`` (a projection won or lost in a round is not searched again), all
    of them within ``budgets`` (nodes, deadline; see :func:`_share`); the runs join ``runs``.

    Returns the suits of a projection proved lost (or None) and the last run advanced.
    """
    node_cap, until = budgets
    first = len(runs)
    open_masks = [int(mask) for mask in masks]
    last = None
    for budget in rounds:
        still_open = []
        for mask in open_masks:
            nodes = budget
            if node_cap is not None:
                nodes = min(budget, node_cap - sum(run.nodes for run in runs[first:]))
            if nodes <= 0:
                return None, last
            run = _projection_run(position, mask, options, memory, work, runs)
            run.advance(nodes, until)
            run.release()
            last = run
            if run.exhausted:
                return "".join(SUITS[s] for s in range(4) if mask >> s & 1), last
            if not run.solved:
                still_open.append(mask)
                if run.limit in (StopReason.TIME, StopReason.MEMORY):
                    return None, last
        open_masks = still_open
        if not open_masks:
            break
    return None, last


def _capped(budget: int, left: int | None) -> int:
    return budget if left is None else min(budget, left)


def perft(position: CloverPosition, depth: int) -> int:
    """Number of player-move sequences of length ``depth`` from ``position``, counted with the
    kernel's move generator and every legal move (returns included, no symmetry)."""
    board = _Board(position, depth + 1)
    return int(_perft(depth, board.nfans, board.ranks, board.board, board.hashes, board.stack))


def legal_moves(position: CloverPosition, *, symmetric: bool = False) -> list[Transfer]:
    """The moves the kernel generates in ``position``, in generation order: every legal move,
    or with ``symmetric`` the search's reduced list (see "Fan order" in the module
    docstring)."""
    board = _Board(position, 1)
    out = np.zeros(board.max_moves, dtype=np.int32)
    returns = 0 if symmetric else 1
    n = _generate(out, board.nfans, board.ranks, board.board, returns, symmetric)
    return [board.decode(int(m)) for m in out[:n]]


def state_key(position: CloverPosition) -> tuple[int, int]:
    """The kernel's 128-bit key of ``position`` (invariant under permutations of the fans)."""
    board = _Board(position, 1)
    return int(board.hashes[1][0]), int(board.hashes[1][1])


#: The kernels a search calls from Python (compiling them compiles every kernel they call).
SEARCH_KERNELS = (
    _setup,
    _run,
)


__all__ = ["legal_moves", "perft", "search", "state_key"]
