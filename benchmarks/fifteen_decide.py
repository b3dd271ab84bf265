"""Decide a range of ``fifteen`` deals with the search kernel; print counts and speed.

    python benchmarks/fifteen_decide.py [--first 1] [--last 10000] [--no-force-courts]

Deals are dealt first; the rates count ``search()`` calls only (encode, kernel, route decode),
after the shared warm-up (``cloversolve.runs.workers.warm_up_once``) has compiled or loaded
the numba kernels, in wall-clock time and in
this process's CPU time (which a loaded machine does not distort). Every SOLVED route is
then replayed by the reference engine (outside the timing).
"""

from __future__ import annotations

import argparse
import gc
import time
from collections import Counter

from cloversolve.core.verdicts import Status
from cloversolve.families.fifteen.rules import FifteenPosition
from cloversolve.families.fifteen.search import search
from cloversolve.games.dealing import deal
from cloversolve.runs.workers import warm_up_once


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--first", type=int, default=1)
    parser.add_argument("--last", type=int, default=10000)
    parser.add_argument("--no-force-courts", action="store_true")
    args = parser.parse_args()
    force = not args.no_force_courts

    started = time.perf_counter()
    positions = [
        FifteenPosition.from_layout(deal("fifteen", n)) for n in range(args.first, args.last + 1)
    ]
    dealing = time.perf_counter() - started
    warm_up_once("fifteen")  # compile or load the kernels before the clock starts
    gc.collect()
    gc.freeze()  # the dealt positions are not the search's garbage to scan

    outcomes = []
    slowest, slowest_index = 0.0, 0
    started, started_cpu = time.perf_counter(), time.process_time()
    for position in positions:
        before = time.process_time()
        outcomes.append(search(position, force_courts=force))
        spent = time.process_time() - before
        if spent > slowest:
            slowest, slowest_index = spent, len(outcomes)
    elapsed = time.perf_counter() - started
    elapsed_cpu = time.process_time() - started_cpu

    for position, outcome in zip(positions, outcomes, strict=True):
        if outcome.status is Status.SOLVED:
            board = position.copy()
            for move in outcome.route:
                board.push_checked(move)
            assert board.is_won(), "a route failed to replay"

    counts = Counter(outcome.status for outcome in outcomes)
    total = len(outcomes)
    nodes = [outcome.nodes for outcome in outcomes]
    print(f"deals {args.first}..{args.last} ({total}), force_courts={force}")
    for status in Status:
        print(f"  {status.value:<11} {counts[status]:>7}  {counts[status] / total:.2%}")
    print(f"  nodes: mean {sum(nodes) / total:.1f}, max {max(nodes)}")
    print(f"  search wall: {elapsed:.3f} s, {total / elapsed:,.0f} deals/s")
    print(f"  search CPU:  {elapsed_cpu:.3f} s, {total / elapsed_cpu:,.0f} deals/s")
    print(f"  slowest deal: {slowest * 1e3:.2f} ms CPU (deal {args.first + slowest_index - 1})")
    print(f"  dealing (not counted): {dealing:.3f} s")
    print("  every solved route replayed to a win")


if __name__ == "__main__":
    main()
