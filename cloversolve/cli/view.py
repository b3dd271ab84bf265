"""The ``cloversolve view`` command: write a deal and a route as one self-contained HTML page.

Kept apart from :mod:`cloversolve.cli.main`; the command group adds it with :func:`register`.
"""

from __future__ import annotations

import click

from ..catalogue.files import CatalogueError, default_catalogue
from ..core.deal_numbers import check_deal_number
from ..core.notation import parse_route
from ..core.wording import count
from ..games.dealing import deal
from ..rules import position_from_layout
from ..runs.output import NamedFile, check_separate_files, write_atomic
from ..search.common import Limits
from ..solving.replay import replay_moves
from ..solving.solver import EXIT_CODES
from ..web.viewer import NoRoute, RouteChoice, check_viewer_preset, default_route, page
from .common import (
    EXIT_NO,
    AnswerIsNo,
    CliError,
    MinusDigitArguments,
    route_texts,
)
from .executor import writable_page
from .limits import limits_options


@click.command("view", cls=MinusDigitArguments)
@click.argument("preset")
@click.argument("number")
@click.option(
    "--route", "route_text", default=None, metavar="MOVES", help="The route, e.g. '4>1 4>F'."
)
@click.option(
    "--route-file",
    default=None,
    metavar="FILE",
    help="Read the route from a file ('-': standard input).",
)
@click.option(
    "--out",
    required=True,
    metavar="FILE.html",
    callback=writable_page("page"),
    help="The page to write.",
)
@limits_options(each=" when the solver finds the route")
def view_command(
    preset: str,
    number: str,
    route_text: str | None,
    route_file: str | None,
    out: str,
    limits: Limits,
) -> int:
    """Write deal NUMBER of PRESET and a route as one HTML page that steps through it.

    Without --route or --route-file the route is the catalogue entry's (a verified deal) or,
    for a deal the catalogue does not list, the solver's; a catalogue that cannot be read or
    whose route does not win is an error. The page needs no network: open it in any browser.
    Exit status 1 when the route is illegal or does not win (the page still shows it, up to
    where it fails); without a route, 3 when the deal is unsolvable and 4 when the solver's
    limit came first (no page).
    """
    name = check_viewer_preset(preset)
    wanted = check_deal_number(number)
    layout = deal(name, wanted)
    if route_text is not None and route_file is not None:
        raise CliError("give --route or --route-file, not both")
    check_separate_files([(out, "page")], [(route_file, "route file"), _catalogue_of(name)])
    if route_file is not None:
        from .layout_files import read_route_file

        choice = RouteChoice(tuple(read_route_file(route_file, layout)), "given")
    elif route_text is not None:
        choice = RouteChoice(tuple(route_texts([route_text])), "given")
    else:
        try:
            choice = default_route(name, wanted, limits=limits)
        except NoRoute as error:  # 3 unsolvable, 4 a limit: as ``solve`` exits
            raise AnswerIsNo(str(error), EXIT_CODES[error.status]) from None
    if not choice.route:
        given = repr(route_text) if route_text is not None else f"route file {route_file!r}"
        raise CliError(f"no moves to show in {given}")
    moves = parse_route(list(choice.route))
    result = replay_moves(position_from_layout(layout), moves)
    try:
        write_atomic(out, page(layout, choice).encode("utf-8"))
    except OSError as error:
        raise CliError(f"cannot write {out!r}: {error.strerror}") from None
    click.echo(
        f"wrote {out}: {name} deal {wanted}, {count(len(moves), 'move')} ({choice.source}); "
        f"{result.describe()}"
    )
    return 0 if result.won else EXIT_NO


def _catalogue_of(preset: str) -> NamedFile:
    """The catalogue ``view`` reads a route from, when there is one (none found: the page
    is drawn from the solver's route)."""
    try:
        return default_catalogue(preset), "catalogue"
    except CatalogueError:
        return None, "catalogue"


def register(group: click.Group) -> None:
    """Add ``view`` to ``group``."""
    group.add_command(view_command)
