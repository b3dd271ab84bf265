"""Measure a preset's solver over a range of deals: speed, latency, budget misses, memory.

:func:`bench` decides every deal of a range on the pool of :mod:`cloversolve.runs.executors`
(local processes or Dask; every worker warmed up first, so compilation and cache loading are
never timed) and returns a :class:`BenchReport`:
deals/s, nodes/s, per-deal latency percentiles, undecided deals at the budget, the peak
resident memory of a worker, and the warm-start time of a fresh process (``python -c 'from
cloversolve import solve; solve(...)'``, with the numba cache already warm). Reports print as
JSON or as a Markdown table, and :func:`plot_latencies` draws the per-deal time distribution
when matplotlib is installed (the ``bench`` extra).
"""

from __future__ import annotations

import importlib.util
import re
import resource
import statistics
import subprocess
import sys
import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from functools import partial
from pathlib import Path
from typing import Any

import numpy as np

from ..core.jsonio import dumps
from ..core.verdicts import Status, verdict_counts
from ..games.registry import find_preset
from ..search.common import Limits
from ..solving.solver import solve
from .executors import map_chunks, open_pool
from .output import check_replaceable_output, write_atomic
from .workers import warm_up_once

#: Default per-deal time budget of a benchmark, in seconds.
DEFAULT_TIME_LIMIT = 10.0
#: The budgets of a benchmark's deal unless told otherwise.
BENCH_LIMITS = Limits(time_limit=DEFAULT_TIME_LIMIT)
#: Fresh processes timed for the warm-start figure (the median is reported).
WARM_START_RUNS = 3
#: The most deals one benchmark measures (it keeps every deal's record).
MAX_BENCH_DEALS = 1_000_000
#: Latency percentiles reported.
PERCENTILES = (50, 90, 99)

MARKDOWN_COLUMNS = (
    ("preset", "preset"),
    ("deals", "deals"),
    ("deals/s", "deals_per_second"),
    ("deals/CPU-s", "deals_per_cpu_second"),
    ("nodes/s", "nodes_per_second"),
    ("p50 ms", "p50_ms"),
    ("p90 ms", "p90_ms"),
    ("p99 ms", "p99_ms"),
    ("max ms", "max_ms"),
    (Status.LIMIT_REACHED.count_name, Status.LIMIT_REACHED.count_name),
    ("peak RSS MiB", "peak_rss_mib"),
    ("warm start s", "warm_start_seconds"),
)


def bench_deal(preset: str, limits: Limits, number: int) -> dict[str, Any]:
    """Decide one deal and time it (a picklable worker): wall and CPU seconds of ``solve()``
    (dealing, search and route check), its verdict and nodes, and the worker's peak RSS."""
    wall, cpu = time.perf_counter(), time.process_time()
    result = solve(preset, number, limits=limits)
    return {
        "status": result.status.value,
        "nodes": result.nodes,
        "wall": time.perf_counter() - wall,
        "cpu": time.process_time() - cpu,
        "rss": peak_rss_bytes(),
    }


def peak_rss_bytes(children: bool = False) -> int:
    """This process's peak resident set size in bytes (``getrusage``; Linux counts KiB). With
    ``children``, the largest of it and of every child process waited for so far: the figure
    the OS reports for the whole run (``/usr/bin/time -v``'s maximum resident set size)."""
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    if children:
        peak = max(peak, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)
    return peak if sys.platform == "darwin" else peak * 1024


@dataclass
class BenchReport:
    """The measurements of one preset over one range of deals."""

    preset: str
    numbers: list[int]
    records: dict[int, dict[str, Any]]
    wall_seconds: float
    jobs: int = 1
    budget: dict[str, Any] = field(default_factory=dict)
    warm_start_seconds: float | None = None
    #: Peak RSS of the run's processes (this one, its workers and warm-start runs), bytes.
    peak_rss: int | None = None

    @property
    def counts(self) -> dict[str, int]:
        tally = Counter(self.records[n]["status"] for n in self.numbers)
        return verdict_counts(tally)

    def _peak_rss(self) -> int:
        workers = max((r["rss"] for r in self.records.values()), default=0)
        return max(workers, self.peak_rss or 0)

    def latencies(self) -> list[float]:
        """Per-deal wall seconds, in deal order."""
        return [self.records[n]["wall"] for n in self.numbers]

    def summary(self) -> dict[str, Any]:
        """The headline figures (``None`` where there is nothing to measure)."""
        lat = np.array(self.latencies(), dtype=float)
        cpu = sum(self.records[n]["cpu"] for n in self.numbers)
        nodes = sum(self.records[n]["nodes"] for n in self.numbers)
        count = len(self.numbers)
        data: dict[str, Any] = {
            "preset": self.preset,
            "deals": _range_text(self.numbers),
            "count": count,
            "jobs": self.jobs,
            **self.counts,
            "wall_seconds": round(self.wall_seconds, 4),
            "cpu_seconds": round(cpu, 4),
            "deals_per_second": _rate(count, self.wall_seconds),
            "deals_per_cpu_second": _rate(count, cpu),
            "nodes": nodes,
            "nodes_per_second": _rate(nodes, cpu),
            "peak_rss_mib": round(self._peak_rss() / 2**20, 1),
            "warm_start_seconds": None
            if self.warm_start_seconds is None
            else round(self.warm_start_seconds, 3),
            "budget": self.budget,
        }
        for q in PERCENTILES:
            data[f"p{q}_ms"] = round(float(np.percentile(lat, q)) * 1e3, 3) if count else None
        data["max_ms"] = round(float(lat.max()) * 1e3, 3) if count else None
        return data

    def to_json(self, per_deal: bool = False) -> dict[str, Any]:
        """The summary, plus every deal's record with ``per_deal``."""
        data = self.summary()
        if per_deal:
            data["per_deal"] = {
                str(n): {
                    "status": self.records[n]["status"],
                    "nodes": self.records[n]["nodes"],
                    "wall": round(self.records[n]["wall"], 6),
                    "cpu": round(self.records[n]["cpu"], 6),
                }
                for n in self.numbers
            }
        return data


def _rate(amount: float, seconds: float) -> float | None:
    return round(amount / seconds, 2) if seconds > 0 else None


def _range_text(numbers: Sequence[int]) -> str:
    if not numbers:
        return ""
    if list(numbers) == list(range(numbers[0], numbers[-1] + 1)):
        return f"{numbers[0]}..{numbers[-1]}"
    return ",".join(str(n) for n in numbers)


def bench(
    preset: str,
    numbers: range,
    *,
    jobs: int = 1,
    scheduler: str | None = None,
    chunk_size: int | None = None,
    limits: Limits = BENCH_LIMITS,
    warm_start: bool = True,
) -> BenchReport:
    """Decide every deal in ``numbers`` of ``preset`` within ``limits`` each (by default
    :data:`DEFAULT_TIME_LIMIT` seconds) on ``jobs`` local processes or the Dask
    ``scheduler`` (:func:`cloversolve.runs.executors.open_pool`) and measure.

    Every worker has loaded the search kernels before the clock starts, and so has this
    process, so that the numba cache is warm for the warm-start measurement.
    """
    spec = find_preset(preset)
    if not isinstance(numbers, range) or numbers.step != 1 or numbers.stop <= numbers.start:
        raise ValueError("no deals to benchmark (expected a range A..B)")
    if numbers.stop - numbers.start > MAX_BENCH_DEALS:
        raise ValueError(
            f"bench keeps every deal's timing: at most {MAX_BENCH_DEALS:,} deals, got "
            f"{numbers.start}..{numbers.stop - 1} (use study for more)"
        )
    budget = asdict(limits)
    worker = partial(bench_deal, spec.name, limits)
    records: dict[int, dict[str, Any]] = {}
    with open_pool(jobs, scheduler, warm=spec.name, numbers=numbers) as pool:
        workers = pool.workers
        started = time.perf_counter()
        for chunk, results in map_chunks(pool, worker, numbers, chunk_size=chunk_size):
            records.update(zip(chunk, results, strict=True))
        wall = time.perf_counter() - started
    report = BenchReport(spec.name, list(numbers), records, wall, workers, budget)
    if warm_start:
        warm_up_once(spec.name)
        report.warm_start_seconds = measure_warm_start(spec.name, numbers[0])
    report.peak_rss = peak_rss_bytes(children=True)  # the workers have all been waited for
    return report


def measure_warm_start(preset: str, number: int, runs: int = WARM_START_RUNS) -> float | None:
    """Median wall seconds of a fresh interpreter that imports cloversolve and solves one deal
    (``None``, after one line on stderr, if that process fails)."""
    code = f"from cloversolve import solve; solve({preset!r}, {number}, time_limit=60)"
    times = []
    for _ in range(runs):
        started = time.perf_counter()
        done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
        if done.returncode != 0:
            last = (done.stderr.strip().splitlines() or ["no message"])[-1]
            print(f"warm start of {preset} failed: {last}", file=sys.stderr)
            return None
        times.append(time.perf_counter() - started)
    return statistics.median(times)


def markdown_table(rows: Sequence[dict[str, Any]]) -> str:
    """A Markdown table of benchmark summaries (one row per :meth:`BenchReport.summary`)."""
    head = "| " + " | ".join(title for title, _ in MARKDOWN_COLUMNS) + " |"
    rule = "|" + "|".join(" --- " for _ in MARKDOWN_COLUMNS) + "|"
    lines = [head, rule]
    for row in rows:
        cells = [_cell(row.get(key)) for _, key in MARKDOWN_COLUMNS]
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n"


def _cell(value: Any) -> str:
    if value is None:
        return "–"
    if isinstance(value, float):
        return f"{value:,.0f}" if abs(value) >= 100 else f"{value:.3g}"
    if isinstance(value, int):
        return f"{value:,}"
    return str(value)


def have_matplotlib() -> bool:
    return importlib.util.find_spec("matplotlib") is not None


def plot_latencies(report: BenchReport, path: str | Path) -> Path | None:
    """A PNG histogram of per-deal times (log scale), stacked by verdict.

    Returns the path written, or ``None`` (after printing one line to stderr) when
    matplotlib is not installed.
    """
    if not have_matplotlib():
        print(
            "matplotlib is not installed; skipping the plot (install the bench extra: "
            "python -m pip install '.[bench]' in a cloversolve checkout)",
            file=sys.stderr,
        )
        return None
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    times_ms = np.maximum(np.array(report.latencies()) * 1e3, 1e-3)
    bins = np.logspace(np.log10(times_ms.min()), np.log10(times_ms.max() * 1.01 + 1e-3), 40)
    groups, labels = [], []
    for status in Status:
        chosen = [
            report.records[n]["wall"] * 1e3
            for n in report.numbers
            if report.records[n]["status"] == status.value
        ]
        if chosen:
            groups.append(np.maximum(chosen, 1e-3))
            labels.append(f"{status.value} ({len(chosen)})")
    figure, axes = plt.subplots(figsize=(7, 4))
    axes.hist(groups, bins=bins.tolist(), stacked=True, label=labels)
    axes.set_xscale("log")
    axes.set_xlabel("time per deal (ms, wall, solve() incl. dealing and route check)")
    axes.set_ylabel("deals")
    summary = report.summary()
    axes.set_title(
        f"{report.preset}: deals {summary['deals']}, p50 {summary['p50_ms']} ms, "
        f"p99 {summary['p99_ms']} ms"
    )
    axes.legend()
    figure.tight_layout()
    target = Path(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    figure.savefig(target, dpi=100)
    plt.close(figure)
    return target


#: The table of every preset benchmarked, in the ``--out`` folder.
TABLE_FILE = "bench.md"


def output_files(preset: str, out_dir: str | Path) -> tuple[Path, Path, Path]:
    """The files :func:`write_outputs` writes for ``preset`` in ``out_dir``: its per-deal
    JSON, its latency plot and the table of every preset."""
    directory = Path(out_dir)
    return (
        directory / f"bench_{preset}.json",
        directory / f"bench_{preset}.png",
        directory / TABLE_FILE,
    )


#: Keys of a bench report's summary, at its start, that no other file of the toolkit writes.
_REPORT_KEYS = (b'"deals_per_cpu_second"', b'"peak_rss_mib"', b'"warm_start_seconds"')

#: The first bytes of a PNG image (the latency plot).
_PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def check_output_files(preset: str, out_dir: str | Path) -> None:
    """Refuse, before any deal, to replace a file of :func:`output_files` that is neither
    empty nor what a bench writes there (a bench report of ``preset``, a PNG image, a bench
    table): someone's notes named ``bench.md`` are not lost to a bench."""
    if not Path(out_dir).is_dir():
        return  # (made by the bench: nothing there to replace)
    report, plot, table = output_files(preset, out_dir)
    report_start = re.compile(rb'\s*\{\s*"preset"\s*:\s*' + re.escape(dumps(preset)))
    table_head = markdown_table([]).partition("\n")[0].encode()

    def is_report(start: bytes) -> bool:
        """A bench report of ``preset``: its preset first, then the figures only a bench
        writes (a route, a solve's or a study's JSON of the preset start alike)."""
        return bool(report_start.match(start)) and all(key in start for key in _REPORT_KEYS)

    for path, kind, looks_ours in (
        (report, f"a bench report of {preset}", is_report),
        (plot, "a PNG image", lambda start: start.startswith(_PNG_SIGNATURE)),
        (table, "a bench table", lambda start: start.startswith(table_head)),
    ):
        check_replaceable_output(path, "bench output", kind, looks_ours)


def write_outputs(reports: Sequence[BenchReport], out_dir: str | Path) -> list[Path]:
    """Write ``bench_<preset>.json`` (with per-deal records) and ``.png`` per report and a
    ``bench.md`` table (:func:`output_files`); returns the paths written."""
    written = []
    for report in reports:
        target, plot_file, _ = output_files(report.preset, out_dir)
        write_atomic(target, dumps(report.to_json(per_deal=True), indent=True))
        written.append(target)
        plot = plot_latencies(report, plot_file)
        if plot is not None:
            written.append(plot)
    table = Path(out_dir) / TABLE_FILE
    write_atomic(table, markdown_table([r.summary() for r in reports]).encode())
    written.append(table)
    return written
