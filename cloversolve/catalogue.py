"""Verified-deal catalogues: build (parallel, resumable, atomic), verify, daily deal, lookup.

A catalogue is one JSON file per preset: the deals it lists were solved, graded Easy / Normal
/ Hard (:mod:`cloversolve.grading`) and carry a route that the reference engine replays to a
win. Front ends read it; ``catalogues/README.md`` is the consumer guide and
``catalogue.schema.json`` (shipped inside the package) its JSON Schema.

Builds are deterministic: deal numbers are scanned in ascending order and the catalogue holds,
for each difficulty, the first ``per_difficulty`` deals of that difficulty whose route
replays. How many processes ran, in which batches, and whether the build was interrupted and
resumed never changes a byte of the output.
"""

from __future__ import annotations

import datetime as dt
import json
import os
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from functools import lru_cache, partial
from importlib import resources
from pathlib import Path
from typing import Any

import orjson
from tqdm import tqdm

from . import __version__
from .dealing import DealNumberError, check_deal_number, deal
from .grading import (
    DIFFICULTIES,
    AnyRule,
    GradingError,
    GradingRule,
    difficulty,
    grade_worker,
    grading_rule,
    score_of,
)
from .layout import Layout
from .notation import MoveParseError
from .parallel import Checkpoint, run_unordered, write_atomic
from .presets import UnknownPresetError, find_preset
from .replay import replay

#: Version of the file layout; bumped on any incompatible change.
FORMAT_VERSION = 1
#: Version of RULES.md's rules the routes are valid for; bumped when a rule changes.
RULES_VERSION = 1
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


@lru_cache(maxsize=1)
def schema() -> dict[str, Any]:
    """The catalogue JSON Schema (the copy shipped inside the package)."""
    text = resources.files("cloversolve").joinpath(SCHEMA_NAME).read_text(encoding="utf-8")
    return json.loads(text)


def dump(catalogue: Mapping[str, Any]) -> bytes:
    """The catalogue as bytes: one top-level field per line, one deal per line (orjson)."""
    lines = [b"{"]
    for key, value in catalogue.items():
        if key != "deals":
            lines.append(b"  " + orjson.dumps(key) + b": " + orjson.dumps(value) + b",")
    deals = catalogue.get("deals", [])
    lines.append(b'  "deals": [')
    for index, entry in enumerate(deals):
        comma = b"," if index < len(deals) - 1 else b""
        lines.append(b"    " + orjson.dumps(entry) + comma)
    lines.append(b"  ]")
    lines.append(b"}")
    return b"\n".join(lines) + b"\n"


def load(path: str | os.PathLike[str]) -> dict[str, Any]:
    """Read a catalogue file (JSON only; see :func:`verify` for the checks)."""
    try:
        data = orjson.loads(Path(path).read_bytes())
    except OSError as error:
        raise CatalogueError(f"cannot read catalogue {str(path)!r}: {error.strerror}") from None
    except orjson.JSONDecodeError as error:
        raise CatalogueError(f"catalogue {str(path)!r} is not valid JSON: {error}") from None
    if not isinstance(data, dict) or not isinstance(data.get("deals"), list):
        raise CatalogueError(f"{str(path)!r} is not a catalogue (no list of deals)")
    return data


def checkpoint_path(out: str | os.PathLike[str]) -> Path:
    """Where a build writing ``out`` keeps its checkpoint: beside it, ``<out>.checkpoint``."""
    target = Path(out)
    return target.with_name(target.name + ".checkpoint")


def catalogue_dirs() -> list[Path]:
    """Directories searched for shipped catalogues, in order: ``$CLOVERSOLVE_CATALOGUES``,
    then the ``catalogues`` directory of a source checkout (beside the package directory)."""
    dirs = []
    configured = os.environ.get(CATALOGUE_DIR_ENV)
    if configured:
        dirs.append(Path(configured))
    dirs.append(Path(__file__).resolve().parent.parent / "catalogues")
    return dirs


def default_catalogue(preset: str) -> Path:
    """The shipped catalogue of ``preset`` (see :func:`catalogue_dirs`)."""
    spec = find_preset(preset)
    for directory in catalogue_dirs():
        candidate = directory / f"{spec.name}.json"
        if candidate.is_file():
            return candidate
    raise CatalogueError(
        f"no catalogue of {spec.name!r} found (looked in "
        f"{', '.join(str(d) for d in catalogue_dirs())}); "
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


def parse_date(text: str) -> dt.date:
    """A ``YYYY-MM-DD`` date."""
    try:
        if len(text) != 10:
            raise ValueError
        return dt.date.fromisoformat(text)
    except (TypeError, ValueError):
        raise CatalogueError(f"bad date: {text!r} (expected YYYY-MM-DD)") from None


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
    """The catalogue's entry for deal ``number``, or ``None`` (solvability not checked)."""
    wanted = check_deal_number(number)
    for entry in catalogue["deals"]:
        if entry.get("number") == wanted:
            return entry
    return None


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


def _checkpoint_header(preset: str, rule: GradingRule) -> dict[str, Any]:
    return {
        "kind": "catalogue",
        "preset": preset,
        "format_version": FORMAT_VERSION,
        "rules_version": RULES_VERSION,
        "toolkit_version": __version__,
        "grading": rule.to_json(),
    }


def _run_batch(checkpoint: Checkpoint, worker: Any, todo: list[int], jobs: int, bar: tqdm) -> None:
    """Grade ``todo``, appending each result to the checkpoint as soon as it exists (in the
    line format :class:`~cloversolve.parallel.Checkpoint` reads back)."""
    path = checkpoint.path
    fresh = not path.exists() or path.stat().st_size == 0
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("ab") as out:
        if fresh:
            out.write(orjson.dumps(checkpoint.header) + b"\n")
        elif not _ends_with_newline(path):
            out.write(b"\n")  # a line cut short by a kill: end it, so it stays one bad line
        for number, result in run_unordered(worker, todo, jobs, progress=False):
            checkpoint.done[number] = result
            out.write(orjson.dumps({"number": number, "result": result}) + b"\n")
            out.flush()
            bar.update()


def _ends_with_newline(path: Path) -> bool:
    with path.open("rb") as handle:
        handle.seek(-1, os.SEEK_END)
        return handle.read(1) == b"\n"


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
        self.position = 0
        self.last_needed = 0

    @property
    def complete(self) -> bool:
        return all(len(v) >= self.per_difficulty for v in self.chosen.values())

    def advance(self, numbers: list[int], done: Mapping[int, dict[str, Any]]) -> None:
        """Consume the longest prefix of ``numbers`` whose deals are all graded."""
        while not self.complete and self.position < len(numbers):
            number = numbers[self.position]
            record = done.get(number)
            if record is None:
                return
            self.position += 1
            self.last_needed = number
            self.statuses[record.get("status", "?")] += 1
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


def _batch_size(jobs: int, per_difficulty: int) -> int:
    """Deals graded between two looks at the counts (never affects the output)."""
    return max(8 * jobs, min(256, 4 * per_difficulty * jobs))


def build(
    preset: str,
    numbers: Iterable[int],
    per_difficulty: int,
    out: str | os.PathLike[str],
    *,
    jobs: int = 1,
    progress: bool = False,
    batch_size: int | None = None,
) -> BuildReport:
    """Build the catalogue of ``preset`` from deal ``numbers`` and write it to ``out``.

    Deals are graded in ascending order, ``jobs`` processes at a time, in batches; every
    finished deal goes to a checkpoint beside ``out`` (``<out>.checkpoint``) at once, so a
    build that is interrupted or killed resumes where it stopped when run again with the same
    preset (a wider deal range or another ``per_difficulty`` still reuses it). The build stops
    once each difficulty has ``per_difficulty`` deals; each route is replayed by the reference
    engine before it is accepted. The file is written atomically, then the checkpoint is
    removed.

    Raises:
        CatalogueError: the deal range holds too few deals of some difficulty (the
            checkpoint is kept, so a wider range resumes from it).
    """
    spec = find_preset(preset)
    rule = grading_rule(spec.name)
    if per_difficulty < 1:
        raise CatalogueError(f"per_difficulty must be at least 1, got {per_difficulty!r}")
    todo = sorted({check_deal_number(n) for n in numbers})
    if not todo:
        raise CatalogueError("no deal numbers to scan")
    checkpoint = Checkpoint(checkpoint_path(out), _checkpoint_header(spec.name, rule))
    worker = partial(grade_worker, spec.name, rule.to_json())
    selection = _Selection(spec.name, rule, per_difficulty)
    size = batch_size or _batch_size(jobs, per_difficulty)
    if jobs > 1:
        _warm_up(spec.name)
    with tqdm(desc=spec.name, unit="deal", disable=not progress, smoothing=0.05) as bar:
        start = 0
        selection.advance(todo, checkpoint.done)
        while not selection.complete and start < len(todo):
            batch = todo[start : start + size]
            start += size
            missing = [n for n in batch if n not in checkpoint.done]
            bar.update(len(batch) - len(missing))
            _run_batch(checkpoint, worker, missing, jobs, bar)
            selection.advance(todo, checkpoint.done)
            bar.set_postfix_str(
                " ".join(f"{d} {len(selection.chosen[d])}" for d in DIFFICULTIES), refresh=True
            )
    if not selection.complete:
        found = ", ".join(f"{len(selection.chosen[d])} {d}" for d in DIFFICULTIES)
        raise CatalogueError(
            f"deals {todo[0]}..{todo[-1]} hold only {found} verified {spec.name} deals "
            f"({per_difficulty} of each wanted); widen --deals (finished deals are kept in "
            f"{str(checkpoint.path)!r})"
        )
    catalogue = _assemble(spec.name, rule, todo, per_difficulty, selection)
    write_atomic(out, dump(catalogue))
    checkpoint.remove()
    return BuildReport(
        Path(out),
        spec.name,
        {d: len(selection.chosen[d]) for d in DIFFICULTIES},
        dict(catalogue["parameters"]["statuses"]),
        selection.last_needed,
        selection.rejected,
    )


def _warm_up(preset: str) -> None:
    """Load the search kernel in this process, so forked workers inherit it."""
    from .solver import solve

    solve(preset, 1, max_nodes=1)


def _assemble(
    preset: str, rule: GradingRule, todo: list[int], per_difficulty: int, selection: _Selection
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
            "deals": {"first": todo[0], "last": todo[-1], "scanned_to": selection.last_needed},
            "per_difficulty": per_difficulty,
            "statuses": statuses,
            "daily_epoch": DAILY_EPOCH.isoformat(),
            "grading": rule.to_json(),
        },
        "counts": {d: len(selection.chosen[d]) for d in DIFFICULTIES},
        "deals": [_entry(preset, number, record) for number, record in chosen],
    }


# -- verify ---------------------------------------------------------------------------------


def verify(source: str | os.PathLike[str] | bytes | Mapping[str, Any]) -> list[Problem]:
    """Every problem of a catalogue (a path, its bytes, or parsed JSON); empty when it is
    sound. Checked: the JSON Schema; the preset, format and rules versions; for each deal
    that its layout is the deal of its number, that its route replays to a win in the
    reference engine, that its route length and score match, and that its difficulty follows
    from its metrics by the stated grading rule (grading version 2: the mean of the stated
    panel's win rates against the stated thresholds; version 1, catalogues built before the
    panel: the stated playout rate or solver effort); no deal number twice; ascending order;
    the stated counts."""
    data, problems = _parse(source)
    if data is None:
        return problems
    import jsonschema

    validator = jsonschema.Draft202012Validator(schema())
    deals = data.get("deals") if isinstance(data.get("deals"), list) else []
    broken: set[int] = set()
    for error in sorted(validator.iter_errors(data), key=lambda e: list(map(str, e.path))):
        path = list(error.path)
        number = None
        if len(path) >= 2 and path[0] == "deals" and isinstance(path[1], int):
            broken.add(path[1])
            number = _number_of(deals[path[1]])
        where = "/".join(str(part) for part in path) or "top level"
        problems.append(Problem(number, f"schema: {where}: {error.message}"))
    preset = data.get("preset")
    try:
        spec = find_preset(preset)  # type: ignore[arg-type]
    except UnknownPresetError as error:
        return [*problems, Problem(None, str(error))]
    if data.get("rules_version") != RULES_VERSION:
        problems.append(
            Problem(
                None,
                f"built for rules version {data.get('rules_version')!r}; "
                f"this toolkit checks version {RULES_VERSION}",
            )
        )
    rule = _stated_rule(data, problems)
    good = [entry for index, entry in enumerate(deals) if index not in broken]
    problems.extend(_order_problems(deals))
    problems.extend(_count_problems(data, deals))
    for entry in good:
        problems.extend(_entry_problems(spec.name, rule, entry))
    return problems


def _parse(
    source: str | os.PathLike[str] | bytes | Mapping[str, Any],
) -> tuple[dict[str, Any] | None, list[Problem]]:
    if isinstance(source, Mapping):
        return dict(source), []
    try:
        raw = source if isinstance(source, bytes) else Path(source).read_bytes()
    except OSError as error:
        return None, [Problem(None, f"cannot read {str(source)!r}: {error.strerror}")]
    try:
        data = orjson.loads(raw)
    except orjson.JSONDecodeError as error:
        return None, [Problem(None, f"not valid JSON: {error}")]
    if not isinstance(data, dict):
        return None, [Problem(None, "schema: top level: a catalogue is a JSON object")]
    return data, []


def _number_of(entry: Any) -> int | None:
    number = entry.get("number") if isinstance(entry, dict) else None
    return number if isinstance(number, int) and not isinstance(number, bool) else None


def _stated_rule(data: Mapping[str, Any], problems: list[Problem]) -> AnyRule | None:
    parameters = data.get("parameters")
    stated = parameters.get("grading") if isinstance(parameters, dict) else None
    try:
        return GradingRule.from_json(stated)
    except GradingError as error:
        problems.append(Problem(None, f"grading rule: {error}"))
        return None


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


def _count_problems(data: Mapping[str, Any], deals: list[Any]) -> list[Problem]:
    counts = data.get("counts")
    if not isinstance(counts, dict):
        return []
    actual = Counter(entry.get("difficulty") for entry in deals if isinstance(entry, dict))
    return [
        Problem(
            None, f"counts says {counts.get(level)} {level} deals, the list has {actual[level]}"
        )
        for level, n in ((level, actual[level]) for level in DIFFICULTIES)
        if counts.get(level) != n
    ]


def _entry_problems(preset: str, rule: AnyRule | None, entry: dict[str, Any]) -> list[Problem]:
    number = entry["number"]
    problems = []

    def report(message: str) -> None:
        problems.append(Problem(number, message))

    try:
        expected = deal(preset, number).to_json()
    except DealNumberError as error:
        report(str(error))
        return problems
    layout = entry["layout"]
    if layout != expected:
        report(f"layout is not {preset} deal {number} ({_first_difference(layout, expected)})")
    route = entry["route"]
    if entry["route_length"] != len(route):
        report(f"route_length is {entry['route_length']}, the route has {len(route)} moves")
    try:
        result = replay(preset, number, route)
    except MoveParseError as error:
        report(f"route: {error}")
    else:
        if not result.won:
            report(f"route does not win: {result.describe()}")
    metrics = entry["metrics"]
    if rule is None:
        return problems
    impossible = rule.metric_problems(metrics)
    for message in impossible:
        report(message)
    try:
        score = score_of(metrics, rule)
    except (KeyError, TypeError, ZeroDivisionError) as error:
        report(f"metrics do not fit the stated grading rule ({error})")
        return problems
    if impossible:
        return problems
    if metrics["score"] != score:
        report(f"metrics score {metrics['score']} is not {rule.score} ({score})")
    elif entry["difficulty"] != difficulty(score, rule):
        report(
            f"graded {entry['difficulty']} but score {score} makes it "
            f"{difficulty(score, rule)} under the stated thresholds"
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
