"""The ``cloversolve play`` command: write a page to play a deal in the browser.

Kept apart from :mod:`cloversolve.cli.main`; the command group adds it with :func:`register`.
"""

from __future__ import annotations

import click

from ..catalogue.build import entry_problem
from ..catalogue.daily import daily, lookup, parse_date
from ..catalogue.files import CatalogueError, default_catalogue, open_catalogue
from ..core.deal_numbers import check_deal_number
from ..grading.grading import DIFFICULTIES
from ..runs.output import check_separate_files, write_atomic
from ..web.play import play_page
from ..web.viewer import check_viewer_preset
from .common import CliError, MinusDigitArguments
from .executor import writable_page


@click.command("play", cls=MinusDigitArguments)
@click.argument("preset")
@click.argument("number", required=False)
@click.option(
    "--difficulty",
    "level",
    default=None,
    type=click.Choice(DIFFICULTIES),
    help="Without NUMBER: the daily deal's grade (default normal).",
)
@click.option(
    "--date",
    "date_text",
    default=None,
    metavar="YYYY-MM-DD",
    help="Without NUMBER: the day of the daily deal (default: the day the page is opened).",
)
@click.option("--catalogue", "path", default=None, metavar="FILE", help="Catalogue to read.")
@click.option(
    "--out",
    required=True,
    metavar="FILE.html",
    callback=writable_page("page"),
    help="The page to write.",
)
def play_command(
    preset: str,
    number: str | None,
    level: str | None,
    date_text: str | None,
    path: str | None,
    out: str,
) -> None:
    """Write a page to play deal NUMBER of PRESET, or the daily deal, in a browser.

    The page needs no network (the module and the preset's catalogue are inlined): cards move
    by clicks, taps or the keyboard, with hints, undo and restart; a catalogue deal is labelled
    "Verified solvable", any other "Solvability not checked". Without NUMBER the page plays the
    daily deal of --difficulty for --date, or for the day it is opened.
    """
    name = check_viewer_preset(preset)
    if number is not None and (level is not None or date_text is not None):
        raise CliError("give NUMBER, or --difficulty and --date for a daily deal, not both")
    source = path if path is not None else default_catalogue(name)
    check_separate_files([(out, "page")], [(source, "catalogue")])
    catalogue = open_catalogue(name, source)
    wanted = None if number is None else check_deal_number(number)
    day = None if date_text is None else parse_date(date_text).isoformat()
    level = level or "normal"
    if wanted is not None:
        entry = lookup(catalogue, wanted)
        label = "verified solvable" if entry is not None else "solvability not checked"
        what = f"{name} deal {wanted} ({label})"
    elif day is not None:
        entry = daily(catalogue, day, level)
        what = f"{name} {level} deal of {day}: deal {entry['number']} (verified solvable)"
    else:
        entry = None
        what = f"the {name} {level} deal of the day the page is opened"
    problem = None if entry is None else entry_problem(name, entry)
    if entry is not None and problem is not None:
        raise CatalogueError(f"{name} deal {entry['number']} is not verified: {problem}")
    text = play_page(name, catalogue, number=wanted, date=day, difficulty=level)
    try:
        write_atomic(out, text.encode("utf-8"))
    except OSError as error:
        raise CliError(f"cannot write {out!r}: {error.strerror}") from None
    click.echo(f"wrote {out}: {what}")


def register(group: click.Group) -> None:
    """Add ``play`` to ``group``."""
    group.add_command(play_command)
