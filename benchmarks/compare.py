"""Two checkouts side by side: every preset's deals per CPU second, old against new.

    python benchmarks/compare.py --old ../cloversolve-old [--new .] [--rounds 3] \
        [--presets P,Q] [--deals 1..1000] [--deals-for cloverleaf=1..200] \
        [--out benchmarks/results/compare]

Both checkouts are measured by this checkout's ``benchmarks/run.py --parts bench`` (the same
method for both), each with its own package on ``PYTHONPATH``, on the same deals. A round runs
every preset once for each checkout, alternating which goes first, so a machine that gets
busier or quieter slows both alike; the ratio new/old is taken round by round and its median
reported. Every deal's verdict must be the same in both checkouts: a difference is printed,
listed in the table and makes the exit status 1.

Writes ``compare.json`` and ``compare.md`` to ``--out``.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import orjson

HERE = Path(__file__).resolve().parent
RUN = HERE / "run.py"
DEFAULT_DEALS = "1..1000"
#: Deals per preset: each run takes a few CPU seconds (a run of a fraction of a second is
#: mostly the clock's noise).
DEFAULT_DEALS_FOR = {
    "thirteen": "1..3000",
    "thirteen-return": "1..3000",
    "fifteen": "1..5000",
    "cloverleaf": "1..200",
    "alexander": "1..200",
    "allinarow": "1..300",
}


def run_bench(tree: Path, preset: str, deals: str, out: Path) -> dict[str, Any]:
    """One ``run.py --parts bench`` of ``preset`` over ``deals`` with ``tree``'s package."""
    env = {**os.environ, "PYTHONPATH": str(tree.resolve())}
    command = [sys.executable, str(RUN), "--parts", "bench", "--presets", preset]
    command += ["--deals", deals, "--out", str(out)]
    subprocess.run(command, env=env, check=True, stdout=subprocess.DEVNULL)
    report: dict[str, Any] = orjson.loads((out / f"bench_{preset}.json").read_bytes())
    return report


def verdicts(report: dict[str, Any]) -> dict[str, str]:
    """Deal number -> status of one bench report."""
    return {number: deal["status"] for number, deal in report["per_deal"].items()}


def compare(
    old: Path, new: Path, presets: list[str], deals_for: dict[str, str], rounds: int
) -> list[dict[str, Any]]:
    """Each preset's rates in both checkouts, round by round, and its verdict differences."""
    rows = []
    with tempfile.TemporaryDirectory() as scratch:
        rates: dict[str, dict[str, list[float]]] = {p: {"old": [], "new": []} for p in presets}
        differences: dict[str, list[str]] = {p: [] for p in presets}
        for round_index in range(rounds):
            for preset in presets:
                order = [("new", new), ("old", old)]
                if round_index % 2:
                    order.reverse()
                reports = {}
                for name, tree in order:
                    out = Path(scratch) / f"{name}-{round_index}-{preset}"
                    reports[name] = run_bench(tree, preset, deals_for[preset], out)
                    rates[preset][name].append(reports[name]["deals_per_cpu_second"])
                old_verdicts, new_verdicts = verdicts(reports["old"]), verdicts(reports["new"])
                differences[preset] += [
                    f"{preset} deal {n}: old {old_verdicts.get(n)}, new {new_verdicts.get(n)}"
                    for n in sorted(set(old_verdicts) | set(new_verdicts), key=int)
                    if old_verdicts.get(n) != new_verdicts.get(n)
                    and "limit" not in (old_verdicts.get(n), new_verdicts.get(n))
                ]
                print(
                    f"round {round_index + 1}/{rounds} {preset}: "
                    f"old {rates[preset]['old'][-1]:.1f}, new {rates[preset]['new'][-1]:.1f} "
                    "deals/CPU-s",
                    file=sys.stderr,
                )
        for preset in presets:
            old_rates, new_rates = rates[preset]["old"], rates[preset]["new"]
            ratios = [n / o for n, o in zip(new_rates, old_rates, strict=True)]
            rows.append(
                {
                    "preset": preset,
                    "deals": deals_for[preset],
                    "old": statistics.median(old_rates),
                    "new": statistics.median(new_rates),
                    "ratio": statistics.median(ratios),
                    "ratios": ratios,
                    "verdict_differences": sorted(set(differences[preset])),
                }
            )
    return rows


def markdown(rows: list[dict[str, Any]], heading: str) -> str:
    """The comparison as a markdown table."""
    lines = [
        heading,
        "",
        "| preset | deals | old deals/CPU-s | new deals/CPU-s | new/old (median of rounds) "
        "| every round | verdicts |",
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
    parser.add_argument("--rounds", type=int, default=3)
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
    if args.rounds < 1:
        parser.error(f"--rounds must be at least 1: {args.rounds}")
    from cloversolve.games.presets import PRESETS, find_preset

    try:
        presets = [find_preset(p).name for p in (args.presets or ",".join(PRESETS)).split(",")]
    except ValueError as error:
        parser.error(str(error))
    deals_for = {p: DEFAULT_DEALS_FOR.get(p, args.deals) for p in presets}
    if args.deals != DEFAULT_DEALS:
        deals_for = dict.fromkeys(presets, args.deals)
    deals_for.update(item.split("=", 1) for item in args.deals_for)
    rows = compare(args.old, args.new, presets, deals_for, args.rounds)
    args.out.mkdir(parents=True, exist_ok=True)
    measured = time.strftime("%Y-%m-%d %H:%M")
    (args.out / "compare.json").write_bytes(
        orjson.dumps(
            {"measured": measured, "rounds": args.rounds, "rows": rows}, option=orjson.OPT_INDENT_2
        )
    )
    table = markdown(rows, f"# Old against new, {args.rounds} rounds ({measured})")
    (args.out / "compare.md").write_text(table, encoding="utf-8")
    print(table)
    return 1 if any(row["verdict_differences"] for row in rows) else 0


if __name__ == "__main__":
    sys.exit(main())
