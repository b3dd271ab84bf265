"""Checkpoints: a run's finished chunks saved as it goes, so that a stopped run resumes where it
stopped, and the runs of deals that keep one."""

from __future__ import annotations

import contextlib
import hashlib
import os
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import IO, Any

from ..core.inputs import CHECKPOINT_FORMAT as CHECKPOINT_FORMAT
from ..core.inputs import shortened
from ..core.jsonio import dumps, loads
from .executors import WorkTally, map_chunks, open_pool
from .interrupts import (
    RunInterrupted,
    saved_deals_note,
)
from .locks import open_locked
from .workers import DealFunc, ExecutorError, Pool

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
        elsewhere: str = "give another checkpoint file",
    ) -> None:
        self.path = Path(path)
        #: How to start afresh instead, as the refusal of another run's checkpoint says it.
        self.elsewhere = elsewhere
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
                f"resume it, or {self.elsewhere}"
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
                f"(deals {first}..B); for this range, {self.elsewhere}"
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
    on_resume: Callable[[Path, int], None] | None = None,
) -> Iterator[tuple[range, list[Any]]]:
    """Every chunk of ``numbers`` in deal order: first those ``checkpoint`` holds, then the
    rest computed by ``pool`` and recorded as they are yielded. ``on_resume`` is told the
    checkpoint's path and how many deals it held when the run goes on after them."""
    start = numbers.start
    if checkpoint is not None:
        for chunk, results in checkpoint.records(numbers):
            start = chunk.stop
            yield chunk, results
        checkpoint.open()
        if on_resume is not None and start > numbers.start:
            on_resume(checkpoint.path, start - numbers.start)
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
