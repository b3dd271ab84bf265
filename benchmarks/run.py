"""The benchmark suite: every preset measured, and compared side by side on the same deals.

    LD_LIBRARY_PATH=<dir of libblack_hole_solver.so.1> python benchmarks/run.py \
        [--deals 1..200] [--deals-for cloverleaf=1..50] [--bhs-deals 1..1000]
        [--naive-deals 1..10] [--naive-cap 3] [--jobs 1] [--scheduler ADDR] [--time-limit 10]
        [--presets P,Q] [--parts bench,bhs,naive] [--out benchmarks/results] [--summary-only]

In one run, on the same PySolFC-numbered deals:

1. ``bench``: every preset through :func:`cloversolve.runs.bench.bench` (deals/s, nodes/s,
   per-deal latency p50/p90/p99/max, undecided at the budget, peak RSS, warm start) ->
   ``bench_PRESET.json``, ``bench_PRESET.png`` (with matplotlib) and ``bench.md``;
2. ``bhs``: ``blackhole`` and ``allinarow`` against black-hole-solver (Shlomi Fish's C solver,
   github.com/shlomif/black-hole-solitaire, through its PyPI bindings ``black-hole-solver``;
   the shared library ``libblack_hole_solver.so.1`` must be on the library path or the
   comparison is skipped with one line): throughput ratio, deal-by-deal verdict agreement, and
   every route black-hole-solver reports replayed by our reference engine -> ``bhs.json``;
3. ``naive``: every preset against the plain-Python exhaustive solver
   (``cloversolve.rules.exhaustive``) with a CPU-time cap per deal: the speed ratio on the deals it
   finishes, and a lower bound over all deals (a capped deal counts as taking exactly the
   cap) -> ``naive.json``.

Both comparisons alternate the two solvers deal by deal in one process and time the CPU
seconds of the calling thread, so a busy machine slows both alike. A verdict disagreement is
printed loudly, listed in ``RESULTS.md`` and makes the exit status 1. ``--parts`` runs some
parts only (the others' results in ``--out`` are kept); ``run.json`` records each part's
command, and ``RESULTS.md`` summarises them all.
"""

from __future__ import annotations

import argparse
import ctypes
import ctypes.util
import shlex
import signal
import sys
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any

import orjson

from cloversolve import deal, position_from_layout
from cloversolve.core.deal_numbers import parse_deal_range
from cloversolve.core.notation import FOUNDATION, Transfer
from cloversolve.core.verdicts import Status
from cloversolve.games.layout import Layout
from cloversolve.games.registry import PRESETS, find_preset
from cloversolve.rules import Position
from cloversolve.runs.bench import bench, markdown_table, write_outputs
from cloversolve.runs.workers import warm_up_once
from cloversolve.search.common import Limits, SearchOutcome
from cloversolve.solving.replay import replay_moves
from cloversolve.solving.solver import search_position

HERE = Path(__file__).resolve().parent

BHS_SONAME = "libblack_hole_solver.so.1"
BHS_LIBRARY = "black_hole_solver"
BHS_GAMES = {"blackhole": "black_hole", "allinarow": "all_in_a_row"}
BHS_MAX_ITERATIONS = 10_000_000
# Return codes of black_hole_solver_run() (enum in black_hole_solver.h).
BHS_VERDICTS = {0: Status.SOLVED.value, 8: Status.UNSOLVABLE.value, 10: Status.LIMIT_REACHED.value}


def timed_search(preset: str, layout: Layout, time_limit: float) -> tuple[SearchOutcome, float]:
    """The kernel's outcome on a dealt layout and its CPU seconds (the search wrapper only:
    encoding, kernel, route decoding). A route found is replayed by the reference engine
    afterwards, outside the timing."""
    family = find_preset(preset).family
    position = position_from_layout(layout)
    started = time.thread_time()
    outcome = search_position(position, family, Limits(time_limit=time_limit))
    seconds = time.thread_time() - started
    if outcome.status is Status.SOLVED:
        replayed = replay_moves(position_from_layout(layout), outcome.route)
        if not replayed.won:
            raise RuntimeError(f"{preset} deal {layout.number}: the kernel's route does not win")
    return outcome, seconds


# --- black-hole-solver -----------------------------------------------------------------------


def load_black_hole_solver(soname: str = BHS_SONAME, library: str = BHS_LIBRARY) -> Any | None:
    """black-hole-solver's ``BlackHoleSolver``, or ``None`` after one line saying why not.

    The shared library is looked up on the library path (the dynamic loader's search, then
    ``ctypes.util.find_library``) and loaded globally so the bindings' own ``dlopen`` finds it.
    """
    try:
        ctypes.CDLL(soname, mode=ctypes.RTLD_GLOBAL)
    except OSError:
        found = ctypes.util.find_library(library)
        try:
            if found is None:
                raise OSError
            ctypes.CDLL(found, mode=ctypes.RTLD_GLOBAL)
        except OSError:
            print(
                f"black-hole-solver: {soname} is not on the library path "
                "(set LD_LIBRARY_PATH); skipping that comparison"
            )
            return None
    try:
        from black_hole_solver import BlackHoleSolver

        return BlackHoleSolver()
    except (ImportError, OSError) as error:
        print(f"black-hole-solver: bindings unusable ({error}); skipping that comparison")
        return None


def bhs_board(layout: Layout) -> str:
    """A deal in black-hole-solver's board format (bottom card first; every line ends in
    a newline)."""
    foundation = layout.foundations[0][1]
    lines = [f"Foundations: {foundation[-1] if foundation else '-'}"]
    lines += [" ".join(str(card) for card in pile) for pile in layout.piles]
    return "\n".join(lines) + "\n"


def bhs_solve(base: Any, game: str, board: str) -> tuple[str, int, list[int]]:
    """black-hole-solver's verdict, iteration count and route (column indices) for a board."""
    handle = base.new_bhs_user_handle()
    handle.read_board(board, game, place_queens_on_kings=True, wrap_ranks=True)
    handle.limit_iterations(BHS_MAX_ITERATIONS)
    code = handle.resume_solution()
    columns = []
    if code == 0:
        while (move := handle.get_next_move()) is not None:
            columns.append(move.get_column_idx())
    return BHS_VERDICTS.get(code, f"error {code}"), handle.get_num_times(), columns


def compare_bhs(base: Any, preset: str, numbers: range, time_limit: float) -> dict[str, Any]:
    """Both solvers on the same deals, alternating, in CPU seconds; verdicts compared."""
    game = BHS_GAMES[preset]
    warm_up_once(preset)  # compile or load the kernels before the clock starts
    ours_cpu = theirs_cpu = 0.0
    rows, disagreements, bad_routes = {}, [], []
    for number in numbers:
        layout = deal(preset, number)
        board = bhs_board(layout)
        ours, ours_seconds = timed_search(preset, layout, time_limit)
        started = time.thread_time()
        verdict, iterations, columns = bhs_solve(base, game, board)
        ours_cpu += ours_seconds
        theirs_cpu += time.thread_time() - started
        rows[str(number)] = [ours.status.value, verdict, iterations]
        decided = {Status.SOLVED.value, Status.UNSOLVABLE.value}
        if ours.status.value in decided and verdict in decided and ours.status.value != verdict:
            disagreements.append(number)
        if verdict == Status.SOLVED.value:
            route = [Transfer(column + 1, FOUNDATION) for column in columns]
            if not replay_moves(position_from_layout(layout), route).won:
                bad_routes.append(number)
    both = [n for n, (a, b, _) in rows.items() if "limit" not in (a, b)]
    return {
        "preset": preset,
        "deals": f"{numbers[0]}..{numbers[-1]}",
        "count": len(numbers),
        "ours": _tally(row[0] for row in rows.values()),
        "black_hole_solver": _tally(row[1] for row in rows.values()),
        "ours_cpu_seconds": round(ours_cpu, 3),
        "bhs_cpu_seconds": round(theirs_cpu, 3),
        "ours_deals_per_cpu_second": round(len(numbers) / ours_cpu, 2),
        "bhs_deals_per_cpu_second": round(len(numbers) / theirs_cpu, 2),
        "throughput_ratio": _significant(theirs_cpu / ours_cpu),
        "both_decided": len(both),
        "agree": len(both) - len(disagreements),
        "disagreements": disagreements,
        "bhs_routes_rejected": bad_routes,
        "bhs_max_iterations": BHS_MAX_ITERATIONS,
        "per_deal": rows,
    }


def _significant(value: float, digits: int = 3) -> float:
    return float(f"{value:.{digits}g}")


def _tally(verdicts: Any) -> dict[str, int]:
    counts = {Status.SOLVED.value: 0, Status.UNSOLVABLE.value: 0, Status.LIMIT_REACHED.value: 0}
    for verdict in verdicts:
        counts[verdict] = counts.get(verdict, 0) + 1
    return counts


# --- the plain-Python reference solvers ------------------------------------------------------


class CpuCapReached(Exception):
    """The CPU-time cap of one naive solve ran out."""


def naive_winnable(position: Position) -> bool:
    """The plain exhaustive solver's verdict (no position budget: it always decides)."""
    # (imported here: the other parts also measure checkouts older than this solver)
    from cloversolve.rules.exhaustive import solve_exhaustively

    return solve_exhaustively(position).solvable is True


#: Shortest alarm set again by :func:`run_capped` (a zero would switch the alarm off).
_MIN_ALARM = 1e-4


def run_capped(func: Callable[[], bool], cap: float) -> tuple[bool | None, float]:
    """``func()`` under a CPU-time cap: (result or ``None`` when capped, CPU seconds).

    Both the cap and the figure returned are this thread's CPU time (``time.thread_time``).
    The kernel's virtual-time alarm only wakes the check: it counts the whole process's user
    time in scheduler ticks, so it can ring a few milliseconds before this thread has used
    ``cap`` seconds; the check then sets the alarm again for the time still due. So a capped
    call has used at least ``cap`` seconds of CPU time.
    """
    started = time.thread_time()

    def check(signum: int, frame: Any) -> None:
        due = cap - (time.thread_time() - started)
        if due > 0:
            signal.setitimer(signal.ITIMER_VIRTUAL, max(due, _MIN_ALARM))
        else:
            raise CpuCapReached

    previous = signal.signal(signal.SIGVTALRM, check)
    signal.setitimer(signal.ITIMER_VIRTUAL, cap)
    try:
        result: bool | None = func()
    except CpuCapReached:
        result = None
    finally:
        signal.setitimer(signal.ITIMER_VIRTUAL, 0)
        signal.signal(signal.SIGVTALRM, previous)
    return result, time.thread_time() - started


def compare_naive(
    preset: str, numbers: range, cap: float, time_limit: float, naive: Callable[[Any], bool]
) -> dict[str, Any]:
    """Kernel and naive solver on the same deals, alternating, in CPU seconds."""
    warm_up_once(preset)  # compile or load the kernels before the clock starts
    rows, disagreements = {}, []
    for number in numbers:
        layout = deal(preset, number)
        ours, ours_cpu = timed_search(preset, layout, time_limit)
        position = position_from_layout(layout)
        winnable, naive_cpu = run_capped(partial(naive, position), cap)
        naive_verdict = (
            None if winnable is None else Status.SOLVED.value if winnable else "unsolvable"
        )
        rows[str(number)] = [ours.status.value, naive_verdict, ours_cpu, min(naive_cpu, cap)]
        decided = naive_verdict is not None and ours.status is not Status.LIMIT_REACHED
        if decided and naive_verdict != ours.status.value:
            disagreements.append(number)
    finished = [row for row in rows.values() if row[1] is not None]
    ours_all = sum(row[2] for row in rows.values())
    naive_all = sum(row[3] for row in rows.values())
    ours_done = sum(row[2] for row in finished)
    naive_done = sum(row[3] for row in finished)
    return {
        "preset": preset,
        "deals": f"{numbers[0]}..{numbers[-1]}",
        "count": len(numbers),
        "naive_finished": len(finished),
        "naive_cap_cpu_seconds": cap,
        "ours_cpu_seconds": round(ours_all, 4),
        "naive_cpu_seconds": round(naive_all, 4),
        "ratio_on_finished": _significant(naive_done / ours_done) if finished else None,
        "ratio_lower_bound_all": _significant(naive_all / ours_all),
        "disagreements": disagreements,
        "per_deal": {
            number: [row[0], row[1], round(row[2], 6), round(row[3], 6)]
            for number, row in rows.items()
        },
    }


# --- report ----------------------------------------------------------------------------------


def bhs_table(rows: list[dict[str, Any]]) -> str:
    lines = [
        "| preset | deals | ours s/u/undecided | black-hole-solver s/u/undecided "
        "| ours deals/CPU-s | bhs deals/CPU-s | ratio | agree / both decided "
        "| bhs routes rejected |",
        "| --- | --- | --- | --- | ---: | ---: | ---: | --- | --- |",
    ]
    for row in rows:
        ours, theirs = row["ours"], row["black_hole_solver"]
        lines.append(
            f"| {row['preset']} | {row['deals']} "
            f"| {ours['solved']}/{ours['unsolvable']}/{ours['limit']} "
            f"| {theirs['solved']}/{theirs['unsolvable']}/{theirs['limit']} "
            f"| {row['ours_deals_per_cpu_second']:,} | {row['bhs_deals_per_cpu_second']:,} "
            f"| {row['throughput_ratio']}x | {row['agree']} / {row['both_decided']} "
            f"| {len(row['bhs_routes_rejected'])} |"
        )
    return "\n".join(lines) + "\n"


def naive_table(rows: list[dict[str, Any]]) -> str:
    lines = [
        "| preset | deals | naive finished (cap CPU-s) | ours CPU-s | naive CPU-s "
        "| ratio on finished | ratio lower bound (all) | disagreements |",
        "| --- | --- | --- | ---: | ---: | ---: | ---: | --- |",
    ]
    for row in rows:
        lines.append(
            f"| {row['preset']} | {row['deals']} "
            f"| {row['naive_finished']}/{row['count']} ({row['naive_cap_cpu_seconds']:g}) "
            f"| {row['ours_cpu_seconds']:.3f} | {row['naive_cpu_seconds']:.2f} "
            f"| {_ratio(row['ratio_on_finished'])} | {_ratio(row['ratio_lower_bound_all'])} "
            f"| {len(row['disagreements'])} |"
        )
    return "\n".join(lines) + "\n"


def _ratio(value: float | None) -> str:
    if value is None:
        return "–"
    return f"{value:,.0f}x" if value >= 100 else f"{value:.3g}x"


PARTS = ("bench", "bhs", "naive")


def write_summary(out: Path) -> Path:
    """``RESULTS.md`` from the JSON files in ``out``: ``run.json`` (the command and time of
    each part), ``bench_*.json``, ``bhs.json`` and ``naive.json``."""
    meta = orjson.loads((out / "run.json").read_bytes())
    summary = [
        "# Benchmarks",
        "",
        "Measured on this machine (2 cores, shared with other work while measured). "
        "Each section names the command that produced it.",
        "",
    ]
    problems: list[str] = []
    if "bench" in meta:
        part = meta["bench"]
        problems += part["problems"]
        benches = [
            orjson.loads((out / f"bench_{name}.json").read_bytes()) for name in part["presets"]
        ]
        for row in benches:
            if row["cpu_seconds"]:
                row["nodes_per_second"] = round(row["nodes"] / row["cpu_seconds"], 2)
        jobs = part["jobs"]
        summary += [
            f"## Per preset (time limit {part['time_limit']:g} s per deal, "
            f"{jobs} worker{'s' if jobs > 1 else ''})",
            "",
            f"`{part['command']}` ({part['measured']})",
            "",
            "deals/s and the latencies are wall-clock (`solve()`: dealing, search and route "
            "check); deals/CPU-s and nodes/s count CPU time, which a busy machine distorts "
            "less. Per-deal records: `bench_PRESET.json`; distributions: `bench_PRESET.png`.",
            "",
            markdown_table(benches),
        ]
    if "bhs" in meta:
        part = meta["bhs"]
        problems += part["problems"]
        summary += [
            "## Against black-hole-solver",
            "",
            f"`{part['command']}` ({part['measured']})",
            "",
        ]
        if part["skipped"]:
            summary += ["Skipped: the library was not found.", ""]
        else:
            summary += [
                "Same deals, the two solvers alternating deal by deal in one process; CPU "
                "seconds of the search call (black-hole-solver: board parsing and solving, "
                f"at most {BHS_MAX_ITERATIONS:,} iterations). Every route black-hole-solver "
                "reports is replayed by our reference engine.",
                "",
                bhs_table(orjson.loads((out / "bhs.json").read_bytes())),
            ]
    if "naive" in meta:
        part = meta["naive"]
        problems += part["problems"]
        summary += [
            "## Against the plain-Python reference solver",
            "",
            f"`{part['command']}` ({part['measured']})",
            "",
            "CPU seconds of the search call on a dealt position, alternating deal by deal. "
            "The naive solver gets a CPU cap per deal; the lower bound counts a capped deal "
            "as taking exactly the cap.",
            "",
            naive_table(orjson.loads((out / "naive.json").read_bytes())),
        ]
    if problems:
        summary += ["## DISAGREEMENTS", "", *(f"- {p}" for p in problems), ""]
    target = out / "RESULTS.md"
    target.write_text("\n".join(summary), encoding="utf-8")
    return target


def write_json(path: Path, data: Any) -> None:
    path.write_bytes(orjson.dumps(data, option=orjson.OPT_INDENT_2))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--presets", default=",".join(PRESETS))
    parser.add_argument("--parts", default=",".join(PARTS), help="bench,bhs,naive")
    parser.add_argument("--deals", default="1..200", help="deals of the per-preset bench")
    parser.add_argument(
        "--deals-for", action="append", default=[], metavar="PRESET=A..B", help="per preset"
    )
    parser.add_argument("--bhs-deals", default="1..1000")
    parser.add_argument("--naive-deals", default="1..10")
    parser.add_argument("--naive-cap", type=float, default=3.0, help="CPU seconds per deal")
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--scheduler", default=None, help="tcp://HOST:PORT or local:N (Dask)")
    parser.add_argument("--time-limit", type=float, default=10.0, help="seconds per deal")
    parser.add_argument("--out", default=str(HERE / "results"))
    parser.add_argument(
        "--summary-only", action="store_true", help="rewrite RESULTS.md from the JSON in --out"
    )
    args = parser.parse_args(argv)
    presets = [find_preset(name).name for name in args.presets.split(",")]
    parts = args.parts.split(",")
    unknown = set(parts) - set(PARTS)
    if unknown:
        parser.error(f"unknown part {sorted(unknown)[0]!r}; known: {', '.join(PARTS)}")
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    if args.summary_only:
        print(f"wrote {write_summary(out)}")
        return 0
    meta_path = out / "run.json"
    meta = orjson.loads(meta_path.read_bytes()) if meta_path.exists() else {}
    command = shlex.join(
        ["python", "benchmarks/run.py", *(argv if argv is not None else sys.argv[1:])]
    )

    def record(part: str, problems: list[str], **extra: Any) -> None:
        meta[part] = {
            "command": command,
            "measured": time.strftime("%Y-%m-%d %H:%M"),
            "problems": problems,
            **extra,
        }
        write_json(meta_path, meta)
        for problem in problems:
            print(f"!!! DISAGREEMENT: {problem}", file=sys.stderr)

    if "bench" in parts:
        own_range = dict(item.split("=", 1) for item in args.deals_for)
        reports = []
        for preset in presets:
            numbers = parse_deal_range(own_range.get(preset, args.deals))
            report = bench(
                preset,
                numbers,
                jobs=args.jobs,
                scheduler=args.scheduler,
                limits=Limits(time_limit=args.time_limit),
            )
            print(markdown_table([report.summary()]).splitlines()[-1], flush=True)
            reports.append(report)
        write_outputs(reports, out)
        record("bench", [], presets=presets, jobs=args.jobs, time_limit=args.time_limit)

    hole = [p for p in presets if p in BHS_GAMES]
    if "bhs" in parts and hole:
        problems = []
        base = load_black_hole_solver()
        if base is not None:
            bhs_rows = []
            for preset in hole:
                row = compare_bhs(base, preset, parse_deal_range(args.bhs_deals), args.time_limit)
                bhs_rows.append(row)
                print(bhs_table([row]).splitlines()[-1], flush=True)
                if row["disagreements"] or row["bhs_routes_rejected"]:
                    problems.append(
                        f"{preset}: verdicts differ from black-hole-solver on deals "
                        f"{row['disagreements']}; its routes rejected on "
                        f"{row['bhs_routes_rejected']}"
                    )
            write_json(out / "bhs.json", bhs_rows)
        record("bhs", problems, skipped=base is None)

    if "naive" in parts:
        problems = []
        naive_rows = []
        for preset in presets:
            row = compare_naive(
                preset,
                parse_deal_range(args.naive_deals),
                args.naive_cap,
                args.time_limit,
                naive_winnable,
            )
            naive_rows.append(row)
            print(naive_table([row]).splitlines()[-1], flush=True)
            if row["disagreements"]:
                problems.append(
                    f"{preset}: verdicts differ from the naive solver on {row['disagreements']}"
                )
        write_json(out / "naive.json", naive_rows)
        record("naive", problems)

    print(f"wrote {write_summary(out)}")
    return 1 if any(meta[part]["problems"] for part in meta) else 0


if __name__ == "__main__":
    sys.exit(main())
