"""The clover family's own player: the grading panel's ``dig`` move preference of Clover
Leaf and Alexander the Great (given by the family's plug-in)."""

from __future__ import annotations

from ...core.notation import Move, Transfer
from ...rules.base import Position, depth_of
from .rules import CloverPosition


def clover_dig(position: Position) -> list[list[Move]]:
    """Clover Leaf / Alexander: moves that send a card home or uncover a card a foundation
    needs next (the automatic moves then take it); then moves off a fan holding such a card,
    the shallower the better, not onto a fan holding one; then the other fan moves.
    Foundation returns are never made."""
    assert isinstance(position, CloverPosition)
    wanted = {position.foundation_next(suit) for suit in "CDHS"} - {None}
    ranked: dict[tuple, list[Move]] = {}
    for move in position.legal_moves():
        assert isinstance(move, Transfer)
        src, dst = move.src, move.dst
        if not isinstance(src, int):
            continue
        fan = position.fans[src - 1]
        uncovers = len(fan) > 1 and fan[-2] in wanted
        depth = depth_of(fan[:-1], lambda card: card in wanted)
        buries = isinstance(dst, int) and any(card in wanted for card in position.fans[dst - 1])
        home = not isinstance(dst, int)
        score = (home or uncovers, depth is not None, not buries, -(depth or 0))
        ranked.setdefault(score, []).append(move)
    return [ranked[key] for key in sorted(ranked, reverse=True)]
