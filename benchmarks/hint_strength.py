"""How strong the visible hint is: the share of catalogue deals won by always following it.

    python benchmarks/hint_strength.py [--presets thirteen,fifteen] [--every N]
        [--compare-every M] [--name hint_strength]

For every deal of a shipped catalogue (``catalogues/PRESET.json``; with ``--every N`` every
N-th), a player plays the preset's visible hint (:func:`cloversolve.visible_hint`, the same
move as ``hint`` in ``cloversolve.js``) from the deal's start until the game is won, no move
is left, or ``MAX_STEPS`` moves are played (the hint reads only the position, so a game that
comes back to a position it has seen goes round for ever: a loss). The share of Easy, Normal
and Hard deals won is given with a Wilson 95% interval.

The pile games' hint is the grading panel's ``dig`` player played greedily, chosen as the
panel's one-move player that wins most: for the pile presets the script also gives, per
difficulty, the win rates of the panel's one-move players (``dig``, ``lookahead``, ``home``)
played greedily (the first of their best moves, never back to a position seen: the
``playout`` of the panel without a generator), and their seeded panel rates recorded in the
catalogue's metrics, on every M-th of the measured deals (``--compare-every``, 4 by default).
Tables go to ``benchmarks/results/NAME.json`` and ``NAME.md``, written again after each
preset.
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path
from typing import Any

from cloversolve.grading.players import hint_player_wins, playout
from cloversolve.rules import position_from_layout
from cloversolve.runs.study import wilson_interval
from cloversolve.solving.replay import load_layout
from cloversolve.web.viewer import VIEWER_PRESETS

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "benchmarks" / "results"
DIFFICULTIES = ("easy", "normal", "hard")
#: The panel's one-move players (no search, no undo), compared for the pile games' hint.
ONE_MOVE_PLAYERS = ("dig", "lookahead", "home")
#: Moves a game may last (longer than any catalogue route).
MAX_STEPS = 1000


def rate(wins: float, deals: int) -> dict[str, Any]:
    low, high = wilson_interval(wins, deals)
    return {
        "wins": wins,
        "deals": deals,
        "rate": wins / deals if deals else 0.0,
        "low": low,
        "high": high,
    }


def shown(cell: dict[str, Any]) -> str:
    return (
        f"{100 * cell['rate']:.1f}% ({100 * cell['low']:.1f}%..{100 * cell['high']:.1f}%, "
        f"n={cell['deals']})"
    )


def measure(preset: str, every: int, compare_every: int) -> dict[str, Any]:
    """The hint's wins per difficulty; for the pile games, the one-move players' too."""
    catalogue = json.loads((ROOT / "catalogues" / f"{preset}.json").read_text("utf-8"))
    entries = catalogue["deals"][::every]
    pile_game = "dig" in catalogue["parameters"]["grading"]["panel"]
    players = ONE_MOVE_PLAYERS if pile_game else ()
    wins: dict[str, dict[str, float]] = {
        name: dict.fromkeys(DIFFICULTIES, 0.0)
        for name in ("hint", *players, *(f"panel {p}" for p in players))
    }
    deals = {name: dict.fromkeys(DIFFICULTIES, 0) for name in wins}
    started = time.perf_counter()
    for index, entry in enumerate(entries):
        level = entry["difficulty"]
        position = position_from_layout(load_layout(preset, entry["layout"]))
        deals["hint"][level] += 1
        wins["hint"][level] += hint_player_wins(position, MAX_STEPS)
        for player in players if index % compare_every == 0 else ():
            deals[player][level] += 1
            deals[f"panel {player}"][level] += 1
            wins[player][level] += playout(position, player, MAX_STEPS)
            games = entry["metrics"]["panel_games"]
            wins[f"panel {player}"][level] += entry["metrics"]["panel_wins"][player] / games
    return {
        "preset": preset,
        "deals": len(entries),
        "every": every,
        "compare_every": compare_every,
        "seconds": round(time.perf_counter() - started, 1),
        "rates": {
            name: {level: rate(counts[level], deals[name][level]) for level in DIFFICULTIES}
            for name, counts in wins.items()
        },
    }


def markdown(results: list[dict[str, Any]]) -> str:
    lines = [
        "# Visible hint strength",
        "",
        "Share of shipped catalogue deals won by always following the visible hint from the "
        "deal's start (Wilson 95% intervals). `python benchmarks/hint_strength.py`.",
        "",
        "| preset | easy | normal | hard |",
        "| --- | --- | --- | --- |",
    ]
    for result in results:
        cells = [shown(result["rates"]["hint"][level]) for level in DIFFICULTIES]
        lines.append(f"| {result['preset']} | {' | '.join(cells)} |")
    lines += [
        "",
        "## The pile games' one-move players",
        "",
        "Greedy: the first of the player's best moves, never back to a position seen. Panel: "
        "its seeded games of the catalogue's grading (random among its best moves), mean win "
        "rate per deal.",
        "",
        "| preset | player | easy | normal | hard |",
        "| --- | --- | --- | --- | --- |",
    ]
    for result in results:
        for name, by_level in result["rates"].items():
            if name == "hint":
                continue
            label = name if name.startswith("panel") else f"greedy {name}"
            cells = [shown(by_level[level]) for level in DIFFICULTIES]
            lines.append(f"| {result['preset']} | {label} | {' | '.join(cells)} |")
    return "\n".join(lines) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--presets", default=",".join(VIEWER_PRESETS))
    parser.add_argument("--every", type=int, default=1, help="measure every N-th deal")
    parser.add_argument(
        "--compare-every", type=int, default=4, help="compare players on every M-th"
    )
    parser.add_argument("--name", default="hint_strength")
    args = parser.parse_args()
    presets = args.presets.split(",")
    unknown = [preset for preset in presets if preset not in VIEWER_PRESETS]
    if unknown:
        parser.error(f"no catalogue for preset {unknown[0]!r} (known: {', '.join(VIEWER_PRESETS)})")
    for option in ("every", "compare_every"):
        if getattr(args, option) < 1:
            flag = "--" + option.replace("_", "-")
            parser.error(f"{flag} must be at least 1, not {getattr(args, option)}")
    results = []
    RESULTS.mkdir(parents=True, exist_ok=True)
    for preset in presets:
        results.append(measure(preset, args.every, args.compare_every))
        print(f"{preset}: {results[-1]['seconds']} s", flush=True)
        (RESULTS / f"{args.name}.json").write_text(json.dumps(results, indent=1) + "\n", "utf-8")
        (RESULTS / f"{args.name}.md").write_text(markdown(results), "utf-8")


if __name__ == "__main__":
    main()
