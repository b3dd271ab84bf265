"""One executor seam for studies and catalogue builds: many deals, several processes,
a progress bar, and a checkpoint so an interrupted run loses no finished deal.

Workers are plain top-level functions ``func(number) -> JSON-ready dict`` (picklable).
Results are returned keyed by deal number; callers order them, so outputs never depend on
how many processes ran or in which order they finished.
"""

from __future__ import annotations

import multiprocessing
import os
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import Any

import orjson
from tqdm import tqdm

Worker = Callable[[int], dict[str, Any]]


def _call(job: tuple[Worker, int]) -> tuple[int, dict[str, Any]]:
    func, number = job
    return number, func(number)


def run_unordered(
    func: Worker,
    numbers: Iterable[int],
    jobs: int = 1,
    *,
    desc: str | None = None,
    progress: bool = True,
) -> Iterator[tuple[int, dict[str, Any]]]:
    """Yield ``(number, func(number))`` as results complete, over ``jobs`` processes."""
    todo = list(numbers)
    bar = tqdm(total=len(todo), desc=desc, unit="deal", disable=not progress, smoothing=0.05)
    try:
        if jobs <= 1 or len(todo) <= 1:
            for number in todo:
                yield number, func(number)
                bar.update()
            return
        chunk = max(1, min(64, len(todo) // (jobs * 16)))
        with multiprocessing.get_context("fork").Pool(jobs) as pool:
            for number, result in pool.imap_unordered(
                _call, ((func, n) for n in todo), chunksize=chunk
            ):
                yield number, result
                bar.update()
    finally:
        bar.close()


class Checkpoint:
    """An append-only JSON-lines file of finished deals, read back when a run resumes.

    A line cut short by a crash is ignored (its deal is simply redone).
    """

    def __init__(self, path: str | os.PathLike[str], header: dict[str, Any]) -> None:
        self.path = Path(path)
        self.header = header
        self.done: dict[int, dict[str, Any]] = {}
        if self.path.exists():
            self._load()

    def _load(self) -> None:
        lines = self.path.read_bytes().splitlines()
        try:
            header = orjson.loads(lines[0]) if lines else None
        except orjson.JSONDecodeError:
            header = None
        if header != self.header:
            raise ValueError(
                f"checkpoint {str(self.path)!r} belongs to a run with other parameters; "
                "delete it to start afresh"
            )
        for line in lines[1:]:
            try:
                record = orjson.loads(line)
            except orjson.JSONDecodeError:
                continue
            self.done[record["number"]] = record["result"]

    def run(
        self,
        func: Worker,
        numbers: Iterable[int],
        jobs: int = 1,
        *,
        desc: str | None = None,
        progress: bool = True,
    ) -> dict[int, dict[str, Any]]:
        """Compute every deal not yet done, appending each result as soon as it exists."""
        todo = [n for n in numbers if n not in self.done]
        fresh = not self.path.exists() or self.path.stat().st_size == 0
        self.path.parent.mkdir(parents=True, exist_ok=True)
        with self.path.open("ab") as out:
            if fresh:
                out.write(orjson.dumps(self.header) + b"\n")
            for number, result in run_unordered(func, todo, jobs, desc=desc, progress=progress):
                self.done[number] = result
                out.write(orjson.dumps({"number": number, "result": result}) + b"\n")
                out.flush()
        return self.done

    def remove(self) -> None:
        self.path.unlink(missing_ok=True)


def write_atomic(path: str | os.PathLike[str], data: bytes) -> None:
    """Write ``data`` to ``path`` so readers see the old file or the new one, never half."""
    target = Path(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    temporary = target.with_name(f".{target.name}.{os.getpid()}.tmp")
    with temporary.open("wb") as out:
        out.write(data)
        out.flush()
        os.fsync(out.fileno())
    os.replace(temporary, target)
