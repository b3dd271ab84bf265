"""The chunk-size rule of parallel runs (``cloversolve/runs/executors.py``'s docstring): the first
chunks hold FIRST_CHUNK deals; then about TARGET_CHUNK_SECONDS of work as measured so far,
never more than a quarter of a worker's share of the deals left (but at least an eighth of the
target), nor MAX_CHUNK, nor the deals left; a fixed size overrides the rule."""

from __future__ import annotations

import pytest

from cloversolve.runs.executors import (
    FIRST_CHUNK,
    MAX_CHUNK,
    TAIL_DIVISOR,
    TARGET_CHUNK_SECONDS,
    ChunkSizer,
)


def measured(workers: int, deals: int, seconds: float) -> ChunkSizer:
    sizer = ChunkSizer(workers)
    sizer.tally.add(deals, (seconds, seconds))
    return sizer


def test_the_documented_constants() -> None:
    assert (FIRST_CHUNK, TARGET_CHUNK_SECONDS, TAIL_DIVISOR, MAX_CHUNK) == (4, 1.0, 8, 100_000)


def test_the_first_chunks_hold_first_chunk_deals() -> None:
    sizer = ChunkSizer(workers=2)
    assert sizer.size(1_000_000) == FIRST_CHUNK
    assert sizer.size(100) == FIRST_CHUNK
    assert sizer.size(3) == 1  # the tail rule: a quarter of a worker's share, at least 1


def test_later_chunks_hold_about_a_second_of_work() -> None:
    assert measured(2, deals=100, seconds=1.0).size(10**9) == 100  # 10 ms a deal
    assert measured(2, deals=10, seconds=5.0).size(10**9) == 2  # 0.5 s a deal
    assert measured(2, deals=4, seconds=40.0).size(10**9) == 1  # slower than the target


def test_never_more_than_max_chunk() -> None:
    assert measured(2, deals=10**6, seconds=1.0).size(10**9) == MAX_CHUNK
    assert measured(2, deals=50, seconds=0.0).size(10**9) == MAX_CHUNK  # (no time measured)


def test_the_tail_shrinks_to_a_quarter_of_a_worker_share() -> None:
    fast = measured(2, deals=1000, seconds=1.0)  # 1,000 deals a second
    assert fast.size(80_000) == 1000  # the target
    assert fast.size(4000) == 500  # 4,000 / (4 * 2)
    assert fast.size(800) == 1000 // TAIL_DIVISOR  # but not below an eighth of the target
    assert fast.size(50) == 50  # nor above the deals left
    assert measured(8, deals=1000, seconds=1.0).size(16_000) == 500
    assert measured(2, deals=2**16, seconds=0.5).size(80_000) == 2**17 // TAIL_DIVISOR


@pytest.mark.parametrize(("fixed", "left", "size"), [(7, 100, 7), (7, 3, 3), (0, 10, 1)])
def test_a_fixed_size_overrides_the_rule(fixed: int, left: int, size: int) -> None:
    sizer = measured(2, deals=1000, seconds=1.0)
    sizer.fixed = fixed
    assert sizer.size(left) == size
    assert ChunkSizer(2, fixed).size(left) == size
