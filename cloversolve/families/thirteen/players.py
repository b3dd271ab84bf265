"""The thirteen family's own player: the grading panel's ``dig`` move preference of Four
Leaf Clovers (given by the family's plug-in)."""

from __future__ import annotations

from ...core.notation import Move, Transfer
from ...rules.base import Position, depth_of
from .rules import ThirteenPosition


def thirteen_dig(position: Position) -> list[list[Move]]:
    """Four Leaf Clovers: home moves (those exposing the next rank first); then moves off a
    pile holding the needed rank, the shallower that card the better, not onto a pile holding
    it, not emptying a pile; then the other pile moves. A move that takes away the last King
    lying at the bottom of a pile comes last (FACTS.md, fact 1: it loses unless it wins).
    Foundation returns are never made."""
    assert isinstance(position, ThirteenPosition)
    need = position.needed_rank
    after = need % position.ranks + 1
    piles = position.piles
    top = position.ranks
    king_bottoms = sum(1 for pile in piles if pile and pile[0].rank == top)
    cards_left = sum(len(pile) for pile in piles)
    ranked: dict[tuple, list[Move]] = {}
    for move in position.legal_moves():
        assert isinstance(move, Transfer)
        src, dst = move.src, move.dst
        if not isinstance(src, int):
            continue
        pile = piles[src - 1]
        empties = len(pile) == 1
        keeps_king = not (empties and pile[0].rank == top and king_bottoms == 1) or cards_left == 1
        if not isinstance(dst, int):
            exposes = len(pile) > 1 and pile[-2].rank == after
            score: tuple = (keeps_king, 2, exposes, not empties, 0)
        else:
            target = piles[dst - 1]
            depth = depth_of(pile[:-1], lambda card: card.rank == need)
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
