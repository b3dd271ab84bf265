"""Output files: names checked before any work starts, and files written whole or not at all."""

from __future__ import annotations

import contextlib
import os
import secrets
import stat
import tempfile
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import IO

from ..core.places import toolkit_folders


def _refuse_standard_output(text: str | bytes, what: str, kind: str) -> None:
    """Refuse ``-``, which asks for standard output: an option that writes ``what`` into a
    ``kind`` (file or folder) would take it for a name."""
    if text == "-":
        raise OutputPathError(
            f"bad {what} {kind}: '-' (this option takes a {kind}, not standard output; "
            f"'./-' names a {kind} called '-')"
        )


def check_output_path(
    path: str | os.PathLike[str], what: str = "output", own_catalogue: str | None = None
) -> Path:
    """The file to write for ``path`` (a symbolic link is followed to its target), else raise
    :class:`OutputPathError` quoting it: not empty, not an existing directory, device, named
    pipe or socket, not in the toolkit's own files (:func:`check_outside_toolkit`), in an
    existing folder where this process may create files (tried with a temporary file that is
    removed at once), and not ``-`` (which asks for standard output, not a file).
    ``own_catalogue``: a catalogue build's preset, whose catalogue (and its checkpoint) may be
    written in a catalogue folder."""
    text = os.fspath(path)
    _refuse_standard_output(text, what, "file")
    target = output_target(path, what)
    check_outside_toolkit(target, f"bad {what} file: {text!r}", own_catalogue)
    folder = target.parent
    if not folder.is_dir():
        raise OutputPathError(f"bad {what} file: {text!r} (no folder {str(folder)!r})")
    _check_can_create_files(folder, f"bad {what} file: {text!r}")
    return target


#: A file a command reads or writes, and what it is to the command ("route file", "page").
NamedFile = tuple[str | os.PathLike[str] | None, str]


def same_file(first: str | os.PathLike[str], second: str | os.PathLike[str]) -> bool:
    """Whether two names reach one file: the same path once symbolic links and ``..`` are
    resolved, or one file on disk under two names (a hard link)."""
    try:
        if os.path.realpath(first) == os.path.realpath(second):
            return True
        return os.path.samefile(first, second)
    except (OSError, ValueError):  # (one is missing: two names of one file it cannot be)
        return False


def check_separate_files(outputs: Iterable[NamedFile], inputs: Iterable[NamedFile] = ()) -> None:
    """Raise :class:`OutputPathError` when an output file is another output or a file the
    command reads (through a symbolic link, a hard link or ``sub/..`` too): writing it would
    destroy what the command reads, or one output would replace another. Names that are
    ``None`` (not given) or ``-`` (standard input) are left out."""
    given = [(name, what) for name, what in outputs if name is not None]
    read = [(name, what) for name, what in inputs if name is not None and os.fspath(name) != "-"]
    for index, (out, what) in enumerate(given):
        for other, other_what in [*given[index + 1 :], *read]:
            if same_file(out, other):
                text, other_text = os.fspath(out), os.fspath(other)
                alias = "" if other_text == text else f" (as {other_text!r})"
                raise OutputPathError(f"the {what} and the {other_what} are both {text!r}{alias}")


#: Bytes of an existing output file read to tell whether it is one a run may replace.
REPLACEABLE_PEEK = 4096


def check_replaceable_output(
    path: str | os.PathLike[str],
    what: str,
    kind: str,
    looks_ours: Callable[[bytes], bool],
    own_catalogue: str | None = None,
) -> Path:
    """:func:`check_output_path`, and refuse, quoting ``path``, to replace an existing file
    that is neither empty nor a ``kind`` (``looks_ours`` of its first bytes): a checkpoint or
    notes named by mistake, hours of work or someone's file."""
    target = check_output_path(path, what, own_catalogue)
    text = os.fspath(path)
    try:
        with open(target, "rb") as handle:
            start = handle.read(REPLACEABLE_PEEK)
    except FileNotFoundError:
        return target
    except OSError as error:
        raise OutputPathError(f"bad {what} file: {text!r} ({error.strerror})") from None
    if start and not looks_ours(start):
        raise OutputPathError(
            f"bad {what} file: {text!r} (it exists and is not {kind}; remove it or name "
            "another file)"
        )
    return target


def check_output_folder(path: str | os.PathLike[str], what: str = "output") -> Path:
    """The folder ``path`` names (made later, with its parents, if missing), else raise
    :class:`OutputPathError` quoting it: empty, something other than a folder, or under a
    folder where this process may not create files."""
    text = os.fspath(path)
    if not str(text).strip():
        raise OutputPathError(f"bad {what} folder: {text!r} (empty)")
    _refuse_standard_output(text, what, "folder")
    try:
        folder = Path(text).resolve()
    except (OSError, RuntimeError) as error:  # a loop of symbolic links
        raise OutputPathError(f"bad {what} folder: {text!r} ({error})") from None
    check_outside_toolkit(folder, f"bad {what} folder: {text!r}")
    existing = folder
    while not existing.exists() and existing != existing.parent:
        existing = existing.parent
    if not existing.is_dir():
        if existing == folder:
            raise OutputPathError(f"bad {what} folder: {text!r} is not a folder")
        raise OutputPathError(f"bad {what} folder: {text!r} ({str(existing)!r} is not a folder)")
    _check_can_create_files(existing, f"bad {what} folder: {text!r}")
    return folder


def check_outside_toolkit(target: Path, refusal: str, own_catalogue: str | None = None) -> None:
    """Raise :class:`OutputPathError` (``refusal`` and why) when ``target`` (resolved) lies in
    the toolkit's own files or a catalogue folder (:func:`toolkit_folders`): an output never
    replaces what the toolkit reads. A catalogue build of preset ``own_catalogue`` may write
    that preset's catalogue, ``<preset>.json`` and its checkpoint, straight in a catalogue
    folder (how a shipped catalogue is rebuilt)."""
    own = {f"{own_catalogue}.json", f"{own_catalogue}.json.checkpoint"} if own_catalogue else set()
    folders = toolkit_folders()
    catalogue_folders = {folder for folder, _ in folders[1:]}
    if target.name in own and target.parent in catalogue_folders:
        return
    for folder, kind in folders:
        if target.is_relative_to(folder):
            raise OutputPathError(
                f"{refusal} is in {kind} ({str(folder)!r}); an output never goes into the "
                "toolkit's own files or its catalogue folder"
            )


def _check_can_create_files(folder: Path, refusal: str) -> None:
    """Raise :class:`OutputPathError` (``refusal`` and why) unless this process may create
    files in ``folder`` (tried with a temporary file that is removed at once)."""
    try:
        with tempfile.TemporaryFile(dir=folder):
            pass
    except OSError as error:
        raise OutputPathError(f"{refusal} (cannot write: {error.strerror})") from None


def output_target(path: str | os.PathLike[str], what: str = "output") -> Path:
    """The file that writing ``path`` replaces: ``path`` with its symbolic links followed.
    Raises :class:`OutputPathError` quoting ``path`` when it is empty or names something
    other than a regular file (a directory, a device, a named pipe, a socket), which an
    atomic write would replace."""
    text = os.fspath(path)
    if not str(text).strip():
        raise OutputPathError(f"bad {what} file: {text!r} (empty)")
    try:
        target = Path(text).resolve()
    except (OSError, RuntimeError) as error:  # a loop of symbolic links
        raise OutputPathError(f"bad {what} file: {text!r} ({error})") from None
    try:
        mode = target.stat().st_mode
    except FileNotFoundError:
        return target  # nothing there yet
    except OSError as error:  # a name too long, a file where a folder should be, ...
        raise OutputPathError(f"bad {what} file: {text!r} ({error.strerror})") from None
    if stat.S_ISDIR(mode):
        raise OutputPathError(f"bad {what} file: {text!r} is a directory")
    if not stat.S_ISREG(mode):
        kind = next((name for test, name in _SPECIAL_FILES if test(mode)), "a special file")
        raise OutputPathError(f"bad {what} file: {text!r} is {kind}, not a regular file")
    return target


_SPECIAL_FILES = (
    (stat.S_ISCHR, "a character device"),
    (stat.S_ISBLK, "a block device"),
    (stat.S_ISFIFO, "a named pipe"),
    (stat.S_ISSOCK, "a socket"),
)


class OutputPathError(ValueError):
    """An output file name that cannot be written."""


@contextlib.contextmanager
def atomic_output(path: str | os.PathLike[str]) -> Iterator[IO[bytes]]:
    """A file to write ``path``'s new content to: it replaces ``path`` (fsynced) when the
    block ends normally, and is removed when it raises, so readers never see half a file.
    A symbolic link is written through (its target is replaced, the link stays); a path
    that is not a regular file is refused (:func:`output_target`). The new content goes to a
    fresh file created beside the target (:func:`_new_temporary`), never through a file or
    link already there."""
    target = output_target(path)
    temporary, descriptor = _new_temporary(target)
    try:
        with os.fdopen(descriptor, "wb") as out:
            yield out
            out.flush()
            os.fsync(out.fileno())
        os.replace(temporary, target)
    finally:
        temporary.unlink(missing_ok=True)


#: Flags that create a new file and never open one already there (a symbolic link planted at
#: the name included).
_NEW_FILE_FLAGS = (
    os.O_WRONLY
    | os.O_CREAT
    | os.O_EXCL
    | getattr(os, "O_NOFOLLOW", 0)
    | getattr(os, "O_CLOEXEC", 0)
)


def _new_temporary(target: Path) -> tuple[Path, int]:
    """A new file beside ``target`` with an unpredictable name, and its open descriptor
    (permissions as ``open`` would give, the umask applied). The name starts with at most
    the first 40 characters of ``target``'s, so that it is never too long where ``target``'s
    name is not."""
    while True:
        name = f".{target.name[:40]}.{os.getpid()}.{secrets.token_hex(6)}.tmp"
        temporary = target.with_name(name)
        try:
            return temporary, os.open(temporary, _NEW_FILE_FLAGS, 0o666)
        except FileExistsError:
            continue


def write_atomic(path: str | os.PathLike[str], data: bytes) -> None:
    """Write ``data`` to ``path`` so readers see the old file or the new one, never half."""
    Path(path).parent.mkdir(parents=True, exist_ok=True)
    with atomic_output(path) as out:
        out.write(data)
