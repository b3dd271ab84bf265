"""The ``cloversolve bench`` command: measure a preset's solver over a range of deals.

Kept apart from :mod:`cloversolve.cli.main` so the command group stays small; the group adds it
with :func:`register`.
"""

from __future__ import annotations

import sys

import click

from ..core.deal_numbers import parse_deal_range
from ..core.jsonio import dumps
from ..games.registry import find_preset
from ..runs.bench import (
    DEFAULT_TIME_LIMIT,
    bench,
    check_output_files,
    markdown_table,
    write_outputs,
)
from ..search.common import Limits
from .common import CliError, MinusDigitArguments
from .executor import executor_options, writable_folder
from .limits import limits_options


@click.command("bench", cls=MinusDigitArguments)
@click.argument("preset")
@click.option("--deals", "deal_range", required=True, metavar="A..B", help="Deals, e.g. 1..1000.")
@executor_options
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
@click.option(
    "--out",
    "out_dir",
    default=None,
    metavar="DIR",
    callback=writable_folder("bench output"),
    help="Also write bench_PRESET.json (per deal), bench_PRESET.png (with the bench extra) "
    "and bench.md to DIR (made if missing).",
)
@limits_options(each=" per deal", default_time_limit=DEFAULT_TIME_LIMIT)
@click.option(
    "--warm-start/--no-warm-start", default=True, help="Time a fresh process solving one deal."
)
def bench_command(
    preset: str,
    deal_range: str,
    jobs: int,
    scheduler: str | None,
    chunk_size: int | None,
    as_json: bool,
    out_dir: str | None,
    limits: Limits,
    warm_start: bool,
) -> None:
    """Measure PRESET over deals A..B: deals/s, nodes/s, latency, undecided, memory."""
    spec = find_preset(preset)
    numbers = parse_deal_range(deal_range)
    if out_dir is not None:  # a folder or someone's file where ours goes: refused at once
        check_output_files(spec.name, out_dir)
    report = bench(
        spec.name,
        numbers,
        jobs=jobs,
        scheduler=scheduler,
        chunk_size=chunk_size,
        limits=limits,
        warm_start=warm_start,
    )
    if out_dir is not None:
        try:
            write_outputs([report], out_dir)
        except OSError as error:
            raise CliError(f"cannot write to {out_dir!r}: {error.strerror}") from None
    if as_json:
        click.echo(dumps(report.summary()).decode())
    else:
        click.echo(markdown_table([report.summary()]), nl=False)
    sys.stdout.flush()


def register(group: click.Group) -> None:
    """Add the ``bench`` command to ``group``."""
    group.add_command(bench_command)
