"""Validation players of the difficulty grading: player models that never compute a grade.

:func:`planner_wins` (lookahead) and :func:`patient_player_wins` (depth-first search with undo
and a limited patience) check the grading from outside: a preset's validation player must win
Easy deals more often than Normal ones and Normal more often than Hard ones
(``grading_validation.py``).
"""

from __future__ import annotations

import random
from collections.abc import Iterator

from cloversolve.dealing import deal
from cloversolve.notation import Move, Transfer
from cloversolve.presets import find_preset
from cloversolve.rules import Position, position_from_layout


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
        before = position.cards_home()
        scored = []
        for move in position.legal_moves():
            position.push(move)
            scored.append((before - position.cards_home(), rng.random(), move))
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
            before = position.cards_home()
            for move in list(position.legal_moves()):
                if isinstance(move, Transfer) and isinstance(move.src, str):
                    continue
                position.push(move)
                key = position.key()
                usable = key not in visited and not position.visibly_lost()
                if usable and position.cards_home() > before:
                    plans.append((position.build_places(), (*prefix, move)))
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
