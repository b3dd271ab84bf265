"""The search budgets' options, declared once for every command that searches: ``--max-nodes``,
``--time-limit`` and ``--memory``, given to the command as one :class:`Limits`."""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

import click

from ..search.common import DEFAULT_MAX_MEMORY, MAX_NODES, Limits
from .common import Seconds, WholeNumber, parse_size


def command_limits(max_nodes: int | None, time_limit: float | None, memory: str | None) -> Limits:
    """The :class:`Limits` of the three options' values (``memory`` as typed, e.g. ``512M``)."""
    max_memory = DEFAULT_MAX_MEMORY if memory is None else parse_size(memory)
    return Limits(max_nodes=max_nodes, time_limit=time_limit, max_memory=max_memory)


def limits_options(
    each: str = "", default_time_limit: float | None = None
) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """A command's decorator: the three budget options, passed to the command as its keyword
    ``limits`` (a :class:`Limits`). ``each`` says what one budget covers when a command runs
    many searches (``" per deal"``); ``default_time_limit`` is the time limit when none is
    given (shown in the help)."""

    def decorate(command: Callable[..., Any]) -> Callable[..., Any]:
        @functools.wraps(command)
        def with_limits(
            *args: Any,
            max_nodes: int | None,
            time_limit: float | None,
            memory: str | None,
            **kwargs: Any,
        ) -> Any:
            return command(*args, limits=command_limits(max_nodes, time_limit, memory), **kwargs)

        options = (
            click.option(
                "--max-nodes",
                type=WholeNumber(maximum=MAX_NODES),
                default=None,
                help=f"Stop after this many search nodes{each} (moves made).",
            ),
            click.option(
                "--time-limit",
                type=Seconds(),
                default=default_time_limit,
                show_default=default_time_limit is not None,
                help=f"Stop after this many seconds{each}.",
            ),
            click.option(
                "--memory",
                "memory",
                default=None,
                metavar="SIZE",
                help="Memory bound of the search's arrays (tables, stacks, caches), e.g. 512M "
                "(default) or 2G; the process takes about 150M more.",
            ),
        )
        decorated: Callable[..., Any] = with_limits
        for option in options:
            decorated = option(decorated)
        return decorated

    return decorate
