"""The budgets of one search, shared by every kernel wrapper's sliced run.

A kernel runs in slices of nodes and returns to its wrapper between slices; the wrapper asks
its :class:`Budget` how many nodes the next slice may use and, after it, whether the node
budget or the clock stops the search. Memory is checked where arrays grow (see
:mod:`cloversolve.search.table`) and reported as :attr:`StopReason.MEMORY`.
"""

from __future__ import annotations

import time

from .common import Limits, StopReason


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

    def slice(self, spent: int, nodes: int) -> int:
        """The size of the next slice: ``nodes``, or fewer if the node budget ends first."""
        left = self.nodes_left(spent)
        return nodes if left is None else min(nodes, left)

    def out_of_time(self) -> bool:
        return self.deadline is not None and time.perf_counter() >= self.deadline

    def stop(self, spent: int) -> StopReason | None:
        """The budget that stops the search after ``spent`` nodes, if any."""
        if self.nodes_left(spent) == 0:
            return StopReason.NODES
        if self.out_of_time():
            return StopReason.TIME
        return None

    def seconds(self) -> float:
        return time.perf_counter() - self.started
