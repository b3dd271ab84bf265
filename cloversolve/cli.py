"""The ``cloversolve`` command line: each command a few lines over the library.

Bad input never produces a traceback: it prints one line that quotes the input and exits 2.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any, NoReturn

import click
import orjson

from . import __version__, cli_bench, cli_catalogue, cli_grading, cli_warmup
from .cli_common import EXIT_USAGE, CliError, parse_size, print_json
from .dealing import check_deal_number, deal, parse_deal_range
from .layout import Layout
from .notation import parse_route
from .presets import PRESETS, find_preset
from .replay import ReplayStatus, load_layout, replay_moves
from .rules import position_from_layout
from .search.common import DEFAULT_MAX_MEMORY
from .solver import EXIT_CODES, hint, solve
from .study import study

EXIT_ROUTE_FAILS = 1


class OneLineErrors(click.Group):
    """A group that turns every usage error and ``ValueError`` into one line on stderr."""

    def main(self, *args: Any, **kwargs: Any) -> Any:  # type: ignore[override]
        kwargs["standalone_mode"] = False
        try:
            return super().main(*args, **kwargs)
        except click.exceptions.Exit as done:
            sys.exit(done.exit_code)
        except click.exceptions.Abort:
            _fail("interrupted", 130)
        except click.ClickException as error:
            _fail(error.format_message(), error.exit_code)
        except ValueError as error:
            _fail(str(error), EXIT_USAGE)
        except BrokenPipeError:
            sys.exit(0)

    def invoke(self, ctx: click.Context) -> Any:
        result = super().invoke(ctx)
        if isinstance(result, int) and result:
            sys.exit(result)
        return result


def _fail(message: str, code: int) -> NoReturn:
    click.echo(f"cloversolve: error: {message}", err=True)
    sys.exit(code)


def _read_json_file(path: str) -> Any:
    try:
        return orjson.loads(Path(path).read_bytes())
    except OSError as error:
        raise CliError(f"cannot read {path!r}: {error.strerror}") from None
    except orjson.JSONDecodeError as error:
        raise CliError(f"{path!r} is not valid JSON: {error}") from None


def _read_route_file(path: str) -> list[str]:
    """A route file: moves separated by white space, a JSON list of moves, or a JSON object
    with a ``route`` list (as ``solve --json`` prints)."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except OSError as error:
        raise CliError(f"cannot read route file {path!r}: {error.strerror}") from None
    if text.lstrip()[:1] not in ("[", "{"):
        return text.split()
    data = _read_json_file(path)
    if isinstance(data, dict):
        data = data.get("route")
    if not isinstance(data, list) or not all(isinstance(m, str) for m in data):
        raise CliError(
            f"route file {path!r} must hold moves, a JSON list of moves or "
            "an object with a 'route' list"
        )
    return data


def _layout_from_args(preset: str, number: str | None, layout_file: str | None) -> Layout:
    spec = find_preset(preset)
    if layout_file is not None:
        if number is not None:
            raise CliError("give a deal NUMBER or --layout FILE, not both")
        return load_layout(spec.name, _read_json_file(layout_file))
    if number is None:
        raise CliError("missing deal NUMBER (or --layout FILE)")
    return deal(spec.name, check_deal_number(number))


def _limits_options(command: Any) -> Any:
    command = click.option(
        "--max-nodes",
        type=click.IntRange(min=1),
        default=None,
        help="Stop after this many search nodes.",
    )(command)
    command = click.option(
        "--time-limit",
        type=click.FloatRange(min=0, min_open=True),
        default=None,
        help="Stop after this many seconds.",
    )(command)
    command = click.option(
        "--memory",
        "memory",
        default=None,
        metavar="SIZE",
        help="Transposition table memory bound, e.g. 512M (default) or 2G.",
    )(command)
    return command


def _limits(max_nodes: int | None, time_limit: float | None, memory: str | None) -> dict:
    return {
        "max_nodes": max_nodes,
        "time_limit": time_limit,
        "max_memory": DEFAULT_MAX_MEMORY if memory is None else parse_size(memory),
    }


@click.group(cls=OneLineErrors, context_settings={"help_option_names": ["-h", "--help"]})
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
    layout = _layout_from_args(preset, number, None)
    if as_json:
        print_json(layout.to_json())
        return
    click.echo(f"{layout.preset} deal {layout.number}")
    click.echo(position_from_layout(layout).render(color=True))


@main.command("replay")
@click.argument("preset")
@click.argument("number", required=False)
@click.argument("route", nargs=-1)
@click.option("--route-file", type=str, default=None, help="Read the route from a file.")
@click.option("--layout", "layout_file", default=None, help="Start from a layout JSON file.")
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
    """Check that ROUTE wins deal NUMBER of PRESET (exit 1 if it is illegal or does not win)."""
    if layout_file is not None and number is not None:
        route, number = (number, *route), None
    layout = _layout_from_args(preset, number, layout_file)
    if route_file is not None:
        if route:
            raise CliError("give the route as arguments or with --route-file, not both")
        texts = _read_route_file(route_file)
    else:
        texts = list(route)
    moves = parse_route(texts)
    position = position_from_layout(layout)
    if verbose and not as_json:
        click.echo(position.render(color=True))
        for index, move in enumerate(moves, start=1):
            step = replay_moves(position, [move])
            if step.status is ReplayStatus.ILLEGAL:
                break
            click.echo(f"\n{index}. {move}")
            click.echo(position.render(color=True))
        position = position_from_layout(layout)
    result = replay_moves(position, moves)
    if as_json:
        print_json(
            {
                "status": result.status.value,
                "moves_played": result.moves_played,
                "illegal_at": result.illegal_at,
                "reason": result.reason,
            }
        )
    else:
        click.echo(result.describe())
    return 0 if result.won else EXIT_ROUTE_FAILS


@main.command("solve")
@click.argument("preset")
@click.argument("number", required=False)
@click.option(
    "--layout",
    "layout_file",
    default=None,
    help="Solve a hand-made position (JSON in the shape 'deal --json' prints).",
)
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
@_limits_options
def solve_command(
    preset: str,
    number: str | None,
    layout_file: str | None,
    as_json: bool,
    max_nodes: int | None,
    time_limit: float | None,
    memory: str | None,
) -> int:
    """Solve deal NUMBER of PRESET: a winning route, or a proof that none exists.

    Exit status: 0 solved, 3 unsolvable (proven), 4 a limit was reached first.
    """
    layout = _layout_from_args(preset, number, layout_file)
    result = solve(layout.preset, layout, **_limits(max_nodes, time_limit, memory))
    if as_json:
        print_json(result.to_json())
    else:
        name = f"deal {result.number}" if result.number is not None else "layout"
        click.echo(f"{result.preset} {name}: {result.status.value} ({result.method.value})")
        if result.solved:
            click.echo(f"route ({len(result.route)} moves): {' '.join(result.route_strings)}")
        click.echo(
            f"nodes {result.nodes:,}  states {result.states:,}  "
            f"max depth {result.max_depth}  {result.seconds:.3f} s"
        )
    return EXIT_CODES[result.status]


@main.command("hint")
@click.argument("preset")
@click.argument("number", required=False)
@click.argument("route", nargs=-1)
@click.option("--layout", "layout_file", default=None, help="Start from a layout JSON file.")
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
@_limits_options
def hint_command(
    preset: str,
    number: str | None,
    route: tuple[str, ...],
    layout_file: str | None,
    as_json: bool,
    max_nodes: int | None,
    time_limit: float | None,
    memory: str | None,
) -> None:
    """Suggest a move for deal NUMBER of PRESET after the moves ROUTE (or for --layout)."""
    if layout_file is not None and number is not None:
        route, number = (number, *route), None
    layout = _layout_from_args(preset, number, layout_file)
    position = position_from_layout(layout)
    played = replay_moves(position, parse_route(list(route)))
    if played.status is ReplayStatus.ILLEGAL:
        raise CliError(f"route is {played.describe()}")
    current = position.to_layout(layout.preset, layout.number)
    advice = hint(layout.preset, current, **_limits(max_nodes, time_limit, memory))
    if as_json:
        print_json(advice.to_json())
    elif advice.move is None:
        click.echo(f"no move: {advice.explanation}")
    else:
        click.echo(f"{advice.move}  ({advice.explanation})")


@main.command("study")
@click.argument("preset")
@click.option(
    "--deals",
    "deal_range",
    required=True,
    metavar="A..B",
    help="Deal numbers to decide, e.g. 1..10000.",
)
@click.option(
    "--jobs",
    "-j",
    type=click.IntRange(min=1),
    default=1,
    show_default=True,
    help="Worker processes.",
)
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
@click.option("--per-deal", is_flag=True, help="With --json: include every deal's verdict.")
@click.option(
    "--checkpoint",
    default=None,
    metavar="FILE",
    help="Record finished deals here and resume from it when run again.",
)
@click.option(
    "--progress/--no-progress",
    default=None,
    help="Show a progress bar (default: when stderr is a terminal).",
)
@_limits_options
def study_command(
    preset: str,
    deal_range: str,
    jobs: int,
    as_json: bool,
    per_deal: bool,
    checkpoint: str | None,
    progress: bool | None,
    max_nodes: int | None,
    time_limit: float | None,
    memory: str | None,
) -> None:
    """Decide deals A..B of PRESET: solvable / unsolvable / undecided and the rate."""
    spec = find_preset(preset)
    numbers = parse_deal_range(deal_range)
    if per_deal and not as_json:
        raise CliError("--per-deal goes with --json")
    show = sys.stderr.isatty() if progress is None else progress
    report = study(
        spec.name,
        numbers,
        jobs=jobs,
        checkpoint=checkpoint,
        progress=show,
        **_limits(max_nodes, time_limit, memory),
    )
    if as_json:
        print_json(report.to_json(per_deal=per_deal))
        return
    counts, (low, high) = report.counts, report.interval
    total = len(report.numbers)
    click.echo(f"{spec.name} deals {deal_range}: {total} deals in {report.seconds:.1f} s")
    click.echo(
        f"solvable {counts['solvable']}  unsolvable {counts['unsolvable']}  "
        f"undecided {counts['undecided']}"
    )
    click.echo(
        f"solvable rate {counts['solvable'] / total:.2%}  "
        f"(95% interval {low:.2%} .. {high:.2%}, undecided counted both ways)"
    )


cli_bench.register(main)
cli_catalogue.register(main)
cli_warmup.register(main)
cli_grading.register(main)

if __name__ == "__main__":  # pragma: no cover
    main()
