"""Run the solvability studies and tabulate them in ``STUDY.md`` (in ``benchmarks/results``).

    python benchmarks/study.py [--presets P,Q,...] [--deals 1..10000] [--jobs 2]
                               [--time-limit 10] [--table-only]

Each preset runs the public command ``cloversolve study PRESET --deals A..B --jobs N --json
--time-limit T`` (printed in the table as the exact command that regenerates the row); its
JSON is kept as ``benchmarks/results/study_PRESET.json``. ``--table-only`` rebuilds the table
from the JSON files already there. Presets may be given a range of their own with
``--deals-for cloverleaf=1..1000``. Below the table, the verdict files whose undecided deals
were decided since by runs alone (``benchmarks/merge_alone.py``) are counted with those deals.

Long studies can run with ``--checkpoint-dir DIR`` (each study records finished chunks in
``DIR/PRESET.ckpt`` and resumes from it, on any backend); ``--from-checkpoints`` then
tabulates, for each preset, the deals 1..N its checkpoint holds (its seconds column is then
the sum of the per-deal search times, i.e. one core's time, and is marked so).
``--verdicts-dir DIR`` keeps every deal's verdict in ``DIR/PRESET.verdicts`` (one letter a
deal), ``--results-dir DIR`` puts the JSON and the table in ``DIR`` instead of
``benchmarks/results``, and ``--scheduler tcp://HOST:PORT`` runs the studies on a Dask cluster.

The headline studies (a million deals of each preset; hours of CPU, resumable)::

    python benchmarks/study.py --presets thirteen,thirteen-return,fifteen,blackhole,allinarow \
        --deals 1..1000000 --time-limit 30 --checkpoint-dir studies \
        --verdicts-dir benchmarks/results/verdicts [--scheduler tcp://HOST:8786]

Stopped at any point, the same command continues from the checkpoints; ``--from-checkpoints``
tabulates whatever is finished.
"""

from __future__ import annotations

import argparse
import shlex
import subprocess
import sys
from pathlib import Path

import orjson

from cloversolve.games.registry import PRESETS
from cloversolve.runs.decided_alone import decided_alone_path, read_decided_alone
from cloversolve.runs.study import wilson_interval
from cloversolve.runs.study_files import read_verdicts

RESULTS = Path(__file__).resolve().parent / "results"


def study_command(
    preset: str, deals: str, jobs: int, time_limit: float, scheduler: str | None = None
) -> list[str]:
    where = ["--jobs", str(jobs)] if scheduler is None else ["--scheduler", scheduler]
    return [
        "cloversolve",
        "study",
        preset,
        "--deals",
        deals,
        *where,
        "--json",
        "--time-limit",
        f"{time_limit:g}",
    ]


def run_study(
    preset: str,
    deals: str,
    jobs: int,
    time_limit: float,
    checkpoint: Path | None = None,
    *,
    scheduler: str | None = None,
    verdicts: Path | None = None,
    results: Path = RESULTS,
) -> dict:
    """Run one study through the command line; its JSON with the command that made it."""
    command = study_command(preset, deals, jobs, time_limit, scheduler)
    extra = [] if checkpoint is None else ["--checkpoint", str(checkpoint)]
    extra += [] if verdicts is None else ["--verdicts", str(verdicts)]
    print("$", shlex.join(command + extra), flush=True)
    done = subprocess.run(command + extra, check=True, capture_output=True, text=True)
    data = orjson.loads(done.stdout)
    data["command"] = shlex.join(command)
    results.mkdir(parents=True, exist_ok=True)
    (results / f"study_{preset}.json").write_bytes(orjson.dumps(data, option=orjson.OPT_INDENT_2))
    print(
        f"  solvable {data['solvable']} unsolvable {data['unsolvable']} "
        f"undecided {data['undecided']} in {data['seconds']} s",
        flush=True,
    )
    return data


def checkpoint_prefix(path: Path) -> int:
    """The largest N with deals 1..N in the checkpoint (its chunks are in deal order)."""
    last = 0
    for line in path.read_bytes().splitlines()[1:]:
        try:
            record = orjson.loads(line)
            if record["first"] != last + 1:
                break
            last += len(record["results"])
        except (orjson.JSONDecodeError, KeyError, TypeError):
            break
    return last


def tabulate_checkpoint(
    preset: str, path: Path, jobs: int, time_limit: float, verdicts: Path | None, results: Path
) -> None:
    last = checkpoint_prefix(path)
    if last == 0:
        print(f"  {preset}: no complete prefix in {path}")
        return
    data = run_study(
        preset, f"1..{last}", jobs, time_limit, path, verdicts=verdicts, results=results
    )
    data["seconds"] = data["search_seconds"]
    data["seconds_are_search_sum"] = True
    (results / f"study_{preset}.json").write_bytes(orjson.dumps(data, option=orjson.OPT_INDENT_2))


def study_table(rows: list[dict]) -> str:
    """The Markdown table of study results."""
    lines = [
        "| preset | deals | solvable | unsolvable | undecided | solvable rate | 95% interval "
        "| seconds | command |",
        "| --- | --- | ---: | ---: | ---: | ---: | --- | ---: | --- |",
    ]
    for row in rows:
        deals = row["deals"]
        count = deals["count"]
        low, high = row["interval_95"]
        lines.append(
            f"| {row['preset']} | {deals['first']}..{deals['last']} ({count:,}) "
            f"| {row['solvable']:,} | {row['unsolvable']:,} | {row['undecided']:,} "
            f"| {row['solvable'] / count:.2%} | {low:.2%} .. {high:.2%} "
            f"| {row['seconds']:,.0f}{'*' if row.get('seconds_are_search_sum') else ''} "
            f"| `{row['command']}` |"
        )
    return "\n".join(lines) + "\n"


def decided_alone_note(verdicts: Path) -> str:
    """The verdict files in ``verdicts`` whose undecided deals were decided since by runs
    alone and merged into them (those with a decided-alone record), counted with those deals;
    empty when there are none."""
    lines = []
    for preset in PRESETS:
        path = verdicts / f"{preset}.verdicts"
        side = decided_alone_path(path)
        if not side.exists():
            continue
        header, letters = read_verdicts(path)
        merged = read_decided_alone(side, preset).values()
        count, solvable, undecided = len(letters), letters.count("s"), letters.count("?")
        low, high = (
            wilson_interval(solvable, count)[0],
            wilson_interval(solvable + undecided, count)[1],
        )
        limits = sorted({entry.time_limit for entry in merged})
        alone = ", ".join(
            f"{sum(entry.time_limit == limit for entry in merged):,} at {limit:g} s"
            for limit in limits
        )
        first = header["first"]
        lines.append(
            f"| {preset} | {first}..{first + count - 1} ({count:,}) | {solvable:,} "
            f"| {letters.count('u'):,} | {undecided:,} | {solvable / count:.2%} "
            f"| {low:.2%} .. {high:.2%} | {len(merged):,} ({alone}) "
            f"| `{verdicts.name}/{side.name}` |"
        )
    if not lines:
        return ""
    return (
        "\nThe deals some of these studies left undecided were run again since, each alone "
        "with more time (`benchmarks/run_alone.py`), and their verdicts merged into the "
        "verdict files (`benchmarks/merge_alone.py`); each file's decided-alone record, beside "
        "it, lists those deals with the record each verdict comes from and its time limit. The "
        "verdict files, counted with them:\n\n"
        "| preset | deals | solvable | unsolvable | undecided | solvable rate | 95% interval "
        "| decided alone | decided-alone record |\n"
        "| --- | --- | ---: | ---: | ---: | ---: | --- | --- | --- |\n" + "\n".join(lines) + "\n"
    )


def table_text(results: Path = RESULTS, verdicts: Path | None = None) -> str:
    """``STUDY.md``: the table of the study JSON files in ``results``, and the note on the
    verdict files in ``verdicts`` (``results/verdicts`` by default) decided alone since."""
    rows = [
        orjson.loads((results / f"study_{name}.json").read_bytes())
        for name in PRESETS
        if (results / f"study_{name}.json").exists()
    ]
    return (
        "# Solvability studies\n\n"
        "Every deal is decided by an exhaustive search or left undecided at the time limit "
        "(never guessed). The interval is the union of the Wilson 95% intervals with every "
        "undecided deal counted once as a loss and once as a win. Seconds are wall time on "
        "2 cores (shared with other work while measured, so the wall-clock time limit bought "
        "less than its nominal CPU time). * = sum of per-deal search seconds (one core), for "
        "studies assembled from a checkpoint (the command regenerates the row from scratch).\n\n"
        + study_table(rows)
        + decided_alone_note(results / "verdicts" if verdicts is None else verdicts)
    )


def write_table(results: Path = RESULTS, verdicts: Path | None = None) -> Path:
    target = results / "STUDY.md"
    target.write_text(table_text(results, verdicts), encoding="utf-8")
    return target


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--presets", default=",".join(PRESETS))
    parser.add_argument("--deals", default="1..10000")
    parser.add_argument("--deals-for", action="append", default=[], metavar="PRESET=A..B")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--time-limit", type=float, default=10.0)
    parser.add_argument("--table-only", action="store_true")
    parser.add_argument("--checkpoint-dir", type=Path, default=None)
    parser.add_argument("--from-checkpoints", action="store_true")
    parser.add_argument("--verdicts-dir", type=Path, default=None)
    parser.add_argument("--scheduler", default=None, help="tcp://HOST:PORT or local:N (Dask)")
    parser.add_argument(
        "--results-dir", type=Path, default=RESULTS, help="where the JSON and STUDY.md go"
    )
    args = parser.parse_args()
    special = dict(item.split("=", 1) for item in args.deals_for)
    for preset in args.presets.split(",") if not args.table_only else []:
        checkpoint = None
        if args.checkpoint_dir is not None:
            args.checkpoint_dir.mkdir(parents=True, exist_ok=True)
            checkpoint = args.checkpoint_dir / f"{preset}.ckpt"
        verdicts = None
        if args.verdicts_dir is not None:
            args.verdicts_dir.mkdir(parents=True, exist_ok=True)
            verdicts = args.verdicts_dir / f"{preset}.verdicts"
        if args.from_checkpoints and checkpoint is not None:
            tabulate_checkpoint(
                preset, checkpoint, args.jobs, args.time_limit, verdicts, args.results_dir
            )
            continue
        try:
            deals = special.get(preset, args.deals)
            run_study(
                preset,
                deals,
                args.jobs,
                args.time_limit,
                checkpoint,
                scheduler=args.scheduler,
                verdicts=verdicts,
                results=args.results_dir,
            )
        except subprocess.CalledProcessError as error:
            print(f"  {preset}: study failed: {error.stderr.strip()[-300:]}", file=sys.stderr)
    print(f"wrote {write_table(args.results_dir, args.verdicts_dir)}")


if __name__ == "__main__":
    main()
