"""Choose the grading thresholds on training deals and validate them, player by player, on
fresh deals.

    python benchmarks/grading_panel.py [--presets thirteen,fifteen] [--jobs 2]
        [--train N] [--fresh N] [--name grading_panel]

For every preset, deals ``100001..100000+train`` (training) and ``200001..200000+fresh``
(validation; both outside the deal range the shipped catalogues were built from; by default
the preset's sizes in ``TRAINING_DEALS`` and ``FRESH_DEALS``) are solved
within the rule's node budget, and every player of the preset's panel plays each solvable
deal ``games`` times with the grading seeds (:func:`cloversolve.grading.play_metrics`).
Unsolvable and undecided deals take no part, as in catalogues.

* The rule's thresholds are the thirds of the full panel's scores on the training deals
  (:func:`cloversolve.calibration.share_thresholds`): they are what ``GRADING_RULES`` states.
* Leave one out: for each panel player in turn, the score is the mean of the *other*
  players' win rates, its thresholds are the thirds of that score on the training deals, and
  the fresh deals are graded with them. The held-out player's win rate per grade is its mean
  win rate over the grade's deals, with a Wilson 95% interval over the deals (each deal
  counts once, however many games it played). ``gap`` is the lower bound of the easier grade
  minus the upper bound of the harder one, in percentage points (target: at least 3 for
  every held-out player that wins at least 10% of Easy deals).

Per-deal records are kept in ``benchmarks/results/NAME_deals_PRESET.json`` (reused when the
rule's play parameters are unchanged, and saved as the run goes, so an interrupted run
resumes); the tables go to ``NAME.json`` and ``NAME.md``.
"""

from __future__ import annotations

import argparse
import sys
from functools import partial
from pathlib import Path
from typing import Any

import orjson
from tqdm import tqdm

from cloversolve.calibration import share_thresholds
from cloversolve.grading import DIFFICULTIES, grading_rule, panel_score, play_metrics
from cloversolve.parallel import run_deals, write_atomic
from cloversolve.solver import solve
from cloversolve.study import wilson_interval

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "benchmarks" / "results"
PRESETS = ("thirteen", "thirteen-return", "fifteen", "cloverleaf", "alexander")
TRAIN_FIRST, FRESH_FIRST = 100_001, 200_001
#: Training deals per preset: the thresholds in ``GRADING_RULES`` are the thirds of these.
TRAINING_DEALS = {
    "thirteen": 200,
    "thirteen-return": 200,
    "fifteen": 600,
    "cloverleaf": 150,
    "alexander": 150,
}
#: Fresh deals per preset: enough that a held-out player's win rate per grade is known to
#: within about two points (``fifteen``'s and ``alexander``'s grades are further apart).
FRESH_DEALS = {
    "thirteen": 12_000,
    "thirteen-return": 12_000,
    "fifteen": 10_000,
    "cloverleaf": 12_000,
    "alexander": 6_000,
}
#: New per-deal records between two saves of the records file (a killed run resumes there).
SAVE_EVERY = 500


def deal_record(todo: frozenset[int], preset: str, number: int) -> dict[str, Any] | None:
    """A picklable worker: the deal's verdict and, when solved, its panel's wins (``None``
    for deals outside ``todo``)."""
    if number not in todo:
        return None
    rule = grading_rule(preset)
    result = solve(preset, number, max_nodes=rule.solve_nodes, max_memory=rule.max_memory)
    if result.status.value != "solved":
        return {"status": result.status.value}
    return {"status": "solved", **play_metrics(preset, number, rule)}


def records(preset: str, numbers: range, jobs: int, name: str) -> dict[int, dict]:
    """Per-deal records of ``numbers``, from the saved file where its play parameters still
    hold; the others are made (and saved as they come, so an interrupted run resumes)."""
    rule = grading_rule(preset)
    key = {k: v for k, v in rule.to_json().items() if "threshold" not in k and k != "rule"}
    path = RESULTS / f"{name}_deals_{preset}.json"
    saved = orjson.loads(path.read_bytes()) if path.exists() else {}
    done = (
        {int(n): r for n, r in saved.get("deals", {}).items()} if saved.get("rule") == key else {}
    )

    def save() -> None:
        payload = {"rule": key, "deals": {str(n): done[n] for n in sorted(done)}}
        write_atomic(path, orjson.dumps(payload))

    todo = [n for n in numbers if n not in done]
    try:
        if todo:
            worker = partial(deal_record, frozenset(todo), preset)
            span = range(todo[0], todo[-1] + 1)
            since_save = 0
            deals = run_deals(worker, span, jobs, warm=preset)
            for number, record in tqdm(deals, total=len(span), desc=preset, unit="deal"):
                if record is not None:
                    done[number] = record
                    since_save += 1
                if since_save >= SAVE_EVERY:
                    save()
                    since_save = 0
    finally:  # (an interrupted run keeps every record it made)
        save()
    return {n: done[n] for n in numbers}


def _interval_row(rates: list[float]) -> dict[str, Any]:
    n = len(rates)
    mean = sum(rates) / n if n else 0.0
    low, high = wilson_interval(mean * n, n) if n else (0.0, 1.0)
    return {"deals": n, "rate": round(mean, 4), "interval_95": [round(low, 4), round(high, 4)]}


def held_out(train: list[dict], fresh: list[dict], player: str, panel: list[str]) -> dict:
    """Grades without ``player`` (thresholds from training deals) and its win rates on the
    fresh deals by grade."""
    others = [p for p in panel if p != player]

    def score(record: dict) -> float:
        wins = {p: record["panel_wins"][p] for p in others}
        return panel_score(wins, record["panel_games"])

    easy, hard = share_thresholds([score(r) for r in train])
    rates: dict[str, list[float]] = {level: [] for level in DIFFICULTIES}
    for record in fresh:
        s = score(record)
        level = "easy" if s >= easy else "hard" if s <= hard else "normal"
        rates[level].append(record["panel_wins"][player] / record["panel_games"])
    rows = {level: _interval_row(rates[level]) for level in DIFFICULTIES}
    gaps = [
        round(100 * (rows[a]["interval_95"][0] - rows[b]["interval_95"][1]), 1)
        for a, b in zip(DIFFICULTIES, DIFFICULTIES[1:], strict=False)
    ]
    return {
        "player": player,
        "thresholds": {"easy": easy, "hard": hard},
        "by_difficulty": rows,
        "gaps": gaps,
        "in_target": rows["easy"]["rate"] >= 0.1,
        "met": min(gaps) >= 3.0,
    }


def validate(preset: str, n_train: int, n_fresh: int, jobs: int, name: str) -> dict:
    rule = grading_rule(preset)
    train_numbers = range(TRAIN_FIRST, TRAIN_FIRST + n_train)
    fresh_numbers = range(FRESH_FIRST, FRESH_FIRST + n_fresh)
    found = records(preset, train_numbers, jobs, name) | records(preset, fresh_numbers, jobs, name)
    train = [found[n] for n in train_numbers if found[n]["status"] == "solved"]
    fresh = [found[n] for n in fresh_numbers if found[n]["status"] == "solved"]
    panel = list(rule.panel)
    easy, hard = share_thresholds([r["score"] for r in train])
    return {
        "preset": preset,
        "panel": panel,
        "games": rule.games,
        "training_deals": [train_numbers[0], train_numbers[-1], len(train)],
        "fresh_deals": [fresh_numbers[0], fresh_numbers[-1], len(fresh)],
        "fitted_thresholds": {"easy": easy, "hard": hard},
        "stated_thresholds": {"easy": rule.easy_threshold, "hard": rule.hard_threshold},
        "held_out": [held_out(train, fresh, player, panel) for player in panel],
    }


def _cell(row: dict) -> str:
    low, high = row["interval_95"]
    return f"{row['rate']:.1%} ({low:.1%}..{high:.1%}, n={row['deals']})"


def table(reports: list[dict]) -> str:
    lines = [
        "| preset | held-out player | easy | normal | hard | gaps E-N, N-H (points) | target |",
        "| --- | --- | --- | --- | --- | --- | --- |",
    ]
    for report in reports:
        for row in report["held_out"]:
            cells = " | ".join(_cell(row["by_difficulty"][level]) for level in DIFFICULTIES)
            gaps = ", ".join(f"{g:+.1f}" for g in row["gaps"])
            target = ("met" if row["met"] else "NOT met") if row["in_target"] else "n/a (<10%)"
            lines.append(f"| {report['preset']} | {row['player']} | {cells} | {gaps} | {target} |")
    return "\n".join(lines) + "\n"


def _positive(text: str) -> int:
    """A whole number of at least 1 (argparse type)."""
    if not text.isdigit() or int(text) < 1:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number of at least 1")
    return int(text)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=" ".join(__doc__.split("\n\n")[0].split()))
    parser.add_argument("--presets", default=",".join(PRESETS), help="Comma-separated presets.")
    parser.add_argument("--jobs", type=_positive, default=2)
    parser.add_argument(
        "--train", type=_positive, help=f"Training deals per preset (default: {TRAINING_DEALS})."
    )
    parser.add_argument(
        "--fresh", type=_positive, help=f"Fresh deals per preset (default: {FRESH_DEALS})."
    )
    parser.add_argument("--name", default="grading_panel", help="File name stem of results.")
    args = parser.parse_args(argv)
    presets = args.presets.split(",")
    unknown = [preset for preset in presets if preset not in PRESETS]
    if unknown:
        parser.error(f"unknown preset {unknown[0]!r} (graded presets: {', '.join(PRESETS)})")
    if (args.train or args.fresh) and args.name == "grading_panel":
        parser.error("other sample sizes than the defaults need their own --name")
    saved = RESULTS / f"{args.name}.json"
    merged = {r["preset"]: r for r in (orjson.loads(saved.read_bytes()) if saved.exists() else [])}
    for preset in presets:
        n_train = args.train or TRAINING_DEALS[preset]
        n_fresh = args.fresh or FRESH_DEALS[preset]
        try:
            report = validate(preset, n_train, n_fresh, args.jobs, args.name)
        except KeyboardInterrupt:
            print(f"\ninterrupted: the {preset} records so far are saved; run again to resume")
            return 130
        except ValueError as error:  # (too few distinct training scores for thresholds)
            print(f"{preset}: {error} (--train {n_train}: try more deals)", file=sys.stderr)
            return 1
        merged[preset] = report
        print(f"{preset}: training thresholds {report['fitted_thresholds']}", flush=True)
        print(table([report]), flush=True)
    everything = [merged[p] for p in PRESETS if p in merged]
    write_atomic(saved, orjson.dumps(everything, option=orjson.OPT_INDENT_2))
    write_atomic(RESULTS / f"{args.name}.md", table(everything).encode())
    return 0


if __name__ == "__main__":
    sys.exit(main())
