"""Solvability studies: decide a range of deals and report the rate with honest intervals.

Undecided deals are never guessed: the solvable rate's interval is the union of the Wilson 95%
interval with every undecided deal counted as a loss and the one with every undecided deal
counted as a win (as Solvitaire's paper reports it).
"""

from __future__ import annotations

import math
import time
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import partial
from typing import Any

from .parallel import Checkpoint, run_unordered
from .presets import find_preset
from .search.common import DEFAULT_MAX_MEMORY, Limits, Status
from .solver import solve, warm_up

Z_95 = 1.959963984540054


def wilson_interval(successes: int, trials: int, z: float = Z_95) -> tuple[float, float]:
    """The Wilson score interval for a binomial proportion (``(0, 1)`` for no trials)."""
    if trials == 0:
        return 0.0, 1.0
    p = successes / trials
    denominator = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denominator
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denominator
    return max(0.0, centre - half), min(1.0, centre + half)


def study_deal(
    preset: str, max_nodes: int | None, time_limit: float | None, max_memory: int, number: int
) -> dict[str, Any]:
    """Decide one deal; a JSON-ready record of its verdict (a picklable worker)."""
    result = solve(
        preset, number, max_nodes=max_nodes, time_limit=time_limit, max_memory=max_memory
    )
    return {
        "status": result.status.value,
        "method": result.method.value,
        "nodes": result.nodes,
        "seconds": round(result.seconds, 6),
        "route_length": len(result.route),
    }


@dataclass
class StudyReport:
    """Counts, the rate with its interval, and every deal's record."""

    preset: str
    numbers: list[int]
    records: dict[int, dict[str, Any]]
    seconds: float
    budget: dict[str, Any] = field(default_factory=dict)

    @property
    def counts(self) -> dict[str, int]:
        tally = Counter(self.records[n]["status"] for n in self.numbers)
        return {
            "solvable": tally[Status.SOLVED.value],
            "unsolvable": tally[Status.UNSOLVABLE.value],
            "undecided": tally[Status.LIMIT_REACHED.value],
        }

    @property
    def methods(self) -> dict[str, int]:
        return dict(sorted(Counter(self.records[n]["method"] for n in self.numbers).items()))

    @property
    def interval(self) -> tuple[float, float]:
        """Wilson 95% interval, undecided deals counted once as losses and once as wins."""
        c, n = self.counts, len(self.numbers)
        low, _ = wilson_interval(c["solvable"], n)
        _, high = wilson_interval(c["solvable"] + c["undecided"], n)
        return low, high

    def per_deal_seconds(self) -> list[float]:
        return [self.records[n]["seconds"] for n in self.numbers]

    def to_json(self, per_deal: bool = False) -> dict[str, Any]:
        counts, n = self.counts, len(self.numbers)
        low, high = self.interval
        data: dict[str, Any] = {
            "preset": self.preset,
            "deals": {"first": self.numbers[0], "last": self.numbers[-1], "count": n}
            if self.numbers
            else {"count": 0},
            **counts,
            "methods": self.methods,
            "solvable_rate": counts["solvable"] / n if n else None,
            "interval_95": [round(low, 6), round(high, 6)],
            "seconds": round(self.seconds, 3),
            "budget": self.budget,
        }
        if per_deal:
            data["per_deal"] = {str(k): self.records[k]["status"] for k in self.numbers}
        return data


def study(
    preset: str,
    numbers: Iterable[int],
    *,
    jobs: int = 1,
    max_nodes: int | None = None,
    time_limit: float | None = None,
    max_memory: int = DEFAULT_MAX_MEMORY,
    checkpoint: str | None = None,
    progress: bool = False,
) -> StudyReport:
    """Decide every deal in ``numbers`` of ``preset`` over ``jobs`` processes.

    With ``checkpoint`` (a file path) finished deals are recorded as they complete, and a
    repeated call with the same parameters resumes where the last one stopped.
    """
    spec = find_preset(preset)
    # Refuse bad budgets before any work (the workers would each meet them).
    Limits(max_nodes=max_nodes, time_limit=time_limit, max_memory=max_memory)
    todo = list(numbers)
    budget = {"max_nodes": max_nodes, "time_limit": time_limit, "max_memory": max_memory}
    worker = partial(study_deal, spec.name, max_nodes, time_limit, max_memory)
    warm_up(spec.name)  # a cold kernel cache must not eat the first deals' time limit
    started = time.perf_counter()
    if checkpoint is not None:
        header = {"kind": "study", "preset": spec.name, **budget}
        records = Checkpoint(checkpoint, header).run(
            worker, todo, jobs, desc=spec.name, progress=progress
        )
    else:
        records = dict(run_unordered(worker, todo, jobs, desc=spec.name, progress=progress))
    return StudyReport(spec.name, todo, records, time.perf_counter() - started, budget)
