"""The budgets of one search, shared by every kernel wrapper's sliced run.

A kernel runs in slices of nodes and returns to its wrapper between slices: :func:`run_sliced`
is the one loop that resumes it, grows its table and stack when it asks (within the memory
rule of :mod:`cloversolve.search.table`), and stops it on the node budget, the clock or
memory. :class:`Budget` holds the budgets of a search made of several runs, and :func:`verdict`
builds every family's outcome from its runs' counters.
"""

from __future__ import annotations

import time
from collections.abc import Iterable, Iterator
from typing import Protocol

import numpy as np

from ..core.notation import Move
from ..core.verdicts import Method, Status, StopReason
from .common import Limits, SearchOutcome
from .kernel import (
    EXHAUSTED,
    FOUND,
    MAX_DEPTH_SLOT,
    NODES_SLOT,
    STACK_FULL,
    STATES_SLOT,
    TABLE_FULL,
)


class Budget:
    """The node budget and the clock of one search (all of its runs together)."""

    def __init__(self, limits: Limits) -> None:
        self.limits = limits
        self.started = time.perf_counter()
        self.deadline = None if limits.time_limit is None else self.started + limits.time_limit

    def nodes_left(self, spent: int) -> int | None:
        """Nodes the search may still expand after ``spent`` (``None``: unbounded)."""
        if self.limits.max_nodes is None:
            return None
        return max(0, self.limits.max_nodes - spent)

    def out_of_time(self) -> bool:
        return self.deadline is not None and time.perf_counter() >= self.deadline

    def seconds(self) -> float:
        return time.perf_counter() - self.started


class SlicedKernel(Protocol):
    """A resumable search as :func:`run_sliced` drives it."""

    @property
    def nodes(self) -> int:
        """Nodes searched so far."""
        ...

    def step(self, node_stop: int) -> int:
        """Run the kernel until ``node_stop`` nodes in all at most; a code of :mod:`.kernel`."""
        ...

    def grow_table(self) -> bool:
        """Enlarge the table (within the memory rule); False when it may not grow."""
        ...

    def grow_stack(self) -> bool:
        """Enlarge the stack (within the memory bound); False when it may not grow."""
        ...


def run_sliced(
    search: SlicedKernel,
    node_stop: int | None,
    deadline: float | None,
    slices: Iterator[int],
    status: int | None = None,
) -> tuple[int, StopReason | None]:
    """Drive ``search`` in slices of nodes (the next size from ``slices`` before each one)
    until it is decided (:data:`.kernel.FOUND` or :data:`.kernel.EXHAUSTED`) or a budget stops
    it: ``node_stop`` nodes in all, the ``deadline`` (``time.perf_counter``), or memory.

    ``status`` is the code the kernel last returned, for a search started or run before
    (``None``: the first slice runs before any budget is looked at); a paused search is
    resumed only within its budgets, and a full table or stack is grown first. Returns the
    kernel's last code and the budget that stopped it (``None`` when decided).
    """
    code = search.step(_slice_stop(search, next(slices), node_stop)) if status is None else status
    while code not in (FOUND, EXHAUSTED):
        if code == TABLE_FULL:
            if not search.grow_table():
                return code, StopReason.MEMORY
        elif code == STACK_FULL:
            if not search.grow_stack():
                return code, StopReason.MEMORY
        else:
            if node_stop is not None and search.nodes >= node_stop:
                return code, StopReason.NODES
            if deadline is not None and time.perf_counter() >= deadline:
                return code, StopReason.TIME
        code = search.step(_slice_stop(search, next(slices), node_stop))
    return code, None


def _slice_stop(search: SlicedKernel, size: int, node_stop: int | None) -> int:
    stop = search.nodes + size
    return stop if node_stop is None else min(stop, node_stop)


def doubling(first: int, largest: int) -> Iterator[int]:
    """Slice sizes from ``first``, doubling up to ``largest`` (a short time limit holds while
    a long search pays little for its returns to Python)."""
    size = first
    while True:
        yield size
        size = min(2 * size, largest)


def verdict(
    status: Status,
    method: Method,
    counters: Iterable[np.ndarray],
    route: tuple[Move, ...] = (),
    details: dict[str, int | float | str] | None = None,
    stopped: StopReason | None = None,
) -> SearchOutcome:
    """The outcome of a search made of the kernel runs whose counter arrays are ``counters``
    (slots of :mod:`.kernel`): their nodes and states summed, the deepest line of any, and
    ``details["stopped_by"]`` when the budget ``stopped`` stopped the search."""
    nodes = states = max_depth = 0
    for counts in counters:  # (plain loops over lists: a cheap search pays this every deal)
        row = counts.tolist()
        nodes += row[NODES_SLOT]
        states += row[STATES_SLOT]
        if row[MAX_DEPTH_SLOT] > max_depth:
            max_depth = row[MAX_DEPTH_SLOT]
    details = {} if details is None else details
    if stopped is not None:
        details["stopped_by"] = stopped.value
    return SearchOutcome(
        status,
        method,
        route,
        nodes=nodes,
        states=states,
        max_depth=max_depth,
        details=details,
        stopped_by=stopped,
    )
