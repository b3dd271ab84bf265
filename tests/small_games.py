"""Small games the plain exhaustive solver (``cloversolve.rules.exhaustive``) decides
quickly: tiny decks dealt round-robin, tiny clover deals, and small 15-sum positions."""

from __future__ import annotations

import itertools
import random
from collections.abc import Callable
from typing import TypeVar

from cloversolve.core.cards import JACK, KING, QUEEN, SUITS, Card
from cloversolve.core.notation import GRID_CELLS
from cloversolve.families.clover.rules import UP_SUITS, CloverPosition
from cloversolve.families.fifteen.rules import FifteenPosition
from cloversolve.rules import Position

P = TypeVar("P", bound=Position)


def round_robin_tiny_game(
    engine: Callable[..., P],
    seed: int,
    *,
    ranks: int,
    piles: int,
    suits: int = 4,
    on_foundation: int = 0,
    **rules: bool,
) -> P:
    """A tiny game of a one-foundation engine (``engine(piles, foundation, ranks=...,
    **rules)``): ``suits`` suits of ranks 1..``ranks``, shuffled by ``seed``; the first
    ``on_foundation`` cards of the build A, 2, ... (wrapping, each the first card of its rank
    in the shuffled deck) already on the foundation; the rest dealt round-robin into
    ``piles`` piles."""
    rng = random.Random(seed)
    deck = [Card(rank, suit) for suit in SUITS[:suits] for rank in range(1, ranks + 1)]
    rng.shuffle(deck)
    foundation = []
    for index in range(on_foundation):
        card = next(c for c in deck if c.rank == index % ranks + 1)
        deck.remove(card)
        foundation.append(card)
    return engine([deck[i::piles] for i in range(piles)], foundation, ranks=ranks, **rules)


def foundation_bases(ranks: int) -> dict[str, list[Card]]:
    """The four base cards of a clover game on their foundations: red Aces, black top-rank
    cards."""
    return {f"F{suit}": [Card(1 if suit in UP_SUITS else ranks, suit)] for suit in SUITS}


def random_tiny_clover_deal(rng: random.Random, ranks: int, fans: int) -> CloverPosition:
    """A shuffled tiny clover deal: the bases on their foundations, the rest round-robin into
    ``fans`` (then the automatic moves)."""
    bases = foundation_bases(ranks)
    dealt = [
        Card(rank, suit)
        for suit in SUITS
        for rank in range(1, ranks + 1)
        if Card(rank, suit) not in bases[f"F{suit}"]
    ]
    rng.shuffle(dealt)
    return CloverPosition([dealt[i::fans] for i in range(fans)], bases, ranks=ranks)


def small_fifteen_position(rng: random.Random, max_cards: int = 20) -> FifteenPosition:
    """A random small 15-sum position: a few suits, each holding some whole 15-groups of one
    split of A..9 (sometimes a random handful instead), sometimes its court trio (or part of
    it).

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
