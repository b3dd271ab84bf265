"""Validate the difficulty grading with an independent player model.

    python benchmarks/grading_validation.py [--presets thirteen,fifteen] [--jobs 2]
        [--catalogue-dir catalogues] [--limit N] [--name grading_validation]

For every preset, the deals of its catalogue (or the first ``--limit`` of each difficulty) are
played once each by the preset's validation player (``grading_players.VALIDATION_PLAYERS``:
a lookahead planner, or a depth-first player with undo and limited patience; never the player
model that computed the grades). The script prints, per difficulty, the player's win rate with
its Wilson 95% interval, and whether Easy > Normal > Hard holds with non-overlapping intervals.
Results go to ``benchmarks/results/NAME.json`` and ``.md`` (merged with the presets already
there). To check that the thresholds hold beyond the deals they were chosen on, build
catalogues of a fresh deal range into another directory and validate those under another
name (the README gives the commands).
"""

from __future__ import annotations

import argparse
import sys
from functools import partial
from pathlib import Path

import orjson
from grading_players import VALIDATION_PLAYERS, validation_player_wins

from cloversolve.catalogue import entries_of, load
from cloversolve.grading import DIFFICULTIES
from cloversolve.parallel import run_deals
from cloversolve.study import wilson_interval

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "benchmarks" / "results"
PRESETS = ("thirteen", "thirteen-return", "fifteen", "cloverleaf", "alexander")


def _player_wins(preset: str, numbers: tuple[int, ...], index: int) -> bool:
    return validation_player_wins(preset, numbers[index])


def validate(preset: str, catalogue: Path, jobs: int, limit: int | None) -> dict:
    """Play every sampled catalogue deal once; win rates and intervals by difficulty."""
    data = load(catalogue)
    sample = {level: entries_of(data, level)[:limit] for level in DIFFICULTIES}
    numbers = sorted(e["number"] for entries in sample.values() for e in entries)
    play = partial(_player_wins, preset, tuple(numbers))
    results = {
        numbers[index]: {"won": won}
        for index, won in run_deals(play, range(len(numbers)), jobs, warm=preset)
    }
    rows = {}
    for level in DIFFICULTIES:
        played = [results[e["number"]]["won"] for e in sample[level]]
        wins, games = sum(played), len(played)
        low, high = wilson_interval(wins, games)
        rows[level] = {
            "games": games,
            "wins": wins,
            "rate": round(wins / games, 4) if games else None,
            "interval_95": [round(low, 4), round(high, 4)],
        }
    ordered = all(
        rows[a]["interval_95"][0] > rows[b]["interval_95"][1]
        for a, b in zip(DIFFICULTIES, DIFFICULTIES[1:], strict=False)
    )
    kind, strength = VALIDATION_PLAYERS[preset]
    return {
        "preset": preset,
        "player": {"kind": kind, "strength": strength},
        "grading": data["parameters"]["grading"]["rule"],
        "by_difficulty": rows,
        "separated": ordered,
        "won": sorted(n for n in numbers if results[n]["won"]),
    }


def table(reports: list[dict]) -> str:
    lines = [
        "| preset | validation player | easy | normal | hard | separated |",
        "| --- | --- | --- | --- | --- | --- |",
    ]
    for report in reports:
        cells = []
        for level in DIFFICULTIES:
            row = report["by_difficulty"][level]
            low, high = row["interval_95"]
            cells.append(f"{row['rate']:.1%} ({low:.1%}..{high:.1%}, n={row['games']})")
        player = f"{report['player']['kind']} {report['player']['strength']}"
        separated = "yes" if report["separated"] else "NO"
        lines.append(f"| {report['preset']} | {player} | {' | '.join(cells)} | {separated} |")
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--presets", default=",".join(PRESETS))
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--catalogue-dir", type=Path, default=ROOT / "catalogues")
    parser.add_argument("--limit", type=int, default=None, help="Deals per difficulty.")
    parser.add_argument(
        "--name", default="grading_validation", help="File name stem of the results."
    )
    args = parser.parse_args(argv)
    reports = []
    for preset in args.presets.split(","):
        report = validate(preset, args.catalogue_dir / f"{preset}.json", args.jobs, args.limit)
        reports.append(report)
        print(table([report]), flush=True)
    RESULTS.mkdir(parents=True, exist_ok=True)
    saved = RESULTS / f"{args.name}.json"
    merged = {r["preset"]: r for r in (orjson.loads(saved.read_bytes()) if saved.exists() else [])}
    merged.update({r["preset"]: r for r in reports})
    everything = [merged[p] for p in (*PRESETS, *sorted(merged)) if p in merged]
    everything = list({r["preset"]: r for r in everything}.values())
    saved.write_bytes(orjson.dumps(everything, option=orjson.OPT_INDENT_2))
    (RESULTS / f"{args.name}.md").write_text(table(everything))
    print(table(everything))
    return 0 if all(report["separated"] for report in reports) else 1


if __name__ == "__main__":
    sys.exit(main())
