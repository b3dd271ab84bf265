"""A plain exhaustive solver for small 15-sum positions, over the reference engine.

Depth-first over real positions (cells and stock, no shortcut of any kind), with a visited set
of position keys. Obviously correct and slow: meant for positions with few cards.
"""

from __future__ import annotations

import itertools
import random

from cloversolve.cards import JACK, KING, QUEEN, SUITS, Card
from cloversolve.notation import GRID_CELLS, Group
from cloversolve.rules.fifteen import FifteenPosition


class TooManyPositions(Exception):
    """The position budget ran out before the search finished."""


def naive_solve(position: FifteenPosition, max_positions: int | None = None) -> list[Group] | None:
    """A winning route from ``position`` (left unchanged), or ``None`` if there is none.

    Raises :class:`TooManyPositions` after ``max_positions`` distinct positions.
    """
    visited: set[tuple] = set()

    def walk() -> list[Group] | None:
        if position.is_won():
            return []
        key = position.key()
        if key in visited:
            return None
        visited.add(key)
        if max_positions is not None and len(visited) > max_positions:
            raise TooManyPositions
        for move in list(position.legal_moves()):
            position.push(move)
            try:
                rest = walk()
            finally:
                position.pop()
            if rest is not None:
                return [move, *rest]
        return None

    return walk()


def small_position(rng: random.Random, max_cards: int = 20) -> FifteenPosition:
    """A random small position: a few suits, each holding some whole 15-groups of one split
    of A..9 (sometimes a random handful instead), sometimes its court trio (or part of it).

    Sets of more than ``max_cards`` are redrawn. Up to 16 cards fill random cells with an
    empty stock; more fill the grid and the rest form the stock. Both winnable and lost
    positions come out.
    """
    cards = _small_card_set(rng)
    while len(cards) > max_cards:
        cards = _small_card_set(rng)
    rng.shuffle(cards)
    if len(cards) <= GRID_CELLS:
        cells: list[Card | None] = [None] * GRID_CELLS
        for cell, card in zip(rng.sample(range(GRID_CELLS), len(cards)), cards, strict=True):
            cells[cell] = card
        return FifteenPosition(cells)
    return FifteenPosition(cards[:GRID_CELLS], cards[GRID_CELLS:])


def _small_card_set(rng: random.Random) -> list[Card]:
    cards: list[Card] = []
    for suit in rng.sample(SUITS, rng.choice((1, 2, 2, 3))):
        if rng.random() < 0.15:
            ranks = rng.sample(range(1, 10), rng.randint(1, 5))
        else:
            groups = rng.sample(rng.choice(_SPLITS), rng.choice((0, 1, 2, 3, 3)))
            ranks = [rank for group in groups for rank in group]
        roll = rng.random()
        if roll < 0.5:
            ranks += [JACK, QUEEN, KING]
        elif roll < 0.6:
            ranks += rng.sample([JACK, QUEEN, KING], rng.randint(1, 2))
        cards += [Card(rank, suit) for rank in ranks]
    return cards


def _splits() -> list[tuple[tuple[int, ...], ...]]:
    groups = [
        combo
        for size in range(2, 6)
        for combo in itertools.combinations(range(1, 10), size)
        if sum(combo) == 15
    ]
    return [
        trio
        for trio in itertools.combinations(groups, 3)
        if sorted(rank for group in trio for rank in group) == list(range(1, 10))
    ]


_SPLITS = _splits()
