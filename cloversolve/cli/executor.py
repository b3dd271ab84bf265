"""Command-line options shared by the commands that decide many deals (``study``,
``catalogue build``, ``bench``): where the work runs, and output files checked up front."""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any, TypeVar, cast

import click
from click.core import ParameterSource

from ..core.inputs import quoted
from .common import MAX_JOBS, CliError, WholeNumber

F = TypeVar("F", bound=Callable[..., Any])


#: The N of ``--scheduler local:N``: a worker count, as ``--jobs`` takes one.
_WORKERS = WholeNumber(maximum=MAX_JOBS)


def _scheduler(ctx: click.Context, param: click.Parameter, value: str | None) -> str | None:
    if value is None:
        return None
    if value.startswith("local:"):
        try:
            _WORKERS.convert(value.removeprefix("local:"), None, ctx)
        except CliError:
            raise CliError(
                f"bad scheduler: {quoted(value)} (expected tcp://HOST:PORT or local:N, N a whole "
                f"number from 1 to {MAX_JOBS} in plain decimal digits, as --jobs takes)"
            ) from None
    from ..runs.dask_pool import check_scheduler  # (the run's machinery loads with the command)

    return check_scheduler(value)


def executor_options(run: F) -> F:
    """``--jobs N``, ``--scheduler ADDRESS`` (not both) and ``--chunk-size N``."""

    @functools.wraps(run)
    def command(*args: Any, **kwargs: Any) -> Any:
        ctx = click.get_current_context()
        given = ctx.get_parameter_source("jobs") is ParameterSource.COMMANDLINE
        if given and kwargs.get("scheduler") is not None:
            raise CliError("give --jobs or --scheduler, not both")
        return run(*args, **kwargs)

    func = cast(F, command)
    func = click.option(
        "--chunk-size",
        type=WholeNumber(),
        default=None,
        help="Deals per task (default: about one second of work, see docs/clusters.md).",
    )(func)
    func = click.option(
        "--scheduler",
        default=None,
        metavar="ADDRESS",
        callback=_scheduler,
        help="Run on Dask: tcp://HOST:PORT (a running scheduler) or local:N (N workers here).",
    )(func)
    func = click.option(
        "--jobs",
        "-j",
        type=WholeNumber(maximum=MAX_JOBS),
        default=1,
        show_default=True,
        help="Worker processes on this machine (capped by the deals and the cores).",
    )(func)
    return func


def writable_file(what: str) -> Callable[[click.Context, click.Parameter, str | None], Any]:
    """A click callback that checks an output file name before any work starts."""
    return _checked_before_work("check_output_path", what)


def writable_page(what: str) -> Callable[[click.Context, click.Parameter, str | None], Any]:
    """A click callback that checks a page's file name before any work starts: an existing
    file is replaced only when it is a page the toolkit wrote."""

    def check(ctx: click.Context, param: click.Parameter, value: str | None) -> str | None:
        if value is not None:
            from ..web.viewer import check_page_output

            check_page_output(value, what)
        return value

    return check


def writable_folder(what: str) -> Callable[[click.Context, click.Parameter, str | None], Any]:
    """A click callback that checks an output folder name before any work starts."""
    return _checked_before_work("check_output_folder", what)


def _checked_before_work(
    checker: str, what: str
) -> Callable[[click.Context, click.Parameter, str | None], Any]:
    """A callback that runs :mod:`cloversolve.runs.output`'s ``checker`` (imported when a value
    comes, so that declaring the option loads none of the run's machinery)."""

    def check(ctx: click.Context, param: click.Parameter, value: str | None) -> str | None:
        if value is not None:
            from ..runs import output

            getattr(output, checker)(value, what)
        return value

    return check
