"""Decide numbered Four Leaf Clovers deals with the search kernel and print the counts.

Usage::

    python benchmarks/thirteen_decide.py    # thirteen 1..1000, thirteen-return 1..300
    python benchmarks/thirteen_decide.py thirteen 1 3300 --jobs 2 --max-nodes 20000000 --verify

For each preset: deals solved, unsolvable (by method), undecided within the per-deal node
budget, and the throughput in deals per second (wall clock, worker processes already started
and their kernels loaded; dealing and searching included, route replay only with --verify).
Deals run on the pool of ``cloversolve.runs.executors`` (``--jobs N`` processes, or Dask with
``--scheduler tcp://HOST:PORT`` or ``local:N``).
Numbers are measurements of this machine, never asserted anywhere.
"""

from __future__ import annotations

import argparse
import os
import time
from collections import Counter
from functools import partial

from cloversolve.core.verdicts import Status
from cloversolve.families.thirteen.rules import ThirteenPosition
from cloversolve.families.thirteen.search import search
from cloversolve.games.dealing import deal
from cloversolve.runs.executors import map_chunks, open_pool
from cloversolve.search.common import Limits

DEFAULT_RUNS = (("thirteen", 1, 1000), ("thirteen-return", 1, 300))


def decide(preset: str, max_nodes: int, verify: bool, number: int) -> tuple[int, str, int, float]:
    """Search one deal; return (number, verdict label, nodes, CPU seconds)."""
    start = time.process_time()
    position = ThirteenPosition.from_layout(deal(preset, number))
    outcome = search(position, Limits(max_nodes=max_nodes))
    cpu = time.process_time() - start
    if outcome.status is Status.SOLVED:
        label = "solved"
        if verify:
            for move in outcome.route:
                position.push_checked(move)
            if not position.is_won():
                raise AssertionError(f"{preset} {number}: the route does not win")
    elif outcome.status is Status.UNSOLVABLE:
        label = f"unsolvable ({outcome.method.value})"
    else:
        label = f"undecided ({outcome.details.get('stopped_by')})"
    return number, label, outcome.nodes, cpu


def run(
    preset: str,
    first: int,
    last: int,
    jobs: int,
    scheduler: str | None,
    max_nodes: int,
    verify: bool,
) -> None:
    numbers = range(first, last + 1)
    worker = partial(decide, preset, max_nodes, verify)
    with open_pool(jobs, scheduler, warm=preset, numbers=numbers) as pool:
        jobs = pool.workers
        start = time.perf_counter()
        results = [r for _, chunk in map_chunks(pool, worker, numbers) for r in chunk]
        wall = time.perf_counter() - start
    counts = Counter(label for _, label, _, _ in results)
    undecided = [n for n, label, _, _ in results if label.startswith("undecided")]
    nodes = sum(r[2] for r in results)
    cpu = sum(r[3] for r in results)
    print(f"{preset} deals {first}..{last} (max {max_nodes:,} nodes per deal, {jobs} jobs)")
    for label, count in sorted(counts.items()):
        print(f"  {label:<36} {count:>6}")
    listed = ", ".join(str(n) for n in undecided[:20]) + (" ..." if len(undecided) > 20 else "")
    print(f"  {'undecided in all':<36} {len(undecided):>6}  {listed}")
    print(f"  nodes {nodes:,}; CPU {cpu:.2f} s ({len(results) / cpu:,.0f} deals/s per core)")
    print(f"  wall {wall:.2f} s: {len(results) / wall:,.0f} deals/s on {jobs} processes")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("preset", nargs="?", choices=("thirteen", "thirteen-return"))
    parser.add_argument("first", nargs="?", type=int, default=1)
    parser.add_argument("last", nargs="?", type=int, default=1000)
    parser.add_argument("--jobs", type=int, default=min(2, os.cpu_count() or 1))
    parser.add_argument("--scheduler", default=None, help="tcp://HOST:PORT or local:N (Dask)")
    parser.add_argument("--max-nodes", type=int, default=20_000_000)
    parser.add_argument("--verify", action="store_true", help="replay every route")
    args = parser.parse_args()
    runs = ((args.preset, args.first, args.last),) if args.preset else DEFAULT_RUNS
    for preset, first, last in runs:
        run(preset, first, last, args.jobs, args.scheduler, args.max_nodes, args.verify)


if __name__ == "__main__":
    main()
