"""A plain exhaustive solver over any reference engine: the obviously correct reference.

Depth-first over every legal move, in the engine's own order, with a set of the positions
visited (by :meth:`~cloversolve.rules.base.Position.key`): no pruning, no symmetry, no
shortcut. The search is iterative (no recursion limit) and works on a copy, so the position
given is never changed. Slow, and meant for small positions and for checking the search
kernels' verdicts.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from dataclasses import dataclass

from ..core.notation import Move
from .base import Position


@dataclass(frozen=True)
class ExhaustiveOutcome:
    """What :func:`solve_exhaustively` found."""

    #: True when some sequence of legal moves wins, False when none does, ``None`` when the
    #: position budget ran out before a decision.
    solvable: bool | None
    #: A winning line when ``solvable`` (empty for a position already won), else ``None``.
    route: tuple[Move, ...] | None
    #: Distinct positions visited, the starting one included.
    positions: int


def solve_exhaustively(position: Position, max_positions: int | None = None) -> ExhaustiveOutcome:
    """Decide ``position`` by trying every line of legal moves (``position`` is left unchanged).

    With ``max_positions``, visit at most that many distinct positions: a search that needs
    more stops undecided (``solvable`` is ``None``).
    """
    if max_positions is not None and max_positions < 1:
        raise ValueError(f"max_positions must be at least 1, got {max_positions!r}")
    board = position.copy()
    seen = {board.key()}
    if board.is_won():
        return ExhaustiveOutcome(True, (), len(seen))
    route: list[Move] = []
    pending = [iter(list(board.legal_moves()))]
    while pending:
        move = next(pending[-1], None)
        if move is None:
            pending.pop()
            if route:
                board.pop()
                route.pop()
            continue
        board.push(move)
        key = board.key()
        if key in seen:
            board.pop()
            continue
        if max_positions is not None and len(seen) >= max_positions:
            return ExhaustiveOutcome(None, None, len(seen))
        seen.add(key)
        route.append(move)
        if board.is_won():
            return ExhaustiveOutcome(True, tuple(route), len(seen))
        pending.append(iter(list(board.legal_moves())))
    return ExhaustiveOutcome(False, None, len(seen))


def count_reachable(
    position: Position, depth: int, state: Callable[[Position], Hashable] | None = None
) -> int:
    """Distinct states reached from ``position`` in exactly ``depth`` legal moves (``position``
    is left unchanged). A state is the position's :meth:`~Position.play_state` unless
    ``state`` says otherwise."""
    if depth < 0:
        raise ValueError(f"depth must not be negative, got {depth!r}")
    state_of = state if state is not None else _play_state
    frontier = {state_of(position): position.copy()}
    for _ in range(depth):
        following: dict[Hashable, Position] = {}
        for current in frontier.values():
            for move in list(current.legal_moves()):
                current.push(move)
                following.setdefault(state_of(current), current.copy())
                current.pop()
        frontier = following
    return len(frontier)


def _play_state(position: Position) -> Hashable:
    return position.play_state()
