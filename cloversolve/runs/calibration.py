"""Fitting grading thresholds: to shares of training deals, or to outcomes players had.

:func:`share_thresholds` places the thresholds so that about a third of the deals fall in
each grade (how :data:`cloversolve.grading.grading.GRADING_RULES` was chosen on training deals).
:func:`fit_thresholds` chooses the thresholds under which the grades predict observed wins
best (highest likelihood of the outcomes when each grade wins at its own rate, grades ordered
Easy > Normal > Hard, each holding at least ``min_share`` of the deals). :func:`calibrate`
compares a rule's grades with the refitted ones on the same outcomes.
"""

from __future__ import annotations

import contextlib
import csv
import io
import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ..core.deal_numbers import check_deal_number
from ..core.jsonio import loads
from ..grading.grading import DIFFICULTIES, GradingRule, difficulty
from .study import wilson_interval


class OutcomesError(ValueError):
    """A malformed outcomes file."""


@dataclass(frozen=True)
class Outcome:
    """One game a player played: the deal, whether it was won, optionally moves and time."""

    number: int
    won: bool
    moves: int | None = None
    seconds: float | None = None


_TRUE = {"1", "true", "yes", "won", "win", "y", "t"}
_FALSE = {"0", "false", "no", "lost", "loss", "n", "f"}


def _won(value: Any, where: str) -> bool:
    if isinstance(value, bool):
        return value
    text = str(value).strip().lower()
    if text in _TRUE or text in _FALSE:
        return text in _TRUE
    if value is None or text == "":
        raise OutcomesError(f"{where}: no value for won")
    raise OutcomesError(f"{where}: won must be true/false, 1/0, yes/no or won/lost, got {value!r}")


def _moves(value: Any, where: str) -> int | None:
    """A move count: a whole number 0 or more (``None`` when not given)."""
    if value is None or value == "":
        return None
    text = value.strip() if isinstance(value, str) else value
    if isinstance(text, int) and not isinstance(text, bool) and text >= 0:
        return text
    if isinstance(text, str) and text.isascii() and text.isdigit():
        return int(text)
    raise OutcomesError(f"{where}: moves must be a whole number 0 or more, got {value!r}")


def _seconds(value: Any, where: str) -> float | None:
    """A time: a finite number of seconds, 0 or more (``None`` when not given)."""
    if value is None or value == "":
        return None
    seconds = math.nan
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        seconds = float(value)
    elif isinstance(value, str):
        with contextlib.suppress(ValueError):
            seconds = float(value.strip())
    if not (math.isfinite(seconds) and seconds >= 0):
        raise OutcomesError(f"{where}: seconds must be a finite number 0 or more, got {value!r}")
    return seconds


def _deal(value: Any, where: str) -> int:
    """A deal number: a whole number 1 .. 10**20-1, as a JSON integer or digits."""
    text = value.strip() if isinstance(value, str) else value
    if isinstance(text, int) and not isinstance(text, bool):
        text = str(text)
    try:
        if not (isinstance(text, str) and text.isascii() and text.isdigit()):
            raise ValueError
        return check_deal_number(int(text))
    except ValueError:
        raise OutcomesError(f"{where}: bad deal number {value!r}") from None


def _outcome(row: Mapping[str, Any], where: str) -> Outcome:
    number = row.get("deal", row.get("number"))
    if number is None or "won" not in row:
        raise OutcomesError(f"{where}: needs a deal (or number) and won, got {dict(row)!r}")
    return Outcome(
        _deal(number, where),
        _won(row["won"], where),
        _moves(row.get("moves"), where),
        _seconds(row.get("seconds", row.get("time")), where),
    )


def parse_outcomes(text: str) -> list[Outcome]:
    """Outcomes from CSV (a header naming ``deal`` and ``won``, optionally ``moves`` and
    ``seconds``) or JSON lines (objects with the same keys), told apart by the content: JSON
    lines when the first line that is not blank starts with ``{``. ``deal`` is a deal number,
    ``won`` true/false, 1/0, yes/no or won/lost, ``moves`` a whole number 0 or more and
    ``seconds`` a finite number 0 or more."""
    stripped = text.lstrip()
    outcomes = []
    if stripped.startswith("["):
        raise OutcomesError(
            "a JSON array is not an outcomes file: give JSON lines (one object a line, "
            'e.g. {"deal": 5, "won": true}) or CSV with a header naming deal and won'
        )
    if stripped.startswith("{"):
        for index, line in enumerate(text.splitlines(), 1):
            if not line.strip():
                continue
            try:
                row = loads(line.encode())
            except (ValueError, RecursionError):
                raise OutcomesError(f"line {index}: not a JSON object: {line[:60]!r}") from None
            if not isinstance(row, dict):
                raise OutcomesError(f"line {index}: not a JSON object: {line[:60]!r}")
            outcomes.append(_outcome(row, f"line {index}"))
    else:
        reader = csv.DictReader(io.StringIO(text))
        fields = {name.strip() for name in reader.fieldnames or ()}
        if "won" not in fields or not fields & {"deal", "number"}:
            if reader.fieldnames is None:
                raise OutcomesError("the file holds no outcomes (not even a header)")
            raise OutcomesError(f"the CSV header must name deal and won, got {reader.fieldnames}")
        for index, row in enumerate(reader, 2):
            if None in row:
                raise OutcomesError(f"line {index}: more fields than the header names")
            clean = {(k or "").strip(): v for k, v in row.items()}
            outcomes.append(_outcome(clean, f"line {index}"))
    if not outcomes:
        raise OutcomesError("no outcomes")
    return outcomes


def share_thresholds(scores: Sequence[float], share: float = 1 / 3) -> tuple[float, float]:
    """``(easy, hard)`` thresholds that put as near ``share`` of the scores in Easy (score
    >= easy) and in Hard (score <= hard) as the ties allow, with room for Normal."""
    values = sorted(set(scores))
    if len(values) < 3:
        raise ValueError("thresholds need at least three distinct scores")
    n = len(scores)

    def above(v: float) -> float:
        return sum(s >= v for s in scores) / n

    def below(v: float) -> float:
        return sum(s <= v for s in scores) / n

    hard = min(values[:-2], key=lambda v: abs(below(v) - share))
    easy = min((v for v in values if v > hard), key=lambda v: (v <= hard, abs(above(v) - share)))
    if not any(hard < s < easy for s in values):
        easy = min(v for v in values if v > hard and any(hard < s < v for s in values))
    return easy, hard


def _log_likelihood(groups: Iterable[tuple[int, int]]) -> float:
    """Log-likelihood of wins when each group wins at its own observed rate."""
    total = 0.0
    for wins, games in groups:
        for k in (wins, games - wins):
            if k:
                total += k * math.log(k / games)
    return total


def fit_thresholds(
    scored: Sequence[tuple[float, int, int]], min_share: float = 0.1
) -> tuple[float, float]:
    """``(easy, hard)`` thresholds that predict outcomes best: ``scored`` holds ``(score,
    wins, games)`` per deal. Each grade keeps at least ``min_share`` of the deals and the
    grades' win rates are ordered Easy > Normal > Hard."""
    values = sorted({s for s, _, _ in scored})
    n = len(scored)
    by_value = {v: [0, 0, 0] for v in values}
    for score, wins, games in scored:
        by_value[score][0] += 1
        by_value[score][1] += wins
        by_value[score][2] += games
    best: tuple[float, float, float] | None = None
    for i, hard in enumerate(values):
        for easy in values[i + 2 :]:
            cells = {"easy": [0, 0, 0], "normal": [0, 0, 0], "hard": [0, 0, 0]}
            for v, counts in by_value.items():
                level = "easy" if v >= easy else "hard" if v <= hard else "normal"
                for k in range(3):
                    cells[level][k] += counts[k]
            if min(c[0] for c in cells.values()) < min_share * n:
                continue
            rates = [cells[level][1] / max(cells[level][2], 1) for level in DIFFICULTIES]
            if not rates[0] > rates[1] > rates[2]:
                continue
            fit = _log_likelihood((c[1], c[2]) for c in cells.values())
            if best is None or fit > best[0]:
                best = (fit, easy, hard)
    if best is None:
        raise ValueError(
            "no thresholds give ordered grades with enough deals each (too few outcomes, or "
            "outcomes that the scores do not order)"
        )
    return best[1], best[2]


def grade_report(
    scores: Mapping[int, float], outcomes: Sequence[Outcome], rule: GradingRule
) -> dict[str, Any]:
    """How well ``rule``'s grades predict ``outcomes``: per grade the deals, games, wins,
    win rate and Wilson 95% interval; the log-loss and Brier score of predicting each game by
    its grade's win rate; and whether the rates are ordered Easy > Normal > Hard."""
    deals: dict[str, set[int]] = {level: set() for level in DIFFICULTIES}
    played = dict.fromkeys(DIFFICULTIES, 0)
    won = dict.fromkeys(DIFFICULTIES, 0)
    for outcome in outcomes:
        level = difficulty(scores[outcome.number], rule)
        deals[level].add(outcome.number)
        played[level] += 1
        won[level] += outcome.won
    rows: dict[str, Any] = {}
    loss = brier = 0.0
    for level in DIFFICULTIES:
        games, wins = played[level], won[level]
        rate = wins / games if games else None
        low, high = wilson_interval(wins, games)
        rows[level] = {
            "deals": len(deals[level]),
            "games": games,
            "wins": wins,
            "rate": None if rate is None else round(rate, 4),
            "interval_95": [round(low, 4), round(high, 4)],
        }
        if games:
            p = min(max(rate or 0.0, 1e-6), 1 - 1e-6)
            loss -= wins * math.log(p) + (games - wins) * math.log(1 - p)
            brier += wins * (1 - p) ** 2 + (games - wins) * p**2
    games = len(outcomes)
    known = [rows[level]["rate"] for level in DIFFICULTIES if rows[level]["rate"] is not None]
    return {
        "thresholds": {"easy": rule.easy_threshold, "hard": rule.hard_threshold},
        "by_difficulty": rows,
        "log_loss": round(loss / games, 4),
        "brier": round(brier / games, 4),
        "ordered": len(known) == 3 and known[0] > known[1] > known[2],
    }


def calibrate(
    scores: Mapping[int, float],
    outcomes: Sequence[Outcome],
    rule: GradingRule,
    min_share: float = 0.1,
) -> dict[str, Any]:
    """Refit ``rule``'s thresholds on ``outcomes`` (``scores``: each deal's panel score) and
    report how well the old and the new grades predict them."""
    scored: dict[int, list[int]] = {}
    for outcome in outcomes:
        cell = scored.setdefault(outcome.number, [0, 0])
        cell[0] += outcome.won
        cell[1] += 1
    easy, hard = fit_thresholds(
        [(scores[n], wins, games) for n, (wins, games) in scored.items()], min_share
    )
    new = rule.with_thresholds(easy, hard)
    return {
        "deals": len(scored),
        "games": len(outcomes),
        "old": grade_report(scores, outcomes, rule),
        "new": grade_report(scores, outcomes, new),
        "rule": new.to_json(),
    }
