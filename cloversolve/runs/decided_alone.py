"""Deals a study left undecided and decided since, merged into its verdict file with a record
of where each verdict comes from.

A study writes ``?`` for a deal its time limit stopped. Run again later, alone and with more
time (``benchmarks/run_alone.py``), the deal may be decided: its letter then replaces the ``?``
in the verdict file, and the verdict file's *decided-alone record* (``PRESET.decided-alone.json``
beside ``PRESET.verdicts``) lists it: the deal, its letter, the record its verdict comes from
(a path relative to the decided-alone record's folder) and the time limit of that run. The
verdict file's header stays the study's (its ``time_limit`` is the study's): the deals the
decided-alone record lists were decided outside it.

A merge only fills ``?`` letters, refuses anything else before it writes, and is idempotent: a
deal merged before with the same letter is left as it is, and a file that would not change is
not written. The decided-alone record is written before the verdict file, so a merge cut
short between the two is finished by running it again.
"""

from __future__ import annotations

import math
import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..core.inputs import read_json
from ..core.jsonio import dumps, shown
from ..core.verdicts import VERDICT_LETTERS, Status
from .output import atomic_output
from .study import VerdictWriter
from .study_files import VERDICT_FORMAT, read_verdicts

DECIDED_ALONE_FORMAT = "cloversolve-decided-alone"
DECIDED_ALONE_SUFFIX = ".decided-alone.json"
COLUMNS = ["deal", "letter", "record", "time_limit"]
#: The statuses a merge takes, by their letters.
_DECIDED = {VERDICT_LETTERS[s.value]: s.value for s in (Status.SOLVED, Status.UNSOLVABLE)}
_STATUS_OF_LETTER = {letter: status for status, letter in VERDICT_LETTERS.items()}
UNDECIDED = VERDICT_LETTERS[Status.LIMIT_REACHED.value]


@dataclass(frozen=True)
class DecidedAlone:
    """One deal of a decided-alone record: its letter (``s`` or ``u``), the record its verdict
    comes from (relative to the decided-alone record's folder) and that run's time limit."""

    deal: int
    letter: str
    record: str
    time_limit: float

    def row(self) -> list[Any]:
        return [self.deal, self.letter, self.record, self.time_limit]


class MergeError(ValueError):
    """A merge refused (one line naming the file and the deal)."""


def decided_alone_path(verdicts: str | os.PathLike[str]) -> Path:
    """The decided-alone record of a verdict file: ``PRESET.decided-alone.json`` beside it."""
    path = Path(verdicts)
    return path.with_name(path.stem + DECIDED_ALONE_SUFFIX)


def read_decided_alone(path: str | os.PathLike[str], preset: str) -> dict[int, DecidedAlone]:
    """The deals of a decided-alone record of ``preset``, by deal (:class:`MergeError` when it
    is not one: another format, version or preset, a row that is not a deal, a letter ``s`` or
    ``u``, a record's path and a time limit, a deal listed twice)."""
    name = os.fspath(path)
    data = read_json(path, "decided-alone record")
    if not (isinstance(data, dict) and data.get("format") == DECIDED_ALONE_FORMAT):
        raise MergeError(f"{name!r} is not a decided-alone record")
    if data.get("version") != 1:
        raise MergeError(f"{name!r} is of version {shown(data.get('version'))}, not 1")
    if data.get("columns") != COLUMNS:
        raise MergeError(f"{name!r}: its columns are {shown(data.get('columns'), 80)}")
    if data.get("preset") != preset:
        raise MergeError(f"{name!r} lists deals of {shown(data.get('preset'))}, not {preset!r}")
    rows = data.get("deals")
    if not isinstance(rows, list):
        raise MergeError(f"{name!r}: 'deals' is {shown(rows)}, not a list")
    deals: dict[int, DecidedAlone] = {}
    for row in rows:
        entry = _entry(row)
        if entry is None:
            raise MergeError(f"{name!r}: {shown(row, 80)} is not [{', '.join(COLUMNS)}]")
        if entry.deal in deals:
            raise MergeError(f"{name!r}: deal {entry.deal} is listed twice")
        deals[entry.deal] = entry
    return deals


def _entry(row: Any) -> DecidedAlone | None:
    if not (isinstance(row, list) and len(row) == len(COLUMNS)):
        return None
    deal, letter, record, limit = row
    if type(deal) is not int or deal < 1 or letter not in _DECIDED:
        return None
    if not (isinstance(record, str) and record) or _time_limit_problem(limit) is not None:
        return None
    return DecidedAlone(deal, letter, record, float(limit))


def _time_limit_problem(limit: Any) -> str | None:
    if isinstance(limit, bool) or not isinstance(limit, int | float):
        return f"the time limit {shown(limit)} is not a number"
    if not (math.isfinite(limit) and limit > 0):
        return f"the time limit {shown(limit)} is not a number of seconds above 0"
    return None


def study_letters(verdicts: str | os.PathLike[str]) -> tuple[dict[str, Any], str]:
    """A verdict file's header and its letters as its study wrote them: ``?`` again at every
    deal its decided-alone record lists (the file's own letters when it has none)."""
    header, letters = _read(Path(verdicts))
    side = decided_alone_path(verdicts)
    if not side.exists():
        return header, letters
    first, undone = header["first"], list(letters)
    for deal in read_decided_alone(side, header["preset"]):
        if 0 <= deal - first < len(undone):
            undone[deal - first] = UNDECIDED
    return header, "".join(undone)


def _read(path: Path) -> tuple[dict[str, Any], str]:
    """A verdict file's header and letters (:class:`MergeError` when it is not one)."""
    try:
        header, letters = read_verdicts(path)
    except OSError as error:
        raise MergeError(f"cannot read {str(path)!r}: {error.strerror}") from None
    except ValueError as error:
        raise MergeError(f"{str(path)!r} is not a verdict file ({error})") from None
    if not (isinstance(header, dict) and header.get("format") == VERDICT_FORMAT):
        raise MergeError(f"{str(path)!r} is not a verdict file")
    return header, letters


@dataclass(frozen=True)
class DecidedRun:
    """The verdicts of one record of runs alone for one preset: deal -> status (``solved``
    or ``unsolvable``), with the record's path and its time limit."""

    record: Path
    time_limit: float
    statuses: Mapping[int, str]


@dataclass
class MergePlan:
    """What a merge writes into one verdict file, checked before anything is written."""

    verdicts: Path
    header: dict[str, Any]
    letters: str
    merged: dict[int, DecidedAlone]
    #: The deals this merge adds (those merged before are not counted).
    added: list[int] = field(default_factory=list)

    @property
    def side(self) -> Path:
        return decided_alone_path(self.verdicts)

    def new_letters(self) -> str:
        letters, first = list(self.letters), self.header["first"]
        for deal, entry in self.merged.items():
            letters[deal - first] = entry.letter
        return "".join(letters)

    def write(self) -> None:
        """Write the decided-alone record, then the verdict file (each only when it changes;
        each atomically)."""
        if not self.merged:
            return
        text = self.side_text()
        if not self.side.exists() or self.side.read_bytes() != text:
            with atomic_output(self.side) as out:
                out.write(text)
        letters = self.new_letters()
        if letters != self.letters:
            rest = {k: v for k, v in self.header.items() if k not in ("format", "version")}
            with atomic_output(self.verdicts) as out:
                writer = VerdictWriter(out, rest)
                writer.add([[_STATUS_OF_LETTER[letter]] for letter in letters])
                writer.finish()

    def side_text(self) -> bytes:
        """The decided-alone record: a few header fields, then one line a deal, in deal order."""
        head = {
            "format": DECIDED_ALONE_FORMAT,
            "version": 1,
            "preset": self.header["preset"],
            "verdicts": self.verdicts.name,
            "study_time_limit": self.header.get("time_limit"),
            "what": (
                f"deals {self.verdicts.name} left undecided (?) at its study's time limit "
                "(study_time_limit, in seconds), decided since by runs alone: the verdict "
                "file's letter of each is the one given here, from the record named (relative "
                "to this file's folder), run at time_limit seconds a deal"
            ),
            "columns": COLUMNS,
        }
        fields = [b"  " + dumps(key) + b": " + dumps(value) for key, value in head.items()]
        rows = [b"    " + dumps(self.merged[deal].row()) for deal in sorted(self.merged)]
        deals = b'  "deals": [\n' + b",\n".join(rows) + b"\n  ]"
        return b"{\n" + b",\n".join([*fields, deals]) + b"\n}\n"


def plan_merge(verdicts: str | os.PathLike[str], preset: str, runs: list[DecidedRun]) -> MergePlan:
    """The merge of ``runs`` (records of ``preset``, in order) into a verdict file, checked
    (:class:`MergeError`): the file must be of ``preset``; every deal must be one of its
    deals, and a ``?`` there, or listed with the same letter by its decided-alone record
    (merged before: kept as it is, the first record to decide it named)."""
    path = Path(verdicts)
    name = str(path)
    header, letters = _read(path)
    if header.get("preset") != preset:
        raise MergeError(
            f"{name!r} holds verdicts of {shown(header.get('preset'))}, not {preset!r}"
        )
    if stray := set(letters) - set(_STATUS_OF_LETTER):
        raise MergeError(f"{name!r} holds the letter {min(stray)!r} (not s, u or ?)")
    first = header.get("first")
    if type(first) is not int:
        raise MergeError(f"{name!r}: its first deal is {shown(first)}, not a deal number")
    side = decided_alone_path(path)
    merged = read_decided_alone(side, preset) if side.exists() else {}
    for deal, entry in merged.items():
        if not 0 <= deal - first < len(letters):
            raise MergeError(f"{str(side)!r}: deal {deal} is not one of {name!r}'s deals")
        if letters[deal - first] not in (UNDECIDED, entry.letter):
            raise MergeError(
                f"{str(side)!r} lists deal {deal} as {entry.letter!r}, but {name!r} holds "
                f"{letters[deal - first]!r}"
            )
    plan = MergePlan(path, header, letters, merged)
    for run in runs:
        if (problem := _time_limit_problem(run.time_limit)) is not None:
            raise MergeError(f"{str(run.record)!r}: {problem}")
        record = Path(os.path.relpath(run.record.resolve(), side.parent.resolve())).as_posix()
        for deal, status in sorted(run.statuses.items()):
            letter = VERDICT_LETTERS.get(status) if isinstance(status, str) else None
            where = f"{str(run.record)!r}: {preset} deal {shown(deal)}"
            if letter not in _DECIDED:
                raise MergeError(f"{where} has the status {shown(status)}, not a verdict")
            if type(deal) is not int or not 0 <= deal - first < len(letters):
                raise MergeError(f"{where} is not one of {name!r}'s deals")
            earlier = plan.merged.get(deal)
            if earlier is not None:
                if earlier.letter != letter:
                    raise MergeError(
                        f"{where} is {status}, but {earlier.record!r} decided it "
                        f"{_DECIDED[earlier.letter]} ({str(side)!r})"
                    )
                continue
            if letters[deal - first] != UNDECIDED:
                raise MergeError(
                    f"{where} is not undecided (?) in {name!r}: it holds {letters[deal - first]!r}"
                )
            plan.merged[deal] = DecidedAlone(deal, letter, record, float(run.time_limit))
            plan.added.append(deal)
    return plan
