"""The visible hint of the 15-sum game (FACTS.md, fact 11): a legal group chosen from the
visible grid alone, so it reveals nothing about the stock."""

from __future__ import annotations

import itertools

from ...core.notation import Group, Move
from ...rules.base import Position
from .rules import COURT_RANKS, NUMBER_GROUPS, FifteenPosition

#: The 9 ways to split A..9 into three groups of 15.
SUIT_SPLITS: tuple[tuple[tuple[int, ...], ...], ...] = tuple(
    trio
    for trio in itertools.combinations(NUMBER_GROUPS, 3)
    if sorted(rank for group in trio for rank in group) == list(range(1, 10))
)

#: How many of the 9 splits of A..9 into three 15s contain each number group.
_SPLITS_CONTAINING = {
    group: sum(group in split for split in SUIT_SPLITS) for group in NUMBER_GROUPS
}


def visible_hint(position: Position) -> Move | None:
    """A legal group chosen from the visible grid alone; ``None`` when there is none.

    The stock is never looked at, so the hint reveals nothing about it. The rule:

    1. a court trio (J, Q, K of one suit), which can only ever leave together;
    2. otherwise the number group that belongs to the most of the 9 ways to split a suit's
       A..9 into three groups of 15 (it keeps that suit's options open), then the one with
       the most cards (it uncovers the most cells);
    3. remaining ties go to the first group in :meth:`FifteenPosition.legal_moves` order.

    A hint is a sensible legal move, not a promise that the game can still be won.
    """
    assert isinstance(position, FifteenPosition)
    best: Group | None = None
    best_score: tuple[int, int, int] | None = None
    for move in position.legal_moves():
        cards = [position.cells[cell - 1] for cell in move.cells]
        ranks = tuple(sorted(card.rank for card in cards if card is not None))
        if ranks == COURT_RANKS:
            score = (1, 0, 0)
        else:
            score = (0, _SPLITS_CONTAINING.get(ranks, 0), len(ranks))
        if best_score is None or score > best_score:
            best, best_score = move, score
    return best
