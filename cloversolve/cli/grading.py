"""The ``cloversolve grading`` commands: ``grading calibrate`` refits a preset's grading
thresholds on outcomes a front end observed; the group adds them with :func:`register`."""

from __future__ import annotations

from functools import partial
from typing import Any

import click

from ..core.inputs import read_text
from ..core.wording import count
from ..games.registry import find_preset
from ..grading.grading import DIFFICULTIES, grading_rule, play_metrics
from ..runs.calibration import OutcomesError, calibrate, parse_outcomes
from ..runs.checkpoints import run_deals
from .common import MAX_JOBS, MinusDigitArguments, Share, WholeNumber, print_json


@click.group("grading")
def grading_group() -> None:
    """Difficulty grading: fit the grades to what players experience."""


def _score(listed: frozenset[int], preset: str, number: int) -> float | None:
    """The panel score of a deal in ``listed`` (``None`` for the deals between them)."""
    return play_metrics(preset, number)["score"] if number in listed else None


def _runs(numbers: list[int], gap: int = 1000) -> list[range]:
    """Ranges covering the sorted ``numbers``, split where they lie more than ``gap`` apart."""
    runs: list[range] = []
    start = previous = numbers[0]
    for number in numbers[1:]:
        if number - previous > gap:
            runs.append(range(start, previous + 1))
            start = number
        previous = number
    return [*runs, range(start, previous + 1)]


def _report_lines(name: str, report: dict[str, Any]) -> list[str]:
    thresholds = report["thresholds"]
    lines = [
        f"{name} grades (easy if score >= {thresholds['easy']}, "
        f"hard if score <= {thresholds['hard']}): log-loss {report['log_loss']}, "
        f"Brier {report['brier']}, {'ordered' if report['ordered'] else 'NOT ordered'}"
    ]
    for level in DIFFICULTIES:
        row = report["by_difficulty"][level]
        low, high = row["interval_95"]
        rate = "-" if row["rate"] is None else f"{row['rate']:.1%}"
        lines.append(
            f"  {level:<6} {count(row['deals'], 'deal'):>11} {count(row['games'], 'game'):>12}  "
            f"won {rate} "
            f"({low:.1%}..{high:.1%})"
        )
    return lines


@grading_group.command("calibrate", cls=MinusDigitArguments)
@click.argument("preset")
@click.option(
    "--outcomes",
    "outcomes_file",
    required=True,
    metavar="FILE",
    help="Observed games: CSV with a header (deal,won[,moves,seconds]) or JSON lines "
    "(one object a line).",
)
@click.option(
    "--min-share",
    type=Share(0.33),
    default=0.1,
    show_default=True,
    help="Least share of the deals each grade must keep.",
)
@click.option(
    "--jobs",
    "-j",
    type=WholeNumber(maximum=MAX_JOBS),
    default=1,
    show_default=True,
    help="Processes.",
)
@click.option("--json", "as_json", is_flag=True, help="Print the report as JSON.")
def calibrate_command(
    preset: str, outcomes_file: str, min_share: float, jobs: int, as_json: bool
) -> None:
    """Refit PRESET's grading thresholds on observed outcomes and compare the grades.

    Every deal in FILE gets its panel score (the grading players' win rates); the new
    thresholds are those under which the grades predict the observed wins best. The report
    gives, for the current and the refitted grades, each grade's observed win rate with its
    Wilson 95% interval, the log-loss and the Brier score; the refitted rule is printed as
    JSON, ready to state in a catalogue.
    """
    spec = find_preset(preset)
    rule = grading_rule(spec.name)
    text = read_text(outcomes_file, "outcomes file")  # unreadable: one line naming it
    try:
        outcomes = parse_outcomes(text)
    except OutcomesError as error:
        raise OutcomesError(f"{outcomes_file!r}: {error}") from None
    numbers = sorted({o.number for o in outcomes})
    worker = partial(_score, frozenset(numbers), spec.name)
    scores = {
        number: score
        for span in _runs(numbers)
        for number, score in run_deals(worker, span, jobs, warm=spec.name)
        if score is not None
    }
    report = {"preset": spec.name, **calibrate(scores, outcomes, rule, min_share)}
    if as_json:
        print_json(report)
        return
    click.echo(f"{spec.name}: {count(report['games'], 'game')} on {count(report['deals'], 'deal')}")
    for line in _report_lines("current", report["old"]) + _report_lines("refitted", report["new"]):
        click.echo(line)
    click.echo(f"refitted rule: {report['rule']['rule']}")


def register(group: click.Group) -> None:
    """Add ``grading calibrate`` to ``group``."""
    group.add_command(grading_group)
