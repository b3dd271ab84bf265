"""Run an audit over a set of claims on any backend of :mod:`!cloversolve.runs.executors`, and its
report: how many claims were checked, agreed and not re-checked, and every disagreement."""

from __future__ import annotations

import contextlib
import time
from collections import Counter
from dataclasses import dataclass, field
from functools import partial
from typing import Any

from tqdm import tqdm

from ..runs.executors import WorkTally, map_chunks, open_pool
from .checks import (
    AGREED,
    CONTRADICTED,
    NOT_RECHECKED,
    REFUSED,
    UNSUPPORTED,
    AuditBudget,
    audit_index,
)
from .claims import ClaimSet


@dataclass
class AuditReport:
    """The findings of an audit: counts by finding and by certificate kind, and every claim
    that is contradicted, refused or unsupported (deal number, finding, reason), and the deal
    numbers of the claims not re-checked."""

    preset: str
    budget: AuditBudget
    undecided: int = 0
    findings: Counter[str] = field(default_factory=Counter)
    kinds: Counter[str] = field(default_factory=Counter)
    disagreements: list[list[Any]] = field(default_factory=list)
    not_rechecked: list[int] = field(default_factory=list)
    seconds: float = 0.0
    #: CPU seconds of this process (with one job it runs the checks too; the workers' CPU
    #: inside the checks is ``work.cpu_seconds``).
    client_cpu_seconds: float = 0.0
    work: WorkTally = field(default_factory=WorkTally)

    def add(self, numbers: list[int], results: list[list[Any]]) -> None:
        for number, (finding, kind, reason) in zip(numbers, results, strict=True):
            self.findings[finding] += 1
            self.kinds[f"{kind or 'none'} {finding}"] += 1
            if finding in (CONTRADICTED, REFUSED, UNSUPPORTED):
                self.disagreements.append([number, finding, reason])
            elif finding == NOT_RECHECKED:
                self.not_rechecked.append(number)

    @property
    def checked(self) -> int:
        return sum(self.findings.values())

    @property
    def agreed(self) -> bool:
        """True when no claim is contradicted, refused or unsupported."""
        return not self.disagreements

    def to_json(self) -> dict[str, Any]:
        """The report as ``--json`` prints it; deal numbers in increasing order."""
        checked = self.checked
        disagreements = sorted(self.disagreements, key=lambda row: row[0])
        share = (lambda n: round(n / checked, 6)) if checked else (lambda n: None)
        return {
            "preset": self.preset,
            "checked": checked,
            "agreed": self.findings[AGREED],
            "not_rechecked": self.findings[NOT_RECHECKED],
            "contradicted": self.findings[CONTRADICTED],
            "refused": self.findings[REFUSED],
            "unsupported": self.findings[UNSUPPORTED],
            "agreed_share": share(self.findings[AGREED]),
            "not_rechecked_share": share(self.findings[NOT_RECHECKED]),
            "undecided_skipped": self.undecided,
            "by_certificate": dict(sorted(self.kinds.items())),
            "disagreeing_deals": [number for number, _, _ in disagreements],
            "disagreements": disagreements,
            "not_rechecked_deals": sorted(self.not_rechecked),
            "seconds": round(self.seconds, 3),
            "cpu_seconds": round(self.work.cpu_seconds, 3),
            "client_cpu_seconds": round(self.client_cpu_seconds, 3),
            "budget": {
                "max_nodes": self.budget.max_nodes,
                "time_limit": self.budget.time_limit,
                "max_positions": self.budget.max_positions,
            },
        }


def run_audit(
    claims: ClaimSet,
    budget: AuditBudget,
    *,
    jobs: int = 1,
    scheduler: str | None = None,
    chunk_size: int | None = None,
    progress: bool = False,
) -> AuditReport:
    """Audit every claim of ``claims`` on ``jobs`` local processes or the Dask ``scheduler``
    (see :func:`!cloversolve.runs.executors.open_pool`); the report is the same on any backend."""
    report = AuditReport(claims.preset, budget, claims.undecided)
    items = tuple(claims.claims)
    if not items:
        return report
    worker = partial(audit_index, claims.preset, budget, items)
    indices = range(len(items))
    with contextlib.ExitStack() as stack:
        pool = stack.enter_context(open_pool(jobs, scheduler, warm=claims.preset, numbers=indices))
        bar = stack.enter_context(
            tqdm(total=len(items), desc=f"audit {claims.preset}", unit="deal", disable=not progress)
        )
        started, cpu_started = time.perf_counter(), time.process_time()
        for chunk, results in map_chunks(
            pool, worker, indices, chunk_size=chunk_size, tally=report.work
        ):
            report.add([items[index].number for index in chunk], results)
            bar.update(len(chunk))
        report.seconds = time.perf_counter() - started
        report.client_cpu_seconds = time.process_time() - cpu_started
    return report
