"""What a player may know: a lookahead sees the cards a player sees, never the unseen ones.

A player that tries moves ahead (a random game, a search) plays them on
:func:`determinized`: a copy of the position whose unseen cards (a stock, in the families
that have one: the engine's :meth:`~cloversolve.rules.base.Position.unseen_cards`) come in an
order the player's random generator draws afresh each time, so its choices never depend on
the real order. In a family whose cards are all face up it is the position itself, and the
generator is not used.
"""

from __future__ import annotations

import random

from ..rules import Position


def determinized(position: Position, rng: random.Random) -> Position:
    """``position`` with its unseen cards in a random order drawn from ``rng`` (a copy
    without move history), or ``position`` itself when it has no unseen cards. The order
    depends on which cards are unseen and on ``rng``, never on their real order."""
    unseen = position.unseen_cards()
    if not unseen:
        return position
    order = sorted(unseen)
    rng.shuffle(order)
    return position.with_unseen_cards(order)
