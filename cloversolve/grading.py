"""Difficulty grading: measurable metrics of a deal and the rule that maps them to a grade.

Every metric is computed on the reference engine, deterministically: random choices come from
a generator seeded with the preset and the deal number, and the solver runs with node budgets
only (never a time limit), so the same deal always gets the same metrics on any machine.

Metrics of a deal (keys of :attr:`DealGrade.metrics`):

``playouts``, ``playout_wins``
    Seeded playouts of a simple *player model* without undo (see :func:`playout`): at every
    step it ranks the legal moves with the preset's move preference (``uniform``: all moves
    alike; ``dig``: moves that send cards home first, then moves that dig towards a card a
    foundation needs, see :func:`move_classes`) and picks at random among the best-ranked
    moves that do not return to a position already seen in that game.
``greedy_win``
    Whether the same player model wins when it always takes the first best-ranked move in the
    engine's move order (no randomness).
``first_moves``, ``safe_first_moves``, ``undecided_first_moves``
    How many legal first moves there are, after how many of them the deal is still winnable
    (solver, ``check_nodes`` budget each), and how many the budget left undecided.
``solver_nodes``
    Search nodes the solver used to find the catalogue route (solver effort).
``branching``
    Mean number of legal moves in the positions along that route (2 decimals).
``score``
    The value the grade is computed from (:data:`SCORES`): ``playout_rate`` is
    ``playout_wins / playouts`` rounded to 6 decimals (higher is easier); ``solver_nodes`` is
    the solver effort (lower is easier).

The rule (:func:`difficulty`), per preset (:data:`GRADING_RULES`): when higher scores are
easier, ``easy`` if ``score >= easy_threshold``, ``hard`` if ``score <= hard_threshold``;
when lower scores are easier, ``easy`` if ``score <= easy_threshold``, ``hard`` if ``score >=
hard_threshold``; ``normal`` otherwise. The thresholds are data, chosen per preset from the
distribution of scores of solvable deals, and every catalogue states the rule it was built
with. The other metrics are recorded for front ends and studies; they do not change the grade.

``playout_rate`` grades ``thirteen``, ``thirteen-return``, ``fifteen`` and ``cloverleaf``. In
``alexander`` simple players without undo almost never win (the fans of four need long
plans), so its playout rate cannot tell deals apart; the solver effort grades it instead.

The player model lives in :mod:`cloversolve.players`. Different player models, used only to
validate the grading (never to compute a grade), live beside the benchmark that runs them
(``benchmarks/grading_players.py``, ``benchmarks/grading_validation.py``).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable
from dataclasses import asdict, dataclass, field
from typing import Any

from .dealing import deal
from .notation import Move
from .players import POLICIES as POLICIES  # (re-exported: the player models live there)
from .players import move_classes as move_classes
from .players import playout
from .presets import find_preset
from .rules import Position, position_from_layout
from .search.common import Limits, Status
from .solver import search_position, solve

#: The three grades, easiest first.
DIFFICULTIES = ("easy", "normal", "hard")

#: Bumped whenever the metrics or the rule change meaning.
GRADING_VERSION = 1


class GradingError(ValueError):
    """A preset without a grading rule, or a malformed rule."""


def _playout_rate(metrics: dict[str, Any]) -> float:
    return round(metrics["playout_wins"] / metrics["playouts"], 6)


def _solver_nodes(metrics: dict[str, Any]) -> float:
    return metrics["solver_nodes"]


#: Score formulas: name -> (formula from the metrics, whether higher scores are easier).
SCORES: dict[str, tuple[Callable[[dict[str, Any]], float], bool]] = {
    "playout_rate": (_playout_rate, True),
    "solver_nodes": (_solver_nodes, False),
}


@dataclass(frozen=True)
class GradingRule:
    """The grading parameters of one preset (all of them are written into catalogues).

    Attributes:
        policy: the player model's move preference, ``uniform`` or ``dig``.
        playouts: seeded playouts per deal.
        max_steps: moves after which a playout counts as lost.
        score: the score formula, a key of :data:`SCORES`.
        easy_threshold: the score bound of ``easy`` (inclusive).
        hard_threshold: the score bound of ``hard`` (inclusive).
        solve_nodes: node budget of the solve that finds the route (deals it does not decide
            are left out of catalogues).
        check_nodes: node budget of each first-move check.
        max_memory: transposition-table bound of every solver call, in bytes.
        rule: the rule in words (derived; written into catalogues for readers).
    """

    policy: str
    playouts: int
    max_steps: int
    score: str
    easy_threshold: float
    hard_threshold: float
    solve_nodes: int
    check_nodes: int
    max_memory: int = 64 * 2**20
    version: int = GRADING_VERSION
    rule: str = ""

    def __post_init__(self) -> None:
        if self.policy not in POLICIES:
            raise GradingError(f"unknown player policy: {self.policy!r}")
        if self.score not in SCORES:
            raise GradingError(f"unknown score: {self.score!r} (known: {', '.join(SCORES)})")
        if self.playouts < 1 or self.max_steps < 1:
            raise GradingError("playouts and max_steps must be positive")
        easy, hard = self.easy_threshold, self.hard_threshold
        if not all(isinstance(x, int | float) and not isinstance(x, bool) for x in (easy, hard)):
            raise GradingError(f"grading thresholds must be numbers, got {easy!r} and {hard!r}")
        if (hard >= easy) if self.higher_is_easier else (hard <= easy):
            raise GradingError(
                f"grading thresholds {easy!r} (easy) and {hard!r} (hard) leave no room "
                f"for normal with score {self.score!r}"
            )
        words = self.describe()
        if self.rule and self.rule != words:
            raise GradingError(f"grading rule text {self.rule!r} does not match its fields")
        object.__setattr__(self, "rule", words)

    @property
    def higher_is_easier(self) -> bool:
        return SCORES[self.score][1]

    def describe(self) -> str:
        """The rule in words."""
        easy, hard = (">=", "<=") if self.higher_is_easier else ("<=", ">=")
        return (
            f"score = {self.score}; easy if score {easy} {self.easy_threshold}, "
            f"hard if score {hard} {self.hard_threshold}, normal otherwise"
        )

    def to_json(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_json(cls, data: Any) -> GradingRule:
        """The rule stated in a catalogue's parameters."""
        if not isinstance(data, dict):
            raise GradingError("a grading rule must be a JSON object")
        try:
            return cls(**data)
        except TypeError as error:
            raise GradingError(f"malformed grading rule: {error}") from None


# -- the rule -------------------------------------------------------------------------------

#: The grading rule of every preset that has catalogues. The thresholds come from the scores
#: of the solvable deals of a sample (deals 1..400 or more): roughly a third each for the
#: playout rate; for ``alexander``, whose solver effort predicts players less sharply, the
#: easiest fifth and the hardest sixth or so, so that the grades stay clearly apart.
GRADING_RULES: dict[str, GradingRule] = {
    "thirteen": GradingRule(
        policy="dig",
        playouts=16,
        max_steps=300,
        score="playout_rate",
        easy_threshold=0.75,
        hard_threshold=0.4375,
        solve_nodes=20_000_000,
        check_nodes=200_000,
    ),
    "thirteen-return": GradingRule(
        policy="dig",
        playouts=16,
        max_steps=300,
        score="playout_rate",
        easy_threshold=0.75,
        hard_threshold=0.4375,
        solve_nodes=20_000_000,
        check_nodes=200_000,
    ),
    "fifteen": GradingRule(
        policy="uniform",
        playouts=32,
        max_steps=48,
        score="playout_rate",
        easy_threshold=0.95,
        hard_threshold=0.375,
        solve_nodes=20_000_000,
        check_nodes=200_000,
    ),
    "cloverleaf": GradingRule(
        policy="dig",
        playouts=16,
        max_steps=150,
        score="playout_rate",
        easy_threshold=0.25,
        hard_threshold=0.0,
        solve_nodes=500_000,
        check_nodes=20_000,
    ),
    "alexander": GradingRule(
        policy="dig",
        playouts=16,
        max_steps=150,
        score="solver_nodes",
        easy_threshold=43,
        hard_threshold=300,
        solve_nodes=500_000,
        check_nodes=20_000,
    ),
}


def grading_rule(preset: str) -> GradingRule:
    """The grading rule of ``preset``; :class:`GradingError` if it has none."""
    spec = find_preset(preset)
    rule = GRADING_RULES.get(spec.name)
    if rule is None:
        raise GradingError(
            f"no grading rule for preset {spec.name!r} (graded: {', '.join(GRADING_RULES)})"
        )
    return rule


def difficulty(score: float, rule: GradingRule) -> str:
    """The grade of a deal whose score is ``score`` under ``rule``."""
    if rule.higher_is_easier:
        easy, hard = score >= rule.easy_threshold, score <= rule.hard_threshold
    else:
        easy, hard = score <= rule.easy_threshold, score >= rule.hard_threshold
    return "easy" if easy else "hard" if hard else "normal"


def score_of(metrics: dict[str, Any], rule: GradingRule) -> float:
    """The score of a deal's metrics under ``rule``."""
    return SCORES[rule.score][0](metrics)


# -- grading a deal ------------------------------------------------------------------------


@dataclass(frozen=True)
class DealGrade:
    """The verdict on a deal and, when it is solved within budget, its grade and metrics.

    ``status`` is ``solved``, ``unsolvable`` or ``limit``; the other fields are set only for
    solved deals. ``route`` is a list of move strings that the reference engine replays to a
    win.
    """

    preset: str
    number: int
    status: str
    difficulty: str | None = None
    metrics: dict[str, Any] = field(default_factory=dict)
    route: list[str] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


def playout_seed(preset: str, number: int) -> str:
    """The seed of a deal's playouts: the same on every machine and in every process."""
    return f"cloversolve-grading/{preset}/{number}"


def measure_playouts(position: Position, rule: GradingRule, seed: str) -> int:
    """How many of ``rule.playouts`` seeded playouts the player model wins."""
    rng = random.Random(seed)
    return sum(playout(position, rule.policy, rule.max_steps, rng) for _ in range(rule.playouts))


def first_move_safety(position: Position, family: str, rule: GradingRule) -> dict[str, int]:
    """How many legal first moves keep the position winnable (solver with a node budget)."""
    limits = Limits(max_nodes=rule.check_nodes, max_memory=rule.max_memory)
    safe = undecided = total = 0
    for move in list(position.legal_moves()):
        total += 1
        position.push(move)
        try:
            if position.is_won():
                status = Status.SOLVED
            else:
                status = search_position(position, family, limits).status
        finally:
            position.pop()
        safe += status is Status.SOLVED
        undecided += status is Status.LIMIT_REACHED
    return {"first_moves": total, "safe_first_moves": safe, "undecided_first_moves": undecided}


def mean_branching(position: Position, route: Iterable[Move]) -> float:
    """Mean number of legal moves in the positions the route passes through."""
    counts = []
    pushed = 0
    try:
        for move in route:
            counts.append(sum(1 for _ in position.legal_moves()))
            position.push(move)
            pushed += 1
    finally:
        for _ in range(pushed):
            position.pop()
    return round(sum(counts) / len(counts), 2) if counts else 0.0


def grade_deal(preset: str, number: int, rule: GradingRule | None = None) -> DealGrade:
    """Solve deal ``number`` of ``preset`` within the rule's budget and grade it.

    The route comes from :func:`cloversolve.solve`, which replays it in the reference engine.
    """
    spec = find_preset(preset)
    rule = rule or grading_rule(spec.name)
    result = solve(spec.name, number, max_nodes=rule.solve_nodes, max_memory=rule.max_memory)
    if result.status is not Status.SOLVED:
        return DealGrade(spec.name, number, result.status.value)
    position = position_from_layout(deal(spec.name, number))
    wins = measure_playouts(position, rule, playout_seed(spec.name, number))
    metrics: dict[str, Any] = {
        "playouts": rule.playouts,
        "playout_wins": wins,
        "greedy_win": playout(position, rule.policy, rule.max_steps),
        **first_move_safety(position, spec.family, rule),
        "solver_nodes": result.nodes,
        "branching": mean_branching(position, result.route),
    }
    metrics["score"] = score_of(metrics, rule)
    return DealGrade(
        spec.name,
        number,
        result.status.value,
        difficulty(metrics["score"], rule),
        metrics,
        result.route_strings,
    )


def grade_worker(preset: str, rule_json: dict[str, Any], number: int) -> dict[str, Any]:
    """A picklable worker for :mod:`cloversolve.parallel`: the JSON form of a deal's grade."""
    return grade_deal(preset, number, GradingRule.from_json(rule_json)).to_json()
