"""The suit projections of a clover position (FACTS.md, fact 4): a position is lost when one
of its projections is lost, which the plain-Python exhaustive search proves."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from ...core.cards import Card
from ...rules.base import Position
from ...rules.loss_witnesses import FALSE, WON, Check
from .rules import SUITS, UP_SUITS, CloverPosition


def projection(position: CloverPosition, suits: str) -> CloverPosition:
    """The projection of ``position`` onto ``suits`` (FACTS.md, fact 4): the other suits'
    cards leave the fans, order kept, and complete their foundations; then the automatic
    moves."""
    ranks = position.ranks
    foundations = {
        suit: position.foundation_cards(suit)
        if suit in suits
        else [Card(h if suit in UP_SUITS else ranks + 1 - h, suit) for h in range(1, ranks + 1)]
        for suit in SUITS
    }
    fans = [[card for card in fan if card.suit in suits] for fan in position.fans]
    return CloverPosition(fans, foundations, ranks=ranks)


class CloverWitnesses:
    """The family's loss witnesses (:class:`~cloversolve.rules.loss_witnesses.LossWitnesses`):
    ``suit-projection`` (the suits of a lost projection), checked by exhausting the
    projected game."""

    kinds = ("suit-projection",)

    def fields(self, kind: str, position: Position, details: Mapping[str, Any]) -> dict[str, Any]:
        assert isinstance(position, CloverPosition) and kind in self.kinds
        return {"suits": str(details["projection_suits"])}

    def check(
        self,
        kind: str,
        position: Position,
        fields: Mapping[str, Any],
        exhaust: Callable[[Position], Check],
    ) -> Check:
        assert isinstance(position, CloverPosition) and kind in self.kinds
        suits = fields["suits"]
        verdict, how = exhaust(projection(position, suits))
        if verdict == WON:
            return FALSE, f"the projection onto {suits} is won"
        return verdict, f"the projection onto {suits}: {how}"


#: The family's loss witnesses (its plug-in gives them).
WITNESSES = CloverWitnesses()
