"""The command groups' behaviour: every usage error, ``ValueError`` and unwritable output as one
line on stderr with its exit status, Ctrl-C as one line, and commands imported when first
asked for."""

from __future__ import annotations

import contextlib
import sys
from collections.abc import Mapping
from typing import Any, NoReturn

import click

from ..core.inputs import shortened
from ..core.loading import resolve
from ..runs.interrupts import RunInterrupted, interrupted_status, saved_deals_note
from ..search.common import LimitError
from .common import (
    EXIT_USAGE,
    AnswerIsNo,
    MinusDigitArguments,
    OutputError,
    exit_on_output_error,
    exit_quietly_on_broken_pipe,
    guard_standard_output,
    letters_for_suits_when_needed,
)

#: click 8.2+ raises this for a bare group (8.1 prints the help itself).
_NO_ARGS_IS_HELP = getattr(click.exceptions, "NoArgsIsHelpError", ())


#: The command-line option behind each library search limit, for error messages.
_LIMIT_OPTIONS = {
    "max_nodes": "--max-nodes",
    "time_limit": "--time-limit",
    "max_memory": "--memory",
}


class Interrupted(click.ClickException):
    """Ctrl-C (or SIGTERM, SIGHUP) stopped a run that has a checkpoint: one line saying what
    is saved."""

    def __init__(self, stopped: RunInterrupted) -> None:
        super().__init__(f"interrupted; {saved_deals_note(stopped.path, stopped.deals)}")


class Stopped(click.ClickException):
    """Ctrl-C (or SIGTERM, SIGHUP) stopped a command that keeps nothing to resume from."""

    def __init__(self) -> None:
        super().__init__("interrupted")


class OneLineErrors(click.Group):
    """A group that turns every usage error and ``ValueError`` into one line on stderr, and
    an output that cannot be written into one line and exit status 1."""

    command_class = MinusDigitArguments

    def main(self, *args: Any, **kwargs: Any) -> Any:  # type: ignore[override]
        kwargs["standalone_mode"] = False
        kwargs["prog_name"] = "cloversolve"  # also under ``python -m`` and a test runner
        try:
            guard_standard_output()
        except OutputError as error:
            exit_on_output_error(error)
        letters_for_suits_when_needed()
        try:
            return super().main(*args, **kwargs)
        except OutputError as error:
            exit_on_output_error(error)
        except _NO_ARGS_IS_HELP as error:  # bare ``cloversolve``: help, not an error
            help_text = error.ctx.get_help() if error.ctx else self.get_help(click.Context(self))
            try:
                click.echo(help_text)
            except OutputError as output_error:  # (> /dev/full): one line, as for --help
                exit_on_output_error(output_error)
            except BrokenPipeError:
                exit_quietly_on_broken_pipe()
            sys.exit(0)
        except click.exceptions.Exit as done:
            sys.exit(done.exit_code)
        except click.exceptions.Abort:
            _fail("interrupted", interrupted_status(), outcome=True)
        except click.UsageError as error:
            _fail(_usage_line(error), EXIT_USAGE)
        except click.ClickException as error:
            stopped = isinstance(error, Interrupted | Stopped)
            _fail(
                error.format_message(),
                interrupted_status() if stopped else error.exit_code,
                outcome=stopped or isinstance(error, AnswerIsNo),
            )
        except LimitError as error:
            option = _LIMIT_OPTIONS.get(error.parameter, error.parameter)
            value = str(error.value)  # (quoted as typed, a number too)
            _fail(f"bad {option}: {value!r} (must be {error.expected})", EXIT_USAGE)
        except ValueError as error:
            _fail(str(error), EXIT_USAGE)
        except BrokenPipeError:
            exit_quietly_on_broken_pipe()

    def invoke(self, ctx: click.Context) -> Any:
        try:
            result = super().invoke(ctx)
            sys.stdout.flush()  # here, not at exit, where a closed pipe cannot be caught
        except BrokenPipeError:  # before click turns it into exit status 1
            exit_quietly_on_broken_pipe()
        except RunInterrupted as stopped:  # before click turns it into a bare Abort
            raise Interrupted(stopped) from None
        except KeyboardInterrupt:  # (click would print an empty line first)
            raise Stopped() from None
        if isinstance(result, int) and result:
            sys.exit(result)
        return result


class LazyCommands(OneLineErrors):
    """:class:`OneLineErrors` with commands named by ``lazy_commands`` (command name to
    ``package.module:attribute`` path), each imported when it is first asked for."""

    def __init__(self, *args: Any, lazy_commands: Mapping[str, str], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.lazy_commands = dict(lazy_commands)

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted({*super().list_commands(ctx), *self.lazy_commands})

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        command = super().get_command(ctx, cmd_name)
        if command is None and cmd_name in self.lazy_commands:
            command = resolve(self.lazy_commands[cmd_name])
            self.add_command(command, cmd_name)
        return command


def _usage_line(error: click.UsageError) -> str:
    """click's usage error as one line that names the command's help, in place of click's
    block of usage, "Try ... for help" and error lines."""
    message = error.format_message()
    if error.ctx is not None:
        message += f" (see '{error.ctx.command_path} -h')"
    return message


def _fail(message: str, code: int, *, outcome: bool = False) -> NoReturn:
    """Say ``message`` in one line on stderr and exit with ``code``; an ``outcome`` (an
    answer "no", an interruption) is no error, and is not called one."""
    label = "cloversolve:" if outcome else "cloversolve: error:"
    with contextlib.suppress(OSError):  # (after a hang-up there is no terminal to tell)
        click.echo(f"{label} {shortened(message, 400)}", err=True)
    sys.exit(code)
