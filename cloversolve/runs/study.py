"""Solvability studies: decide a range of deals and report the rate with honest intervals.

Undecided deals are never guessed: the solvable rate's interval is the union of the Wilson 95%
interval with every undecided deal counted as a loss and the one with every undecided deal
counted as a win (as Solvitaire's paper reports it).

A study keeps counts, not deals: results are tallied chunk by chunk as they arrive (in deal
order, from any backend of :mod:`cloversolve.runs.executors`), per-deal verdicts stream to a
verdict file, and the checkpoint records finished chunks, so its memory does not grow with the
number of deals.
"""

from __future__ import annotations

import contextlib
import math
import os
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from functools import partial
from pathlib import Path
from typing import IO, Any

from tqdm import tqdm

from ..core.inputs import opens_with_format
from ..core.jsonio import dumps, shown
from ..core.verdicts import VERDICT_LETTERS, Method, Status, verdict_counts
from ..games.registry import find_preset
from ..search.common import DEFAULT_LIMITS, Limits
from ..solving.solver import solve
from .checkpoints import Checkpoint, report_saved_deals, run_checkpointed
from .executors import WorkTally, open_pool
from .output import (
    atomic_output,
    check_output_path,
    check_replaceable_output,
    check_separate_files,
)
from .study_files import (
    CERTIFICATES_FORMAT,
    VERDICT_FILE_VERSION,
    VERDICT_FORMAT,
)
from .workers import versions

Z_95 = 1.959963984540054


def wilson_interval(successes: float, trials: int, z: float = Z_95) -> tuple[float, float]:
    """The Wilson score interval for a binomial proportion (``(0, 1)`` for no trials);
    ``successes`` may be a sum of per-trial rates (a mean rate times the trials)."""
    if trials == 0:
        return 0.0, 1.0
    p = successes / trials
    denominator = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denominator
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denominator
    return max(0.0, centre - half), min(1.0, centre + half)


_METHODS = frozenset(method.value for method in Method)
#: Verdicts per line of a verdict file (line k holds deals first + 100k ..).
VERDICTS_PER_LINE = 100
#: A deal whose search takes longer than this counts as slow in a study's report.
SLOW_DEAL_SECONDS = 1.0


def study_deal(preset: str, limits: Limits, number: int) -> list[Any]:
    """Decide one deal (a picklable worker): ``[status, method, nodes, seconds]``."""
    result = solve(preset, number, limits=limits)
    return [result.status.value, result.method.value, result.nodes, round(result.seconds, 6)]


def study_deal_certified(preset: str, limits: Limits, number: int) -> list[Any]:
    """:func:`study_deal` and the one-line certificate of the verdict (``None``: undecided)."""
    result = solve(preset, number, limits=limits)
    proof = None if result.certificate is None else result.certificate.to_text()
    return [
        result.status.value,
        result.method.value,
        result.nodes,
        round(result.seconds, 6),
        proof,
    ]


@dataclass
class StudyReport:
    """Counts, methods and the rate with its interval of a range of deals."""

    preset: str
    first: int
    last: int
    budget: dict[str, Any]
    statuses: Counter[str] = field(default_factory=Counter)
    method_counts: Counter[str] = field(default_factory=Counter)
    nodes: int = 0
    search_seconds: float = 0.0
    #: Deals whose search took longer than :data:`SLOW_DEAL_SECONDS`, and the longest search.
    slow_deals: int = 0
    slowest_seconds: float = 0.0
    seconds: float = 0.0
    #: CPU seconds of this process over the same span (client and, for ``local:N``, the
    #: Dask scheduler; not the workers').
    client_cpu_seconds: float = 0.0
    #: Wall and CPU seconds the workers spent on the deals decided in this run.
    work: WorkTally = field(default_factory=WorkTally)
    #: Every deal's verdict letter in deal order (kept only when asked for).
    letters: bytearray | None = None
    #: Lines of the checkpoint cut short by an interrupted write, dropped (their deals were
    #: decided again).
    checkpoint_lines_dropped: int = 0

    def add(self, results: list[list[Any]]) -> None:
        """Tally one chunk of :func:`study_deal` results."""
        for status, method, nodes, seconds, *_ in results:
            self.statuses[status] += 1
            self.method_counts[method] += 1
            self.nodes += nodes
            self.search_seconds += seconds
            self.slow_deals += seconds > SLOW_DEAL_SECONDS
            self.slowest_seconds = max(self.slowest_seconds, seconds)
        if self.letters is not None:
            self.letters += "".join(VERDICT_LETTERS[r[0]] for r in results).encode()

    @property
    def count(self) -> int:
        return sum(self.statuses.values())

    @property
    def counts(self) -> dict[str, int]:
        return verdict_counts(self.statuses)

    @property
    def methods(self) -> dict[str, int]:
        return dict(sorted(self.method_counts.items()))

    @property
    def solvable_rate(self) -> float | None:
        """Solvable deals over all deals; ``None`` (unknown) when no deal was decided."""
        solved = self.statuses[Status.SOLVED.value]
        if solved + self.statuses[Status.UNSOLVABLE.value] == 0:
            return None
        return solved / self.count

    @property
    def interval(self) -> tuple[float, float]:
        """Wilson 95% interval, undecided deals counted once as losses and once as wins."""
        solved, n = self.statuses[Status.SOLVED.value], self.count
        low, _ = wilson_interval(solved, n)
        _, high = wilson_interval(solved + self.statuses[Status.LIMIT_REACHED.value], n)
        return low, high

    def verdicts(self) -> dict[int, str]:
        """Every deal's status (``solved``, ``unsolvable``, ``limit``), when kept."""
        if self.letters is None:
            raise ValueError("this study did not keep per-deal verdicts")
        return {self.first + i: Status.of_letter(chr(c)).value for i, c in enumerate(self.letters)}

    def to_json(self, per_deal: bool = False) -> dict[str, Any]:
        counts, n = self.counts, self.count
        low, high = self.interval
        data: dict[str, Any] = {
            "preset": self.preset,
            "deals": {"first": self.first, "last": self.last, "count": n} if n else {"count": 0},
            **counts,
            "methods": self.methods,
            "solvable_rate": self.solvable_rate,
            "interval_95": [round(low, 6), round(high, 6)],
            "seconds": round(self.seconds, 3),
            "search_seconds": round(self.search_seconds, 3),
            "deals_over_1s": self.slow_deals,
            "slowest_seconds": round(self.slowest_seconds, 3),
            "budget": self.budget,
        }
        if per_deal:
            data["per_deal"] = {str(k): v for k, v in self.verdicts().items()}
        return data


class CertificateWriter:
    """The side file of a verdict file: a JSON header line (format, preset, first deal), then
    one line per decided deal, its number and its certificate's one-line form
    (:meth:`cloversolve.solving.certificates.Certificate.to_text`)."""

    def __init__(self, out: IO[bytes], header: dict[str, Any]) -> None:
        self.out = out
        opening = {"format": CERTIFICATES_FORMAT, "version": VERDICT_FILE_VERSION, **header}
        out.write(dumps(opening) + b"\n")

    def add(self, chunk: range, results: list[list[Any]]) -> None:
        lines = [f"{n} {r[4]}\n" for n, r in zip(chunk, results, strict=True) if r[4]]
        self.out.write("".join(lines).encode())


class VerdictWriter:
    """A compact verdict file: a JSON header line (format, preset, first deal, budget), then
    one letter per deal in deal order (``s`` solved, ``u`` unsolvable, ``?`` undecided at the
    budget), :data:`VERDICTS_PER_LINE` to a line."""

    def __init__(self, out: IO[bytes], header: dict[str, Any]) -> None:
        self.out = out
        self.pending = ""
        opening = {"format": VERDICT_FORMAT, "version": VERDICT_FILE_VERSION, **header}
        out.write(dumps(opening) + b"\n")

    def add(self, results: list[list[Any]]) -> None:
        self.pending += "".join(VERDICT_LETTERS[r[0]] for r in results)
        full = len(self.pending) - len(self.pending) % VERDICTS_PER_LINE
        for start in range(0, full, VERDICTS_PER_LINE):
            self.out.write(self.pending[start : start + VERDICTS_PER_LINE].encode() + b"\n")
        self.pending = self.pending[full:]

    def finish(self) -> None:
        if self.pending:
            self.out.write(self.pending.encode() + b"\n")
        self.pending = ""


def study_result_problem(result: Any) -> str | None:
    """Why ``result`` is not one :func:`study_deal` makes, or None (a forged checkpoint
    record must not reach the counts)."""
    if not (isinstance(result, list) and len(result) in (4, 5)):
        return f"{shown(result)} is not [status, method, nodes, seconds]"
    status, method, nodes, seconds, *proof = result
    if proof and not (proof[0] is None or isinstance(proof[0], str)):
        return f"certificate {shown(proof[0])} is not a certificate's text"
    if status not in VERDICT_LETTERS:
        return f"status {shown(status)} is not one of {', '.join(VERDICT_LETTERS)}"
    if method not in _METHODS:
        return f"method {shown(method)} is not a search method"
    if isinstance(nodes, bool) or not isinstance(nodes, int) or nodes < 0:
        return f"nodes {shown(nodes)} is not a count"
    if isinstance(seconds, bool) or not isinstance(seconds, int | float):
        return f"seconds {shown(seconds)} is not a number"
    if not (math.isfinite(seconds) and seconds >= 0):
        return f"seconds {shown(seconds)} is not a number of seconds"
    return None


def study(
    preset: str,
    numbers: range,
    *,
    jobs: int = 1,
    scheduler: str | None = None,
    chunk_size: int | None = None,
    limits: Limits = DEFAULT_LIMITS,
    checkpoint: str | os.PathLike[str] | None = None,
    verdicts: str | os.PathLike[str] | None = None,
    certificates: str | os.PathLike[str] | None = None,
    per_deal: bool = False,
    progress: bool = False,
    on_resume: Callable[[Path, int], None] | None = None,
) -> StudyReport:
    """Decide every deal in ``numbers`` (a range) of ``preset`` within ``limits`` each, on
    ``jobs`` local processes or the Dask ``scheduler`` (see
    :func:`cloversolve.runs.executors.open_pool`).

    With ``checkpoint`` (a file path) finished chunks are recorded as they complete, and a
    repeated call with the same parameters (any backend, the same first deal, a longer or a
    shorter range) resumes where the last one stopped. A file that is not a checkpoint is
    refused, never overwritten; Ctrl-C raises :class:`~cloversolve.runs.interrupts.RunInterrupted`
    saying how many deals the checkpoint holds. ``verdicts`` streams every deal's verdict to
    a compact file (:class:`VerdictWriter`), ``certificates`` their certificates to its side
    file (:class:`CertificateWriter`); ``per_deal`` keeps them in the report too (one byte a
    deal). ``on_resume`` is told the checkpoint's path and the deals it held when a study
    goes on from them.
    """
    spec = find_preset(preset)
    if numbers.step != 1 or numbers.stop <= numbers.start:
        raise ValueError("a study needs a non-empty range of consecutive deal numbers")
    budget = asdict(limits)
    if certificates is not None and verdicts is None:
        raise ValueError("a side file of certificates goes with a verdict file")
    deals = f"{spec.name} deals from {numbers.start}"
    for path, what, kind, file_format in (
        (verdicts, "verdicts", "a verdict file", VERDICT_FORMAT),
        (certificates, "certificates", "a certificates file", CERTIFICATES_FORMAT),
    ):
        if path is not None:
            ours = partial(
                opens_with_format, file_format=file_format, preset=spec.name, first=numbers.start
            )
            check_replaceable_output(path, what, f"{kind} of {deals}", ours)
    if checkpoint is not None:
        check_output_path(checkpoint, "checkpoint")
    check_separate_files(
        [(verdicts, "verdicts"), (certificates, "certificates"), (checkpoint, "checkpoint")]
    )
    version, rules_version = versions()
    header = {"kind": "study", "preset": spec.name, **budget}
    if certificates is not None:  # (a checkpoint without certificates cannot serve)
        header["certificates"] = True
    header.update(toolkit_version=version, rules_version=rules_version)
    saved = None if checkpoint is None else Checkpoint(checkpoint, header, study_result_problem)
    if saved is not None:
        saved.check()  # not a checkpoint, or another run's: refused before any work
    deal_func = study_deal if certificates is None else study_deal_certified
    worker = partial(deal_func, spec.name, limits)
    report = StudyReport(spec.name, numbers.start, numbers.stop - 1, budget)
    report.letters = bytearray() if per_deal else None
    with report_saved_deals(saved, numbers), contextlib.ExitStack() as stack:
        writer = None
        if verdicts is not None:
            out = stack.enter_context(atomic_output(verdicts))
            writer = VerdictWriter(out, {"preset": spec.name, "first": numbers.start, **budget})
        proofs = None
        if certificates is not None:
            side = stack.enter_context(atomic_output(certificates))
            proofs = CertificateWriter(side, {"preset": spec.name, "first": numbers.start})
        pool = stack.enter_context(open_pool(jobs, scheduler, warm=spec.name, numbers=numbers))
        bar = stack.enter_context(
            tqdm(
                total=numbers.stop - numbers.start,
                desc=spec.name,
                unit="deal",
                disable=not progress,
                smoothing=0.05,
            )
        )
        if saved is not None:
            stack.callback(saved.close)
        started = time.perf_counter()  # the workers are warm: kernels are never timed
        cpu_started = time.process_time()
        chunks = run_checkpointed(
            pool,
            worker,
            numbers,
            saved,
            chunk_size=chunk_size,
            tally=report.work,
            on_resume=on_resume,
        )
        for chunk, results in chunks:
            report.add(results)
            if writer is not None:
                writer.add(results)
            if proofs is not None:
                proofs.add(chunk, results)
            bar.update(len(chunk))
        report.seconds = time.perf_counter() - started
        report.client_cpu_seconds = time.process_time() - cpu_started
        report.checkpoint_lines_dropped = 0 if saved is None else saved.dropped
        if writer is not None:
            writer.finish()
    return report
