"""The ``cloversolve`` command line: each command a few lines over the library.

Bad input never produces a traceback: it prints one line that quotes the input and exits 2."""

from __future__ import annotations

import sys

import click

from ..core.deal_numbers import parse_deal_range
from ..core.notation import parse_route
from ..core.verdicts import ReplayStatus, Status
from ..core.version import __version__
from ..core.wording import count
from ..games.layout import Layout
from ..games.records import HintPolicy
from ..games.registry import PRESETS, find_preset
from ..rules import position_from_layout
from ..search.common import Limits
from ..solving.replay import replay_moves
from ..solving.solver import EXIT_CODES, IllegalRouteError, hint, solve
from .common import (
    EXIT_NO,
    AnswerIsNo,
    CliError,
    note_dropped_checkpoint_lines,
    note_resuming,
    print_json,
    progress_option,
    route_texts,
    use_colour,
)
from .executor import executor_options, writable_file
from .groups import LazyCommands
from .layout_files import layout_from_args, layout_name, read_route_file, route_beside_layout
from .limits import limits_options


def how_to_give_moves(layout: Layout) -> str:
    """How to give moves, with a legal first move of ``layout`` as the example (in its
    preset's own notation): a move with ``>`` must be quoted, or the shell redirects."""
    move = next((str(move) for move in position_from_layout(layout).legal_moves()), None)
    if move is None:
        return "the deal has no legal move"
    if ">" in move:
        return f"quote each move, e.g. '{move}': unquoted, the shell takes > for a redirection"
    return f"a move looks like {move}"


#: The commands defined in other modules, by name: each module is imported only when its
#: command runs (or ``--help`` lists the commands), so one command loads nothing of the others.
COMMANDS_ELSEWHERE = {
    "audit": "cloversolve.cli.audit:audit_command",
    "bench": "cloversolve.cli.bench:bench_command",
    "catalogue": "cloversolve.cli.catalogue:catalogue_group",
    "daily": "cloversolve.cli.catalogue:daily_command",
    "grading": "cloversolve.cli.grading:grading_group",
    "lookup": "cloversolve.cli.catalogue:lookup_command",
    "play": "cloversolve.cli.play:play_command",
    "view": "cloversolve.cli.view:view_command",
    "warm-up": "cloversolve.cli.warmup:warm_up_command",
}


@click.group(
    cls=LazyCommands,
    lazy_commands=COMMANDS_ELSEWHERE,
    context_settings={"help_option_names": ["-h", "--help"]},
)
@click.version_option(__version__, prog_name="cloversolve")
def main() -> None:
    """Solve, verify and catalogue deals of the clover family of patience games."""


@main.command()
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
def presets(as_json: bool) -> None:
    """List the presets with one-line descriptions."""
    if as_json:
        print_json(
            [
                {"name": p.name, "family": p.family, "description": p.description}
                for p in PRESETS.values()
            ]
        )
        return
    width = max(len(name) for name in PRESETS)
    for spec in PRESETS.values():
        click.echo(f"{spec.name:<{width}}  {spec.description}")


@main.command()
@click.argument("preset")
def rules(preset: str) -> None:
    """Print the rules of PRESET in plain words."""
    spec = find_preset(preset)
    click.echo(f"{spec.name}: {spec.description}\n\n{spec.rules}")


@main.command("deal")
@click.argument("preset")
@click.argument("number")
@click.option("--json", "as_json", is_flag=True, help="Print the layout JSON.")
def deal_command(preset: str, number: str, as_json: bool) -> None:
    """Show deal NUMBER of PRESET (PySolFC-compatible numbering)."""
    layout = layout_from_args(preset, number, None)
    if as_json:
        print_json(layout.to_json())
        return
    click.echo(f"{layout.preset} deal {layout.number}")
    click.echo(position_from_layout(layout).render(color=use_colour()))


@main.command("replay")
@click.argument("preset")
@click.argument("number", required=False)
@click.argument("route", nargs=-1)
@click.option(
    "--route-file",
    default=None,
    metavar="FILE",
    help="Read the route from a file ('-': standard input).",
)
@click.option(
    "--layout", "layout_file", default=None, metavar="FILE", help="Start from a layout JSON file."
)
@click.option("--verbose", "-v", is_flag=True, help="Show the position after every move.")
@click.option("--json", "as_json", is_flag=True, help="Print the result as JSON.")
def replay_command(
    preset: str,
    number: str | None,
    route: tuple[str, ...],
    route_file: str | None,
    layout_file: str | None,
    verbose: bool,
    as_json: bool,
) -> int:
    """Check that ROUTE wins deal NUMBER of PRESET (exit 1 if it is illegal or does not win).

    Quote each move, or the shell takes > for a redirection:

    \b
        cloversolve replay thirteen 1 '4>1' '4>F' --verbose
        cloversolve replay thirteen 1 --route-file route.json
    """
    route, number = route_beside_layout(layout_file, number, route)
    layout = layout_from_args(preset, number, layout_file)
    if route_file is not None:
        if route:
            raise CliError("give the route as arguments or with --route-file, not both")
        texts = read_route_file(route_file, layout)
    else:
        texts = route_texts(route)
    if not texts and route_file is not None:
        raise CliError(f"no moves to replay: route file {route_file!r} holds none")
    if not texts:
        raise CliError(
            "no moves to replay (give them after the deal or with --route-file); "
            + how_to_give_moves(layout)
        )
    moves = parse_route(texts)
    position = position_from_layout(layout)
    if verbose and not as_json:
        click.echo(position.render(color=use_colour()))
        for index, move in enumerate(moves, start=1):
            step = replay_moves(position, [move])
            if step.status is ReplayStatus.ILLEGAL:
                break
            click.echo(f"\n{index}. {move}")
            click.echo(position.render(color=use_colour()))
        position = position_from_layout(layout)
    result = replay_moves(position, moves)
    if as_json:
        print_json(result.to_json())
    else:
        click.echo(result.describe())
    return 0 if result.won else EXIT_NO


@main.command("solve")
@click.argument("preset", required=False)
@click.argument("number", required=False)
@click.option(
    "--batch",
    is_flag=True,
    help="Read JSON requests from stdin, one per line; write one JSON result per line.",
)
@click.option(
    "--layout",
    "layout_file",
    default=None,
    metavar="FILE",
    help="Solve a hand-made position (JSON in the shape 'deal --json' prints).",
)
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
@limits_options()
def solve_command(
    preset: str,
    number: str | None,
    layout_file: str | None,
    as_json: bool,
    limits: Limits,
    batch: bool,
) -> int:
    """Solve deal NUMBER of PRESET: a winning route, or a proof that none exists.

    Exit status: 0 solved, 3 unsolvable (proven), 4 a limit was reached first.
    With --batch: the requests on stdin (see cloversolve.cli.batch); the limits are defaults.
    """
    if batch or preset is None:
        return _batch("solve", batch, (preset, number, layout_file), limits)
    layout = layout_from_args(preset, number, layout_file)
    result = solve(layout.preset, layout, limits=limits)
    if as_json:
        print_json(result.to_json())
    else:
        name = layout_name(layout)
        stopped = result.details.get("stopped_by")
        why = f", stopped by the {stopped} limit" if stopped else ""
        click.echo(f"{result.preset} {name}: {result.status.value} ({result.method.value}){why}")
        if result.solved and not result.route:
            click.echo("route (0 moves): the position is already won")
        elif result.solved:
            moves = count(len(result.route), "move")
            click.echo(f"route ({moves}): {' '.join(result.route_strings)}")
        click.echo(
            f"nodes {result.nodes:,}  states {result.states:,}  "
            f"max depth {result.max_depth}  {result.seconds:.3f} s"
        )
    return EXIT_CODES[result.status]


#: The help of ``hint``; the presets whose hint reads only the visible cards come from the
#: registry (their family's hint policy).
_HINT_HELP = """Suggest a move for deal NUMBER of PRESET after the moves ROUTE (or for --layout).

    Exit status: 0 a move (or the position is already won), 1 ROUTE is illegal (with
    --json, printed as 'replay --json' prints it), 3 no move keeps a win possible (proven),
    4 a limit was reached first. In {visible} the hint is chosen from the visible cards
    without searching (status "not-searched", no promise of a win): 0 with a move, 3 when
    no legal move is left.

    Quote each move, or the shell takes > for a redirection:

    \b
        cloversolve hint thirteen 1 '4>1'

    With --batch: the requests on stdin (see cloversolve.cli.batch); the limits are defaults.
    """.format(
    visible=", ".join(
        name for name, spec in PRESETS.items() if spec.rule_family.hint_policy is HintPolicy.VISIBLE
    ),
)


@main.command("hint", help=_HINT_HELP)
@click.argument("preset", required=False)
@click.argument("number", required=False)
@click.argument("route", nargs=-1)
@click.option(
    "--layout", "layout_file", default=None, metavar="FILE", help="Start from a layout JSON file."
)
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
@click.option(
    "--batch",
    is_flag=True,
    help="Read JSON requests from stdin, one per line; write one JSON result per line.",
)
@limits_options()
def hint_command(
    preset: str,
    number: str | None,
    route: tuple[str, ...],
    layout_file: str | None,
    as_json: bool,
    limits: Limits,
    batch: bool,
) -> int | None:
    """Suggest a move (the command's help: :data:`_HINT_HELP`)."""
    if batch or preset is None:
        given = (preset, number, layout_file, *route)
        return _batch("hint", batch, given, limits)
    route, number = route_beside_layout(layout_file, number, route)
    layout = layout_from_args(preset, number, layout_file)
    try:
        advice = hint(layout.preset, layout, route_texts(route), limits=limits)
    except IllegalRouteError as illegal:
        if as_json:  # (what ``replay --json`` prints for the route, and the same status)
            print_json(illegal.result.to_json())
            return EXIT_NO
        raise AnswerIsNo(str(illegal)) from None
    if not route and layout_file is None and not as_json:  # (the inputs are good by now)
        note = f"note: no moves given, so this is a hint for the start; {how_to_give_moves(layout)}"
        click.echo(note, err=True)
    if as_json:
        print_json(advice.to_json())
    elif advice.move is None:
        click.echo(f"no move: {advice.explanation}")
    else:
        click.echo(f"{advice.move}  ({advice.explanation})")
    if advice.move is None and isinstance(advice.status, Status):
        return EXIT_CODES[advice.status]  # 0 already won, 3 lost, 4 a limit stopped it
    return None  # (a move: in fifteen a visible-grid hint, which promises no win)


def _batch(
    kind: str,
    wanted: bool,
    given: tuple[str | None, ...],
    limits: Limits,
) -> int:
    """Run ``solve --batch`` / ``hint --batch`` (arguments are refused: requests come on stdin)."""
    if not wanted:
        raise click.UsageError("Missing argument 'PRESET'.", click.get_current_context())
    if any(value is not None for value in given):
        raise CliError(f"{kind} --batch reads its requests from stdin: give no PRESET or --layout")
    from .batch import serve

    serve(kind, limits)
    return 0


@main.command("study")
@click.argument("preset")
@click.option(
    "--deals",
    "deal_range",
    required=True,
    metavar="A..B",
    help="Deal numbers to decide, e.g. 1..10000.",
)
@executor_options
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
@click.option("--per-deal", is_flag=True, help="With --json: include every deal's verdict.")
@click.option(
    "--verdicts",
    default=None,
    metavar="FILE",
    callback=writable_file("verdicts"),
    help="Write every deal's verdict to FILE, one letter a deal (s, u, ? undecided).",
)
@click.option(
    "--certificates",
    default=None,
    metavar="FILE",
    callback=writable_file("certificates"),
    help="With --verdicts: write every decided deal's certificate to FILE (for audit).",
)
@click.option(
    "--checkpoint",
    default=None,
    metavar="FILE",
    callback=writable_file("checkpoint"),
    help="Record finished deals here and resume from it when run again.",
)
@progress_option
@limits_options(each=" per deal")
def study_command(
    preset: str,
    deal_range: str,
    jobs: int,
    scheduler: str | None,
    chunk_size: int | None,
    as_json: bool,
    per_deal: bool,
    verdicts: str | None,
    certificates: str | None,
    checkpoint: str | None,
    progress: bool | None,
    limits: Limits,
) -> None:
    """Decide deals A..B of PRESET: solvable / unsolvable / undecided and the rate.

    Runs in constant memory whatever the range; the result is the same for any --jobs or
    --scheduler, and with --checkpoint an interrupted study resumes on either.
    """
    from ..runs.study import study

    spec = find_preset(preset)
    numbers = parse_deal_range(deal_range)
    if per_deal and not as_json:
        raise CliError("--per-deal goes with --json")
    if certificates is not None and verdicts is None:
        raise CliError("--certificates goes with --verdicts")
    show = sys.stderr.isatty() if progress is None else progress
    report = study(
        spec.name,
        numbers,
        jobs=jobs,
        scheduler=scheduler,
        chunk_size=chunk_size,
        checkpoint=checkpoint,
        verdicts=verdicts,
        certificates=certificates,
        per_deal=per_deal,
        progress=show,
        on_resume=note_resuming(numbers.stop - numbers.start),  # (len() stops at 2**63)
        limits=limits,
    )
    note_dropped_checkpoint_lines(report.checkpoint_lines_dropped, checkpoint)
    if as_json:
        print_json(report.to_json(per_deal=per_deal))
        return
    counts, (low, high) = report.counts, report.interval
    total = report.count
    deals = f"{numbers.start}..{numbers.stop - 1}"
    click.echo(f"{spec.name} deals {deals}: {count(total, 'deal')} in {report.seconds:.1f} s")
    click.echo("  ".join(f"{name} {number}" for name, number in counts.items()))
    rate = report.solvable_rate
    click.echo(
        f"solvable rate {'n/a (no deal decided)' if rate is None else f'{rate:.2%}'}  "
        f"(95% interval {low:.2%} .. {high:.2%}, undecided counted both ways)"
    )


if __name__ == "__main__":  # pragma: no cover
    main()
