"""The Dask backend: ``scheduler="local:N"`` (a ``LocalCluster`` of N single-threaded worker
processes) or ``scheduler="tcp://HOST:PORT"`` (the workers of a running Dask scheduler, whose
versions are checked too: it unpickles every task)."""

from __future__ import annotations

import gc
import re
import socket
import struct
import time
import warnings
from collections.abc import Callable
from concurrent.futures import CancelledError
from typing import Any

from ..core.inputs import shortened
from ..games.registry import find_preset
from ..search.plugin import announce_compiling
from .interrupts import (
    ignore_interrupts,
    starting_workers,
)
from .workers import (
    ChunkResult,
    DealFunc,
    ExecutorError,
    cap_jobs,
    check_versions,
    run_chunk,
    versions,
    warm_up_worker,
)

#: Seconds to wait for a Dask scheduler's first worker, and for a worker to join again when
#: every worker has left a running cluster.
WAIT_FOR_WORKERS = 60


#: Seconds between checks that a Dask cluster still has a worker, while no chunk finishes.
WORKER_CHECK = 5


#: Seconds a Dask scheduler has to greet a new connection.
SCHEDULER_GREETING = 10


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
                    announce_compiling(find_preset(warm).family)
            self.client.run(warm_up_worker, warm)
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
            check_versions(f"worker {where}", stamp)

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
        check_versions(f"scheduler {address}", stamp, "on the scheduler's machine")

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
#: take these settings from their own environment (see ``docs/clusters.md``).
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
