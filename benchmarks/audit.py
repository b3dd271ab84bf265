"""Audit the million-deal verdict files and tabulate the audits in ``benchmarks/results/AUDIT.md``.

    python benchmarks/audit.py [--presets P,Q,...] [--sample 10000] [--max-positions 2000000]
                               [--jobs 1] [--table-only]

``thirteen`` and ``thirteen-return`` audit every loss of their verdict file (``--only
unsolvable``: the King-bottom witness makes them cheap); the other presets audit ``--sample``
deals drawn with seed 1, with at most ``--max-positions`` positions per claim (a loss
prover's searches and projections together). Each preset runs the public command
``cloversolve audit FILE ... --json`` (kept in the JSON and printed in the table as the exact
command that regenerates the row); its JSON is kept as ``benchmarks/results/audit_PRESET.json``.
``--table-only`` rebuilds the table from the JSON files already there.
"""

from __future__ import annotations

import argparse
import shlex
import subprocess
import sys
from pathlib import Path

import orjson

from cloversolve.audit.checks import DEFAULT_MAX_POSITIONS
from cloversolve.games.registry import PRESETS
from cloversolve.runs.decided_alone import decided_alone_path

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "benchmarks" / "results"
#: Presets whose every loss is audited (the others: a sample of all their claims).
EVERY_LOSS = ("thirteen", "thirteen-return")

HEADER = """# Audits of the verdict files

`cloversolve audit` re-checks the verdicts of `benchmarks/results/verdicts/` without trusting
the search kernels (see the docs page "Certificates and audits"): every route is replayed by the
reference engine, King-bottom and buried-rank witnesses are checked in plain Python, and any
other loss is proved again in plain Python within `--max-positions` positions per deal, by the
game's loss prover (a search with the reductions of FACTS.md written anew, fact 17) where it has
one, else by the plain exhaustive search ("not re-checked" when that search does not end:
counted, never guessed).
Claims are those of the verdict files, without their certificates: the search finds each
route or witness again within `--time-limit` seconds, and the plain-Python checks judge it.
Agreed and not re-checked are shares of the claims checked; losses proved counts the loss
witnesses (of every kind) that plain Python proved, out of all the loss witnesses checked;
disagreeing lists the deals contradicted, refused or unsupported; CPU s are the seconds spent
in the checks, summed over the worker processes (the machine was shared with other work while
measured). A loss not re-checked is one whose plain-Python search did not end within the
budget.

| preset | claims | agreed | not re-checked | losses proved | disagreeing | CPU s | command |
| --- | ---: | ---: | ---: | ---: | --- | ---: | --- |
"""


def command(preset: str, sample: int, positions: int, jobs: int) -> list[str]:
    """The ``cloversolve audit`` command of one preset's row."""
    selection = ["--only", "unsolvable"] if preset in EVERY_LOSS else ["--sample", str(sample)]
    seed = [] if preset in EVERY_LOSS else ["--seed", "1"]
    return [
        "cloversolve", "audit", f"benchmarks/results/verdicts/{preset}.verdicts", *selection,
        *seed, "--max-positions", str(positions), "--time-limit", "10", "--jobs", str(jobs),
        "--json", "--no-progress",
    ]  # fmt: skip


def run(preset: str, sample: int, positions: int, jobs: int) -> None:
    argv = command(preset, sample, positions, jobs)
    done = subprocess.run(argv, cwd=ROOT, capture_output=True, check=False)
    if done.returncode not in (0, 1):
        sys.exit(f"{shlex.join(argv)} failed: {done.stderr.decode()}")
    summary = orjson.loads(done.stdout)
    summary["command"] = shlex.join(argv)
    out = RESULTS / f"audit_{preset}.json"
    out.write_bytes(orjson.dumps(summary, option=orjson.OPT_INDENT_2))


def row(summary: dict) -> str:
    checked = summary["checked"]
    disagreeing = summary["disagreeing_deals"]
    shown = ", ".join(map(str, disagreeing)) if disagreeing else "none"

    def share(key: str) -> str:
        return f"{summary[key]:,} ({summary[key] / checked:.2%})" if checked else "0"

    return (
        f"| {summary['preset']} | {checked:,} | {share('agreed')} | {share('not_rechecked')} "
        f"| {losses(summary)} | {shown} | {summary['cpu_seconds']:,.0f} | `{summary['command']}` |"
    )


def losses(summary: dict) -> str:
    """Loss witnesses proved again, out of all the loss witnesses checked."""
    counts = {
        tuple(key.split(" ", 1)): n
        for key, n in summary["by_certificate"].items()
        if not key.startswith(("route ", "none "))
    }
    proved, total = sum(n for (_, f), n in counts.items() if f == "agreed"), sum(counts.values())
    return f"{proved:,} of {total:,} ({proved / total:.2%})" if total else "none"


BY_KIND = """
By certificate kind (the kind of the certificate checked, and what the check found):

| preset | findings by certificate kind |
| --- | --- |
"""


def kinds(summary: dict) -> str:
    found = ", ".join(f"{kind}: {n:,}" for kind, n in summary["by_certificate"].items())
    return f"| {summary['preset']} | {found} |"


def merged_since(summaries: list[dict]) -> str:
    """A note on the audits that skipped undecided deals whose verdicts were merged into the
    verdict file since (it has a decided-alone record): empty when there are none."""
    skipped = [
        s
        for s in summaries
        if s.get("undecided_skipped")
        and decided_alone_path(RESULTS / "verdicts" / f"{s['preset']}.verdicts").exists()
    ]
    if not skipped:
        return ""
    names = " and ".join(f"`{s['preset']}`" for s in skipped)
    counts = " and ".join(f"{s['undecided_skipped']:,}" for s in skipped)
    return (
        f"\nThe audits of {names} skipped the {counts} deals their verdict files then left "
        "undecided (`?`; `undecided_skipped` in their JSON). The verdicts of those deals, "
        "decided since by runs alone, are merged into the files now (each file's decided-alone "
        "record lists them): the same commands check them too, and so draw other samples; the "
        "rows above are of the files as they were.\n"
    )


def table_text() -> str:
    """``AUDIT.md``, from the audits' JSON files."""
    summaries = [
        orjson.loads(path.read_bytes())
        for preset in PRESETS
        if (path := RESULTS / f"audit_{preset}.json").exists()
    ]
    text = HEADER + "".join(f"{row(s)}\n" for s in summaries)
    return text + BY_KIND + "".join(f"{kinds(s)}\n" for s in summaries) + merged_since(summaries)


def table() -> None:
    (RESULTS / "AUDIT.md").write_text(table_text(), encoding="utf-8")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--presets", default=",".join(PRESETS))
    parser.add_argument("--sample", type=int, default=10_000)
    parser.add_argument("--max-positions", type=int, default=DEFAULT_MAX_POSITIONS)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--table-only", action="store_true")
    args = parser.parse_args()
    if not args.table_only:
        for preset in args.presets.split(","):
            run(preset, args.sample, args.max_positions, args.jobs)
    table()


if __name__ == "__main__":
    main()
