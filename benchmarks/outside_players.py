"""Why Easy and Normal ``thirteen`` deals can play alike for a player outside the grading
panel, and a skill ladder as another score.

    python benchmarks/outside_players.py [--every 3] [--train 200] [--fresh 400]
        [--report-only] [--name outside_players]

Deals played (``thirteen`` only; unsolvable deals take no part, as in catalogues):

* ``catalogue``: every N-th deal of ``catalogues/thirteen.json`` (``--every``); the panel's
  win rates and the deal's metrics are those the catalogue records.
* ``training`` and ``fresh``: the solvable deals among 100001..100000+train and
  200001..200000+fresh, as ``benchmarks/grading_panel.py`` recorded them (its
  ``grading_panel_deals_thirteen.json``: verdict and panel wins), graded by the shipped rule.

On every deal these players play one seeded game each (:data:`PLAYED`): the validation
players ``tips-undo`` (the tips player with 20 undos: assisted) and ``montecarlo``
(:mod:`cloversolve.grading.validation_players`), the
visible hint
played to the end (``hint``), the panel's undoing player at 50, 200, 1,000 and 5,000
positions of patience (``patient50`` ...: the skill ladder) and the undoing player that tries
moves in the dig player's order (the panel's ``careful``) at 100, 200 and 500 (``dig100``
...: the dig ladder); and the panel's ``dig`` player plays 3 new seeded games (``dig
again``: the games that graded a deal are not those that read its grade). Records go to
``benchmarks/results/NAME_deals.jsonl`` one line per deal as they are made (a stopped run
resumes there); the tables to ``NAME.md`` and ``NAME.json``.

The report gives, on the catalogue deals, each player's win rate per shipped grade (Wilson
95% interval over the deals), the correlation over deals of each player's win rate with the
panel score and with the deal's recorded features; then, on the fresh deals, the outside
players' win rates per grade under the shipped rule and under ladder scores whose thresholds
are the thirds of the training deals' scores
(:func:`cloversolve.runs.calibration.share_thresholds`).
A player that is part of a score is left out of it when its own rates are read.

``--cheap-fresh N`` adds the fast deterministic players (``tips-undo``, ``hint``) on every
catalogue deal and on the solvable deals of 200001..200000+N. ``--presets-fresh FAST SLOW``
instead writes ``NAME_presets.md`` and ``.json``: the validation players that play each other
graded preset, and its visible hint, on its solvable fresh deals by shipped grade.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from cloversolve.games.dealing import deal
from cloversolve.games.registry import find_preset
from cloversolve.grading.grading import DIFFICULTIES, difficulty, grading_rule, playout_seed
from cloversolve.grading.players import (
    PLAYERS,
    hint_player_wins,
    patient_player_wins,
    player_wins,
)
from cloversolve.grading.validation_players import validation_game, validation_players_of
from cloversolve.rules import Position, position_from_layout
from cloversolve.runs.calibration import share_thresholds
from cloversolve.runs.study import wilson_interval
from cloversolve.solving.replay import load_layout

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "benchmarks" / "results"
PRESET = "thirteen"
TRAIN_FIRST, FRESH_FIRST = 100_001, 200_001
PANEL = tuple(grading_rule(PRESET).panel)
#: The skill ladder: the undoing player at growing patience (positions before it gives up).
LADDER = (50, 200, 1000, 5000)
#: The undoing player trying moves in the dig player's order (the panel's ``careful``) at
#: growing patience.
CAREFUL_LADDER = (100, 200, 500)
#: New games of a panel player per deal (``dig again``).
AGAIN_GAMES = 3
#: Moves a hint game may last.
HINT_STEPS = 1000


def _undoing(patience: int, order: str | None) -> Callable[[Position, str], float]:
    name = f"{order or 'patient'}{patience}"
    return lambda position, seed: float(
        patient_player_wins(position, patience, random.Random(f"{seed}/{name}"), order)
    )


def _again(player: str) -> Callable[[Position, str], float]:
    """A panel player's win rate in new seeded games (not those that graded the deal)."""
    strength = grading_rule(PRESET).strength
    return lambda position, seed: (
        player_wins(position, player, AGAIN_GAMES, strength, f"{seed}/again") / AGAIN_GAMES
    )


#: The players of this study and their win rate on a deal (one seeded game each, but
#: ``dig again``: :data:`AGAIN_GAMES`).
PLAYED: dict[str, Callable[[Position, str], float]] = {
    "tips-undo": lambda position, seed: float(validation_game(position, "tips-undo", seed).won),
    "montecarlo": lambda position, seed: float(validation_game(position, "montecarlo", seed).won),
    "hint": lambda position, seed: float(hint_player_wins(position, HINT_STEPS)),
    "dig again": _again("dig"),
    **{f"patient{p}": _undoing(p, None) for p in LADDER},
    **{f"dig{p}": _undoing(p, "dig") for p in CAREFUL_LADDER},
}
OUTSIDE = ("tips-undo", "montecarlo")
LADDER_NAMES = tuple(f"patient{p}" for p in LADDER)
CAREFUL_NAMES = tuple(f"dig{p}" for p in CAREFUL_LADDER)
#: The players that undo (assisted play, as the game pages call it): marked so in the tables.
ASSISTED = frozenset(
    {"tips-undo", *LADDER_NAMES, *CAREFUL_NAMES, *(p for p in PANEL if PLAYERS[p].assisted)}
)


def _label(player: str) -> str:
    """A player's name in the tables, ``(assisted)`` after those that undo."""
    return f"{player} (assisted)" if player in ASSISTED else player


def _features(layout: dict[str, Any], metrics: dict[str, Any]) -> dict[str, float]:
    """Features of a catalogue deal: its recorded metrics and what the layout shows."""
    piles = layout["piles"]
    ace_depths = [len(pile) - 1 - i for pile in piles for i, c in enumerate(pile) if c[0] == "A"]
    return {
        "safe_first_share": metrics["safe_first_moves"] / metrics["first_moves"],
        "first_moves": metrics["first_moves"],
        "branching": metrics["branching"],
        "log_solver_nodes": math.log10(max(1, metrics["solver_nodes"])),
        "kings_at_bottom": sum(1 for pile in piles if pile[0][0] == "K"),
        "aces_on_top": sum(1 for d in ace_depths if d == 0),
        "ace_depth_sum": sum(ace_depths),
    }


def _play(position: Position, seed: str, done: dict[str, float]) -> dict[str, float]:
    """The win rates of every player of :data:`PLAYED` not in ``done``, added to it."""
    return {
        **done,
        **{name: play(position, seed) for name, play in PLAYED.items() if name not in done},
    }


def catalogue_deals(every: int) -> Iterator[tuple[str, dict[str, Any], Callable[[], dict]]]:
    catalogue = json.loads((ROOT / "catalogues" / f"{PRESET}.json").read_text("utf-8"))
    for entry in catalogue["deals"][::every]:
        metrics = entry["metrics"]
        record = {
            "set": "catalogue",
            "number": entry["number"],
            "difficulty": entry["difficulty"],
            "score": metrics["score"],
            "panel": {p: w / metrics["panel_games"] for p, w in metrics["panel_wins"].items()},
            "features": {
                "route_length": entry["route_length"],
                **_features(entry["layout"], metrics),
            },
        }
        layout = entry["layout"]
        yield (
            f"catalogue/{entry['number']}",
            record,
            lambda done, layout=layout, n=entry["number"]: _play(
                position_from_layout(load_layout(PRESET, layout)), playout_seed(PRESET, n), done
            ),
        )


def panel_records_deals(
    name: str, first: int, count: int
) -> Iterator[tuple[str, dict[str, Any], Callable[[], dict]]]:
    path = RESULTS / f"grading_panel_deals_{PRESET}.json"
    deals = json.loads(path.read_text("utf-8"))["deals"]
    rule = grading_rule(PRESET)
    for number in range(first, first + count):
        found = deals.get(str(number))
        if found is None:
            raise SystemExit(f"deal {number} is not in {path.name}: run grading_panel.py first")
        if found["status"] != "solved":
            continue
        games = found["panel_games"]
        record = {
            "set": name,
            "number": number,
            "difficulty": difficulty(found["score"], rule),
            "score": found["score"],
            "panel": {p: w / games for p, w in found["panel_wins"].items()},
        }
        yield (
            f"{name}/{number}",
            record,
            lambda done, n=number: _play(
                position_from_layout(deal(PRESET, n)), playout_seed(PRESET, n), done
            ),
        )


def play_all(path: Path, sources: list[Iterator]) -> dict[str, dict]:
    """Every record: the saved ones read back (the last line of a deal counts), the missing
    ones and the players a saved one lacks played now and appended."""
    done: dict[str, dict] = {}
    if path.exists():
        for line in path.read_text("utf-8").splitlines():
            if line.strip():
                record = json.loads(line)
                done[f"{record['set']}/{record['number']}"] = record
    with path.open("a", encoding="utf-8") as out:
        for source in sources:
            for key, record, play in source:
                saved = done.get(key, {}).get("wins", {})
                if set(PLAYED) <= set(saved):
                    continue
                record["wins"] = play(saved)
                done[key] = record
                out.write(json.dumps(record) + "\n")
                out.flush()
                print(key, record["difficulty"], record["wins"], file=sys.stderr, flush=True)
    return done


# -- the report ------------------------------------------------------------------------------


def rate_row(rates: list[float]) -> dict[str, Any]:
    n = len(rates)
    mean = sum(rates) / n if n else 0.0
    low, high = wilson_interval(mean * n, n)
    return {"deals": n, "rate": round(mean, 4), "interval_95": [round(low, 4), round(high, 4)]}


def by_grade(records: list[dict], player: str, grade_of: Callable[[dict], str]) -> dict:
    """``player``'s win rate per grade (``grade_of`` grades a record), with the gaps: the
    easier grade's lower bound minus the harder one's upper bound, in points."""
    rates: dict[str, list[float]] = {level: [] for level in DIFFICULTIES}
    for record in records:
        rates[grade_of(record)].append(rate_of(record, player))
    rows = {level: rate_row(rates[level]) for level in DIFFICULTIES}
    gaps = [
        round(100 * (rows[a]["interval_95"][0] - rows[b]["interval_95"][1]), 1)
        for a, b in zip(DIFFICULTIES, DIFFICULTIES[1:], strict=False)
    ]
    return {"player": player, "by_difficulty": rows, "gaps": gaps}


def rate_of(record: dict, player: str) -> float:
    return record["panel"][player] if player in record["panel"] else record["wins"][player]


def correlation(xs: list[float], ys: list[float]) -> float | None:
    """Pearson's correlation of ``xs`` and ``ys`` (``None`` when either does not vary)."""
    n = len(xs)
    if n < 2:
        return None
    mx, my = sum(xs) / n, sum(ys) / n
    sxy = sum((x - mx) * (y - my) for x, y in zip(xs, ys, strict=True))
    sx = math.sqrt(sum((x - mx) ** 2 for x in xs))
    sy = math.sqrt(sum((y - my) ** 2 for y in ys))
    return round(sxy / (sx * sy), 3) if sx and sy else None


#: Scores tried on the fresh deals: name -> the players whose mean win rate it is.
SCORES: dict[str, tuple[str, ...]] = {
    "panel (shipped rule)": PANEL,
    "ladder": (*LADDER_NAMES, "tips-undo"),
    "dig ladder": (*CAREFUL_NAMES, "tips-undo"),
    "panel + ladders": (*PANEL, *LADDER_NAMES, *CAREFUL_NAMES, "tips-undo"),
}


def variance_shares(records: list[dict]) -> dict[str, float]:
    """Each panel player's share of the panel score's variance over ``records`` (its rate's
    covariance with the score over the score's variance, divided by the panel's size)."""
    scores = [score(r, PANEL) for r in records]
    mean = sum(scores) / len(scores)
    variance = sum((s - mean) ** 2 for s in scores)
    shares = {}
    for p in PANEL:
        rates = [rate_of(r, p) for r in records]
        m = sum(rates) / len(rates)
        covariance = sum((x - m) * (s - mean) for x, s in zip(rates, scores, strict=True))
        shares[p] = round(covariance / variance / len(PANEL), 3)
    return shares


def score(record: dict, players: tuple[str, ...]) -> float:
    """The mean win rate of ``players`` on a record, rounded as the panel score is (so that
    the shipped thresholds grade it as the shipped rule does)."""
    return round(sum(rate_of(record, p) for p in players) / len(players), 6)


def ladder_tables(train: list[dict], fresh: list[dict]) -> list[dict]:
    """For each score of :data:`SCORES` and each player read (outside players, then the
    ladder's and panel's), the fresh deals graded by thresholds from the training deals."""
    rule = grading_rule(PRESET)
    rows = []
    for name, members in SCORES.items():
        for player in (*OUTSIDE, "hint", "dig again", *LADDER_NAMES, *CAREFUL_NAMES, *PANEL):
            used = tuple(p for p in members if p != player)
            if name.startswith("panel") and player not in PANEL:
                easy, hard = rule.easy_threshold, rule.hard_threshold
            else:
                easy, hard = share_thresholds([score(r, used) for r in train])

            def grade_of(record: dict, used: tuple = used, e: float = easy, h: float = hard) -> str:
                s = score(record, used)
                return "easy" if s >= e else "hard" if s <= h else "normal"

            row = by_grade(fresh, player, grade_of)
            row.update(
                score=name, thresholds=[round(easy, 6), round(hard, 6)], held_out=used != members
            )
            rows.append(row)
    return rows


def _cell(row: dict) -> str:
    low, high = row["interval_95"]
    return f"{row['rate']:.1%} ({low:.1%}..{high:.1%}, n={row['deals']})"


def _grade_table(rows: list[dict], first: str) -> list[str]:
    lines = [
        f"| {first} | player | easy | normal | hard | gaps E-N, N-H (points) |",
        "| --- | --- | --- | --- | --- | --- |",
    ]
    for row in rows:
        cells = " | ".join(_cell(row["by_difficulty"][level]) for level in DIFFICULTIES)
        gaps = ", ".join(f"{g:+.1f}" for g in row["gaps"])
        label = row.get("score", "shipped grade")
        if row.get("held_out"):
            label += " (held out)"
        lines.append(f"| {label} | {_label(row['player'])} | {cells} | {gaps} |")
    return lines


def report(records: dict[str, dict]) -> dict[str, Any]:
    catalogue = [r for r in records.values() if r["set"] == "catalogue"]
    train = [r for r in records.values() if r["set"] == "training"]
    fresh = [r for r in records.values() if r["set"] == "fresh"]
    players = (*PANEL, *PLAYED)
    by_catalogue_grade = [by_grade(catalogue, p, lambda r: r["difficulty"]) for p in players]
    scores = [r["score"] for r in catalogue]
    features = sorted(catalogue[0]["features"]) if catalogue else []
    correlations = {
        p: {
            "panel_score": correlation([rate_of(r, p) for r in catalogue], scores),
            **{
                f: correlation(
                    [rate_of(r, p) for r in catalogue], [r["features"][f] for r in catalogue]
                )
                for f in features
            },
        }
        for p in players
    }
    retest = correlation(
        [r["panel"]["dig"] for r in catalogue], [rate_of(r, "dig again") for r in catalogue]
    )
    feature_vs_score = {
        f: correlation([r["features"][f] for r in catalogue], scores) for f in features
    }
    return {
        "preset": PRESET,
        "deals": {"catalogue": len(catalogue), "training": len(train), "fresh": len(fresh)},
        "catalogue_by_grade": by_catalogue_grade,
        "correlations": correlations,
        "features_vs_panel_score": feature_vs_score,
        "score_variance_shares": variance_shares(catalogue),
        "dig_retest_correlation": retest,
        "fresh_by_score": ladder_tables(train, fresh) if train and fresh else [],
    }


def markdown(data: dict[str, Any]) -> str:
    deals = data["deals"]
    lines = [
        f"# Outside players on `{data['preset']}`",
        "",
        f"Catalogue deals played: {deals['catalogue']}; training deals: {deals['training']}; "
        f"fresh deals: {deals['fresh']} (solvable only). One seeded game per player per deal "
        "(the panel's rates: its 3 recorded games). Wilson 95% intervals over deals.",
        "",
        "## Win rate by shipped grade (catalogue deals)",
        "",
        *_grade_table(data["catalogue_by_grade"], "grade from"),
        "",
        "## Correlation over deals of each player's win rate",
        "",
    ]
    corr = data["correlations"]
    columns = list(next(iter(corr.values())))
    lines += [
        "| player | " + " | ".join(columns) + " |",
        "| --- |" + " --- |" * len(columns),
    ]
    for player, row in corr.items():
        lines.append(f"| {_label(player)} | " + " | ".join(str(row[c]) for c in columns) + " |")
    lines += ["", "Features against the panel score: "]
    lines.append(", ".join(f"{f} {v}" for f, v in data["features_vs_panel_score"].items()))
    lines += [
        "",
        "Share of the panel score's variance over the catalogue deals, by player: "
        + ", ".join(f"{p} {v}" for p, v in data["score_variance_shares"].items()),
        "",
        "Correlation over deals of the `dig` rate in the games that graded the deal with its "
        f"rate in 3 new games (`dig again`): {data['dig_retest_correlation']}",
    ]
    if data["fresh_by_score"]:
        lines += [
            "",
            "## Fresh deals graded by each score (thresholds: thirds of the training deals)",
            "",
            *_grade_table(data["fresh_by_score"], "score"),
        ]
    if data.get("cheap_by_grade"):
        lines += [
            "",
            "## The fast deterministic players on larger samples (shipped grades)",
            "",
            *_grade_table(data["cheap_by_grade"], "deals"),
        ]
    return "\n".join(lines) + "\n"


#: The deterministic players that take milliseconds a game, played on larger samples.
CHEAP = ("tips-undo", "hint")


def cheap_tables(n_fresh: int) -> list[dict]:
    """:data:`CHEAP` players' win rates by shipped grade on every catalogue deal and on the
    solvable fresh deals among 200001..200000+n_fresh (no records kept: a few minutes)."""
    rows = []
    for name, source in (
        ("every catalogue deal", catalogue_deals(1)),
        (
            f"fresh 200001..{FRESH_FIRST + n_fresh - 1}",
            panel_records_deals("fresh", FRESH_FIRST, n_fresh),
        ),
    ):
        records = []
        for _, record, _ in source:
            number = record["number"]
            position = position_from_layout(deal(PRESET, number))
            seed = playout_seed(PRESET, number)
            record["wins"] = {p: PLAYED[p](position, seed) for p in CHEAP}
            records.append(record)
        for player in CHEAP:
            row = by_grade(records, player, lambda r: r["difficulty"])
            row["score"] = name
            rows.append(row)
    return rows


#: The other graded presets, for the held-out table of the validation players.
OTHER_PRESETS = ("thirteen-return", "fifteen", "cloverleaf", "alexander")


def other_preset_rows(preset: str, n_fast: int, n_slow: int) -> list[dict]:
    """The validation players' (and the visible hint's) win rates by shipped grade on the
    solvable fresh deals of ``preset`` (``benchmarks/grading_panel.py``'s records): the fast
    deterministic players on 200001..200000+n_fast, ``montecarlo`` on the first ``n_slow``
    of them (or all of them in ``fifteen``, where a game takes milliseconds)."""
    family = find_preset(preset).family
    players = list(validation_players_of(family))
    path = RESULTS / f"grading_panel_deals_{preset}.json"
    deals = json.loads(path.read_text("utf-8"))["deals"]
    rule = grading_rule(preset)
    records: list[dict] = []
    for number in range(FRESH_FIRST, FRESH_FIRST + n_fast):
        found = deals.get(str(number))
        if found is None or found["status"] != "solved":
            continue
        position = position_from_layout(deal(preset, number))
        seed = playout_seed(preset, number)
        slow = number < FRESH_FIRST + n_slow or family == "fifteen"
        wins = {
            p: float(
                hint_player_wins(position, HINT_STEPS)
                if p == "hint"
                else validation_game(position, p, seed).won
            )
            for p in players
            if slow or p != "montecarlo"
        }
        records.append({"difficulty": difficulty(found["score"], rule), "panel": {}, "wins": wins})
    rows = []
    for player in players:
        played = [r for r in records if player in r["wins"]]
        row = by_grade(played, player, lambda r: r["difficulty"])
        row["score"] = f"{preset}, shipped rule"
        rows.append(row)
    return rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--every", type=int, default=3, help="Every N-th catalogue deal.")
    parser.add_argument("--train", type=int, default=200, help="Training deals (from 100001).")
    parser.add_argument("--fresh", type=int, default=400, help="Fresh deals (from 200001).")
    parser.add_argument("--report-only", action="store_true", help="Only the saved records.")
    parser.add_argument(
        "--cheap-fresh", type=int, default=0, help="Fresh deals for the tips-undo and hint players."
    )
    parser.add_argument(
        "--presets-fresh",
        type=int,
        nargs=2,
        default=None,
        metavar=("FAST", "SLOW"),
        help="Fresh deals of the other presets for the fast players and for montecarlo.",
    )
    parser.add_argument("--name", default="outside_players")
    args = parser.parse_args(argv)
    if min(args.every, args.train, args.fresh) < 1:
        parser.error(f"--every, --train and --fresh must be at least 1, got {vars(args)!r}")
    path = RESULTS / f"{args.name}_deals.jsonl"
    sources = [
        catalogue_deals(args.every),
        panel_records_deals("training", TRAIN_FIRST, args.train),
        panel_records_deals("fresh", FRESH_FIRST, args.fresh),
    ]
    if args.presets_fresh:
        rows: list[dict] = []
        for preset in OTHER_PRESETS:
            rows += other_preset_rows(preset, *args.presets_fresh)
            lines = ["# Validation players on fresh deals of the other presets", ""]
            lines += _grade_table(rows, "preset")
            (RESULTS / f"{args.name}_presets.md").write_text("\n".join(lines) + "\n", "utf-8")
            text = json.dumps({"fresh": args.presets_fresh, "rows": rows}, indent=1)
            (RESULTS / f"{args.name}_presets.json").write_text(text + "\n", "utf-8")
        return 0
    records = play_all(path, [] if args.report_only else sources)
    data = report(records)
    data["cheap_by_grade"] = cheap_tables(args.cheap_fresh) if args.cheap_fresh else []
    (RESULTS / f"{args.name}.json").write_text(json.dumps(data, indent=1) + "\n", "utf-8")
    (RESULTS / f"{args.name}.md").write_text(markdown(data), "utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
