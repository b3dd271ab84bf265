"""What every worker of a run does, whatever the backend: warm up once, decide a chunk of deals,
stamp it with its toolkit and rules versions; the pool protocol and the in-process pool.

A worker whose versions differ from this process's is refused rather than mixed in
(:func:`check_versions`)."""

from __future__ import annotations

import os
import socket
import sys
import time
from collections import deque
from collections.abc import Callable
from typing import Any, Protocol

from ..core import version

DealFunc = Callable[[int], Any]


#: What a chunk task returns: (worker's versions and where it runs, (wall, CPU) seconds
#: spent, per-deal results in order).
ChunkResult = tuple[tuple[str, int, str], tuple[float, float], list[Any]]


#: Worker processes per core beyond which ``--jobs`` is capped.
JOBS_PER_CORE = 4


class ExecutorError(ValueError):
    """A scheduler address, worker or worker set that cannot run deals for this process."""


def versions() -> tuple[str, int]:
    """This process's cloversolve version and rules version (stamped on every chunk)."""
    return version.__version__, version.RULES_VERSION


_WARMED: set[str] = set()


def warm_up_worker(preset: str | None) -> None:
    """A pool worker's warm-up: quiet about compiling (the pool's process says it once)."""
    from ..core.compiling import stay_quiet

    stay_quiet()
    warm_up_once(preset)


def warm_up_once(preset: str | None) -> None:
    """Compile or load ``preset``'s search kernels in this process, once
    (:func:`cloversolve.solving.solver.warm_up`), so no timed deal pays for it."""
    if preset is None or preset in _WARMED:
        return
    from ..solving.solver import warm_up

    warm_up(preset)
    _WARMED.add(preset)


def run_chunk(func: DealFunc, first: int, stop: int, warm: str | None) -> ChunkResult:
    """The task of one chunk: ``func`` of every deal in ``first .. stop-1``, in order."""
    warm_up_once(warm)
    started, cpu = time.perf_counter(), time.process_time()
    results = [func(number) for number in range(first, stop)]
    spent = (time.perf_counter() - started, time.process_time() - cpu)
    return (*versions(), _this_worker()), spent, results


def _this_worker() -> str:
    """Where a chunk runs, for messages: a Dask worker's address, else host and process."""
    if "distributed" in sys.modules:  # (only a Dask worker runs tasks with it imported)
        from distributed import get_worker

        try:
            return str(get_worker().address)
        except ValueError:  # not in a Dask worker's task
            pass
    return f"{socket.gethostname()} (process {os.getpid()})"


def check_versions(who: str, stamp: Any, install: str = "on every worker") -> None:
    """Refuse a worker or scheduler (``who``, as messages name it) whose ``stamp`` (toolkit
    and rules versions, then optionally where it runs) differs from this process's."""
    here = versions()
    if tuple(stamp[:2]) != here:
        theirs = f"cloversolve {stamp[0]}, rules version {stamp[1]}"
        raise ExecutorError(
            f"{who} runs {theirs}; this process runs cloversolve {here[0]}, rules "
            f"version {here[1]}: install the same cloversolve {install}"
        )


class Pool(Protocol):
    """Where chunks run: submit tasks, then collect them one at a time as they finish."""

    workers: int

    def submit(self, func: DealFunc, chunk: range) -> None: ...

    def next_done(self) -> tuple[int, ChunkResult]:
        """The first deal of a finished chunk and its result (blocks until one finishes)."""
        ...

    def cancel(self) -> None:
        """Forget every chunk submitted and not yet collected (the pool stays usable)."""
        ...

    def close(self) -> None: ...


class InlinePool:
    """Chunks run in this process, in the order submitted."""

    workers = 1

    def __init__(self, warm: str | None) -> None:
        self.warm = warm
        warm_up_once(warm)
        self.queue: deque[tuple[DealFunc, range]] = deque()

    def submit(self, func: DealFunc, chunk: range) -> None:
        self.queue.append((func, chunk))

    def next_done(self) -> tuple[int, ChunkResult]:
        func, chunk = self.queue.popleft()
        return chunk.start, run_chunk(func, chunk.start, chunk.stop, self.warm)

    def cancel(self) -> None:
        self.queue.clear()

    def close(self) -> None:
        self.queue.clear()


def cap_jobs(jobs: int, numbers: range | None = None) -> int:
    """``jobs`` capped at the number of deals and at :data:`JOBS_PER_CORE` per core."""
    if isinstance(jobs, bool) or not isinstance(jobs, int) or jobs < 1:
        raise ExecutorError(f"bad jobs: {jobs!r} (expected a whole number >= 1)")
    limit = JOBS_PER_CORE * (os.cpu_count() or 1)
    if numbers is not None:
        limit = min(limit, max(1, numbers.stop - numbers.start))
    return min(jobs, limit)
