"""Command-line commands for catalogues: ``catalogue build``, ``catalogue verify``,
``catalogue vouch``, ``daily`` and ``lookup``. :func:`register` adds them to the
``cloversolve`` command group.

Bad input raises :class:`~cloversolve.catalogue.files.CatalogueError` (a ``ValueError``) or a click
usage error, which the command group prints as one line.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import click

from ..catalogue.build import build, checkpoint_path, entry_problem
from ..catalogue.daily import daily, entries_of, lookup, parse_date, scanned_deals
from ..catalogue.files import CatalogueError, default_catalogue, open_catalogue
from ..catalogue.manifest import is_vouched_for
from ..catalogue.verify import verify, vouch
from ..core.deal_numbers import check_deal_number, parse_deal_range
from ..core.inputs import MAX_CATALOGUE_FILE, parse_json, read_bytes
from ..core.places import MANIFEST_NAME, shipped_dir
from ..core.verdicts import Status
from ..core.wording import count
from ..games.registry import find_preset
from ..grading.grading import DIFFICULTIES
from .common import (
    MAX_JOBS,
    MinusDigitArguments,
    WholeNumber,
    note_dropped_checkpoint_lines,
    note_resuming,
    print_json,
    progress_option,
)
from .executor import executor_options

EXIT_PROBLEMS = 1


@click.group("catalogue")
def catalogue_group() -> None:
    """Build and verify the verified-deal catalogues that front ends read."""


@catalogue_group.command("build", cls=MinusDigitArguments)
@click.argument("preset")
@click.option(
    "--deals",
    "deal_range",
    required=True,
    metavar="A..B",
    help="Deal numbers to scan, e.g. 1..5000.",
)
@click.option(
    "--per-difficulty",
    type=WholeNumber(),
    required=True,
    help="Deals wanted of each difficulty (easy, normal, hard).",
)
@executor_options
@click.option(
    "--out",
    required=True,
    metavar="FILE",
    help="The catalogue file to write (checked by the build before any work).",
)
@progress_option
def build_command(
    preset: str,
    deal_range: str,
    per_difficulty: int,
    jobs: int,
    scheduler: str | None,
    chunk_size: int | None,
    out: str,
    progress: bool | None,
) -> None:
    """Grade deals A..B of PRESET in ascending order until each difficulty has N verified
    deals, and write the catalogue to FILE.

    Finished deals are kept in FILE.checkpoint, so an interrupted build continues where it
    stopped when run again. The output is the same whatever --jobs or --scheduler is.
    """
    spec = find_preset(preset)
    numbers = parse_deal_range(deal_range)
    show = sys.stderr.isatty() if progress is None else progress
    report = build(
        spec.name,
        numbers,
        per_difficulty,
        out,
        jobs=jobs,
        scheduler=scheduler,
        chunk_size=chunk_size,
        progress=show,
        on_resume=note_resuming(),
    )
    note_dropped_checkpoint_lines(report.checkpoint_lines_dropped, checkpoint_path(out))
    for problem in report.rejected:
        click.echo(f"warning: left out {problem}", err=True)
    counts = ", ".join(f"{report.counts[d]} {d}" for d in DIFFICULTIES)
    statuses = report.statuses
    click.echo(
        f"wrote {out}: {counts} {spec.name} deals from deals {numbers[0]}..{report.scanned_to} "
        f"({statuses[Status.SOLVED.value]} solved, {statuses[Status.UNSOLVABLE.value]} "
        f"unsolvable, {statuses[Status.LIMIT_REACHED.value]} undecided at the budget)"
    )
    _note_unvouched(out)


def _note_unvouched(out: str) -> None:
    """Say so when ``out`` is a shipped catalogue whose bytes the manifest does not list:
    readers then check its whole schema until ``catalogue vouch`` records it."""
    if Path(out).resolve().parent != shipped_dir().resolve():
        return
    if not is_vouched_for(read_bytes(out, "catalogue", MAX_CATALOGUE_FILE)):
        click.echo(
            f"note: {MANIFEST_NAME} does not list these bytes; run `cloversolve catalogue "
            "vouch` to verify the shipped catalogues and record them",
            err=True,
        )


@catalogue_group.command("verify", cls=MinusDigitArguments)
@click.argument("file")
@click.option(
    "--deep", is_flag=True, help="Also grade every deal again and compare metrics and grade."
)
@click.option(
    "--jobs",
    "-j",
    type=WholeNumber(maximum=MAX_JOBS),
    default=1,
    show_default=True,
    help="Processes.",
)
@click.option("--json", "as_json", is_flag=True, help="Print the problems as JSON.")
def verify_command(file: str, deep: bool, jobs: int, as_json: bool) -> int:
    """Check a catalogue: schema, grading rule, parameters and counts, layouts, routes,
    duplicates, metrics and grades (exit 1 on any problem, listing each one with its deal
    number; exit 2 when FILE is not JSON at all). --deep recomputes every deal's metrics (they
    are seeded) and its grade."""
    raw = read_bytes(file, "catalogue", MAX_CATALOGUE_FILE)  # unreadable: one line, exit 2
    parse_json(raw, "catalogue", file)  # empty, not UTF-8, not JSON: one line, exit 2
    problems = verify(raw, deep=deep, jobs=jobs, progress=deep and sys.stderr.isatty())
    if as_json:
        print_json({"file": file, "ok": not problems, "problems": [p.to_json() for p in problems]})
    elif problems:
        for problem in problems:
            click.echo(f"{file}: {problem}")
        click.echo(f"{file}: {count(len(problems), 'problem')}")
    else:
        click.echo(f"{file}: ok")
    return EXIT_PROBLEMS if problems else 0


@catalogue_group.command("vouch")
def vouch_command() -> int:
    """Verify every shipped catalogue (as catalogue verify does) and write the SHA-256 digests
    of the sound ones, and of the schema, to VERIFIED.sha256 beside them (exit 1 when one
    has problems: it is left out). Readers skip the schema check for those exact bytes; run
    this after rebuilding a shipped catalogue."""
    manifest, found = vouch(shipped_dir())
    for name, problems in found.items():
        for problem in problems:
            click.echo(f"{name}: {problem}")
        click.echo(
            f"{name}: {count(len(problems), 'problem')}, left out" if problems else f"{name}: ok"
        )
    listed = sum(not problems for problems in found.values())
    click.echo(f"wrote {manifest}: {count(listed, 'catalogue')} listed")
    return EXIT_PROBLEMS if listed < len(found) else 0


def _open(preset: str, path: str | None) -> tuple[dict[str, Any], str]:
    """``preset``'s catalogue (``path``, or the one :func:`default_catalogue` finds) and its
    file name."""
    source = str(path if path is not None else default_catalogue(preset))
    return open_catalogue(preset, source), source


def _checked(preset: str, entry: dict[str, Any], source: str) -> dict[str, Any]:
    """``entry``, once its route replays to a win on its deal (a tampered catalogue must not
    call a deal verified)."""
    problem = entry_problem(preset, entry)
    if problem is not None:
        raise CatalogueError(
            f"{preset} deal {entry['number']} in {source!r} is not verified: {problem}; "
            f"check the catalogue with `cloversolve catalogue verify {source}`"
        )
    return entry


@click.command("daily", cls=MinusDigitArguments)
@click.argument("preset")
@click.option(
    "--date",
    "date_text",
    required=True,
    metavar="YYYY-MM-DD",
    help="The day, as a calendar date YYYY-MM-DD (the only format accepted).",
)
@click.option(
    "--difficulty",
    "level",
    default=None,
    type=click.Choice(DIFFICULTIES),
    help="The grade (required): easy, normal or hard.",
)
@click.option("--catalogue", "path", default=None, metavar="FILE", help="Catalogue to read.")
@click.option("--json", "as_json", is_flag=True, help="Print the entry as JSON.")
def daily_command(
    preset: str, date_text: str, level: str | None, path: str | None, as_json: bool
) -> None:
    """The daily deal of PRESET for a date and difficulty.

    Rule: the deals of that difficulty sorted by number; take entry (days since 2000-01-01)
    modulo their count.
    """
    if level is None:  # checked here: click's message for a missing choice spans lines
        raise click.UsageError(
            f"missing --difficulty: the daily deal of which grade ({', '.join(DIFFICULTIES)})?"
        )
    spec = find_preset(preset)
    day = parse_date(date_text)
    data, source = _open(spec.name, path)
    entry = _checked(spec.name, daily(data, day, level), source)
    entries = entries_of(data, level)
    if as_json:
        print_json(
            {
                "preset": spec.name,
                "date": day.isoformat(),
                "difficulty": level,
                "index": entries.index(entry),
                "count": len(entries),
                **entry,
            }
        )
        return
    click.echo(f"{spec.name} {level} deal of {day.isoformat()}: deal {entry['number']}")


@click.command("lookup", cls=MinusDigitArguments)
@click.argument("preset")
@click.argument("number")
@click.option("--catalogue", "path", default=None, metavar="FILE", help="Catalogue to read.")
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
def lookup_command(preset: str, number: str, path: str | None, as_json: bool) -> None:
    """Is deal NUMBER of PRESET verified, and how difficult? A listed deal's route is replayed
    first. A deal the build scanned but left out is unsolvable, undecided or of a full
    difficulty; past the scanned deals, "solvability not checked" (unknown, not proven
    impossible)."""
    spec = find_preset(preset)
    wanted = check_deal_number(number)
    data, source = _open(spec.name, path)
    entry = lookup(data, wanted)
    if entry is not None:
        entry = _checked(spec.name, entry, source)
    scanned = scanned_deals(data)
    if as_json:
        answer: dict[str, Any] = {
            "preset": spec.name,
            "number": wanted,
            "verified": entry is not None,
            "scanned": wanted in scanned,
        }
        if entry is not None:
            answer.update(entry)
        print_json(answer)
    elif entry is None and wanted in scanned:
        click.echo(
            f"{spec.name} deal {wanted}: not a catalogued deal; the build scanned deals "
            f"{scanned.start}..{scanned.stop - 1} and left it out: unsolvable, undecided "
            "within the build's budget, or its difficulty was already full "
            f"(`cloversolve solve {spec.name} {wanted}` decides it)"
        )
    elif entry is None:
        click.echo(f"{spec.name} deal {wanted}: solvability not checked")
    else:
        click.echo(
            f"{spec.name} deal {wanted}: verified, difficulty {entry['difficulty']} "
            f"(a winning route of {count(entry['route_length'], 'move')})"
        )


def register(group: click.Group) -> None:
    """Add ``catalogue build``, ``catalogue verify``, ``catalogue vouch``, ``daily`` and
    ``lookup`` to ``group``."""
    group.add_command(catalogue_group)
    group.add_command(daily_command)
    group.add_command(lookup_command)


__all__ = ["CatalogueError", "register"]
