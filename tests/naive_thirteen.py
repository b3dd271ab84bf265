"""A plain exhaustive solver for tiny Four Leaf Clovers games, over the reference engine.

Depth-first search over :class:`ThirteenPosition` with a set of visited positions (the
engine's own ``key()``, suits and pile numbers included): obviously correct, and slow. Only
for tests, on games of a dozen cards or so.
"""

from __future__ import annotations

import random

from cloversolve.cards import SUITS, Card
from cloversolve.rules.thirteen import ThirteenPosition


def is_winnable(position: ThirteenPosition) -> bool:
    """True when some sequence of legal moves wins ``position`` (which is left unchanged)."""
    position = position.copy()
    if position.is_won():
        return True
    seen = {position.key()}
    stack = [list(position.legal_moves())]
    while stack:
        if not stack[-1]:
            stack.pop()
            if stack:
                position.pop()
            continue
        position.push(stack[-1].pop())
        if position.is_won():
            return True
        key = position.key()
        if key in seen:
            position.pop()
            continue
        seen.add(key)
        stack.append(list(position.legal_moves()))
    return False


def tiny_game(
    seed: int,
    *,
    ranks: int,
    suits: int,
    piles: int,
    on_foundation: int = 0,
    allow_return: bool = False,
) -> ThirteenPosition:
    """A random tiny game: ``suits`` suits of ranks 1..``ranks``; the first
    ``on_foundation`` cards of the build (A, 2, ...; random suits) already on the foundation,
    the rest shuffled and dealt round-robin into ``piles`` piles."""
    rng = random.Random(seed)
    deck = [Card(rank, suit) for suit in SUITS[:suits] for rank in range(1, ranks + 1)]
    rng.shuffle(deck)
    foundation = []
    for index in range(on_foundation):
        card = next(c for c in deck if c.rank == index % ranks + 1)
        deck.remove(card)
        foundation.append(card)
    return ThirteenPosition(
        [deck[i::piles] for i in range(piles)],
        foundation,
        ranks=ranks,
        allow_return=allow_return,
    )
