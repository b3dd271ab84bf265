"""The memory bound is a promise: with ``max_memory=M`` a search's own arrays never take more
than M at any moment, in every family, and nothing it allocates outlives it.

tracemalloc sees every numpy allocation (numpy reports them to it), so the peak of traced
memory during a search bounds the search's arrays from above (it also counts the Python
objects of the wrapper: the stated overhead).
"""

from __future__ import annotations

import gc
import tracemalloc
from collections.abc import Callable

import pytest

from cloversolve.core.verdicts import StopReason
from cloversolve.families.clover import search as clover
from cloversolve.families.fifteen import search as fifteen
from cloversolve.families.hole import search as hole
from cloversolve.families.thirteen import search as thirteen
from cloversolve.games.dealing import deal
from cloversolve.rules import position_from_layout
from cloversolve.search import table
from cloversolve.search.common import Limits, SearchOutcome

#: Bytes a search may hold beyond ``max_memory``: its encoding of the position, the Python
#: objects of its wrapper and the kernels' small scratch arrays.
OVERHEAD = 256 * 1024

MiB = 2**20


def _thirteen(limits: Limits) -> SearchOutcome:
    position = position_from_layout(deal("thirteen", 5463))
    return thirteen.search(position, limits, restarts=False)  # type: ignore[arg-type]


def _fifteen(limits: Limits) -> SearchOutcome:
    position = position_from_layout(deal("fifteen", 93))
    return fifteen.search(position, limits)  # type: ignore[arg-type]


def _clover(limits: Limits) -> SearchOutcome:
    position = position_from_layout(deal("cloverleaf", 25))
    return clover.search(position, limits, projections=False)  # type: ignore[arg-type]


def _clover_projections(limits: Limits) -> SearchOutcome:
    # (every projection on: the in-search ones, and three-suit ones open beside the main
    # search, each with arrays of its own)
    position = position_from_layout(deal("cloverleaf", 24937))
    return clover.search(position, limits)  # type: ignore[arg-type]


def _hole(limits: Limits) -> SearchOutcome:
    position = position_from_layout(deal("allinarow", 7))
    return hole.search(position, limits)  # type: ignore[arg-type]


HARD_SEARCHES: dict[str, tuple[Callable[[Limits], SearchOutcome], int]] = {
    "thirteen": (_thirteen, 2 * MiB),
    "fifteen": (_fifteen, 1 * MiB),
    "clover": (_clover, 4 * MiB),
    "clover-projections": (_clover_projections, 8 * MiB),
    "hole": (_hole, 1 * MiB),
}


@pytest.mark.parametrize("family", list(HARD_SEARCHES))
def test_a_search_stays_within_its_memory_bound(family: str) -> None:
    run, bound = HARD_SEARCHES[family]
    run(Limits(max_nodes=100_000))  # (compiles every kernel and fills the caches of keys first)
    gc.collect()
    tracemalloc.start()
    try:
        before, _ = tracemalloc.get_traced_memory()
        tracemalloc.reset_peak()
        outcome = run(Limits(max_memory=bound, max_nodes=3_000_000))
        _, peak = tracemalloc.get_traced_memory()
        gc.collect()
        after, _ = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak - before <= bound + OVERHEAD, (family, peak - before)
    assert after - before <= 64 * 1024, (family, after - before)
    # (searches that stop when the table is full)
    if family in ("thirteen", "clover", "clover-projections"):
        assert outcome.stopped_by is StopReason.MEMORY
    if family == "hole":  # (a full table forgets states instead: the search goes on)
        assert outcome.details["table_bytes"] >= bound // 4


@pytest.mark.parametrize("budget", [MiB, 3 * MiB + 5, 512 * MiB, 48 * 4096 - 1, 48 * 4096])
@pytest.mark.parametrize("other_bytes", [0, 100_000])
def test_the_growth_rule_is_one_rule(budget: int, other_bytes: int) -> None:
    # Doubling a table from one row with grow_within stops at the size max_entries gives for
    # the same bytes, and only the largest table fills past half its rows.
    grown_table = table.new_table(1)
    while (bigger := table.grow_within(grown_table, budget, other_bytes)) is not None:
        assert 3 * grown_table.nbytes + other_bytes <= budget  # (old and new fit together)
        grown_table = bigger
    largest = grown_table.shape[0]
    assert largest == table.max_entries(budget - other_bytes)
    assert 3 * largest * table.ENTRY_BYTES + other_bytes > budget
    for rows in (1, 2, 16, largest // 2):
        if rows < largest:
            assert table.fill_stop(rows, largest) == rows // 2
    assert table.fill_stop(largest, largest) == largest * 3 // 4
    assert table.fill_stop(largest, largest, True) == table.NO_STOP
