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
never changes a result.
"""

from __future__ import annotations

import contextlib
import gc
import hashlib
import math
import multiprocessing
import os
import pickle
import re
import secrets
import socket
import stat
import struct
import sys
import tempfile
import time
import traceback
import warnings
from collections import deque
from collections.abc import Callable, Iterator
from concurrent.futures import CancelledError
from dataclasses import dataclass, field
from multiprocessing.connection import Connection, wait
from pathlib import Path
from typing import IO, Any, Protocol

try:
    import fcntl
except ImportError:  # not POSIX: files are not locked
    fcntl = None  # type: ignore[assignment]

from ..core.inputs import shortened
from ..core.jsonio import dumps, loads
from ..core.version import RULES_VERSION, __version__
from ..games.presets import find_preset
from .interrupts import (  # (RunInterrupted and saved_deals_note: also importable from here)
    RunInterrupted,
    default_stop_signals,
    ignore_interrupts,
    saved_deals_note,
    starting_workers,
)

DealFunc = Callable[[int], Any]
#: What a chunk task returns: (worker's versions and where it runs, (wall, CPU) seconds
#: spent, per-deal results in order).
ChunkResult = tuple[tuple[str, int, str], tuple[float, float], list[Any]]

#: Seconds of work a chunk should hold, once deal times are known.
TARGET_CHUNK_SECONDS = 1.0
#: Deals in each of the first chunks, before any deal time is known.
FIRST_CHUNK = 4
#: Near the end chunks shrink to balance the workers, but not below 1/TAIL_DIVISOR of the
#: target, so the last second of a run is not spent on a swarm of tiny tasks.
TAIL_DIVISOR = 8
#: The largest chunk, whatever the deal times.
MAX_CHUNK = 100_000
#: Worker processes per core beyond which ``--jobs`` is capped.
JOBS_PER_CORE = 4
#: Seconds to wait for a Dask scheduler's first worker, and for a worker to join again when
#: every worker has left a running cluster.
WAIT_FOR_WORKERS = 60
#: Seconds between checks that a Dask cluster still has a worker, while no chunk finishes.
WORKER_CHECK = 5
#: Seconds a Dask scheduler has to greet a new connection.
SCHEDULER_GREETING = 10
#: Times one chunk may lose its worker before the run gives up.
MAX_CHUNK_RETRIES = 3


class ExecutorError(ValueError):
    """A scheduler address, worker or worker set that cannot run deals for this process."""


# -- versions and warm-up -------------------------------------------------------------------


def versions() -> tuple[str, int]:
    """This process's cloversolve version and rules version (stamped on every chunk)."""
    return __version__, RULES_VERSION


_WARMED: set[str] = set()


def _warm_up_worker(preset: str | None) -> None:
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


def _check_versions(who: str, stamp: Any, install: str = "on every worker") -> None:
    """Refuse a worker or scheduler (``who``, as messages name it) whose ``stamp`` (toolkit
    and rules versions, then optionally where it runs) differs from this process's."""
    here = versions()
    if tuple(stamp[:2]) != here:
        theirs = f"cloversolve {stamp[0]}, rules version {stamp[1]}"
        raise ExecutorError(
            f"{who} runs {theirs}; this process runs cloversolve {here[0]}, rules "
            f"version {here[1]}: install the same cloversolve {install}"
        )


# -- pools ----------------------------------------------------------------------------------


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


def _local_worker(conn: Connection, warm: str | None) -> None:
    """A local worker process: warm up, say so, then run chunks until told to stop. Ctrl-C
    is the parent's business (it ends the workers); a worker never prints a traceback."""
    ignore_interrupts()
    default_stop_signals()
    parent = os.getppid()
    try:
        _warm_up_worker(warm)
        conn.send(("ready", versions()))
        while True:
            while not conn.poll(1.0):
                if os.getppid() != parent:
                    return  # the parent was killed: nobody wants the results
            task = conn.recv()
            if task is None:
                return
            func, first, stop = task
            try:
                conn.send(("ok", run_chunk(func, first, stop, warm)))
            except Exception as error:  # sent to the parent, which raises it
                conn.send(("error", _picklable(error), traceback.format_exc()))
    except (EOFError, BrokenPipeError, KeyboardInterrupt):
        pass


class RemoteTraceback(Exception):
    """The traceback of an exception raised in a worker process (its ``__cause__``)."""


def _picklable(error: Exception) -> Exception:
    """``error`` if it survives pickling, else a RuntimeError that names it."""
    try:
        pickle.loads(pickle.dumps(error))
    except Exception:
        return RuntimeError(f"{type(error).__name__}: {error}")
    return error


@dataclass
class _Slot:
    process: Any
    conn: Connection
    task: tuple[DealFunc, range] | None = None


@dataclass
class LocalPool:
    """``workers`` forked processes of this machine. A worker that dies (killed, out of
    memory) is replaced and its chunk run again."""

    workers: int
    warm: str | None
    slots: list[_Slot] = field(default_factory=list)
    queue: deque[tuple[DealFunc, range]] = field(default_factory=deque)
    retries: dict[int, int] = field(default_factory=dict)

    def __post_init__(self) -> None:
        methods = multiprocessing.get_all_start_methods()
        self.context: Any = multiprocessing.get_context("fork" if "fork" in methods else "spawn")
        warm_up_once(self.warm)  # forked workers inherit the loaded kernels
        try:
            for _ in range(self.workers):
                with starting_workers():  # Ctrl-C lands after the append, never in between
                    self.slots.append(self._start())
            for slot in self.slots:
                self._await_ready(slot)
        except BaseException:
            self.close()
            raise

    def _start(self) -> _Slot:
        parent, child = self.context.Pipe()
        process = self.context.Process(target=_local_worker, args=(child, self.warm), daemon=True)
        process.start()
        child.close()
        return _Slot(process, parent)

    def _await_ready(self, slot: _Slot) -> None:
        try:
            message = slot.conn.recv()
        except EOFError:
            raise ExecutorError("a worker process died while warming up") from None
        _check_versions("worker process", message[1])

    def submit(self, func: DealFunc, chunk: range) -> None:
        self.queue.append((func, chunk))
        self._dispatch()

    def _dispatch(self) -> None:
        for slot in self.slots:
            if slot.task is None and self.queue:
                slot.task = self.queue.popleft()
                func, chunk = slot.task
                slot.conn.send((func, chunk.start, chunk.stop))

    def next_done(self) -> tuple[int, ChunkResult]:
        while True:
            busy = [slot for slot in self.slots if slot.task is not None]
            if not busy:
                raise RuntimeError("no chunk is running")
            ready = wait([s.conn for s in busy] + [s.process.sentinel for s in busy])
            for slot in busy:
                if slot.conn in ready or slot.conn.poll():
                    try:
                        message = slot.conn.recv()
                    except EOFError:
                        self._replace(slot)
                        continue
                    assert slot.task is not None
                    chunk = slot.task[1]
                    slot.task = None
                    self._dispatch()
                    if message[0] == "error":
                        raise message[1] from RemoteTraceback(
                            f"deals {chunk.start}..{chunk.stop - 1} in a worker process:\n"
                            + message[2]
                        )
                    return chunk.start, message[1]
                if slot.process.sentinel in ready:
                    self._replace(slot)
            self._dispatch()

    def _replace(self, slot: _Slot) -> None:
        """A worker died: start another and give its chunk back to the queue."""
        assert slot.task is not None
        chunk = slot.task[1]
        tries = self.retries[chunk.start] = self.retries.get(chunk.start, 0) + 1
        if tries > MAX_CHUNK_RETRIES:
            raise ExecutorError(
                f"deals {chunk.start}..{chunk.stop - 1} killed {tries} worker processes"
            )
        self.queue.appendleft(slot.task)
        slot.conn.close()
        slot.process.join(timeout=1)
        with starting_workers():
            fresh = self._start()
            slot.process, slot.conn, slot.task = fresh.process, fresh.conn, None
        self._await_ready(slot)

    def cancel(self) -> None:
        self.queue.clear()
        while any(slot.task is not None for slot in self.slots):
            with contextlib.suppress(Exception):
                self.next_done()  # a running chunk is let finish, its result dropped

    def close(self) -> None:
        slots, self.slots = self.slots, []  # a closed pool has nothing left to cancel
        for slot in slots:
            if slot.task is None:
                with contextlib.suppress(OSError):
                    slot.conn.send(None)
        for slot in slots:
            slot.process.join(timeout=0.5 if slot.task is None else 0)
            if slot.process.is_alive():
                slot.process.terminate()
                slot.process.join()
            slot.conn.close()


class DaskPool:
    """The workers of a Dask cluster: a running scheduler (``tcp://HOST:PORT``) or a
    ``LocalCluster`` of N single-threaded worker processes started for the run (``local:N``).
    Dask runs a chunk again when its worker is lost."""

    def __init__(self, address: str, warm: str | None, numbers: range | None = None) -> None:
        try:
            import dask
            from dask.distributed import Client, LocalCluster, as_completed
            from distributed.scheduler import KilledWorker
            from distributed.versions import VersionMismatchWarning
        except ImportError:
            raise ExecutorError(
                "--scheduler needs Dask: install the dask extra (python -m pip install "
                "'.[dask]' in a cloversolve checkout)"
            ) from None
        self.address = address
        self.warm = warm
        self.killed_worker = KilledWorker
        self.cluster: Any = None
        self.client: Any = None
        self._as_completed = as_completed
        self.futures: dict[Any, range] = {}
        self.restore_logs = _hush_dask_logs()
        try:
            if address.startswith("local:"):
                count = cap_jobs(_positive(address.removeprefix("local:"), address), numbers)
                # Ctrl-C stops this process, which closes the cluster; the workers start
                # with it blocked and ignore it once up.
                with starting_workers(new_interpreters=True), dask.config.set(QUIET_WORKERS):
                    self.cluster = LocalCluster(
                        n_workers=count,
                        threads_per_worker=1,
                        processes=True,
                        dashboard_address=":0",
                        worker_dashboard_address=None,
                        silence_logs=50,
                    )
                    self.client = Client(self.cluster)
            else:
                _reachable(address)
                refusal = None
                try:
                    with warnings.catch_warnings():  # (the checks below are cloversolve's)
                        warnings.simplefilter("ignore", VersionMismatchWarning)
                        self.client = Client(address, timeout="20s")
                except Exception as error:  # whatever a server that is no scheduler says
                    refusal = _not_a_scheduler(address, error)
                if refusal is not None:  # (raised here, the failed connection is let go)
                    raise ExecutorError(refusal)
            self.done = as_completed()  # (bound to the client just made)
            try:
                self.client.wait_for_workers(1, timeout=WAIT_FOR_WORKERS)
            except TimeoutError:
                raise ExecutorError(
                    f"no Dask worker joined {address!r} within {WAIT_FOR_WORKERS} s"
                ) from None
            self._check_workers()
            if self.cluster is None:
                self._check_scheduler_reads_tasks(address)
            else:
                self.client.run(ignore_interrupts)
                if warm is not None:  # (its workers share this install's numba cache)
                    find_preset(warm).rule_family.announce_compiling()
            self.client.run(_warm_up_worker, warm)
        except OSError as error:  # the scheduler or a worker was lost while the run started
            self.close()
            raise ExecutorError(
                f"the Dask cluster at {address!r} failed while the run started ({_reason(error)})"
            ) from None
        except BaseException:
            self.close()
            raise
        self.workers = max(1, sum(self.client.nthreads().values()))

    def _check_workers(self) -> None:
        """Refuse workers that cannot import cloversolve or run another version of it."""
        for where, stamp in self.client.run(versions, on_error="return").items():
            if isinstance(stamp, BaseException):
                raise ExecutorError(
                    f"Dask worker {where} cannot run cloversolve ({_reason(stamp)}): install "
                    "the same cloversolve on every worker"
                )
            _check_versions(f"worker {where}", stamp)

    def _check_scheduler_reads_tasks(self, address: str) -> None:
        """Refuse a scheduler that cannot read cloversolve's tasks: Dask's scheduler unpickles
        every task it is given, so it needs cloversolve installed too."""
        try:
            stamp = self.client.run_on_scheduler(versions)
        except Exception as error:
            cause = error.__cause__ or error
            raise ExecutorError(
                f"Dask scheduler {address!r} cannot read cloversolve's tasks ("
                f"{_reason(cause)}): install the same cloversolve on the scheduler's machine"
            ) from None
        _check_versions(f"scheduler {address}", stamp, "on the scheduler's machine")

    def submit(self, func: DealFunc, chunk: range) -> None:
        future = self.client.submit(run_chunk, func, chunk.start, chunk.stop, self.warm, pure=False)
        self.futures[future] = chunk
        self.done.add(future)

    def next_done(self) -> tuple[int, ChunkResult]:
        future = self._next_finished()
        chunk = self.futures.pop(future)
        try:
            result = future.result()  # the deal function's own exception, if it raised
        except self.killed_worker:
            raise ExecutorError(
                f"deals {chunk.start}..{chunk.stop - 1} lost their Dask worker too many times"
            ) from None
        except CancelledError as error:  # Dask cancels every task when the scheduler is lost
            why = str(error).partition("for reason: ")[2].partition(".")[0] or "cancelled"
            raise ExecutorError(f"lost the Dask scheduler {self.address!r} ({why})") from None
        except OSError as error:  # ... or it is lost while this result is fetched from it
            cause = error.__cause__ if isinstance(error.__cause__, OSError) else error
            raise ExecutorError(
                f"lost the Dask scheduler {self.address!r} ({_reason(cause)})"
            ) from None
        return chunk.start, result

    def _next_finished(self) -> Any:
        """The next finished chunk's future. A cluster whose workers have all left waits for
        one to join for :data:`WAIT_FOR_WORKERS` seconds, then the run stops."""
        from distributed import wait

        left_since: float | None = None
        while not self.done.has_ready():
            try:
                wait(list(self.futures), timeout=WORKER_CHECK, return_when="FIRST_COMPLETED")
                break
            except CancelledError:  # (the scheduler is lost: the future says so, below)
                break
            except TimeoutError:
                pass
            try:
                workers = len(self.client.nthreads())
            except Exception:  # the scheduler is lost: its futures are cancelled soon
                continue
            if workers:
                left_since = None
            elif left_since is None:
                left_since = time.monotonic()
            elif time.monotonic() - left_since >= WAIT_FOR_WORKERS:
                raise ExecutorError(
                    f"every Dask worker left {self.address!r} and none joined again within "
                    f"{WAIT_FOR_WORKERS} s"
                )
        return next(self.done)

    def cancel(self) -> None:
        if self.client.status == "closed":
            return
        for future in self.futures:
            future.cancel()
        self.futures.clear()
        self.done = self._as_completed()

    def close(self) -> None:
        for future in self.futures:
            future.cancel()
        self.futures.clear()
        if self.client is not None:
            self.client.close()
        if self.cluster is not None:
            self.cluster.close()
        gc.collect()  # Dask logs each connection still open when it is collected
        self.restore_logs()


#: Dask settings for the workers of a ``local:N`` cluster: no statistical profiler (its
#: sampling thread takes the interpreter lock from a search every 10 ms: measured, the
#: searches of a worker took about a quarter more CPU with it), the event loop's
#: bookkeeping at a slower beat, and glibc's malloc left as it is: Dask's nanny otherwise
#: sets ``MALLOC_TRIM_THRESHOLD_`` in each worker, which also pins malloc's mmap threshold,
#: so every search's tables are mapped and zero-filled afresh (measured: the searches took
#: about a fifth more CPU, three times the system time). A ``tcp://`` cluster's workers
#: take these settings from their own environment (see the README).
QUIET_WORKERS = {
    "distributed.worker.profile.enabled": False,
    "distributed.admin.tick.interval": "1s",
    "distributed.admin.system-monitor.interval": "5s",
    "distributed.worker.memory.monitor-interval": "5s",
    "distributed.nanny.pre-spawn-environ.MALLOC_TRIM_THRESHOLD_": None,
}


def _reason(error: BaseException) -> str:
    """An exception as a short reason on one line: its message, else its type's name."""
    return shortened(" ".join(str(error).split()), 200) or type(error).__name__


def _not_a_scheduler(address: str, error: Exception) -> str:
    """Why a Dask client could not connect to ``address``, for its user: Dask names the
    class of the server that refused the scheduler's greeting (``Worker.identity()``)."""
    server = re.search(r"\b(\w+)\.identity\(\)", str(error))
    if server is None or server.group(1) == "Scheduler":
        return f"cannot reach Dask scheduler {address!r}: {_reason(error)}"
    what = "a Dask worker" if server.group(1) == "Worker" else "a Dask worker's nanny"
    return (
        f"{address!r} is {what}, not a Dask scheduler (give the address the scheduler "
        "printed when it started; a scheduler listens on port 8786 unless told otherwise)"
    )


def _hush_dask_logs() -> Callable[[], None]:
    """Silence the log lines of Dask (and of tornado, under it) in this process, and return
    what restores them. A run reports what stops it in one line of its own; Dask would log
    each attempt to reach a lost scheduler with a traceback."""
    import logging

    hushed = {
        name: logger.level
        for name, logger in logging.Logger.manager.loggerDict.items()
        if isinstance(logger, logging.Logger)
        and name.partition(".")[0] in ("distributed", "tornado")
        and logger.level != logging.NOTSET
    }
    for name in hushed:
        logging.getLogger(name).setLevel(logging.CRITICAL + 1)

    def restore() -> None:
        for name, level in hushed.items():
            logging.getLogger(name).setLevel(level)

    return restore


def _positive(text: str, whole: str) -> int:
    if not (text.isascii() and text.isdigit()) or int(text) < 1:
        raise ExecutorError(f"bad scheduler: {whole!r} (expected tcp://HOST:PORT or local:N)")
    return int(text)


def check_scheduler(address: str) -> str:
    """``address`` if it names a scheduler (``tcp://HOST:PORT`` with a port from 1 to
    65535, ``local:N``), else raise :class:`ExecutorError` quoting it. (Dask's other
    transports, ``tls://`` and ``ucx://``, need settings these commands do not take.)"""
    if address.startswith("local:"):
        _positive(address.removeprefix("local:"), address)
        return address
    _host_and_port(address)
    return address


def _host_and_port(address: str) -> tuple[str, int]:
    """HOST and PORT of ``tcp://HOST:PORT`` (a port from 1 to 65535), else raise
    :class:`ExecutorError` quoting ``address``."""
    host, sep, port = address.removeprefix("tcp://").rpartition(":")
    tcp = address.startswith("tcp://") and sep and host and port.isascii() and port.isdigit()
    if not (tcp and 1 <= int(port) <= 65535):
        raise ExecutorError(f"bad scheduler: {address!r} (expected tcp://HOST:PORT or local:N)")
    return host.strip("[]"), int(port)


def _reachable(address: str) -> None:
    """Raise :class:`ExecutorError` at once when nothing listens at ``address`` (a Dask
    client would retry for its whole timeout), or when what listens does not greet like a
    Dask scheduler, which speaks first (a web server, such as the scheduler's dashboard,
    waits for a request; a Dask client would wait with it, with no timeout)."""
    greeting, closed = b"", False
    try:
        with socket.create_connection(_host_and_port(address), timeout=10) as probe:
            probe.settimeout(SCHEDULER_GREETING)
            try:
                while len(greeting) < 16 and not closed:
                    more = probe.recv(16 - len(greeting))
                    greeting, closed = greeting + more, not more
            except TimeoutError:
                pass
    except OSError as error:
        reason = error.strerror or type(error).__name__
        raise ExecutorError(f"cannot reach Dask scheduler {address!r}: {reason}") from None
    if not _is_dask_greeting(greeting):
        if greeting:
            said = "answered in another protocol"
        else:
            said = "closed the connection" if closed else "said nothing"
        raise ExecutorError(
            f"{address!r} is not a Dask scheduler (it {said} where a scheduler greets its "
            "clients; a scheduler listens on port 8786 unless told otherwise, its dashboard "
            "on 8787)"
        )


def _is_dask_greeting(start: bytes) -> bool:
    """Whether ``start`` opens a message of Dask's TCP transport: the message's length in
    bytes, then its number of frames (both unsigned 64-bit, little-endian), of sane sizes."""
    if len(start) < 16:
        return False
    length, frames = struct.unpack("<QQ", start)
    return 1 <= frames <= 64 and 16 <= length <= 2**24


def cap_jobs(jobs: int, numbers: range | None = None) -> int:
    """``jobs`` capped at the number of deals and at :data:`JOBS_PER_CORE` per core."""
    if isinstance(jobs, bool) or not isinstance(jobs, int) or jobs < 1:
        raise ExecutorError(f"bad jobs: {jobs!r} (expected a whole number >= 1)")
    limit = JOBS_PER_CORE * (os.cpu_count() or 1)
    if numbers is not None:
        limit = min(limit, max(1, numbers.stop - numbers.start))
    return min(jobs, limit)


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


# -- chunks in deal order -------------------------------------------------------------------


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
            _check_versions(f"worker {where}deciding deals {chunk.start}..{chunk.stop - 1}", stamp)
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


# -- checkpoints ----------------------------------------------------------------------------

CHECKPOINT_FORMAT = "cloversolve-checkpoint"
CHECKPOINT_VERSION = 2


class CheckpointError(ValueError):
    """A checkpoint file that is not one of this run's."""


class Checkpoint:
    """Finished chunks of a run, in deal order, as JSON lines, so an interrupted run resumes.

    Line 1 is the header: the run's parameters (preset, budget or grading rule, versions). It
    is written, flushed and fsynced before any deal is decided; an empty file, or one holding
    only a checkpoint header, is a fresh start, and a file whose first line is not a checkpoint
    header is refused, never overwritten (:meth:`check`). Every further line is one chunk:
    ``{"first": N, "results": [...], "digest": D}``, where ``D`` is a SHA-256 of the header
    and the record, so a line of another run, or a record edited by hand, is refused rather
    than trusted. The last line, cut short by a crash (not JSON), is dropped and counted in
    :attr:`dropped`; its deals are simply decided again. A damaged line with more lines after
    it is no crash's doing, and refused. A run with the same
    first deal and a shorter range takes the records in its range and leaves the file as it
    is. A digest is no signature: it guards against damage, not against someone who
    recomputes it (whoever can write the checkpoint can write the run's output as well;
    ``cloversolve catalogue verify --deep`` grades a catalogue's deals again).
    """

    def __init__(
        self,
        path: str | os.PathLike[str],
        header: dict[str, Any],
        result_problem: Callable[[Any], str | None] | None = None,
    ) -> None:
        self.path = Path(path)
        #: Why a per-deal result read back is not one this run could have made, or None.
        self.result_problem = result_problem
        self.header = {"format": CHECKPOINT_FORMAT, "version": CHECKPOINT_VERSION, **header}
        self.header_bytes = dumps(self.header, sort_keys=True, exact_integers=True)
        self.key = hashlib.sha256(self.header_bytes).digest()
        self.dropped = 0
        self.valid_bytes = 0
        self.out: IO[bytes] | None = None
        #: Whether this run has opened the file for writing (and so may remove it when done).
        self.opened = False

    def digest(self, first: int, results: list[Any]) -> str:
        payload = dumps([first, results], sort_keys=True, exact_integers=True)
        return hashlib.sha256(self.key + payload).hexdigest()

    def check(self) -> None:
        """Refuse, before any work, a file that is not a checkpoint (its first line is not a
        checkpoint header: notes, a route, a layout) or that holds deals of a run with other
        parameters. An empty file, a checkpoint header alone, or a header cut short while it
        was written is a fresh start."""
        try:
            if not self.path.exists():
                return
        except OSError as error:  # (a name too long, say)
            raise CheckpointError(
                f"bad checkpoint file: {str(self.path)!r} ({error.strerror})"
            ) from None
        with self.path.open("rb") as handle:
            header = handle.readline()
            more = bool(handle.peek(1))
        if not header:
            return  # empty
        if not header.endswith(b"\n"):
            if self._torn_header(header):
                return
            raise self._not_a_checkpoint()
        parsed = _json_or_none(header)
        if not _is_checkpoint_header(parsed):
            raise self._not_a_checkpoint()
        if more and parsed != self.header:
            raise CheckpointError(
                f"checkpoint {str(self.path)!r} belongs to a run with other parameters "
                f"({_differences_text(parsed, self.header)}); give the same parameters to "
                "resume it, or another checkpoint file"
            )

    def _torn_header(self, line: bytes) -> bool:
        """Whether ``line`` (with no newline) is the start of a checkpoint header, as a crash
        while the header was written leaves it."""
        whole = self.header_bytes + b"\n"
        return (
            whole.startswith(line)
            or line.startswith(_HEADER_START)
            or (_HEADER_START.startswith(line))
        )

    def refuse_if_in_use(self) -> None:
        """Refuse, before any work, a file that another run holds locked (it is writing it):
        for a run that may finish from the records alone, without ever opening the file."""
        if not self.path.exists():
            return
        probe = open_locked(self.path)
        if probe is None:
            raise self._in_use()
        probe.close()

    def _in_use(self) -> CheckpointError:
        return CheckpointError(
            f"checkpoint {str(self.path)!r} is in use by another run (or by its worker "
            "processes, which end within a chunk); wait for it, or give another file"
        )

    def _not_a_checkpoint(self) -> CheckpointError:
        return CheckpointError(
            f"{str(self.path)!r} is not a cloversolve checkpoint (its first line is not a "
            "checkpoint header); refusing to overwrite it"
        )

    def records(self, numbers: range) -> Iterator[tuple[range, list[Any]]]:
        """The recorded chunks of ``numbers`` from its first deal on, in order (cut at the
        range's end: a checkpoint of a longer run resumes a shorter one from the same first
        deal); raises :class:`CheckpointError` on a line that is not of this run. Every line
        is read and checked, those past the range too, so :meth:`open` keeps them all."""
        self.valid_bytes = 0
        self.check()
        if not self.path.exists():
            return
        expected = numbers.start
        with self.path.open("rb") as handle:
            header = handle.readline()
            if not header.endswith(b"\n") or not handle.peek(1):
                return  # empty or header only: a fresh start
            self.valid_bytes = len(header)
            for number, line in enumerate(handle, start=2):
                record = _json_or_none(line) if line.endswith(b"\n") else None
                if record is None:
                    if any(True for _ in handle):  # only the last line can be cut short
                        raise CheckpointError(
                            f"checkpoint {str(self.path)!r} line {number} is damaged (not a "
                            "whole record, and more lines follow it); delete the file to "
                            "start afresh"
                        )
                    if line.strip():  # (a blank last line held no deals: nothing to say)
                        self.dropped += 1
                    return
                chunk, results = self._check(record, number, expected)
                self.valid_bytes += len(line)
                expected = chunk.stop
                if chunk.start >= numbers.stop:
                    continue
                keep = min(len(chunk), numbers.stop - chunk.start)
                yield range(chunk.start, chunk.start + keep), results[:keep]

    def saved_deals(self, numbers: range) -> int | None:
        """How many deals of ``numbers`` the file holds (read again from the disk), or None
        when it is not a checkpoint of this run."""
        try:
            return sum(len(chunk) for chunk, _ in self.records(numbers))
        except (CheckpointError, OSError):
            return None

    def _check(self, record: Any, line: int, expected: int) -> tuple[range, list[Any]]:
        def refuse(why: str) -> CheckpointError:
            return CheckpointError(
                f"checkpoint {str(self.path)!r} line {line} is not a record of this run "
                f"({why}); delete the file to start afresh"
            )

        if not isinstance(record, dict) or set(record) != {"first", "results", "digest"}:
            raise refuse("not a chunk record")
        first, results = record["first"], record["results"]
        if not isinstance(first, int) or not isinstance(results, list) or not results:
            raise refuse("not a chunk record")
        if record["digest"] != self.digest(first, results):
            raise refuse("its digest does not match")
        if line == 2 and first != expected:
            raise CheckpointError(
                f"checkpoint {str(self.path)!r} starts at deal {first}, this run at deal "
                f"{expected}: a run resumes from a checkpoint only with the same first deal "
                f"(deals {first}..B); give another checkpoint file for this range"
            )
        if first != expected:
            raise refuse(f"it starts at deal {first}, the run expects deal {expected}")
        if self.result_problem is not None:
            for number, result in enumerate(results, start=first):
                problem = self.result_problem(result)
                if problem is not None:
                    raise refuse(f"deal {number}: {problem}")
        return range(first, first + len(results)), results

    def open(self) -> None:
        """Start appending: drop whatever follows the valid records read by
        :meth:`records` (or write the header of a fresh file, flushed and fsynced). The file
        stays locked until :meth:`close`: a second run given the same checkpoint while this
        one writes it is refused (:class:`CheckpointError`), not let to mix its records in."""
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self.out = open_locked(self.path)
        if self.out is None:
            raise self._in_use()
        self.opened = True
        self.out.truncate(self.valid_bytes)
        if self.valid_bytes == 0:
            self.out.write(self.header_bytes + b"\n")
        else:
            self.out.seek(self.valid_bytes)
        self._sync()

    def commit(self, chunk: range, results: list[Any]) -> None:
        """Record a finished chunk (the next one in deal order), flushed and fsynced."""
        assert self.out is not None, "open() the checkpoint first"
        record = {"first": chunk.start, "results": results}
        record["digest"] = self.digest(chunk.start, results)
        self.out.write(dumps(record, exact_integers=True) + b"\n")
        self._sync()

    def _sync(self) -> None:
        assert self.out is not None
        self.out.flush()
        os.fsync(self.out.fileno())

    def close(self) -> None:
        if self.out is not None:
            self.out.close()
            self.out = None

    def remove(self) -> None:
        """Remove the file of a finished run: only one this run wrote to (a checkpoint it
        only read, which holds deals beyond the run's range, is left as it is), and never
        while another run holds its lock."""
        self.close()
        if not self.opened or not self.path.exists():
            return
        handle = open_locked(self.path)
        if handle is not None:
            with handle:
                self.path.unlink(missing_ok=True)


#: How every checkpoint header line starts (its keys are sorted, ``format`` first).
_HEADER_START = dumps({"format": CHECKPOINT_FORMAT})[:-1]


#: How many differing run parameters a message shows with their values.
_DIFFERENCES_SHOWN = 2


def _setting(value: Any) -> str:
    """A run parameter of a checkpoint header as a message shows it."""
    if value is None:
        return "not set"
    if isinstance(value, dict):
        return "{...}"  # (an object of parameters, against a plain value)
    return shortened(dumps(value).decode() if isinstance(value, list) else repr(value), 40)


def _differences(there: Any, here: Any, path: tuple[str, ...] = ()) -> Iterator[tuple[str, ...]]:
    """The paths of the run parameters that differ between two checkpoint headers (a nested
    one as its keys: ``("grading", "games")``)."""
    if not (isinstance(there, dict) and isinstance(here, dict)):
        yield path
        return
    for key in sorted(set(there) | set(here)):
        if there.get(key) != here.get(key):
            yield from _differences(there.get(key), here.get(key), (*path, str(key)))


def _differences_text(there: dict[str, Any], here: dict[str, Any]) -> str:
    """The differing run parameters in a few words: the first ones (top-level first) with
    their values, the rest counted by the parameter they belong to (``3 more in grading``)."""

    def value(header: Any, path: tuple[str, ...]) -> Any:
        for key in path:
            header = header.get(key) if isinstance(header, dict) else None
        return header

    paths = sorted(_differences(there, here), key=len)
    words = [
        f"{'.'.join(path)}: {_setting(value(there, path))} there, "
        f"{_setting(value(here, path))} here"
        for path in paths[:_DIFFERENCES_SHOWN]
    ]
    rest: dict[str, int] = {}
    for path in paths[_DIFFERENCES_SHOWN:]:
        rest[path[0]] = rest.get(path[0], 0) + 1
    words += [f"{number} more in {group}" for group, number in rest.items()]
    return "; ".join(words)


def _is_checkpoint_header(header: Any) -> bool:
    """A header of this format, or of the earlier one (which had no ``format`` field and was
    refused as belonging to other parameters)."""
    if not isinstance(header, dict):
        return False
    return header.get("format") == CHECKPOINT_FORMAT or header.get("kind") in {
        "study",
        "catalogue",
    }


def _json_or_none(line: bytes) -> Any:
    try:
        return loads(line)
    except ValueError:  # orjson's and the standard library's decode errors
        return None


class RunStopped(ExecutorError):
    """The cluster of a run that has a checkpoint failed (its scheduler was lost, say):
    the message says how many deals are saved, and the same run resumes from them."""


@contextlib.contextmanager
def report_saved_deals(checkpoint: Checkpoint | None, numbers: range) -> Iterator[None]:
    """Say how many deals of ``numbers`` ``checkpoint`` holds (read again from the file once
    the run stopped) when the block is interrupted (:class:`RunInterrupted`) or its cluster
    fails (:class:`RunStopped`). With no checkpoint file yet there is nothing to report."""
    try:
        yield
    except (KeyboardInterrupt, ExecutorError) as stop:
        if checkpoint is None or isinstance(stop, RunInterrupted | RunStopped):
            raise
        checkpoint.close()
        exists = checkpoint.path.exists()
        deals = checkpoint.saved_deals(numbers) if exists else None
        if deals is None:
            raise
        if isinstance(stop, KeyboardInterrupt):
            raise RunInterrupted(checkpoint.path, deals) from stop
        raise RunStopped(f"{stop}; {saved_deals_note(checkpoint.path, deals)}") from None


def run_checkpointed(
    pool: Pool,
    func: DealFunc,
    numbers: range,
    checkpoint: Checkpoint | None,
    *,
    chunk_size: int | None = None,
    tally: WorkTally | None = None,
) -> Iterator[tuple[range, list[Any]]]:
    """Every chunk of ``numbers`` in deal order: first those ``checkpoint`` holds, then the
    rest computed by ``pool`` and recorded as they are yielded."""
    start = numbers.start
    if checkpoint is not None:
        for chunk, results in checkpoint.records(numbers):
            start = chunk.stop
            yield chunk, results
        checkpoint.open()
    left = range(start, numbers.stop)
    for chunk, results in map_chunks(pool, func, left, chunk_size=chunk_size, tally=tally):
        if checkpoint is not None:
            checkpoint.commit(chunk, results)
        yield chunk, results


def run_deals(
    func: DealFunc,
    numbers: range,
    jobs: int = 1,
    scheduler: str | None = None,
    *,
    warm: str | None = None,
) -> Iterator[tuple[int, Any]]:
    """``(number, func(number))`` for every deal of ``numbers``, in deal order, on the pool
    :func:`open_pool` gives (a convenience for scripts)."""
    with open_pool(jobs, scheduler, warm=warm, numbers=numbers) as pool:
        for chunk, results in map_chunks(pool, func, numbers):
            yield from zip(chunk, results, strict=True)


# -- output files ---------------------------------------------------------------------------


def lock_exclusively(handle: IO[Any]) -> bool:
    """Lock the open file ``handle`` for this process (and the workers it forks) until it is
    closed, without waiting: False when another process holds the lock. Where files cannot be
    locked (not POSIX), True."""
    if fcntl is None:
        return True
    try:
        fcntl.flock(handle.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        return False
    return True


def open_locked(path: Path) -> IO[bytes] | None:
    """``path`` opened for reading and writing (created if missing, nothing truncated) and
    locked (:func:`lock_exclusively`), or None when another process holds its lock. A file
    removed or replaced while the lock was taken is opened again, so the lock is always the
    one on the file now at ``path``."""
    while True:
        handle = os.fdopen(os.open(path, os.O_RDWR | os.O_CREAT, 0o666), "r+b")
        if not lock_exclusively(handle):
            handle.close()
            return None
        with contextlib.suppress(FileNotFoundError):
            now, held = os.stat(path), os.fstat(handle.fileno())
            if (now.st_dev, now.st_ino) == (held.st_dev, held.st_ino):
                return handle
        handle.close()


def _refuse_standard_output(text: str | bytes, what: str, kind: str) -> None:
    """Refuse ``-``, which asks for standard output: an option that writes ``what`` into a
    ``kind`` (file or folder) would take it for a name."""
    if text == "-":
        raise OutputPathError(
            f"bad {what} {kind}: '-' (this option takes a {kind}, not standard output; "
            f"'./-' names a {kind} called '-')"
        )


def check_output_path(path: str | os.PathLike[str], what: str = "output") -> Path:
    """The file to write for ``path`` (a symbolic link is followed to its target), else raise
    :class:`OutputPathError` quoting it: not empty, not an existing directory, device, named
    pipe or socket, in an existing folder where this process may create files (tried with a
    temporary file that is removed at once), and not ``-`` (which asks for standard output,
    not a file)."""
    text = os.fspath(path)
    _refuse_standard_output(text, what, "file")
    target = output_target(path, what)
    folder = target.parent
    if not folder.is_dir():
        raise OutputPathError(f"bad {what} file: {text!r} (no folder {str(folder)!r})")
    _check_can_create_files(folder, f"bad {what} file: {text!r}")
    return target


#: Bytes of an existing output file read to tell whether it is one a run may replace.
REPLACEABLE_PEEK = 4096


def check_replaceable_output(
    path: str | os.PathLike[str], what: str, kind: str, looks_ours: Callable[[bytes], bool]
) -> Path:
    """:func:`check_output_path`, and refuse, quoting ``path``, to replace an existing file
    that is neither empty nor a ``kind`` (``looks_ours`` of its first bytes): a checkpoint or
    notes named by mistake, hours of work or someone's file."""
    target = check_output_path(path, what)
    text = os.fspath(path)
    try:
        with open(target, "rb") as handle:
            start = handle.read(REPLACEABLE_PEEK)
    except FileNotFoundError:
        return target
    except OSError as error:
        raise OutputPathError(f"bad {what} file: {text!r} ({error.strerror})") from None
    if start and not looks_ours(start):
        raise OutputPathError(
            f"bad {what} file: {text!r} (it exists and is not {kind}; remove it or name "
            "another file)"
        )
    return target


def check_output_folder(path: str | os.PathLike[str], what: str = "output") -> Path:
    """The folder ``path`` names (made later, with its parents, if missing), else raise
    :class:`OutputPathError` quoting it: empty, something other than a folder, or under a
    folder where this process may not create files."""
    text = os.fspath(path)
    if not str(text).strip():
        raise OutputPathError(f"bad {what} folder: {text!r} (empty)")
    _refuse_standard_output(text, what, "folder")
    folder = Path(text).resolve()
    existing = folder
    while not existing.exists() and existing != existing.parent:
        existing = existing.parent
    if not existing.is_dir():
        if existing == folder:
            raise OutputPathError(f"bad {what} folder: {text!r} is not a folder")
        raise OutputPathError(f"bad {what} folder: {text!r} ({str(existing)!r} is not a folder)")
    _check_can_create_files(existing, f"bad {what} folder: {text!r}")
    return folder


def _check_can_create_files(folder: Path, refusal: str) -> None:
    """Raise :class:`OutputPathError` (``refusal`` and why) unless this process may create
    files in ``folder`` (tried with a temporary file that is removed at once)."""
    try:
        with tempfile.TemporaryFile(dir=folder):
            pass
    except OSError as error:
        raise OutputPathError(f"{refusal} (cannot write: {error.strerror})") from None


def output_target(path: str | os.PathLike[str], what: str = "output") -> Path:
    """The file that writing ``path`` replaces: ``path`` with its symbolic links followed.
    Raises :class:`OutputPathError` quoting ``path`` when it is empty or names something
    other than a regular file (a directory, a device, a named pipe, a socket), which an
    atomic write would replace."""
    text = os.fspath(path)
    if not str(text).strip():
        raise OutputPathError(f"bad {what} file: {text!r} (empty)")
    try:
        target = Path(text).resolve()
    except (OSError, RuntimeError) as error:  # a loop of symbolic links
        raise OutputPathError(f"bad {what} file: {text!r} ({error})") from None
    try:
        mode = target.stat().st_mode
    except FileNotFoundError:
        return target  # nothing there yet
    except OSError as error:  # a name too long, a file where a folder should be, ...
        raise OutputPathError(f"bad {what} file: {text!r} ({error.strerror})") from None
    if stat.S_ISDIR(mode):
        raise OutputPathError(f"bad {what} file: {text!r} is a directory")
    if not stat.S_ISREG(mode):
        kind = next((name for test, name in _SPECIAL_FILES if test(mode)), "a special file")
        raise OutputPathError(f"bad {what} file: {text!r} is {kind}, not a regular file")
    return target


_SPECIAL_FILES = (
    (stat.S_ISCHR, "a character device"),
    (stat.S_ISBLK, "a block device"),
    (stat.S_ISFIFO, "a named pipe"),
    (stat.S_ISSOCK, "a socket"),
)


class OutputPathError(ValueError):
    """An output file name that cannot be written."""


@contextlib.contextmanager
def atomic_output(path: str | os.PathLike[str]) -> Iterator[IO[bytes]]:
    """A file to write ``path``'s new content to: it replaces ``path`` (fsynced) when the
    block ends normally, and is removed when it raises, so readers never see half a file.
    A symbolic link is written through (its target is replaced, the link stays); a path
    that is not a regular file is refused (:func:`output_target`). The new content goes to a
    fresh file created beside the target (:func:`_new_temporary`), never through a file or
    link already there."""
    target = output_target(path)
    temporary, descriptor = _new_temporary(target)
    try:
        with os.fdopen(descriptor, "wb") as out:
            yield out
            out.flush()
            os.fsync(out.fileno())
        os.replace(temporary, target)
    finally:
        temporary.unlink(missing_ok=True)


#: Flags that create a new file and never open one already there (a symbolic link planted at
#: the name included).
_NEW_FILE_FLAGS = (
    os.O_WRONLY
    | os.O_CREAT
    | os.O_EXCL
    | getattr(os, "O_NOFOLLOW", 0)
    | getattr(os, "O_CLOEXEC", 0)
)


def _new_temporary(target: Path) -> tuple[Path, int]:
    """A new file beside ``target`` with an unpredictable name, and its open descriptor
    (permissions as ``open`` would give, the umask applied). The name starts with at most
    the first 40 characters of ``target``'s, so that it is never too long where ``target``'s
    name is not."""
    while True:
        name = f".{target.name[:40]}.{os.getpid()}.{secrets.token_hex(6)}.tmp"
        temporary = target.with_name(name)
        try:
            return temporary, os.open(temporary, _NEW_FILE_FLAGS, 0o666)
        except FileExistsError:
            continue


def write_atomic(path: str | os.PathLike[str], data: bytes) -> None:
    """Write ``data`` to ``path`` so readers see the old file or the new one, never half."""
    Path(path).parent.mkdir(parents=True, exist_ok=True)
    with atomic_output(path) as out:
        out.write(data)
