"""Pieces shared by the command modules: one-line usage errors, JSON output, sizes, colour,
suit symbols on any terminal, and a quiet exit when the reader of the output goes away."""

from __future__ import annotations

import codecs
import errno
import io
import math
import os
import re
import sys
from collections.abc import Callable, Iterable
from typing import Any, NoReturn

import click

from ..core.inputs import quoted
from ..core.jsonio import dumps
from ..search.common import MAX_MEMORY

#: Exit status when the answer is "no": a route that is illegal or does not win, a check
#: that found problems.
EXIT_NO = 1
EXIT_USAGE = 2
#: Exit status when the output pipe closes early: 128 + SIGPIPE, as a shell reports a
#: program that SIGPIPE ended (``cloversolve ... | head`` stops quietly).
EXIT_BROKEN_PIPE = 141
#: Exit status when standard output cannot be written (a full disk, a closed descriptor).
EXIT_OUTPUT = 1


class CliError(click.ClickException):
    """A usage error reported as one line with exit code 2."""

    exit_code = EXIT_USAGE


class AnswerIsNo(click.ClickException):
    """A well-formed question whose answer is "no" (an illegal route given to ``hint``):
    one line and exit status 1, or the status given."""

    exit_code = EXIT_NO

    def __init__(self, message: str, exit_code: int = EXIT_NO) -> None:
        super().__init__(message)
        # click (8.5 and later) types ``exit_code`` as a class variable; this error's status
        # is per instance
        object.__setattr__(self, "exit_code", exit_code)


def route_texts(arguments: Iterable[str]) -> list[str]:
    """The move strings of a route given as arguments, a ``--route`` value or a route file:
    each piece may hold several moves separated by white space (``'4>1 4>F'``). The one way
    ``replay``, ``hint`` and ``view`` read a route."""
    return [move for argument in arguments for move in argument.split()]


class OutputError(OSError):
    """Standard output cannot be written: a full disk (``> /dev/full``), an I/O error or no
    standard output at all (``>&-``). A closed pipe stays a :class:`BrokenPipeError`."""


class _GuardedOutput(io.FileIO):
    """Standard output's file descriptor, whose write errors are :class:`OutputError`, so
    the entry point tells them from the errors of other files."""

    def write(self, data: Any, /) -> int:
        try:
            return super().write(data)
        except BrokenPipeError:
            raise
        except OSError as error:
            raise OutputError(error.errno, error.strerror) from None


def guard_standard_output() -> None:
    """Make every write error of standard output an :class:`OutputError` (raised at once
    when there is no standard output). Leaves a stream that is not the process's own (a
    test runner's buffer) alone."""
    stream = sys.stdout
    if stream is None:
        raise OutputError(errno.EBADF, os.strerror(errno.EBADF))
    if stream is not sys.__stdout__ or not isinstance(stream, io.TextIOWrapper):
        return
    try:
        descriptor = stream.fileno()
        stream.flush()
    except (OSError, ValueError):  # no descriptor, or nothing can be written to it
        raise OutputError(errno.EBADF, os.strerror(errno.EBADF)) from None
    sys.stdout = io.TextIOWrapper(
        io.BufferedWriter(_GuardedOutput(descriptor, "w", closefd=False)),
        encoding=stream.encoding,
        errors=stream.errors,
        line_buffering=stream.line_buffering,
        write_through=stream.write_through,
    )


def print_json(data: Any) -> None:
    click.echo(dumps(data).decode())


# (ASCII digits only, no sign, no spaces around it: as every number option)
_SIZE = re.compile(r"(?i)([0-9]+(?:\.[0-9]+)?)\s*([kmgtp]?)(?:i?b)?")
_SIZE_UNITS = {"": 1, "k": 2**10, "m": 2**20, "g": 2**30, "t": 2**40, "p": 2**50}


def parse_size(
    text: str, option: str = "--memory", minimum: int = 2**20, typed: str | None = None
) -> int:
    """``512M``, ``1G``, ``1.5GiB`` or a plain byte count, as bytes (at least ``minimum``);
    errors name the ``option`` and quote ``typed``, the value as the user wrote it (by
    default ``text`` as a command line argument)."""
    shown = quoted(text) if typed is None else typed
    match = _SIZE.fullmatch(text)
    if not match:
        raise CliError(f"bad {option}: {shown} (expected a size, e.g. 512M or 2G)")
    size = float(match[1]) * _SIZE_UNITS[match[2].lower()]  # (inf when the number is huge)
    if size > MAX_MEMORY:
        raise CliError(f"bad {option}: {shown} (at most {MAX_MEMORY // 2**40}T)")
    if size < minimum:
        raise CliError(f"bad {option}: {shown} (at least {minimum // 2**20}M)")
    return int(size)


#: The start of an argument that is a negative deal number or a move such as ``-1>F``.
_MINUS_DIGIT = re.compile(r"-[0-9]")
#: Marks such an argument while click parses (click would take it for an unknown option).
_SHIELD = "\x00"


class MinusDigitArguments(click.Command):
    """A command that takes an argument such as ``-5`` or ``-1>F`` as the deal number or
    move it stands for, so that the command's own check names it (click would report an
    unknown option ``-5``, or ``-1`` for ``-1>F``). A value given to an option is left alone."""

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        valued = {
            name
            for param in self.params
            if isinstance(param, click.Option) and not param.is_flag and not param.count
            for name in param.opts
        }
        shielded = [
            _SHIELD + arg
            if isinstance(arg, str)
            and _MINUS_DIGIT.match(arg)
            and (index == 0 or args[index - 1] not in valued)
            else arg
            for index, arg in enumerate(args)
        ]
        try:
            rest = super().parse_args(ctx, shielded)
        except click.UsageError as error:  # (it may quote a shielded argument)
            message = error.format_message()
            if _SHIELD not in message:
                raise
            raise click.UsageError(message.replace(_SHIELD, ""), error.ctx) from None
        for name, value in ctx.params.items():
            ctx.params[name] = _unshielded(value)
        return [_unshielded(arg) for arg in rest]


def _unshielded(value: Any) -> Any:
    if isinstance(value, str):
        return value.removeprefix(_SHIELD)
    if isinstance(value, tuple):
        return tuple(_unshielded(item) for item in value)
    return value


#: How a whole number is written on the command line: plain decimal digits, nothing else.
_DIGITS = re.compile(r"0|[1-9][0-9]*")  # (no leading zero, as deal numbers have none)


#: The largest value of a whole-number option unless it names its own: the largest 64-bit
#: signed integer, the range the search kernels count in.
MAX_WHOLE_NUMBER = 2**63 - 1
#: The most worker processes ``--jobs`` asks for (a run takes at most a few per core).
MAX_JOBS = 1024


def bound_text(number: int) -> str:
    """``number`` as a message writes a bound: ``2**62``, ``2**63 - 1``, else its digits."""
    if number > 1024 and number & (number - 1) == 0:
        return f"2**{number.bit_length() - 1}"
    if number > 1024 and number & (number + 1) == 0:
        return f"2**{number.bit_length()} - 1"
    return str(number)


class WholeNumber(click.ParamType):
    """A whole number from ``minimum`` to ``maximum`` (deals, nodes, processes, a seed), the
    type of every whole-number option: plain decimal digits only, without a leading zero
    (``1000``; not ``01000``, ``1_000``, ``+1000``, `` 1000`` or ``1e3``, which Python's
    ``int`` would read), refused otherwise in one line that quotes it as typed."""

    name = "integer"

    def __init__(self, minimum: int = 1, maximum: int = MAX_WHOLE_NUMBER) -> None:
        self.minimum = minimum
        self.maximum = maximum

    def convert(self, value: Any, param: click.Parameter | None, ctx: Any) -> int:
        if isinstance(value, int) and not isinstance(value, bool):  # a default
            return value
        text = str(value)
        digits = len(str(self.maximum))  # (a longer text is out of range: never read)
        number = int(text) if len(text) <= digits and _DIGITS.fullmatch(text) else None
        if number is None or not self.minimum <= number <= self.maximum:
            option = param.opts[0] if param is not None and param.opts else "number"
            raise CliError(
                f"bad {option}: {quoted(text)} (must be a whole number from {self.minimum} "
                f"to {bound_text(self.maximum)}, in plain decimal digits)"
            )
        return number


def _number(value: Any) -> float:
    """``value`` as typed, read as a number (NaN when it is none, or has spaces around it, a
    leading ``+`` or a character that is not ASCII, as a whole number or a deal number may
    not)."""
    text = str(value)
    try:  # (float() reads 1_0, " 5", "+5" and the fullwidth or Arabic-Indic "５")
        refused = "_" in text or text != text.strip() or text.startswith("+")
        return math.nan if refused or not text.isascii() else float(text)
    except ValueError:
        return math.nan


#: ``--progress/--no-progress`` of the commands that run many deals.
progress_option = click.option(
    "--progress/--no-progress",
    default=None,
    help="Show a progress bar (default: when stderr is a terminal).",
)


class Seconds(click.ParamType):
    """A time limit: a finite number of seconds above 0; anything else is refused in one
    line that quotes it as typed (``1e400``, not the ``inf`` it converts to)."""

    name = "seconds"

    def convert(self, value: Any, param: click.Parameter | None, ctx: Any) -> float:
        if isinstance(value, float):  # a default
            return value
        seconds = _number(value)
        if not (math.isfinite(seconds) and seconds > 0):
            option = param.opts[0] if param is not None and param.opts else "seconds"
            raise CliError(f"bad {option}: {value!r} (must be a finite number of seconds above 0)")
        return seconds


class Share(click.ParamType):
    """A share of deals: a finite number from 0 to ``high``; anything else (``nan``
    included) is refused in one line that quotes it as typed."""

    name = "share"

    def __init__(self, high: float) -> None:
        self.high = high

    def convert(self, value: Any, param: click.Parameter | None, ctx: Any) -> float:
        if isinstance(value, float):  # a default
            return value
        share = _number(value)
        if not (math.isfinite(share) and 0 <= share <= self.high):
            option = param.opts[0] if param is not None and param.opts else "share"
            raise CliError(f"bad {option}: {value!r} (must be a number from 0 to {self.high})")
        return share


def use_colour() -> bool:
    """Colour only on a terminal, and not when ``NO_COLOR`` is set (to anything but the empty
    string, see no-color.org) or ``TERM`` is ``dumb``."""
    return (
        _stdout_is_terminal()
        and not os.environ.get("NO_COLOR")
        and os.environ.get("TERM", "") != "dumb"
    )


def _stdout_is_terminal() -> bool:
    return sys.stdout.isatty()


_SUIT_LETTERS = {"♣": "C", "♦": "D", "♥": "H", "♠": "S"}
_SUIT_FALLBACK = "cloversolve-suit-letters"


def _suit_letters(error: UnicodeError) -> tuple[str, int]:
    if not isinstance(error, UnicodeEncodeError):
        raise error
    text = error.object[error.start : error.end]
    return "".join(_SUIT_LETTERS.get(char, "?") for char in text), error.end


codecs.register_error(_SUIT_FALLBACK, _suit_letters)

#: ASCII with suit letters: click writes UTF-8 to a stream whose encoding is ``ascii`` (it
#: takes it for a misconfigured locale), so such a stream is given this encoding instead.
_ASCII_WITH_LETTERS = "cloversolve_ascii_suit_letters"


class _LettersEncoder(codecs.IncrementalEncoder):
    def encode(self, text: str, final: bool = False) -> bytes:
        return text.encode("ascii", _SUIT_FALLBACK)


def _find_ascii_with_letters(name: str) -> codecs.CodecInfo | None:
    if name != _ASCII_WITH_LETTERS:
        return None
    ascii_codec = codecs.lookup("ascii")
    return codecs.CodecInfo(
        name=_ASCII_WITH_LETTERS,
        encode=lambda text, errors="strict": (text.encode("ascii", _SUIT_FALLBACK), len(text)),
        decode=ascii_codec.decode,
        incrementalencoder=_LettersEncoder,
        incrementaldecoder=ascii_codec.incrementaldecoder,
    )


codecs.register(_find_ascii_with_letters)


def _has_suit_symbols(encoding: str) -> bool:
    try:
        "".join(_SUIT_LETTERS).encode(encoding)
    except (UnicodeError, LookupError):
        return False
    return True


def letters_for_suits_when_needed() -> None:
    """Make standard output and error print suit letters (``JD``) where their encoding has no
    suit symbols (``PYTHONIOENCODING=latin-1`` or ``ascii``, an ASCII locale)."""
    for stream in (sys.stdout, sys.stderr):
        reconfigure = getattr(stream, "reconfigure", None)
        encoding = getattr(stream, "encoding", None)
        if reconfigure is None or not isinstance(encoding, str) or _has_suit_symbols(encoding):
            continue
        if codecs.lookup(encoding).name == "ascii":
            reconfigure(encoding=_ASCII_WITH_LETTERS)
        elif getattr(stream, "errors", None) == "strict":
            reconfigure(errors=_SUIT_FALLBACK)


def _discard_standard_output() -> None:
    """Send what is left of standard output to the null device, so Python's flush at exit
    does not complain again."""
    if sys.stdout is None:
        return
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):
        pass  # not a real file descriptor (a test runner's buffer)


def exit_quietly_on_broken_pipe() -> NoReturn:
    """The reader of our output went away: stop without a message (and without Python's
    complaint when it flushes standard output at exit)."""
    _discard_standard_output()
    sys.exit(EXIT_BROKEN_PIPE)


def exit_on_output_error(error: OSError, program: str = "cloversolve") -> NoReturn:
    """Standard output cannot be written: say so in one line on stderr and exit 1."""
    _discard_standard_output()
    reason = error.strerror or str(error)
    click.echo(f"{program}: error: cannot write the output: {reason}", err=True)
    sys.exit(EXIT_OUTPUT)


def note_resuming(total: int | None = None) -> Callable[[Any, int], None]:
    """What tells a run resumed from its checkpoint, in one line on stderr: "resuming from
    CHECKPOINT: N of ``total`` deals done" (no ``total``: a build, which stops when it has
    enough deals)."""

    def note(path: Any, done: int) -> None:
        of = "" if total is None else f" of {total:,}"
        click.echo(f"resuming from {str(path)!r}: {done:,}{of} deals done", err=True)

    return note


def note_dropped_checkpoint_lines(lines: int, path: Any) -> None:
    """One line on stderr when a resumed run dropped checkpoint lines cut short by an
    interrupted write (their deals were done again), so the loss is never silent."""
    if lines:
        cut = "1 line" if lines == 1 else f"{lines:,} lines"
        click.echo(
            f"note: dropped {cut} of checkpoint {str(path)!r} cut short by an interrupted "
            "write (or unreadable); any deals they held were done again",
            err=True,
        )
