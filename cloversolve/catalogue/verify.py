"""Checking a catalogue: its format, its parameters and counts, and every entry's route replayed
and grade recomputed by the reference engine (``catalogue verify``); vouching for the shipped
catalogues that pass (``catalogue vouch``)."""

from __future__ import annotations

import os
from collections import Counter
from collections.abc import Mapping
from functools import partial
from pathlib import Path
from typing import Any

from ..core.deal_numbers import DealNumberError
from ..core.inputs import (
    CHECKPOINT_NOTE,
    MAX_CATALOGUE_FILE,
    InputFileError,
    is_checkpoint,
    read_bytes,
)
from ..core.jsonio import loads, shown
from ..core.notation import MoveParseError, parse_route
from ..core.places import SCHEMA_NAME
from ..core.verdicts import Status
from ..core.version import RULES_VERSION
from ..core.wording import count
from ..games.dealing import deal
from ..games.layout import Layout
from ..games.records import UnknownPresetError
from ..games.registry import find_preset
from ..grading.grading import (
    DIFFICULTIES,
    GRADING_VERSION,
    KNOWN_GRADING_VERSIONS,
    AnyRule,
    GradingError,
    difficulty,
    grade_worker,
    grading_rule_of_version,
    mean_branching,
    score_of,
)
from ..rules import position_from_layout
from ..runs.checkpoints import run_deals
from ..solving.replay import replay
from .files import (
    Problem,
    is_int,
    number_of,
    shape_problems,
    with_int_numbers,
)
from .manifest import digest, manifest_path, write_manifest


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
    for index, problem in shape_problems(data):
        if index is not None:
            broken.add(index)  # (an entry of the wrong shape is not read further)
        problems.append(problem)
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


def vouch(directory: Path) -> tuple[Path, dict[str, list[Problem]]]:
    """Verify every catalogue in ``directory`` (the shipped ones: every ``*.json`` but the
    schema) and write the manifest beside them (:mod:`~cloversolve.catalogue.manifest`)
    listing the digests of exactly those :func:`verify` finds sound; the manifest's path and
    each file's problems, by file name (none: it is listed)."""
    manifest_path(directory)  # (refused before the work, not after)
    found: dict[str, list[Problem]] = {}
    sound: dict[str, str] = {}
    for path in sorted(directory.glob("*.json")):
        if path.name == SCHEMA_NAME:
            continue
        try:
            raw = read_bytes(path, "catalogue", MAX_CATALOGUE_FILE)
        except InputFileError as error:
            found[path.name] = [Problem(None, str(error))]
            continue
        found[path.name] = verify(raw)
        if not found[path.name]:
            sound[path.name] = digest(raw)
    return write_manifest(directory, sound), found


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
        data = loads(raw, unique_keys=True)  # as every reader parses it (parse_json)
    except (ValueError, RecursionError) as error:
        if is_checkpoint(raw):
            return None, [Problem(None, CHECKPOINT_NOTE)]
        return None, [Problem(None, f"not valid JSON: {error}")]
    if not isinstance(data, dict):
        return None, [Problem(None, "schema: top level: a catalogue is a JSON object")]
    return data, []


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
    numbers = [number_of(entry) for entry in deals]
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
    if is_int(wanted):
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
    if not all(is_int(n) for n in bounds):
        return problems
    first, to, last = (int(n) for n in bounds)  # type: ignore[arg-type]
    if not first <= to <= last:
        problems.append(
            Problem(None, f"deals: first {first}, scanned_to {to} and last {last} are not in order")
        )
    numbers = [n for n in map(number_of, deals) if n is not None]
    for number in numbers:
        if not first <= number <= to:
            problems.append(Problem(number, f"outside the scanned deals {first}..{to}"))
    if numbers and max(numbers) != to:
        problems.append(
            Problem(None, f"scanned_to is {to}, but the last deal listed is {max(numbers)}")
        )
    statuses = parameters.get("statuses")
    if isinstance(statuses, dict) and all(is_int(n) for n in statuses.values()):
        total = sum(statuses.values())
        if total != to - first + 1:
            problems.append(
                Problem(
                    None,
                    f"statuses count {total} verdicts, but deals {first}..{to} are "
                    f"{to - first + 1}",
                )
            )
        solved = statuses.get(Status.SOLVED.value)
        if (solved or 0) < len(deals):
            problems.append(
                Problem(
                    None,
                    f"statuses count {solved} solved deals, fewer than the {len(deals)} listed",
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
    wrong_layout = layout_problem(preset, number, layout, entry["layout"])
    if wrong_layout is not None:
        report(wrong_layout)
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
        if fresh["status"] != Status.SOLVED.value:
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


def layout_problem(preset: str, number: int, dealt: Layout, given: Any) -> str | None:
    """Why ``given`` (an entry's layout) is not ``dealt``, ``preset`` deal ``number``'s
    layout, or ``None``."""
    expected = dealt.to_json()
    if given == expected:
        return None
    return f"layout is not {preset} deal {number} ({first_difference(given, expected)})"


def first_difference(layout: Any, expected: dict[str, Any]) -> str:
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
