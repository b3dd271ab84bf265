"""The default backend: ``jobs=N`` forked worker processes of this machine."""

from __future__ import annotations

import contextlib
import multiprocessing
import os
import pickle
import traceback
from collections import deque
from dataclasses import dataclass, field
from multiprocessing.connection import Connection, wait
from typing import Any

from .interrupts import (
    default_stop_signals,
    ignore_interrupts,
    starting_workers,
)
from .workers import (
    ChunkResult,
    DealFunc,
    ExecutorError,
    check_versions,
    run_chunk,
    versions,
    warm_up_once,
    warm_up_worker,
)

#: Times one chunk may lose its worker before the run gives up.
MAX_CHUNK_RETRIES = 3


def _local_worker(conn: Connection, warm: str | None) -> None:
    """A local worker process: warm up, say so, then run chunks until told to stop. Ctrl-C
    is the parent's business (it ends the workers); a worker never prints a traceback."""
    ignore_interrupts()
    default_stop_signals()
    parent = os.getppid()
    try:
        warm_up_worker(warm)
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
        check_versions("worker process", message[1])

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
