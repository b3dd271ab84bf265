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

:func:`planner_wins` and :func:`patient_player_wins` are different player models (lookahead;
depth-first search with undo and a limited patience), used only to validate the grading: the
preset's validation player must win Easy deals more often than Normal ones and Normal more
often than Hard ones (``benchmarks/grading_validation.py``).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Iterator
from dataclasses import asdict, dataclass, field
from typing import Any

from .dealing import deal
from .notation import Group, Move, Transfer
from .presets import find_preset
from .rules import Position, position_from_layout
from .rules.clover import CloverPosition
from .rules.fifteen import FifteenPosition
from .rules.thirteen import ThirteenPosition
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


# -- player models --------------------------------------------------------------------------

#: A move preference: the legal moves of a position in classes, best class first.
MoveClasses = Callable[[Position], list[list[Move]]]


def _is_home_move(move: Move) -> bool:
    return isinstance(move, Group) or (isinstance(move, Transfer) and move.dst == "F")


def _uniform_classes(position: Position) -> list[list[Move]]:
    """Every legal move alike."""
    return [list(position.legal_moves())]


def _thirteen_dig(position: ThirteenPosition) -> list[list[Move]]:
    """Four Leaf Clovers: home moves (those exposing the next rank first); then moves off a
    pile holding the needed rank, the shallower that card the better, not onto a pile holding
    it, not emptying a pile; then the other pile moves. A move that takes away the last King
    lying at the bottom of a pile comes last (FACTS.md fact 1: it loses unless it wins).
    Foundation returns are never made."""
    need = position.needed_rank
    after = need % position.ranks + 1
    piles = position.piles
    top = position.ranks
    king_bottoms = sum(1 for pile in piles if pile and pile[0].rank == top)
    cards_left = sum(len(pile) for pile in piles)
    ranked: dict[tuple, list[Move]] = {}
    for move in position.legal_moves():
        src, dst = move
        if src == "F":
            continue
        pile = piles[src - 1]
        empties = len(pile) == 1
        keeps_king = not (empties and pile[0].rank == top and king_bottoms == 1) or cards_left == 1
        if dst == "F":
            exposes = len(pile) > 1 and pile[-2].rank == after
            score: tuple = (keeps_king, 2, exposes, not empties, 0)
        else:
            target = piles[dst - 1]
            depth = _depth_of(pile[:-1], lambda card: card.rank == need)
            buries = any(card.rank == need for card in target)
            score = (
                keeps_king,
                1 if depth is not None else 0,
                not buries,
                not empties,
                -(depth or 0),
            )
        ranked.setdefault(score, []).append(move)
    return [ranked[key] for key in sorted(ranked, reverse=True)]


def _clover_dig(position: CloverPosition) -> list[list[Move]]:
    """Clover Leaf / Alexander: moves that send a card home or uncover a card a foundation
    needs next (the automatic moves then take it); then moves off a fan holding such a card,
    the shallower the better, not onto a fan holding one; then the other fan moves.
    Foundation returns are never made."""
    wanted = {position.foundation_next(suit) for suit in "CDHS"} - {None}
    ranked: dict[tuple, list[Move]] = {}
    for move in position.legal_moves():
        src, dst = move
        if isinstance(src, str):
            continue
        fan = position.fans[src - 1]
        uncovers = len(fan) > 1 and fan[-2] in wanted
        depth = _depth_of(fan[:-1], lambda card: card in wanted)
        buries = dst != "F" and any(card in wanted for card in position.fans[dst - 1])
        score = (dst == "F" or uncovers, depth is not None, not buries, -(depth or 0))
        ranked.setdefault(score, []).append(move)
    return [ranked[key] for key in sorted(ranked, reverse=True)]


def _depth_of(pile: list, wanted: Callable[[Any], bool]) -> int | None:
    """How many cards lie above the topmost wanted card of ``pile`` (bottom to top)."""
    for depth, card in enumerate(reversed(pile)):
        if wanted(card):
            return depth
    return None


def _dig_classes(position: Position) -> list[list[Move]]:
    if isinstance(position, ThirteenPosition):
        return _thirteen_dig(position)
    if isinstance(position, CloverPosition):
        return _clover_dig(position)
    home = [m for m in position.legal_moves() if _is_home_move(m)]
    rest = [m for m in position.legal_moves() if not _is_home_move(m)]
    return [group for group in (home, rest) if group]


POLICIES: dict[str, MoveClasses] = {"uniform": _uniform_classes, "dig": _dig_classes}


def move_classes(position: Position, policy: str) -> list[list[Move]]:
    """The legal moves of ``position`` ranked by ``policy``: classes of equally good moves,
    best class first, each in the engine's move order."""
    return POLICIES[policy](position)


def _choose(
    position: Position,
    classes: list[list[Move]],
    seen: set,
    rng: random.Random | None,
) -> Move | None:
    """The first move of the best class (in random order when ``rng`` is given) whose
    position was not seen yet; ``None`` when every move repeats a position."""
    for moves in classes:
        order = list(moves)
        if rng is not None:
            rng.shuffle(order)
        for move in order:
            position.push(move)
            fresh = position.key() not in seen
            position.pop()
            if fresh:
                return move
    return None


def playout(
    position: Position, policy: str, max_steps: int, rng: random.Random | None = None
) -> bool:
    """Play one game with the player model; True if it wins. ``position`` is restored.

    Without ``rng`` the player is greedy: always the first move of the best class.
    """
    seen = {position.key()}
    pushed = 0
    try:
        while pushed < max_steps and not position.is_won():
            move = _choose(position, move_classes(position, policy), seen, rng)
            if move is None:
                break
            position.push(move)
            pushed += 1
            seen.add(position.key())
        return position.is_won()
    finally:
        for _ in range(pushed):
            position.pop()


def _progress(position: Position) -> int:
    """Cards home: on the foundations, or removed from the game in ``fifteen``."""
    if isinstance(position, ThirteenPosition):
        return len(position.foundation)
    if isinstance(position, CloverPosition):
        return sum(position.heights.values())
    if isinstance(position, FifteenPosition):
        return -position.cards_left()
    layout = position.to_layout(None)  # type: ignore[arg-type]
    return sum(len(cards) for _, cards in layout.foundations)


def patient_player_wins(position: Position, patience: int, seed: str) -> bool:
    """A player who undoes: a depth-first search with a limited patience.

    It tries the moves that put the most cards home first (ties in a seeded random order),
    never revisits a position, and gives up after ``patience`` positions. This model is used
    only to validate the grading, never to compute a grade. ``position`` is restored.
    """
    rng = random.Random(seed)
    seen: set = set()
    stack: list[Iterator[Move]] = []
    visited = 0

    def ordered_moves() -> Iterator[Move]:
        before = _progress(position)
        scored = []
        for move in position.legal_moves():
            position.push(move)
            scored.append((before - _progress(position), rng.random(), move))
            position.pop()
        scored.sort(key=lambda item: (item[0], item[1]))
        return iter([move for _, _, move in scored])

    def enter() -> bool:
        nonlocal visited
        key = position.key()
        if key in seen:
            return False
        seen.add(key)
        visited += 1
        stack.append(ordered_moves())
        return True

    enter()
    depth = 0
    try:
        while stack:
            if position.is_won():
                return True
            if visited >= patience:
                return False
            move = next(stack[-1], None)
            if move is None:
                stack.pop()
                if stack:
                    position.pop()
                    depth -= 1
                continue
            position.push(move)
            depth += 1
            if not enter():
                position.pop()
                depth -= 1
        return False
    finally:
        for _ in range(depth):
            position.pop()


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


# -- validation players (never used to grade) ---------------------------------------------


def _is_lost(position: Position) -> bool:
    """A loss any experienced player sees: in Four Leaf Clovers, no King left at the bottom of
    a pile (FACTS.md fact 1) while the game is not won."""
    if isinstance(position, ThirteenPosition) and not position.is_won():
        return not any(pile and pile[0].rank == position.ranks for pile in position.piles)
    return False


def _open_piles(position: Position) -> int:
    """Non-empty piles: the places a Four Leaf Clovers player can still build on."""
    if isinstance(position, ThirteenPosition):
        return sum(1 for pile in position.piles if pile)
    if isinstance(position, CloverPosition):
        return -sum(1 for fan in position.fans if not fan)
    return 0


def planner_wins(position: Position, depth: int, seed: str, max_steps: int = 400) -> bool:
    """A player with lookahead: before each card it sends home, it looks for the shortest
    sequence of at most ``depth`` other moves after which a move puts a card home.

    Among the shortest plans it prefers those that leave the most piles to build on, then
    picks one at random (seeded). It never returns to a position seen in the game, never makes
    a move after which the game is visibly lost, never takes cards back from a foundation, and
    gives up when no plan exists. ``position`` is restored.
    """
    rng = random.Random(seed)
    seen = {position.key()}
    pushed = 0
    try:
        while pushed < max_steps and not position.is_won():
            plan = _shortest_plan(position, depth, seen, rng)
            if plan is None:
                break
            for move in plan:
                position.push(move)
                pushed += 1
                seen.add(position.key())
        return position.is_won()
    finally:
        for _ in range(pushed):
            position.pop()


def _shortest_plan(
    position: Position, depth: int, seen: set, rng: random.Random
) -> tuple[Move, ...] | None:
    """Breadth-first: the plans of the fewest preparatory moves that end with a card home."""
    frontier: list[tuple[Move, ...]] = [()]
    visited = set(seen)
    for level in range(depth + 1):
        plans: list[tuple[int, tuple[Move, ...]]] = []
        following: list[tuple[Move, ...]] = []
        for prefix in frontier:
            for move in prefix:
                position.push(move)
            before = _progress(position)
            for move in list(position.legal_moves()):
                if isinstance(move, Transfer) and isinstance(move.src, str):
                    continue
                position.push(move)
                key = position.key()
                usable = key not in visited and not _is_lost(position)
                if usable and _progress(position) > before:
                    plans.append((_open_piles(position), (*prefix, move)))
                elif usable and level < depth:
                    visited.add(key)
                    following.append((*prefix, move))
                position.pop()
            for _ in prefix:
                position.pop()
        if plans:
            best = max(score for score, _ in plans)
            choices = [plan for score, plan in plans if score == best]
            return choices[rng.randrange(len(choices))]
        frontier = following
    return None


#: The validation player of each preset: ``("planner", lookahead)`` or ``("patient",
#: positions)``. In ``fifteen`` every move sends cards home, so a planner would be the grading
#: player itself; the patient player is used there instead.
VALIDATION_PLAYERS: dict[str, tuple[str, int]] = {
    "thirteen": ("planner", 3),
    "thirteen-return": ("planner", 3),
    "fifteen": ("patient", 20),
    "cloverleaf": ("planner", 2),
    "alexander": ("patient", 1000),
}


def validation_seed(preset: str, number: int) -> str:
    """Seeds of the validation players, distinct from the grading seeds."""
    return f"cloversolve-validation/{preset}/{number}"


def validation_player_wins(preset: str, number: int) -> bool:
    """Whether the preset's validation player wins deal ``number`` (one seeded game)."""
    spec = find_preset(preset)
    kind, strength = VALIDATION_PLAYERS[spec.name]
    position = position_from_layout(deal(spec.name, number))
    seed = validation_seed(spec.name, number)
    if kind == "planner":
        return planner_wins(position, strength, seed)
    return patient_player_wins(position, strength, seed)
