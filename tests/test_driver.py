"""The shared sliced driver, on a scripted stand-in for a kernel."""

from __future__ import annotations

import itertools
import time

from cloversolve.core.verdicts import StopReason
from cloversolve.search.driver import doubling, run_sliced
from cloversolve.search.kernel import EXHAUSTED, FOUND, PAUSED, RUNNING, STACK_FULL, TABLE_FULL


class _Scripted:
    """Counts nodes up to ``end`` (then ``result``); asks for a bigger table each time it
    reaches ``table_at`` entries-worth of nodes, and for a bigger stack at ``stack_at``."""

    def __init__(
        self,
        end: int,
        result: int = FOUND,
        table_at: tuple[int, ...] = (),
        stack_at: tuple[int, ...] = (),
        tables: int = 10,
        stacks: int = 10,
    ) -> None:
        self.count, self.end, self.result = 0, end, result
        self.table_at, self.stack_at = list(table_at), list(stack_at)
        self.tables, self.stacks = tables, stacks
        self.steps: list[int] = []
        self.grown: list[str] = []

    @property
    def nodes(self) -> int:
        return self.count

    def step(self, node_stop: int) -> int:
        self.steps.append(node_stop)
        while True:
            if self.count >= node_stop:
                return PAUSED
            if self.table_at and self.count >= self.table_at[0]:
                return TABLE_FULL
            if self.stack_at and self.count >= self.stack_at[0]:
                return STACK_FULL
            if self.count >= self.end:
                return self.result
            self.count += 1

    def grow_table(self) -> bool:
        if self.tables == 0:
            return False
        self.tables -= 1
        self.table_at.pop(0)
        self.grown.append(f"table@{self.count}")
        return True

    def grow_stack(self) -> bool:
        if self.stacks == 0:
            return False
        self.stacks -= 1
        self.stack_at.pop(0)
        self.grown.append(f"stack@{self.count}")
        return True


def test_slices_double_up_to_the_largest() -> None:
    assert list(itertools.islice(doubling(4, 32), 7)) == [4, 8, 16, 32, 32, 32, 32]


def test_decided_search_runs_to_its_end_in_slices() -> None:
    kernel = _Scripted(end=100, result=EXHAUSTED)
    assert run_sliced(kernel, None, None, doubling(8, 32)) == (EXHAUSTED, None)
    assert kernel.nodes == 100
    assert kernel.steps == [8, 24, 56, 88, 120]


def test_node_budget_stops_at_exactly_its_count() -> None:
    kernel = _Scripted(end=1000)
    code, stopped = run_sliced(kernel, 50, None, itertools.repeat(16))
    assert (code, stopped, kernel.nodes) == (PAUSED, StopReason.NODES, 50)
    assert kernel.steps[-1] == 50
    # Resumed with a larger budget, the search goes on from where it paused.
    assert run_sliced(kernel, 2000, None, itertools.repeat(16), code) == (FOUND, None)
    assert kernel.nodes == 1000


def test_table_and_stack_grow_where_the_kernel_asks() -> None:
    kernel = _Scripted(end=300, table_at=(40, 200), stack_at=(120,))
    assert run_sliced(kernel, None, None, itertools.repeat(64)) == (FOUND, None)
    assert kernel.grown == ["table@40", "stack@120", "table@200"]
    assert kernel.nodes == 300


def test_memory_stops_when_an_array_may_not_grow() -> None:
    kernel = _Scripted(end=300, table_at=(40, 200), tables=1)
    code, stopped = run_sliced(kernel, None, None, itertools.repeat(64))
    assert (code, stopped, kernel.nodes) == (TABLE_FULL, StopReason.MEMORY, 200)
    kernel = _Scripted(end=300, stack_at=(10,), stacks=0)
    assert run_sliced(kernel, None, None, itertools.repeat(64)) == (STACK_FULL, StopReason.MEMORY)


def test_a_resumed_search_looks_at_its_budgets_first() -> None:
    kernel = _Scripted(end=1000)
    past = time.perf_counter() - 1.0
    # Without a status, the first slice runs before the clock is read ...
    code, stopped = run_sliced(kernel, None, past, itertools.repeat(16))
    assert (code, stopped, kernel.nodes) == (PAUSED, StopReason.TIME, 16)
    # ... with one, a paused search past its deadline or budget is not resumed.
    assert run_sliced(kernel, None, past, itertools.repeat(16), RUNNING) == (
        RUNNING,
        StopReason.TIME,
    )
    assert run_sliced(kernel, 16, None, itertools.repeat(16), PAUSED) == (
        PAUSED,
        StopReason.NODES,
    )
    assert kernel.nodes == 16 and len(kernel.steps) == 1
    # A full table left by an earlier stop is grown before the search goes on.
    kernel = _Scripted(end=100, table_at=(30,))
    assert run_sliced(kernel, None, None, itertools.repeat(64), TABLE_FULL) == (FOUND, None)
    assert kernel.grown == ["table@0"]


def test_a_decided_status_is_returned_without_a_step() -> None:
    kernel = _Scripted(end=10)
    assert run_sliced(kernel, None, None, itertools.repeat(4), FOUND) == (FOUND, None)
    assert kernel.steps == []
