"""Merge the verdicts of deals run again alone into the verdict files of their studies.

    python benchmarks/merge_alone.py VERDICTS... --records RECORD...

Each RECORD is one that ``benchmarks/run_alone.py`` wrote. Every deal it decided (solved or
unsolvable; those still undecided stay ``?``) gets its letter in the verdict file of its
preset, in place of the study's ``?``, and is listed in that file's decided-alone record
(``PRESET.decided-alone.json`` beside ``PRESET.verdicts``) with the record it comes from and
the time limit it ran at: the verdict file's header keeps the study's time limit, and the
decided-alone record says which deals were decided outside it (see
:mod:`cloversolve.runs.decided_alone`). Records are taken in the order given: a deal decided by
two keeps the first one's.

Refused before anything is written (status 2): a record's deal that is not a ``?`` of the
verdict file (unless merged before with the same letter), a record holding decided deals of a
preset whose verdict file is not given, two verdict files of one preset. Running the same
command again changes nothing.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from run_alone import InputError, read_record, rows_of

from cloversolve.runs.decided_alone import (
    DecidedRun,
    MergeError,
    MergePlan,
    plan_merge,
    study_letters,
)

DECIDED = ("solved", "unsolvable")


def plans(verdicts: list[Path], records: list[Path]) -> list[MergePlan]:
    """The merge of ``records`` into ``verdicts``, checked (:class:`MergeError` or
    :class:`InputError` when refused)."""
    files: dict[str, Path] = {}
    for path in verdicts:
        preset = study_letters(path)[0]["preset"]
        if preset in files:
            raise MergeError(f"{str(files[preset])!r} and {str(path)!r} both hold {preset!r}")
        files[preset] = path
    runs: dict[str, list[DecidedRun]] = {preset: [] for preset in files}
    for path in records:
        record = read_record(path)
        statuses: dict[str, dict[int, str]] = {}
        for (preset, deal), row in rows_of(record).items():
            if not (isinstance(row, list) and len(row) >= 2):
                raise InputError(f"{str(path)!r}: {preset} row {row!r} is not [deal, status, ...]")
            if row[1] in DECIDED:
                statuses.setdefault(preset, {})[deal] = row[1]
            elif row[1] != "limit":
                raise InputError(f"{str(path)!r}: {preset} deal {deal} has the status {row[1]!r}")
        for preset, decided in statuses.items():
            if preset not in files:
                raise MergeError(
                    f"{str(path)!r} decides {len(decided)} deals of {preset!r}, and no verdict "
                    f"file of {preset!r} is given"
                )
            runs[preset].append(DecidedRun(path, record.get("time_limit"), decided))
    return [plan_merge(files[preset], preset, runs[preset]) for preset in files]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("verdicts", nargs="+", type=Path, help="verdict files (study --verdicts)")
    parser.add_argument(
        "--records",
        nargs="+",
        type=Path,
        required=True,
        help="records of benchmarks/run_alone.py, in the order their verdicts are taken",
    )
    args = parser.parse_args(argv)
    try:
        checked = plans(args.verdicts, args.records)
    except (MergeError, InputError) as error:
        print(f"merge_alone: error: {error}", file=sys.stderr)
        return 2
    for plan in checked:
        plan.write()
        letters = plan.new_letters()
        print(
            f"{plan.verdicts}: {len(plan.added)} deals merged, {len(plan.merged)} listed in "
            f"{plan.side}, {letters.count('?')} left undecided (?)"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
