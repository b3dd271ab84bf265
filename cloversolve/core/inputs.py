"""Reading input files with a size cap: one reader for every file the toolkit is given (and
:func:`shortened`, for messages that quote a huge input).

A file larger than its cap (``/dev/zero``, a wrong path to a huge file) is refused without
reading it all; text is UTF-8 (a leading byte-order mark is dropped); JSON is parsed by
:func:`cloversolve.core.jsonio.loads`, so deal numbers past 64 bits are read exactly.
Every failure is an :class:`InputFileError` (a ``ValueError``) whose message names the file.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from typing import IO, Any

from .jsonio import loads

#: Cap of a route or layout file: far above any real one (a route is at most a few KiB).
MAX_SMALL_FILE = 16 * 2**20
#: Cap of a catalogue file (the shipped ones are about 1.4 MB).
MAX_CATALOGUE_FILE = 256 * 2**20

_BOM = b"\xef\xbb\xbf"
#: The ``format`` of the first line of a build's or a study's checkpoint (JSON lines).
CHECKPOINT_FORMAT = "cloversolve-checkpoint"


class InputFileError(ValueError):
    """An input file that cannot be read, is too large, or is not what it should be."""


def shortened(message: str, limit: int = 200) -> str:
    """``message`` cut in the middle if longer than ``limit`` (it quotes a huge input)."""
    if len(message) <= limit:
        return message
    return f"{message[: limit // 2]}...({len(message)} characters)...{message[-limit // 2 :]}"


def quoted(value: object, limit: int = 60) -> str:
    """``repr(value)``, shortened when long (a huge integer has no repr at all)."""
    try:
        return shortened(repr(value), limit)
    except ValueError:  # (an integer beyond Python's digit limit for str())
        return "an integer of more than 4300 digits"


def _size_text(limit: int) -> str:
    return f"{limit // 2**20} MiB" if limit >= 2**20 else f"{limit} bytes"


#: The file name that stands for standard input where a command says so (``--route-file -``).
STDIN_NAME = "-"


def standard_input(what: str) -> IO[bytes]:
    """Standard input's bytes, where ``what`` (e.g. "route file '-'") is read from, else an
    :class:`InputFileError` saying that it is closed (a process started with ``<&-``)."""
    if sys.stdin is None:
        raise InputFileError(f"cannot read {what}: standard input is closed")
    return sys.stdin.buffer


def read_bytes(
    path: str | os.PathLike[str],
    what: str,
    limit: int = MAX_SMALL_FILE,
    *,
    dash_is_stdin: bool = False,
) -> bytes:
    """The bytes of ``path`` (a ``what``, e.g. "route file"), refusing more than ``limit``;
    with ``dash_is_stdin``, ``-`` reads standard input."""
    name = os.fspath(path)
    try:
        if dash_is_stdin and name == STDIN_NAME:
            too_big, data = False, standard_input(f"{what} {name!r}").read(limit + 1)
        else:
            with open(name, "rb") as handle:
                # A regular file states its size; a device or pipe is read up to one byte more.
                too_big = os.fstat(handle.fileno()).st_size > limit
                data = b"" if too_big else handle.read(limit + 1)
    except OSError as error:
        raise InputFileError(f"cannot read {what} {name!r}: {error.strerror}") from None
    if too_big or len(data) > limit:
        raise InputFileError(
            f"{what} {name!r} is larger than {_size_text(limit)}; refusing to read it"
        )
    return data.removeprefix(_BOM)


def capped_lines(
    stream: IO[bytes], what: str = "line", limit: int = MAX_SMALL_FILE
) -> Iterator[bytes | InputFileError]:
    """The lines of ``stream``, each read up to ``limit`` bytes (its line end aside): a longer
    line is skipped in small pieces, never held whole, and given as an
    :class:`InputFileError` that says so (``what`` names a line, e.g. "request line")."""
    number = 0
    while line := stream.readline(limit + 1):
        number += 1
        if len(line) <= limit or line.endswith(b"\n"):
            yield line
            continue
        while (rest := stream.readline(2**16)) and not rest.endswith(b"\n"):
            pass
        yield InputFileError(
            f"{what} {number} is larger than {_size_text(limit)}; refusing to read it"
        )


def read_text(
    path: str | os.PathLike[str],
    what: str,
    limit: int = MAX_SMALL_FILE,
    *,
    dash_is_stdin: bool = False,
) -> str:
    """The UTF-8 text of ``path`` (see :func:`read_bytes`)."""
    data = read_bytes(path, what, limit, dash_is_stdin=dash_is_stdin)
    return decode_utf8(data, what, os.fspath(path))


def decode_utf8(data: bytes, what: str, name: str) -> str:
    """``data`` as text, else :class:`InputFileError`: ``what`` ``name`` is not UTF-8 text,
    with the offset of its first bad byte (the same words for every input)."""
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as error:
        raise InputFileError(f"{what} {name!r} is not UTF-8 text (byte {error.start})") from None


def parse_json(data: bytes | str, what: str, name: str) -> Any:
    """``data`` parsed as JSON; ``name`` and ``what`` say which input it is in errors. An
    object that names a key twice is refused (a reader would otherwise take the last)."""
    if isinstance(data, str):
        data = data.encode("utf-8")
    else:
        decode_utf8(data, what, name)  # the same words for bad UTF-8 in every input
    try:
        return loads(data.removeprefix(_BOM), unique_keys=True)
    except (ValueError, RecursionError) as error:  # JSONDecodeError, bad UTF-8, deep nesting
        if is_checkpoint(data):
            raise InputFileError(f"{what} {name!r} is {CHECKPOINT_NOTE}") from None
        raise InputFileError(f"{what} {name!r} is not valid JSON: {error}") from None


#: What a checkpoint given where a result is wanted is told.
CHECKPOINT_NOTE = (
    "a build's or a study's checkpoint, not its result (run the same command again to finish "
    "the run and write the result)"
)


def opens_with_format(data: bytes, file_format: str, **fields: Any) -> bool:
    """Whether ``data`` (a file's first bytes) opens with a JSON header line whose ``format``
    is ``file_format`` (after a byte-order mark, if any) and whose ``fields`` have the values
    given, of the same types (``first=1`` is not met by ``true``)."""
    try:
        header = loads(data.removeprefix(_BOM).partition(b"\n")[0])
    except (ValueError, RecursionError):
        return False
    return (
        isinstance(header, dict)
        and header.get("format") == file_format
        and all(
            type(header.get(key)) is type(value) and header.get(key) == value
            for key, value in fields.items()
        )
    )


def is_checkpoint(data: bytes) -> bool:
    """Whether ``data`` is a checkpoint: JSON lines whose first is a checkpoint's header."""
    return opens_with_format(data, CHECKPOINT_FORMAT)


def read_json(path: str | os.PathLike[str], what: str, limit: int = MAX_SMALL_FILE) -> Any:
    """The JSON value in ``path`` (see :func:`read_bytes`)."""
    return parse_json(read_bytes(path, what, limit), what, os.fspath(path))
