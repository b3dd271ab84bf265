"""One executor seam for studies, catalogue builds, benchmarks and the benchmark scripts.

A run hands :func:`map_chunks` a picklable per-deal function and a ``range`` of deal numbers.
The range is cut lazily into chunks of consecutive numbers; each chunk is one task, and its
results come back as one list. Chunks are yielded in deal order whatever order they finish
in, so everything built from them is the same for any backend and any number of workers.

Backends (:func:`open_pool`):

* ``jobs=1``: in this process;
* ``jobs=N``: N forked worker processes of this machine (the default backend);
* ``scheduler="local:N"``: a Dask ``LocalCluster`` of N single-threaded worker processes;
* ``scheduler="tcp://HOST:PORT"``: the workers of a running Dask scheduler.

Every worker runs :func:`warm_up_once` before it decides a deal (and before a benchmark's
clock starts), and stamps each chunk with its toolkit and rules versions: a worker whose
versions differ from this process's is refused rather than mixed in (a ``tcp://`` scheduler's
versions are checked too: it unpickles every task).

Chunk size: about :data:`TARGET_CHUNK_SECONDS` of work per chunk, estimated from the chunks
already finished (the first chunks are :data:`FIRST_CHUNK` deals), never more than a quarter
of a worker's share of the deals left (so the tail stays balanced; but at least an eighth of
the target) nor :data:`MAX_CHUNK`. A run may fix the size instead (``chunk_size``). The size
never changes a result."""

from __future__ import annotations

import contextlib
import math
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from .dask_pool import DaskPool, check_scheduler
from .local_pool import LocalPool
from .workers import DealFunc, InlinePool, Pool, cap_jobs, check_versions

#: Seconds of work a chunk should hold, once deal times are known.
TARGET_CHUNK_SECONDS = 1.0


#: Deals in each of the first chunks, before any deal time is known.
FIRST_CHUNK = 4


#: Near the end chunks shrink to balance the workers, but not below 1/TAIL_DIVISOR of the
#: target, so the last second of a run is not spent on a swarm of tiny tasks.
TAIL_DIVISOR = 8


#: The largest chunk, whatever the deal times.
MAX_CHUNK = 100_000


@contextlib.contextmanager
def open_pool(
    jobs: int = 1,
    scheduler: str | None = None,
    *,
    warm: str | None = None,
    numbers: range | None = None,
) -> Iterator[Pool]:
    """The pool of a run: Dask when ``scheduler`` is given, else ``jobs`` local processes, or
    this process for one job (local process counts, ``local:N`` too, are capped by
    :func:`cap_jobs`). Every worker is warmed up for
    preset ``warm`` before the pool is returned; the pool is closed on exit."""
    pool: Pool
    if scheduler is not None:
        pool = DaskPool(check_scheduler(scheduler), warm, numbers)
    else:
        workers = cap_jobs(jobs, numbers)
        pool = InlinePool(warm) if workers == 1 else LocalPool(workers, warm)
    try:
        yield pool
    finally:
        pool.close()


@dataclass
class WorkTally:
    """What the workers spent on the chunks of a run: wall and CPU seconds inside the
    tasks (the measure of how many cores a run really had: CPU over wall)."""

    deals: int = 0
    seconds: float = 0.0
    cpu_seconds: float = 0.0

    def add(self, deals: int, spent: tuple[float, float]) -> None:
        self.deals += deals
        self.seconds += spent[0]
        self.cpu_seconds += spent[1]


class ChunkSizer:
    """Chooses each chunk's size (see the module docstring); ``fixed`` overrides it."""

    def __init__(self, workers: int, fixed: int | None = None) -> None:
        self.workers = workers
        self.fixed = fixed
        self.tally = WorkTally()

    @property
    def deals(self) -> int:
        return self.tally.deals

    @property
    def seconds(self) -> float:
        return self.tally.seconds

    def size(self, left: int) -> int:
        if self.fixed is not None:
            return max(1, min(self.fixed, left))
        if self.deals == 0:
            wanted = FIRST_CHUNK
        else:
            per_deal = max(self.seconds / self.deals, 1e-6)
            wanted = int(TARGET_CHUNK_SECONDS / per_deal)
        share = max(math.ceil(left / (4 * self.workers)), wanted // TAIL_DIVISOR)
        return max(1, min(wanted, share, MAX_CHUNK, left))


def map_chunks(
    pool: Pool,
    func: DealFunc,
    numbers: range,
    *,
    chunk_size: int | None = None,
    tally: WorkTally | None = None,
) -> Iterator[tuple[range, list[Any]]]:
    """``(chunk, [func(n) for n in chunk])`` for consecutive chunks covering ``numbers``, in
    deal order. Lazy: at most a few chunks per worker are in flight or waiting their turn, so
    memory does not grow with the range (any size up to the largest deal number). ``tally``
    adds up the time the workers spent."""
    if numbers.step != 1:
        raise ValueError("deal ranges are consecutive numbers")
    sizer = ChunkSizer(pool.workers, chunk_size)
    if tally is not None:
        sizer.tally = tally
    in_flight, held = 2 * pool.workers, 16 * pool.workers
    pending: dict[int, range] = {}
    finished: dict[int, tuple[range, list[Any]]] = {}
    start, expected = numbers.start, numbers.start
    try:
        while True:
            while (
                start < numbers.stop
                and len(pending) < in_flight
                and len(pending) + len(finished) < max(held, in_flight)
            ):
                chunk = range(start, start + sizer.size(numbers.stop - start))
                pool.submit(func, chunk)
                pending[chunk.start] = chunk
                start = chunk.stop
            if not pending:
                return
            first, (stamp, spent, results) = pool.next_done()
            chunk = pending.pop(first)
            where = f"{stamp[2]} " if len(stamp) > 2 else ""  # (earlier versions: none)
            check_versions(f"worker {where}deciding deals {chunk.start}..{chunk.stop - 1}", stamp)
            sizer.tally.add(len(results), spent)
            finished[first] = (chunk, results)
            while expected in finished:
                chunk, results = finished.pop(expected)
                expected = chunk.stop
                yield chunk, results
    except GeneratorExit:
        if pending:
            pool.cancel()  # the consumer stopped early (a build's quotas are full)
        raise
