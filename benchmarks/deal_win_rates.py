"""Win rates of the validation players on plain random deals, beside a figure that the
game's pages state for the game.

    python benchmarks/deal_win_rates.py [--preset thirteen-return] [--deals N]
        [--name deal_win_rates] [--docs docs/grading.md]

Every validation player of the preset's family (:func:`validation_players_of`; the unassisted
ones and the assisted ones, which undo) plays one seeded game (the grading seeds,
:func:`playout_seed`) on each of deals ``1..N``, unsolvable deals included: what a player who
deals at random meets. Each player's win rate is given with a Wilson 95% interval. The
per-deal games are saved to ``benchmarks/results/NAME_deals.json`` every ``SAVE_EVERY``
deals and when a run stops, and the next run resumes from them; the table goes to
``NAME.json`` and ``NAME.md``, and with ``--docs`` also into that page, between the lines
``<!-- NAME:start -->`` and ``<!-- NAME:end -->``.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

import orjson

from cloversolve.games.dealing import deal
from cloversolve.games.registry import find_preset
from cloversolve.grading.grading import playout_seed
from cloversolve.grading.validation_players import (
    validation_game,
    validation_players,
    validation_players_of,
)
from cloversolve.rules import position_from_layout
from cloversolve.runs.output import write_atomic
from cloversolve.runs.study import wilson_interval

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "benchmarks" / "results"
#: Deals between two saves of the per-deal games.
SAVE_EVERY = 50
#: The win rate the game's pages state, by preset.
STATED = {"thirteen-return": 0.40}


def play_deals(preset: str, deals: int, path: Path) -> dict[str, dict[str, int]]:
    """Each validation player's game (1 won, 0 lost) on deals ``1..deals``: the saved ones
    of ``path``, the others played now and saved as they come."""
    players = validation_players_of(find_preset(preset).family)
    games: dict[str, dict[str, int]] = {}
    if path.exists():
        games = orjson.loads(path.read_bytes())["games"]
    since_save = 0
    try:
        for number in range(1, deals + 1):
            todo = [p for p in players if p not in games.get(str(number), {})]
            if not todo:
                continue
            position = position_from_layout(deal(preset, number))
            seed = playout_seed(preset, number)
            played = {p: int(validation_game(position, p, seed).won) for p in todo}
            games.setdefault(str(number), {}).update(played)
            since_save += 1
            if since_save >= SAVE_EVERY:
                write_atomic(path, orjson.dumps({"preset": preset, "games": games}))
                since_save = 0
    finally:  # (a stopped run keeps every game it finished)
        write_atomic(path, orjson.dumps({"preset": preset, "games": games}))
    return {n: g for n, g in games.items() if int(n) <= deals}


def rows(preset: str, games: dict[str, dict[str, int]]) -> list[dict[str, Any]]:
    """A row per validation player: wins, deals, rate and its Wilson interval."""
    result = []
    for player in validation_players_of(find_preset(preset).family):
        wins = sum(g[player] for g in games.values())
        low, high = wilson_interval(wins, len(games))
        result.append(
            {
                "player": player,
                "assisted": validation_players()[player].assisted,
                "wins": wins,
                "deals": len(games),
                "rate": wins / len(games),
                "low": low,
                "high": high,
            }
        )
    return result


def table(preset: str, table_rows: list[dict[str, Any]]) -> str:
    """The rows as Markdown, the stated figure first."""
    deals = table_rows[0]["deals"]
    lines = [
        f"| `{preset}`, deals 1..{deals} | play | win rate (Wilson 95%) |",
        "| --- | --- | --- |",
    ]
    if preset in STATED:
        lines.append(f"| the game's pages | | {100 * STATED[preset]:.0f}% |")
    for row in table_rows:
        play = "assisted (undo)" if row["assisted"] else "unassisted"
        lines.append(
            f"| `{row['player']}` | {play} | {100 * row['rate']:.1f}% "
            f"({100 * row['low']:.1f}%..{100 * row['high']:.1f}%) |"
        )
    return "\n".join(lines) + "\n"


def put_in_page(page: Path, name: str, text: str) -> None:
    """Replace the lines between ``<!-- NAME:start -->`` and ``<!-- NAME:end -->``."""
    start, end = f"<!-- {name}:start -->\n", f"<!-- {name}:end -->"
    content = page.read_text("utf-8")
    if start not in content or end not in content:
        raise ValueError(f"{str(page)!r} has no {start.strip()} ... {end} block")
    head, _, rest = content.partition(start)
    _, _, tail = rest.partition(end)
    write_atomic(page, (head + start + text + end + tail).encode())


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--preset", default="thirteen-return")
    parser.add_argument("--deals", type=int, default=1000)
    parser.add_argument("--name", default="deal_win_rates")
    parser.add_argument("--docs", type=Path, help="a page to put the table in")
    args = parser.parse_args(argv)
    try:
        find_preset(args.preset)
    except ValueError as error:
        print(f"deal_win_rates: {error}", file=sys.stderr)
        return 2
    if args.deals < 1:
        print(f"deal_win_rates: --deals must be 1 or more, got {args.deals}", file=sys.stderr)
        return 2
    if args.docs is not None and not args.docs.is_file():
        print(f"deal_win_rates: no page {str(args.docs)!r}", file=sys.stderr)
        return 2
    games = play_deals(args.preset, args.deals, RESULTS / f"{args.name}_deals.json")
    table_rows = rows(args.preset, games)
    text = table(args.preset, table_rows)
    write_atomic(
        RESULTS / f"{args.name}.json", orjson.dumps(table_rows, option=orjson.OPT_INDENT_2)
    )
    write_atomic(RESULTS / f"{args.name}.md", text.encode())
    if args.docs is not None:
        try:
            put_in_page(args.docs, args.name, text)
        except ValueError as error:
            print(f"deal_win_rates: {error}", file=sys.stderr)
            return 2
    print(text, end="")
    return 0


if __name__ == "__main__":
    sys.exit(main())
