"""Verified-deal catalogues: build (parallel, resumable, atomic), verify, daily deal, lookup.

A catalogue is one JSON file per preset: the deals it lists were solved, graded Easy / Normal
/ Hard (:mod:`cloversolve.grading.grading`) and carry a route that the reference engine replays to a
win. Front ends read it; ``catalogues/README.md`` is the consumer guide and
``catalogue.schema.json`` beside the catalogues (installed with the package) its JSON Schema.

Builds are deterministic: deal numbers are scanned in ascending order and the catalogue holds,
for each difficulty, the first ``per_difficulty`` deals of that difficulty whose route
replays. How many processes ran, in which batches, and whether the build was interrupted and
resumed never changes a byte of the output.
"""

from __future__ import annotations

import datetime as dt
import json
import os
import re
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from functools import lru_cache, partial
from pathlib import Path
from typing import Any

import orjson
from tqdm import tqdm

from ..core.inputs import MAX_CATALOGUE_FILE, InputFileError, read_bytes, read_json, shortened
from ..core.jsonio import dumps, json_integer, loads, shown
from ..core.notation import MoveParseError, parse_route
from ..core.version import RULES_VERSION, __version__
from ..core.wording import count
from ..games.dealing import MAX_DEAL, MIN_DEAL, DealNumberError, check_deal_number, deal
from ..games.layout import Layout
from ..games.presets import UnknownPresetError, find_preset
from ..grading.grading import (
    DIFFICULTIES,
    GRADING_VERSION,
    KNOWN_GRADING_VERSIONS,
    AnyRule,
    GradingError,
    GradingRule,
    difficulty,
    grade_worker,
    grading_rule,
    grading_rule_of_version,
    mean_branching,
    score_of,
)
from ..rules import position_from_layout
from ..runs.checkpoints import Checkpoint, report_saved_deals, run_checkpointed, run_deals
from ..runs.executors import open_pool
from ..runs.output import check_output_path, check_replaceable_output, write_atomic
from ..solving.replay import replay

#: Version of the file layout; bumped on any incompatible change. Version 2 writes deal
#: numbers past 2**53 - 1 as decimal text (:mod:`cloversolve.core.jsonio`); version 1 files, all
#: integers, are still read.
FORMAT_VERSION = 2
#: The ``format`` field of every catalogue.
FORMAT_NAME = "cloversolve-catalogue"
#: Day 0 of the daily-deal rule.
DAILY_EPOCH = dt.date(2000, 1, 1)
#: Environment variable naming a directory of catalogues (``<preset>.json``).
CATALOGUE_DIR_ENV = "CLOVERSOLVE_CATALOGUES"
#: Name of the JSON Schema resource inside the package.
SCHEMA_NAME = "catalogue.schema.json"


class CatalogueError(ValueError):
    """A catalogue that cannot be built, found or read, or a bad request to one."""


@dataclass(frozen=True)
class Problem:
    """One thing wrong with a catalogue; ``number`` is the deal concerned, if any."""

    number: int | None
    message: str

    def __str__(self) -> str:
        return self.message if self.number is None else f"deal {self.number}: {self.message}"

    def to_json(self) -> dict[str, Any]:
        return {"number": self.number, "message": self.message}


# -- files ----------------------------------------------------------------------------------


def shipped_dir(package: Path | None = None) -> Path:
    """The directory of the shipped catalogues and their schema: ``cloversolve/catalogues``
    in an installed package, else the ``catalogues`` directory of a source checkout (their one
    source, copied into the package when it is built). ``package``: the package directory."""
    package = package or Path(__file__).resolve().parent.parent
    installed = package / "catalogues"
    return installed if (installed / SCHEMA_NAME).is_file() else package.parent / "catalogues"


@lru_cache(maxsize=1)
def schema() -> dict[str, Any]:
    """The catalogue JSON Schema (``catalogue.schema.json`` beside the shipped catalogues)."""
    return json.loads((shipped_dir() / SCHEMA_NAME).read_text(encoding="utf-8"))


@lru_cache(maxsize=1)
def _validator() -> Any:
    import jsonschema

    return jsonschema.Draft202012Validator(schema())


def dump(catalogue: Mapping[str, Any]) -> bytes:
    """The catalogue as bytes: one top-level field per line, one deal per line (compact JSON,
    deal numbers past 2**53 - 1 as decimal text)."""
    lines = [b"{"]
    for key, value in catalogue.items():
        if key != "deals":
            lines.append(b"  " + orjson.dumps(key) + b": " + dumps(value) + b",")
    deals = catalogue.get("deals", [])
    lines.append(b'  "deals": [')
    for index, entry in enumerate(deals):
        comma = b"," if index < len(deals) - 1 else b""
        lines.append(b"    " + dumps(entry) + comma)
    lines.append(b"  ]")
    lines.append(b"}")
    return b"\n".join(lines) + b"\n"


def load(path: str | os.PathLike[str]) -> dict[str, Any]:
    """Read a catalogue file and check it against the JSON Schema (:func:`verify` checks the
    rest); :class:`CatalogueError` names the first thing wrong."""
    name = str(path)
    try:
        data = read_json(path, "catalogue", MAX_CATALOGUE_FILE)
    except InputFileError as error:
        raise CatalogueError(str(error)) from None
    if not isinstance(data, dict):
        raise CatalogueError(f"{name!r} is not a catalogue (not a JSON object)")
    head = {key: value for key, value in data.items() if key != "deals"}
    head["deals"] = []  # the entries are checked below: the full schema takes seconds on them
    errors = sorted(_validator().iter_errors(head), key=lambda e: list(map(str, e.path)))
    if errors:
        where = "/".join(str(part) for part in errors[0].path) or "top level"
        raise CatalogueError(
            f"{name!r} is not a valid catalogue: {where}: {shortened(errors[0].message)}"
        )
    if not isinstance(data.get("deals"), list):
        raise CatalogueError(f"{name!r} is not a valid catalogue: deals: not a list")
    data = with_int_numbers(data)
    for index, entry in enumerate(data["deals"]):
        problem = _entry_shape_problem(entry)
        if problem is not None:
            raise CatalogueError(f"{name!r} is not a valid catalogue: deals/{index}: {problem}")
    listed = Counter(entry["number"] for entry in data["deals"])
    for number, times in listed.items():
        if times > 1:  # lookups and daily deals would depend on which copy came first
            raise CatalogueError(
                f"{name!r} is not a valid catalogue: deal {number} is listed {times} times"
            )
    return data


#: Field of a catalogue entry -> (test, what it must be): what readers of entries rely on.
_ENTRY_FIELDS: dict[str, tuple[Any, str]] = {
    "number": (lambda v: _is_int(v) and MIN_DEAL <= v <= MAX_DEAL, "a deal number"),
    "difficulty": (lambda v: isinstance(v, str) and v in DIFFICULTIES, "easy, normal or hard"),
    "route_length": (lambda v: _is_int(v) and v >= 1, "a positive whole number"),
    "route": (lambda v: isinstance(v, list) and all(isinstance(m, str) for m in v), "moves"),
    "layout": (lambda v: isinstance(v, dict), "a layout object"),
    "metrics": (lambda v: isinstance(v, dict), "an object"),
}


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _read_number(value: Any) -> Any:
    """A deal number read from a catalogue as an int (a JSON integer, or decimal text: the
    form of one past 2**53 - 1); anything else as it is, for the checks to name."""
    if not isinstance(value, str):
        return value
    try:
        return check_deal_number(value)
    except DealNumberError:
        return value


def with_int_numbers(data: dict[str, Any]) -> dict[str, Any]:
    """``data`` (a parsed catalogue) with its deal numbers as ints: the entries' numbers,
    their layouts' and the scanned range (``parameters.deals``). The rest is shared."""
    copy = dict(data)
    parameters = data.get("parameters")
    if isinstance(parameters, dict) and isinstance(parameters.get("deals"), dict):
        scanned = {key: _read_number(value) for key, value in parameters["deals"].items()}
        copy["parameters"] = {**parameters, "deals": scanned}
    if isinstance(data.get("deals"), list):
        copy["deals"] = [_entry_with_int_numbers(entry) for entry in data["deals"]]
    return copy


def _entry_with_int_numbers(entry: Any) -> Any:
    if not isinstance(entry, dict):
        return entry
    copy = {**entry, "number": _read_number(entry.get("number"))} if "number" in entry else entry
    layout = entry.get("layout")
    if isinstance(layout, dict) and "number" in layout:
        copy = {**copy, "layout": {**layout, "number": _read_number(layout["number"])}}
    return copy


def _number_form_problems(data: Mapping[str, Any]) -> list[Problem]:
    """Deal numbers not written in their JSON form (:func:`~cloversolve.core.jsonio.json_integer`:
    an integer up to 2**53 - 1, decimal text beyond), which a reader may take for another
    deal or refuse; numbers of no form at all are the schema's to report."""
    written: list[tuple[int | None, str, Any]] = []
    parameters = data.get("parameters")
    scanned = parameters.get("deals") if isinstance(parameters, dict) else None
    if isinstance(scanned, dict):
        written += [(None, f"parameters.deals.{key}", value) for key, value in scanned.items()]
    for entry in data.get("deals") or []:
        if isinstance(entry, dict):
            number = _number_of(entry)
            written.append((number, "number", entry.get("number")))
            layout = entry.get("layout")
            if isinstance(layout, dict):
                written.append((number, "layout number", layout.get("number")))
    problems = []
    for number, what, value in written:
        read = _read_number(value)
        if _is_int(read) and MIN_DEAL <= read <= MAX_DEAL and json_integer(read) != value:
            form = "decimal text" if isinstance(json_integer(read), str) else "a JSON integer"
            problems.append(
                Problem(number, f"{what} {shown(value)} must be written as {form} (format 2)")
            )
    return problems


def _entry_shape_problem(entry: Any) -> str | None:
    """Why ``entry`` cannot be read as a catalogue entry, or ``None`` (fields and types only;
    :func:`verify` checks the full schema and the contents)."""
    if not isinstance(entry, dict):
        return f"{shown(entry)} is not an entry object"
    for key, (test, meaning) in _ENTRY_FIELDS.items():
        if key not in entry:
            return f"no {key!r}"
        if not test(entry[key]):
            return f"{key} is {shown(entry[key])}, not {meaning}"
    length, moves = entry["route_length"], len(entry["route"])
    if length != moves:
        return f"route_length is {length}, but the route has {moves} moves"
    return None


#: How a catalogue file starts: an object whose first key is ``format``.
_CATALOGUE_START = re.compile(
    rb'\s*\{\s*"format"\s*:\s*"' + re.escape(FORMAT_NAME.encode()) + rb'"'
)


def _is_catalogue_file(start: bytes) -> bool:
    """Whether a file's first bytes open like a catalogue this toolkit writes."""
    return _CATALOGUE_START.match(start) is not None


def checkpoint_path(out: str | os.PathLike[str]) -> Path:
    """Where a build writing ``out`` keeps its checkpoint: beside it, ``<out>.checkpoint``."""
    target = Path(out)
    return target.with_name(target.name + ".checkpoint")


def catalogue_dir() -> Path:
    """The directory catalogues are looked up in: ``$CLOVERSOLVE_CATALOGUES`` when it is set
    (it must then be a directory, and an empty value is an error; the shipped catalogues
    are not a fallback), else the shipped ones (:func:`shipped_dir`)."""
    configured = os.environ.get(CATALOGUE_DIR_ENV)
    if configured is None:
        return shipped_dir()
    if not configured:
        raise CatalogueError(
            f"{CATALOGUE_DIR_ENV}={configured!r} is set but empty; name a directory, or "
            "unset it for the shipped catalogues"
        )
    if not Path(configured).is_dir():
        state = "is not a directory" if Path(configured).exists() else "does not exist"
        raise CatalogueError(f"{CATALOGUE_DIR_ENV}={configured!r} {state}")
    return Path(configured)


def default_catalogue(preset: str) -> Path:
    """The catalogue of ``preset`` (``<preset>.json``) in :func:`catalogue_dir`."""
    spec = find_preset(preset)
    directory = catalogue_dir()
    candidate = directory / f"{spec.name}.json"
    if candidate.is_file():
        return candidate
    if os.environ.get(CATALOGUE_DIR_ENV) is not None:
        raise CatalogueError(
            f"no {spec.name} catalogue in {str(directory)!r} ({CATALOGUE_DIR_ENV}); "
            f"pass --catalogue FILE or unset {CATALOGUE_DIR_ENV} for the shipped ones"
        )
    raise CatalogueError(
        f"no {spec.name} catalogue in {str(directory)!r} (the shipped catalogues); "
        f"pass --catalogue FILE or set {CATALOGUE_DIR_ENV}"
    )


def open_catalogue(preset: str, path: str | os.PathLike[str] | None = None) -> dict[str, Any]:
    """Load ``preset``'s catalogue from ``path`` (default: the shipped one) and check that it
    is a catalogue of that preset."""
    spec = find_preset(preset)
    source = Path(path) if path is not None else default_catalogue(spec.name)
    data = load(source)
    if data.get("preset") != spec.name:
        raise CatalogueError(
            f"{str(source)!r} is a catalogue of {data.get('preset')!r}, not {spec.name!r}"
        )
    return data


# -- front-end helpers ----------------------------------------------------------------------


#: The one date format accepted: an ISO 8601 calendar date, ``YYYY-MM-DD`` (no week dates
#: such as ``2025-W01-1``, no ordinal dates, no times).
DATE_FORMAT = re.compile(r"\d{4}-\d{2}-\d{2}")


def parse_date(text: str) -> dt.date:
    """A ``YYYY-MM-DD`` date (:data:`DATE_FORMAT`)."""
    try:
        if not isinstance(text, str) or not DATE_FORMAT.fullmatch(text):
            raise ValueError
        return dt.date.fromisoformat(text)
    except ValueError:
        raise CatalogueError(
            f"bad date: {text!r} (expected a calendar date YYYY-MM-DD, e.g. 2025-01-31)"
        ) from None


def daily_index(day: dt.date, count: int) -> int:
    """The daily-deal rule: days since 2000-01-01, modulo ``count`` (floor modulo, so dates
    before 2000 give an index in ``0 .. count-1`` too)."""
    if count < 1:
        raise CatalogueError("no deals to choose from")
    return (day - DAILY_EPOCH).days % count


def entries_of(catalogue: Mapping[str, Any], level: str) -> list[dict[str, Any]]:
    """The catalogue's deals of difficulty ``level``, in ascending deal-number order."""
    if level not in DIFFICULTIES:
        raise CatalogueError(f"unknown difficulty: {level!r} (expected {', '.join(DIFFICULTIES)})")
    chosen = [entry for entry in catalogue["deals"] if entry.get("difficulty") == level]
    return sorted(chosen, key=lambda entry: entry["number"])


def daily(catalogue: Mapping[str, Any], day: dt.date | str, level: str) -> dict[str, Any]:
    """The daily deal of ``level`` for ``day``: entry number ``daily_index(day, count)`` of
    that difficulty's deals sorted by deal number."""
    if isinstance(day, str):
        day = parse_date(day)
    entries = entries_of(catalogue, level)
    if not entries:
        raise CatalogueError(f"the catalogue has no {level} deals")
    return entries[daily_index(day, len(entries))]


def lookup(catalogue: Mapping[str, Any], number: int | str) -> dict[str, Any] | None:
    """The catalogue's entry for deal ``number``, or ``None`` (not listed: see
    :func:`scanned_deals` for what is known of it)."""
    wanted = check_deal_number(number)
    for entry in catalogue["deals"]:
        if entry.get("number") == wanted:
            return entry
    return None


def scanned_deals(catalogue: Mapping[str, Any]) -> range:
    """The deals the build scanned, ``parameters.deals.first .. scanned_to`` (empty when the
    catalogue does not state them): a deal among them but not listed is unsolvable, was
    undecided within the build's budget, or its difficulty was already full."""
    parameters = catalogue.get("parameters")
    stated = parameters.get("deals") if isinstance(parameters, Mapping) else None
    if not isinstance(stated, Mapping):
        return range(0)
    first, last = stated.get("first"), stated.get("scanned_to")
    if not (_is_int(first) and _is_int(last)):
        return range(0)
    return range(int(first), int(last) + 1)  # type: ignore[arg-type]


def entry_problem(preset: str, entry: Mapping[str, Any]) -> str | None:
    """Why ``entry`` of ``preset``'s catalogue must not be served as verified, or ``None``:
    its layout must be the deal of its number and its route must replay to a win in the
    reference engine (a few milliseconds; ``verify`` checks every entry and more)."""
    number = entry["number"]
    expected = deal(preset, number).to_json()
    if entry["layout"] != expected:
        return f"layout is not the deal ({_first_difference(entry['layout'], expected)})"
    try:
        result = replay(preset, number, entry["route"])
    except MoveParseError as error:
        return f"route: {error}"
    return None if result.won else f"route does not win ({result.describe()})"


# -- build ----------------------------------------------------------------------------------


@dataclass
class BuildReport:
    """What a build did: the output, the counts, and the deals it refused."""

    path: Path
    preset: str
    counts: dict[str, int]
    statuses: dict[str, int]
    scanned_to: int
    rejected: list[Problem] = field(default_factory=list)
    #: Lines of the checkpoint cut short by an interrupted write, dropped (their deals were
    #: graded again).
    checkpoint_lines_dropped: int = 0


def _checkpoint_header(preset: str, rule: GradingRule) -> dict[str, Any]:
    return {
        "kind": "catalogue",
        "preset": preset,
        "format_version": FORMAT_VERSION,
        "rules_version": RULES_VERSION,
        "toolkit_version": __version__,
        "grading": rule.to_json(),
    }


class _Selection:
    """Walks graded deals in ascending order and keeps, per difficulty, the first ones whose
    record is consistent and whose route replays to a win."""

    def __init__(self, preset: str, rule: GradingRule, per_difficulty: int) -> None:
        self.preset = preset
        self.rule = rule
        self.per_difficulty = per_difficulty
        self.chosen: dict[str, list[tuple[int, dict[str, Any]]]] = {d: [] for d in DIFFICULTIES}
        self.statuses: Counter[str] = Counter()
        self.rejected: list[Problem] = []
        self.last_needed = 0

    @property
    def complete(self) -> bool:
        return all(len(v) >= self.per_difficulty for v in self.chosen.values())

    def advance(self, chunk: range, results: list[dict[str, Any]]) -> None:
        """Consume a chunk of graded deals (the next in deal order) until the quotas fill."""
        for number, record in zip(chunk, results, strict=True):
            if self.complete:
                return
            self.last_needed = number
            self.statuses[record.get("status", "?") if isinstance(record, dict) else "?"] += 1
            self._consider(number, record)

    def _consider(self, number: int, record: dict[str, Any]) -> None:
        if record.get("status") != "solved":
            return
        level = record.get("difficulty")
        if level not in self.chosen or len(self.chosen[level]) >= self.per_difficulty:
            return
        problem = _record_problem(self.preset, self.rule, number, record)
        if problem is not None:
            self.rejected.append(Problem(number, problem))
            return
        self.chosen[level].append((number, record))


def _record_problem(
    preset: str, rule: GradingRule, number: int, record: dict[str, Any]
) -> str | None:
    """Why a graded record must not be written, or ``None``."""
    try:
        metrics = record["metrics"]
        score = score_of(metrics, rule)
        if metrics["score"] != score or record["difficulty"] != difficulty(score, rule):
            return "its score or grade does not follow from its metrics"
        result = replay(preset, number, record["route"])
    except (KeyError, TypeError, ZeroDivisionError, MoveParseError) as error:
        return f"malformed grading record ({error})"
    if not result.won:
        return f"route does not replay to a win ({result.describe()})"
    return None


def _entry(preset: str, number: int, record: dict[str, Any]) -> dict[str, Any]:
    layout: Layout = deal(preset, number)
    route = list(record["route"])
    return {
        "number": number,
        "difficulty": record["difficulty"],
        "route_length": len(route),
        "metrics": {key: record["metrics"][key] for key in sorted(record["metrics"])},
        "layout": layout.to_json(),
        "route": route,
    }


def build(
    preset: str,
    numbers: range,
    per_difficulty: int,
    out: str | os.PathLike[str],
    *,
    jobs: int = 1,
    scheduler: str | None = None,
    chunk_size: int | None = None,
    progress: bool = False,
) -> BuildReport:
    """Build the catalogue of ``preset`` from the deals of ``numbers`` (a range) and write
    it to ``out``.

    Deals are graded in chunks of consecutive numbers on ``jobs`` local processes or the Dask
    ``scheduler`` (:mod:`cloversolve.runs.executors`) and consumed in ascending order; the range is
    walked lazily and the build stops as soon as each difficulty has ``per_difficulty``
    deals, so a range of any size costs only the deals it needs. Every finished chunk goes to
    a checkpoint beside ``out`` (``<out>.checkpoint``) at once, so a build that is
    interrupted or killed resumes where it stopped when run again with the same preset (a
    wider deal range, another ``per_difficulty`` or another backend still reuses it) and
    grades only the deals the checkpoint lacks. Every record, fresh or from the checkpoint,
    is accepted only when its score and grade follow from its metrics and its route is
    replayed to a win by the reference engine. The file is written atomically, then the
    checkpoint is removed (one the build only read, whose deals reach past what it needed,
    is left as it is).

    Raises:
        CatalogueError: the deal range holds too few deals of some difficulty (the
            checkpoint is kept, so a wider range resumes from it).
    """
    spec = find_preset(preset)
    rule = grading_rule(spec.name)
    if per_difficulty < 1:
        raise CatalogueError(f"per_difficulty must be at least 1, got {per_difficulty!r}")
    numbers = _deal_range(numbers)
    check_replaceable_output(out, "catalogue", "a cloversolve catalogue", _is_catalogue_file)
    check_output_path(checkpoint_path(out), "checkpoint")
    checkpoint = Checkpoint(checkpoint_path(out), _checkpoint_header(spec.name, rule))
    checkpoint.check()  # not a checkpoint, or another build's: refused before any work
    checkpoint.refuse_if_in_use()  # (a build may finish from its records alone)
    worker = partial(grade_worker, spec.name, rule.to_json())
    selection = _Selection(spec.name, rule, per_difficulty)
    with (
        report_saved_deals(checkpoint, numbers),
        open_pool(jobs, scheduler, warm=spec.name, numbers=numbers) as pool,
        tqdm(desc=spec.name, unit="deal", disable=not progress, smoothing=0.05) as bar,
    ):
        try:
            for chunk, results in run_checkpointed(
                pool, worker, numbers, checkpoint, chunk_size=chunk_size
            ):
                selection.advance(chunk, results)
                bar.update(len(chunk))
                bar.set_postfix_str(
                    " ".join(f"{d} {len(selection.chosen[d])}" for d in DIFFICULTIES),
                    refresh=False,
                )
                if selection.complete:
                    break
        finally:
            checkpoint.close()
        if not selection.complete:
            found = ", ".join(f"{len(selection.chosen[d])} {d}" for d in DIFFICULTIES)
            raise CatalogueError(
                f"deals {numbers.start}..{numbers.stop - 1} hold only {found} verified "
                f"{spec.name} deals ({per_difficulty} of each wanted); widen --deals "
                f"(finished deals are kept in {str(checkpoint.path)!r})"
            )
    catalogue = _assemble(spec.name, rule, numbers, per_difficulty, selection)
    write_atomic(out, dump(catalogue))
    checkpoint.remove()
    return BuildReport(
        Path(out),
        spec.name,
        {d: len(selection.chosen[d]) for d in DIFFICULTIES},
        dict(catalogue["parameters"]["statuses"]),
        selection.last_needed,
        selection.rejected,
        checkpoint.dropped,
    )


def _deal_range(numbers: Iterable[int]) -> range:
    """``numbers`` as a non-empty range of consecutive valid deal numbers."""
    if not isinstance(numbers, range):
        listed = sorted({check_deal_number(n) for n in numbers})
        if not listed:
            raise CatalogueError("no deal numbers to scan")
        numbers = range(listed[0], listed[-1] + 1)
        if len(numbers) != len(listed):
            raise CatalogueError("a build scans consecutive deal numbers (a range A..B)")
    if numbers.step != 1 or numbers.stop <= numbers.start:
        raise CatalogueError("no deal numbers to scan")
    check_deal_number(numbers.start)
    check_deal_number(numbers.stop - 1)
    return numbers


def _assemble(
    preset: str, rule: GradingRule, numbers: range, per_difficulty: int, selection: _Selection
) -> dict[str, Any]:
    chosen = sorted(
        (item for level in DIFFICULTIES for item in selection.chosen[level]),
        key=lambda item: item[0],
    )
    statuses = {key: selection.statuses.get(key, 0) for key in ("solved", "unsolvable", "limit")}
    return {
        "format": FORMAT_NAME,
        "format_version": FORMAT_VERSION,
        "preset": preset,
        "rules_version": RULES_VERSION,
        "toolkit_version": __version__,
        "parameters": {
            "deals": {
                "first": numbers.start,
                "last": numbers.stop - 1,
                "scanned_to": selection.last_needed,
            },
            "per_difficulty": per_difficulty,
            "statuses": statuses,
            "daily_epoch": DAILY_EPOCH.isoformat(),
            "grading": rule.to_json(),
        },
        "counts": {d: len(selection.chosen[d]) for d in DIFFICULTIES},
        "deals": [_entry(preset, number, record) for number, record in chosen],
    }


# -- verify ---------------------------------------------------------------------------------


def verify(
    source: str | os.PathLike[str] | bytes | Mapping[str, Any],
    *,
    deep: bool = False,
    jobs: int = 1,
    progress: bool = False,
) -> list[Problem]:
    """Every problem of a catalogue (a path, its bytes, or parsed JSON); empty when it is
    sound. Checked: the JSON Schema; the preset, format and rules versions; deal numbers in
    their JSON form (format 2: an integer up to 2**53 - 1, decimal text beyond); that the stated
    grading rule is the toolkit's rule for the preset; the parameters (deal range, statuses,
    ``per_difficulty`` deals of each difficulty, the counts); no deal number twice, ascending
    order; and for each deal that its layout is the deal of its number, that its route
    replays to a win in the reference engine, its route length, that the metrics that are
    quick to recompute (first moves, branching along the route) are right
    and consistent, and that its score and grade follow from its metrics by the rule.

    ``deep`` also grades every deal again (the metrics are seeded, so the same on every
    machine; ``jobs`` processes) and compares all its metrics and its grade.
    """
    data, problems = _parse(source)
    if data is None:
        return problems
    listed = data.get("deals")
    deals: list[Any] = listed if isinstance(listed, list) else []
    broken: set[int] = set()
    for error in sorted(_validator().iter_errors(data), key=lambda e: list(map(str, e.path))):
        path = list(error.path)
        number = None
        if len(path) >= 2 and path[0] == "deals" and isinstance(path[1], int):
            broken.add(path[1])
            number = _number_of(deals[path[1]])
        where = "/".join(str(part) for part in path) or "top level"
        problems.append(Problem(number, f"schema: {where}: {shortened(error.message)}"))
    if data.get("format_version") == FORMAT_VERSION:
        problems.extend(_number_form_problems(data))
    data = with_int_numbers(data)
    deals = data["deals"] if isinstance(data.get("deals"), list) else []
    preset = data.get("preset")
    if not isinstance(preset, str):  # (the schema's problems say what is missing)
        return problems or [Problem(None, f"preset must be a preset's name, got {preset!r}")]
    try:
        spec = find_preset(preset)
        rule = grading_rule_of_version(spec.name, _stated_version(data))
    except (UnknownPresetError, GradingError) as error:
        return [*problems, Problem(None, str(error))]
    if data.get("rules_version") != RULES_VERSION:
        problems.append(
            Problem(
                None,
                f"built for rules version {data.get('rules_version')!r}; "
                f"this toolkit checks version {RULES_VERSION}",
            )
        )
    problems.extend(_rule_problems(data, rule))
    good = [entry for index, entry in enumerate(deals) if index not in broken]
    problems.extend(_order_problems(deals))
    problems.extend(_count_problems(data, deals))
    problems.extend(_parameter_problems(data, deals))
    for entry in good:
        problems.extend(_entry_problems(spec.name, rule, entry))
    if deep:
        problems.extend(_regrade_problems(spec.name, rule, good, jobs))
    return problems


def _parse(
    source: str | os.PathLike[str] | bytes | Mapping[str, Any],
) -> tuple[dict[str, Any] | None, list[Problem]]:
    if isinstance(source, Mapping):
        return dict(source), []
    try:
        raw = (
            source
            if isinstance(source, bytes)
            else read_bytes(source, "catalogue", MAX_CATALOGUE_FILE)
        )
    except InputFileError as error:
        return None, [Problem(None, str(error))]
    try:
        raw.decode("utf-8")
    except UnicodeDecodeError as error:  # in the words of every other input
        return None, [Problem(None, f"not UTF-8 text (byte {error.start})")]
    try:
        data = loads(raw)
    except (ValueError, RecursionError) as error:
        return None, [Problem(None, f"not valid JSON: {error}")]
    if not isinstance(data, dict):
        return None, [Problem(None, "schema: top level: a catalogue is a JSON object")]
    return data, []


def _number_of(entry: Any) -> int | None:
    number = _read_number(entry.get("number")) if isinstance(entry, dict) else None
    return number if _is_int(number) else None


def _stated_version(data: Mapping[str, Any]) -> int:
    """The grading version the catalogue states (the current one when it states none): a
    catalogue of a previous version is checked against the toolkit's rule of that version."""
    parameters = data.get("parameters")
    stated = parameters.get("grading") if isinstance(parameters, dict) else None
    version = stated.get("version") if isinstance(stated, dict) else None
    return version if version in KNOWN_GRADING_VERSIONS else GRADING_VERSION


def _rule_problems(data: Mapping[str, Any], rule: AnyRule) -> list[Problem]:
    """The stated grading rule must be the toolkit's rule for the preset."""
    parameters = data.get("parameters")
    stated = parameters.get("grading") if isinstance(parameters, dict) else None
    if not isinstance(stated, dict):
        return []  # the schema reports it
    expected = rule.to_json()
    differences = [
        f"{key} is {shown(stated.get(key), 60)}, the toolkit's is {shown(value, 60)}"
        for key, value in expected.items()
        if stated.get(key) != value or type(stated.get(key)) is not type(value)
    ]
    differences += [f"unexpected field {key!r}" for key in sorted(set(stated) - set(expected))]
    if not differences:
        return []
    return [
        Problem(
            None,
            f"parameters.grading is not the toolkit's grading rule for {data.get('preset')} "
            f"(rules version {RULES_VERSION}): {'; '.join(differences)}",
        )
    ]


def _order_problems(deals: list[Any]) -> list[Problem]:
    problems = []
    numbers = [_number_of(entry) for entry in deals]
    for number, times in sorted(Counter(n for n in numbers if n is not None).items()):
        if times > 1:
            problems.append(Problem(number, f"listed {times} times"))
    known = [n for n in numbers if n is not None]
    for before, after in zip(known, known[1:], strict=False):
        if after < before:
            problems.append(Problem(after, f"listed after deal {before} (not ascending)"))
    return problems


def _difficulty_counts(deals: list[Any]) -> Counter[str]:
    return Counter(
        entry["difficulty"]
        for entry in deals
        if isinstance(entry, dict) and isinstance(entry.get("difficulty"), str)
    )


def _count_problems(data: Mapping[str, Any], deals: list[Any]) -> list[Problem]:
    counts = data.get("counts")
    if not isinstance(counts, dict):
        return []
    actual = _difficulty_counts(deals)
    return [
        Problem(
            None, f"counts says {counts.get(level)} {level} deals, the list has {actual[level]}"
        )
        for level, n in ((level, actual[level]) for level in DIFFICULTIES)
        if counts.get(level) != n
    ]


def _parameter_problems(data: Mapping[str, Any], deals: list[Any]) -> list[Problem]:
    """The build's parameters against the list: each difficulty holds exactly
    ``per_difficulty`` deals (the build takes the first that many), every deal lies in
    ``first..scanned_to`` and the last one is ``scanned_to`` (the deal that filled the last
    quota), and the statuses count a verdict for each deal of ``first..scanned_to``."""
    parameters = data.get("parameters")
    if not isinstance(parameters, dict):
        return []
    problems = []
    wanted = parameters.get("per_difficulty")
    actual = _difficulty_counts(deals)
    if _is_int(wanted):
        for level in DIFFICULTIES:
            if actual[level] != wanted:
                problems.append(
                    Problem(
                        None,
                        f"per_difficulty is {wanted}, the list has {actual[level]} {level} deals",
                    )
                )
    if not deals:
        problems.append(Problem(None, "the catalogue lists no deals"))
    stated = parameters.get("deals")
    scanned: dict[str, Any] = stated if isinstance(stated, dict) else {}
    bounds = [scanned.get(key) for key in ("first", "scanned_to", "last")]
    if not all(_is_int(n) for n in bounds):
        return problems
    first, to, last = (int(n) for n in bounds)  # type: ignore[arg-type]
    if not first <= to <= last:
        problems.append(
            Problem(None, f"deals: first {first}, scanned_to {to} and last {last} are not in order")
        )
    numbers = [n for n in map(_number_of, deals) if n is not None]
    for number in numbers:
        if not first <= number <= to:
            problems.append(Problem(number, f"outside the scanned deals {first}..{to}"))
    if numbers and max(numbers) != to:
        problems.append(
            Problem(None, f"scanned_to is {to}, but the last deal listed is {max(numbers)}")
        )
    statuses = parameters.get("statuses")
    if isinstance(statuses, dict) and all(_is_int(n) for n in statuses.values()):
        total = sum(statuses.values())
        if total != to - first + 1:
            problems.append(
                Problem(
                    None,
                    f"statuses count {total} verdicts, but deals {first}..{to} are "
                    f"{to - first + 1}",
                )
            )
        if statuses.get("solved", 0) < len(deals):
            problems.append(
                Problem(
                    None,
                    f"statuses count {statuses.get('solved')} solved deals, fewer than the "
                    f"{len(deals)} listed",
                )
            )
    return problems


def _entry_problems(preset: str, rule: AnyRule, entry: dict[str, Any]) -> list[Problem]:
    number = entry["number"]
    problems = []

    def report(message: str) -> None:
        problems.append(Problem(number, message))

    try:
        layout = deal(preset, number)
    except DealNumberError as error:
        report(str(error))
        return problems
    expected = layout.to_json()
    if entry["layout"] != expected:
        report(
            f"layout is not {preset} deal {number} ({_first_difference(entry['layout'], expected)})"
        )
    route = entry["route"]
    if entry["route_length"] != len(route):
        report(
            f"route_length is {entry['route_length']}, the route has {count(len(route), 'move')}"
        )
    won = False
    try:
        result = replay(preset, number, route)
    except MoveParseError as error:
        report(f"route: {error}")
    else:
        won = result.won
        if not won:
            report(f"route does not win: {result.describe()}")
    metrics = entry["metrics"]
    impossible = _metric_problems(preset, rule, layout, metrics, route if won else None)
    for message in impossible:
        report(f"metrics: {message}")
    try:
        score = score_of(metrics, rule)
    except (KeyError, TypeError, ZeroDivisionError) as error:
        report(f"metrics do not fit the grading rule ({error})")
        return problems
    if impossible:
        return problems
    if metrics["score"] != score:
        report(f"metrics score {metrics['score']} is not {rule.score} ({score})")
    elif entry["difficulty"] != difficulty(score, rule):
        report(
            f"graded {entry['difficulty']} but score {score} makes it "
            f"{difficulty(score, rule)} under the grading rule"
        )
    return problems


def _metric_problems(
    preset: str, rule: AnyRule, layout: Layout, metrics: dict[str, Any], route: list[str] | None
) -> list[str]:
    """What is wrong with the metrics that are consistent or quick to recompute."""
    problems = rule.metric_problems(metrics)
    if metrics["safe_first_moves"] + metrics["undecided_first_moves"] > metrics["first_moves"]:
        problems.append("more safe and undecided first moves than first moves")
    position = position_from_layout(layout)
    first_moves = sum(1 for _ in position.legal_moves())
    if metrics["first_moves"] != first_moves:
        problems.append(f"first_moves is {metrics['first_moves']}, the deal has {first_moves}")
    if route is not None:
        branching = mean_branching(position, parse_route(route))
        if metrics["branching"] != branching:
            problems.append(f"branching is {metrics['branching']}, the route gives {branching}")
    return problems


def _grade_if_listed(
    listed: frozenset[int], preset: str, rule: dict[str, Any], number: int
) -> dict[str, Any] | None:
    """:func:`grade_worker` for the deals in ``listed``; ``None`` for the deals between them."""
    return grade_worker(preset, rule, number) if number in listed else None


def _regrade_problems(
    preset: str, rule: AnyRule, entries: list[dict[str, Any]], jobs: int
) -> list[Problem]:
    """Grade every entry's deal again and compare its metrics and grade."""
    by_number = {entry["number"]: entry for entry in entries}
    worker = partial(_grade_if_listed, frozenset(by_number), preset, rule.to_json())
    problems = []
    listed = range(min(by_number), max(by_number) + 1)
    for number, fresh in run_deals(worker, listed, jobs, warm=preset):
        if fresh is None:
            continue
        entry = by_number[number]
        if fresh["status"] != "solved":
            problems.append(
                Problem(
                    number,
                    f"regrading: the solver gives {fresh['status']} within the rule's budget",
                )
            )
            continue
        stored = entry["metrics"]
        for key in sorted(set(stored) | set(fresh["metrics"])):
            if stored.get(key) != fresh["metrics"].get(key):
                problems.append(
                    Problem(
                        number,
                        f"regrading: {key} is {stored.get(key)!r}, "
                        f"recomputed {fresh['metrics'].get(key)!r}",
                    )
                )
        if entry["difficulty"] != fresh["difficulty"]:
            problems.append(
                Problem(
                    number,
                    f"regrading: graded {entry['difficulty']}, recomputed {fresh['difficulty']}",
                )
            )
    return problems


def _first_difference(layout: Any, expected: dict[str, Any]) -> str:
    """A short description of where a layout departs from the deal."""
    if not isinstance(layout, dict):
        return "not an object"
    for key, want in expected.items():
        got = layout.get(key)
        if got == want:
            continue
        if isinstance(want, list) and isinstance(got, list):
            for index, (a, b) in enumerate(zip(got, want, strict=False)):
                if a != b:
                    return f"{key}[{index}] is {a!r}, the deal has {b!r}"
            return f"{key} has {len(got)} items, the deal has {len(want)}"
        return f"{key} is {got!r}, the deal has {want!r}"
    extra = sorted(set(layout) - set(expected))
    return f"unexpected field {extra[0]!r}" if extra else "differs"
