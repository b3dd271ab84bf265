"""Decide numbered deals of ``blackhole`` / ``allinarow`` and print the counts and speed.

Usage::

    python benchmarks/hole_decide.py                       # both presets, deals 1..1000
    python benchmarks/hole_decide.py blackhole --last 5000 --max-nodes 10000000
    python benchmarks/hole_decide.py --bhs /path/to/multi-bhs-solver

Prints solvable / unsolvable / undecided counts, deals per second (wall clock and CPU), nodes,
states and the slowest deal. With ``--bhs`` it also runs black-hole-solver's command-line
program for many boards (``multi-bhs-solver``, built from its C sources beside
``black-hole-solve``, which takes one board only) on the same deals, with ranks wrapping, a
Queen playable on a King (as in our rules), its rank reachability prune and a
10-million-iteration cap, compares the verdicts deal by deal and reports its CPU time; a
program that is missing or decides nothing is said in one line and skipped. (``run.py``'s
``bhs`` part compares through black-hole-solver's library instead, alternating deal by deal.)
Timings are measurements on whatever machine runs this, not contracts.
"""

from __future__ import annotations

import argparse
import resource
import subprocess
import tempfile
import time
from pathlib import Path

from cloversolve.core.verdicts import Status
from cloversolve.families.hole.rules import HolePosition
from cloversolve.families.hole.search import PRUNES, search
from cloversolve.games.dealing import deal
from cloversolve.runs.workers import warm_up_once
from cloversolve.search.common import Limits

BHS_GAMES = {"blackhole": "black_hole", "allinarow": "all_in_a_row"}
BHS_VERDICTS = {"Solved!": Status.SOLVED, "Unsolved!": Status.UNSOLVABLE}


def decide(preset: str, numbers: range, limits: Limits, prune: tuple[str, ...]) -> dict:
    """Search every deal; return verdicts and totals."""
    warm_up_once(preset)  # compile or load the kernels before the clock starts
    verdicts: dict[int, Status] = {}
    nodes = states = 0
    slowest = (0.0, 0)
    wall, cpu = time.perf_counter(), time.process_time()
    for number in numbers:
        position = HolePosition.from_layout(deal(preset, number))
        started = time.perf_counter()
        outcome = search(position, limits, prune=prune)
        slowest = max(slowest, (time.perf_counter() - started, number))
        verdicts[number] = outcome.status
        nodes += outcome.nodes
        states += outcome.states
    return {
        "verdicts": verdicts,
        "wall": time.perf_counter() - wall,
        "cpu": time.process_time() - cpu,
        "nodes": nodes,
        "states": states,
        "slowest": slowest,
    }


def board_text(preset: str, number: int) -> str:
    """A deal in black-hole-solver's board format (fans bottom card first)."""
    layout = deal(preset, number)
    top = layout.foundation_map["F"]
    lines = ["Foundations: " + (str(top[-1]) if top else "-")]
    lines += [" ".join(str(c) for c in pile) for pile in layout.piles]
    return "\n".join(lines) + "\n"


def run_black_hole_solver(program: str, preset: str, numbers: range) -> tuple[dict, float]:
    """black-hole-solver's verdict per deal and its CPU seconds (``OSError`` if the program
    cannot be run)."""
    with tempfile.TemporaryDirectory() as folder:
        files = []
        for number in numbers:
            path = Path(folder) / f"{number}.txt"
            path.write_text(board_text(preset, number))
            files.append(str(path))
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        command = [program, "--game", BHS_GAMES[preset], "--quiet", "--wrap-ranks"]
        command += ["--queens-on-kings", "--rank-reach-prune"]
        command += ["--max-iters", "10000000", *files]
        output = subprocess.run(command, capture_output=True, text=True, check=False).stdout
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    verdicts: dict[int, Status] = {}
    current = None
    for line in output.splitlines():
        if line.startswith("[= Starting file "):
            current = int(Path(line.split()[3]).stem)
        elif current is not None and line.strip() in BHS_VERDICTS:
            verdicts[current] = BHS_VERDICTS[line.strip()]
        elif current is not None and line.strip() == "Intractable!":
            verdicts[current] = Status.LIMIT_REACHED
    return verdicts, cpu


def report(preset: str, numbers: range, result: dict) -> None:
    verdicts = list(result["verdicts"].values())
    solved = verdicts.count(Status.SOLVED)
    count = len(verdicts)
    print(
        f"{preset} deals {numbers.start}..{numbers.stop - 1}: solvable {solved} "
        f"({100 * solved / count:.1f}%), unsolvable {verdicts.count(Status.UNSOLVABLE)}, "
        f"undecided {verdicts.count(Status.LIMIT_REACHED)}"
    )
    print(
        f"  {count / result['wall']:.1f} deals/s wall ({1000 * result['wall'] / count:.2f} ms a "
        f"deal), {count / result['cpu']:.1f} deals per CPU second; "
        f"{result['nodes']:,} nodes, {result['states']:,} states; "
        f"slowest deal {result['slowest'][1]} ({result['slowest'][0]:.3f} s)"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("presets", nargs="*", help="blackhole and/or allinarow (default: both)")
    parser.add_argument("--first", type=int, default=1)
    parser.add_argument("--last", type=int, default=1000)
    parser.add_argument("--time-limit", type=float, default=None, help="seconds per deal")
    parser.add_argument("--max-nodes", type=int, default=None, help="nodes per deal")
    parser.add_argument("--max-memory", type=int, default=512, help="MiB per deal")
    parser.add_argument("--without", action="append", default=[], choices=PRUNES)
    parser.add_argument(
        "--bhs", metavar="PROGRAM", help="black-hole-solver's multi-bhs-solver program to compare"
    )
    args = parser.parse_args()

    limits = Limits(
        max_nodes=args.max_nodes, time_limit=args.time_limit, max_memory=args.max_memory << 20
    )
    prune = tuple(p for p in PRUNES if p not in args.without)
    numbers = range(args.first, args.last + 1)
    unknown = set(args.presets) - set(BHS_GAMES)
    if unknown:
        parser.error(f"unknown preset {sorted(unknown)[0]!r} (choose from {', '.join(BHS_GAMES)})")
    for preset in args.presets or BHS_GAMES:
        result = decide(preset, numbers, limits, prune)
        report(preset, numbers, result)
        if args.bhs:
            try:
                theirs, cpu = run_black_hole_solver(args.bhs, preset, numbers)
            except OSError as error:
                print(f"  black-hole-solver: cannot run {args.bhs!r} ({error.strerror}); skipped")
                continue
            if not theirs:
                print(
                    f"  black-hole-solver: {args.bhs!r} decided no deal (it must be the "
                    "many-board program, multi-bhs-solver); skipped"
                )
                continue
            differ = [n for n in numbers if theirs.get(n) is not result["verdicts"][n]]
            solved = list(theirs.values()).count(Status.SOLVED)
            undecided = list(theirs.values()).count(Status.LIMIT_REACHED)
            print(
                f"  black-hole-solver: solvable {solved}, undecided {undecided}, "
                f"{len(numbers) / cpu:.2f} deals per CPU second "
                f"(ours {result['cpu'] and cpu / result['cpu']:.1f}x faster); "
                f"verdicts differ on {len(differ)} deals {differ[:10]}"
            )


if __name__ == "__main__":
    main()
