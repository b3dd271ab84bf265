"""Dead-end analysis of the ``clover`` kernel: a settled position where some card provably never
gets home is lost (FACTS.md, fact 9; :mod:`.search` applies it under "Dead
ends")."""

import numpy as np

from ...search.kernel import inner_kernel
from .moves import _CODES, _foundation_card, _suit_position


@inner_kernel
def _is_dead(nfans, ranks, board, scratch):
    """True if some card on a fan provably never gets home (so the game is lost, if the
    position is settled); see FACTS.md, fact 9.

    Computes the least set ``M`` by propagation: ``scratch[0]`` marks the cards of ``M``,
    ``scratch[1]`` the reachable ones (every card above them in ``M``), ``scratch[2]`` is a
    stack of cards to examine, ``scratch[3, s]`` how many cards after the foundation top of
    suit ``s`` are all reachable.
    """
    fans, flen, height = board[0], board[1], board[2]
    movable, reachable, pending, prefix = scratch[0], scratch[1], scratch[2], scratch[3]
    movable[:_CODES] = 0
    reachable[:_CODES] = 0
    prefix[:4] = 0
    # (typed values, not literals: one compiled version of each callee)
    may_empty = np.bool_(False)
    size = np.int64(0)
    for f in range(nfans):
        if flen[f] == 0:
            may_empty = True
        else:
            size = _now_reachable(fans[f, flen[f] - 1], ranks, height, reachable, prefix,
                                  pending, size)  # fmt: skip
    while size > 0:
        size -= 1
        card = pending[size]
        if movable[card] or not reachable[card]:
            continue
        if not _may_move(card, ranks, height, reachable, prefix, may_empty):
            continue
        movable[card] = 1
        where = board[4][card]
        fan, index = where >> 6, where & 63
        if index > 0:
            size = _now_reachable(fans[fan, index - 1], ranks, height, reachable, prefix,
                                  pending, size)  # fmt: skip
        elif not may_empty:
            may_empty = True  # this fan may become empty: every Ace and top card may use it
            for suit in range(4):
                for other in (suit << 4, (suit << 4) + ranks - 1):
                    if _suit_position(other, ranks) > height[suit]:
                        pending[size] = other
                        size += 1
    return (
        height[0] + prefix[0] < ranks
        or height[1] + prefix[1] < ranks
        or height[2] + prefix[2] < ranks
        or height[3] + prefix[3] < ranks
    )


@inner_kernel
def _now_reachable(card, ranks, height, reachable, prefix, pending, size):
    """Mark ``card`` reachable and queue the cards that may now move; return the new size."""
    reachable[card] = 1
    pending[size] = card
    size += 1
    suit = card >> 4
    rank = card & 15
    if rank > 0:
        pending[size] = card - 1
        size += 1
    if rank < ranks - 1:
        pending[size] = card + 1
        size += 1
    # The suit's foundation may now take more cards in turn: queue the ones that become due
    # in this relaxed sense (all cards before them reachable).
    before = prefix[suit]
    while (
        height[suit] + prefix[suit] < ranks
        and reachable[_foundation_card(suit, height[suit] + prefix[suit] + 1, ranks)]
    ):
        prefix[suit] += 1
    last = min(ranks, height[suit] + prefix[suit] + 1)
    for position in range(height[suit] + before + 2, last + 1):
        pending[size] = _foundation_card(suit, position, ranks)
        size += 1
    return size


@inner_kernel
def _may_move(card, ranks, height, reachable, prefix, may_empty):
    """Whether a reachable ``card`` may make a first move (see ``_is_dead``)."""
    suit = card >> 4
    rank = card & 15
    if may_empty and (rank == 0 or rank == ranks - 1):
        return True
    if rank > 0 and _suit_position(card - 1, ranks) > height[suit] and reachable[card - 1]:
        return True
    if rank < ranks - 1 and _suit_position(card + 1, ranks) > height[suit] and reachable[card + 1]:
        return True
    return _suit_position(np.int64(card), ranks) <= height[suit] + prefix[suit] + 1
