"""Choose the grading thresholds on training deals and validate them, player by player, on
fresh deals.

    python benchmarks/grading_panel.py [--presets thirteen,fifteen] [--jobs 2]
        [--train N] [--fresh N] [--outside-deals montecarlo=N,...] [--name grading_panel]

For every preset, deals ``100001..100000+train`` (training) and ``200001..200000+fresh``
(validation; both outside the deal range the shipped catalogues were built from; by default
the preset's sizes in ``TRAINING_DEALS`` and ``FRESH_DEALS``) are solved
within the rule's node budget, and every player of the preset's panel plays each solvable
deal ``games`` times with the grading seeds (:func:`cloversolve.grading.grading.play_metrics`).
Unsolvable and undecided deals take no part, as in catalogues.

* The rule's thresholds are the thirds of the full panel's scores on the training deals
  (:func:`cloversolve.runs.calibration.share_thresholds`): they are what ``GRADING_RULES`` states.
* Leave one out: for each panel player in turn, the score is the mean of the *other*
  players' win rates, its thresholds are the thirds of that score on the training deals, and
  the fresh deals are graded with them. The held-out player's win rate per grade is its mean
  win rate over the grade's deals, with a Wilson 95% interval over the deals (each deal
  counts once, however many games it played). ``gap`` is the lower bound of the easier grade
  minus the upper bound of the harder one, in percentage points. The target, for every
  player that wins at least 10% of Easy deals: each pair of adjacent grades at least 3 points
  apart; where the harder grade's rate is under 10%, the rates at least 1.5-fold apart with
  disjoint intervals instead.
* Outside players: each validation player of the preset's family
  (:func:`cloversolve.validation_players.validation_players_of`, ``montecarlo`` in every
  family) plays one seeded game on each solvable fresh deal (or on those of the first
  ``--outside-deals PLAYER=N`` fresh deals), and its row gives its win rate per grade under
  the rule's stated thresholds (the full panel's score), with the same intervals, ``gap``
  and target as the held-out rows. Players that undo (panel and outside) are marked
  "assisted".

Per-deal records are kept in ``benchmarks/results/NAME_deals_PRESET.json``, saved as the
run goes: a run stopped by Ctrl-C, SIGTERM or a hang-up keeps every record (its last save is
finished whatever comes meanwhile) and exits with 128 plus the signal's number, a killed one
keeps all but the last few hundred, and the next run with the same ``--name`` resumes from
them. A record without an outside player's game is extended with it (nothing else of the
record is made again). Records made with
other play parameters than the rule's are refused (remove the file to make them again). The
tables go to ``NAME.json`` and ``NAME.md``. One run at a time per name: a second one is
refused while the first holds ``.NAME.lock``; outputs that are symbolic links are refused.
"""

from __future__ import annotations

import argparse
import contextlib
import math
import os
import re
import sys
from collections.abc import Iterator
from functools import partial
from pathlib import Path
from typing import Any, NoReturn

import orjson
from tqdm import tqdm

from cloversolve.cli.common import (
    OutputError,
    exit_on_output_error,
    exit_quietly_on_broken_pipe,
    guard_standard_output,
)
from cloversolve.games.dealing import deal
from cloversolve.games.registry import find_preset
from cloversolve.grading.grading import (
    DIFFICULTIES,
    difficulty,
    grading_rule,
    panel_score,
    play_metrics,
    playout_seed,
)
from cloversolve.grading.players import PLAYERS
from cloversolve.grading.validation_players import (
    validation_game,
    validation_players,
    validation_players_of,
)
from cloversolve.rules import position_from_layout
from cloversolve.runs.calibration import share_thresholds
from cloversolve.runs.checkpoints import run_deals
from cloversolve.runs.interrupts import (
    ignore_stop_signals,
    interrupted_status,
    stop_on_signals,
    stop_signals_held,
    stopped_by_signal,
)
from cloversolve.runs.locks import lock_exclusively
from cloversolve.runs.output import OutputPathError, check_replaceable_output, write_atomic
from cloversolve.runs.study import wilson_interval
from cloversolve.runs.workers import ExecutorError
from cloversolve.search.common import Status
from cloversolve.solving.solver import solve

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
#: ``thirteen-return`` has three times as many: its ``lookahead`` player's Normal and Hard win
#: rates differ by about five points, which 12,000 deals could not resolve into a 3-point gap.
FRESH_DEALS = {
    "thirteen": 12_000,
    "thirteen-return": 36_000,
    "fifteen": 10_000,
    "cloverleaf": 12_000,
    "alexander": 6_000,
}
#: New per-deal records between two saves of the records file (a killed run resumes there).
SAVE_EVERY = 500
#: What ``--name`` may be: a file name stem of letters, digits, ``-`` and ``_``.
NAME_PATTERN = re.compile(r"[A-Za-z0-9][A-Za-z0-9_-]{0,63}")
#: A deal number as a records file writes it.
DEAL_KEY = re.compile(r"[1-9][0-9]{0,19}")
#: The largest ``--fresh``.
MAX_FRESH = 1_000_000
RESULT_KINDS = {
    ".json": ("a grading panel report", lambda start: b'"held_out"' in start),
    ".md": ("a grading panel table", lambda start: start.startswith(b"| preset | held-out")),
}


#: The statuses a record may have (a search's verdict).
STATUSES = frozenset(status.value for status in Status)


class PanelError(Exception):
    """A problem with this run's input or files, told in one line."""


def outside_players(preset: str) -> tuple[str, ...]:
    """The validation players that play ``preset`` (its family's own, then the generic ones)."""
    return validation_players_of(find_preset(preset).family)


def outside_wins(preset: str, number: int, players: tuple[str, ...]) -> dict[str, int]:
    """One seeded game of each of ``players`` on deal ``number``: 1 if won, else 0."""
    position = position_from_layout(deal(preset, number))
    seed = playout_seed(preset, number)
    return {p: int(validation_game(position, p, seed).won) for p in players}


def deal_record(
    new: frozenset[int], outside: dict[int, tuple[str, ...]], preset: str, number: int
) -> dict[str, Any] | None:
    """A picklable worker: for a deal of ``new``, its verdict and, when solved, its panel's
    wins; for a solved deal of ``outside``, the games of the outside players it lists
    (``outside_wins``; a deal not in ``new`` gets only these). ``None`` for other deals."""
    if number not in new and number not in outside:
        return None
    record: dict[str, Any] = {}
    if number in new:
        rule = grading_rule(preset)
        result = solve(preset, number, max_nodes=rule.solve_nodes, max_memory=rule.max_memory)
        if result.status.value != "solved":
            return {"status": result.status.value}
        record = {"status": "solved", **play_metrics(preset, number, rule)}
    if outside.get(number):
        record["outside_wins"] = outside_wins(preset, number, outside[number])
    return record


def merged_record(saved: dict | None, made: dict) -> dict:
    """The record of a deal: ``saved`` (if any) extended by the ``made`` one, outside games
    joined."""
    record = {**(saved or {}), **made}
    games = {**(saved or {}).get("outside_wins", {}), **made.get("outside_wins", {})}
    if games:
        record["outside_wins"] = games
    return record


def _is_record(record: Any, panel: tuple[str, ...]) -> bool:
    if not isinstance(record, dict) or record.get("status") not in STATUSES:
        return False
    if record["status"] != "solved":
        return True
    wins, games = record.get("panel_wins"), record.get("panel_games")
    return (
        isinstance(wins, dict)
        and type(games) is int
        and games > 0
        and set(wins) == set(panel)
        and all(type(w) is int and 0 <= w <= games for w in wins.values())
        and type(record.get("score")) in (int, float)
        and record["score"] == panel_score(wins, games)  # (the score the panel's wins give)
        and _are_outside_wins(record.get("outside_wins", {}))
    )


def _are_outside_wins(games: Any) -> bool:
    """Whether ``games`` are a record's outside games: validation players' names, 0 or 1."""
    return isinstance(games, dict) and all(
        p in validation_players() and type(w) is int and w in (0, 1) for p, w in games.items()
    )


def _load(path: Path, what: str) -> Any:
    """The JSON of ``path`` (``None`` if it does not exist), else raise :class:`PanelError`."""
    if not path.exists():
        return None
    try:
        return orjson.loads(path.read_bytes())
    except (OSError, orjson.JSONDecodeError) as error:
        raise PanelError(f"bad {what} file {str(path)!r}: {error}") from None


def saved_records(path: Path, key: dict) -> dict[int, dict]:
    """The records of ``path`` (none if it does not exist), else raise :class:`PanelError`
    quoting it: not a records file, or records made with other play parameters."""
    saved = _load(path, "records")
    if saved is None:
        return {}
    deals = saved.get("deals") if isinstance(saved, dict) else None
    if not isinstance(deals, dict) or not isinstance(saved.get("rule"), dict):
        raise PanelError(f"bad records file {str(path)!r}: not a grading panel records file")
    panel = tuple(key.get("panel", ()))
    bad = next(
        (n for n, r in deals.items() if not DEAL_KEY.fullmatch(n) or not _is_record(r, panel)),
        None,
    )
    if bad is not None:
        raise PanelError(f"bad records file {str(path)!r}: deal {bad!r} is not a record")
    if saved["rule"] != key:
        raise PanelError(
            f"records file {str(path)!r} was made with other play parameters than the rule's "
            f"(remove it to make its {len(deals)} records again)"
        )
    return {int(n): r for n, r in deals.items()}


def records_path(name: str, preset: str) -> Path:
    return RESULTS / f"{name}_deals_{preset}.json"


def records(
    preset: str,
    numbers: range,
    jobs: int,
    name: str,
    stage: str,
    outside: dict[str, int] | None = None,
) -> dict[int, dict]:
    """Per-deal records of ``numbers``: the saved ones, and the others made now (and saved
    as they come, so an interrupted run resumes). ``outside`` maps outside players to how
    many deals of ``numbers``, from the first, they play: saved records without their games
    are extended with them."""
    rule = grading_rule(preset)
    key = {k: v for k, v in rule.to_json().items() if "threshold" not in k and k != "rule"}
    path = records_path(name, preset)
    done = saved_records(path, key)

    def save() -> None:
        payload = {"rule": key, "deals": {str(n): done[n] for n in sorted(done)}}
        with stop_signals_held():  # (a second Ctrl-C never cuts the last save short)
            write_output(path, orjson.dumps(payload))

    new = frozenset(n for n in numbers if n not in done)
    wanted = {
        n: tuple(
            p
            for p, count in (outside or {}).items()
            if n < numbers.start + count and p not in done.get(n, {}).get("outside_wins", {})
        )
        for n in numbers
        if n in new or done[n]["status"] == "solved"
    }
    extend = {n: players for n, players in wanted.items() if players}
    todo = sorted(new | set(extend))
    if todo:
        worker = partial(deal_record, new, extend, preset)
        span = range(todo[0], todo[-1] + 1)
        try:
            since_save = 0
            deals = run_deals(worker, span, jobs, warm=preset)
            bar = tqdm(
                deals,
                total=len(span),
                desc=f"{preset} {stage}",
                unit="deal",
                disable=sys.stderr is None,  # (no standard error, no progress)
            )
            for number, record in bar:
                if record is not None:
                    done[number] = merged_record(done.get(number), record)
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


def thirds(scores: list[float], what: str) -> tuple[float, float]:
    """:func:`share_thresholds` of training ``scores``, or a :class:`PanelError` naming
    ``what`` they score."""
    try:
        return share_thresholds(scores)
    except ValueError as error:
        raise PanelError(
            f"{what}: the solvable training deals ({len(scores)}) do not give thresholds "
            f"({error}); give more with --train"
        ) from None


def score_without(record: dict, player: str, panel: list[str]) -> float:
    """The score of a solved ``record`` from every player of ``panel`` but ``player``."""
    wins = {p: record["panel_wins"][p] for p in panel if p != player}
    return panel_score(wins, record["panel_games"])


def left_out_thresholds(train: list[dict], panel: list[str], preset: str) -> dict:
    """For each player of ``panel``, the thresholds (easy, hard) of the score without it:
    the thirds of that score on the training deals."""
    return {
        player: thirds(
            [score_without(r, player, panel) for r in train], f"{preset} without {player}"
        )
        for player in panel
    }


def held_out(
    fresh: list[dict], player: str, panel: list[str], thresholds: tuple[float, float]
) -> dict:
    """The fresh deals graded without ``player`` (by ``thresholds``, from the training deals)
    and its win rates on them by grade."""
    easy, hard = thresholds
    rates: dict[str, list[float]] = {level: [] for level in DIFFICULTIES}
    for record in fresh:
        s = score_without(record, player, panel)
        level = "easy" if s >= easy else "hard" if s <= hard else "normal"
        rates[level].append(record["panel_wins"][player] / record["panel_games"])
    return {"player": player, "thresholds": {"easy": easy, "hard": hard}, **graded_rates(rates)}


def outside_row(fresh: list[dict], player: str, preset: str) -> dict:
    """The win rates by grade of outside ``player`` on the ``fresh`` deals it played, graded
    by the rule's stated thresholds (the full panel's score)."""
    rule = grading_rule(preset)
    rates: dict[str, list[float]] = {level: [] for level in DIFFICULTIES}
    for record in fresh:
        if player in record.get("outside_wins", {}):
            rates[difficulty(record["score"], rule)].append(record["outside_wins"][player])
    return {
        "player": player,
        "outside": True,
        "assisted": validation_players()[player].assisted,
        "thresholds": {"easy": rule.easy_threshold, "hard": rule.hard_threshold},
        **graded_rates(rates),
    }


def graded_rates(rates: dict[str, list[float]]) -> dict:
    """A player's win rates by grade (``rates``: per deal), the gaps between adjacent
    grades and whether it is held to the target and meets it."""
    rows = {level: _interval_row(rates[level]) for level in DIFFICULTIES}
    pairs = list(zip(DIFFICULTIES, DIFFICULTIES[1:], strict=False))
    gaps = [
        round(100 * (rows[a]["interval_95"][0] - rows[b]["interval_95"][1]), 1)
        if rows[a]["deals"] and rows[b]["deals"]
        else None
        for a, b in pairs
    ]
    return {
        "by_difficulty": rows,
        "gaps": gaps,
        "in_target": rows["easy"]["deals"] > 0 and rows["easy"]["rate"] >= 0.1,
        "met": None not in gaps and all(_apart(rows[a], rows[b]) for a, b in pairs),
    }


#: Below this rate a grade is told apart from the easier one by a ratio, not by points.
LOW_RATE = 0.1
#: The points (Wilson bounds) and the ratio that adjacent grades must be apart.
GAP_POINTS, LOW_RATIO = 3.0, 1.5


def _apart(easier: dict, harder: dict, scale: float = 1.0) -> bool:
    """Whether two adjacent grades' rates meet the target: the easier one's lower bound at
    least :data:`GAP_POINTS` above the harder one's upper bound; where the harder rate is
    under :data:`LOW_RATE`, at least :data:`LOW_RATIO` times it, the intervals disjoint.
    With ``scale``: whether the same rates would on ``scale`` times the deals."""
    if not easier["deals"] or not harder["deals"]:
        return False
    n_easier, n_harder = round(scale * easier["deals"]), round(scale * harder["deals"])
    low = wilson_interval(easier["rate"] * n_easier, n_easier)[0]
    high = wilson_interval(harder["rate"] * n_harder, n_harder)[1]
    if harder["rate"] < LOW_RATE:
        return low > high and easier["rate"] >= LOW_RATIO * harder["rate"]
    return round(100 * (low - high), 1) >= GAP_POINTS


#: The most deals, as a multiple of a row's, that :func:`deals_needed` looks at.
MAX_SCALE = 100.0


def deals_needed(row: dict) -> float | None:
    """How many times its deals a row needs for its rates, as they are, to meet the target
    (1 when they do; ``None`` when no sample up to :data:`MAX_SCALE` times would: rates
    closer than the target itself)."""
    by = row["by_difficulty"]
    pairs = list(zip(DIFFICULTIES, DIFFICULTIES[1:], strict=False))
    if all(_apart(by[a], by[b]) for a, b in pairs):
        return 1.0
    if not all(_apart(by[a], by[b], MAX_SCALE) for a, b in pairs):
        return None
    low, high = 1.0, MAX_SCALE
    while high - low > 0.01 * low:
        middle = (low + high) / 2
        if all(_apart(by[a], by[b], middle) for a, b in pairs):
            high = middle
        else:
            low = middle
    return high


def training(preset: str, n_train: int, jobs: int, name: str) -> dict:
    """The training stage of ``preset``: its first ``n_train`` training deals, the solved
    ones' records, and every threshold taken from them (the full panel's and each held-out
    player's), so that a sample too small for thresholds is told before any fresh deal."""
    numbers = range(TRAIN_FIRST, TRAIN_FIRST + n_train)
    found = records(preset, numbers, jobs, name, "training")
    train = [found[n] for n in numbers if found[n]["status"] == "solved"]
    return {
        "deals": [numbers[0], numbers[-1], len(train)],
        "thresholds": thirds([r["score"] for r in train], preset),
        "left_out": left_out_thresholds(train, list(grading_rule(preset).panel), preset),
    }


def validate(
    preset: str,
    trained: dict,
    n_fresh: int,
    jobs: int,
    name: str,
    outside_deals: dict[str, int] | None = None,
) -> dict:
    """The report of ``preset``: its fresh deals graded by the thresholds of ``trained``
    (:func:`training`), for the full panel and without each player in turn, and the outside
    players' rows (each on the first ``outside_deals[player]`` fresh deals, else all)."""
    rule = grading_rule(preset)
    fresh_numbers = range(FRESH_FIRST, FRESH_FIRST + n_fresh)
    outside = {
        p: min(n_fresh, (outside_deals or {}).get(p, n_fresh)) for p in outside_players(preset)
    }
    found = records(preset, fresh_numbers, jobs, name, "fresh", outside)
    fresh = [found[n] for n in fresh_numbers if found[n]["status"] == "solved"]
    panel = list(rule.panel)
    easy, hard = trained["thresholds"]
    left_out = trained["left_out"]
    return {
        "preset": preset,
        "panel": panel,
        "games": rule.games,
        "training_deals": trained["deals"],
        "fresh_deals": [fresh_numbers[0], fresh_numbers[-1], len(fresh)],
        "fitted_thresholds": {"easy": easy, "hard": hard},
        "stated_thresholds": {"easy": rule.easy_threshold, "hard": rule.hard_threshold},
        "held_out": [held_out(fresh, player, panel, left_out[player]) for player in panel],
        "outside": [
            {**outside_row(fresh, p, preset), "fresh_deals": [FRESH_FIRST, FRESH_FIRST + n - 1]}
            for p, n in outside.items()
        ],
    }


def _cell(row: dict) -> str:
    if not row["deals"]:
        return "no deals"
    low, high = row["interval_95"]
    return f"{row['rate']:.1%} ({low:.1%}..{high:.1%}, n={row['deals']})"


def _target(row: dict) -> str:
    if not row["by_difficulty"]["easy"]["deals"]:
        return "n/a (no Easy deals)"
    if not row["in_target"]:
        return "n/a (<10%)"
    if None in row["gaps"]:
        return "n/a (a grade with no deals)"
    if row["met"]:
        return "met"
    scale = deals_needed(row)
    if scale is None:
        return "NOT met (no sample would: rates too close)"
    deals = sum(level["deals"] for level in row["by_difficulty"].values())
    return f"NOT met (needs {scale:.1f}x the deals: {math.ceil(scale * deals):,} solvable)"


def table(reports: list[dict]) -> str:
    """The held-out table of ``reports`` (Markdown), then each preset's deals."""
    lines = [
        "| preset | held-out player | easy | normal | hard | gaps E-N, N-H (points) | target |",
        "| --- | --- | --- | --- | --- | --- | --- |",
    ]
    for report in reports:
        for row in [*report["held_out"], *report.get("outside", [])]:
            cells = " | ".join(_cell(row["by_difficulty"][level]) for level in DIFFICULTIES)
            gaps = ", ".join("n/a" if g is None else f"{g:+.1f}" for g in row["gaps"])
            player = row["player"]
            if row.get("outside"):
                player += " (outside, assisted)" if row.get("assisted") else " (outside)"
            elif PLAYERS[player].assisted:
                player += " (assisted)"
            lines.append(f"| {report['preset']} | {player} | {cells} | {gaps} | {_target(row)} |")
    lines.append("")
    for report in reports:
        train, fresh = report["training_deals"], report["fresh_deals"]
        played = "".join(
            f"; outside player `{row['player']}`: one seeded game on each solvable deal of "
            f"{row['fresh_deals'][0]}..{row['fresh_deals'][1]}, graded by the stated thresholds"
            for row in report.get("outside", [])
        )
        lines.append(
            f"- `{report['preset']}`: training deals {train[0]}..{train[1]} ({train[2]} "
            f"solvable), fresh deals {fresh[0]}..{fresh[1]} ({fresh[2]} solvable){played}"
        )
    return "\n".join(lines) + "\n"


def _positive(text: str) -> int:
    """A whole number of at least 1 (argparse type)."""
    if not (text.isascii() and text.isdigit()) or int(text) < 1:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number of at least 1")
    return int(text)


def _name(text: str) -> str:
    """A ``--name`` (argparse type): a plain file name stem."""
    if not NAME_PATTERN.fullmatch(text):
        raise argparse.ArgumentTypeError(
            f"{text!r} is not a plain name (1 to 64 letters, digits, '-' and '_', starting "
            "with a letter or digit; it names files in benchmarks/results)"
        )
    if "_deals_" in text:
        raise argparse.ArgumentTypeError(
            f"{text!r} holds '_deals_', which names the records files of other runs"
        )
    return text


def _outside_deals(text: str) -> dict[str, int]:
    """An ``--outside-deals`` (argparse type): ``PLAYER=N`` pairs, comma-separated."""
    limits: dict[str, int] = {}
    for pair in text.split(","):
        player, _, count = pair.partition("=")
        if player not in validation_players():
            known = ", ".join(validation_players())
            raise argparse.ArgumentTypeError(
                f"{pair!r} names no validation player (validation players: {known})"
            )
        if not (count.isascii() and count.isdigit()) or int(count) < 1:
            raise argparse.ArgumentTypeError(f"{pair!r} is not PLAYER=N with N at least 1")
        limits[player] = int(count)
    return limits


def _saved_reports(path: Path) -> dict[str, dict]:
    """The reports of an earlier run under the same name, by preset."""
    saved = _load(path, "report")
    if saved is None:
        return {}
    if not isinstance(saved, list) or not all(
        isinstance(r, dict) and r.get("preset") in PRESETS and "held_out" in r for r in saved
    ):
        raise PanelError(f"bad report file {str(path)!r}: not a grading panel report")
    try:
        table(saved)
    except (TypeError, KeyError, IndexError, ValueError):
        raise PanelError(f"bad report file {str(path)!r}: not a grading panel report") from None
    return {r["preset"]: r for r in saved}


def _tell(text: str) -> None:
    """Print ``text`` if standard output can still take it (after a hang-up it cannot)."""
    with contextlib.suppress(OSError):
        print(text, flush=True)


@contextlib.contextmanager
def only_run(name: str) -> Iterator[None]:
    """Hold the lock of ``name`` (``.NAME.lock`` in the results) for the block, else raise
    :class:`PanelError`: two runs under one name would overwrite each other's records.
    (The worker processes share the lock: after the run itself is killed, it is free once
    they end, within a deal or so.)"""
    path = RESULTS / f".{name}.lock"
    try:
        # (not through a symbolic link: the lock file is never written)
        descriptor = os.open(path, os.O_RDWR | os.O_CREAT | getattr(os, "O_NOFOLLOW", 0), 0o644)
    except OSError as error:
        raise PanelError(f"cannot open the lock file {str(path)!r}: {error.strerror}") from None
    with os.fdopen(descriptor, "rb") as lock:
        if not lock_exclusively(lock):
            raise PanelError(
                f"another run under the name {name!r} is running (or its workers are finishing)"
            )
        yield  # (the lock goes with the file's closing)


def write_output(path: Path, data: bytes) -> None:
    """Write ``data`` to ``path`` atomically, unless a symbolic link was put there since the
    run started (it would be written through): then raise :class:`PanelError`."""
    if path.is_symlink():
        raise PanelError(f"bad output file: {str(path)!r} is a symbolic link")
    write_atomic(path, data)


def check_outputs(name: str, presets: list[str]) -> None:
    """Refuse, quoting the path, outputs of run ``name`` that are symbolic links (a run
    would write through them, over another run's results) or files of another kind."""
    kinds = [
        (RESULTS / f"{name}{suffix}", "result", kind, looks_ours)
        for suffix, (kind, looks_ours) in RESULT_KINDS.items()
    ]
    kinds += [
        (records_path(name, p), "records", "a records file", lambda s: s.startswith(b"{"))
        for p in presets
    ]
    for path, what, kind, looks_ours in kinds:
        if path.is_symlink():
            raise PanelError(f"bad {what} file: {str(path)!r} is a symbolic link")
        check_replaceable_output(path, what, kind, looks_ours)


def run(
    presets: list[str],
    sizes: dict[str, tuple[int, int]],
    jobs: int,
    name: str,
    outside_deals: dict[str, int] | None = None,
) -> int:
    """Validate ``presets`` and write the merged tables; an exit code. ``outside_deals``
    limits outside players to their first fresh deals (by default they play all of them)."""
    report_path = RESULTS / f"{name}.json"
    merged = _saved_reports(report_path)
    code, validated = 0, False
    try:
        # (every preset's thresholds before the long fresh stages)
        trained = {preset: training(preset, sizes[preset][0], jobs, name) for preset in presets}
        for preset in presets:
            report = validate(preset, trained[preset], sizes[preset][1], jobs, name, outside_deals)
            merged[preset], validated = report, True
            print(f"{preset}: training thresholds {report['fitted_thresholds']}", flush=True)
            print(table([report]), flush=True)
    except KeyboardInterrupt:
        _tell("\ninterrupted: the records made so far are saved; run again to resume")
        code = interrupted_status()
    finally:  # (the presets done so far are kept, whatever stops the run)
        if validated:
            everything = [merged[p] for p in PRESETS if p in merged]
            write_output(report_path, orjson.dumps(everything, option=orjson.OPT_INDENT_2))
            write_output(RESULTS / f"{name}.md", table(everything).encode())
    return code


class _Parser(argparse.ArgumentParser):
    """Usage errors in one line (``--help`` shows the usage)."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: error: {message}\n")


def main(argv: list[str] | None = None) -> int:
    parser = _Parser(
        description=" ".join(__doc__.split("\n\n")[0].split()),
        epilog="Results go to benchmarks/results/NAME.json, NAME.md and NAME_deals_PRESET.json; "
        "a run resumes from the records an earlier run of the same name saved.",
    )
    parser.add_argument(
        "--presets",
        default=",".join(PRESETS),
        help=f"Comma-separated presets (default: all of {', '.join(PRESETS)}).",
    )
    parser.add_argument("--jobs", type=_positive, default=2, help="Worker processes (default: 2).")
    for option, kind, first, default in (
        ("--train", "Training", TRAIN_FIRST, TRAINING_DEALS),
        ("--fresh", "Fresh", FRESH_FIRST, FRESH_DEALS),
    ):
        listed = ", ".join(f"{preset} {n}" for preset, n in default.items())
        parser.add_argument(
            option,
            type=_positive,
            help=f"{kind} deals per preset, from {first} (default: {listed}).",
        )
    parser.add_argument(
        "--outside-deals",
        type=_outside_deals,
        default={},
        help="Comma-separated PLAYER=N: outside player PLAYER plays the solvable deals of the "
        "first N fresh deals only (default: every outside player plays every fresh deal).",
    )
    parser.add_argument(
        "--name",
        type=_name,
        default="grading_panel",
        help="File name stem of the results (default: grading_panel, the committed results, "
        "which only the default sizes may write).",
    )
    args = parser.parse_args(argv)
    presets = list(dict.fromkeys(args.presets.split(",")))
    unknown = [preset for preset in presets if preset not in PRESETS]
    if unknown:
        parser.error(f"unknown preset {unknown[0]!r} (graded presets: {', '.join(PRESETS)})")
    if args.train and args.train > FRESH_FIRST - TRAIN_FIRST:
        parser.error(f"--train {args.train} would reach the fresh deals ({FRESH_FIRST} on)")
    if args.fresh and args.fresh > MAX_FRESH:
        parser.error(f"--fresh {args.fresh} is more than {MAX_FRESH} deals")
    sizes = {p: (args.train or TRAINING_DEALS[p], args.fresh or FRESH_DEALS[p]) for p in presets}
    defaults = all(sizes[p] == (TRAINING_DEALS[p], FRESH_DEALS[p]) for p in presets)
    if not defaults and args.name == "grading_panel":
        parser.error("other sample sizes than the defaults need their own --name")
    stop_on_signals()
    try:
        guard_standard_output()
        check_outputs(args.name, presets)
        with only_run(args.name):
            return run(presets, sizes, args.jobs, args.name, args.outside_deals)
    except BrokenPipeError:  # (the reader of the output went away; the records are saved)
        exit_quietly_on_broken_pipe()
    except OutputError as error:
        if not stopped_by_signal():
            exit_on_output_error(error, parser.prog)
        return interrupted_status()  # (a hang-up took the terminal: nothing can be told)
    except (PanelError, OutputPathError, ExecutorError, OSError) as error:
        with contextlib.suppress(OSError):
            print(f"{parser.prog}: error: {error}", file=sys.stderr)
        return interrupted_status() if stopped_by_signal() else 1
    finally:
        ignore_stop_signals()  # (the work is done: a signal now must not kill the exit)


if __name__ == "__main__":
    sys.exit(main())
