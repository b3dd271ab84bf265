"""Decide numbered deals of ``cloverleaf`` / ``alexander`` and print the counts.

Usage::

    python benchmarks/clover_decide.py cloverleaf 1 1000 --time-limit 10
    python benchmarks/clover_decide.py alexander 1 1000 --max-nodes 2000000 --list-undecided

Prints solved / unsolvable / undecided counts, deals per second, the slowest deal and the
largest search (nodes). Timing is wall clock on whatever machine runs it: a measurement, not
a contract.
"""

from __future__ import annotations

import argparse
import time

from cloversolve.core.verdicts import Status
from cloversolve.families.clover.rules import CloverPosition
from cloversolve.families.clover.search import search
from cloversolve.games.dealing import deal
from cloversolve.runs.workers import warm_up_once
from cloversolve.search.common import Limits


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("preset", choices=("cloverleaf", "alexander"))
    parser.add_argument("first", type=int)
    parser.add_argument("last", type=int)
    parser.add_argument("--time-limit", type=float, default=10.0, help="seconds per deal")
    parser.add_argument("--max-nodes", type=int, default=None, help="nodes per deal")
    parser.add_argument("--max-memory", type=int, default=512, help="MiB per deal")
    parser.add_argument("--returns", action="store_true", help="search foundation returns too")
    parser.add_argument("--no-dead-ends", action="store_true", help="switch the dead-end cut off")
    parser.add_argument("--list-undecided", action="store_true")
    parser.add_argument("--progress", type=int, default=0, help="report every N deals")
    args = parser.parse_args()

    limits = Limits(
        max_nodes=args.max_nodes, time_limit=args.time_limit, max_memory=args.max_memory << 20
    )
    warm_up_once(args.preset)  # compile or load the kernels before the clock starts
    counts = dict.fromkeys(Status, 0)
    undecided: list[int] = []
    slowest = (0.0, 0, "")
    largest = (0, 0, "")
    started = time.perf_counter()
    for number in range(args.first, args.last + 1):
        position = CloverPosition.from_layout(deal(args.preset, number))
        tick = time.perf_counter()
        outcome = search(
            position,
            limits,
            foundation_returns=args.returns,
            dead_ends=not args.no_dead_ends,
        )
        seconds = time.perf_counter() - tick
        counts[outcome.status] += 1
        if outcome.status is Status.LIMIT_REACHED:
            undecided.append(number)
        if seconds > slowest[0]:
            slowest = (seconds, number, outcome.status.value)
        if outcome.nodes > largest[0]:
            largest = (outcome.nodes, number, outcome.status.value)
        done = number - args.first + 1
        if args.progress and done % args.progress == 0:
            print(
                f"  {done} deals: {counts[Status.SOLVED]} solved, "
                f"{counts[Status.UNSOLVABLE]} unsolvable, undecided {undecided}",
                flush=True,
            )
    elapsed = time.perf_counter() - started
    total = args.last - args.first + 1
    print(
        f"{args.preset} deals {args.first}..{args.last}: "
        f"solved {counts[Status.SOLVED]}, unsolvable {counts[Status.UNSOLVABLE]}, "
        f"undecided {counts[Status.LIMIT_REACHED]}"
    )
    print(f"budget per deal: time {args.time_limit} s, nodes {args.max_nodes}")
    print(f"{elapsed:.1f} s, {total / elapsed:.1f} deals/s")
    print(f"slowest: deal {slowest[1]} ({slowest[2]}) {slowest[0]:.2f} s")
    print(f"largest: deal {largest[1]} ({largest[2]}) {largest[0]} nodes")
    if args.list_undecided:
        print("undecided:", " ".join(map(str, undecided)))


if __name__ == "__main__":
    main()
