"""Difficulty grading: measurable metrics of a deal and the rule that maps them to a grade.

Every metric is computed on the reference engine, deterministically: random choices come from
generators seeded with the preset, the deal number and the player's name, and the solver runs
with node budgets only (never a time limit), so the same deal always gets the same metrics on
any machine.

Metrics of a deal (keys of :attr:`DealGrade.metrics`):

``panel_games``, ``panel_wins``
    Each player model of the rule's *panel* (:mod:`cloversolve.grading.players`; a family's panel is
    named in its registry record) plays ``panel_games`` seeded games of the deal without
    undo (the ``patient`` player excepted, who undoes within a limited patience);
    ``panel_wins`` maps each player to the games it won.
``first_moves``, ``safe_first_moves``, ``undecided_first_moves``
    How many legal first moves there are, after how many of them the deal is still winnable
    (solver, ``check_nodes`` budget each), and how many the budget left undecided.
``solver_nodes``
    Search nodes the solver used to find the catalogue route (solver effort).
``branching``
    Mean number of legal moves in the positions along that route (2 decimals).
``score``
    ``panel_mean``: the mean of the panel players' win rates, rounded to 6 decimals (higher
    is easier). It rests on play alone, never on search internals, so changes to the solver
    leave grades where they are.

The rule (:func:`difficulty`, :data:`GRADING_RULES`): ``easy`` if ``score >= easy_threshold``,
``hard`` if ``score <= hard_threshold``, ``normal`` otherwise. The thresholds are data, chosen
per preset on training deals (see :data:`GRADING_RULES`); ``cloversolve grading calibrate``
refits them on outcomes a front end observed. Every catalogue states the rule it was built
with. The other metrics are recorded for front ends and studies; they do not change the grade.

Grading version 1 (catalogues built before the panel) graded by one player's playout rate or,
in ``alexander``, by solver nodes; :class:`PlayoutRule` still reads and checks such
catalogues.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable
from dataclasses import asdict, dataclass, field
from typing import Any

from ..core.notation import Move
from ..games import shipped_presets
from ..games.dealing import deal
from ..games.records import Preset
from ..games.registry import PRESETS, find_preset
from ..rules import Position, position_from_layout
from ..search.common import Limits, Status
from ..solving.solver import search_position, solve
from .players import PLAYERS, Strength, player_wins, playout
from .players import POLICIES as POLICIES  # (re-exported: the player models live there)
from .players import move_classes as move_classes

#: The three grades, easiest first.
DIFFICULTIES = ("easy", "normal", "hard")

#: Bumped whenever the metrics or the rule change meaning.
GRADING_VERSION = 2

#: Grading versions whose catalogues this toolkit still reads and checks.
KNOWN_GRADING_VERSIONS = (1, GRADING_VERSION)


class GradingError(ValueError):
    """A preset without a grading rule, or a malformed rule."""


def _check_thresholds(easy: Any, hard: Any, higher_is_easier: bool, score: str) -> None:
    if not all(isinstance(x, int | float) and not isinstance(x, bool) for x in (easy, hard)):
        raise GradingError(f"grading thresholds must be numbers, got {easy!r} and {hard!r}")
    if (hard >= easy) if higher_is_easier else (hard <= easy):
        raise GradingError(
            f"grading thresholds {easy!r} (easy) and {hard!r} (hard) leave no room "
            f"for normal with score {score!r}"
        )


def panel_score(wins: dict[str, int], games: int) -> float:
    """The mean of the players' win rates (``wins`` per player out of ``games`` each)."""
    return round(sum(w / games for w in wins.values()) / len(wins), 6)


@dataclass(frozen=True)
class GradingRule:
    """The grading parameters of one preset (all of them are written into catalogues).

    Attributes:

    - ``panel``: the player models whose win rates make the score (names in
      :data:`!cloversolve.grading.players.PLAYERS`).
    - ``games``: seeded games each player plays per deal.
    - ``max_steps``: moves after which a game counts as lost.
    - ``depth``: the ``planner``'s lookahead (moves before a card goes home).
    - ``patience``: positions the ``patient`` player visits before giving up.
    - ``easy_threshold``: the score bound of ``easy`` (inclusive).
    - ``hard_threshold``: the score bound of ``hard`` (inclusive).
    - ``solve_nodes``: node budget of the solve that finds the route (deals it does not decide
      are left out of catalogues).
    - ``check_nodes``: node budget of each first-move check.
    - ``max_memory``: transposition-table bound of every solver call, in bytes.
    - ``score``: ``panel_mean`` (the mean of the players' win rates; higher is easier).
    - ``rule``: the rule in words (derived; written into catalogues for readers).
    """

    panel: tuple[str, ...]
    games: int
    max_steps: int
    depth: int
    patience: int
    easy_threshold: float
    hard_threshold: float
    solve_nodes: int
    check_nodes: int
    max_memory: int = 64 * 2**20
    score: str = "panel_mean"
    version: int = GRADING_VERSION
    rule: str = ""

    higher_is_easier = True

    def __post_init__(self) -> None:
        if isinstance(self.panel, list):
            object.__setattr__(self, "panel", tuple(self.panel))
        if self.version != GRADING_VERSION:
            raise GradingError(f"a panel rule is grading version {GRADING_VERSION}")
        if self.score != "panel_mean":
            raise GradingError(f"unknown score: {self.score!r} (known: panel_mean)")
        unknown = [p for p in self.panel if p not in PLAYERS]
        if not self.panel or unknown or len(set(self.panel)) != len(self.panel):
            raise GradingError(
                f"a panel names distinct known players, got {list(self.panel)!r} "
                f"(known: {', '.join(PLAYERS)})"
            )
        numbers = (self.games, self.max_steps, self.depth, self.patience)
        if not all(isinstance(x, int) and not isinstance(x, bool) and x >= 1 for x in numbers):
            raise GradingError("games, max_steps, depth and patience must be positive integers")
        _check_thresholds(self.easy_threshold, self.hard_threshold, True, self.score)
        words = self.describe()
        if self.rule and self.rule != words:
            raise GradingError(f"grading rule text {self.rule!r} does not match its fields")
        object.__setattr__(self, "rule", words)

    @property
    def strength(self) -> Strength:
        return Strength(self.max_steps, self.depth, self.patience)

    def describe(self) -> str:
        """The rule in words."""
        return (
            f"score = mean win rate of {', '.join(self.panel)} ({self.games} games each); "
            f"easy if score >= {self.easy_threshold}, hard if score <= {self.hard_threshold}, "
            "normal otherwise"
        )

    def score_of(self, metrics: dict[str, Any]) -> float:
        """The score of a deal's metrics."""
        wins = metrics["panel_wins"]
        if set(wins) != set(self.panel):
            raise KeyError(f"panel_wins names {sorted(wins)}, the rule's panel {list(self.panel)}")
        return panel_score(wins, metrics["panel_games"])

    def metric_problems(self, metrics: dict[str, Any]) -> list[str]:
        """What is impossible in a deal's recorded play metrics."""
        wins, games = metrics.get("panel_wins"), metrics.get("panel_games")
        if not isinstance(wins, dict) or not isinstance(games, int):
            return ["no panel_wins and panel_games"]
        if games != self.games:
            return [f"panel_games is {games}, the rule plays {self.games}"]
        return [f"{p} won {w} of {games} games" for p, w in wins.items() if w > games]

    def play(self, position: Position, seed: str) -> dict[str, Any]:
        """The play metrics of a position: every panel player's wins."""
        wins = {p: player_wins(position, p, self.games, self.strength, seed) for p in self.panel}
        return {"panel_games": self.games, "panel_wins": wins}

    def with_thresholds(self, easy: float, hard: float) -> GradingRule:
        """The same rule with other thresholds."""
        data = {**self.to_json(), "easy_threshold": easy, "hard_threshold": hard, "rule": ""}
        return GradingRule(**data)

    def to_json(self) -> dict[str, Any]:
        data = asdict(self)
        data["panel"] = list(self.panel)
        return data

    @classmethod
    def from_json(cls, data: Any) -> GradingRule | PlayoutRule:
        """The rule stated in a catalogue's parameters (grading version 1 or 2)."""
        if not isinstance(data, dict):
            raise GradingError("a grading rule must be a JSON object")
        version = data.get("version")
        if version not in KNOWN_GRADING_VERSIONS:
            raise GradingError(
                f"grading version {version!r} is not one this toolkit knows "
                f"({', '.join(map(str, KNOWN_GRADING_VERSIONS))})"
            )
        kind: type[GradingRule] | type[PlayoutRule] = (
            cls if version == GRADING_VERSION else (PlayoutRule)
        )
        try:
            return kind(**data)
        except TypeError as error:
            raise GradingError(f"malformed grading rule: {error}") from None


# -- grading version 1 (read and checked, no longer built) ---------------------------------


def _playout_rate(metrics: dict[str, Any]) -> float:
    return round(metrics["playout_wins"] / metrics["playouts"], 6)


def _solver_nodes(metrics: dict[str, Any]) -> float:
    return metrics["solver_nodes"]


#: Version-1 score formulas: name -> (formula from the metrics, whether higher is easier).
SCORES: dict[str, tuple[Callable[[dict[str, Any]], float], bool]] = {
    "playout_rate": (_playout_rate, True),
    "solver_nodes": (_solver_nodes, False),
}


@dataclass(frozen=True)
class PlayoutRule:
    """A grading-version-1 rule: one player model's playout rate (``policy``, ``playouts``
    games) or the solver effort is the score. Catalogues built with it still verify."""

    policy: str
    playouts: int
    max_steps: int
    score: str
    easy_threshold: float
    hard_threshold: float
    solve_nodes: int
    check_nodes: int
    max_memory: int = 64 * 2**20
    version: int = 1
    rule: str = ""

    def __post_init__(self) -> None:
        if self.version != 1:
            raise GradingError("a playout rule is grading version 1")
        if self.policy not in POLICIES:
            raise GradingError(f"unknown player policy: {self.policy!r}")
        if self.score not in SCORES:
            raise GradingError(f"unknown score: {self.score!r} (known: {', '.join(SCORES)})")
        if self.playouts < 1 or self.max_steps < 1:
            raise GradingError("playouts and max_steps must be positive")
        _check_thresholds(
            self.easy_threshold, self.hard_threshold, self.higher_is_easier, self.score
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

    def score_of(self, metrics: dict[str, Any]) -> float:
        return SCORES[self.score][0](metrics)

    def metric_problems(self, metrics: dict[str, Any]) -> list[str]:
        playouts = metrics.get("playouts")
        if playouts != self.playouts:
            return [f"playouts is {playouts}, the rule plays {self.playouts}"]
        if metrics.get("playout_wins", 0) > playouts:
            return ["more playout wins than playouts"]
        return []

    def play(self, position: Position, seed: str) -> dict[str, Any]:
        return {
            "playouts": self.playouts,
            "playout_wins": measure_playouts(position, self, seed),
            "greedy_win": playout(position, self.policy, self.max_steps),
        }

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


#: A rule of any grading version this toolkit reads.
AnyRule = GradingRule | PlayoutRule


# -- the rule -------------------------------------------------------------------------------


def _panel_rule(preset: Preset) -> GradingRule:
    """A preset's grading rule: its registry record's grading parameters (where the
    thresholds' training deals are told) with its family's panel; :class:`GradingError` if
    it is not graded."""
    if preset.grading is None:
        graded = [name for name, p in PRESETS.items() if p.grading is not None]
        raise GradingError(
            f"no grading rule for preset {preset.name!r} (graded: {', '.join(graded)})"
        )
    return GradingRule(panel=preset.rule_family.grading_panel, **asdict(preset.grading))


#: The grading rule of every graded preset of the package (:func:`grading_rule` reads the
#: record of any registered preset, those added with :func:`cloversolve.games.register` too).
GRADING_RULES: dict[str, GradingRule] = {
    preset.name: _panel_rule(preset) for preset in shipped_presets() if preset.grading is not None
}


#: The grading-version-1 rules (one player's playout rate, or solver nodes in ``alexander``;
#: :attr:`cloversolve.games.Preset.first_grading`): catalogues built with them are checked
#: against these until they are rebuilt.
PREVIOUS_GRADING_RULES: dict[str, PlayoutRule] = {
    preset.name: PlayoutRule(**asdict(preset.first_grading))
    for preset in shipped_presets()
    if preset.first_grading is not None
}


def grading_rule(preset: str) -> GradingRule:
    """The grading rule of ``preset``; :class:`GradingError` if it has none."""
    return _panel_rule(find_preset(preset))


def grading_rule_of_version(preset: str, version: int) -> AnyRule:
    """The toolkit's grading rule of ``preset`` in grading ``version`` (a previous version's
    rule checks the catalogues built with it)."""
    if version == GRADING_VERSION:
        return grading_rule(preset)
    spec = find_preset(preset)
    if version != 1 or spec.first_grading is None:
        raise GradingError(f"no grading rule of version {version!r} for preset {spec.name!r}")
    return PlayoutRule(**asdict(spec.first_grading))


def difficulty(score: float, rule: AnyRule) -> str:
    """The grade of a deal whose score is ``score`` under ``rule``."""
    if rule.higher_is_easier:
        easy, hard = score >= rule.easy_threshold, score <= rule.hard_threshold
    else:
        easy, hard = score <= rule.easy_threshold, score >= rule.hard_threshold
    return "easy" if easy else "hard" if hard else "normal"


def score_of(metrics: dict[str, Any], rule: AnyRule) -> float:
    """The score of a deal's metrics under ``rule``."""
    return rule.score_of(metrics)


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
    """The seed of a deal's games: the same on every machine and in every process."""
    return f"cloversolve-grading/{preset}/{number}"


def measure_playouts(position: Position, rule: PlayoutRule, seed: str) -> int:
    """How many of ``rule.playouts`` seeded playouts a version-1 player model wins."""
    rng = random.Random(seed)
    return sum(playout(position, rule.policy, rule.max_steps, rng) for _ in range(rule.playouts))


def play_metrics(preset: str, number: int, rule: AnyRule | None = None) -> dict[str, Any]:
    """The play metrics and score of deal ``number`` (no solving): what the grade rests on."""
    spec = find_preset(preset)
    rule = rule or grading_rule(spec.name)
    position = position_from_layout(deal(spec.name, number))
    metrics = rule.play(position, playout_seed(spec.name, number))
    metrics["score"] = score_of(metrics, rule)
    return metrics


def first_move_safety(position: Position, family: str, rule: AnyRule) -> dict[str, int]:
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


def grade_deal(preset: str, number: int, rule: AnyRule | None = None) -> DealGrade:
    """Solve deal ``number`` of ``preset`` within the rule's budget and grade it: every
    metric and the grade, recomputed from the deal number alone (``rule`` defaults to the
    preset's current rule; a catalogue's stated rule, of any known version, reproduces its
    entries).

    The route comes from :func:`cloversolve.solve`, which replays it in the reference engine.
    """
    spec = find_preset(preset)
    rule = rule or grading_rule(spec.name)
    result = solve(spec.name, number, max_nodes=rule.solve_nodes, max_memory=rule.max_memory)
    if result.status is not Status.SOLVED:
        return DealGrade(spec.name, number, result.status.value)
    position = position_from_layout(deal(spec.name, number))
    metrics: dict[str, Any] = {
        **rule.play(position, playout_seed(spec.name, number)),
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
    """A picklable worker for :mod:`cloversolve.runs.executors`: the JSON form of a deal's grade."""
    return grade_deal(preset, number, GradingRule.from_json(rule_json)).to_json()
