"""Plain exhaustive solver for tiny clover games, over the reference engine.

No pruning, no symmetry: depth-first over every legal move (foundation returns included) with
a set of visited positions. Slow, and meant to be obviously correct.
"""

from __future__ import annotations

import random

from cloversolve.cards import Card
from cloversolve.notation import Move
from cloversolve.rules.clover import SUITS, UP_SUITS, CloverPosition


def naive_route(position: CloverPosition) -> list[Move] | None:
    """A winning route from ``position``, or ``None`` if no sequence of moves wins."""
    board = position.copy()
    if board.is_won():
        return []
    seen = {board.key()}
    frames = [iter(list(board.legal_moves()))]
    while frames:
        move = next(frames[-1], None)
        if move is None:
            frames.pop()
            if frames:
                board.pop()
            continue
        board.push(move)
        if board.is_won():
            return board.move_stack
        key = board.key()
        if key in seen:
            board.pop()
            continue
        seen.add(key)
        frames.append(iter(list(board.legal_moves())))
    return None


def naive_solvable(position: CloverPosition) -> bool:
    return naive_route(position) is not None


def foundation_bases(ranks: int) -> dict[str, list[Card]]:
    """The four base cards on their foundations: red Aces, black top-rank cards."""
    return {f"F{suit}": [Card(1 if suit in UP_SUITS else ranks, suit)] for suit in SUITS}


def random_tiny_position(rng: random.Random, ranks: int, fans: int) -> CloverPosition:
    """A shuffled tiny deal: the bases on their foundations, the rest round-robin into ``fans``
    (then the automatic moves)."""
    bases = foundation_bases(ranks)
    dealt = [
        Card(rank, suit)
        for suit in SUITS
        for rank in range(1, ranks + 1)
        if Card(rank, suit) not in bases[f"F{suit}"]
    ]
    rng.shuffle(dealt)
    return CloverPosition([dealt[i::fans] for i in range(fans)], bases, ranks=ranks)
