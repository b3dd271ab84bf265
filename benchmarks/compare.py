"""Two checkouts side by side: every preset's deals per CPU second, old against new.

    python benchmarks/compare.py --old ../cloversolve-old [--new .] [--passes 3] \
        [--through search|solve] [--presets P,Q] [--deals 1..1000] \
        [--deals-for cloverleaf=1..200] [--out benchmarks/results/compare]

Each preset is measured by ``benchmarks/side_by_side.py`` in a fresh process: both
checkouts' packages loaded in that one process, every deal timed in the old and in the new
one after the other (CPU seconds of the thread), ``--passes`` times over the deals. A machine
that gets busier or quieter slows both alike, so the ratio new/old holds steady where runs in
separate processes minutes apart swing by a quarter. ``--through search`` (the default)
times the search wrapper as ``benchmarks/run.py``'s bench part does; ``--through solve``
times ``cloversolve.solve`` whole (dealing, search, the route's replay, the result). Every
deal's verdict must be the same in both checkouts: a difference is printed, listed in the
table and makes the exit status 1.

Writes ``compare.json`` and ``compare.md`` to ``--out``.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import orjson

HERE = Path(__file__).resolve().parent
SIDE_BY_SIDE = HERE / "side_by_side.py"
DEFAULT_DEALS = "1..1000"
#: Deals per preset: each pass takes a few CPU seconds (a run of a fraction of a second is
#: mostly the clock's noise).
DEFAULT_DEALS_FOR = {
    "thirteen": "1..3000",
    "thirteen-return": "1..3000",
    "fifteen": "1..5000",
    "cloverleaf": "1..200",
    "alexander": "1..200",
    "allinarow": "1..300",
}


def run_side_by_side(
    old: Path, new: Path, preset: str, deals: str, through: str, passes: int
) -> dict[str, Any]:
    """One ``side_by_side.py`` run of ``preset`` over ``deals``, in a fresh process."""
    command = [sys.executable, str(SIDE_BY_SIDE), "--old", str(old), "--new", str(new)]
    command += ["--preset", preset, "--deals", deals, "--through", through]
    command += ["--passes", str(passes)]
    done = subprocess.run(command, check=False, stdout=subprocess.PIPE)
    if done.returncode not in (0, 1):  # (1: verdicts differ, listed in the report)
        raise SystemExit(f"side_by_side.py failed on {preset} (status {done.returncode})")
    report: dict[str, Any] = orjson.loads(done.stdout)
    return report


def compare(
    old: Path,
    new: Path,
    presets: list[str],
    deals_for: dict[str, str],
    through: str,
    passes: int,
) -> list[dict[str, Any]]:
    """Each preset's rates in both checkouts, pass by pass, and its verdict differences."""
    rows = []
    for preset in presets:
        report = run_side_by_side(old, new, preset, deals_for[preset], through, passes)
        rates = report["deals_per_cpu_second"]
        ratios = [n / o for n, o in zip(rates["new"], rates["old"], strict=True)]
        differences = [f"{preset} deal {n}" for n in report["verdict_differences"]]
        for number in differences:
            print(f"VERDICT DIFFERS: {number}", file=sys.stderr)
        print(
            f"{preset}: old {statistics.median(rates['old']):.1f}, "
            f"new {statistics.median(rates['new']):.1f} deals/CPU-s, "
            f"new/old {statistics.median(ratios):.3f}",
            file=sys.stderr,
        )
        rows.append(
            {
                "preset": preset,
                "deals": deals_for[preset],
                "old": statistics.median(rates["old"]),
                "new": statistics.median(rates["new"]),
                "ratio": statistics.median(ratios),
                "ratios": ratios,
                "verdict_differences": differences,
            }
        )
    return rows


def markdown(rows: list[dict[str, Any]], heading: str) -> str:
    """The comparison as a markdown table."""
    lines = [
        heading,
        "",
        "| preset | deals | old deals/CPU-s | new deals/CPU-s | new/old (median of passes) "
        "| every pass | verdicts |",
        "| --- | --- | --- | --- | --- | --- | --- |",
    ]
    for row in rows:
        each = ", ".join(f"{r:.3f}" for r in row["ratios"])
        agree = (
            "same"
            if not row["verdict_differences"]
            else f"{len(row['verdict_differences'])} differ"
        )
        lines.append(
            f"| {row['preset']} | {row['deals']} | {row['old']:.1f} | {row['new']:.1f} "
            f"| {row['ratio']:.3f} | {each} | {agree} |"
        )
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--old", required=True, type=Path, help="the checkout to compare with")
    parser.add_argument("--new", default=HERE.parent, type=Path, help="default: this checkout")
    parser.add_argument("--passes", type=int, default=3, help="times over the deals")
    parser.add_argument(
        "--through",
        choices=("search", "solve"),
        default="search",
        help="time the search wrapper (default) or cloversolve.solve whole",
    )
    parser.add_argument("--presets", default=None, help="default: every preset")
    parser.add_argument("--deals", default=DEFAULT_DEALS)
    parser.add_argument(
        "--deals-for", action="append", default=[], metavar="PRESET=A..B", help="per preset"
    )
    parser.add_argument("--out", default=HERE / "results" / "compare", type=Path)
    args = parser.parse_args(argv)
    for tree in (args.old, args.new):
        if not (tree / "cloversolve" / "__init__.py").is_file():
            parser.error(f"not a checkout of the package: {str(tree)!r}")
    if args.passes < 1:
        parser.error(f"--passes must be at least 1: {args.passes}")
    from cloversolve import PRESETS, find_preset

    try:
        presets = [find_preset(p).name for p in (args.presets or ",".join(PRESETS)).split(",")]
    except ValueError as error:
        parser.error(str(error))
    deals_for = {p: DEFAULT_DEALS_FOR.get(p, args.deals) for p in presets}
    if args.deals != DEFAULT_DEALS:
        deals_for = dict.fromkeys(presets, args.deals)
    deals_for.update(item.split("=", 1) for item in args.deals_for)
    rows = compare(args.old, args.new, presets, deals_for, args.through, args.passes)
    args.out.mkdir(parents=True, exist_ok=True)
    measured = time.strftime("%Y-%m-%d %H:%M")
    (args.out / "compare.json").write_bytes(
        orjson.dumps(
            {"measured": measured, "through": args.through, "passes": args.passes, "rows": rows},
            option=orjson.OPT_INDENT_2,
        )
    )
    heading = f"# Old against new through {args.through}, {args.passes} passes ({measured})"
    table = markdown(rows, heading)
    (args.out / "compare.md").write_text(table, encoding="utf-8")
    print(table)
    return 1 if any(row["verdict_differences"] for row in rows) else 0


if __name__ == "__main__":
    sys.exit(main())
