"""Run deals of a long study again, one at a time and alone, with the current search.

    python benchmarks/run_alone.py VERDICTS... --time-limit 30 --out FILE.json
    python benchmarks/run_alone.py FILE.json --time-limit 600 --out LONGER.json
    python benchmarks/run_alone.py CHECKPOINT... --over 10 --time-limit 30 --out SLOW.json
    python benchmarks/run_alone.py SLOW.json --slowest 20 --time-limit 30 --out TAIL.json \
        --markdown TAIL.md

A study's time limit is wall-clock, and a long study shares its machine with other work, so a
deal recorded as undecided (``?`` in its verdict file) may only have lacked its share of the
processor. Each deal chosen runs here alone, as ``cloversolve solve PRESET NUMBER --json
--time-limit T`` in a process of its own. The deals chosen are the undecided ones of each
verdict file (its ``?`` letters, and the deals decided since and merged into it by
``merge_alone.py``, which its decided-alone record lists: the command that chose them chooses
them again); those still undecided in a record this script wrote (run again with a longer
limit, to find the time each needs), or with ``--slowest N`` its ``N`` slowest deals of each
preset (the undecided first, then by seconds: to time the tail of the search again after a
change); or, with ``--over S``, those of a study's checkpoint (unpacked) recorded as taking
over ``S`` seconds, to time the slowest deals alone.

Each row gives the deal's verdict, method, wall-clock seconds and nodes as the search reports
them, and the processor seconds of its whole process (start-up and kernel loading included,
about a second: on a shared machine a steadier figure than wall-clock time). ``--markdown``
also writes the rows as a table.

Finished deals are kept in ``FILE.json.partial`` (one JSON line each, after a line with the
time limit), so an interrupted run resumes where it stopped; the deals of ``--out`` (and of
any ``--known`` record) run at the same limit are not run again, so a record grows with its
study (an ``--out`` holding other deals, or run at another limit, is refused, never cut).
"""

from __future__ import annotations

import argparse
import resource
import shlex
import subprocess
import sys
from pathlib import Path
from typing import Any

import orjson

from cloversolve.core.inputs import InputFileError, is_checkpoint
from cloversolve.runs.decided_alone import MergeError, study_letters
from cloversolve.runs.output import write_atomic
from cloversolve.search.common import Limits

COLUMNS = ["deal", "status", "method", "seconds", "nodes", "cpu_seconds"]
#: The exit statuses of ``cloversolve solve``: solved, unsolvable, limit reached.
SOLVE_STATUSES = (0, 3, 4)


class InputError(ValueError):
    """A file given to the script is not what it takes."""


def chosen_deals(
    path: Path, over: float | None, slowest: int | None = None
) -> dict[str, list[int]]:
    """The deals to run again, by preset: the undecided deals of a verdict file or of a record
    this script wrote (or the record's ``slowest`` slowest deals of each preset), or the deals
    of a checkpoint recorded as taking over ``over`` seconds (:class:`InputError` when ``path``
    is none of those, or ``slowest`` is given with another kind of file)."""
    if path.suffix == ".gz":
        raise InputError(f"{str(path)!r} is compressed: unpack it first (gunzip -k)")
    try:
        data = path.read_bytes()
    except OSError as error:
        raise InputError(f"cannot read {str(path)!r}: {error.strerror}") from None
    try:
        if is_checkpoint(data):
            if over is None:
                raise InputError(f"{str(path)!r} is a checkpoint: give --over SECONDS")
            return _slow_deals(data, over)
        if over is not None:
            raise InputError(f"--over chooses deals of checkpoints; {str(path)!r} is not one")
        if b'"format"' not in data.partition(b"\n")[0]:  # (a verdict file's header has one)
            record = orjson.loads(data)
            if slowest is not None:
                return _slowest(record, slowest)
            return _still_undecided(record)
        if slowest is not None:
            raise InputError(f"--slowest chooses deals of records; {str(path)!r} is not one")
        return _undecided(path)
    except (ValueError, KeyError, TypeError, IndexError, UnicodeDecodeError) as error:
        if isinstance(error, InputError):
            raise
        raise InputError(
            f"{str(path)!r} is not a verdict file, a record of this script or an unpacked "
            f"checkpoint ({type(error).__name__}: {error})"
        ) from None


def _slow_deals(data: bytes, over: float) -> dict[str, list[int]]:
    lines = data.splitlines()
    slow = [
        record["first"] + i
        for record in map(orjson.loads, lines[1:])
        for i, result in enumerate(record["results"])
        if result[3] > over
    ]
    return {orjson.loads(lines[0])["preset"]: sorted(slow)}


def _still_undecided(record: dict[str, Any]) -> dict[str, list[int]]:
    presets = {key: value for key, value in record.items() if isinstance(value, dict)}
    if "columns" not in record or not presets:
        raise KeyError("deals")
    return {
        preset: [row[0] for row in value["deals"] if row[1] == "limit"]
        for preset, value in presets.items()
    }


def _slowest(record: dict[str, Any], count: int) -> dict[str, list[int]]:
    _still_undecided(record)  # (refuses what is not a record)
    return {
        preset: [
            row[0]
            for row in sorted(value["deals"], key=lambda row: (row[1] != "limit", -row[3]))[:count]
        ]
        for preset, value in record.items()
        if isinstance(value, dict)
    }


def _undecided(path: Path) -> dict[str, list[int]]:
    try:  # (the deals merged since count as undecided)
        header, letters = study_letters(path)
    except (InputFileError, MergeError) as error:  # (a letter that is not a verdict names its deal)
        raise InputError(str(error)) from None
    first = header["first"]
    return {header["preset"]: [first + i for i, letter in enumerate(letters) if letter == "?"]}


def solve_alone(preset: str, number: int, time_limit: float, max_nodes: int | None = None) -> list:
    """One deal solved in a process of its own: a row of ``COLUMNS``."""
    limit = ["--time-limit", f"{time_limit:g}"]
    if max_nodes is not None:
        limit += ["--max-nodes", str(max_nodes)]
    argv = [sys.executable, "-m", "cloversolve", "solve", preset, str(number), "--json", *limit]
    before = _children_cpu()
    done = subprocess.run(argv, capture_output=True, check=False)
    cpu = round(_children_cpu() - before, 2)
    if done.returncode not in SOLVE_STATUSES:
        sys.exit(f"{shlex.join(argv)} failed: {done.stderr.decode().strip()}")
    result = orjson.loads(done.stdout)
    return [number, result["status"], result["method"], result["seconds"], result["nodes"], cpu]


def _children_cpu() -> float:
    """Processor seconds (user and system) of the finished child processes."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def read_record(path: Path) -> dict[str, Any]:
    """A record this script wrote (:class:`InputError` when ``path`` is not one)."""
    try:
        record = orjson.loads(path.read_bytes())
        _still_undecided(record)  # (refuses what is not a record)
        return record
    except OSError as error:
        raise InputError(f"cannot read {str(path)!r}: {error.strerror}") from None
    except (ValueError, KeyError, TypeError, AttributeError):
        raise InputError(f"{str(path)!r} is not a record of this script") from None


def rows_of(record: dict[str, Any]) -> dict[tuple[str, int], list]:
    """A record's rows by preset and deal."""
    return {
        (preset, row[0]): row
        for preset, value in record.items()
        if isinstance(value, dict)
        for row in value["deals"]
    }


def known_rows(
    out: Path,
    known: list[Path],
    time_limit: float,
    deals: dict[str, list[int]],
    max_nodes: int | None = None,
) -> dict[tuple[str, int], list]:
    """The rows of earlier records run at ``time_limit`` (and ``max_nodes``), by preset and
    deal. ``out``, when it exists, must be a record of the same limits and hold no deal
    outside ``deals`` (it is written again with exactly those: nothing of it may be lost)."""
    rows: dict[tuple[str, int], list] = {}
    for path in known:
        record = read_record(path)
        if _limits(record) == (time_limit, max_nodes):
            rows.update(rows_of(record))
    if out.exists():
        record = read_record(out)
        if _limits(record) != (time_limit, max_nodes):
            raise InputError(
                f"{str(out)!r} holds deals run at {record.get('time_limit')} s and "
                f"{record.get('max_nodes')} nodes, not {time_limit:g} s and {max_nodes} "
                "nodes: give another --out"
            )
        chosen = {(preset, number) for preset, numbers in deals.items() for number in numbers}
        if left_out := sorted(set(rows_of(record)) - chosen):
            preset, number = left_out[0]
            raise InputError(
                f"{str(out)!r} holds {len(left_out)} deals these files do not choose "
                f"({preset} {number}, ...): give another --out"
            )
        rows.update(rows_of(record))
    return rows


def _limits(record: dict[str, Any]) -> tuple[Any, Any]:
    """The time limit and node budget a record (or a partial record's header) was run at."""
    return record.get("time_limit"), record.get("max_nodes")


def read_partial(
    partial: Path, time_limit: float, max_nodes: int | None = None
) -> dict[tuple[str, int], list]:
    """The deals an interrupted run finished (refused when it ran at another limit; a last
    line cut short by a crash is dropped, and its deal runs again)."""
    if not partial.exists():
        return {}
    lines = partial.read_bytes().splitlines()
    if not lines:
        return {}
    try:
        made_at, nodes = _limits(orjson.loads(lines[0]))
        rows = []
        for number, line in enumerate(lines[1:], start=2):
            try:
                rows.append(orjson.loads(line))
            except ValueError:
                if number < len(lines):
                    raise
        done = {(preset, row[0]): row for preset, row in rows}
    except (ValueError, KeyError, TypeError):
        raise InputError(
            f"{str(partial)!r} is not a run's partial record: delete it to start afresh"
        ) from None
    if (made_at, nodes) != (time_limit, max_nodes):
        budget = "" if nodes is None else f" --max-nodes {nodes}"
        raise InputError(
            f"{str(partial)!r} holds deals run at {made_at:g} s: give --time-limit {made_at:g}"
            f"{budget} to finish that run, or delete the file"
        )
    return done


def run_again(
    deals: dict[str, list[int]],
    time_limit: float,
    partial: Path,
    known: dict,
    max_nodes: int | None = None,
) -> dict[str, list[list]]:
    """Every deal of ``deals`` (by preset) run alone, but those ``known`` already; finished
    ones are appended to ``partial`` and read back from it on a later run."""
    done = {**known, **read_partial(partial, time_limit, max_nodes)}
    fresh = not partial.exists() or not partial.read_bytes().strip()
    with partial.open("wb" if fresh else "ab") as out:
        if fresh:
            header = {"time_limit": time_limit}
            if max_nodes is not None:
                header["max_nodes"] = max_nodes
            out.write(orjson.dumps(header) + b"\n")
        for preset, numbers in deals.items():
            for number in numbers:
                if (preset, number) in done:
                    continue
                row = solve_alone(preset, number, time_limit, max_nodes)
                out.write(orjson.dumps([preset, row]) + b"\n")
                out.flush()
                done[preset, number] = row
                print(f"{preset} {number}: {row[1]} in {row[3]:.1f} s", flush=True)
    return {preset: [done[preset, n] for n in numbers] for preset, numbers in deals.items()}


def markdown(record: dict[str, Any]) -> str:
    """The rows of a record as a table, preset by preset in the order of the record."""
    lines = [f"{record['what']}.", "", f"    {record['command']}", ""]
    lines += ["| preset | " + " | ".join(COLUMNS) + " |", "|" + " --- |" * (len(COLUMNS) + 1)]
    for preset, value in record.items():
        if isinstance(value, dict):
            for row in value["deals"]:
                cells = [*row, *[""] * (len(COLUMNS) - len(row))]
                lines.append(f"| {preset} | " + " | ".join(map(str, cells)) + " |")
    return "\n".join(lines) + "\n"


def summary(rows: list[list]) -> dict:
    counts = {status: sum(row[1] == status for row in rows) for status in ("solved", "unsolvable")}
    return {**counts, "undecided": len(rows) - sum(counts.values()), "deals": rows}


def positive(text: str) -> float:
    """A number of seconds above 0 (for argparse), checked as a search's time limit is."""
    try:
        return float(Limits(time_limit=float(text)).time_limit or 0)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of seconds above 0") from None


def count(text: str) -> int:
    """A whole number above 0 (for argparse)."""
    if not text.isdigit() or int(text) == 0 or text != str(int(text)):
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number above 0")
    return int(text)


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument(
        "sources",
        nargs="+",
        type=Path,
        help="verdict files (study --verdicts), records of this script, or unpacked "
        "checkpoints (study --checkpoint, with --over)",
    )
    parser.add_argument(
        "--over", type=positive, default=None, help="with checkpoints: their deals over this"
    )
    parser.add_argument(
        "--slowest",
        type=count,
        default=None,
        help="with a record of this script: its N slowest deals of each preset",
    )
    parser.add_argument(
        "--time-limit", type=positive, default=30.0, help="seconds per deal (default: 30)"
    )
    parser.add_argument(
        "--max-nodes",
        type=count,
        default=None,
        help="a node budget per deal as well (a steadier bound than the clock on a busy machine)",
    )
    parser.add_argument("--out", type=Path, required=True, help="the record to write (JSON)")
    parser.add_argument("--markdown", type=Path, help="also write the rows as a table here")
    parser.add_argument(
        "--known",
        type=Path,
        action="append",
        default=[],
        help="a record of this script whose deals run at the same limit are not run again "
        "(OUT itself is one when it exists)",
    )
    args = parser.parse_args()
    deals: dict[str, list[int]] = {}
    partial = args.out.with_name(args.out.name + ".partial")
    try:
        for path in args.sources:
            for preset, numbers in chosen_deals(path, args.over, args.slowest).items():
                if preset in deals:
                    parser.error(f"two files of {preset!r}: run them one at a time")
                deals[preset] = numbers
        known = known_rows(args.out, args.known, args.time_limit, deals, args.max_nodes)
        rows = run_again(deals, args.time_limit, partial, known, args.max_nodes)
    except InputError as error:
        sys.exit(f"run_alone: error: {error}")
    except KeyboardInterrupt:
        sys.exit(f"run_alone: interrupted; the finished deals are kept in {str(partial)!r}: "
                 "run the same command again to resume")  # fmt: skip
    chosen = "left undecided" if args.over is None else f"recorded as over {args.over:g} s"
    if args.slowest is not None:
        chosen = f"(the {args.slowest} slowest of each preset)"
    record = {
        "what": f"deals of {', '.join(map(str, args.sources))} {chosen}, each run again alone "
        f"with the search of this version at {args.time_limit:g} s"
        + ("" if args.max_nodes is None else f" and {args.max_nodes:,} nodes"),
        "command": shlex.join(
            [
                "python",
                "benchmarks/run_alone.py",
                *map(str, args.sources),
                *([] if args.over is None else ["--over", f"{args.over:g}"]),
                *([] if args.slowest is None else ["--slowest", str(args.slowest)]),
                "--time-limit",
                f"{args.time_limit:g}",
                *([] if args.max_nodes is None else ["--max-nodes", str(args.max_nodes)]),
                "--out",
                str(args.out),
                *[part for known in args.known for part in ("--known", str(known))],
                *([] if args.markdown is None else ["--markdown", str(args.markdown)]),
            ]
        ),
        "time_limit": args.time_limit,
        **({} if args.max_nodes is None else {"max_nodes": args.max_nodes}),
        "columns": COLUMNS,
        **{preset: summary(preset_rows) for preset, preset_rows in rows.items()},
    }
    write_atomic(args.out, orjson.dumps(record, option=orjson.OPT_INDENT_2) + b"\n")
    if args.markdown is not None:
        write_atomic(args.markdown, markdown(record).encode())
    partial.unlink()
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
