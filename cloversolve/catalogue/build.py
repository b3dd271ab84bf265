"""Building a catalogue: deal numbers scanned in ascending order on any backend, resumable from a
checkpoint, written atomically.

Builds are deterministic: the catalogue holds, for each difficulty, the first
``per_difficulty`` deals of that difficulty whose route replays. How many processes ran, in
which batches, and whether the build was interrupted and resumed never changes a byte of the
output."""

from __future__ import annotations

import os
from collections import Counter
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Any

from tqdm import tqdm

from ..core.deal_numbers import check_deal_number
from ..core.notation import MoveParseError
from ..core.verdicts import Status
from ..core.version import RULES_VERSION, __version__
from ..games.dealing import deal
from ..games.layout import Layout
from ..games.registry import find_preset
from ..grading.grading import (
    DIFFICULTIES,
    GradingRule,
    difficulty,
    grade_worker,
    grading_rule,
    score_of,
)
from ..runs.checkpoints import Checkpoint, report_saved_deals, run_checkpointed
from ..runs.executors import open_pool
from ..runs.output import (
    check_output_path,
    check_replaceable_output,
    check_separate_files,
    write_atomic,
)
from ..solving.replay import replay
from .daily import DAILY_EPOCH
from .files import FORMAT_NAME, FORMAT_VERSION, CatalogueError, Problem, dump, is_catalogue_file
from .verify import first_difference


def checkpoint_path(out: str | os.PathLike[str]) -> Path:
    """Where a build writing ``out`` keeps its checkpoint: beside it, ``<out>.checkpoint``."""
    target = Path(out)
    return target.with_name(target.name + ".checkpoint")


def entry_problem(preset: str, entry: Mapping[str, Any]) -> str | None:
    """Why ``entry`` of ``preset``'s catalogue must not be served as verified, or ``None``:
    its layout must be the deal of its number and its route must replay to a win in the
    reference engine (a few milliseconds; ``verify`` checks every entry and more)."""
    number = entry["number"]
    expected = deal(preset, number).to_json()
    if entry["layout"] != expected:
        return f"layout is not the deal ({first_difference(entry['layout'], expected)})"
    try:
        result = replay(preset, number, entry["route"])
    except MoveParseError as error:
        return f"route: {error}"
    return None if result.won else f"route does not win ({result.describe()})"


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
        self.statuses: Counter[str | None] = Counter()
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
            self.statuses[record.get("status") if isinstance(record, dict) else None] += 1
            self._consider(number, record)

    def _consider(self, number: int, record: dict[str, Any]) -> None:
        if record.get("status") != Status.SOLVED.value:
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
    on_resume: Callable[[Path, int], None] | None = None,
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
    is left as it is). ``on_resume`` is told the checkpoint's path and the deals it held when
    the build goes on from them.

    Raises:
        CatalogueError: the deal range holds too few deals of some difficulty (the
            checkpoint is kept, so a wider range resumes from it).
    """
    spec = find_preset(preset)
    rule = grading_rule(spec.name)
    if per_difficulty < 1:
        raise CatalogueError(f"per_difficulty must be at least 1, got {per_difficulty!r}")
    numbers = _deal_range(numbers)
    ours = partial(is_catalogue_file, preset=spec.name)
    kind = f"a cloversolve catalogue of {spec.name}"
    check_replaceable_output(out, "catalogue", kind, ours, own_catalogue=spec.name)
    check_output_path(checkpoint_path(out), "checkpoint", own_catalogue=spec.name)
    check_separate_files([(out, "catalogue"), (checkpoint_path(out), "checkpoint")])
    checkpoint = Checkpoint(
        checkpoint_path(out),
        _checkpoint_header(spec.name, rule),
        elsewhere="delete it, or give another --out (a build keeps its checkpoint beside it)",
    )
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
                pool, worker, numbers, checkpoint, chunk_size=chunk_size, on_resume=on_resume
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
    statuses = {status.value: selection.statuses.get(status.value, 0) for status in Status}
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
